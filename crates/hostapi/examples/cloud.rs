//! The cloud v2 interface: stream the virtual servers, read one server's credentials
//! and last week's datatraffic, and list the private clouds.
//!
//! ```sh
//! HOSTAPI_API_KEY=… HOSTAPI_BASE_URL=https://… cargo run -p hostapi --example cloud
//! ```
//!
//! Nothing is changed: the example only reads.

use futures::StreamExt;
use hostapi::cloud::{CredentialType, Granularity, MetricsQuery};
use hostapi::{Client, Error};

#[tokio::main]
async fn main() -> Result<(), hostapi::Error> {
    let client = Client::from_env()?;
    let servers = client.cloud_servers();

    // The pager fetches one page at a time as the stream is consumed. A record that
    // cannot be read is reported in its place and the listing goes on; a failed
    // request ends it.
    let mut first = None;
    let mut count = 0usize;
    let mut stream = std::pin::pin!(servers.list().page_size(50).stream());
    while let Some(item) = stream.next().await {
        let server = match item {
            Ok(server) => server,
            Err(error @ Error::Decode(_)) => {
                eprintln!("skipped a server: {error}");
                continue;
            }
            Err(error) => return Err(error),
        };
        count += 1;
        if count <= 10 {
            println!(
                "{}  {:<10} {:<8} {}",
                server.id,
                server.state.as_ref().map_or("-", |s| s.as_str()),
                server.data_center.as_deref().unwrap_or("-"),
                server.reference.as_deref().unwrap_or(""),
            );
        }
        first.get_or_insert(server.id);
    }
    println!("{count} cloud servers");

    if let Some(id) = first {
        for credential in servers
            .credentials(&id)
            .list(CredentialType::OperatingSystem)
            .await?
        {
            println!("{id}: operating system user {}", credential.username);
        }

        let now = chrono::Utc::now();
        let query =
            MetricsQuery::new(now - chrono::Duration::days(7), now).granularity(Granularity::Day);
        let traffic = servers.datatraffic(&id, &query).await?;
        let total = |bytes: Option<rust_decimal::Decimal>| {
            bytes.map_or_else(|| "too many".to_owned(), |b| b.to_string())
        };
        println!(
            "{id}: {} bytes out, {} bytes in over the last 7 days",
            total(traffic.outgoing.total_bytes()),
            total(traffic.incoming.total_bytes())
        );
    }

    for cloud in client.private_clouds().list().await? {
        println!(
            "private cloud {} in {} ({} cores)",
            cloud.id,
            cloud.data_center.as_deref().unwrap_or("-"),
            cloud
                .hardware
                .as_ref()
                .and_then(|h| h.cpu_cores)
                .map_or_else(|| "?".to_owned(), |c| c.to_string()),
        );
    }
    Ok(())
}
