//! `hostapi find TEXT`: an IP address, a name, a reference, a MAC address or an id,
//! looked up across bare metal servers, virtual servers, cloud servers and domains;
//! each hit says where it was found (`CliFound` in the JSON Schema).
//!
//! The lists are read at once, each searched a page at a time as its pages arrive and
//! never held whole; with `--limit N` (and no `--filter` or `--sort`, which need every
//! hit), a list stops once it has given N hits, so a paged list asks for no further
//! page. Bare metal servers are read in detail too (their IPs and MAC addresses are
//! not in the list) through the facade's bulk helpers, when the text can be an IP
//! address, a host name or a MAC address: that list is read whole first.

use std::net::IpAddr;

use clap::Args;
use futures::StreamExt;
use hostapi::List;
use serde::Serialize;
use serde_json::Value;

use super::{Context, bare_metal};
use crate::failure::{Failure, NOT_FOUND};
use crate::output::{Printer, col};

#[derive(Debug, Args)]
pub(crate) struct FindArgs {
    /// What to look for: an IP address, a name, a reference, a MAC address, an id or
    /// a domain name (any letter case; * and ? match any text and any character).
    text: String,
}

/// One hit.
#[derive(Debug, Serialize, schemars::JsonSchema)]
struct Found {
    /// `bare_metal`, `vps`, `cloud` or `domain`.
    kind: &'static str,
    id: String,
    name: Option<String>,
    /// The field that matched, as named in the JSON.
    field: String,
    /// The matching value.
    value: String,
}

/// What is looked for, in the forms it can be compared in.
struct Needle {
    /// Lower case.
    text: String,
    /// With `*` or `?`: a glob.
    glob: bool,
    ip: Option<IpAddr>,
    /// Twelve hex digits, when the text can be a MAC address.
    mac: Option<String>,
}

impl Needle {
    fn new(text: &str) -> Self {
        let text = text.trim().to_lowercase();
        let hex: String = text
            .chars()
            .filter(|c| !matches!(c, ':' | '-' | '.'))
            .collect();
        let mac =
            (hex.len() == 12 && hex.chars().all(|c| c.is_ascii_hexdigit()) && text.len() > 12)
                .then_some(hex);
        Self {
            glob: text.contains(['*', '?']),
            ip: text.parse().ok(),
            mac,
            text,
        }
    }

    fn matches(&self, value: &str) -> bool {
        let value = value.trim().to_lowercase();
        if self.glob {
            return crate::output::glob(&self.text, &value);
        }
        if value == self.text {
            return true;
        }
        if let (Some(ip), Ok(other)) = (self.ip, value.parse::<IpAddr>()) {
            return ip == other;
        }
        if let Some(mac) = &self.mac {
            let other: String = value
                .chars()
                .filter(|c| !matches!(c, ':' | '-' | '.'))
                .collect();
            return *mac == other;
        }
        false
    }

    /// Whether bare metal servers must be read in detail: the text may be an IP
    /// address, a reverse DNS name or a MAC address, which their list does not hold.
    fn needs_details(&self) -> bool {
        self.glob || self.ip.is_some() || self.mac.is_some() || self.text.contains('.')
    }
}

/// The string values at a path (`a.b`, `a[].b`, `a[]`).
fn values_at<'a>(value: &'a Value, path: &str) -> Vec<&'a str> {
    let (head, rest) = match path.split_once('.') {
        Some((head, rest)) => (head, Some(rest)),
        None => (path, None),
    };
    let (key, each) = match head.strip_suffix("[]") {
        Some(key) => (key, true),
        None => (head, false),
    };
    let Some(next) = value.get(key) else {
        return Vec::new();
    };
    let items: Vec<&Value> = if each {
        next.as_array()
            .map(|a| a.iter().collect())
            .unwrap_or_default()
    } else {
        vec![next]
    };
    items
        .into_iter()
        .flat_map(|item| match rest {
            Some(rest) => values_at(item, rest),
            None => item.as_str().into_iter().collect(),
        })
        .collect()
}

/// The fields searched, by kind of resource.
const BARE_METAL_FIELDS: &[&str] = &[
    "id",
    "name",
    "reference",
    "ips[].ip",
    "ips[].reverse_dns",
    "network.mac_addresses[]",
    "network.ipmi.ip",
];
const VPS_FIELDS: &[&str] = &[
    "id",
    "name",
    "reference",
    "mac_address",
    "ips[].ip",
    "ips[].reverse_dns",
];
const CLOUD_FIELDS: &[&str] = &["id", "reference", "ips[].ip", "ips[].reverse_dns"];
const DOMAIN_FIELDS: &[&str] = &["name"];

/// The hits in `records` of one kind.
fn search(
    needle: &Needle,
    kind: &'static str,
    id_field: &str,
    fields: &[&str],
    records: &[Value],
    found: &mut Vec<Found>,
) {
    for record in records {
        for field in fields {
            for value in values_at(record, field) {
                if needle.matches(value) {
                    found.push(Found {
                        kind,
                        id: values_at(record, id_field)
                            .first()
                            .map_or_else(String::new, |id| (*id).to_owned()),
                        name: record
                            .get("name")
                            .and_then(Value::as_str)
                            .map(str::to_owned),
                        field: (*field).to_owned(),
                        value: value.to_owned(),
                    });
                }
            }
        }
    }
}

/// Where to look in one kind of record.
struct Kind {
    /// `bare_metal`, `vps`, `cloud` or `domain`.
    name: &'static str,
    id_field: &'static str,
    fields: &'static [&'static str],
}

