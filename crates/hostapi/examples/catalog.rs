//! Prints the catalogues: operating systems (with their control panels), rescue
//! images, and optionally the partition schema suggested for one server.
//!
//! ```sh
//! HOSTAPI_API_KEY=… HOSTAPI_BASE_URL=https://… cargo run -p hostapi --example catalog [BARE_METAL_ID]
//! ```

use hostapi::PartitionSize;

#[tokio::main]
async fn main() -> Result<(), hostapi::Error> {
    let client = hostapi::Client::from_env()?;
    let catalog = client.catalog();
    let systems = catalog.list_operating_systems().await?;
    println!("Operating systems:");
    for os in &systems {
        let panels = catalog.list_control_panels(&os.id).await?;
        let names: Vec<_> = panels.iter().map(|p| p.name.as_str()).collect();
        println!("  {:>6}  {}  [{}]", os.id, os.name, names.join(", "));
    }
    println!("Rescue images:");
    for image in catalog.list_rescue_images().await? {
        println!("  {:>6}  {}", image.id, image.name);
    }
    if let (Some(server), Some(os)) = (std::env::args().nth(1), systems.first()) {
        let server: hostapi::BareMetalId = server.parse()?;
        let schema = catalog.get_partition_schema(&os.id, &server).await?;
        println!("Suggested partitions for {} on {server}:", os.name);
        for partition in schema.suggestion.map(|s| s.partitions).unwrap_or_default() {
            let size = match partition.size {
                PartitionSize::Megabytes(mb) => format!("{mb} MB"),
                PartitionSize::Remainder => "rest of disk".to_owned(),
            };
            println!(
                "  {}  {:<6} {:<12} {}",
                partition.index,
                partition.filesystem,
                size,
                partition.mountpoint.as_deref().unwrap_or("(none)")
            );
        }
    }
    Ok(())
}
