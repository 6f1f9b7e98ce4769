//! Every operation by both of its names: the `operationId` of the specs
//! (`listDomains`, the name the SDK reports in its errors and logs) and
//! `METHOD /path` (the route template the simulator matches, `GET
//! /v1/domains`). Fault rules, the journal and its filter take either.
//!
//! The table is written out here (the simulator shares no code with the
//! SDK and reads no spec at run time); a test checks it against
//! `spec/*.yaml` and against the simulator's route tables, so a spec or a
//! route that changes without it fails the build's tests.

use serde::Serialize;

/// One operation of one interface.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Operation {
    /// The interface: `infra` (v1), `cloud` (cloud v2) or `cdn`.
    pub api: &'static str,
    /// The operationId of the interface's spec (`listDomains`). Six are
    /// the same on infra and cloud (`listVirtualServers`, …): the name
    /// alone then means both, `infra.` or `cloud.` before it one.
    #[serde(rename = "operationId")]
    pub operation_id: &'static str,
    /// The HTTP method.
    pub method: &'static str,
    /// The path template (v1 under `/v1`, cloud under `/cloud/v2`; CDN
    /// paths relative to the CDN base URL and without the trailing
    /// `/{timestamp}/{signature}`).
    pub path: &'static str,
    /// `METHOD /path`: the name [`crate::Stats::operations`] and the write
    /// log use.
    pub route: &'static str,
}

macro_rules! op {
    ($api:literal, $id:literal, $m:literal, $p:literal) => {
        Operation {
            api: $api,
            operation_id: $id,
            method: $m,
            path: $p,
            route: concat!($m, " ", $p),
        }
    };
}