const VPS: Kind = Kind {
    name: "vps",
    id_field: "id",
    fields: VPS_FIELDS,
};
const CLOUD: Kind = Kind {
    name: "cloud",
    id_field: "id",
    fields: CLOUD_FIELDS,
};
const DOMAIN: Kind = Kind {
    name: "domain",
    id_field: "name",
    fields: DOMAIN_FIELDS,
};

/// The hits in a list, searched a page at a time as the pages arrive; the list stops
/// once it has given `enough` hits. A page that cannot be fetched fails the search of
/// the whole list (as if none of it had been read).
async fn search_list<T: serde::Serialize + Send + 'static>(
    out: &Printer,
    needle: &Needle,
    kind: &Kind,
    list: List<T>,
    enough: Option<usize>,
) -> Result<Vec<Found>, Failure> {
    let mut found = Vec::new();
    let mut pages = std::pin::pin!(list.pages());
    while let Some(page) = pages.next().await {
        let page = page?;
        crate::output::warn_unreadable(&page);
        for record in page.iter() {
            let record = out.to_json(record)?;
            let records = std::slice::from_ref(&record);
            search(
                needle,
                kind.name,
                kind.id_field,
                kind.fields,
                records,
                &mut found,
            );
            if enough.is_some_and(|enough| found.len() >= enough) {
                return Ok(found);
            }
        }
    }
    Ok(found)
}

/// The hits among bare metal servers: listed, then (when the needle needs them) read
/// in detail.
async fn search_bare_metals(
    context: &Context,
    needle: &Needle,
    enough: Option<usize>,
) -> Result<Vec<Found>, Failure> {
    let kind = Kind {
        name: "bare_metal",
        id_field: "id",
        fields: BARE_METAL_FIELDS,
    };
    let out = &context.printer;
    let list = context.client.bare_metals().list();
    if !needle.needs_details() {
        return search_list(out, needle, &kind, list, enough).await;
    }
    let listing = list.await?;
    crate::output::warn_unreadable(&listing);
    let ids = listing.iter().map(|s| s.id.clone()).collect();
    let (mut records, failed) = bare_metal::detailed(context, ids).await;
    // A server that could not be read in detail is still searched as listed.
    for (id, failure) in failed {
        eprintln!(
            "warning: bare metal server {id} searched without its details: {}",
            failure.shown()
        );
        if let Some(server) = listing.iter().find(|s| s.id == id) {
            records.push(out.to_json(server)?);
        }
    }
    let mut found = Vec::new();
    search(
        needle,
        kind.name,
        kind.id_field,
        kind.fields,
        &records,
        &mut found,
    );
    Ok(found)
}

pub(crate) async fn run(context: &Context, args: FindArgs) -> Result<(), Failure> {
    let needle = Needle::new(&args.text);
    if needle.text.is_empty() {
        return Err(Failure::usage(
            "nothing to find: give an IP address, a name, a reference, a MAC address or an id",
        ));
    }
    let client = &context.client;
    let out = &context.printer;
    // Each list needs no more hits than are printed.
    let enough = out.sdk_limit();
    let (bare_metals, vps, cloud, domains) = futures::join!(
        search_bare_metals(context, &needle, enough),
        search_list(out, &needle, &VPS, client.virtual_servers().list(), enough),
        search_list(out, &needle, &CLOUD, client.cloud_servers().list(), enough),
        search_list(out, &needle, &DOMAIN, client.domains().list(), enough),
    );
    let mut failures = Vec::new();
    let mut found = Vec::new();
    for (result, what) in [
        (bare_metals, "bare metal servers"),
        (vps, "virtual servers"),
        (cloud, "cloud servers"),
        (domains, "domains"),
    ] {
        match result {
            Ok(hits) => found.extend(hits),
            Err(failure) => {
                eprintln!("warning: {what} not searched: {}", failure.shown());
                failures.push(failure);
            }
        }
    }
    if found.is_empty() {
        if failures.len() == 4 {
            let first = failures.remove(0);
            return Err(Failure {
                message: format!("nothing could be searched: {}", first.message),
                ..first
            });
        }
        // Scripts get an empty list; the exit code says nothing was found.
        if out.is_json() {
            out.items::<Found>(&[], &[])?;
        }
        return Err(Failure::new(
            NOT_FOUND,
            format!(
                "no bare metal server, virtual server, cloud server or domain matches `{}`",
                args.text.trim()
            ),
        )
        .hint("ids, names, references, IP addresses, reverse DNS names and MAC addresses are searched; * matches any text"));
    }
    out.items(
        &found,
        &[
            col("KIND", "kind"),
            col("ID", "id"),
            col("NAME", "name"),
            col("FIELD", "field"),
            col("VALUE", "value"),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn needles_match_ips_macs_and_globs() {
        assert!(Needle::new("2A00:C98::1").matches("2a00:0c98:0:0:0:0:0:1"));
        assert!(Needle::new("AC-1F-6B-03-88-8C").matches("ac:1f:6b:03:88:8c"));
        assert!(Needle::new("web-*").matches("Web-5"));
        assert!(!Needle::new("web").matches("web-5"));
        assert!(!Needle::new("85.17.0.1").matches("85.17.0.10"));
        assert!(Needle::new("85.17.0.1").needs_details());
        assert!(!Needle::new("k8s-1").needs_details());
    }

    #[test]
    fn values_are_read_at_paths() {
        let record = json!({"ips": [{"ip": "a"}, {"ip": "b"}], "network": {"macs": ["m"]}});
        assert_eq!(values_at(&record, "ips[].ip"), ["a", "b"]);
        assert_eq!(values_at(&record, "network.macs[]"), ["m"]);
        assert!(values_at(&record, "nothing.here").is_empty());
    }
}
