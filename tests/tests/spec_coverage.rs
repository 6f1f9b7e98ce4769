//! Every endpoint row of the three API documents has an operation in its spec, and the
//! specs have no operation the documents lack. The lists below are copied by hand from
//! `shared/api-docs/*.md`; path parameter names are ignored (`{}`), and the CDN's
//! trailing `/{timestamp}/{signature}` is part of every CDN path, not of the resource.

use std::collections::BTreeSet;
use std::path::Path;

const INFRA_V1: &[(&str, &str)] = &[
    // Virtual servers
    ("GET", "/v1/virtualServers"),
    ("GET", "/v1/virtualServers/{}"),
    ("POST", "/v1/virtualServers/{}/powerOn"),
    ("POST", "/v1/virtualServers/{}/powerOff"),
    ("POST", "/v1/virtualServers/{}/reboot"),
    ("POST", "/v1/virtualServers/{}/reinstall"),
    // Domains and DNS records
    ("GET", "/v1/domains"),
    ("GET", "/v1/domains/{}"),
    ("PUT", "/v1/domains/{}"),
    ("GET", "/v1/domains/{}/dnsRecords"),
    ("POST", "/v1/domains/{}/dnsRecords"),
    ("GET", "/v1/domains/{}/dnsRecords/{}"),
    ("PUT", "/v1/domains/{}/dnsRecords/{}"),
    ("DELETE", "/v1/domains/{}/dnsRecords/{}"),
    // Bare metal servers
    ("GET", "/v1/bareMetals"),
    ("GET", "/v1/bareMetals/{}"),
    ("PUT", "/v1/bareMetals/{}"),
    ("GET", "/v1/bareMetals/{}/switchPort"),
    ("POST", "/v1/bareMetals/{}/switchPort/open"),
    ("POST", "/v1/bareMetals/{}/switchPort/close"),
    ("GET", "/v1/bareMetals/{}/powerStatus"),
    ("POST", "/v1/bareMetals/{}/powerCycle"),
    ("POST", "/v1/bareMetals/{}/install"),
    ("POST", "/v1/bareMetals/{}/rescueMode"),
    ("GET", "/v1/bareMetals/{}/installationStatus"),
    ("GET", "/v1/bareMetals/{}/rootPassword"),
    ("GET", "/v1/bareMetals/{}/networkUsage"),
    ("GET", "/v1/bareMetals/{}/networkUsage/bandwidth"),
    ("GET", "/v1/bareMetals/{}/networkUsage/datatraffic"),
    ("GET", "/v1/bareMetals/{}/ips"),
    ("GET", "/v1/bareMetals/{}/ips/{}"),
    ("PUT", "/v1/bareMetals/{}/ips/{}"),
    ("GET", "/v1/bareMetals/{}/leases"),
    ("POST", "/v1/bareMetals/{}/leases"),
    ("DELETE", "/v1/bareMetals/{}/leases"),
    ("GET", "/v1/bareMetals/{}/leases/{}"),
    ("DELETE", "/v1/bareMetals/{}/leases/{}"),
    // Private racks
    ("GET", "/v1/privateRacks"),
    ("GET", "/v1/privateRacks/{}"),
    ("GET", "/v1/privateRacks/{}/ips"),
    ("GET", "/v1/privateRacks/{}/ips/{}"),
    ("PUT", "/v1/privateRacks/{}/ips/{}"),
    ("GET", "/v1/privateRacks/{}/networkUsage"),
    // IPs
    ("PUT", "/v1/ips/{}"),
    // Catalogues
    ("GET", "/v1/rescueImages"),
    ("GET", "/v1/operatingSystems"),
    ("GET", "/v1/operatingSystems/{}"),
    ("GET", "/v1/operatingSystems/{}/controlPanels"),
    ("GET", "/v1/operatingSystems/{}/controlPanels/{}"),
    ("GET", "/v1/operatingSystems/{}/partitionSchema"),
    ("GET", "/v1/services"),
    // Private networks
    ("GET", "/v1/privateNetworks"),
    ("POST", "/v1/privateNetworks"),
    ("GET", "/v1/privateNetworks/{}"),
    ("DELETE", "/v1/privateNetworks/{}"),
    ("POST", "/v1/privateNetworks/{}/bareMetals"),
    ("DELETE", "/v1/privateNetworks/{}/bareMetals/{}"),
];

const CLOUD_V2: &[(&str, &str)] = &[
    ("GET", "/cloud/v2/virtualServers"),
    ("GET", "/cloud/v2/virtualServers/{}"),
    ("PUT", "/cloud/v2/virtualServers/{}"),
    ("POST", "/cloud/v2/virtualServers/{}/powerOn"),
    ("POST", "/cloud/v2/virtualServers/{}/powerOff"),
    ("POST", "/cloud/v2/virtualServers/{}/reboot"),
    ("POST", "/cloud/v2/virtualServers/{}/reinstall"),
    ("GET", "/cloud/v2/virtualServers/{}/credentials/{}"),
    ("GET", "/cloud/v2/virtualServers/{}/credentials/{}/{}"),
    ("GET", "/cloud/v2/virtualServers/{}/metrics/datatraffic"),
    ("GET", "/cloud/v2/privateClouds"),
];

