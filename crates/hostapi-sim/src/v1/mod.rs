//! Infrastructure v1: virtual servers (v1 shape), domains and DNS records,
//! bare metals (with installs, usage, IPs and leases), private racks, IPs,
//! catalogues and private networks.
//!
//! Layout: one module per resource, each keeping its generated data, its
//! wire rendering and its handlers apart; [`ROUTES`] is the one table of
//! operations (method, path, operation name, handler); which documented
//! spelling a record is sent in is chosen in [`crate::variants`] only.

pub(crate) mod bare_metal;
pub(crate) mod catalogue;
pub(crate) mod domains;
pub(crate) mod ips;
pub(crate) mod params;
pub(crate) mod private_networks;
pub(crate) mod racks;
pub(crate) mod snapshot;
pub(crate) mod virtual_servers;

pub(crate) use private_networks::init;
pub(crate) use snapshot::snapshot;

use std::collections::BTreeMap;

use axum::http::StatusCode;
use axum::response::Response;
use chrono::{Datelike, NaiveDate};
use rand::RngExt;
use serde_json::{Map, Value, json};

use crate::error::ApiError;
use crate::router::{Route, route};
use crate::state::{BmOver, BmTask, Cx, Dataset, DnsRec, IpOver, Member, PrivNet, State};
use crate::util::{
    self, EPOCH, Form, Req, date_of, empty, fmt_dmy, fmt_local, fmt_mon_d_yyyy, fmt_offset, hash3,
    kind, ok, pick, pick_s, rng,
};
use crate::variants::{Quirk, Variants, ident, q};

pub(crate) const VS_BASE: u64 = 100_000;
pub(crate) const BM_BASE: u64 = 20_000;
pub(crate) const RACK_BASE: u64 = 7_000;
pub(crate) const DNS_BASE: u64 = 1_000_000;
pub(crate) const DNS_NEW_BASE: u64 = 9_000_000;
pub(crate) const FIRST_PRIVATE_NETWORK: u64 = 501;
pub(crate) const YEAR: i64 = 365 * 86_400;
/// The `installationStatus.code` of a server that starts in an error state.
pub(crate) const INSTALL_ERROR_CODE: i64 = 1003;

pub(crate) const WORDS: &[&str] = &[
    "acme",
    "bluebird",
    "cobalt",
    "driftwood",
    "ember",
    "fjord",
    "granite",
    "harbor",
    "indigo",
    "juniper",
    "kestrel",
    "lantern",
    "meadow",
    "nimbus",
    "orchid",
    "pebble",
    "quartz",
    "riverbend",
    "saffron",
    "tundra",
    "umber",
    "velvet",
    "willow",
    "xenon",
    "yarrow",
    "zephyr",
];
pub(crate) const TLDS: &[&str] = &["com", "net", "org", "eu", "nl", "io", "de"];
pub(crate) const SITES: &[(&str, i32)] = &[
    ("AMS-01", 1),
    ("FRA-10", 1),
    ("WDC-02", -5),
    ("SIN-01", 8),
    ("LON-12", 0),
];

pub(crate) fn parse_u64(s: &str) -> Option<u64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) || s.len() > 18 {
        return None;
    }
    s.parse().ok()
}

pub(crate) fn index_of(id: &str, base: u64, count: usize, what: &str) -> Result<usize, ApiError> {
    parse_u64(id)
        .and_then(|n| n.checked_sub(base + 1))
        .filter(|i| (*i as usize) < count)
        .map(|i| i as usize)
        .ok_or_else(|| ApiError::not_found(format!("{what} {id} not found")))
}

// ------------------------------------------------------- shared pieces

pub(crate) fn ip_over(st: &State, ip: &str) -> IpOver {
    st.ips.get(ip).cloned().unwrap_or_default()
}

pub(crate) fn default_reverse(ip: &str) -> String {
    format!("{}.static.hosting.example", ip.replace('.', "-"))
}

/// The /24 gateway and netmask of an address.
pub(crate) fn gateway_of(ip: &str) -> String {
    if let Some(prefix) = ip.strip_suffix("::10") {
        // A virtual server's IPv6 address: the router is ::1 of its network.
        return format!("{prefix}::1");
    }
    let mut o: Vec<&str> = ip.split('.').collect();
    if o.len() == 4 {
        o[3] = "254";
    }
    o.join(".")
}

