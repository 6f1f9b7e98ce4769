//! Property tests of every normaliser through [`decode`]: the fixtures and samples of
//! each operation mutated (values replaced, keys removed, types swapped, bytes cut or
//! flipped) and arbitrary JSON. Whatever the body, decoding answers a value or an
//! [`Error::Decode`] naming the operation: never a panic, never another error.

use proptest::prelude::*;
use proptest::test_runner::Config;
use serde_json::Value;

use super::{OPERATIONS, decode, short};
use crate::Error;

/// A known-good body of each operation: the integration tests' fixtures, and a small
/// sample where there is none.
const SEEDS: &[(&str, &str)] = &[
    (
        "infra.listBareMetals",
        include_str!("../../../../tests/fixtures/bare-metal/list.json"),
    ),
    (
        "infra.getBareMetal",
        include_str!("../../../../tests/fixtures/bare-metal/detail.json"),
    ),
    (
        "infra.getBareMetal",
        include_str!("../../../../tests/fixtures/bare-metal/detail_string_id.json"),
    ),
    (
        "infra.updateBareMetalReference",
        include_str!("../../../../tests/fixtures/bare-metal/detail.json"),
    ),
    (
        "infra.getBareMetalInstallationStatus",
        include_str!("../../../../tests/fixtures/bare-metal/installation_status.json"),
    ),
    (
        "infra.listBareMetalIps",
        include_str!("../../../../tests/fixtures/bare-metal/ips.json"),
    ),
    (
        "infra.getBareMetalIp",
        include_str!("../../../../tests/fixtures/bare-metal/ip.json"),
    ),
    (
        "infra.updateBareMetalIp",
        include_str!("../../../../tests/fixtures/bare-metal/ip.json"),
    ),
    (
        "infra.listBareMetalLeases",
        include_str!("../../../../tests/fixtures/bare-metal/leases.json"),
    ),
    (
        "infra.listBareMetalLeases",
        include_str!("../../../../tests/fixtures/bare-metal/leases_bare.json"),
    ),
    (
        "infra.getBareMetalLease",
        include_str!("../../../../tests/fixtures/bare-metal/lease.json"),
    ),
    (
        "infra.getBareMetalNetworkUsage",
        include_str!("../../../../tests/fixtures/bare-metal/network_usage.json"),
    ),
    (
        "infra.getBareMetalBandwidthUsage",
        include_str!("../../../../tests/fixtures/bare-metal/bandwidth.json"),
    ),
    (
        "infra.getBareMetalDataTrafficUsage",
        include_str!("../../../../tests/fixtures/bare-metal/datatraffic.json"),
    ),
    (
        "infra.getBareMetalPowerStatus",
        include_str!("../../../../tests/fixtures/bare-metal/power_status.json"),
    ),
    (
        "infra.getBareMetalRootPassword",
        include_str!("../../../../tests/fixtures/bare-metal/root_password.json"),
    ),
    (
        "infra.getBareMetalSwitchPort",
        include_str!("../../../../tests/fixtures/bare-metal/switch_port.json"),
    ),
    (
        "infra.openBareMetalSwitchPort",
        include_str!("../../../../tests/fixtures/bare-metal/switch_port.json"),
    ),
    (
        "infra.closeBareMetalSwitchPort",
        include_str!("../../../../tests/fixtures/bare-metal/switch_port.json"),
    ),
    (
        "infra.listDomains",
        include_str!("../../../../tests/fixtures/infra-rest/domains.json"),
    ),
    (
        "infra.getDomain",
        r#"{"domain": {"code": 1000, "domain": "example.com", "ttl": 3600, "monthlyPrice": "1.50", "contractTerm": "1 year", "isEditable": "true", "startDate": "Jan 5, 2024", "endDate": ""}}"#,
    ),
    (
        "infra.updateDomainTtl",
        r#"{"domain": {"code": 1001, "domain": "example.org", "ttl": 300, "monthlyPrice": 2.5, "contractTerm": 2, "isEditable": false}}"#,
    ),
    (
        "infra.listDnsRecords",
        include_str!("../../../../tests/fixtures/infra-rest/dns_records.json"),
    ),
    (
        "infra.getDnsRecord",
        r#"{"dnsRecord": {"id": 1001, "host": "example.com", "type": "A", "content": "192.0.2.1", "ttl": 3600}}"#,
    ),
    (
        "infra.createDnsRecord",
        r#"{"dnsRecord": {"id": "9000001", "host": "mail.example.com", "type": "MX", "content": "mx.example.com", "priority": 10}}"#,
    ),
    (
        "infra.updateDnsRecord",
        r#"{"dnsRecord": {"id": 1002, "host": "_sip._tcp.example.com", "type": "SRV", "content": "5 5060 sip.example.com", "priority": 20}}"#,
    ),
    (
        "infra.updateIp",
        include_str!("../../../../tests/fixtures/bare-metal/ip.json"),
    ),
    (
        "infra.listOperatingSystems",
        include_str!("../../../../tests/fixtures/infra-rest/operating_systems.json"),
    ),
    (
        "infra.getOperatingSystem",
        r#"{"operatingSystem": {"id": 664, "name": "Ubuntu 22.04 (x86_64)", "family": "linux"}}"#,
    ),
    (
        "infra.listControlPanels",
        include_str!("../../../../tests/fixtures/infra-rest/control_panels.json"),
    ),
    (
        "infra.getControlPanel",
        r#"{"controlPanel": {"id": 1, "name": "Plesk 18 (10 domains)"}}"#,
    ),
    (
        "infra.getPartitionSchema",
        include_str!("../../../../tests/fixtures/infra-rest/partition_schema.json"),
    ),
    (
        "infra.listRescueImages",
        include_str!("../../../../tests/fixtures/infra-rest/rescue_images.json"),
    ),
    (
        "infra.listServices",
        include_str!("../../../../tests/fixtures/infra-rest/services.json"),
    ),
    (
        "infra.listPrivateNetworks",
        include_str!("../../../../tests/fixtures/infra-rest/private_networks.json"),
    ),
    (
        "infra.createPrivateNetwork",
        r#"{"id": 503, "message": "Private network created"}"#,
    ),
    (
        "infra.getPrivateNetwork",
        include_str!("../../../../tests/fixtures/infra-rest/private_network.json"),
    ),
    (
        "infra.deletePrivateNetwork",
        r#"{"message": "Private network deleted"}"#,
    ),
    (
        "infra.listPrivateRacks",
        include_str!("../../../../tests/fixtures/infra-rest/private_racks.json"),
    ),
    (
        "infra.getPrivateRack",
        include_str!("../../../../tests/fixtures/infra-rest/private_rack.json"),
    ),
    (
        "infra.listPrivateRackIps",
        include_str!("../../../../tests/fixtures/infra-rest/private_rack_ips.json"),
    ),
    (
        "infra.getPrivateRackIp",
        include_str!("../../../../tests/fixtures/infra-rest/private_rack_ip.json"),
    ),
    (
        "infra.updatePrivateRackIp",
        include_str!("../../../../tests/fixtures/infra-rest/private_rack_ip.json"),
    ),
    (
        "infra.getPrivateRackNetworkUsage",
        include_str!("../../../../tests/fixtures/infra-rest/private_rack_network_usage.json"),
    ),
    (
        "infra.listVirtualServers",
        include_str!("../../../../tests/fixtures/infra/virtual_servers.json"),
    ),
    (
        "infra.getVirtualServer",
        r#"{"virtualServers": [{"id": 101, "serverName": "web-01", "reference": null, "ipAddresses": {"192.0.2.5": {"isNulled": false, "reverseDNS": ""}}, "type": {"Id": 7, "PlatformName": "Hyper-V"}}]}"#,
    ),
    (
        "infra.powerOnVirtualServer",
        r#"{"asyncjob": {"jobid": "0a1b2c3d"}}"#,
    ),
    (
        "infra.powerOffVirtualServer",
        r#"{"asyncjob": {"jobid": "0a1b2c3e"}}"#,
    ),
    (
        "infra.rebootVirtualServer",
        r#"{"asyncjob": {"jobid": "17"}}"#,
    ),
    (
        "infra.reinstallVirtualServer",
        r#"{"asyncjob": {"jobid": "9f"}, "extra": 1}"#,
    ),
    (
        "cloud.listVirtualServers",
        include_str!("../../../../tests/fixtures/cloud/virtual_servers.json"),
    ),
    (
        "cloud.getVirtualServer",
        include_str!("../../../../tests/fixtures/cloud/virtual_server.json"),
    ),
    (
        "cloud.updateVirtualServer",
        include_str!("../../../../tests/fixtures/cloud/virtual_server.json"),
    ),
    (
        "cloud.listPrivateClouds",
        include_str!("../../../../tests/fixtures/cloud/private_clouds.json"),
    ),
    (
        "cloud.listVirtualServerCredentials",
        include_str!("../../../../tests/fixtures/cloud/credentials.json"),
    ),
    (
        "cloud.getVirtualServerCredential",
        include_str!("../../../../tests/fixtures/cloud/credential.json"),
    ),
    (
        "cloud.getVirtualServerDatatrafficMetrics",
        include_str!("../../../../tests/fixtures/cloud/datatraffic.json"),
    ),
    (
        "cloud.powerOnVirtualServer",
        include_str!("../../../../tests/fixtures/cloud/job.json"),
    ),
    (
        "cloud.powerOffVirtualServer",
        include_str!("../../../../tests/fixtures/cloud/job.json"),
    ),
    (
        "cloud.rebootVirtualServer",
        include_str!("../../../../tests/fixtures/cloud/job.json"),
    ),
    (
        "cloud.reinstallVirtualServer",
        include_str!("../../../../tests/fixtures/cloud/job.json"),
    ),
    (
        "cdn.getPurgeJob",
        include_str!("../../../../tests/fixtures/cdn/purge_status.json"),
    ),
    ("cdn.purgeZoneContent", r#"{"success": 5002}"#),
    (
        "cdn.getAcl",
        include_str!("../../../../tests/fixtures/cdn/acl.json"),
    ),
    (
        "cdn.replaceAcl",
        include_str!("../../../../tests/fixtures/cdn/acl.json"),
    ),
    (
        "cdn.deleteAcl",
        include_str!("../../../../tests/fixtures/cdn/acl.json"),
    ),
    (
        "cdn.getCustomer",
        include_str!("../../../../tests/fixtures/cdn/customer.json"),
    ),
    (
        "cdn.getSubCustomer",
        include_str!("../../../../tests/fixtures/cdn/sub_customers.json"),
    ),
    (
        "cdn.upsertSubCustomer",
        include_str!("../../../../tests/fixtures/cdn/sub_customers.json"),
    ),
    (
        "cdn.listOrigins",
        include_str!("../../../../tests/fixtures/cdn/origins.json"),
    ),
    (
        "cdn.getOrigin",
        include_str!("../../../../tests/fixtures/cdn/origin_success.json"),
    ),
    (
        "cdn.getOrigin",
        include_str!("../../../../tests/fixtures/cdn/origin_succes.json"),
    ),
    (
        "cdn.createOrigin",
        include_str!("../../../../tests/fixtures/cdn/origin_success.json"),
    ),
];

/// Cases of each property; the three together run a few thousand bodies.
const CASES: u32 = 1000;

fn config() -> Config {
    Config {
        cases: CASES,
        failure_persistence: None,
        ..Config::default()
    }
}

/// What decoding any body must give: a value, or a decode error of that operation.
fn check(operation: &'static str, body: &[u8]) -> Result<(), TestCaseError> {
    match decode(operation, body) {
        Ok(_) => Ok(()),
        Err(Error::Decode {
            operation: named, ..
        }) => {
            prop_assert_eq!(named, short(operation));
            Ok(())
        }
        Err(other) => Err(TestCaseError::fail(format!(
            "{operation}: expected a decode error, got {other:?}"
        ))),
    }
}

fn operation_name(name: &str) -> &'static str {
    OPERATIONS
        .iter()
        .find(|known| **known == name)
        .copied()
        .unwrap_or_else(|| panic!("{name} is not in OPERATIONS"))
}

