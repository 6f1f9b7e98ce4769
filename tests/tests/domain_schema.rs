//! The committed JSON Schema of the domain model (`schema/hostapi.schema.json`, written
//! by `cargo xtask codegen`) describes what the SDK really serialises: values read from
//! the simulator, serialised as the CLI's `--output json` prints them, validate against
//! their definitions.

use std::path::Path;
use std::time::Duration;

use hostapi::WaitOptions;
use hostapi_sim::{Sim, SimConfig};
use serde_json::{Value, json};

fn schema() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../schema/hostapi.schema.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).expect("the schema is JSON")
}

/// Validates `value` against `$defs/<definition>` (an array against its items).
fn check(schema: &Value, definition: &str, value: &Value) {
    assert!(
        schema["$defs"].get(definition).is_some(),
        "no definition {definition}"
    );
    let root = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$defs": schema["$defs"],
        "$ref": format!("#/$defs/{definition}"),
    });
    let validator = jsonschema::validator_for(&root).expect("the schema compiles");
    let items: Vec<&Value> = match value {
        Value::Array(items) => items.iter().collect(),
        other => vec![other],
    };
    assert!(!items.is_empty(), "{definition}: nothing to check");
    for item in items {
        let errors: Vec<String> = validator
            .iter_errors(item)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{definition}: {errors:#?}\n{item:#}");
    }
}

fn json_of<T: serde::Serialize>(value: &T) -> Value {
    serde_json::to_value(value).expect("domain values serialise")
}

#[tokio::test]
async fn serialised_values_match_the_committed_schema() {
    let sim = Sim::start(SimConfig::default().with_seed(3).with_time_scale(5000.0))
        .await
        .unwrap();
    let client = hostapi_tests::sim_client_builder(&sim, sim.api_key(), sim.cdn_secret())
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap();
    let schema = schema();

    check(
        &schema,
        "VirtualServer",
        &json_of(&client.virtual_servers().list().await.unwrap()),
    );
    check(
        &schema,
        "Domain",
        &json_of(&client.domains().list().await.unwrap()),
    );
    let bare_metal = hostapi::types::BareMetalId::from(20001u64);
    check(
        &schema,
        "BareMetalServer",
        &json_of(&client.bare_metals().get(&bare_metal).await.unwrap()),
    );
    check(
        &schema,
        "IpAddress",
        &json_of(&client.bare_metals().ips(&bare_metal).list().await.unwrap()),
    );
    check(
        &schema,
        "PrivateNetwork",
        &json_of(&client.private_networks().list().await.unwrap()),
    );
    let servers = client.cloud_servers().list().await.unwrap();
    check(&schema, "CloudServer", &json_of(&servers));
    check(
        &schema,
        "PrivateCloud",
        &json_of(&client.private_clouds().list().await.unwrap()),
    );
    let job = client.cloud_servers().reboot(&servers[0].id).await.unwrap();
    check(&schema, "Job", &json_of(&job));
    let options = WaitOptions::new()
        .interval(Duration::from_millis(20))
        .timeout(Duration::from_secs(10));
    let _ = client
        .cloud_servers()
        .wait_state(
            &servers[0].id,
            hostapi::cloud::CloudServerState::Running,
            &options,
        )
        .await;
    check(
        &schema,
        "Origin",
        &json_of(&client.cdn().origins().list().await.unwrap()),
    );
    check(
        &schema,
        "Acl",
        &json_of(&client.cdn().acl().get().await.unwrap()),
    );
    check(
        &schema,
        "CdnCustomer",
        &json_of(&client.cdn().customers().get().await.unwrap()),
    );
    sim.shutdown().await;
}
