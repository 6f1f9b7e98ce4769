//! Every command's `--output json` against the committed JSON Schema
//! (`schema/hostapi.schema.json`, written by `cargo xtask codegen`): each document is
//! one definition (or an array of it), never `null` or a bare string; lists are arrays
//! of objects; keys are snake case everywhere (one naming rule across groups).

mod common;

use std::path::Path;

use common::{par_map, sandbox};
use serde_json::{Value, json};

const CLOUD: &str = "c90e8a9c-09ba-46e2-ae8a-0c71c86fa728";

fn schema() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../schema/hostapi.schema.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).expect("the schema is JSON")
}

/// Keys in snake case, outside the maps that keep what the service sent (`extra`).
fn snake_case_keys(value: &Value, path: &str, bad: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                let ok = key
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
                if !ok {
                    bad.push(format!("{path}.{key}"));
                }
                if key != "extra" {
                    snake_case_keys(child, &format!("{path}.{key}"), bad);
                }
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                snake_case_keys(item, &format!("{path}[{i}]"), bad);
            }
        }
        _ => {}
    }
}

#[test]
fn every_commands_json_matches_the_schema() {
    let schema = schema();
    // (command line, definition, whether the document is a list)
    let cloud_get = format!("cloud get {CLOUD}");
    let cloud_get_many = format!("cloud get {CLOUD} be38016d-e266-4420-a801-0c71c86fa729");
    let cloud_creds = format!("cloud credentials list {CLOUD} --type operating-system");
    let cloud_cred = format!("cloud credentials get {CLOUD} root");
    let cloud_metrics =
        format!("cloud metrics datatraffic {CLOUD} --from 2024-01-01 --to 2024-01-15");
    let cloud_power = format!("cloud power-on {CLOUD}");
    let cloud_power_wait = format!("cloud power-off {CLOUD} --wait --yes");
    let cloud_reference = format!("cloud set-reference {CLOUD} web");
    let cases: Vec<(&str, &str, bool)> = vec![
        ("vps list", "VirtualServer", true),
        ("vps get 100001", "VirtualServer", false),
        ("vps power-off 100001 --yes", "Job", false),
        ("vps power-on 100003 --wait", "VirtualServer", false),
        ("vps reboot 100001 --yes", "Job", false),
        ("vps reinstall 100001 --yes", "Job", false),
        ("cloud list", "CloudServer", true),
        (&cloud_get, "CloudServer", false),
        (&cloud_reference, "CloudServer", false),
        (&cloud_creds, "Credential", true),
        (&cloud_cred, "Credential", false),
        (&cloud_metrics, "TrafficMetrics", false),
        (&cloud_power, "Job", false),
        (&cloud_power_wait, "CloudServer", false),
        ("cloud private-clouds list", "PrivateCloud", true),
        ("domains list", "Domain", true),
        ("domains get acme-1.com", "Domain", false),
        ("domains set-ttl acme-1.com 3600", "Domain", false),
        ("dns list acme-1.com", "DnsRecord", true),
        (
            "dns create acme-1.com --name api.acme-1.com --type A --content 192.0.2.10",
            "DnsRecord",
            false,
        ),
        ("bare-metal list", "BareMetalServer", true),
        ("bare-metal get 20001", "BareMetalServer", false),
        (
            "bare-metal set-reference 20001 db",
            "BareMetalServer",
            false,
        ),
        ("bare-metal switch-port get 20001", "SwitchPort", false),
        ("bare-metal switch-port open 20001", "SwitchPort", false),
        ("bare-metal power get 20001", "BareMetalPowerStatus", false),
        ("bare-metal power cycle 20001 --yes", "WriteOutcome", false),
        (
            "bare-metal installation get 20001",
            "InstallationStatus",
            false,
        ),
        (
            "bare-metal install 20001 --os 9 --yes",
            "WriteOutcome",
            false,
        ),
        (
            "bare-metal install 20001 --os 9 --yes --wait",
            "InstallationStatus",
            false,
        ),
        (
            "bare-metal root-password 20001",
            "BareMetalPasswords",
            false,
        ),
        ("bare-metal leases list 20001", "DhcpLease", true),
        (
            "bare-metal leases create 20002 --boot-file http://192.0.2.5/pxe.ipxe --boot-server 192.0.2.5 --dns-server 192.0.2.53",
            "WriteOutcome",
            false,
        ),
        (
            "bare-metal leases delete-all 20001 --yes",
            "WriteOutcome",
            false,
        ),
        ("bare-metal ips list 20001", "IpAddress", true),
        ("bare-metal ips get 20001 85.17.0.10", "IpAddress", false),
        (
            "bare-metal usage get 20002 --from 2024-01-01 --to 2024-01-31",
            "BareMetalNetworkUsage",
            false,
        ),
        (
            "bare-metal usage bandwidth 20002 --from 2024-01-01 --to 2024-01-31",
            "UsageReport",
            false,
        ),
        (
            "bare-metal usage datatraffic 20002 --from 2024-01-01 --to 2024-01-31",
            "UsageReport2",
            false,
        ),
        ("racks list", "PrivateRack", true),
        ("racks get 7001", "PrivateRack", false),
        ("racks ips list 7001", "IpAddress", true),
        ("racks usage get 7001", "OpaqueRecord", false),
        (
            "ips update 85.17.0.10 --reverse-lookup web.example.com",
            "IpAddress",
            false,
        ),
        ("networks list", "PrivateNetwork", true),
        ("networks get 501", "PrivateNetwork", false),
        ("networks members list 501", "PrivateNetworkMember", true),
        ("networks members add 502 20003", "WriteOutcome", false),
        (
            "networks members add 502 20003 --wait",
            "PrivateNetworkMember",
            false,
        ),
        ("catalog operating-systems list", "OperatingSystem", true),
        ("catalog operating-systems get 9", "OperatingSystem", false),
        ("catalog control-panels list 9", "ControlPanel", true),
        ("catalog rescue-images list", "RescueImage", true),
        (
            "catalog partition-schema get 9 20001",
            "PartitionSchema",
            false,
        ),
        ("catalog services list", "OpaqueRecord", true),
        ("cdn purge 1001 /index.html", "PurgeJob", false),
        ("cdn purge 1001 /index.html --wait", "PurgeJob", false),
        ("cdn purge-status 1001 5001", "PurgeJob", false),
        ("cdn customers get", "CdnCustomer", false),
        ("cdn sub-customers get 46242701", "SubCustomer", false),
        ("cdn acl get", "Acl", false),
        (
            "cdn acl set --allow content.post --allow content.get --yes",
            "Acl",
            false,
        ),
        ("cdn origins list", "Origin", true),
        ("cdn origins get 101", "Origin", false),
        ("whoami", "CliCheck", true),
        ("bare-metal get 20001 20002", "BareMetalServer", true),
        ("bare-metal list --details", "BareMetalServer", true),
        ("vps get 100001 100002", "VirtualServer", true),
        (&cloud_get_many, "CloudServer", true),
        ("racks get 7001 7002", "PrivateRack", true),
        ("racks list --details", "PrivateRack", true),
        ("find 85.17.0.10", "CliFound", true),
        ("find web-*", "CliFound", true),
        ("find acme-1.com", "CliFound", true),
    ];
    let runs = par_map(cases, |(line, definition, list)| {
        let mut args: Vec<&str> = line.split_whitespace().collect();
        args.extend(["--output", "json"]);
        // An installation lasts 3 ms at the tests' time scale: a slower clock lets
        // the wait see it run even on a busy machine.
        let run = if line.starts_with("bare-metal install") && line.contains("--wait") {
            common::sandbox_scaled("3000", &args)
        } else {
            sandbox(&args)
        };
        (line, definition, list, run)
    });
    let mut failures = Vec::new();
    for (line, definition, list, run) in runs {
        if run.code != 0 {
            failures.push(format!("{line}: exit {}: {}", run.code, run.stderr));
            continue;
        }
        let value = run.json();
        if schema["$defs"].get(definition).is_none() {
            failures.push(format!("{line}: no definition {definition}"));
            continue;
        }
        let shape = if list {
            json!({"type": "array", "items": {"$ref": format!("#/$defs/{definition}")}})
        } else {
            json!({"$ref": format!("#/$defs/{definition}")})
        };
        let root = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$defs": schema["$defs"],
            "allOf": [shape],
        });
        let validator = jsonschema::validator_for(&root).expect("the schema compiles");
        for error in validator.iter_errors(&value) {
            failures.push(format!("{line}: {error} at {}", error.instance_path()));
        }
        // Never null or a bare value; lists are arrays of objects.
        match &value {
            Value::Object(_) => assert!(!list, "{line}: a list printed an object"),
            Value::Array(items) => {
                assert!(list, "{line}: one record printed as an array");
                assert!(items.iter().all(Value::is_object), "{line}: {value}");
            }
            other => failures.push(format!("{line}: printed {other}")),
        }
        let mut bad = Vec::new();
        snake_case_keys(&value, "", &mut bad);
        if !bad.is_empty() {
            failures.push(format!("{line}: keys not in snake case: {bad:?}"));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The errors of `value` against the schema's `definition` (or an array of it).
fn check(schema: &Value, value: &Value, definition: &str, list: bool) -> Vec<String> {
    let shape = if list {
        json!({"type": "array", "items": {"$ref": format!("#/$defs/{definition}")}})
    } else {
        json!({"$ref": format!("#/$defs/{definition}")})
    };
    let root = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$defs": schema["$defs"],
        "allOf": [shape],
    });
    let validator = jsonschema::validator_for(&root).expect("the schema compiles");
    validator
        .iter_errors(value)
        .map(|error| format!("{definition}: {error} at {}", error.instance_path()))
        .collect()
}

