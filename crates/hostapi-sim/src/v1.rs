//! Infrastructure v1: virtual servers (v1 shape), domains and DNS records,
//! bare metals, private racks, IPs, catalogues and private networks.

use std::collections::BTreeMap;

use axum::http::{Method, StatusCode};
use axum::response::Response;
use chrono::{Datelike, NaiveDate};
use rand::RngExt;
use serde_json::{Map, Value, json};

use crate::error::ApiError;
use crate::router::op;
use crate::state::{BmOver, BmTask, Cx, Dataset, DnsRec, IpOver, Member, PrivNet, State};
use crate::util::{
    self, EPOCH, Form, Req, date_of, empty, fmt_dmy, fmt_local, fmt_mon_d_yyyy, fmt_offset, hash3,
    kind, ok, pick, pick_s, rng,
};
use crate::variants::{Quirk, Variants, ident, q};

const VS_BASE: u64 = 100_000;
const BM_BASE: u64 = 20_000;
const RACK_BASE: u64 = 7_000;
const DNS_BASE: u64 = 1_000_000;
const DNS_NEW_BASE: u64 = 9_000_000;
const FIRST_PRIVATE_NETWORK: u64 = 501;
const YEAR: i64 = 365 * 86_400;
/// The `installationStatus.code` of a server that starts in an error state.
const INSTALL_ERROR_CODE: i64 = 1003;

const WORDS: &[&str] = &[
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
const TLDS: &[&str] = &["com", "net", "org", "eu", "nl", "io", "de"];
const SITES: &[(&str, i32)] = &[
    ("AMS-01", 1),
    ("FRA-10", 1),
    ("WDC-02", -5),
    ("SIN-01", 8),
    ("LON-12", 0),
];

/// Operating systems: (id, name, BSD family).
pub(crate) const OPERATING_SYSTEMS: &[(u64, &str, bool)] = &[
    (9, "CentOS 7 (x86_64)", false),
    (135, "Debian 10 (amd64)", false),
    (178, "Debian 11 (amd64)", false),
    (205, "Debian 12 (amd64)", false),
    (180, "Ubuntu 20.04 LTS (amd64)", false),
    (201, "Ubuntu 22.04 LTS (amd64)", false),
    (230, "Ubuntu 24.04 LTS (amd64)", false),
    (190, "AlmaLinux 8 (x86_64)", false),
    (210, "AlmaLinux 9 (x86_64)", false),
    (211, "Rocky Linux 9 (x86_64)", false),
    (176, "FreeBSD 13 (amd64)", true),
    (231, "FreeBSD 14 (amd64)", true),
];
const CONTROL_PANELS: &[(u64, &str)] = &[
    (1, "cPanel"),
    (2, "Plesk Obsidian"),
    (3, "DirectAdmin"),
    (4, "Webmin"),
];
const RESCUE_IMAGES: &[(u64, &str)] = &[
    (121, "GRML Linux Rescue (amd64)"),
    (122, "FreeBSD Rescue (amd64)"),
    (123, "GRML Linux Rescue (x86)"),
    (124, "Debian Live Rescue (amd64)"),
];
const LINUX_FS: &[&str] = &["ext2", "ext3", "ext4", "xfs", "swap"];
const BSD_FS: &[&str] = &["ufs", "zfs", "swap"];

fn control_panels_of(os: u64) -> &'static [(u64, &'static str)] {
    match os {
        176 | 231 => &[],
        9 | 190 | 210 | 211 => CONTROL_PANELS,
        _ => &CONTROL_PANELS[1..],
    }
}

fn os_entry(id: u64) -> Option<&'static (u64, &'static str, bool)> {
    OPERATING_SYSTEMS.iter().find(|o| o.0 == id)
}

fn parse_u64(s: &str) -> Option<u64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) || s.len() > 18 {
        return None;
    }
    s.parse().ok()
}

fn index_of(id: &str, base: u64, count: usize, what: &str) -> Result<usize, ApiError> {
    parse_u64(id)
        .and_then(|n| n.checked_sub(base + 1))
        .filter(|i| (*i as usize) < count)
        .map(|i| i as usize)
        .ok_or_else(|| ApiError::not_found(format!("{what} {id} not found")))
}

// ---------------------------------------------------------------- routing

pub(crate) fn route(cx: &Cx<'_>, req: &Req, segs: &[&str]) -> Result<Response, ApiError> {
    use Method as M;
    let m = &req.method;
    match (m, segs) {
        // Virtual servers.
        (&M::GET, ["virtualServers"]) => op(cx, "GET /v1/virtualServers", || list_vs(cx)),
        (&M::GET, ["virtualServers", id]) => {
            op(cx, "GET /v1/virtualServers/{id}", || get_vs(cx, id))
        }
        (
            &M::POST,
            [
                "virtualServers",
                id,
                action @ ("powerOn" | "powerOff" | "reboot" | "reinstall"),
            ],
        ) => {
            let name = match *action {
                "powerOn" => "POST /v1/virtualServers/{id}/powerOn",
                "powerOff" => "POST /v1/virtualServers/{id}/powerOff",
                "reboot" => "POST /v1/virtualServers/{id}/reboot",
                _ => "POST /v1/virtualServers/{id}/reinstall",
            };
            op(cx, name, || vs_action(cx, id, action))
        }
        // Domains and DNS records.
        (&M::GET, ["domains"]) => op(cx, "GET /v1/domains", || list_domains(cx)),
        (&M::GET, ["domains", d]) => op(cx, "GET /v1/domains/{domainname}", || get_domain(cx, d)),
        (&M::PUT, ["domains", d]) => op(cx, "PUT /v1/domains/{domainname}", || {
            put_domain(cx, req, d)
        }),
        (&M::GET, ["domains", d, "dnsRecords"]) => {
            op(cx, "GET /v1/domains/{domainname}/dnsRecords", || {
                list_records(cx, d)
            })
        }
        (&M::POST, ["domains", d, "dnsRecords"]) => {
            op(cx, "POST /v1/domains/{domainname}/dnsRecords", || {
                create_record(cx, req, d)
            })
        }
        (&M::GET, ["domains", d, "dnsRecords", r]) => op(
            cx,
            "GET /v1/domains/{domainname}/dnsRecords/{recordId}",
            || get_record(cx, d, r),
        ),
        (&M::PUT, ["domains", d, "dnsRecords", r]) => op(
            cx,
            "PUT /v1/domains/{domainname}/dnsRecords/{recordId}",
            || update_record(cx, req, d, r),
        ),
        (&M::DELETE, ["domains", d, "dnsRecords", r]) => op(
            cx,
            "DELETE /v1/domains/{domainname}/dnsRecords/{recordId}",
            || delete_record(cx, d, r),
        ),
        // Bare metals.
        (&M::GET, ["bareMetals"]) => op(cx, "GET /v1/bareMetals", || list_bm(cx)),
        (&M::GET, ["bareMetals", id]) => {
            op(cx, "GET /v1/bareMetals/{bareMetalId}", || get_bm(cx, id))
        }
        (&M::PUT, ["bareMetals", id]) => op(cx, "PUT /v1/bareMetals/{bareMetalId}", || {
            put_bm(cx, req, id)
        }),
        (&M::GET, ["bareMetals", id, "switchPort"]) => {
            op(cx, "GET /v1/bareMetals/{bareMetalId}/switchPort", || {
                switch_port(cx, id, None)
            })
        }
        (&M::POST, ["bareMetals", id, "switchPort", "open"]) => op(
            cx,
            "POST /v1/bareMetals/{bareMetalId}/switchPort/open",
            || switch_port(cx, id, Some(true)),
        ),
        (&M::POST, ["bareMetals", id, "switchPort", "close"]) => op(
            cx,
            "POST /v1/bareMetals/{bareMetalId}/switchPort/close",
            || switch_port(cx, id, Some(false)),
        ),
        (&M::GET, ["bareMetals", id, "powerStatus"]) => {
            op(cx, "GET /v1/bareMetals/{bareMetalId}/powerStatus", || {
                power_status(cx, id)
            })
        }
        (&M::POST, ["bareMetals", id, "powerCycle" | "reboot"]) => {
            op(cx, "POST /v1/bareMetals/{bareMetalId}/powerCycle", || {
                power_cycle(cx, id)
            })
        }
        (&M::POST, ["bareMetals", id, "install"]) => {
            op(cx, "POST /v1/bareMetals/{bareMetalId}/install", || {
                install(cx, req, id)
            })
        }
        (&M::POST, ["bareMetals", id, "rescueMode" | "rescue"]) => {
            op(cx, "POST /v1/bareMetals/{bareMetalId}/rescueMode", || {
                rescue(cx, req, id)
            })
        }
        (&M::GET, ["bareMetals", id, "installationStatus"]) => op(
            cx,
            "GET /v1/bareMetals/{bareMetalId}/installationStatus",
            || installation_status(cx, id),
        ),
        (&M::GET, ["bareMetals", id, "rootPassword"]) => {
            op(cx, "GET /v1/bareMetals/{bareMetalId}/rootPassword", || {
                root_password(cx, id)
            })
        }
        (&M::GET, ["bareMetals", id, "networkUsage"]) => {
            op(cx, "GET /v1/bareMetals/{bareMetalId}/networkUsage", || {
                network_usage(cx, req, id, Usage::Both)
            })
        }
        (&M::GET, ["bareMetals", id, "networkUsage", "bandwidth"]) => op(
            cx,
            "GET /v1/bareMetals/{bareMetalId}/networkUsage/bandwidth",
            || network_usage(cx, req, id, Usage::Bandwidth),
        ),
        (&M::GET, ["bareMetals", id, "networkUsage", "datatraffic"]) => op(
            cx,
            "GET /v1/bareMetals/{bareMetalId}/networkUsage/datatraffic",
            || network_usage(cx, req, id, Usage::Datatraffic),
        ),
        (&M::GET, ["bareMetals", id, "ips"]) => {
            op(cx, "GET /v1/bareMetals/{bareMetalId}/ips", || {
                list_bm_ips(cx, id)
            })
        }
        (&M::GET, ["bareMetals", id, "ips", ip]) => op(
            cx,
            "GET /v1/bareMetals/{bareMetalId}/ips/{ipAddress}",
            || get_bm_ip(cx, id, ip),
        ),
        (&M::PUT, ["bareMetals", id, "ips", ip]) => op(
            cx,
            "PUT /v1/bareMetals/{bareMetalId}/ips/{ipAddress}",
            || put_bm_ip(cx, req, id, ip),
        ),
        (&M::GET, ["bareMetals", id, "leases"]) => {
            op(cx, "GET /v1/bareMetals/{bareMetalId}/leases", || {
                list_leases(cx, req, id)
            })
        }
        (&M::POST, ["bareMetals", id, "leases"]) => {
            op(cx, "POST /v1/bareMetals/{bareMetalId}/leases", || {
                create_lease(cx, req, id)
            })
        }
        (&M::DELETE, ["bareMetals", id, "leases"]) => {
            op(cx, "DELETE /v1/bareMetals/{bareMetalId}/leases", || {
                delete_leases(cx, id, None)
            })
        }
        (&M::GET, ["bareMetals", id, "leases", mac]) => op(
            cx,
            "GET /v1/bareMetals/{bareMetalId}/leases/{macaddress}",
            || get_lease(cx, id, mac),
        ),
        (&M::DELETE, ["bareMetals", id, "leases", mac]) => op(
            cx,
            "DELETE /v1/bareMetals/{bareMetalId}/leases/{macaddress}",
            || delete_leases(cx, id, Some(mac)),
        ),
        // Private racks.
        (&M::GET, ["privateRacks"]) => op(cx, "GET /v1/privateRacks", || list_racks(cx)),
        (&M::GET, ["privateRacks", id]) => op(cx, "GET /v1/privateRacks/{privateRackId}", || {
            get_rack(cx, id)
        }),
        (&M::GET, ["privateRacks", id, "ips"]) => {
            op(cx, "GET /v1/privateRacks/{privateRackId}/ips", || {
                list_rack_ips(cx, id)
            })
        }
        (&M::GET, ["privateRacks", id, "ips", ip]) => op(
            cx,
            "GET /v1/privateRacks/{privateRackId}/ips/{ipAddress}",
            || get_rack_ip(cx, id, ip),
        ),
        (&M::PUT, ["privateRacks", id, "ips", ip]) => op(
            cx,
            "PUT /v1/privateRacks/{privateRackId}/ips/{ipAddress}",
            || put_rack_ip(cx, req, id, ip),
        ),
        (&M::GET, ["privateRacks", id, "networkUsage"]) => op(
            cx,
            "GET /v1/privateRacks/{privateRackId}/networkUsage",
            || rack_usage(cx, req, id),
        ),
        // IPs.
        (&M::PUT, ["ips", ip]) => op(cx, "PUT /v1/ips/{ipAddress}", || put_any_ip(cx, req, ip)),
        // Catalogues.
        (&M::GET, ["rescueImages"]) => op(cx, "GET /v1/rescueImages", || Ok(rescue_images())),
        (&M::GET, ["operatingSystems"]) => {
            op(cx, "GET /v1/operatingSystems", || Ok(operating_systems()))
        }
        (&M::GET, ["operatingSystems", os]) => {
            op(cx, "GET /v1/operatingSystems/{operatingSystemId}", || {
                operating_system(os)
            })
        }
        (&M::GET, ["operatingSystems", os, "controlPanels"]) => op(
            cx,
            "GET /v1/operatingSystems/{operatingSystemId}/controlPanels",
            || control_panels(os, None),
        ),
        (&M::GET, ["operatingSystems", os, "controlPanels", cp]) => op(
            cx,
            "GET /v1/operatingSystems/{operatingSystemId}/controlPanels/{controlPanelId}",
            || control_panels(os, Some(cp)),
        ),
        (&M::GET, ["operatingSystems", os, "partitionSchema"]) => op(
            cx,
            "GET /v1/operatingSystems/{operatingSystemId}/partitionSchema",
            || partition_schema(cx, req, os),
        ),
        (&M::GET, ["services"]) => op(cx, "GET /v1/services", || services(cx)),
        // Private networks.
        (&M::GET, ["privateNetworks"]) => {
            op(cx, "GET /v1/privateNetworks", || list_networks(cx, req))
        }
        (&M::POST, ["privateNetworks"]) => {
            op(cx, "POST /v1/privateNetworks", || create_network(cx, req))
        }
        (&M::GET, ["privateNetworks", id]) => {
            op(cx, "GET /v1/privateNetworks/{id}", || get_network(cx, id))
        }
        (&M::DELETE, ["privateNetworks", id]) => op(cx, "DELETE /v1/privateNetworks/{id}", || {
            delete_network(cx, id)
        }),
        (&M::POST, ["privateNetworks", id, "bareMetals"]) => op(
            cx,
            "POST /v1/privateNetworks/{privateNetworkId}/bareMetals",
            || add_member(cx, req, id),
        ),
        (&M::DELETE, ["privateNetworks", id, "bareMetals", bm]) => op(
            cx,
            "DELETE /v1/privateNetworks/{privateNetworkId}/bareMetals/{bareMetalId}",
            || remove_member(cx, id, bm),
        ),
        _ => Err(ApiError::no_route(req.method.as_str(), &req.raw_path)),
    }
}