pub(crate) fn end_date_variant(
    m: &mut Map<String, Value>,
    key: &str,
    variant: usize,
    date: i64,
    local: bool,
) {
    match variant % 4 {
        0 => {
            m.insert(key.into(), Value::Null);
        }
        1 => {
            m.insert(key.into(), json!(""));
        }
        2 => {
            let s = if local {
                fmt_local(date)
            } else {
                fmt_offset(date, 1)
            };
            m.insert(key.into(), json!(s));
        }
        _ => {}
    }
}

/// A reference as `quirk` says for `record`: `text`, or none, spelt null or
/// "" (the text is drawn either way, so later values do not depend on it).
pub(crate) fn reference_value(v: &Variants, quirk: &Quirk, record: u64, text: String) -> Value {
    match v.name(quirk, record) {
        "text" => json!(text),
        "empty" => json!(""),
        _ => Value::Null,
    }
}

/// No value, spelt null or "" as `quirk` says for `record`.
pub(crate) fn null_or_empty(v: &Variants, quirk: &Quirk, record: u64) -> Value {
    if v.is(quirk, record, "empty") {
        json!("")
    } else {
        Value::Null
    }
}

pub(crate) fn contract_term_str(years: i64) -> String {
    if years == 1 {
        "1 year".into()
    } else {
        format!("{years} years")
    }
}

/// An id as an integer or a string, as `quirk` says for record `i`.
pub(crate) fn id_spelt(v: &Variants, quirk: &Quirk, i: usize, id: u64) -> Value {
    v.int(quirk, i as u64, id as i64)
}

// ------------------------------------------------------------ route table

