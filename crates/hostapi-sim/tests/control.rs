//! The control API under `/_sim/`: health, reset, state export/import, the
//! clock, fault rules, the request journal; and the state file.

mod common;

use std::time::Duration;

use common::*;
use hostapi_sim::{FaultRule, SimConfig};
use reqwest::Method;
use serde_json::{Value, json};

/// Time stands still (scale 1: nothing moves within a test's few ms
/// worth mentioning) unless the clock is advanced.
async fn still(seed: u64) -> T {
    start(SimConfig {
        seed,
        ..Default::default()
    })
    .await
}

impl T {
    async fn ctl(&self, method: Method, path: &str, body: Option<Value>) -> Ans {
        let mut rb = self
            .http
            .request(method, format!("{}{path}", self.sim.control_url()));
        if let Some(b) = body {
            rb = rb.json(&b);
        }
        read(rb.send().await.expect("send")).await
    }
}

fn ttl(a: &Ans) -> i64 {
    let v = &a.json["domain"]["ttl"];
    v.as_i64()
        .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
        .unwrap_or_else(|| panic!("no ttl in {}", a.json))
}

#[tokio::test]
async fn health_names_seed_size_and_time() {
    let t = still(5).await;
    let a = t.ctl(Method::GET, "/health", None).await;
    assert_eq!(a.status, 200);
    assert_eq!(a.json["status"], "ok");
    assert_eq!(a.json["seed"], 5);
    assert!(a.json["simTime"].as_f64().unwrap() > 1.6e9);
    // Control endpoints need no API key, and a wrong method is 405.
    let a = t.ctl(Method::DELETE, "/health", None).await;
    assert_eq!(a.status, 405);
    assert_eq!(a.headers["allow"], "GET");
    assert_eq!(t.ctl(Method::GET, "/nothing", None).await.status, 404);
}

#[tokio::test]
async fn reset_restores_the_dataset_and_takes_a_new_seed() {
    let t = still(5).await;
    let d = "/v1/domains/acme-1.com";
    let before = ttl(&t.get(d).await);
    assert_eq!(t.put(d, &[("ttl", "7200")]).await.status, 200);
    assert_eq!(ttl(&t.get(d).await), 7200);
    let a = t.ctl(Method::POST, "/reset", None).await;
    assert_eq!(a.status, 200, "{}", a.json);
    assert_eq!(ttl(&t.get(d).await), before);
    assert!(t.sim.write_log().is_empty());
    let a = t
        .ctl(
            Method::POST,
            "/reset",
            Some(json!({"seed": 9, "size": 100})),
        )
        .await;
    assert_eq!(
        (a.json["seed"].clone(), a.json["size"].clone()),
        (json!(9), json!(100))
    );
    assert_eq!(
        t.get("/cloud/v2/virtualServers?limit=1").await.json["_metadata"]["totalCount"],
        100
    );
    // Bad bodies name the field.
    let a = t
        .ctl(Method::POST, "/reset", Some(json!({"seed": -1})))
        .await;
    assert_eq!(a.status, 400);
    assert!(a.json["error"].as_str().unwrap().starts_with("seed"));
    let a = t
        .ctl(
            Method::POST,
            "/reset",
            Some(json!({"size": hostapi_sim::MAX_SIZE + 1})),
        )
        .await;
    assert_eq!(a.status, 400);
    assert!(a.json["error"].as_str().unwrap().starts_with("size"));
}

#[tokio::test]
async fn state_export_and_import_round_trip() {
    let t = still(5).await;
    let d = "/v1/domains/acme-1.com";
    t.put(d, &[("ttl", "7200")]).await;
    let a = t.ctl(Method::GET, "/state", None).await;
    assert_eq!(a.status, 200);
    assert_eq!(a.json["format"], hostapi_sim::STATE_FORMAT);
    let exported = a.json.clone();
    t.ctl(Method::POST, "/reset", None).await;
    assert_ne!(ttl(&t.get(d).await), 7200);
    // Into another simulator too.
    let u = still(1).await;
    for sim in [&t, &u] {
        let a = sim.ctl(Method::PUT, "/state", Some(exported.clone())).await;
        assert_eq!(a.status, 200, "{}", a.json);
        assert_eq!(ttl(&sim.get(d).await), 7200);
        assert_eq!(a.json["seed"], 5);
    }
    let a = t
        .ctl(Method::PUT, "/state", Some(json!({"format": "x"})))
        .await;
    assert_eq!(a.status, 400);
    assert_eq!(
        ttl(&t.get(d).await),
        7200,
        "a refused import changes nothing"
    );
}