/// Every operation, in the order of the specs.
pub static OPERATIONS: &[Operation] = &[
    op!("infra", "listVirtualServers", "GET", "/v1/virtualServers"),
    op!(
        "infra",
        "getVirtualServer",
        "GET",
        "/v1/virtualServers/{id}"
    ),
    op!(
        "infra",
        "powerOnVirtualServer",
        "POST",
        "/v1/virtualServers/{id}/powerOn"
    ),
    op!(
        "infra",
        "powerOffVirtualServer",
        "POST",
        "/v1/virtualServers/{id}/powerOff"
    ),
    op!(
        "infra",
        "rebootVirtualServer",
        "POST",
        "/v1/virtualServers/{id}/reboot"
    ),
    op!(
        "infra",
        "reinstallVirtualServer",
        "POST",
        "/v1/virtualServers/{id}/reinstall"
    ),
    op!("infra", "listDomains", "GET", "/v1/domains"),
    op!("infra", "getDomain", "GET", "/v1/domains/{domainname}"),
    op!(
        "infra",
        "updateDomainTtl",
        "PUT",
        "/v1/domains/{domainname}"
    ),
    op!(
        "infra",
        "listDnsRecords",
        "GET",
        "/v1/domains/{domainname}/dnsRecords"
    ),
    op!(
        "infra",
        "createDnsRecord",
        "POST",
        "/v1/domains/{domainname}/dnsRecords"
    ),
    op!(
        "infra",
        "getDnsRecord",
        "GET",
        "/v1/domains/{domainname}/dnsRecords/{recordId}"
    ),
    op!(
        "infra",
        "updateDnsRecord",
        "PUT",
        "/v1/domains/{domainname}/dnsRecords/{recordId}"
    ),
    op!(
        "infra",
        "deleteDnsRecord",
        "DELETE",
        "/v1/domains/{domainname}/dnsRecords/{recordId}"
    ),
    op!("infra", "listBareMetals", "GET", "/v1/bareMetals"),
    op!(
        "infra",
        "getBareMetal",
        "GET",
        "/v1/bareMetals/{bareMetalId}"
    ),
    op!(
        "infra",
        "updateBareMetalReference",
        "PUT",
        "/v1/bareMetals/{bareMetalId}"
    ),
    op!(
        "infra",
        "getBareMetalSwitchPort",
        "GET",
        "/v1/bareMetals/{bareMetalId}/switchPort"
    ),
    op!(
        "infra",
        "openBareMetalSwitchPort",
        "POST",
        "/v1/bareMetals/{bareMetalId}/switchPort/open"
    ),
    op!(
        "infra",
        "closeBareMetalSwitchPort",
        "POST",
        "/v1/bareMetals/{bareMetalId}/switchPort/close"
    ),
    op!(
        "infra",
        "getBareMetalPowerStatus",
        "GET",
        "/v1/bareMetals/{bareMetalId}/powerStatus"
    ),
    op!(
        "infra",
        "powerCycleBareMetal",
        "POST",
        "/v1/bareMetals/{bareMetalId}/powerCycle"
    ),
    op!(
        "infra",
        "installBareMetal",
        "POST",
        "/v1/bareMetals/{bareMetalId}/install"
    ),
    op!(
        "infra",
        "launchBareMetalRescueMode",
        "POST",
        "/v1/bareMetals/{bareMetalId}/rescueMode"
    ),
    op!(
        "infra",
        "getBareMetalInstallationStatus",
        "GET",
        "/v1/bareMetals/{bareMetalId}/installationStatus"
    ),
    op!(
        "infra",
        "getBareMetalRootPassword",
        "GET",
        "/v1/bareMetals/{bareMetalId}/rootPassword"
    ),
    op!(
        "infra",
        "getBareMetalNetworkUsage",
        "GET",
        "/v1/bareMetals/{bareMetalId}/networkUsage"
    ),
    op!(
        "infra",
        "getBareMetalBandwidthUsage",
        "GET",
        "/v1/bareMetals/{bareMetalId}/networkUsage/bandwidth"
    ),
    op!(
        "infra",
        "getBareMetalDataTrafficUsage",
        "GET",
        "/v1/bareMetals/{bareMetalId}/networkUsage/datatraffic"
    ),
    op!(
        "infra",
        "listBareMetalIps",
        "GET",
        "/v1/bareMetals/{bareMetalId}/ips"
    ),
    op!(
        "infra",
        "getBareMetalIp",
        "GET",
        "/v1/bareMetals/{bareMetalId}/ips/{ipAddress}"
    ),
    op!(
        "infra",
        "updateBareMetalIp",
        "PUT",
        "/v1/bareMetals/{bareMetalId}/ips/{ipAddress}"
    ),
    op!(
        "infra",
        "listBareMetalLeases",
        "GET",
        "/v1/bareMetals/{bareMetalId}/leases"
    ),
    op!(
        "infra",
        "createBareMetalLease",
        "POST",
        "/v1/bareMetals/{bareMetalId}/leases"
    ),
    op!(
        "infra",
        "deleteBareMetalLeases",
        "DELETE",
        "/v1/bareMetals/{bareMetalId}/leases"
    ),
    op!(
        "infra",
        "getBareMetalLease",
        "GET",
        "/v1/bareMetals/{bareMetalId}/leases/{macaddress}"
    ),
    op!(
        "infra",
        "deleteBareMetalLease",
        "DELETE",
        "/v1/bareMetals/{bareMetalId}/leases/{macaddress}"
    ),
    op!("infra", "listPrivateRacks", "GET", "/v1/privateRacks"),
    op!(
        "infra",
        "getPrivateRack",
        "GET",
        "/v1/privateRacks/{privateRackId}"
    ),
    op!(
        "infra",
        "listPrivateRackIps",
        "GET",
        "/v1/privateRacks/{privateRackId}/ips"
    ),
    op!(
        "infra",
        "getPrivateRackIp",
        "GET",
        "/v1/privateRacks/{privateRackId}/ips/{ipAddress}"
    ),
    op!(
        "infra",
        "updatePrivateRackIp",
        "PUT",
        "/v1/privateRacks/{privateRackId}/ips/{ipAddress}"
    ),
    op!(
        "infra",
        "getPrivateRackNetworkUsage",
        "GET",
        "/v1/privateRacks/{privateRackId}/networkUsage"
    ),
    op!("infra", "updateIp", "PUT", "/v1/ips/{ipAddress}"),
    op!("infra", "listRescueImages", "GET", "/v1/rescueImages"),
    op!(
        "infra",
        "listOperatingSystems",
        "GET",
        "/v1/operatingSystems"
    ),
    op!(
        "infra",
        "getOperatingSystem",
        "GET",
        "/v1/operatingSystems/{operatingSystemId}"
    ),
    op!(
        "infra",
        "listControlPanels",
        "GET",
        "/v1/operatingSystems/{operatingSystemId}/controlPanels"
    ),
    op!(
        "infra",
        "getControlPanel",
        "GET",
        "/v1/operatingSystems/{operatingSystemId}/controlPanels/{controlPanelId}"
    ),
    op!(
        "infra",
        "getPartitionSchema",
        "GET",
        "/v1/operatingSystems/{operatingSystemId}/partitionSchema"
    ),
    op!("infra", "listServices", "GET", "/v1/services"),
    op!("infra", "listPrivateNetworks", "GET", "/v1/privateNetworks"),
    op!(
        "infra",
        "createPrivateNetwork",
        "POST",
        "/v1/privateNetworks"
    ),
    op!(
        "infra",
        "getPrivateNetwork",
        "GET",
        "/v1/privateNetworks/{id}"
    ),
    op!(
        "infra",
        "deletePrivateNetwork",
        "DELETE",
        "/v1/privateNetworks/{id}"
    ),
    op!(
        "infra",
        "addPrivateNetworkBareMetal",
        "POST",
        "/v1/privateNetworks/{privateNetworkId}/bareMetals"
    ),
    op!(
        "infra",
        "removePrivateNetworkBareMetal",
        "DELETE",
        "/v1/privateNetworks/{privateNetworkId}/bareMetals/{bareMetalId}"
    ),
    op!(
        "cloud",
        "listVirtualServers",
        "GET",
        "/cloud/v2/virtualServers"
    ),
    op!(
        "cloud",
        "getVirtualServer",
        "GET",
        "/cloud/v2/virtualServers/{id}"
    ),
    op!(
        "cloud",
        "updateVirtualServer",
        "PUT",
        "/cloud/v2/virtualServers/{id}"
    ),
    op!(
        "cloud",
        "powerOnVirtualServer",
        "POST",
        "/cloud/v2/virtualServers/{id}/powerOn"
    ),
    op!(
        "cloud",
        "powerOffVirtualServer",
        "POST",
        "/cloud/v2/virtualServers/{id}/powerOff"
    ),
    op!(
        "cloud",
        "rebootVirtualServer",
        "POST",
        "/cloud/v2/virtualServers/{id}/reboot"
    ),
    op!(
        "cloud",
        "reinstallVirtualServer",
        "POST",
        "/cloud/v2/virtualServers/{id}/reinstall"
    ),
    op!(
        "cloud",
        "listVirtualServerCredentials",
        "GET",
        "/cloud/v2/virtualServers/{id}/credentials/{credentialType}"
    ),
    op!(
        "cloud",
        "getVirtualServerCredential",
        "GET",
        "/cloud/v2/virtualServers/{id}/credentials/{credentialType}/{username}"
    ),
    op!(
        "cloud",
        "getVirtualServerDatatrafficMetrics",
        "GET",
        "/cloud/v2/virtualServers/{id}/metrics/datatraffic"
    ),
    op!(
        "cloud",
        "listPrivateClouds",
        "GET",
        "/cloud/v2/privateClouds"
    ),
    op!(
        "cdn",
        "purgeZoneContent",
        "POST",
        "/content/purge/{customer_number}/{zone_id}"
    ),
    op!(
        "cdn",
        "getPurgeJob",
        "GET",
        "/content/purge/{customer_number}/{zone_id}/{job_id}"
    ),
    op!(
        "cdn",
        "getCustomer",
        "GET",
        "/customers/{customer_number}/{limit}/{offset}"
    ),
    op!(
        "cdn",
        "getSubCustomer",
        "GET",
        "/customers/reseller/{customer_number}/{sub_customer_number}"
    ),
    op!(
        "cdn",
        "upsertSubCustomer",
        "POST",
        "/customers/reseller/{customer_number}/{sub_customer_number}"
    ),
    op!("cdn", "getAcl", "GET", "/customers/acl/{customer_number}"),
    op!(
        "cdn",
        "replaceAcl",
        "POST",
        "/customers/acl/{customer_number}"
    ),
    op!(
        "cdn",
        "deleteAcl",
        "DELETE",
        "/customers/acl/{customer_number}"
    ),
    op!("cdn", "listOrigins", "GET", "/origins/{customer_number}"),
    op!("cdn", "createOrigin", "POST", "/origins/{customer_number}"),
    op!(
        "cdn",
        "getOrigin",
        "GET",
        "/origins/{customer_number}/{origin_id}"
    ),
    op!(
        "cdn",
        "updateOrigin",
        "PUT",
        "/origins/{customer_number}/{origin_id}"
    ),
];