/// Every v1 operation, in matching order (the first match wins).
pub(crate) static ROUTES: &[Route] = &[
    // Virtual servers.
    route!("GET", "/v1/virtualServers", |cx, _, _| {
        virtual_servers::list_vs(cx)
    }),
    route!("GET", "/v1/virtualServers/{id}", |cx, _, p| {
        virtual_servers::get_vs(cx, p[0])
    }),
    route!("POST", "/v1/virtualServers/{id}/powerOn", |cx, _, p| {
        virtual_servers::vs_action(cx, p[0], "powerOn")
    }),
    route!("POST", "/v1/virtualServers/{id}/powerOff", |cx, _, p| {
        virtual_servers::vs_action(cx, p[0], "powerOff")
    }),
    route!("POST", "/v1/virtualServers/{id}/reboot", |cx, _, p| {
        virtual_servers::vs_action(cx, p[0], "reboot")
    }),
    route!("POST", "/v1/virtualServers/{id}/reinstall", |cx, _, p| {
        virtual_servers::vs_action(cx, p[0], "reinstall")
    }),
    // Domains and DNS records.
    route!("GET", "/v1/domains", |cx, _, _| domains::list_domains(cx)),
    route!("GET", "/v1/domains/{domainname}", |cx, _, p| {
        domains::get_domain(cx, p[0])
    }),
    route!("PUT", "/v1/domains/{domainname}", |cx, r, p| {
        domains::put_domain(cx, r, p[0])
    }),
    route!("GET", "/v1/domains/{domainname}/dnsRecords", |cx, _, p| {
        domains::list_records(cx, p[0])
    }),
    route!("POST", "/v1/domains/{domainname}/dnsRecords", |cx, r, p| {
        domains::create_record(cx, r, p[0])
    }),
    route!(
        "GET",
        "/v1/domains/{domainname}/dnsRecords/{recordId}",
        |cx, _, p| { domains::get_record(cx, p[0], p[1]) }
    ),
    route!(
        "PUT",
        "/v1/domains/{domainname}/dnsRecords/{recordId}",
        |cx, r, p| { domains::update_record(cx, r, p[0], p[1]) }
    ),
    route!(
        "DELETE",
        "/v1/domains/{domainname}/dnsRecords/{recordId}",
        |cx, _, p| { domains::delete_record(cx, p[0], p[1]) }
    ),
    // Bare metals.
    route!("GET", "/v1/bareMetals", |cx, _, _| bare_metal::list_bm(cx)),
    route!("GET", "/v1/bareMetals/{bareMetalId}", |cx, _, p| {
        bare_metal::get_bm(cx, p[0])
    }),
    route!("PUT", "/v1/bareMetals/{bareMetalId}", |cx, r, p| {
        bare_metal::put_bm(cx, r, p[0])
    }),
    route!(
        "GET",
        "/v1/bareMetals/{bareMetalId}/switchPort",
        |cx, _, p| { bare_metal::switch_port(cx, p[0], None) }
    ),
    route!(
        "POST",
        "/v1/bareMetals/{bareMetalId}/switchPort/open",
        |cx, _, p| { bare_metal::switch_port(cx, p[0], Some(true)) }
    ),
    route!(
        "POST",
        "/v1/bareMetals/{bareMetalId}/switchPort/close",
        |cx, _, p| { bare_metal::switch_port(cx, p[0], Some(false)) }
    ),
    route!(
        "GET",
        "/v1/bareMetals/{bareMetalId}/powerStatus",
        |cx, _, p| { bare_metal::power_status(cx, p[0]) }
    ),
    route!(
        "POST",
        "/v1/bareMetals/{bareMetalId}/powerCycle",
        |cx, _, p| { bare_metal::power_cycle(cx, p[0]) }
    ),
    route!(
        "POST",
        "/v1/bareMetals/{bareMetalId}/reboot" as "/v1/bareMetals/{bareMetalId}/powerCycle",
        |cx, _, p| bare_metal::power_cycle(cx, p[0])
    ),
    route!(
        "POST",
        "/v1/bareMetals/{bareMetalId}/install",
        |cx, r, p| { bare_metal::install::install(cx, r, p[0]) }
    ),
    route!(
        "POST",
        "/v1/bareMetals/{bareMetalId}/rescueMode",
        |cx, r, p| { bare_metal::install::rescue(cx, r, p[0]) }
    ),
    route!(
        "POST",
        "/v1/bareMetals/{bareMetalId}/rescue" as "/v1/bareMetals/{bareMetalId}/rescueMode",
        |cx, r, p| bare_metal::install::rescue(cx, r, p[0])
    ),
    route!(
        "GET",
        "/v1/bareMetals/{bareMetalId}/installationStatus",
        |cx, _, p| { bare_metal::install::installation_status(cx, p[0]) }
    ),
    route!(
        "GET",
        "/v1/bareMetals/{bareMetalId}/rootPassword",
        |cx, _, p| { bare_metal::install::root_password(cx, p[0]) }
    ),
    route!(
        "GET",
        "/v1/bareMetals/{bareMetalId}/networkUsage",
        |cx, r, p| {
            bare_metal::usage::network_usage(cx, r, p[0], bare_metal::usage::Usage::Both)
        }
    ),
    route!(
        "GET",
        "/v1/bareMetals/{bareMetalId}/networkUsage/bandwidth",
        |cx, r, p| {
            bare_metal::usage::network_usage(cx, r, p[0], bare_metal::usage::Usage::Bandwidth)
        }
    ),
    route!(
        "GET",
        "/v1/bareMetals/{bareMetalId}/networkUsage/datatraffic",
        |cx, r, p| {
            bare_metal::usage::network_usage(cx, r, p[0], bare_metal::usage::Usage::Datatraffic)
        }
    ),
    route!("GET", "/v1/bareMetals/{bareMetalId}/ips", |cx, _, p| {
        bare_metal::ips::list_bm_ips(cx, p[0])
    }),
    route!(
        "GET",
        "/v1/bareMetals/{bareMetalId}/ips/{ipAddress}",
        |cx, _, p| { bare_metal::ips::get_bm_ip(cx, p[0], p[1]) }
    ),
    route!(
        "PUT",
        "/v1/bareMetals/{bareMetalId}/ips/{ipAddress}",
        |cx, r, p| { bare_metal::ips::put_bm_ip(cx, r, p[0], p[1]) }
    ),
    route!("GET", "/v1/bareMetals/{bareMetalId}/leases", |cx, r, p| {
        bare_metal::leases::list_leases(cx, r, p[0])
    }),
    route!("POST", "/v1/bareMetals/{bareMetalId}/leases", |cx, r, p| {
        bare_metal::leases::create_lease(cx, r, p[0])
    }),
    route!(
        "DELETE",
        "/v1/bareMetals/{bareMetalId}/leases",
        |cx, _, p| { bare_metal::leases::delete_leases(cx, p[0], None) }
    ),
    route!(
        "GET",
        "/v1/bareMetals/{bareMetalId}/leases/{macaddress}",
        |cx, _, p| { bare_metal::leases::get_lease(cx, p[0], p[1]) }
    ),
    route!(
        "DELETE",
        "/v1/bareMetals/{bareMetalId}/leases/{macaddress}",
        |cx, _, p| { bare_metal::leases::delete_leases(cx, p[0], Some(p[1])) }
    ),
    // Private racks.
    route!("GET", "/v1/privateRacks", |cx, _, _| racks::list_racks(cx)),
    route!("GET", "/v1/privateRacks/{privateRackId}", |cx, _, p| {
        racks::get_rack(cx, p[0])
    }),
    route!("GET", "/v1/privateRacks/{privateRackId}/ips", |cx, _, p| {
        racks::list_rack_ips(cx, p[0])
    }),
    route!(
        "GET",
        "/v1/privateRacks/{privateRackId}/ips/{ipAddress}",
        |cx, _, p| { racks::get_rack_ip(cx, p[0], p[1]) }
    ),
    route!(
        "PUT",
        "/v1/privateRacks/{privateRackId}/ips/{ipAddress}",
        |cx, r, p| { racks::put_rack_ip(cx, r, p[0], p[1]) }
    ),
    route!(
        "GET",
        "/v1/privateRacks/{privateRackId}/networkUsage",
        |cx, r, p| { racks::rack_usage(cx, r, p[0]) }
    ),
    // IPs.
    route!("PUT", "/v1/ips/{ipAddress}", |cx, r, p| ips::put_any_ip(
        cx, r, p[0]
    )),
    // Catalogues.
    route!("GET", "/v1/rescueImages", |_, _, _| Ok(
        catalogue::rescue_images()
    )),
    route!("GET", "/v1/operatingSystems", |_, _, _| Ok(
        catalogue::operating_systems()
    )),
    route!(
        "GET",
        "/v1/operatingSystems/{operatingSystemId}",
        |_, _, p| { catalogue::operating_system(p[0]) }
    ),
    route!(
        "GET",
        "/v1/operatingSystems/{operatingSystemId}/controlPanels",
        |_, _, p| { catalogue::control_panels(p[0], None) }
    ),
    route!(
        "GET",
        "/v1/operatingSystems/{operatingSystemId}/controlPanels/{controlPanelId}",
        |_, _, p| catalogue::control_panels(p[0], Some(p[1]))
    ),
    route!(
        "GET",
        "/v1/operatingSystems/{operatingSystemId}/partitionSchema",
        |cx, r, p| { catalogue::partition_schema(cx, r, p[0]) }
    ),
    route!("GET", "/v1/services", |cx, _, _| catalogue::services(cx)),
    // Private networks.
    route!("GET", "/v1/privateNetworks", |cx, r, _| {
        private_networks::list_networks(cx, r)
    }),
    route!("POST", "/v1/privateNetworks", |cx, r, _| {
        private_networks::create_network(cx, r)
    }),
    route!("GET", "/v1/privateNetworks/{id}", |cx, _, p| {
        private_networks::get_network(cx, p[0])
    }),
    route!("DELETE", "/v1/privateNetworks/{id}", |cx, _, p| {
        private_networks::delete_network(cx, p[0])
    }),
    route!(
        "POST",
        "/v1/privateNetworks/{privateNetworkId}/bareMetals",
        |cx, r, p| { private_networks::add_member(cx, r, p[0]) }
    ),
    route!(
        "DELETE",
        "/v1/privateNetworks/{privateNetworkId}/bareMetals/{bareMetalId}",
        |cx, _, p| private_networks::remove_member(cx, p[0], p[1])
    ),
];

