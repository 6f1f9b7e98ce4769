//! The CDN from the environment: the customer record, its origins and its access
//! control list; with `purge <zone> <path>…`, also purges those files and waits until
//! the purge job is done.
//!
//! ```sh
//! export HOSTAPI_CDN_BASE_URL=https://cdn.example.com HOSTAPI_CDN_SECRET=… HOSTAPI_CDN_CUSTOMER=…
//! cargo run -p hostapi --example cdn
//! cargo run -p hostapi --example cdn -- purge 1001 /index.html /css/site.css
//! ```

use hostapi::types::ZoneId;
use hostapi::{Client, WaitOptions};

#[tokio::main]
async fn main() -> Result<(), hostapi::Error> {
    let client = Client::from_env()?;
    let cdn = client.cdn();

    let customer = cdn.customers().get().await?;
    println!(
        "customer {} ({}), active: {:?}, reseller: {:?}, created {:?}",
        customer
            .customer_number
            .as_ref()
            .map_or("?", |n| n.as_str()),
        customer
            .company_name
            .as_deref()
            .unwrap_or("no company name"),
        customer.active,
        customer.reseller,
        customer.created_at,
    );

    for origin in cdn.origins().list().await? {
        println!(
            "origin {} {:<12} {:<8} {}",
            origin.id,
            origin.label.as_deref().unwrap_or("-"),
            origin.origin_type.as_ref().map_or("-", |t| t.as_str()),
            origin.url.as_deref().unwrap_or("-"),
        );
    }

    let acl = cdn.acl().get().await?;
    println!(
        "ACL: content get={} post={} delete={}; origins put={}",
        acl.content.get, acl.content.post, acl.content.delete, acl.origins.put
    );

    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [command, zone, paths @ ..] = args.as_slice()
        && command == "purge"
    {
        let zone = ZoneId::new(zone.as_str())?;
        let job = cdn.purge(&zone, paths).await?;
        println!("purge job {} of zone {}", job.id, job.zone);
        let done = cdn.wait_purged(&zone, &job.id, &WaitOptions::new()).await?;
        for entry in &done.entries {
            println!("  {}: {}", entry.url, entry.status);
        }
    }
    Ok(())
}
