//! Lists the bare metal servers, then shows one in detail: hardware, power, switch
//! port, installation status and this month's network usage. Read-only.
//!
//! ```sh
//! HOSTAPI_API_KEY=… HOSTAPI_BASE_URL=https://… cargo run -p hostapi --example bare_metal [ID]
//! ```
//!
//! Without an id, the first server of the list is shown.

use chrono::{Datelike, Utc};
use hostapi::types::BareMetalId;
use hostapi::{Client, Error};

#[tokio::main]
async fn main() -> Result<(), Error> {
    let client = Client::from_env()?;
    let bare_metals = client.bare_metals();

    let servers = bare_metals.list().await?;
    println!("{} bare metal servers", servers.len());
    for server in &servers {
        println!(
            "  {:>8}  {:<20} {:<24} {}",
            server.id,
            server.name.as_deref().unwrap_or("-"),
            server.server_type.as_deref().unwrap_or("-"),
            server.reference.as_deref().unwrap_or(""),
        );
    }

    let id = match std::env::args().nth(1) {
        Some(id) => BareMetalId::new(id)?,
        None => match servers.first() {
            Some(server) => server.id.clone(),
            None => return Ok(()),
        },
    };

    let server = bare_metals.get(&id).await?;
    println!("\n{id}: {}", server.name.as_deref().unwrap_or("-"));
    if let Some(hardware) = &server.hardware {
        let ram = hardware
            .ram
            .as_ref()
            .map(|r| format!("{} {}", r.amount, r.unit))
            .unwrap_or_else(|| "?".into());
        println!(
            "  {} x {} ({} cores each), {ram} RAM, KVM: {}",
            hardware.cpu_count.unwrap_or(0),
            hardware.processor_type.as_deref().unwrap_or("?"),
            hardware.cores_per_cpu.unwrap_or(0),
            hardware.kvm.map_or("?", |k| if k { "yes" } else { "no" }),
        );
        for disk in &hardware.hard_disks {
            let size = disk
                .size
                .as_ref()
                .map(|s| format!("{} {}", s.amount, s.unit))
                .unwrap_or_default();
            println!(
                "  disks: {} x {size} {}",
                disk.count.map_or_else(|| "?".to_owned(), |c| c.to_string()),
                disk.kind.as_deref().unwrap_or("")
            );
        }
    }
    if let Some(network) = &server.network {
        let macs: Vec<&str> = network.mac_addresses.iter().map(|m| m.as_str()).collect();
        println!("  MACs: {}", macs.join(", "));
    }

    let power = bare_metals.power_status(&id).await?;
    let port = bare_metals.switch_port(&id).await?;
    let install = bare_metals.installation_status(&id).await?;
    println!(
        "  power: {}, switch port: {}, installation: {}",
        power.status.map_or("?".into(), |s| s.to_string()),
        port.status.map_or("?".into(), |s| s.to_string()),
        install
            .description
            .map_or("?".into(), |d| d.as_wire().to_owned()),
    );

    let today = Utc::now().date_naive();
    let first = today.with_day(1).unwrap_or(today);
    let usage = bare_metals.network_usage(&id, first, today).await?;
    if let Some(traffic) = usage.data_traffic.as_ref().and_then(|t| t.total.as_ref()) {
        println!(
            "  data traffic since {first}: {} {}",
            traffic.amount, traffic.unit
        );
    }
    if let Some(average) = usage.bandwidth.as_ref().and_then(|b| b.average.as_ref()) {
        println!(
            "  average bandwidth: {} {}",
            average.amount,
            average.unit.as_wire()
        );
    }
    Ok(())
}