/// Run the operation `segs` (after `/v1`) names, its parameters checked
/// first.
pub(crate) fn route(cx: &Cx<'_>, req: &Req, segs: &[&str]) -> Result<Response, ApiError> {
    crate::router::run(cx, req, ROUTES, "/v1", segs, params::check)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// At the largest accepted size, generated DNS ids stay below the ids
    /// of created records and every address is a valid, distinct IPv4.
    #[test]
    fn ids_and_addresses_stay_valid_at_the_largest_size() {
        let ds = Dataset::new(0, crate::MAX_SIZE);
        let last = domains::generated_records(ds.domains - 1);
        assert!(last.iter().all(|r| r.id < DNS_NEW_BASE));
        let tops = [
            util::ip_of(5, 79, ds.cloud as u64 - 1),
            util::ip_of(10, 32, ds.cloud as u64 - 1),
            util::ip_of(85, 17, ds.bare_metals as u64 * 4),
            util::ip_of(37, 48, ds.v1_vs as u64 * 2),
            util::ip_of(95, 211, ds.racks as u64 * 8),
            util::ip_of(185, 100, ds.domains as u64 * 4),
        ];
        for ip in &tops {
            assert!(ip.parse::<std::net::Ipv4Addr>().is_ok(), "{ip}");
        }
        // The cloud ranges stay below the private clouds' (5.200, 10.200).
        let second = |ip: &str| ip.split('.').nth(1).and_then(|o| o.parse::<u32>().ok());
        assert!(second(&tops[0]) < Some(200) && second(&tops[1]) < Some(200));
    }
}
