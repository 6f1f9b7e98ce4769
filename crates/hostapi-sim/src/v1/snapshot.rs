//! The v1 part of [`crate::Sim::snapshot`].

use super::*;
use crate::v1::bare_metal::task_running;
use crate::v1::domains::{domain_name, record_json};
use crate::v1::private_networks::live_members;

// ------------------------------------------------------------- snapshot

pub(crate) fn snapshot(ds: &Dataset, st: &State, now: f64) -> Value {
    let vs: Map<String, Value> = st
        .v1_vs
        .iter()
        .map(|(i, o)| {
            (
                (VS_BASE + 1 + *i as u64).to_string(),
                json!({
                    "state": o.running_at(now).map(|r| if r { "Running" } else { "Stopped" }),
                    "reboots": o.reboots,
                    "reinstalls": o.reinstalls,
                }),
            )
        })
        .collect();
    let domains: Map<String, Value> = st
        .domains
        .iter()
        .map(|(i, o)| {
            (
                domain_name(*i),
                json!({
                    "ttl": o.ttl,
                    "dnsRecords": o.records.as_ref().map(|rs| rs.iter().map(|r| record_json(r, None)).collect::<Vec<_>>()),
                }),
            )
        })
        .collect();
    let bms: Map<String, Value> = st
        .bare_metals
        .iter()
        .map(|(i, o)| {
            let desc = match task_running(Some(o), now) {
                Some(t) if t.rescue => "Rescue mode booting",
                Some(_) => "Installing",
                None => "Normal",
            };
            (
                (BM_BASE + 1 + *i as u64).to_string(),
                json!({
                    "reference": o.reference,
                    "switchPort": o.switch_open.map(|b| if b { "open" } else { "closed" }),
                    "installationStatus": desc,
                    "installs": o.installs,
                    "rescues": o.rescues,
                    "powerCycles": o.power_cycles,
                    "rescueMode": o.in_rescue && task_running(Some(o), now).is_none(),
                    "osId": o.os_id,
                    "leases": o.leases,
                }),
            )
        })
        .collect();
    let ips: Map<String, Value> = st
        .ips
        .iter()
        .map(|(ip, o)| {
            (
                ip.clone(),
                json!({"reverseLookup": o.reverse, "nullRouted": o.null_routed}),
            )
        })
        .collect();
    let nets: Vec<Value> = st
        .private_networks
        .values()
        .map(|n| {
            json!({
                "id": n.id,
                "name": n.name,
                "members": live_members(n, now).iter().map(|(m, s)| json!({
                    "bareMetalId": BM_BASE + 1 + m.bm as u64,
                    "status": s,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({
        "customerNumber": ds.customer_number,
        "virtualServers": vs,
        "domains": domains,
        "bareMetals": bms,
        "ips": ips,
        "privateNetworks": nets,
    })
}
