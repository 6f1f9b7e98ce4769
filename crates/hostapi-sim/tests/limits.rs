//! Bounded memory: created records are capped (409 past the cap), purge
//! history and the journal keep the newest entries.

mod common;

use common::*;
use reqwest::Method;
use serde_json::{Value, json};

#[tokio::test]
async fn creating_past_the_cap_is_409_and_purge_history_drops_the_oldest() {
    let t = fast().await;
    // Fill the state through an import: MAX_CREATED private networks and
    // PURGE_HISTORY_CAP purge jobs.
    let mut doc = t.sim.export_state();
    let nets: serde_json::Map<String, Value> = (0..hostapi_sim::MAX_CREATED as u64)
        .map(|k| {
            let id = 1000 + k;
            (
                id.to_string(),
                json!({"id": id, "name": "n", "created": 0.0, "updated": 0.0, "members": []}),
            )
        })
        .collect();
    doc["state"]["private_networks"] = Value::Object(nets);
    doc["state"]["next_private_network"] = json!(1000 + hostapi_sim::MAX_CREATED as u64);
    let jobs: serde_json::Map<String, Value> = (0..hostapi_sim::PURGE_HISTORY_CAP as u64)
        .map(|k| {
            (
                (6000 + k).to_string(),
                json!({"zone": 1001, "urls": ["/a"], "created": 0.0}),
            )
        })
        .collect();
    doc["state"]["purge_jobs"] = Value::Object(jobs);
    doc["state"]["next_purge"] = json!(9000);
    t.sim.import_state(doc).expect("import");

    let a = t.post("/v1/privateNetworks", &[]).await;
    assert_eq!(a.status, 409, "{}", a.json);

    let c = t.sim.cdn_customer().to_string();
    let a = t
        .cdn(
            Method::POST,
            &format!("/content/purge/{c}/1001"),
            Some(("application/json", json!({"urls": ["/b"]}).to_string())),
        )
        .await;
    assert_eq!(a.status, 200, "{}", a.json);
    let jobs = t.sim.export_state()["state"]["purge_jobs"].clone();
    let jobs = jobs.as_object().unwrap();
    assert_eq!(jobs.len(), hostapi_sim::PURGE_HISTORY_CAP);
    assert!(jobs.contains_key("9000") && !jobs.contains_key("6000"));
}

#[tokio::test]
async fn the_write_log_keeps_the_newest_writes() {
    let t = fast().await;
    let mut doc = t.sim.export_state();
    let writes: Vec<Value> = (1..=hostapi_sim::WRITE_LOG_CAP as u64)
        .map(|seq| json!({"seq": seq, "operation": "x", "target": "y", "sim_time": 0.0}))
        .collect();
    doc["state"]["writes"] = Value::Array(writes);
    doc["state"]["write_seq"] = json!(hostapi_sim::WRITE_LOG_CAP);
    t.sim.import_state(doc).expect("import");
    t.put("/v1/domains/acme-1.com", &[("ttl", "7200")]).await;
    let log = t.sim.write_log();
    assert_eq!(log.len(), hostapi_sim::WRITE_LOG_CAP);
    assert_eq!(log[0].seq, 2);
    assert_eq!(
        log.last().unwrap().seq,
        hostapi_sim::WRITE_LOG_CAP as u64 + 1
    );
}
