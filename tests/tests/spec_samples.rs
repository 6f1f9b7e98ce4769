//! Every sample answer (the fixtures, and the answers transcribed from the documents)
//! validates against its operation's answer schema in the specs, read strictly as
//! OpenAPI 3.0.3 says: `nullable` counts only beside a `type` (so a
//! `nullable` next to a bare `allOf` is ignored, as the 3.0.3 clarification has it), and
//! everything else is JSON Schema (draft 4, the dialect 3.0 builds on), checked by the
//! `jsonschema` crate.

use std::path::Path;

use jsonschema::{Draft, Validator};
use serde_json::{Map, Value};

/// Each sample, the spec file and the operation it answers.
const SAMPLES: &[(&str, &str, &str)] = &[
    (
        "bare-metal/bandwidth.json",
        "infra-v1",
        "getBareMetalBandwidthUsage",
    ),
    (
        "bare-metal/datatraffic.json",
        "infra-v1",
        "getBareMetalDataTrafficUsage",
    ),
    ("bare-metal/detail.json", "infra-v1", "getBareMetal"),
    (
        "bare-metal/detail_string_id.json",
        "infra-v1",
        "getBareMetal",
    ),
    (
        "bare-metal/installation_status.json",
        "infra-v1",
        "getBareMetalInstallationStatus",
    ),
    ("bare-metal/ip.json", "infra-v1", "getBareMetalIp"),
    ("bare-metal/ips.json", "infra-v1", "listBareMetalIps"),
    ("bare-metal/lease.json", "infra-v1", "getBareMetalLease"),
    ("bare-metal/leases.json", "infra-v1", "listBareMetalLeases"),
    (
        "bare-metal/leases_bare.json",
        "infra-v1",
        "listBareMetalLeases",
    ),
    ("bare-metal/list.json", "infra-v1", "listBareMetals"),
    (
        "bare-metal/network_usage.json",
        "infra-v1",
        "getBareMetalNetworkUsage",
    ),
    (
        "bare-metal/power_status.json",
        "infra-v1",
        "getBareMetalPowerStatus",
    ),
    (
        "bare-metal/root_password.json",
        "infra-v1",
        "getBareMetalRootPassword",
    ),
    (
        "bare-metal/switch_port.json",
        "infra-v1",
        "getBareMetalSwitchPort",
    ),
    ("cdn/acl.json", "cdn", "getAcl"),
    ("cdn/customer.json", "cdn", "getCustomer"),
    ("cdn/origin_succes.json", "cdn", "getOrigin"),
    ("cdn/origin_success.json", "cdn", "getOrigin"),
    ("cdn/origins.json", "cdn", "listOrigins"),
    ("cdn/purge_status.json", "cdn", "getPurgeJob"),
    ("cdn/sub_customers.json", "cdn", "getSubCustomer"),
    (
        "cloud/credential.json",
        "cloud-v2",
        "getVirtualServerCredential",
    ),
    (
        "cloud/credentials.json",
        "cloud-v2",
        "listVirtualServerCredentials",
    ),
    (
        "cloud/datatraffic.json",
        "cloud-v2",
        "getVirtualServerDatatrafficMetrics",
    ),
    ("cloud/job.json", "cloud-v2", "powerOnVirtualServer"),
    ("cloud/private_clouds.json", "cloud-v2", "listPrivateClouds"),
    ("cloud/virtual_server.json", "cloud-v2", "getVirtualServer"),
    (
        "cloud/virtual_servers.json",
        "cloud-v2",
        "listVirtualServers",
    ),
    (
        "infra-rest/control_panels.json",
        "infra-v1",
        "listControlPanels",
    ),
    ("infra-rest/dns_records.json", "infra-v1", "listDnsRecords"),
    ("infra-rest/domains.json", "infra-v1", "listDomains"),
    (
        "infra-rest/operating_systems.json",
        "infra-v1",
        "listOperatingSystems",
    ),
    (
        "infra-rest/partition_schema.json",
        "infra-v1",
        "getPartitionSchema",
    ),
    (
        "infra-rest/private_network.json",
        "infra-v1",
        "getPrivateNetwork",
    ),
    (
        "infra-rest/private_networks.json",
        "infra-v1",
        "listPrivateNetworks",
    ),
    ("infra-rest/private_rack.json", "infra-v1", "getPrivateRack"),
    (
        "infra-rest/private_rack_ip.json",
        "infra-v1",
        "getPrivateRackIp",
    ),
    (
        "infra-rest/private_rack_ips.json",
        "infra-v1",
        "listPrivateRackIps",
    ),
    (
        "infra-rest/private_racks.json",
        "infra-v1",
        "listPrivateRacks",
    ),
    (
        "infra-rest/rescue_images.json",
        "infra-v1",
        "listRescueImages",
    ),
    ("infra-rest/services.json", "infra-v1", "listServices"),
    (
        "infra-rest/private_rack_network_usage.json",
        "infra-v1",
        "getPrivateRackNetworkUsage",
    ),
    (
        "infra/virtual_servers.json",
        "infra-v1",
        "listVirtualServers",
    ),
    (
        "docs/v1_virtual_server.json",
        "infra-v1",
        "getVirtualServer",
    ),
    ("docs/v1_async_job.json", "infra-v1", "powerOnVirtualServer"),
    ("docs/domain.json", "infra-v1", "getDomain"),
    ("docs/dns_record.json", "infra-v1", "getDnsRecord"),
    (
        "docs/operating_system.json",
        "infra-v1",
        "getOperatingSystem",
    ),
    ("docs/control_panel.json", "infra-v1", "getControlPanel"),
    (
        "docs/private_network_created.json",
        "infra-v1",
        "createPrivateNetwork",
    ),
    (
        "docs/private_network_deleted.json",
        "infra-v1",
        "deletePrivateNetwork",
    ),
    ("docs/purge_job.json", "cdn", "purgeZoneContent"),
];