/// Arbitrary JSON, nested a few levels, with the keys and strings the wire uses
/// among random ones.
fn json() -> impl Strategy<Value = Value> {
    let key = prop_oneof![
        Just("id".to_owned()),
        Just("success".to_owned()),
        Just("succes".to_owned()),
        Just("_metadata".to_owned()),
        Just("ip".to_owned()),
        "[a-zA-Z_]{1,12}",
    ];
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from),
        prop_oneof![
            Just(String::new()),
            Just("Yes".to_owned()),
            Just("1100.50 GB".to_owned()),
            Just("11 Mbps".to_owned()),
            Just("2024-01-01T00:00:00+0100".to_owned()),
            Just("31-12-2024".to_owned()),
            Just("Jan 5, 2024".to_owned()),
            Just("*".to_owned()),
            Just("4x 2TB SATA".to_owned()),
            Just("00:1A:2B:3C:4D:5E".to_owned()),
            Just("-1".to_owned()),
            Just("1e400".to_owned()),
            any::<String>(),
        ]
        .prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 48, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((key.clone(), inner), 0..6)
                .prop_map(|entries| Value::Object(entries.into_iter().collect())),
        ]
    })
}

/// One change to a JSON tree: where (a walk of child choices) and what.
#[derive(Debug, Clone)]
enum Mutation {
    Replace(Vec<usize>, Value),
    Remove(Vec<usize>),
    /// A number becomes its text, a text that reads as a number becomes the number.
    SwapType(Vec<usize>),
    /// An object or array becomes a one-element array of itself (or is unwrapped).
    Wrap(Vec<usize>),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let walk = prop::collection::vec(any::<usize>(), 0..8);
    prop_oneof![
        (walk.clone(), json()).prop_map(|(w, v)| Mutation::Replace(w, v)),
        walk.clone().prop_map(Mutation::Remove),
        walk.clone().prop_map(Mutation::SwapType),
        walk.prop_map(Mutation::Wrap),
    ]
}