/// The commands about the config file, which run without the sandbox, in a HOME of
/// their own.
#[test]
fn config_commands_json_matches_the_schema() {
    let schema = schema();
    let home = common::TempDir::new("schema-config");
    let key = [("HOSTAPI_API_KEY", "k")];
    /// (arguments, environment, definition, whether a list)
    type Case<'a> = (&'a [&'a str], &'a [(&'a str, &'a str)], &'a str, bool);
    let cases: [Case<'_>; 6] = [
        (
            &["config", "init", "--base-url", "https://api.example.com"],
            &key,
            "CliProfile",
            false,
        ),
        (
            &["config", "set", "cdn_customer", "C1"],
            &[],
            "CliProfile",
            false,
        ),
        (
            &["config", "set", "cdn_customer", "C2", "--profile", "b"],
            &[],
            "CliProfile",
            false,
        ),
        (&["config", "use", "b"], &[], "CliProfile", false),
        (&["config", "profiles"], &[], "CliProfile", true),
        (&["config", "show"], &[], "CliSettings", false),
    ];
    let mut failures = Vec::new();
    for (args, env, definition, list) in cases {
        let mut all = args.to_vec();
        all.extend(["--output", "json"]);
        let run = common::run_in(home.path(), &all, env).ok();
        let value = run.json();
        assert!(!value.is_null(), "{args:?}");
        failures.extend(check(&schema, &value, definition, list));
        let mut bad = Vec::new();
        snake_case_keys(&value, "", &mut bad);
        assert!(bad.is_empty(), "{args:?}: {bad:?}");
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
