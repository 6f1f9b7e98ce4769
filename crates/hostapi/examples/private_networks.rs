//! Lists the private networks and the members of each.
//!
//! ```sh
//! HOSTAPI_API_KEY=… HOSTAPI_BASE_URL=https://… cargo run -p hostapi --example private_networks
//! ```
//!
//! Adding a server and waiting until it is configured is shown in the docs of
//! `PrivateNetworks::wait_member_configured` (not run here, as it changes the account).

#[tokio::main]
async fn main() -> Result<(), hostapi::Error> {
    let client = hostapi::Client::from_env()?;
    let networks = client.private_networks();
    let list = networks.list().await?;
    println!("{} private network(s)", list.len());
    for summary in &list {
        println!(
            "{:>6}  {:<20} created {}",
            summary.id,
            summary.name.as_deref().unwrap_or("-"),
            summary
                .created_at
                .map(|t| t.to_rfc3339())
                .unwrap_or_else(|| "?".into())
        );
        let detail = networks.get(&summary.id).await?;
        for member in detail.members.unwrap_or_default() {
            println!(
                "        bare metal {:<10} {:<12} {:<18} {}",
                member.bare_metal_id,
                member
                    .status
                    .map(|s| s.as_wire().to_owned())
                    .unwrap_or_default(),
                member.cidr.unwrap_or_default(),
                member
                    .port_speed
                    .map(|s| format!("{} {}", s.amount, s.unit.as_wire()))
                    .unwrap_or_default()
            );
        }
    }
    Ok(())
}
