//! Replay: a journal exported as NDJSON is served back in order, by the
//! library ([`SimConfig::replay`]) and by `hostapi-sim --replay FILE`.

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use common::*;
use hostapi_sim::{FaultRule, SimConfig};
use reqwest::Method;
use serde_json::Value;

/// Record a short script: a read, a write, a read of the write, a CDN call
/// and a dropped connection.
async fn record() -> (String, Vec<Ans>) {
    let t = start(SimConfig::default().with_seed(4)).await;
    t.sim
        .add_faults(vec![FaultRule {
            operation: "getBareMetal".into(),
            fault: "drop-before".into(),
            times: Some(1),
            ..Default::default()
        }])
        .unwrap();
    let c = t.customer();
    let answers = vec![
        t.get("/v1/domains").await,
        t.put("/v1/domains/acme-1.com", &[("ttl", "7200")]).await,
        t.get("/v1/domains/acme-1.com").await,
        t.cdn(Method::GET, &format!("/origins/{c}"), None).await,
    ];
    let dropped = t
        .http
        .get(t.url("/v1/bareMetals/20001"))
        .header("X-Svc-Auth", t.sim.api_key())
        .send()
        .await;
    assert!(dropped.is_err(), "recorded as dropped");
    let r = t
        .http
        .get(format!("{}/requests?format=ndjson", t.sim.control_url()))
        .send()
        .await
        .unwrap();
    (r.text().await.unwrap(), answers)
}

#[tokio::test]
async fn a_recorded_journal_is_served_back_in_order() {
    let (script, recorded) = record().await;
    let entries = hostapi_sim::read_script(&script).unwrap();
    assert_eq!(entries.len(), 5);
    let t = start(SimConfig {
        replay: Some(entries),
        // Other credentials and seed: the replay answers from the script.
        seed: 99,
        ..Default::default()
    })
    .await;
    let c = {
        // The CDN customer of the recording, from its path.
        let e = hostapi_sim::read_script(&script).unwrap();
        e[3].path.split('/').nth(3).unwrap().to_string()
    };
    let replayed = vec![
        t.get("/v1/domains").await,
        t.put("/v1/domains/acme-1.com", &[("ttl", "7200")]).await,
        t.get("/v1/domains/acme-1.com").await,
        read(
            t.http
                .get(format!("{}/origins/{c}/1/whatever", t.sim.cdn_base_url()))
                .send()
                .await
                .unwrap(),
        )
        .await,
    ];
    for (i, (a, b)) in recorded.iter().zip(&replayed).enumerate() {
        assert_eq!((a.status, &a.bytes), (b.status, &b.bytes), "entry {i}");
        assert_eq!(
            a.headers["content-type"], b.headers["content-type"],
            "entry {i}"
        );
    }
    // The dropped connection is dropped again.
    let r = t.http.get(t.url("/v1/bareMetals/20001")).send().await;
    assert!(r.is_err(), "{r:?}");
    let p = t.sim.replay_progress().unwrap();
    assert_eq!((p.total, p.served, p.mismatches, p.next), (5, 5, 0, None));
    // Past the end: a clear error.
    let a = t.get("/v1/domains").await;
    assert_eq!(a.status, 400);
    let msg = a.json["errorMessage"].as_str().unwrap();
    assert!(
        msg.contains("the script has ended (5 entries served)"),
        "{msg}"
    );
}

#[tokio::test]
async fn a_request_off_the_script_answers_what_was_expected_and_waits() {
    let (script, _) = record().await;
    let t = start(SimConfig {
        replay: Some(hostapi_sim::read_script(&script).unwrap()),
        ..Default::default()
    })
    .await;
    let a = t.get("/v1/bareMetals").await;
    assert_eq!(a.status, 400);
    let msg = a.json["errorMessage"].as_str().unwrap();
    assert_eq!(
        msg,
        "replay: the script expects GET /v1/domains next (entry 1 of 5), not GET /v1/bareMetals"
    );
    // The script did not move on.
    assert_eq!(t.get("/v1/domains").await.status, 200);
    let r = t
        .http
        .get(format!("{}/replay", t.sim.control_url()))
        .send()
        .await
        .unwrap();
    let p: Value = r.json().await.unwrap();
    assert_eq!(p["served"], 1);
    assert_eq!(p["mismatches"], 1);
    assert_eq!(p["next"], "PUT /v1/domains/acme-1.com");
}

#[tokio::test]
async fn the_binary_replays_a_file_and_refuses_a_bad_one() {
    let (script, recorded) = record().await;
    let dir = std::env::temp_dir().join(format!("hostapi-sim-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("script.ndjson");
    std::fs::write(&file, &script).unwrap();

    let bad = dir.join("bad.ndjson");
    std::fs::write(&bad, "{\"seq\": 1}\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_hostapi-sim"))
        .arg("--replay")
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 1: not a journal entry"), "{err}");

    let mut child = Command::new(env!("CARGO_BIN_EXE_hostapi-sim"))
        .arg("--replay")
        .arg(&file)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let info: Value = serde_json::from_str(&line).unwrap();
    let base = info["base_url"].as_str().unwrap();
    let http = client();
    let a = read(http.get(format!("{base}/v1/domains")).send().await.unwrap()).await;
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(
        (a.status, &a.bytes),
        (recorded[0].status, &recorded[0].bytes)
    );
}