#[tokio::test]
async fn advancing_the_clock_completes_pending_transitions_in_order() {
    let t = still(3).await;
    let c0 = t.ctl(Method::GET, "/clock", None).await.json["simTime"]
        .as_f64()
        .unwrap();
    let a = t.get("/cloud/v2/virtualServers?limit=1").await;
    let id = a.json["virtualServers"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let path = format!("/cloud/v2/virtualServers/{id}");
    assert_eq!(t.get(&path).await.json["state"], "RUNNING");
    t.post(&format!("{path}/reboot"), &[]).await;
    let mut seen = vec![t.get(&path).await.json["state"].clone()];
    for _ in 0..2 {
        let a = t
            .ctl(Method::POST, "/clock/advance", Some(json!({"seconds": 5})))
            .await;
        assert_eq!(a.status, 200);
        seen.push(t.get(&path).await.json["state"].clone());
    }
    assert_eq!(
        seen,
        [json!("STOPPING"), json!("STARTING"), json!("RUNNING")]
    );
    let c1 = t.ctl(Method::GET, "/clock", None).await.json["simTime"]
        .as_f64()
        .unwrap();
    assert!(c1 - c0 >= 10.0 && c1 - c0 < 20.0, "{c0} → {c1}");
    // An install finishes after INSTALL_SECS of simulated time.
    let s = "/v1/bareMetals/20001/installationStatus";
    assert_eq!(
        t.post("/v1/bareMetals/20001/install", &[("osId", "201")])
            .await
            .status,
        200
    );
    assert_eq!(
        t.get(s).await.json["installationStatus"]["description"],
        "Installing"
    );
    t.sim.advance_clock(hostapi_sim::INSTALL_SECS).unwrap();
    assert_eq!(
        t.get(s).await.json["installationStatus"]["description"],
        "Normal"
    );
    for bad in [json!({"seconds": -1}), json!({}), json!({"seconds": "5"})] {
        let a = t.ctl(Method::POST, "/clock/advance", Some(bad)).await;
        assert_eq!(a.status, 400);
        assert!(a.json["error"].as_str().unwrap().starts_with("seconds"));
    }
}

const INSTALL: &str = "POST /v1/bareMetals/{bareMetalId}/install";

#[tokio::test]
async fn a_status_rule_fails_the_first_calls_of_one_operation_then_lets_them_through() {
    let t = still(3).await;
    let a = t
        .ctl(
            Method::POST,
            "/faults",
            Some(json!({"operation": INSTALL, "fault": "status", "status": 503, "retry_after": 2, "times": 2})),
        )
        .await;
    assert_eq!(a.status, 201, "{}", a.json);
    let s = "/v1/bareMetals/20001/installationStatus";
    for _ in 0..2 {
        let a = t
            .post("/v1/bareMetals/20001/install", &[("osId", "201")])
            .await;
        assert_eq!(a.status, 503);
        assert_eq!(a.headers["retry-after"], "2");
        assert_eq!(a.json["errorCode"], 503, "the interface's error body");
        // Other operations are untouched, and nothing was installed.
        assert_eq!(
            t.get(s).await.json["installationStatus"]["description"],
            "Normal"
        );
    }
    assert_eq!(
        t.post("/v1/bareMetals/20001/install", &[("osId", "201")])
            .await
            .status,
        200
    );
    let a = t.ctl(Method::GET, "/faults", None).await;
    assert_eq!(a.json["rules"][0]["fired"], 2);
    assert!(a.json["operations"].as_array().unwrap().len() >= 80);
    assert_eq!(
        t.ctl(Method::DELETE, "/faults", None).await.json["rules"],
        json!([])
    );
}

#[tokio::test]
async fn rules_are_checked_and_can_be_removed_one_by_one() {
    let t = still(3).await;
    for (rule, field) in [
        (
            json!({"operation": "installBareMetals", "fault": "status", "status": 503}),
            "operation",
        ),
        (json!({"operation": "*", "fault": "explode"}), "fault"),
        (json!({"operation": "*", "fault": "status"}), "status"),
        (
            json!({"operation": "*", "fault": "drop-after", "probability": 2.0}),
            "probability",
        ),
        (json!({"operation": "*", "fault": "latency"}), "latency_ms"),
        (
            json!({"operation": "*", "fault": "truncate", "times": 0}),
            "times",
        ),
    ] {
        let a = t.ctl(Method::POST, "/faults", Some(rule.clone())).await;
        assert_eq!(a.status, 400, "{rule}");
        assert!(
            a.json["error"].as_str().unwrap().contains(field),
            "{rule}: {}",
            a.json
        );
    }
    let a = t
        .ctl(
            Method::POST,
            "/faults",
            Some(json!([
                {"operation": "GET /v1/domains", "fault": "drop-before"},
                {"operation": "GET /v1/bareMetals", "fault": "malformed"}
            ])),
        )
        .await;
    let id = a.json["rules"][0]["id"].as_u64().unwrap();
    let a = t.ctl(Method::DELETE, &format!("/faults/{id}"), None).await;
    assert_eq!(a.json["rules"].as_array().unwrap().len(), 1);
    assert_eq!(t.get("/v1/domains").await.status, 200);
    let a = t.get("/v1/bareMetals").await;
    assert!(
        serde_json::from_slice::<Value>(&a.bytes).is_err(),
        "malformed"
    );
    assert_eq!(t.ctl(Method::DELETE, "/faults/999", None).await.status, 404);
}

/// The outcomes of one operation's calls under a probability rule.
async fn outcomes(interleave: usize) -> Vec<u16> {
    let t = still(11).await;
    t.sim
        .add_faults(vec![FaultRule {
            id: 0,
            operation: "GET /v1/domains".into(),
            fault: "status".into(),
            status: Some(500),
            retry_after: None,
            latency_ms: None,
            times: None,
            probability: Some(0.5),
            fired: 0,
        }])
        .unwrap();
    t.sim
        .add_faults(vec![
            serde_json::from_value(
                json!({"operation": "*", "fault": "status", "status": 502, "probability": 0.3}),
            )
            .unwrap(),
        ])
        .unwrap();
    let mut out = vec![];
    for i in 0..24 {
        for _ in 0..(i % (interleave + 1)) {
            t.get("/v1/bareMetals").await;
        }
        out.push(t.get("/v1/domains").await.status);
    }
    out
}

#[tokio::test]
async fn probability_rules_are_deterministic_whatever_other_operations_do() {
    let a = outcomes(0).await;
    let b = outcomes(3).await;
    assert_eq!(a, b);
    assert!(a.contains(&200) && a.iter().any(|s| *s >= 500), "{a:?}");
}

#[tokio::test]
async fn drop_and_latency_rules() {
    let t = still(3).await;
    t.ctl(
        Method::POST,
        "/faults",
        Some(json!([
            {"operation": "PUT /v1/domains/{domainname}", "fault": "drop-after", "times": 1},
            {"operation": "GET /v1/services", "fault": "latency", "latency_ms": 300, "times": 1}
        ])),
    )
    .await;
    let d = "/v1/domains/acme-1.com";
    let r = t
        .http
        .put(t.url(d))
        .header("X-Svc-Auth", t.sim.api_key())
        .form(&[("ttl", "7200")])
        .send()
        .await;
    assert!(r.is_err(), "the connection is dropped");
    assert_eq!(ttl(&t.get(d).await), 7200, "after the change was applied");
    let started = std::time::Instant::now();
    assert_eq!(t.get("/v1/services").await.status, 200);
    assert!(started.elapsed() >= Duration::from_millis(300));
}

#[tokio::test]
async fn drop_before_changes_nothing_and_truncate_cuts_the_body() {
    let t = still(3).await;
    t.ctl(
        Method::POST,
        "/faults",
        Some(json!([
            {"operation": "PUT /v1/domains/{domainname}", "fault": "drop-before", "times": 1},
            {"operation": "GET /v1/bareMetals", "fault": "truncate", "times": 1}
        ])),
    )
    .await;
    let d = "/v1/domains/acme-1.com";
    let before = ttl(&t.get(d).await);
    let r = t
        .http
        .put(t.url(d))
        .header("X-Svc-Auth", t.sim.api_key())
        .form(&[("ttl", "7200")])
        .send()
        .await;
    assert!(r.is_err(), "the connection is dropped");
    assert_eq!(
        ttl(&t.get(d).await),
        before,
        "before the change was applied"
    );
    assert!(t.sim.write_log().is_empty());
    let r = t
        .http
        .get(t.url("/v1/bareMetals"))
        .header("X-Svc-Auth", t.sim.api_key())
        .send()
        .await
        .expect("the head arrives");
    assert!(r.bytes().await.is_err(), "the body is cut short");
    let journal = t.sim.requests(None);
    let faults: Vec<_> = journal.iter().filter_map(|e| e.fault.clone()).collect();
    assert_eq!(faults, ["drop-before", "truncate"]);
    let dropped = journal
        .iter()
        .find(|e| e.fault.as_deref() == Some("drop-before"))
        .unwrap();
    assert_eq!(dropped.status, None, "a dropped request has no status");
}

#[tokio::test]
async fn the_journal_records_requests_with_secrets_redacted() {
    let t = still(3).await;
    t.ctl(
        Method::POST,
        "/faults",
        Some(json!({"operation": "GET /v1/bareMetals", "fault": "status", "status": 429, "times": 1})),
    )
    .await;
    t.get("/v1/bareMetals").await;
    t.get("/v1/bareMetals").await;
    t.put("/v1/domains/acme-1.com", &[("ttl", "7200")]).await;
    let c = t.sim.cdn_customer().to_string();
    t.cdn(Method::GET, &format!("/origins/{c}"), None).await;
    let a = t.ctl(Method::GET, "/requests", None).await;
    let rs = a.json["requests"].as_array().unwrap().clone();
    assert_eq!(rs.len(), 4, "{}", a.json);
    assert_eq!(rs[0]["operation"], "listBareMetals");
    assert_eq!(rs[0]["route"], "GET /v1/bareMetals");
    assert_eq!(
        (rs[0]["status"].clone(), rs[0]["fault"].clone()),
        (json!(429), json!("429"))
    );
    assert_eq!(rs[1]["status"], 200);
    assert!(rs[1].get("fault").is_none());
    assert_eq!(rs[2]["method"], "PUT");
    assert_eq!(rs[2]["path"], "/v1/domains/acme-1.com");
    let cdn_path = rs[3]["path"].as_str().unwrap();
    assert!(cdn_path.ends_with("/REDACTED"), "{cdn_path}");
    assert!(
        !a.bytes
            .windows(t.sim.api_key().len())
            .any(|w| w == t.sim.api_key().as_bytes())
    );
    let a = t
        .ctl(
            Method::GET,
            "/requests?operation=GET%20%2Fv1%2FbareMetals",
            None,
        )
        .await;
    assert_eq!(a.json["requests"].as_array().unwrap().len(), 2);
    t.ctl(Method::DELETE, "/requests", None).await;
    assert!(t.sim.requests(None).is_empty());
}

#[tokio::test]
async fn the_state_file_keeps_changes_and_simulated_time_across_restarts() {
    let dir = std::env::temp_dir().join(format!("hostapi-sim-state-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("state.json");
    let _ = std::fs::remove_file(&file);
    let cfg = || SimConfig {
        seed: 4,
        state_file: Some(file.clone()),
        ..Default::default()
    };
    let t = start(cfg()).await;
    assert!(file.exists(), "written at start");
    t.put("/v1/domains/acme-1.com", &[("ttl", "7200")]).await;
    t.post("/v1/bareMetals/20001/install", &[("osId", "201")])
        .await;
    let t1 = t.sim.advance_clock(100_000.0).unwrap();
    t.sim.shutdown().await;
    let t = start(cfg()).await;
    assert_eq!(ttl(&t.get("/v1/domains/acme-1.com").await), 7200);
    let now = t.sim.sim_time();
    assert!(now >= t1 && now < t1 + 60.0, "{t1} → {now}");
    assert_eq!(t.sim.write_log().len(), 2);
    t.sim.shutdown().await;
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn a_pending_transition_survives_a_restart() {
    let dir = std::env::temp_dir().join(format!("hostapi-sim-pending-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("state.json");
    let _ = std::fs::remove_file(&file);
    let cfg = || SimConfig {
        seed: 4,
        state_file: Some(file.clone()),
        ..Default::default()
    };
    let s = "/v1/bareMetals/20001/installationStatus";
    let t = start(cfg()).await;
    t.post("/v1/bareMetals/20001/install", &[("osId", "201")])
        .await;
    t.sim.shutdown().await;
    let t = start(cfg()).await;
    assert_eq!(
        t.get(s).await.json["installationStatus"]["description"],
        "Installing"
    );
    t.sim.advance_clock(hostapi_sim::INSTALL_SECS).unwrap();
    assert_eq!(
        t.get(s).await.json["installationStatus"]["description"],
        "Normal"
    );
    t.sim.shutdown().await;
    std::fs::remove_dir_all(&dir).unwrap();
}