/// The operation whose route is `route` (`"GET /v1/domains"`).
pub(crate) fn by_route(route: &str) -> Option<&'static Operation> {
    OPERATIONS.iter().find(|o| o.route == route)
}

/// The routes a name a user gave means: an operationId (`listDomains`; on
/// both interfaces for the six names infra and cloud share), an interface
/// and operationId (`cloud.listVirtualServers`), or `METHOD /path`
/// (`GET /v1/domains`, the method in any case). An unknown name is an
/// error that says which forms are accepted.
pub(crate) fn resolve(name: &str) -> Result<Vec<&'static str>, String> {
    let name = name.trim();
    let found: Vec<&'static str> = if let Some((method, path)) = name.split_once(' ') {
        let method = method.to_ascii_uppercase();
        let path = path.trim();
        OPERATIONS
            .iter()
            .filter(|o| o.method == method && o.path == path)
            .map(|o| o.route)
            .collect()
    } else if let Some((api, id)) = name.split_once('.') {
        OPERATIONS
            .iter()
            .filter(|o| o.api == api && o.operation_id == id)
            .map(|o| o.route)
            .collect()
    } else {
        OPERATIONS
            .iter()
            .filter(|o| o.operation_id == name)
            .map(|o| o.route)
            .collect()
    };
    if found.is_empty() {
        return Err(unknown(name));
    }
    Ok(found)
}

