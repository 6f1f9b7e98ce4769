//! Lists the v1 virtual servers with their state and addresses; with an id, powers that
//! server on and prints the job.
//!
//! ```sh
//! HOSTAPI_API_KEY=… HOSTAPI_BASE_URL=https://… cargo run -p hostapi --example virtual_servers [ID]
//! ```

#[tokio::main]
async fn main() -> Result<(), hostapi::Error> {
    let client = hostapi::Client::from_env()?;
    let servers = client.virtual_servers();
    for server in servers.list().await? {
        let ips: Vec<String> = server.ips.iter().map(|a| a.ip.to_string()).collect();
        println!(
            "{:>8}  {:<20} {:<8} {}",
            server.id,
            server.name.as_deref().unwrap_or("-"),
            server.state.as_ref().map_or("?", |s| s.as_str()),
            ips.join(", ")
        );
    }
    if let Some(id) = std::env::args().nth(1) {
        let id: hostapi::types::VirtualServerId = id.parse()?;
        let job = servers.power_on(&id).await?;
        println!("power on of {id}: job {}", job.id);
    }
    Ok(())
}