/// The node a walk ends at: each step picks a child (modulo the child count) until a
/// leaf or the end of the walk.
fn node<'a>(root: &'a mut Value, walk: &[usize]) -> (&'a mut Value, Option<String>) {
    let mut current = root;
    let mut last_key = None;
    for step in walk {
        let count = match &*current {
            Value::Array(items) => items.len(),
            Value::Object(map) => map.len(),
            _ => 0,
        };
        if count == 0 {
            break;
        }
        current = match current {
            Value::Array(items) => {
                last_key = None;
                &mut items[step % count]
            }
            Value::Object(map) => {
                let key = map.keys().nth(step % count).cloned().unwrap_or_default();
                last_key = Some(key.clone());
                map.get_mut(&key).expect("the key was just read")
            }
            _ => unreachable!("counted children"),
        };
    }
    (current, last_key)
}

fn apply(root: &mut Value, mutation: &Mutation) {
    match mutation {
        Mutation::Replace(walk, value) => *node(root, walk).0 = value.clone(),
        Mutation::Remove(walk) => {
            // Remove the last key of the walk from its parent object.
            if let Some((_, parent_walk)) = walk.split_last() {
                let (parent, _) = node(root, parent_walk);
                if let Value::Object(map) = parent {
                    let count = map.len();
                    if count > 0 {
                        let key = map.keys().nth(walk[walk.len() - 1] % count).cloned();
                        if let Some(key) = key {
                            map.remove(&key);
                        }
                    }
                } else if let Value::Array(items) = parent
                    && !items.is_empty()
                {
                    let count = items.len();
                    items.remove(walk[walk.len() - 1] % count);
                }
            }
        }
        Mutation::SwapType(walk) => {
            let (target, _) = node(root, walk);
            *target = match target.take() {
                Value::Number(n) => Value::String(n.to_string()),
                Value::String(s) => serde_json::from_str::<serde_json::Number>(&s)
                    .map_or(Value::String(s), Value::Number),
                Value::Bool(b) => Value::String(b.to_string()),
                other => other,
            };
        }
        Mutation::Wrap(walk) => {
            let (target, _) = node(root, walk);
            *target = match target.take() {
                Value::Array(mut items) if items.len() == 1 => items.remove(0),
                other => Value::Array(vec![other]),
            };
        }
    }
}

