//! Lists the private racks with their location and IPs; with an IP, sets its reverse
//! DNS name through the account-wide IP endpoint.
//!
//! ```sh
//! HOSTAPI_API_KEY=… HOSTAPI_BASE_URL=https://… cargo run -p hostapi --example private_racks [IP NAME]
//! ```

use hostapi::ips::IpUpdate;

#[tokio::main]
async fn main() -> Result<(), hostapi::Error> {
    let client = hostapi::Client::from_env()?;
    let racks = client.private_racks();
    for summary in racks.list().await? {
        let rack = racks.get(&summary.id).await?;
        println!(
            "{:>6}  {:<20} {}",
            rack.id,
            rack.name.as_deref().unwrap_or("-"),
            rack.location
                .as_ref()
                .and_then(|l| l.site.as_deref())
                .unwrap_or("?")
        );
        for ip in racks.ips(&rack.id).list().await? {
            let null = if ip.null_routed == Some(true) {
                " (null-routed)"
            } else {
                ""
            };
            println!("          {}{null}", ip.ip);
        }
    }
    let mut args = std::env::args().skip(1);
    if let (Some(ip), Some(name)) = (args.next(), args.next()) {
        let ip: std::net::IpAddr = ip.parse().map_err(|e| hostapi::Error::InvalidInput {
            argument: "ip".into(),
            reason: format!("{e}"),
        })?;
        let updated = client.ips().update(ip, &IpUpdate::ReverseDns(name)).await?;
        println!(
            "{} → {}",
            updated.ip,
            updated.reverse_dns.unwrap_or_default()
        );
    }
    Ok(())
}