// ------------------------------------------------------- shared pieces

fn ip_over(st: &State, ip: &str) -> IpOver {
    st.ips.get(ip).cloned().unwrap_or_default()
}

fn default_reverse(ip: &str) -> String {
    format!("{}.static.hosting.example", ip.replace('.', "-"))
}

/// The /24 gateway and netmask of an address.
fn gateway_of(ip: &str) -> String {
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

fn end_date_variant(m: &mut Map<String, Value>, key: &str, variant: usize, date: i64, local: bool) {
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
fn reference_value(v: &Variants, quirk: &Quirk, record: u64, text: String) -> Value {
    match v.name(quirk, record) {
        "text" => json!(text),
        "empty" => json!(""),
        _ => Value::Null,
    }
}

/// No value, spelt null or "" as `quirk` says for `record`.
fn null_or_empty(v: &Variants, quirk: &Quirk, record: u64) -> Value {
    if v.is(quirk, record, "empty") {
        json!("")
    } else {
        Value::Null
    }
}

fn contract_term_str(years: i64) -> String {
    if years == 1 {
        "1 year".into()
    } else {
        format!("{years} years")
    }
}

// ---------------------------------------------------- virtual servers

/// The IPv4 addresses server `i` may have: one or two, by index.
fn vs_ip_count(i: usize) -> usize {
    1 + (i % 2)
}

fn vs_ip(i: usize, j: usize) -> String {
    util::ip_of(37, 48, (i * 2 + j) as u64)
}

/// The IPv6 address server `i` has when its address set includes one.
fn vs_ipv6(i: usize) -> String {
    format!(
        "2a00:c98:2050:b{:03x}:{:x}::10",
        i / 65_536 % 4096,
        i % 65_536
    )
}

/// Inverse of [`vs_ipv6`] (any spelling of the address).
fn vs_ipv6_index(ip: &str) -> Option<usize> {
    let a: std::net::Ipv6Addr = ip.parse().ok()?;
    let g = a.segments();
    let i = usize::from(g[3] & 0xfff) * 65_536 + usize::from(g[4]);
    (vs_ipv6(i).parse::<std::net::Ipv6Addr>().ok()? == a).then_some(i)
}

/// The addresses of server `i`, as its `ipAddresses` lists them: the
/// documents allow an empty list and addresses of either family, so the
/// set is a documented alternative ([`q::VS_IP_SET`]).
fn vs_ips(v: &Variants, i: usize) -> Vec<String> {
    let v4 = (0..vs_ip_count(i)).map(|j| vs_ip(i, j));
    match v.name(&q::VS_IP_SET, i as u64) {
        "none" => Vec::new(),
        "ipv4" => v4.collect(),
        _ => v4.chain(std::iter::once(vs_ipv6(i))).collect(),
    }
}

fn vs_name(i: usize) -> String {
    format!("vps{}", VS_BASE + 1 + i as u64)
}

fn vs_json(cx: &Cx<'_>, st: &State, i: usize) -> Value {
    let seed = cx.seed();
    let mut r = rng(seed, kind::V1_VS, i as u64);
    let id = VS_BASE + 1 + i as u64;
    let ov = st.v1_vs.get(&i);
    let running = ov.and_then(|o| o.running).unwrap_or(i % 3 != 2);
    let created = EPOCH + r.random_range(0..8 * YEAR);
    let start = created - created % 86_400;
    let term_years = pick(&mut r, &[1i64, 1, 2, 3]).to_owned();
    let templates = [
        "Ubuntu 22.04 LTS (64-bit)",
        "Debian 12 (64-bit)",
        "CentOS 7 (64-bit)",
        "AlmaLinux 9 (64-bit)",
        "Windows Server 2019 Standard (64-bit)",
    ];
    let template = *pick(&mut r, &templates);
    let pack = *pick(&mut r, &["1 TB", "2 TB", "5 TB", "Unmetered"]);
    let limit = match pack {
        "1 TB" => 1000,
        "2 TB" => 2000,
        "5 TB" => 5000,
        _ => 0,
    };
    let var = cx.var();
    let rec = i as u64;
    let reference = reference_value(
        var,
        &q::VS_REFERENCE,
        rec,
        format!(
            "{}-{}",
            pick(&mut r, &["web", "db", "cache", "mail", "api"]),
            i + 1
        ),
    );
    // Alternatives are in the order util::mac takes its styles.
    let mac = util::mac(
        util::mac_bytes(hash3(seed, kind::V1_VS, i as u64 + (1 << 40))),
        var.pick(&q::VS_MAC_CASE, rec),
    );
    let ips: Vec<(String, IpOver)> = vs_ips(var, i)
        .into_iter()
        .map(|ip| {
            let o = ip_over(st, &ip);
            (ip, o)
        })
        .collect();
    let ip_addresses = if var.is(&q::VS_IP_SHAPE, rec, "array") {
        Value::Array(
            ips.iter()
                .map(|(ip, o)| {
                    json!({
                        "ip": ip,
                        "isNulled": o.null_routed.unwrap_or(false),
                        "reverseDNS": o.reverse.clone().unwrap_or_else(|| default_reverse(ip)),
                    })
                })
                .collect(),
        )
    } else {
        let mut m = Map::new();
        for (ip, o) in &ips {
            m.insert(
                ip.clone(),
                json!({
                    "isNulled": o.null_routed.unwrap_or(false),
                    "reverseDNS": o.reverse.clone().unwrap_or_else(|| default_reverse(ip)),
                }),
            );
        }
        Value::Object(m)
    };
    let mut admin = Map::new();
    admin.insert("customerNumber".into(), json!(cx.ds().customer_number));
    admin.insert("createdAt".into(), json!(fmt_local(created)));
    admin.insert("startDate".into(), json!(fmt_local(start)));
    end_date_variant(
        &mut admin,
        "endDate",
        var.pick(&q::VS_END_DATE, rec),
        start + term_years * YEAR,
        true,
    );
    admin.insert(
        "billingFrequency".into(),
        json!(pick(&mut r, &["1 month", "3 months", "12 months"])),
    );
    admin.insert("contractTerm".into(), json!(contract_term_str(term_years)));
    admin.insert(
        "orderNumber".into(),
        json!(format!("{}", 40_000_000 + r.random_range(0..9_999_999u64))),
    );
    let mut v = json!({
        "id": id,
        "serverName": vs_name(i),
        "reference": reference,
        "administrativeInfo": Value::Object(admin),
        "dataTrafficPack": pack,
        "dataTrafficLimit": var.int(&q::VS_TRAFFIC_LIMIT, rec, limit),
        "SLA": pick(&mut r, &["Basic - 24x7x24", "Bronze - 24x7x4", "Silver - 24x7x2"]),
        "ipAddresses": ip_addresses,
        "state": if running { "Running" } else { "Stopped" },
        "template": template,
        "attachedISO": if i % 5 == 4 { json!("ubuntu-22.04.4-live-server-amd64.iso") } else { Value::Null },
        "macAddress": mac,
    });
    let platform = *pick(&mut r, &["VMware", "Hyper-V", "KVM"]);
    let type_id = var.int(&q::VS_TYPE_ID, rec, 1 + r.random_range(0..3i64));
    match var.name(&q::VS_TYPE, rec) {
        "Id" => v["type"] = json!({"Id": type_id, "PlatformName": platform}),
        "id" => v["type"] = json!({"id": type_id, "PlatformName": platform}),
        _ => {}
    }
    v
}

fn list_vs(cx: &Cx<'_>) -> Result<Response, ApiError> {
    let st = cx.state();
    Ok(util::ok_list(
        r#"{"virtualServers":["#,
        (0..cx.ds().v1_vs).map(|i| vs_json(cx, &st, i)),
        "]}",
    ))
}

fn get_vs(cx: &Cx<'_>, id: &str) -> Result<Response, ApiError> {
    let i = index_of(id, VS_BASE, cx.ds().v1_vs, "virtual server")?;
    let st = cx.state();
    Ok(ok(&json!({ "virtualServers": [vs_json(cx, &st, i)] })))
}

fn job_id(cx: &Cx<'_>, st: &mut State) -> String {
    st.next_job += 1;
    let h = hash3(cx.seed(), kind::JOB, st.next_job);
    format!("{:016x}{:08x}", h, st.next_job)
}

fn vs_action(cx: &Cx<'_>, id: &str, action: &str) -> Result<Response, ApiError> {
    let i = index_of(id, VS_BASE, cx.ds().v1_vs, "virtual server")?;
    let mut st = cx.state();
    let o = st.v1_vs.entry(i).or_default();
    match action {
        "powerOn" => o.running = Some(true),
        "powerOff" => o.running = Some(false),
        "reboot" => {
            o.running = Some(true);
            o.reboots += 1;
        }
        _ => {
            o.running = Some(true);
            o.reinstalls += 1;
        }
    }
    let job = job_id(cx, &mut st);
    cx.log(&mut st, format!("virtualServer {id} {action}"));
    Ok(util::json(
        StatusCode::ACCEPTED,
        &json!({"asyncjob": {"jobid": job}}),
    ))
}

// ------------------------------------------------------------- domains

fn domain_name(i: usize) -> String {
    format!(
        "{}-{}.{}",
        WORDS[i % WORDS.len()],
        i + 1,
        TLDS[(i + i / WORDS.len()) % TLDS.len()]
    )
}

fn domain_index(cx: &Cx<'_>, name: &str) -> Result<usize, ApiError> {
    let lower = name.to_ascii_lowercase();
    let found = lower
        .split_once('.')
        .and_then(|(left, _)| left.rsplit_once('-'))
        .and_then(|(_, n)| parse_u64(n))
        .and_then(|n| n.checked_sub(1))
        .map(|i| i as usize)
        .filter(|i| *i < cx.ds().domains && domain_name(*i) == lower);
    found.ok_or_else(|| ApiError::not_found(format!("domain {name} not found")))
}

fn domain_editable(i: usize) -> bool {
    i % 4 < 2
}

fn domain_json(cx: &Cx<'_>, st: &State, i: usize) -> Value {
    let mut r = rng(cx.seed(), kind::DOMAIN, i as u64);
    let start = EPOCH + r.random_range(0..8 * YEAR);
    let base_ttl = *pick(&mut r, &[300i64, 3600, 14_400, 86_400]);
    let ttl = st.domains.get(&i).and_then(|d| d.ttl).unwrap_or(base_ttl);
    let price_cents = r.random_range(50..2500i64);
    let var = cx.var();
    let rec = i as u64;
    // The facts are the index's (the term, editability); the spelling is the
    // chooser's.
    let term_years = 1 + (i % 4 / 2) as i64;
    let editable = domain_editable(i);
    let code = if i % 13 == 12 { 1001 } else { 1000 };
    let (status, readable) = if code == 1000 {
        ("ACTIVE", "The domain is active and resolving.")
    } else {
        ("PENDING_TRANSFER", "A transfer of the domain is pending.")
    };
    json!({
        "code": code,
        "domain": domain_name(i),
        "status": status,
        "ttl": var.int(&q::DOMAIN_TTL, rec, ttl),
        "readableStatus": readable,
        "startDate": fmt_mon_d_yyyy(start),
        "contractTerm": if var.is(&q::DOMAIN_TERM, rec, "string") {
            json!(contract_term_str(term_years))
        } else {
            json!(term_years)
        },
        "monthlyPrice": var.money(&q::DOMAIN_PRICE, rec, price_cents),
        "isEditable": if var.is(&q::DOMAIN_EDITABLE, rec, "string") {
            json!(editable.to_string())
        } else {
            json!(editable)
        },
    })
}

fn list_domains(cx: &Cx<'_>) -> Result<Response, ApiError> {
    let st = cx.state();
    Ok(util::ok_list(
        r#"{"domains":["#,
        (0..cx.ds().domains).map(|i| json!({"domain": domain_json(cx, &st, i)})),
        "]}",
    ))
}

fn get_domain(cx: &Cx<'_>, name: &str) -> Result<Response, ApiError> {
    let i = domain_index(cx, name)?;
    let st = cx.state();
    Ok(ok(&json!({"domain": domain_json(cx, &st, i)})))
}

fn check_editable(i: usize, name: &str) -> Result<(), ApiError> {
    if domain_editable(i) {
        Ok(())
    } else {
        Err(ApiError::forbidden(format!(
            "domain {name} is not editable"
        )))
    }
}

fn put_domain(cx: &Cx<'_>, req: &Req, name: &str) -> Result<Response, ApiError> {
    let i = domain_index(cx, name)?;
    let form = req.form()?;
    let ttl_s = form.required("ttl")?;
    let ttl: i64 = ttl_s
        .trim()
        .parse()
        .map_err(|_| ApiError::bad_field("ttl", "must be an integer"))?;
    if !(60..=86_400).contains(&ttl) {
        return Err(ApiError::bad_field("ttl", "must be between 60 and 86400"));
    }
    check_editable(i, name)?;
    let mut st = cx.state();
    st.domains.entry(i).or_default().ttl = Some(ttl);
    cx.log(&mut st, format!("domain {} ttl={ttl}", domain_name(i)));
    Ok(ok(&json!({"domain": domain_json(cx, &st, i)})))
}

fn generated_records(i: usize) -> Vec<DnsRec> {
    let name = domain_name(i);
    let n = 5 + i % 4;
    let base = DNS_BASE + 1000 * i as u64;
    let mut out = Vec::with_capacity(n);
    let mk = |j: usize, host: String, t: &str, content: String, prio: Option<i64>| DnsRec {
        id: base + j as u64,
        host,
        rtype: t.into(),
        content,
        priority: prio,
    };
    for j in 0..n {
        out.push(match j {
            0 => mk(
                j,
                name.clone(),
                "A",
                util::ip_of(185, 100, (i * 4) as u64),
                None,
            ),
            1 => mk(
                j,
                name.clone(),
                "AAAA",
                format!("2001:db8:{:x}::1", i + 1),
                None,
            ),
            2 => mk(j, format!("www.{name}"), "CNAME", name.clone(), None),
            3 => mk(j, name.clone(), "MX", format!("mail.{name}"), Some(10)),
            4 => mk(j, name.clone(), "TXT", "v=spf1 mx -all".into(), None),
            5 => mk(
                j,
                format!("_sip._tcp.{name}"),
                "SRV",
                format!("5 5060 sip.{name}"),
                Some(20),
            ),
            6 => mk(
                j,
                name.clone(),
                "CAA",
                "0 issue \"ca.example\"".into(),
                None,
            ),
            _ => mk(j, name.clone(), "NS", "ns1.hosting.example".into(), None),
        });
    }
    out
}

fn records_of(st: &State, i: usize) -> Vec<DnsRec> {
    st.domains
        .get(&i)
        .and_then(|d| d.records.clone())
        .unwrap_or_else(|| generated_records(i))
}

/// A DNS record as the wire shows it: its `id` spelt as `quirk` says (lists
/// and single views have their own quirk), or as an integer without one
/// (the snapshot).
fn record_json(r: &DnsRec, spelling: Option<(&Variants, &Quirk)>) -> Value {
    let id = match spelling {
        Some((v, quirk)) => v.int(quirk, r.id, r.id as i64),
        None => json!(r.id),
    };
    let mut v = json!({
        "id": id,
        "host": r.host,
        "type": r.rtype,
        "content": r.content,
    });
    if let Some(p) = r.priority {
        v["priority"] = json!(p);
    }
    v
}

fn list_records(cx: &Cx<'_>, name: &str) -> Result<Response, ApiError> {
    let i = domain_index(cx, name)?;
    let st = cx.state();
    let recs: Vec<Value> = records_of(&st, i)
        .iter()
        .map(|r| json!({"dnsRecord": record_json(r, Some((cx.var(), &q::DNS_ID_LIST)))}))
        .collect();
    Ok(ok(&json!({"dnsRecords": recs})))
}

fn find_record(recs: &[DnsRec], id: &str) -> Result<usize, ApiError> {
    parse_u64(id)
        .and_then(|n| recs.iter().position(|r| r.id == n))
        .ok_or_else(|| ApiError::not_found(format!("DNS record {id} not found")))
}

fn get_record(cx: &Cx<'_>, name: &str, id: &str) -> Result<Response, ApiError> {
    let i = domain_index(cx, name)?;
    let st = cx.state();
    let recs = records_of(&st, i);
    let k = find_record(&recs, id)?;
    Ok(ok(
        &json!({"dnsRecord": record_json(&recs[k], Some((cx.var(), &q::DNS_ID_ONE)))}),
    ))
}

const DNS_TYPES: &[&str] = &[
    "A", "AAAA", "CNAME", "MX", "SRV", "TXT", "NS", "CAA", "PTR", "SPF",
];

/// Validate (host, type, content, priority) as a DNS service would.
fn validate_record(
    host: &str,
    host_field: &str,
    rtype: &str,
    content: &str,
    content_field: &str,
    priority: Option<&str>,
) -> Result<(String, Option<i64>), ApiError> {
    if !util::is_hostname(host) {
        return Err(ApiError::bad_field(host_field, "must be a DNS name"));
    }
    let t = rtype.to_ascii_uppercase();
    if !DNS_TYPES.contains(&t.as_str()) {
        return Err(ApiError::bad_field("type", "unsupported record type"));
    }
    let content_ok = match t.as_str() {
        "A" => util::is_ipv4(content),
        "AAAA" => util::is_ipv6(content),
        "CNAME" | "MX" | "NS" | "PTR" => util::is_hostname(content.trim_end_matches('.')),
        _ => !content.trim().is_empty(),
    };
    if !content_ok {
        return Err(ApiError::bad_field(
            content_field,
            &format!("is not valid content for a {t} record"),
        ));
    }
    let prio = match priority.map(str::trim) {
        None | Some("") => None,
        Some(p) => Some(
            p.parse::<i64>()
                .ok()
                .filter(|p| (0..=65_535).contains(p))
                .ok_or_else(|| {
                    ApiError::bad_field("priority", "must be an integer between 0 and 65535")
                })?,
        ),
    };
    let prio =
        if t == "MX" || t == "SRV" {
            Some(prio.ok_or_else(|| {
                ApiError::bad_field("priority", "is required for MX and SRV records")
            })?)
        } else {
            None
        };
    Ok((t, prio))
}

fn create_record(cx: &Cx<'_>, req: &Req, name: &str) -> Result<Response, ApiError> {
    let i = domain_index(cx, name)?;
    let form = req.form()?;
    let host = form.required("host")?;
    let rtype = form.required("type")?;
    let content = form.required("content")?;
    let (t, prio) = validate_record(
        host,
        "host",
        rtype,
        content,
        "content",
        form.get("priority"),
    )?;
    check_editable(i, name)?;
    let mut st = cx.state();
    let mut recs = records_of(&st, i);
    st.next_dns_record += 1;
    let rec = DnsRec {
        id: DNS_NEW_BASE + st.next_dns_record,
        host: host.to_string(),
        rtype: t,
        content: content.to_string(),
        priority: prio,
    };
    let v = record_json(&rec, Some((cx.var(), &q::DNS_ID_ONE)));
    let target = format!("dnsRecord {} of {}", rec.id, domain_name(i));
    recs.push(rec);
    st.domains.entry(i).or_default().records = Some(recs);
    cx.log(&mut st, target);
    Ok(ok(&json!({"dnsRecord": v})))
}

/// One of two spellings of a field: both present must agree.
fn either<'a>(form: &'a Form, doc: &str, sample: &str) -> Result<(&'a str, String), ApiError> {
    match (form.get(doc), form.get(sample)) {
        (Some(a), Some(b)) if a != b => Err(ApiError::bad_field(
            doc,
            &format!("{doc} and {sample} are both given and differ"),
        )),
        (Some(a), _) if !a.trim().is_empty() => Ok((a, doc.to_string())),
        (_, Some(b)) if !b.trim().is_empty() => Ok((b, sample.to_string())),
        _ => Err(ApiError::bad_field(
            doc,
            &format!("is required (or {sample})"),
        )),
    }
}

fn update_record(cx: &Cx<'_>, req: &Req, name: &str, id: &str) -> Result<Response, ApiError> {
    let i = domain_index(cx, name)?;
    let form = req.form()?;
    {
        let st = cx.state();
        find_record(&records_of(&st, i), id)?;
    }
    if let Some(fid) = form.get("id").filter(|s| !s.is_empty())
        && parse_u64(fid) != parse_u64(id)
    {
        return Err(ApiError::bad_field(
            "id",
            "does not match the record id of the path",
        ));
    }
    let (host, host_field) = either(&form, "name", "host")?;
    let (content, content_field) = either(&form, "data", "content")?;
    let rtype = form.required("type")?;
    let (t, prio) = validate_record(
        host,
        &host_field,
        rtype,
        content,
        &content_field,
        form.get("priority"),
    )?;
    check_editable(i, name)?;
    let mut st = cx.state();
    let mut recs = records_of(&st, i);
    let k = find_record(&recs, id)?;
    recs[k].host = host.to_string();
    recs[k].rtype = t;
    recs[k].content = content.to_string();
    recs[k].priority = prio;
    let v = record_json(&recs[k], Some((cx.var(), &q::DNS_ID_ONE)));
    let target = format!("dnsRecord {} of {}", recs[k].id, domain_name(i));
    st.domains.entry(i).or_default().records = Some(recs);
    cx.log(&mut st, target);
    Ok(ok(&json!({"dnsRecord": v})))
}

fn delete_record(cx: &Cx<'_>, name: &str, id: &str) -> Result<Response, ApiError> {
    let i = domain_index(cx, name)?;
    let mut st = cx.state();
    let mut recs = records_of(&st, i);
    let k = find_record(&recs, id)?;
    check_editable(i, name)?;
    let rec = recs.remove(k);
    st.domains.entry(i).or_default().records = Some(recs);
    cx.log(
        &mut st,
        format!("dnsRecord {} of {}", rec.id, domain_name(i)),
    );
    Ok(empty(StatusCode::OK))
}

// ---------------------------------------------------------- bare metals

/// The generated facts of one bare metal server.
struct Bm {
    i: usize,
    id: u64,
    name: String,
    server_type: &'static str,
    site: &'static str,
    cabinet: String,
    reference: String,
    ram: &'static str,
    cpu: &'static str,
    cpu_speed: &'static str,
    cpus: u64,
    cores: u64,
    /// (amount, size, kind)
    disks: Vec<(u64, &'static str, &'static str)>,
    ip_count: usize,
    macs: Vec<String>,
    ipmi_ip: String,
    price_cents: i64,
    start: i64,
    term_years: i64,
    sla: &'static str,
    sla_price_cents: i64,
    data_pack: &'static str,
    bandwidth_pack: bool,
    ports: Vec<String>,
    daily_gb: f64,
    switch_node: u64,
}

impl Bm {
    fn disk_count(&self) -> u64 {
        self.disks.iter().map(|d| d.0).sum()
    }

    fn ip(&self, j: usize) -> String {
        util::ip_of(85, 17, (self.i * 4 + j) as u64)
    }
}

fn bm_facts(ds: &Dataset, i: usize) -> Bm {
    let seed = ds.seed;
    let mut r = rng(seed, kind::BARE_METAL, i as u64);
    let id = BM_BASE + 1 + i as u64;
    let (site, _) = SITES[i % SITES.len()];
    let disks: Vec<(u64, &'static str, &'static str)> = match i % 4 {
        0 => vec![(2, "2TB", "SATA")],
        1 => vec![(2, "4TB", "SATA"), (2, "480GB", "SSD")],
        2 => vec![(2, "960GB", "SSD")],
        _ => vec![(1, "1TB", "SATA")],
    };
    let nports = 1 + (i % 2);
    let mut macs = Vec::new();
    for k in 0..2 {
        let h = hash3(seed, kind::BARE_METAL, (i as u64) << 8 | k);
        // Each MAC in its own letter case (alternatives in util::mac's order).
        macs.push(util::mac(
            util::mac_bytes(h),
            ds.variants.pick(&q::BM_MAC_CASE, 2 * i as u64 + k),
        ));
    }
    let bandwidth_pack = i % 2 == 1;
    Bm {
        i,
        id,
        name: format!("{}{}", pick(&mut r, &["LSPG", "LSAM", "LSFR", "LSWD"]), id),
        server_type: pick_s(
            &mut r,
            &[
                "Dell PowerEdge R640",
                "HP DL120 G9",
                "Dell PowerEdge R730xd",
                "Supermicro SYS-5019C-MR",
            ],
        ),
        site,
        cabinet: format!(
            "{}{:02}",
            pick(&mut r, &["ZA", "ZB", "HH"]),
            r.random_range(1..40)
        ),
        reference: format!(
            "{}-{}",
            pick(&mut r, &["db", "web", "k8s", "backup"]),
            i + 1
        ),
        ram: pick_s(&mut r, &["16GB", "32GB", "64GB", "128GB", "256GB"]),
        cpu: pick_s(
            &mut r,
            &[
                "Intel Xeon E5-2620v4",
                "Intel Xeon Silver 4210",
                "AMD EPYC 7302P",
            ],
        ),
        cpu_speed: pick_s(&mut r, &["2100Mhz", "2200Mhz", "3000Mhz"]),
        cpus: *pick(&mut r, &[1u64, 1, 2]),
        cores: *pick(&mut r, &[4u64, 8, 10, 16]),
        disks,
        ip_count: 1 + i % 4,
        macs,
        ipmi_ip: util::ip_of(10, 11, i as u64),
        price_cents: r.random_range(4_900..39_900i64),
        start: EPOCH + r.random_range(0..8 * YEAR),
        term_years: *pick(&mut r, &[1i64, 1, 2, 3]),
        sla: pick_s(
            &mut r,
            &["Basic - 24x7x24", "Bronze - 24x7x4", "Gold - 24x7x1"],
        ),
        sla_price_cents: *pick(&mut r, &[0i64, 2500, 7500]),
        data_pack: if bandwidth_pack {
            pick_s(&mut r, &["Unmetered 100 Mbps", "Unmetered 1 Gbps"])
        } else {
            pick_s(&mut r, &["10 TB", "20 TB", "50 TB"])
        },
        bandwidth_pack,
        ports: (0..nports)
            .map(|k| format!("ge-0/0/{}", 2 * (i % 24) + k))
            .collect(),
        daily_gb: r.random_range(5.0..400.0),
        switch_node: 1 + (i % 48) as u64,
    }
}

fn bm_index(cx: &Cx<'_>, id: &str) -> Result<usize, ApiError> {
    index_of(id, BM_BASE, cx.ds().bare_metals, "bare metal server")
}

fn bm_reference(v: &Variants, st: &State, bm: &Bm) -> Value {
    match st.bare_metals.get(&bm.i).and_then(|o| o.reference.clone()) {
        Some(r) => json!(r),
        None => reference_value(v, &q::BM_REFERENCE, bm.i as u64, bm.reference.clone()),
    }
}

fn list_bm(cx: &Cx<'_>) -> Result<Response, ApiError> {
    let st = cx.state();
    let items = (0..cx.ds().bare_metals).map(|i| {
        let bm = bm_facts(cx.ds(), i);
        json!({"bareMetal": {
            "bareMetalId": id_spelt(cx.var(), &q::BM_ID_LIST, i, bm.id),
            "serverName": bm.name,
            "serverType": bm.server_type,
            "reference": bm_reference(cx.var(), &st, &bm),
        }})
    });
    Ok(util::ok_list(r#"{"bareMetals":["#, items, "]}"))
}

/// An id as an integer or a string, as `quirk` says for record `i`.
fn id_spelt(v: &Variants, quirk: &Quirk, i: usize, id: u64) -> Value {
    v.int(quirk, i as u64, id as i64)
}

fn bm_detail(v: &Variants, st: &State, bm: &Bm) -> Value {
    let rec = bm.i as u64;
    let reference = bm_reference(v, st, bm);
    let hard_disks = bm
        .disks
        .iter()
        .map(|(n, s, k)| format!("{n}x{s} {k}"))
        .collect::<Vec<_>>()
        .join(", ");
    let disk_list: Vec<Value> = bm
        .disks
        .iter()
        .map(|(n, s, k)| json!({"amount": n, "size": format!("{s} {k}")}))
        .collect();
    let mut pack = Map::new();
    pack.insert("reference".into(), reference.clone());
    pack.insert(
        "bareMetalId".into(),
        id_spelt(v, &q::BM_PACK_ID, bm.i, bm.id),
    );
    pack.insert("serverName".into(), json!(bm.name));
    pack.insert("serverType".into(), json!(bm.server_type));
    pack.insert(
        "serverPrice".into(),
        v.money(&q::BM_PRICE, rec, bm.price_cents),
    );
    pack.insert("startDate".into(), json!(fmt_local(bm.start)));
    end_date_variant(
        &mut pack,
        "endDate",
        v.pick(&q::BM_END_DATE, rec),
        bm.start + bm.term_years * YEAR,
        true,
    );
    pack.insert(
        "contractTerm".into(),
        json!(contract_term_str(bm.term_years)),
    );
    let ipmi_net = gateway_of(&bm.ipmi_ip).replace(".254", ".0");
    json!({
        "bareMetalId": id_spelt(v, &q::BM_ID, bm.i, bm.id),
        "serverName": bm.name,
        "serverType": bm.server_type,
        "reference": reference,
        "location": {
            "site": bm.site,
            "cabinet": bm.cabinet,
            "rackspace": "",
            "combinationLock": "",
        },
        "server": {
            "ram": bm.ram,
            "kvm": if bm.i.is_multiple_of(2) { "Yes" } else { "No" },
            "serverType": bm.server_type,
            "processorType": bm.cpu,
            "processorSpeed": bm.cpu_speed,
            "numberOfCpus": v.int(&q::BM_CPU_COUNTS, rec, bm.cpus as i64),
            "numberOfCores": v.int(&q::BM_CPU_COUNTS, rec, bm.cores as i64),
            "hardDisks": hard_disks,
            "hardDiskList": disk_list,
            "hardwareRaid": if bm.i.is_multiple_of(3) { "Yes" } else { "No" },
        },
        "network": {
            "dataPack": bm.data_pack,
            "ipsFreeOfCharge": v.int(&q::BM_IP_COUNTS, rec, 1),
            "ipsAssigned": v.int(&q::BM_IP_COUNTS, rec, bm.ip_count as i64),
            "excessIpsPrice": v.money(&q::BM_EXCESS_IP_PRICE, rec, 150),
            "dataPackExcess": if bm.bandwidth_pack {
                json!({"type": "bandwidth", "value": v.money(&q::BM_EXCESS_VALUE, rec, 250), "unit": "Mbps"})
            } else {
                json!({"type": "datatraffic", "value": v.money(&q::BM_EXCESS_VALUE, rec, 49), "unit": "GB"})
            },
            "ipmi": {
                "ip": bm.ipmi_ip,
                "netmask": "255.255.255.0",
                "network": ipmi_net,
                "gateway": gateway_of(&bm.ipmi_ip),
                "type": if bm.i.is_multiple_of(2) { "ILO" } else { "DRAC" },
            },
            "macAddresses": {"mac": bm.macs},
            "pricePerMonth": v.money(&q::BM_NETWORK_PRICE, rec, if bm.bandwidth_pack { 0 } else { 2900 }),
        },
        "serverHostingPack": Value::Object(pack),
        "serviceLevelAgreement": {"sla": bm.sla, "pricePerMonth": v.money(&q::BM_SLA_PRICE, rec, bm.sla_price_cents)},
        "extras": [],
        "serverSpecifications": {},
        "datacenterAccessCards": [],
    })
}

fn get_bm(cx: &Cx<'_>, id: &str) -> Result<Response, ApiError> {
    let i = bm_index(cx, id)?;
    let bm = bm_facts(cx.ds(), i);
    let st = cx.state();
    Ok(ok(&json!({"bareMetal": bm_detail(cx.var(), &st, &bm)})))
}

fn check_reference(r: &str) -> Result<(), ApiError> {
    if r.chars().count() > 255 {
        return Err(ApiError::bad_field(
            "reference",
            "must be at most 255 characters",
        ));
    }
    if r.chars().any(char::is_control) {
        return Err(ApiError::bad_field(
            "reference",
            "must not contain control characters",
        ));
    }
    Ok(())
}

fn put_bm(cx: &Cx<'_>, req: &Req, id: &str) -> Result<Response, ApiError> {
    let i = bm_index(cx, id)?;
    let form = req.form()?;
    let reference = form
        .get("reference")
        .ok_or_else(|| ApiError::bad_field("reference", "is required"))?;
    check_reference(reference)?;
    let bm = bm_facts(cx.ds(), i);
    let mut st = cx.state();
    st.bare_metals.entry(i).or_default().reference = Some(Some(reference.to_string()));
    cx.log(&mut st, format!("bareMetal {} reference", bm.id));
    Ok(ok(&json!({"bareMetal": bm_detail(cx.var(), &st, &bm)})))
}

fn switch_port(cx: &Cx<'_>, id: &str, set: Option<bool>) -> Result<Response, ApiError> {
    let i = bm_index(cx, id)?;
    let bm = bm_facts(cx.ds(), i);
    let mut st = cx.state();
    if let Some(open) = set {
        st.bare_metals.entry(i).or_default().switch_open = Some(open);
        cx.log(
            &mut st,
            format!(
                "bareMetal {} switchPort {}",
                bm.id,
                if open { "open" } else { "close" }
            ),
        );
    }
    let open = st
        .bare_metals
        .get(&i)
        .and_then(|o| o.switch_open)
        .unwrap_or(i % 11 != 10);
    Ok(ok(&json!({"switchPort": {
        "status": if open { "open" } else { "closed" },
        "serverId": bm.id,
        "serverName": bm.name,
        "switchNode": bm.switch_node,
    }})))
}

fn power_status(cx: &Cx<'_>, id: &str) -> Result<Response, ApiError> {
    let i = bm_index(cx, id)?;
    let bm = bm_facts(cx.ds(), i);
    Ok(ok(&json!({"powerStatus": {
        "status": if i % 17 == 16 { "off" } else { "on" },
        "serverId": bm.id,
        "serverName": bm.name,
    }})))
}

fn power_cycle(cx: &Cx<'_>, id: &str) -> Result<Response, ApiError> {
    let i = bm_index(cx, id)?;
    let mut st = cx.state();
    st.bare_metals.entry(i).or_default().power_cycles += 1;
    cx.log(&mut st, format!("bareMetal {id} powerCycle"));
    Ok(util::json(StatusCode::ACCEPTED, &json!({})))
}

fn task_running(o: Option<&BmOver>, now: f64) -> Option<&BmTask> {
    o.and_then(|o| o.task.as_ref()).filter(|t| now < t.until)
}

fn busy(st: &State, i: usize, now: f64) -> Result<(), ApiError> {
    match task_running(st.bare_metals.get(&i), now) {
        Some(t) => Err(ApiError::conflict(if t.rescue {
            "a rescue mode boot is in progress on this server"
        } else {
            "an installation is in progress on this server"
        })),
        None => Ok(()),
    }
}

/// A parsed partition.
#[derive(Default, Clone)]
struct Part {
    fs: Option<String>,
    size: Option<String>,
    mountpoint: Option<String>,
}

/// Validate the install form as a real service would.
fn validate_install(form: &Form, bm: &Bm) -> Result<u64, ApiError> {
    let os_s = form.required("osId")?;
    let os_id =
        parse_u64(os_s.trim()).ok_or_else(|| ApiError::bad_field("osId", "must be an integer"))?;
    let os = os_entry(os_id)
        .ok_or_else(|| ApiError::bad_field("osId", "is not a known operating system"))?;
    let fs_types = if os.2 { BSD_FS } else { LINUX_FS };

    let mut disk: Option<String> = None;
    let mut bootable: Option<String> = None;
    let mut parts: BTreeMap<usize, Part> = BTreeMap::new();
    let mut any_hdd = false;
    for (k, v) in &form.0 {
        let Some(rest) = k.strip_prefix("hdd") else {
            continue;
        };
        any_hdd = true;
        match rest {
            "[disk]" => disk = Some(v.clone()),
            "[bootable]" => bootable = Some(v.clone()),
            _ => {
                let Some(p) = rest.strip_prefix("[params][") else {
                    return Err(ApiError::bad_field(k, "unknown hdd field"));
                };
                let Some((idx, field)) = p.split_once("][") else {
                    return Err(ApiError::bad_field(k, "unknown hdd field"));
                };
                let idx: usize = parse_u64(idx)
                    .filter(|n| *n < 64)
                    .ok_or_else(|| ApiError::bad_field(k, "partition index must be 0–63"))?
                    as usize;
                let part = parts.entry(idx).or_default();
                match field {
                    "type]" => part.fs = Some(v.clone()),
                    "size]" => part.size = Some(v.clone()),
                    "mountpoint]" => part.mountpoint = Some(v.clone()),
                    _ => return Err(ApiError::bad_field(k, "unknown partition field")),
                }
            }
        }
    }
    let disk_names: Vec<String> = (0..bm.disk_count())
        .map(|d| format!("/dev/sd{}", (b'a' + d as u8) as char))
        .collect();
    if any_hdd {
        let disk = disk.ok_or_else(|| ApiError::bad_field("hdd[disk]", "is required"))?;
        if !disk_names.contains(&disk) {
            return Err(ApiError::bad_field(
                "hdd[disk]",
                &format!("must be one of {}", disk_names.join(", ")),
            ));
        }
        if parts.is_empty() {
            return Err(ApiError::bad_field(
                "hdd[params]",
                "at least one partition is required",
            ));
        }
        let count = parts.len();
        if parts.keys().copied().ne(0..count) {
            return Err(ApiError::bad_field(
                "hdd[params]",
                "partitions must be indexed from 0 without gaps",
            ));
        }
        let mut stars = 0;
        let mut root = false;
        let mut mounts: Vec<String> = Vec::new();
        for (idx, p) in &parts {
            let f = |n: &str| format!("hdd[params][{idx}][{n}]");
            let fs =
                p.fs.as_deref()
                    .ok_or_else(|| ApiError::bad_field(&f("type"), "is required"))?;
            if !fs_types.contains(&fs) {
                return Err(ApiError::bad_field(
                    &f("type"),
                    &format!("must be one of {}", fs_types.join(", ")),
                ));
            }
            let size = p
                .size
                .as_deref()
                .ok_or_else(|| ApiError::bad_field(&f("size"), "is required"))?;
            if size == "*" {
                stars += 1;
                if stars > 1 {
                    return Err(ApiError::bad_field(
                        &f("size"),
                        "only one partition may take the rest of the disk (*)",
                    ));
                }
            } else if parse_u64(size).filter(|n| *n > 0).is_none() {
                return Err(ApiError::bad_field(
                    &f("size"),
                    "must be a positive integer (MB) or *",
                ));
            }
            let mp = p.mountpoint.as_deref().unwrap_or("");
            if fs == "swap" {
                if !mp.is_empty() {
                    return Err(ApiError::bad_field(
                        &f("mountpoint"),
                        "must be empty for swap",
                    ));
                }
            } else {
                if !mp.starts_with('/') {
                    return Err(ApiError::bad_field(
                        &f("mountpoint"),
                        "is required and must start with /",
                    ));
                }
                if mounts.iter().any(|m| m == mp) {
                    return Err(ApiError::bad_field(&f("mountpoint"), "is used twice"));
                }
                if mp == "/" {
                    root = true;
                }
                mounts.push(mp.to_string());
            }
        }
        if !root {
            return Err(ApiError::bad_field(
                "hdd[params]",
                "a partition with mountpoint / (root) is required",
            ));
        }
        let b = bootable.ok_or_else(|| ApiError::bad_field("hdd[bootable]", "is required"))?;
        let b = parse_u64(&b)
            .ok_or_else(|| ApiError::bad_field("hdd[bootable]", "must be an integer"))?;
        if b as usize >= count {
            return Err(ApiError::bad_field(
                "hdd[bootable]",
                &format!("must be a partition index (0–{})", count - 1),
            ));
        }
        if parts.get(&(b as usize)).and_then(|p| p.fs.as_deref()) == Some("swap") {
            return Err(ApiError::bad_field(
                "hdd[bootable]",
                "a swap partition cannot boot",
            ));
        }
    }
    let raid = form.opt_int("raidLevel")?;
    let disks = form.opt_int("numberDisks")?;
    match (raid, disks) {
        (None, None) => {}
        (None, Some(_)) => {
            return Err(ApiError::bad_field(
                "raidLevel",
                "is required with numberDisks",
            ));
        }
        (Some(_), None) => {
            return Err(ApiError::bad_field(
                "numberDisks",
                "is required with raidLevel",
            ));
        }
        (Some(level), Some(n)) => {
            let min = match level {
                0 | 1 => 2,
                5 => 3,
                6 | 10 => 4,
                _ => {
                    return Err(ApiError::bad_field(
                        "raidLevel",
                        "must be one of 0, 1, 5, 6, 10",
                    ));
                }
            };
            if n < min {
                return Err(ApiError::bad_field(
                    "numberDisks",
                    &format!("RAID {level} needs at least {min} disks"),
                ));
            }
            if level == 10 && n % 2 != 0 {
                return Err(ApiError::bad_field(
                    "numberDisks",
                    "RAID 10 needs an even number of disks",
                ));
            }
            if n as u64 > bm.disk_count() {
                return Err(ApiError::bad_field(
                    "numberDisks",
                    &format!("the server has {} disks", bm.disk_count()),
                ));
            }
        }
    }
    Ok(os_id)
}

fn install(cx: &Cx<'_>, req: &Req, id: &str) -> Result<Response, ApiError> {
    let i = bm_index(cx, id)?;
    let bm = bm_facts(cx.ds(), i);
    let form = req.form()?;
    let os_id = validate_install(&form, &bm)?;
    let mut st = cx.state();
    busy(&st, i, cx.now)?;
    let o = st.bare_metals.entry(i).or_default();
    o.task = Some(BmTask {
        rescue: false,
        until: cx.now + crate::INSTALL_SECS,
    });
    o.installs += 1;
    o.os_id = Some(os_id);
    cx.log(&mut st, format!("bareMetal {} install os {os_id}", bm.id));
    Ok(empty(StatusCode::OK))
}

fn rescue(cx: &Cx<'_>, req: &Req, id: &str) -> Result<Response, ApiError> {
    let i = bm_index(cx, id)?;
    let form = req.form()?;
    let os_s = form.required("osId")?;
    let os_id =
        parse_u64(os_s.trim()).ok_or_else(|| ApiError::bad_field("osId", "must be an integer"))?;
    if !RESCUE_IMAGES.iter().any(|r| r.0 == os_id) {
        return Err(ApiError::bad_field("osId", "is not a rescue image"));
    }
    let mut st = cx.state();
    busy(&st, i, cx.now)?;
    let o = st.bare_metals.entry(i).or_default();
    o.task = Some(BmTask {
        rescue: true,
        until: cx.now + crate::RESCUE_SECS,
    });
    o.rescues += 1;
    cx.log(&mut st, format!("bareMetal {id} rescueMode {os_id}"));
    Ok(empty(StatusCode::OK))
}

fn installation_status(cx: &Cx<'_>, id: &str) -> Result<Response, ApiError> {
    let i = bm_index(cx, id)?;
    let bm = bm_facts(cx.ds(), i);
    let st = cx.state();
    let var = cx.var();
    let o = st.bare_metals.get(&i);
    // A server may start in an error state (code other than 1000, which the
    // docs say means an error); the next install or rescue clears it.
    let never_tasked = o.and_then(|o| o.task.as_ref()).is_none();
    let (code, desc) = match task_running(o, cx.now) {
        Some(t) if t.rescue => (1000, "Rescue mode booting"),
        Some(_) => (1000, "Installing"),
        None if never_tasked && var.is(&q::BM_STATUS_CODE, i as u64, "error") => {
            (INSTALL_ERROR_CODE, "Installation failed")
        }
        None => (1000, "Normal"),
    };
    // The name as sent (`serverName`) or as documented (`serverPackName`).
    let name_key = var.name(&q::BM_STATUS_NAME, i as u64);
    Ok(ok(&json!({"installationStatus": {
        "code": code,
        "description": desc,
        "serverPackId": id_spelt(var, &q::BM_PACK_ID_STATUS, i, bm.id),
        name_key: bm.name,
    }})))
}

fn root_password(cx: &Cx<'_>, id: &str) -> Result<Response, ApiError> {
    let i = bm_index(cx, id)?;
    let st = cx.state();
    let o = st.bare_metals.get(&i);
    let installs = o.map(|o| o.installs).unwrap_or(0);
    let running = task_running(o, cx.now).cloned();
    let rescues_done = o.map(|o| o.rescues).unwrap_or(0)
        - u32::from(running.as_ref().map(|t| t.rescue).unwrap_or(false));
    let mut r = rng(
        cx.seed(),
        kind::PASSWORD,
        (i as u64) << 20 | u64::from(installs),
    );
    let root = util::password(&mut r, 14);
    let rescue_pw = if rescues_done == 0 {
        String::new()
    } else {
        let mut r = rng(
            cx.seed(),
            kind::PASSWORD,
            (i as u64) << 20 | 1 << 19 | u64::from(rescues_done),
        );
        util::password(&mut r, 12)
    };
    // The key as sent (`rootPassword`) or as documented (`rootpassword`).
    let key = cx.var().name(&q::BM_ROOT_PASSWORD_KEY, i as u64);
    Ok(ok(&json!({key: root, "rescueModePassword": rescue_pw})))
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Usage {
    Both,
    Bandwidth,
    Datatraffic,
}

/// dateFrom and dateTo (`DD-MM-YYYY`), defaulting to the current month.
fn usage_range(req: &Req, now: f64) -> Result<(NaiveDate, NaiveDate), ApiError> {
    let today = date_of(now as i64);
    let to = match req.q("dateTo") {
        None | Some("") => today,
        Some(s) => util::parse_dmy(s)
            .ok_or_else(|| ApiError::bad_field("dateTo", "must be a date DD-MM-YYYY"))?,
    };
    let from = match req.q("dateFrom") {
        None | Some("") => to.with_day(1).unwrap_or(to),
        Some(s) => util::parse_dmy(s)
            .ok_or_else(|| ApiError::bad_field("dateFrom", "must be a date DD-MM-YYYY"))?,
    };
    if from > to {
        return Err(ApiError::bad_field("dateFrom", "must not be after dateTo"));
    }
    if (to - from).num_days() > 366 {
        return Err(ApiError::bad_field(
            "dateTo",
            "the range may span at most one year",
        ));
    }
    Ok((from, to))
}

/// Per-day traffic in GB (in, out) of server or rack `who`.
fn daily(seed: u64, who: u64, daily_gb: f64, from: NaiveDate, to: NaiveDate) -> Vec<(f64, f64)> {
    let mut out = Vec::new();
    let mut d = from;
    while d <= to {
        let h = hash3(seed, kind::USAGE, who << 24 ^ d.num_days_from_ce() as u64);
        let f = 0.4 + (h % 1000) as f64 / 800.0;
        let total = daily_gb * f;
        out.push((total * 0.35, total * 0.65));
        match d.succ_opt() {
            Some(n) => d = n,
            None => break,
        }
    }
    out
}

fn network_usage(cx: &Cx<'_>, req: &Req, id: &str, which: Usage) -> Result<Response, ApiError> {
    let i = bm_index(cx, id)?;
    let bm = bm_facts(cx.ds(), i);
    let (from, to) = usage_range(req, cx.now)?;
    let days = daily(cx.seed(), bm.id, bm.daily_gb, from, to);
    let png = which != Usage::Both && req.wants_png();
    if png {
        let (values, color): (Vec<f64>, [u8; 3]) = if which == Usage::Bandwidth {
            (
                days.iter()
                    .map(|(a, b)| (a + b) * 8000.0 / 86_400.0)
                    .collect(),
                [40, 110, 200],
            )
        } else {
            (days.iter().map(|(a, b)| a + b).collect(), [230, 120, 30])
        };
        return Ok(util::png(crate::chart::bar_chart(&values, color)));
    }
    let secs = days.len() as f64 * 86_400.0;
    let shares: Vec<f64> = if bm.ports.len() == 1 {
        vec![1.0]
    } else {
        vec![0.7, 0.3]
    };
    let tin: f64 = days.iter().map(|d| d.0).sum();
    let tout: f64 = days.iter().map(|d| d.1).sum();
    let interval = json!({"from": fmt_dmy(from), "to": fmt_dmy(to)});
    let to_mbps = |gb: f64| gb * 8000.0 / secs;
    let mut bw_nodes = Map::new();
    let mut dt_nodes = Map::new();
    for (port, s) in bm.ports.iter().zip(&shares) {
        bw_nodes.insert(
            port.clone(),
            json!({
                "in": util::mbps(to_mbps(tin * s)),
                "out": util::mbps(to_mbps(tout * s)),
                "total": util::mbps(to_mbps((tin + tout) * s)),
            }),
        );
        dt_nodes.insert(
            port.clone(),
            json!({
                "in": util::gb(tin * s),
                "out": util::gb(tout * s),
                "total": util::gb((tin + tout) * s),
            }),
        );
    }
    let threshold_mbps = if bm.data_pack.contains("Gbps") {
        1000.0
    } else {
        100.0
    };
    let avg = to_mbps(tin + tout);
    let threshold_gb: f64 = if bm.data_pack.starts_with("50") {
        50_000.0
    } else if bm.data_pack.starts_with("20") {
        20_000.0
    } else {
        10_000.0
    };
    let peak = days
        .iter()
        .map(|(a, b)| (a + b) * 8000.0 / 86_400.0 * 1.8)
        .fold(0.0, f64::max);
    let bandwidth = json!({
        "measurement": {
            "node": Value::Object(bw_nodes),
            "total": util::mbps(peak),
            "average": util::mbps(avg),
        },
        "overusage": util::mbps((avg - threshold_mbps).max(0.0)),
        "serverId": bm.id,
        "serverName": bm.name,
        "interval": interval,
        "monthlyThreshold": util::mbps(threshold_mbps),
    });
    let traffic = json!({
        "measurement": {
            "node": Value::Object(dt_nodes),
            "total": util::gb(tin + tout),
        },
        "overusage": util::gb((tin + tout - threshold_gb).max(0.0)),
        "serverId": bm.id,
        "serverName": bm.name,
        "interval": interval,
        "monthlyThreshold": util::gb(threshold_gb),
    });
    Ok(ok(&match which {
        Usage::Both => json!({"bandwidth": bandwidth, "dataTraffic": traffic}),
        Usage::Bandwidth => json!({"bandwidth": bandwidth}),
        Usage::Datatraffic => json!({"datatraffic": traffic}),
    }))
}

/// `ipDetails`: the netmask under `mask` (as the sample sends it) or
/// `netmask` (as documented), chosen per IP.
fn ip_details(v: &Variants, ip: &str) -> Value {
    let key = v.name(&q::IP_MASK_KEY, ident(ip));
    json!({"gateway": gateway_of(ip), key: "255.255.255.0"})
}

fn billing(cx: &Cx<'_>, ip: &str, free: bool) -> Value {
    let seed = cx.seed();
    let h = hash3(
        seed,
        kind::USAGE,
        ip.len() as u64 ^ util::mix(ip.bytes().map(u64::from).sum()),
    );
    let start = EPOCH + (h % (8 * YEAR as u64)) as i64;
    json!({
        "price": if free { "0.00" } else { "1.50" },
        "startDate": fmt_local(start - start % 86_400),
        "endDate": null_or_empty(cx.var(), &q::IP_NO_END, ident(ip)),
    })
}

fn bm_ip_json(cx: &Cx<'_>, st: &State, bm: &Bm, j: usize) -> Value {
    let ip = bm.ip(j);
    let o = ip_over(st, &ip);
    json!({
        "ip": ip,
        "reverseLookup": o.reverse.clone().unwrap_or_else(|| default_reverse(&ip)),
        "nullRouted": o.null_routed.unwrap_or(false),
        "serverId": bm.id,
        "serverType": "Bare Metal",
        "serverName": bm.name,
        "ipDetails": ip_details(cx.var(), &ip),
        "billingInformation": billing(cx, &ip, j == 0),
    })
}

fn bm_ip_slot(bm: &Bm, ip: &str) -> Result<usize, ApiError> {
    if !util::is_ipv4(ip) {
        return Err(ApiError::bad_field("ipAddress", "must be an IPv4 address"));
    }
    (0..bm.ip_count)
        .find(|j| bm.ip(*j) == ip)
        .ok_or_else(|| ApiError::not_found(format!("IP {ip} is not assigned to server {}", bm.id)))
}

fn list_bm_ips(cx: &Cx<'_>, id: &str) -> Result<Response, ApiError> {
    let i = bm_index(cx, id)?;
    let bm = bm_facts(cx.ds(), i);
    let st = cx.state();
    let ips: Vec<Value> = (0..bm.ip_count)
        .map(|j| json!({"ip": bm_ip_json(cx, &st, &bm, j)}))
        .collect();
    Ok(ok(&json!({"ips": ips})))
}

fn get_bm_ip(cx: &Cx<'_>, id: &str, ip: &str) -> Result<Response, ApiError> {
    let i = bm_index(cx, id)?;
    let bm = bm_facts(cx.ds(), i);
    let j = bm_ip_slot(&bm, ip)?;
    let st = cx.state();
    Ok(ok(&json!({"ip": bm_ip_json(cx, &st, &bm, j)})))
}

/// Parse and apply an IP write form (reverseLookup and/or nullRouted 0/1).
fn apply_ip_form(cx: &Cx<'_>, st: &mut State, req: &Req, ip: &str) -> Result<(), ApiError> {
    let form = req.form()?;
    let reverse = form.get("reverseLookup");
    let null = form.opt_bit("nullRouted")?;
    if reverse.is_none() && null.is_none() {
        return Err(ApiError::bad_field(
            "reverseLookup",
            "one of reverseLookup or nullRouted is required",
        ));
    }
    if let Some(r) = reverse
        && !r.is_empty()
        && !util::is_hostname(r.trim_end_matches('.'))
    {
        return Err(ApiError::bad_field("reverseLookup", "must be a host name"));
    }
    let o = st.ips.entry(ip.to_string()).or_default();
    if let Some(r) = reverse {
        o.reverse = Some(r.to_string());
    }
    if let Some(n) = null {
        o.null_routed = Some(n);
    }
    let what = match (reverse, null) {
        (Some(r), Some(n)) => format!("reverseLookup={r} nullRouted={}", u8::from(n)),
        (Some(r), None) => format!("reverseLookup={r}"),
        (None, Some(n)) => format!("nullRouted={}", u8::from(n)),
        (None, None) => String::new(),
    };
    cx.log(st, format!("ip {ip} {what}"));
    Ok(())
}

fn put_bm_ip(cx: &Cx<'_>, req: &Req, id: &str, ip: &str) -> Result<Response, ApiError> {
    let i = bm_index(cx, id)?;
    let bm = bm_facts(cx.ds(), i);
    let j = bm_ip_slot(&bm, ip)?;
    let mut st = cx.state();
    apply_ip_form(cx, &mut st, req, ip)?;
    Ok(ok(&json!({"ip": bm_ip_json(cx, &st, &bm, j)})))
}

fn lease_json(
    bm: &Bm,
    mac: &str,
    boot_file: &str,
    boot_server: &str,
    dns: &str,
    policy: bool,
) -> Value {
    let ip = bm.ip(0);
    let scope = gateway_of(&ip).replace(".254", ".0");
    let opt = |name: &str, id: &str, t: &str, value: &str, pol: bool| {
        json!({
            "name": name,
            "optionId": id,
            "policyName": if pol { json!("pxe-boot") } else { Value::Null },
            "type": t,
            "userClass": "",
            "value": value,
            "vendorClass": "",
        })
    };
    json!({
        "ip": ip,
        "mac": mac,
        "scope": scope,
        "options": [
            opt("Bootfile Name", "67", "String", boot_file, policy),
            opt("Boot Server Host Name", "66", "String", boot_server, policy),
            opt("DNS Servers", "6", "IPv4Address", dns, false),
        ],
    })
}

fn leases_of(st: &State, bm: &Bm) -> Vec<Value> {
    if let Some(l) = st.bare_metals.get(&bm.i).and_then(|o| o.leases.clone()) {
        return l;
    }
    // Even servers start with a lease for their first MAC; every fourth
    // (index 0, 4, 8, …) with one for each of its two MACs.
    let macs = match bm.i % 4 {
        0 => &bm.macs[..],
        2 => &bm.macs[..1],
        _ => &[],
    };
    macs.iter()
        .enumerate()
        .map(|(k, mac)| {
            lease_json(
                bm,
                mac,
                &format!("http://boot.hosting.example/ipxe/{}-{k}.ipxe", bm.id),
                "10.11.0.5",
                "10.11.0.53",
                k == 0,
            )
        })
        .collect()
}

fn list_leases(cx: &Cx<'_>, req: &Req, id: &str) -> Result<Response, ApiError> {
    let i = bm_index(cx, id)?;
    let bm = bm_facts(cx.ds(), i);
    let (limit, offset) = util::page(req)?;
    let st = cx.state();
    let all = leases_of(&st, &bm);
    let page: Vec<Value> = all.iter().skip(offset).take(limit).cloned().collect();
    let list = json!({
        "_metadata": util::metadata(all.len(), limit, offset),
        "leases": page,
    });
    // The sample wraps the list in an outer array; the text describes the
    // object alone.
    Ok(ok(&if cx.var().is(&q::BM_LEASES_WRAP, i as u64, "array") {
        json!([list])
    } else {
        list
    }))
}

fn create_lease(cx: &Cx<'_>, req: &Req, id: &str) -> Result<Response, ApiError> {
    let i = bm_index(cx, id)?;
    let bm = bm_facts(cx.ds(), i);
    let form = req.form()?;
    let boot_file = form.required("bootFileName")?;
    if boot_file.chars().any(char::is_whitespace) {
        return Err(ApiError::bad_field(
            "bootFileName",
            "must be a URL without spaces",
        ));
    }
    let boot_server = form.required("bootServerHostName")?;
    if !util::is_ipv4(boot_server) {
        return Err(ApiError::bad_field(
            "bootServerHostName",
            "must be an IPv4 address",
        ));
    }
    let dns = form.required("domainNameServerIp")?;
    if !util::is_ipv4(dns) {
        return Err(ApiError::bad_field(
            "domainNameServerIp",
            "must be an IPv4 address",
        ));
    }
    let mut st = cx.state();
    let mut leases = leases_of(&st, &bm);
    let mac = bm.macs[0].clone();
    leases.retain(|l| util::norm_mac(l["mac"].as_str().unwrap_or("")) != util::norm_mac(&mac));
    leases.push(lease_json(&bm, &mac, boot_file, boot_server, dns, true));
    st.bare_metals.entry(i).or_default().leases = Some(leases);
    cx.log(&mut st, format!("bareMetal {} lease {mac}", bm.id));
    Ok(empty(StatusCode::NO_CONTENT))
}

fn get_lease(cx: &Cx<'_>, id: &str, mac: &str) -> Result<Response, ApiError> {
    let i = bm_index(cx, id)?;
    let bm = bm_facts(cx.ds(), i);
    let st = cx.state();
    let want = util::norm_mac(mac);
    leases_of(&st, &bm)
        .into_iter()
        .find(|l| util::norm_mac(l["mac"].as_str().unwrap_or("")) == want)
        .map(|l| {
            // The sample wraps a single lease in an array.
            ok(&if cx.var().is(&q::BM_LEASE_WRAP, i as u64, "array") {
                json!([l])
            } else {
                l
            })
        })
        .ok_or_else(|| ApiError::not_found(format!("no lease for {mac} on server {}", bm.id)))
}

fn delete_leases(cx: &Cx<'_>, id: &str, mac: Option<&str>) -> Result<Response, ApiError> {
    let i = bm_index(cx, id)?;
    let bm = bm_facts(cx.ds(), i);
    let mut st = cx.state();
    let mut leases = leases_of(&st, &bm);
    match mac {
        None => leases.clear(),
        Some(m) => {
            let want = util::norm_mac(m);
            let before = leases.len();
            leases.retain(|l| util::norm_mac(l["mac"].as_str().unwrap_or("")) != want);
            if leases.len() == before {
                return Err(ApiError::not_found(format!(
                    "no lease for {m} on server {}",
                    bm.id
                )));
            }
        }
    }
    st.bare_metals.entry(i).or_default().leases = Some(leases);
    cx.log(
        &mut st,
        format!("bareMetal {} leases {}", bm.id, mac.unwrap_or("*")),
    );
    Ok(empty(StatusCode::NO_CONTENT))
}

// -------------------------------------------------------- private racks

struct Rack {
    i: usize,
    id: u64,
    name: String,
    site: &'static str,
    cabinet: String,
    suite: String,
    reference: String,
    start: i64,
    sla: &'static str,
    ip_count: usize,
    daily_gb: f64,
}

impl Rack {
    fn ip(&self, j: usize) -> String {
        util::ip_of(95, 211, (self.i * 8 + j) as u64)
    }
}

fn rack_facts(seed: u64, i: usize) -> Rack {
    let mut r = rng(seed, kind::RACK, i as u64);
    let id = RACK_BASE + 1 + i as u64;
    Rack {
        i,
        id,
        name: format!("{}-rack-{}", pick(&mut r, &["ams", "fra", "wdc"]), i + 1),
        site: SITES[i % SITES.len()].0,
        cabinet: format!("C{:03}", r.random_range(1..300)),
        suite: format!("Suite {}", r.random_range(1..9)),
        reference: format!("rack-{}", i + 1),
        start: EPOCH + r.random_range(0..8 * YEAR),
        sla: pick_s(&mut r, &["Basic - 24x7x24", "Platinum - 24x7x0.5"]),
        ip_count: 4 + i % 5,
        daily_gb: r.random_range(100.0..4000.0),
    }
}

fn rack_index(cx: &Cx<'_>, id: &str) -> Result<usize, ApiError> {
    index_of(id, RACK_BASE, cx.ds().racks, "private rack")
}

fn list_racks(cx: &Cx<'_>) -> Result<Response, ApiError> {
    let all: Vec<Value> = (0..cx.ds().racks)
        .map(|i| {
            let id = id_spelt(cx.var(), &q::RACK_ID_LIST, i, RACK_BASE + 1 + i as u64);
            json!({"privateRack": {"privateRackId": id}})
        })
        .collect();
    Ok(ok(&json!({"privateRacks": all})))
}

fn get_rack(cx: &Cx<'_>, id: &str) -> Result<Response, ApiError> {
    let i = rack_index(cx, id)?;
    let k = rack_facts(cx.seed(), i);
    let var = cx.var();
    let rec = i as u64;
    let mut pack = Map::new();
    let reference = reference_value(var, &q::RACK_REFERENCE, rec, k.reference.clone());
    pack.insert("reference".into(), reference);
    pack.insert(
        "privateRackId".into(),
        id_spelt(var, &q::RACK_PACK_ID, i, k.id),
    );
    pack.insert("privateRackName".into(), json!(k.name));
    pack.insert("startDate".into(), json!(fmt_local(k.start)));
    end_date_variant(
        &mut pack,
        "endDate",
        var.pick(&q::RACK_END_DATE, rec),
        k.start + 3 * YEAR,
        true,
    );
    Ok(ok(&json!({"privateRack": {
        "privateRackId": id_spelt(var, &q::RACK_ID, i, k.id),
        "privateRackName": k.name,
        "location": {"site": k.site, "cabinet": k.cabinet, "suite": k.suite},
        "serverHostingPack": Value::Object(pack),
        "serviceLevelAgreement": {"sla": k.sla},
    }})))
}

fn rack_ip_json(cx: &Cx<'_>, st: &State, k: &Rack, j: usize, single: bool) -> Value {
    let ip = k.ip(j);
    let o = ip_over(st, &ip);
    let mut v = json!({
        "ip": ip,
        "privateRackId": id_spelt(cx.var(), &q::RACK_IP_ID, k.i, k.id),
        "nullRouted": o.null_routed.unwrap_or(false),
        "billingInformation": billing(cx, &ip, j < 2),
    });
    if single {
        v["reverseLookup"] = json!(o.reverse.unwrap_or_else(|| default_reverse(&ip)));
    }
    v
}

fn rack_ip_slot(k: &Rack, ip: &str) -> Result<usize, ApiError> {
    if !util::is_ipv4(ip) {
        return Err(ApiError::bad_field("ipAddress", "must be an IPv4 address"));
    }
    (0..k.ip_count)
        .find(|j| k.ip(*j) == ip)
        .ok_or_else(|| ApiError::not_found(format!("IP {ip} is not assigned to rack {}", k.id)))
}

fn list_rack_ips(cx: &Cx<'_>, id: &str) -> Result<Response, ApiError> {
    let i = rack_index(cx, id)?;
    let k = rack_facts(cx.seed(), i);
    let st = cx.state();
    let ips: Vec<Value> = (0..k.ip_count)
        .map(|j| json!({"ip": rack_ip_json(cx, &st, &k, j, false)}))
        .collect();
    Ok(ok(&json!({"ips": ips})))
}

fn get_rack_ip(cx: &Cx<'_>, id: &str, ip: &str) -> Result<Response, ApiError> {
    let i = rack_index(cx, id)?;
    let k = rack_facts(cx.seed(), i);
    let j = rack_ip_slot(&k, ip)?;
    let st = cx.state();
    Ok(ok(&json!({"ip": rack_ip_json(cx, &st, &k, j, true)})))
}

fn put_rack_ip(cx: &Cx<'_>, req: &Req, id: &str, ip: &str) -> Result<Response, ApiError> {
    let i = rack_index(cx, id)?;
    let k = rack_facts(cx.seed(), i);
    let j = rack_ip_slot(&k, ip)?;
    let mut st = cx.state();
    apply_ip_form(cx, &mut st, req, ip)?;
    Ok(ok(&json!({"ip": rack_ip_json(cx, &st, &k, j, true)})))
}

fn rack_usage(cx: &Cx<'_>, req: &Req, id: &str) -> Result<Response, ApiError> {
    let i = rack_index(cx, id)?;
    let k = rack_facts(cx.seed(), i);
    let (from, to) = usage_range(req, cx.now)?;
    let days = daily(cx.seed(), k.id | 1 << 40, k.daily_gb, from, to);
    let tin: f64 = days.iter().map(|d| d.0).sum();
    let tout: f64 = days.iter().map(|d| d.1).sum();
    let secs = days.len() as f64 * 86_400.0;
    Ok(ok(&json!({"networkUsage": {
        "privateRackId": k.id.to_string(),
        "privateRackName": k.name,
        "interval": {"from": fmt_dmy(from), "to": fmt_dmy(to)},
        "dataTraffic": {"in": util::gb(tin), "out": util::gb(tout), "total": util::gb(tin + tout)},
        "bandwidth": {
            "average": util::mbps((tin + tout) * 8000.0 / secs),
            "peak": util::mbps((tin + tout) * 8000.0 / secs * 2.1),
        },
        "days": days.len(),
    }})))
}

// ------------------------------------------------------------------ IPs

fn put_any_ip(cx: &Cx<'_>, req: &Req, ip: &str) -> Result<Response, ApiError> {
    // The only IPv6 addresses of the dataset are v1 virtual servers'; they
    // are kept in the spelling their `ipAddresses` shows.
    let canonical;
    let ip = if util::is_ipv6(ip) {
        let owned = vs_ipv6_index(ip)
            .filter(|i| *i < cx.ds().v1_vs && vs_ips(cx.var(), *i).contains(&vs_ipv6(*i)))
            .ok_or_else(|| ApiError::not_found(format!("IP {ip} not found")))?;
        canonical = vs_ipv6(owned);
        canonical.as_str()
    } else if util::is_ipv4(ip) {
        ip
    } else {
        return Err(ApiError::bad_field("ipAddress", "must be an IP address"));
    };
    let seed = cx.seed();
    let ds = cx.ds();
    enum Owner {
        Bm(Box<Bm>, usize),
        Rack(Box<Rack>, usize),
        Vs(usize, usize),
    }
    let owner = if let Some(n) = util::ip_index(ip, 85, 17) {
        let (i, j) = ((n / 4) as usize, (n % 4) as usize);
        (i < ds.bare_metals)
            .then(|| bm_facts(ds, i))
            .filter(|b| j < b.ip_count)
            .map(|b| Owner::Bm(Box::new(b), j))
    } else if let Some(n) = util::ip_index(ip, 95, 211) {
        let (i, j) = ((n / 8) as usize, (n % 8) as usize);
        (i < ds.racks)
            .then(|| rack_facts(seed, i))
            .filter(|k| j < k.ip_count)
            .map(|k| Owner::Rack(Box::new(k), j))
    } else if let Some(n) = util::ip_index(ip, 37, 48) {
        let i = (n / 2) as usize;
        (i < ds.v1_vs)
            .then(|| vs_ips(cx.var(), i).iter().position(|a| a == ip))
            .flatten()
            .map(|j| Owner::Vs(i, j))
    } else if let Some(i) = vs_ipv6_index(ip) {
        vs_ips(cx.var(), i)
            .iter()
            .position(|a| a == ip)
            .map(|j| Owner::Vs(i, j))
    } else {
        None
    };
    let owner = owner.ok_or_else(|| ApiError::not_found(format!("IP {ip} not found")))?;
    let mut st = cx.state();
    apply_ip_form(cx, &mut st, req, ip)?;
    let o = ip_over(&st, ip);
    let (server_id, server_type, server_name) = match &owner {
        Owner::Bm(b, _) => (b.id, "Bare Metal", b.name.clone()),
        Owner::Rack(k, _) => (k.id, "Private Rack", k.name.clone()),
        Owner::Vs(i, _) => (VS_BASE + 1 + *i as u64, "Virtual Server", vs_name(*i)),
    };
    // The same rule as each owner's own IP view: a bare metal's and a virtual
    // server's first IP, and a rack's first two, are free.
    let free = match owner {
        Owner::Bm(_, j) | Owner::Vs(_, j) => j == 0,
        Owner::Rack(_, j) => j < 2,
    };
    Ok(ok(&json!({"ip": {
        "ip": ip,
        "reverseLookup": o.reverse.clone().unwrap_or_else(|| default_reverse(ip)),
        "nullRouted": o.null_routed.unwrap_or(false),
        "serverId": server_id,
        "serverType": server_type,
        "serverName": server_name,
        "ipDetails": ip_details(cx.var(), ip),
        "billingInformation": billing(cx, ip, free),
    }})))
}

// ------------------------------------------------------------ catalogues

fn rescue_images() -> Response {
    let v: Vec<Value> = RESCUE_IMAGES
        .iter()
        .map(|(id, n)| json!({"rescueImage": {"id": id, "name": n}}))
        .collect();
    ok(&json!({"rescueImages": v}))
}

fn operating_systems() -> Response {
    let v: Vec<Value> = OPERATING_SYSTEMS
        .iter()
        .map(|(id, n, _)| json!({"operatingSystem": {"id": id, "name": n}}))
        .collect();
    ok(&json!({"operatingSystems": v}))
}

fn os_or_404(os: &str) -> Result<&'static (u64, &'static str, bool), ApiError> {
    parse_u64(os)
        .and_then(os_entry)
        .ok_or_else(|| ApiError::not_found(format!("operating system {os} not found")))
}

fn operating_system(os: &str) -> Result<Response, ApiError> {
    let o = os_or_404(os)?;
    Ok(ok(&json!({"operatingSystem": {"id": o.0, "name": o.1}})))
}

fn control_panels(os: &str, cp: Option<&str>) -> Result<Response, ApiError> {
    let o = os_or_404(os)?;
    let panels = control_panels_of(o.0);
    match cp {
        None => {
            let v: Vec<Value> = panels
                .iter()
                .map(|(id, n)| json!({"controlPanel": {"id": id, "name": n}}))
                .collect();
            Ok(ok(&json!({"controlPanels": v})))
        }
        Some(cp) => parse_u64(cp)
            .and_then(|c| panels.iter().find(|p| p.0 == c))
            .map(|(id, n)| ok(&json!({"controlPanel": {"id": id, "name": n}})))
            .ok_or_else(|| {
                ApiError::not_found(format!("control panel {cp} not found for {}", o.1))
            }),
    }
}

fn partition_schema(cx: &Cx<'_>, req: &Req, os: &str) -> Result<Response, ApiError> {
    let o = os_or_404(os)?;
    let pack = match req.q("serverPackId") {
        None | Some("") => return Err(ApiError::bad_field("serverPackId", "is required")),
        Some(p) => p,
    };
    if parse_u64(pack).is_none() {
        return Err(ApiError::bad_field("serverPackId", "must be an integer"));
    }
    let i = bm_index(cx, pack)?;
    let bm = bm_facts(cx.ds(), i);
    let disks: Vec<String> = (0..bm.disk_count())
        .map(|d| format!("/dev/sd{}", (b'a' + d as u8) as char))
        .collect();
    let (fs, root_fs) = if o.2 {
        (BSD_FS, "ufs")
    } else {
        (LINUX_FS, "ext4")
    };
    let boot_fs = if o.2 { "ufs" } else { "ext2" };
    Ok(ok(&json!({"partitionSchema": {
        "limit": 4,
        "disks": {"disk": disks},
        "suggestion": {
            "disk": "/dev/sda",
            "bootable": 0,
            "hdd": {"partition": [
                {"index": 0, "size": "500", "type": boot_fs, "mountpoint": "/boot"},
                {"index": 1, "size": "4096", "type": "swap", "mountpoint": ""},
                {"index": 2, "size": "*", "type": root_fs, "mountpoint": "/"},
            ]},
        },
        "filesystemTypes": {"type": fs},
    }})))
}

fn services(cx: &Cx<'_>) -> Result<Response, ApiError> {
    let seed = cx.seed();
    let ds = cx.ds();
    let bms = (0..ds.bare_metals).map(move |i| {
        let b = bm_facts(ds, i);
        json!({
            "id": b.id.to_string(), "type": "BARE_METAL", "name": b.name,
            "status": "ACTIVE", "monthlyPrice": format!("{}.{:02}", b.price_cents / 100, b.price_cents % 100),
            "startDate": fmt_local(b.start),
        })
    });
    let racks = (0..ds.racks).map(move |i| {
        let k = rack_facts(seed, i);
        json!({
            "id": k.id.to_string(), "type": "PRIVATE_RACK", "name": k.name,
            "status": "ACTIVE", "startDate": fmt_local(k.start),
        })
    });
    let domains = (0..ds.domains).map(|i| {
        json!({
            "id": domain_name(i), "type": "DOMAIN", "name": domain_name(i),
            "status": if i % 13 == 12 { "PENDING" } else { "ACTIVE" },
        })
    });
    let vss = (0..ds.v1_vs).map(|i| {
        json!({
            "id": (VS_BASE + 1 + i as u64).to_string(), "type": "VIRTUAL_SERVER",
            "name": vs_name(i), "status": "ACTIVE",
        })
    });
    let total = ds.bare_metals + ds.racks + ds.domains + ds.v1_vs;
    Ok(util::ok_list(
        r#"{"services":["#,
        bms.chain(racks).chain(domains).chain(vss),
        &format!(r#"],"totalCount":{total}}}"#),
    ))
}

// ----------------------------------------------------- private networks

pub(crate) fn init(ds: &Dataset, st: &mut State) {
    let h = hash3(ds.seed, kind::BARE_METAL, 1 << 50);
    let created = EPOCH + 6 * YEAR + (h % YEAR as u64) as i64;
    let long_ago = f64::NEG_INFINITY;
    st.private_networks.insert(
        FIRST_PRIVATE_NETWORK,
        PrivNet {
            id: FIRST_PRIVATE_NETWORK,
            name: "backend".into(),
            created: created as f64,
            updated: (created + 86_400) as f64,
            members: vec![
                Member {
                    bm: 0,
                    added: long_ago,
                    removing: None,
                },
                Member {
                    bm: 1,
                    added: long_ago,
                    removing: None,
                },
            ],
        },
    );
    st.private_networks.insert(
        FIRST_PRIVATE_NETWORK + 1,
        PrivNet {
            id: FIRST_PRIVATE_NETWORK + 1,
            name: "storage".into(),
            created: (created + 30 * 86_400) as f64,
            updated: (created + 30 * 86_400) as f64,
            members: Vec::new(),
        },
    );
    st.next_private_network = FIRST_PRIVATE_NETWORK + 2;
}

fn live_members(n: &PrivNet, now: f64) -> Vec<(&Member, &'static str)> {
    n.members
        .iter()
        .filter_map(|m| m.status(now).map(|s| (m, s)))
        .collect()
}

fn network_item(cx: &Cx<'_>, n: &PrivNet) -> Value {
    json!({
        "id": n.id,
        "name": n.name,
        "serverCount": live_members(n, cx.now).len(),
        "customerNumber": cx.ds().customer_number,
        "createdAt": fmt_offset(n.created as i64, 1),
        "updatedAt": fmt_offset(n.updated as i64, 1),
    })
}

fn list_networks(cx: &Cx<'_>, req: &Req) -> Result<Response, ApiError> {
    let (limit, offset) = util::page(req)?;
    let st = cx.state();
    let page: Vec<Value> = st
        .private_networks
        .values()
        .skip(offset)
        .take(limit)
        .map(|n| network_item(cx, n))
        .collect();
    Ok(ok(&json!({
        "_metadata": util::metadata(st.private_networks.len(), limit, offset),
        "privateNetworks": page,
    })))
}

fn network_id(st: &State, id: &str) -> Result<u64, ApiError> {
    parse_u64(id)
        .filter(|n| st.private_networks.contains_key(n))
        .ok_or_else(|| ApiError::not_found(format!("private network {id} not found")))
}

fn create_network(cx: &Cx<'_>, req: &Req) -> Result<Response, ApiError> {
    let form = req.form()?;
    let name = form.get("name").map(str::to_string);
    if let Some(n) = &name
        && (n.chars().count() > 64 || n.chars().any(char::is_control))
    {
        return Err(ApiError::bad_field(
            "name",
            "must be at most 64 printable characters",
        ));
    }
    let mut st = cx.state();
    let id = st.next_private_network;
    st.next_private_network += 1;
    st.private_networks.insert(
        id,
        PrivNet {
            id,
            name: name.unwrap_or_else(|| format!("private-network-{id}")),
            created: cx.now,
            updated: cx.now,
            members: Vec::new(),
        },
    );
    cx.log(&mut st, format!("privateNetwork {id} create"));
    Ok(ok(&json!({"id": id, "message": "Private network created"})))
}

fn get_network(cx: &Cx<'_>, id: &str) -> Result<Response, ApiError> {
    let st = cx.state();
    let nid = network_id(&st, id)?;
    let n = &st.private_networks[&nid];
    let members: Vec<Value> = live_members(n, cx.now)
        .into_iter()
        .map(|(m, status)| {
            let bm = bm_facts(cx.ds(), m.bm);
            let a = 10 + (m.bm as u64 % 200);
            json!({
                "id": bm.id,
                "dataCenter": bm.site,
                "CIDR": format!("10.{}.{}.{}/22", 29 + nid % 200, a / 64 * 4, (m.bm % 64) * 4 + 2),
                "broadcast": format!("10.{}.{}.255", 29 + nid % 200, a / 64 * 4 + 3),
                "gateway": format!("10.{}.{}.1", 29 + nid % 200, a / 64 * 4),
                "netmask": "255.255.252.0",
                "status": status,
                "portSpeed": if m.bm % 2 == 0 { "1000" } else { "100" },
            })
        })
        .collect();
    Ok(ok(
        &json!([{"id": n.id, "name": n.name, "bareMetals": members}]),
    ))
}

fn delete_network(cx: &Cx<'_>, id: &str) -> Result<Response, ApiError> {
    let mut st = cx.state();
    let nid = network_id(&st, id)?;
    st.private_networks.remove(&nid);
    cx.log(&mut st, format!("privateNetwork {nid} delete"));
    Ok(ok(
        &json!({"message": format!("Private network {nid} deleted")}),
    ))
}

fn add_member(cx: &Cx<'_>, req: &Req, id: &str) -> Result<Response, ApiError> {
    let form = req.form()?;
    let bm_s = form.required("bareMetalId")?;
    let bm_id = parse_u64(bm_s.trim())
        .ok_or_else(|| ApiError::bad_field("bareMetalId", "must be an integer"))?;
    let mut st = cx.state();
    let nid = network_id(&st, id)?;
    let i = bm_index(cx, &bm_id.to_string())?;
    let now = cx.now;
    let n = st
        .private_networks
        .get_mut(&nid)
        .ok_or_else(|| ApiError::not_found("private network"))?;
    n.members.retain(|m| m.status(now).is_some());
    if let Some(m) = n.members.iter().find(|m| m.bm == i) {
        return Err(ApiError::conflict(match m.removing {
            Some(_) => "the server is being removed from this private network",
            None => "the server is already in this private network",
        }));
    }
    n.members.push(Member {
        bm: i,
        added: now,
        removing: None,
    });
    n.updated = now;
    cx.log(&mut st, format!("privateNetwork {nid} add {bm_id}"));
    Ok(empty(StatusCode::NO_CONTENT))
}

fn remove_member(cx: &Cx<'_>, id: &str, bm: &str) -> Result<Response, ApiError> {
    let mut st = cx.state();
    let nid = network_id(&st, id)?;
    let i = bm_index(cx, bm)?;
    let now = cx.now;
    let n = st
        .private_networks
        .get_mut(&nid)
        .ok_or_else(|| ApiError::not_found("private network"))?;
    let m = n
        .members
        .iter_mut()
        .find(|m| m.bm == i && m.status(now).is_some())
        .ok_or_else(|| {
            ApiError::not_found(format!("server {bm} is not in private network {nid}"))
        })?;
    if m.removing.is_some() {
        return Err(ApiError::conflict("the server is already being removed"));
    }
    m.removing = Some(now);
    n.updated = now;
    cx.log(&mut st, format!("privateNetwork {nid} remove {bm}"));
    Ok(empty(StatusCode::NO_CONTENT))
}

// ------------------------------------------------------------- snapshot

pub(crate) fn snapshot(ds: &Dataset, st: &State, now: f64) -> Value {
    let vs: Map<String, Value> = st
        .v1_vs
        .iter()
        .map(|(i, o)| {
            (
                (VS_BASE + 1 + *i as u64).to_string(),
                json!({
                    "state": o.running.map(|r| if r { "Running" } else { "Stopped" }),
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