/// Why `name` names no operation, and what would.
fn unknown(name: &str) -> String {
    let hint = OPERATIONS
        .iter()
        .find(|o| o.operation_id.eq_ignore_ascii_case(name))
        .map(|o| format!(" (did you mean {:?}?)", o.operation_id))
        .unwrap_or_default();
    format!(
        "unknown operation {name:?}{hint}: give an operationId (\"listDomains\"), an \
         interface and operationId (\"cloud.listVirtualServers\"), or a method and path \
         template (\"GET /v1/domains\"); GET /_sim/faults lists every operation"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_route_of_the_simulator_has_one_row_and_every_row_a_route() {
        let routes = crate::router::operations();
        for r in &routes {
            let rows = OPERATIONS.iter().filter(|o| o.route == *r).count();
            assert_eq!(rows, 1, "{r}: rows in the operations table");
        }
        for o in OPERATIONS {
            assert!(routes.contains(&o.route), "{}: no route serves it", o.route);
        }
        assert_eq!(OPERATIONS.len(), routes.len());
    }

    /// (interface, operationId, method, path) of every operation of the
    /// specs but their alias paths, CDN paths without their
    /// `/{timestamp}/{signature}`.
    fn from_specs() -> Vec<(String, String, String, String)> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec");
        let mut out = Vec::new();
        for (api, file) in [
            ("infra", "infra-v1.yaml"),
            ("cloud", "cloud-v2.yaml"),
            ("cdn", "cdn.yaml"),
        ] {
            let text = std::fs::read_to_string(dir.join(file)).expect("read a spec");
            let doc: serde_yaml_ng::Value = serde_yaml_ng::from_str(&text).expect("spec is YAML");
            let paths = doc["paths"].as_mapping().expect("paths");
            for (path, item) in paths {
                let path = path.as_str().expect("path key");
                let path = path
                    .strip_suffix("/{timestamp}/{signature}")
                    .unwrap_or(path);
                for method in ["get", "post", "put", "delete", "patch"] {
                    // An alias path the documents mention is served as the operation
                    // it aliases (the router's `as`), not as an operation of its own.
                    if !item[method]["x-hostapi-alias-of"].is_null() {
                        continue;
                    }
                    if let Some(id) = item[method]["operationId"].as_str() {
                        out.push((
                            api.to_string(),
                            id.to_string(),
                            method.to_ascii_uppercase(),
                            path.to_string(),
                        ));
                    }
                }
            }
        }
        out
    }

    #[test]
    fn the_table_is_the_specs() {
        let specs = from_specs();
        let table: Vec<(String, String, String, String)> = OPERATIONS
            .iter()
            .map(|o| {
                (
                    o.api.to_string(),
                    o.operation_id.to_string(),
                    o.method.to_string(),
                    o.path.to_string(),
                )
            })
            .collect();
        for s in &specs {
            assert!(table.contains(s), "in a spec, not in the table: {s:?}");
        }
        for t in &table {
            assert!(specs.contains(t), "in the table, not in a spec: {t:?}");
        }
    }

    #[test]
    fn names_resolve_in_every_form() {
        assert_eq!(resolve("listDomains").unwrap(), vec!["GET /v1/domains"]);
        assert_eq!(resolve("get /v1/domains").unwrap(), vec!["GET /v1/domains"]);
        assert_eq!(
            resolve("listVirtualServers").unwrap(),
            vec!["GET /v1/virtualServers", "GET /cloud/v2/virtualServers"]
        );
        assert_eq!(
            resolve("cloud.listVirtualServers").unwrap(),
            vec!["GET /cloud/v2/virtualServers"]
        );
        let e = resolve("nonsense").unwrap_err();
        assert!(
            e.contains("\"nonsense\"") && e.contains("GET /v1/domains"),
            "{e}"
        );
        let e = resolve("listdomains").unwrap_err();
        assert!(e.contains("did you mean \"listDomains\""), "{e}");
        assert!(resolve("GET /v1/nothing").is_err());
        assert!(resolve("infra.listPrivateClouds").is_err());
    }
}