#[test]
fn every_seed_decodes() {
    for (operation, body) in SEEDS {
        let operation = operation_name(operation);
        if let Err(error) = decode(operation, body.as_bytes()) {
            panic!("{operation}: {error}");
        }
    }
    // Every operation has a seed, so the mutations reach every normaliser.
    for operation in OPERATIONS {
        assert!(
            SEEDS.iter().any(|(name, _)| name == operation),
            "no seed for {operation}"
        );
    }
}

#[test]
fn an_unknown_operation_is_invalid_input() {
    assert!(matches!(
        decode("infra.noSuchThing", b"{}"),
        Err(Error::InvalidInput { argument, .. }) if argument == "operation"
    ));
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn mutated_seeds_never_panic(
        seed in 0..SEEDS.len(),
        mutations in prop::collection::vec(mutation(), 1..5),
    ) {
        let (operation, body) = SEEDS[seed];
        let mut value: Value = serde_json::from_str(body).expect("seeds are JSON");
        for mutation in &mutations {
            apply(&mut value, mutation);
        }
        let bytes = serde_json::to_vec(&value).expect("JSON values serialise");
        check(operation_name(operation), &bytes)?;
    }

    #[test]
    fn cut_or_flipped_bytes_never_panic(
        seed in 0..SEEDS.len(),
        cut in any::<prop::sample::Index>(),
        flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..4),
    ) {
        let (operation, body) = SEEDS[seed];
        let mut bytes = body.as_bytes().to_vec();
        for (at, byte) in flips {
            let at = at.index(bytes.len());
            bytes[at] = byte;
        }
        bytes.truncate(cut.index(bytes.len() + 1));
        check(operation_name(operation), &bytes)?;
    }

    #[test]
    fn arbitrary_json_never_panics(operation in 0..OPERATIONS.len(), value in json()) {
        let bytes = serde_json::to_vec(&value).expect("JSON values serialise");
        check(OPERATIONS[operation], &bytes)?;
    }
}