const CDN: &[(&str, &str)] = &[
    ("POST", "/content/purge/{}/{}"),
    ("GET", "/content/purge/{}/{}/{}"),
    ("GET", "/customers/{}/{}/{}"),
    ("GET", "/customers/reseller/{}/{}"),
    ("POST", "/customers/reseller/{}/{}"),
    ("GET", "/customers/acl/{}"),
    ("POST", "/customers/acl/{}"),
    ("DELETE", "/customers/acl/{}"),
    ("GET", "/origins/{}"),
    ("POST", "/origins/{}"),
    ("GET", "/origins/{}/{}"),
    ("PUT", "/origins/{}/{}"),
];

/// The alias paths the documents name beside an endpoint row (the v1 snippets'
/// `/reboot` and `/rescue`, the CDN text's short sub-customer path): each is in its spec
/// too, marked `x-hostapi-alias-of`.
const INFRA_V1_ALIASES: &[(&str, &str)] = &[
    ("POST", "/v1/bareMetals/{}/reboot"),
    ("POST", "/v1/bareMetals/{}/rescue"),
];
const CDN_ALIASES: &[(&str, &str)] = &[("POST", "/customers/{}/{}")];

/// The (method, path) pairs a spec declares, parameters blanked to `{}`.
fn spec_operations(file: &str, strip_signature: bool) -> BTreeSet<(String, String)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../spec")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let spec: serde_json::Value =
        serde_yaml_ng::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut found = BTreeSet::new();
    for (template, item) in spec["paths"].as_object().expect("spec has paths") {
        let mut segments: Vec<&str> = template.split('/').collect();
        if strip_signature {
            assert_eq!(
                segments.split_off(segments.len().saturating_sub(2)),
                ["{timestamp}", "{signature}"],
                "{file}: CDN path {template} must end in /{{timestamp}}/{{signature}}"
            );
        }
        let blanked: Vec<&str> = segments
            .into_iter()
            .map(|s| if s.starts_with('{') { "{}" } else { s })
            .collect();
        for method in ["get", "put", "post", "delete", "patch", "head", "options"] {
            if item.get(method).is_some() {
                found.insert((method.to_uppercase(), blanked.join("/")));
            }
        }
    }
    found
}

fn assert_covers(file: &str, documented: &[(&str, &str)], strip_signature: bool) {
    let documented: BTreeSet<(String, String)> = documented
        .iter()
        .map(|(m, p)| ((*m).to_owned(), (*p).to_owned()))
        .collect();
    let declared = spec_operations(file, strip_signature);
    let missing: Vec<_> = documented.difference(&declared).collect();
    let extra: Vec<_> = declared.difference(&documented).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "{file}: missing from the spec {missing:?}; in the spec but not in the docs {extra:?}"
    );
}

#[test]
fn the_document_lists_hold_eighty_endpoints() {
    assert_eq!(INFRA_V1.len() + CLOUD_V2.len() + CDN.len(), 80);
}

#[test]
fn infra_v1_spec_covers_every_documented_endpoint() {
    assert_covers(
        "infra-v1.yaml",
        &[INFRA_V1, INFRA_V1_ALIASES].concat(),
        false,
    );
}

#[test]
fn cloud_v2_spec_covers_every_documented_endpoint() {
    assert_covers("cloud-v2.yaml", CLOUD_V2, false);
}

#[test]
fn cdn_spec_covers_every_documented_endpoint() {
    assert_covers("cdn.yaml", &[CDN, CDN_ALIASES].concat(), true);
}

#[test]
fn every_alias_operation_names_the_operation_it_stands_for() {
    for file in ["infra-v1.yaml", "cloud-v2.yaml", "cdn.yaml"] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../spec")
            .join(file);
        let spec: serde_json::Value =
            serde_yaml_ng::from_str(&std::fs::read_to_string(&path).expect("spec")).expect("YAML");
        let ids: BTreeSet<&str> = spec["paths"]
            .as_object()
            .into_iter()
            .flat_map(|items| items.values())
            .filter_map(|item| item.as_object())
            .flat_map(|item| item.values())
            .filter_map(|op| op.get("operationId").and_then(serde_json::Value::as_str))
            .collect();
        for item in spec["paths"].as_object().expect("paths").values() {
            for op in item.as_object().into_iter().flat_map(|item| item.values()) {
                if let Some(target) = op.get("x-hostapi-alias-of").and_then(|t| t.as_str()) {
                    assert!(ids.contains(target), "{file}: alias of unknown {target}");
                }
            }
        }
    }
}
