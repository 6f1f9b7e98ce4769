//! Prints the catalogues: operating systems (with their control panels), rescue
//! images, and optionally the partition schema suggested for one server.
//!
//! ```sh
//! HOSTAPI_API_KEY=… HOSTAPI_BASE_URL=https://… cargo run -p hostapi --example catalog [BARE_METAL_ID]
//! ```

use hostapi::catalog::PartitionSize;

#[tokio::main]
async fn main() -> Result<(), hostapi::Error> {
    let client = hostapi::Client::from_env()?;
    let catalog = client.catalog();
    let operating_systems = catalog.operating_systems();
    let systems = operating_systems.list().await?;
    println!("Operating systems:");
    for os in &systems {
        let panels = operating_systems.control_panels(&os.id).list().await?;
        let names: Vec<_> = panels
            .iter()
            .map(|p| p.name.as_deref().unwrap_or("?"))
            .collect();
        let name = os.name.as_deref().unwrap_or("?");
        println!("  {:>6}  {name}  [{}]", os.id, names.join(", "));
    }
    println!("Rescue images:");
    for image in catalog.rescue_images().list().await? {
        println!(
            "  {:>6}  {}",
            image.id,
            image.name.as_deref().unwrap_or("?")
        );
    }
    if let (Some(server), Some(os)) = (std::env::args().nth(1), systems.first()) {
        let server: hostapi::types::BareMetalId = server.parse()?;
        let schema = operating_systems.partition_schema(&os.id, &server).await?;
        println!(
            "Suggested partitions for {} on {server}:",
            os.name.as_deref().unwrap_or("?")
        );
        for partition in schema.suggestion.map(|s| s.partitions).unwrap_or_default() {
            let size = match partition.size {
                Some(PartitionSize::Megabytes(mb)) => format!("{mb} MB"),
                Some(PartitionSize::Remainder) => "rest of disk".to_owned(),
                _ => "?".to_owned(),
            };
            println!(
                "  {}  {:<6} {:<12} {}",
                partition.index,
                partition.filesystem.as_deref().unwrap_or("?"),
                size,
                partition.mountpoint.as_deref().unwrap_or("(none)")
            );
        }
    }
    Ok(())
}
