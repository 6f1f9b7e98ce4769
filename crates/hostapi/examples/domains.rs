//! Lists the account's domains and the DNS records of the first one.
//!
//! ```sh
//! HOSTAPI_API_KEY=… HOSTAPI_BASE_URL=https://… cargo run -p hostapi --example domains
//! ```

#[tokio::main]
async fn main() -> Result<(), hostapi::Error> {
    let client = hostapi::Client::from_env()?;
    let domains = client.domains().list().await?;
    for domain in &domains {
        let state = if domain.is_normal() {
            "normal".to_owned()
        } else {
            format!(
                "code {}: {}",
                domain.code.unwrap_or_default(),
                domain.readable_status.as_deref().unwrap_or("?")
            )
        };
        println!(
            "{:<30} ttl {:>6}  {}",
            domain.name,
            domain.ttl.map(|t| t.to_string()).unwrap_or_default(),
            state
        );
    }
    if let Some(first) = domains.first() {
        println!("\nDNS records of {}:", first.name);
        for record in client.domains().records(&first.name).list().await? {
            let priority = record
                .priority
                .map(|p| format!(" (priority {p})"))
                .unwrap_or_default();
            println!(
                "  {:>8}  {:<6} {:<30} {}{priority}",
                record.id,
                record.record_type.as_ref().map_or("?", |t| t.as_wire()),
                record.name,
                record.content
            );
        }
    }
    Ok(())
}