#[test]
fn every_sample_answer_validates_against_its_operation() {
    let mut failures = Vec::new();
    for (file, spec, operation) in SAMPLES {
        let document = load(spec);
        let schema = answer_schema(&document, operation)
            .unwrap_or_else(|| panic!("{spec}: no JSON success answer for {operation}"));
        let validator = compile(&document, &schema);
        let sample: Value = serde_json::from_str(&hostapi_tests::fixture(file)).expect("JSON");
        for error in validator.iter_errors(&sample) {
            failures.push(format!(
                "{file} ({spec} {operation}) at `{}`: {error}",
                error.instance_path()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} problems:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn nullable_counts_only_beside_a_type() {
    let strict = to_json_schema(&serde_json::json!({
        "properties": {
            "reference": {"type": "string", "nullable": true},
            "iso": {"nullable": true, "allOf": [{"$ref": "#/components/schemas/Iso"}]}
        }
    }));
    assert_eq!(
        strict["properties"]["reference"]["type"],
        serde_json::json!(["string", "null"])
    );
    assert!(
        strict["properties"]["iso"].get("type").is_none(),
        "{strict}"
    );
    assert_eq!(
        strict["properties"]["iso"]["allOf"][0]["$ref"],
        "#/definitions/Iso"
    );
}

fn load(spec: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../spec")
        .join(format!("{spec}.yaml"));
    let text = std::fs::read_to_string(&path).expect("spec");
    serde_yaml_ng::from_str(&text).expect("YAML")
}

/// The schema of the JSON success answer of `operation`.
fn answer_schema(document: &Value, operation: &str) -> Option<Value> {
    let paths = document["paths"].as_object()?;
    for item in paths.values() {
        for method in ["get", "put", "post", "delete"] {
            let Some(op) = item.get(method) else { continue };
            if op["operationId"] != operation {
                continue;
            }
            let responses = op["responses"].as_object()?;
            for (status, response) in responses {
                if !(status.starts_with('2')) {
                    continue;
                }
                let response = resolve(document, response);
                if let Some(schema) = response.pointer("/content/application~1json/schema") {
                    return Some(schema.clone());
                }
            }
        }
    }
    None
}

fn resolve<'a>(document: &'a Value, value: &'a Value) -> &'a Value {
    match value.get("$ref").and_then(Value::as_str) {
        Some(reference) => document
            .pointer(reference.trim_start_matches('#'))
            .unwrap_or(value),
        None => value,
    }
}

/// The answer schema with every component as a draft-4 definition.
fn compile(document: &Value, schema: &Value) -> Validator {
    let mut root = to_json_schema(schema);
    let definitions: Map<String, Value> = document["components"]["schemas"]
        .as_object()
        .map(|schemas| {
            schemas
                .iter()
                .map(|(name, s)| (name.clone(), to_json_schema(s)))
                .collect()
        })
        .unwrap_or_default();
    if let Value::Object(map) = &mut root {
        map.insert("definitions".into(), Value::Object(definitions));
    }
    jsonschema::options()
        .with_draft(Draft::Draft4)
        .build(&root)
        .unwrap_or_else(|e| panic!("the schema does not compile: {e}"))
}

/// OpenAPI 3.0.3 → JSON Schema draft 4: `nullable: true` beside a `type` becomes "or
/// null" (and is ignored elsewhere, strictly); references point at `definitions`;
/// OpenAPI-only keywords go.
fn to_json_schema(schema: &Value) -> Value {
    match schema {
        Value::Object(map) => {
            let mut out = Map::new();
            for (key, value) in map {
                match key.as_str() {
                    "nullable" | "example" | "examples" | "xml" | "discriminator" | "readOnly"
                    | "writeOnly" | "deprecated" | "externalDocs" => {}
                    "$ref" => {
                        let reference = value.as_str().unwrap_or_default();
                        out.insert(
                            key.clone(),
                            Value::String(
                                reference.replace("#/components/schemas/", "#/definitions/"),
                            ),
                        );
                    }
                    "properties" => {
                        let props = value
                            .as_object()
                            .map(|p| {
                                p.iter()
                                    .map(|(k, v)| (k.clone(), to_json_schema(v)))
                                    .collect()
                            })
                            .unwrap_or_default();
                        out.insert(key.clone(), Value::Object(props));
                    }
                    _ => {
                        out.insert(key.clone(), to_json_schema(value));
                    }
                }
            }
            if map.get("nullable") == Some(&Value::Bool(true))
                && let Some(kind) = out.get("type").cloned()
            {
                let kinds = match kind {
                    Value::Array(mut kinds) => {
                        kinds.push(Value::String("null".into()));
                        kinds
                    }
                    single => vec![single, Value::String("null".into())],
                };
                out.insert("type".into(), Value::Array(kinds));
                // An `enum` must allow null too.
                if let Some(Value::Array(values)) = out.get_mut("enum") {
                    values.push(Value::Null);
                }
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(to_json_schema).collect()),
        other => other.clone(),
    }
}
