//! The state file: a snapshot plus a change log, replayed at start;
//! simulated time going on between runs; imports checked inside; byte caps.

mod common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::*;
use hostapi_sim::{Sim, SimConfig, SimError};
use reqwest::Method;
use serde_json::{Value, json};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hostapi-sim-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn cfg(file: &Path, scale: f64) -> SimConfig {
    SimConfig {
        seed: 7,
        time_scale: scale,
        state_file: Some(file.to_path_buf()),
        ..Default::default()
    }
}

async fn first_cloud_id(t: &T) -> String {
    t.get("/cloud/v2/virtualServers?limit=1").await.json["virtualServers"][0]["id"]
        .as_str()
        .unwrap()
        .to_string()
}

/// Writes of every kind of state.
async fn write_everything(t: &T) {
    let c = t.customer();
    let ok = |a: &Ans| assert!((200..300).contains(&a.status), "{} {}", a.status, a.json);
    ok(&t.put("/v1/domains/acme-1.com", &[("ttl", "900")]).await);
    let d = "/v1/domains/acme-1.com/dnsRecords";
    let a = t
        .post(
            d,
            &[
                ("host", "acme-1.com"),
                ("type", "TXT"),
                ("content", "v=one"),
            ],
        )
        .await;
    ok(&a);
    let rid = a.json["dnsRecord"]["id"].as_u64().unwrap();
    ok(&t
        .put(
            &format!("{d}/{rid}"),
            &[
                ("host", "acme-1.com"),
                ("type", "TXT"),
                ("content", "v=two"),
            ],
        )
        .await);
    let a = t
        .post(
            d,
            &[("host", "acme-1.com"), ("type", "TXT"), ("content", "gone")],
        )
        .await;
    let gone = a.json["dnsRecord"]["id"].as_u64().unwrap();
    ok(&t.delete(&format!("{d}/{gone}")).await);
    // A domain with an SRV record among its generated ones.
    ok(&t
        .post(
            "/v1/domains/bluebird-2.net/dnsRecords",
            &[
                ("host", "bluebird-2.net"),
                ("type", "A"),
                ("content", "192.0.2.9"),
            ],
        )
        .await);
    ok(&t
        .put("/v1/bareMetals/20003", &[("reference", "rack 9")])
        .await);
    ok(&t
        .post("/v1/bareMetals/20002/install", &[("osId", "201")])
        .await);
    let a = t.post("/v1/privateNetworks", &[("name", "lab")]).await;
    ok(&a);
    let net = int(&a.json["id"]).unwrap();
    ok(&t
        .post(
            &format!("/v1/privateNetworks/{net}/bareMetals"),
            &[("bareMetalId", "20004")],
        )
        .await);
    let id = first_cloud_id(t).await;
    ok(&t
        .post(&format!("/cloud/v2/virtualServers/{id}/powerOff"), &[])
        .await);
    ok(&t
        .cdn_form(
            Method::POST,
            &format!("/origins/{c}"),
            &[("origin", "https://img.example.com"), ("label", "img")],
        )
        .await);
    ok(&t
        .cdn_form(
            Method::POST,
            &format!("/customers/{c}/{c}77"),
            &[("companyName", "Sub 77"), ("active", "1")],
        )
        .await);
    ok(&t
        .cdn(
            Method::POST,
            &format!("/content/purge/{c}/1002"),
            Some((
                "application/json",
                json!({"urls": ["/a.css", "/b.js"]}).to_string(),
            )),
        )
        .await);
}

#[tokio::test]
async fn every_write_survives_a_restart_from_the_log_and_from_the_snapshot() {
    let dir = temp_dir("restart");
    let file = dir.join("state.json");
    let t = start(cfg(&file, 1.0)).await;
    write_everything(&t).await;
    let before = t.sim.export_state();
    // As after kill -9: nothing but the change log has the writes.
    let log = std::fs::read_to_string(dir.join("state.json.log")).unwrap();
    assert!(log.lines().count() >= 10, "{log}");
    std::mem::forget(t);
    let t = start(cfg(&file, 1.0)).await;
    let after = t.sim.export_state();
    assert_eq!(after["state"], before["state"]);
    // The start folded the log into the snapshot.
    assert_eq!(
        std::fs::metadata(dir.join("state.json.log")).unwrap().len(),
        0
    );
    t.put("/v1/domains/acme-1.com", &[("ttl", "1200")]).await;
    let before = t.sim.export_state();
    drop(t);
    let t = start(cfg(&file, 1.0)).await;
    assert_eq!(t.sim.export_state()["state"], before["state"]);
    // Every export imports again, into a simulator without a file too.
    let fresh = fast().await;
    fresh.sim.import_state(before.clone()).expect("import");
    assert_eq!(fresh.sim.export_state()["state"], before["state"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn simulated_time_goes_on_between_runs() {
    // At 500 simulated seconds per second an install (300 s) takes 0.6 s
    // and a cloud power-off (5 s) 10 ms.
    for kill in [false, true] {
        let dir = temp_dir(if kill { "time-kill" } else { "time-stop" });
        let file = dir.join("state.json");
        let t = start(cfg(&file, 500.0)).await;
        let id = first_cloud_id(&t).await;
        let a = t
            .post("/v1/bareMetals/20002/install", &[("osId", "201")])
            .await;
        assert_eq!(a.status, 200, "{}", a.json);
        let a = t
            .post(&format!("/cloud/v2/virtualServers/{id}/powerOff"), &[])
            .await;
        assert_eq!(a.status, 202, "{}", a.json);
        if kill {
            std::mem::forget(t);
        } else {
            drop(t);
        }
        tokio::time::sleep(Duration::from_millis(1200)).await;
        let t = start(cfg(&file, 500.0)).await;
        let s = t.get("/v1/bareMetals/20002/installationStatus").await.json;
        assert_eq!(
            s["installationStatus"]["description"], "Normal",
            "kill={kill}: {s}"
        );
        let v = t.get(&format!("/cloud/v2/virtualServers/{id}")).await.json;
        assert_eq!(v["state"], "STOPPED", "kill={kill}: {v}");
        drop(t);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// A change to a document, and what its refusal must say.
type Case = (Box<dyn FnOnce(&mut Value)>, &'static str);

/// Import `doc` with `f` applied; answers the error.
fn refused(sim: &Sim, base: &Value, f: impl FnOnce(&mut Value)) -> String {
    let mut doc = base.clone();
    f(&mut doc);
    match sim.import_state(doc) {
        Err(SimError::Config(e)) => e,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[tokio::test]
async fn imports_are_checked_inside_with_the_path_of_what_is_wrong() {
    let t = fast().await;
    let base = t.sim.export_state();
    let before = t.sim.export_state();
    let cases: Vec<Case> = vec![
        (
            Box::new(|d| d["state"]["acl"] = json!("nope")),
            "state.acl: must be an object",
        ),
        (
            Box::new(|d| d["state"]["acl"]["content"]["GET"] = json!("yes")),
            "state.acl.content.GET",
        ),
        (
            Box::new(|d| d["state"]["next_origin"] = json!(101)),
            "state.next_origin: 101 is not above the largest id in use (104)",
        ),
        (
            Box::new(|d| d["state"]["next_purge"] = json!(1)),
            "state.next_purge",
        ),
        (
            Box::new(|d| d["simTime"] = json!(-1e18)),
            "simTime: must be a Unix time",
        ),
        (
            Box::new(|d| d["state"]["bare_metals"] = json!({"3": {"bogus": 1}})),
            "state.bare_metals.3.bogus: unknown field `bogus`",
        ),
        (
            Box::new(|d| d["state"]["cloud"] = json!({"0": {"reinstalls": "many"}})),
            "state.cloud.0.reinstalls: invalid type",
        ),
        (
            Box::new(|d| d["state"]["cloud"] = json!({"999999": {"reinstalls": 1}})),
            "state.cloud.999999: no cloud server with index 999999",
        ),
        (
            Box::new(|d| {
                d["state"]["private_networks"]["501"]["members"][0]["bm"] = json!(5000);
            }),
            "state.private_networks.501.members[0].bm",
        ),
        (
            Box::new(|d| {
                d["state"]["domains"] = json!({"0": {"ttl": 600, "records": [
                    {"id": 9000001, "host": "acme-1.com", "rtype": "TXT",
                     "content": "x".repeat(5000), "priority": null}]}});
                d["state"]["next_dns_record"] = json!(5);
            }),
            "state.domains.0.records[0].content: at most 4096 bytes",
        ),
        (
            Box::new(|d| {
                d["version"] = json!(3);
                d["newField"] = json!(true);
            }),
            "version: 3 is newer than this simulator reads",
        ),
        (
            Box::new(|d| d["format"] = json!("other")),
            "format: expected",
        ),
    ];
    for (f, want) in cases {
        let e = refused(&t.sim, &base, f);
        assert!(e.contains(want), "expected {want:?} in {e:?}");
    }
    // Nothing was changed by the refused imports.
    assert_eq!(t.sim.export_state()["state"], before["state"]);
    // Over HTTP: 400 with the path.
    let mut doc = base.clone();
    doc["state"]["acl"] = json!("nope");
    let r = t
        .http
        .put(format!("{}/state", t.sim.control_url()))
        .json(&doc)
        .send()
        .await
        .unwrap();
    let a = read(r).await;
    assert_eq!(a.status, 400);
    assert!(
        a.json["error"].as_str().unwrap().contains("state.acl"),
        "{}",
        a.json
    );
}

#[tokio::test]
async fn a_state_file_is_checked_at_start_too() {
    let dir = temp_dir("bad-start");
    let file = dir.join("state.json");
    let t = fast().await;
    let mut doc = t.sim.export_state();
    doc["state"]["next_origin"] = json!(101);
    std::fs::write(&file, serde_json::to_vec(&doc).unwrap()).unwrap();
    match Sim::start(cfg(&file, 1.0)).await {
        Err(SimError::State(e)) => {
            assert!(
                e.contains("state.json") && e.contains("state.next_origin"),
                "{e}"
            )
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    // A version-1 document (as earlier simulators wrote) loads.
    let mut v1 = t.sim.export_state();
    v1["version"] = json!(1);
    std::fs::write(&file, serde_json::to_vec(&v1).unwrap()).unwrap();
    let s = start(cfg(&file, 1.0)).await;
    assert_eq!(s.sim.export_state()["state"], v1["state"]);
    drop(s);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[tokio::test]
async fn the_files_are_private_and_stale_temporaries_are_removed() {
    use std::os::unix::fs::PermissionsExt;
    let dir = temp_dir("modes");
    let file = dir.join("state.json");
    // Left by a process that died while saving (no such pid runs).
    let stale = dir.join("state.json.tmp.4194999");
    std::fs::write(&stale, b"{").unwrap();
    let t = start(cfg(&file, 1.0)).await;
    assert!(!stale.exists());
    t.put("/v1/domains/acme-1.com", &[("ttl", "900")]).await;
    for f in ["state.json", "state.json.log"] {
        let mode = std::fs::metadata(dir.join(f)).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "{f}: {mode:o}");
    }
    drop(t);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn a_log_without_its_snapshot_is_not_replayed() {
    let dir = temp_dir("orphan-log");
    let file = dir.join("state.json");
    let t = start(cfg(&file, 1.0)).await;
    t.put("/v1/domains/acme-1.com", &[("ttl", "900")]).await;
    std::mem::forget(t);
    // A reset by deleting the state file.
    std::fs::remove_file(&file).unwrap();
    let t = start(cfg(&file, 1.0)).await;
    let d = t.get("/v1/domains/acme-1.com").await.json;
    assert_ne!(int(&d["domain"]["ttl"]), Some(900), "{d}");
    drop(t);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn bodies_records_and_purges_are_capped_in_bytes() {
    let t = fast().await;
    let c = t.customer();
    let big = "x".repeat(hostapi_sim::MAX_BODY_BYTES + 1);
    let r = t
        .http
        .put(t.url("/v1/domains/acme-1.com"))
        .header("X-Svc-Auth", t.sim.api_key())
        .header("Content-Type", "application/x-www-form-urlencoded")
        .body(format!("ttl=600&x={big}"))
        .send()
        .await
        .unwrap();
    let a = read(r).await;
    assert_eq!(a.status, 413);
    assert!(
        a.json["errorMessage"].as_str().unwrap().contains("KiB"),
        "{}",
        a.json
    );
    let d = "/v1/domains/acme-1.com/dnsRecords";
    let txt = "y".repeat(hostapi_sim::MAX_DNS_TXT_BYTES + 1);
    let a = t
        .post(
            d,
            &[("host", "acme-1.com"), ("type", "TXT"), ("content", &txt)],
        )
        .await;
    assert_eq!(a.status, 400, "{}", a.json);
    assert!(
        a.json["errorMessage"]
            .as_str()
            .unwrap()
            .starts_with("content: at most 4096 bytes")
    );
    let txt = "y".repeat(hostapi_sim::MAX_DNS_TXT_BYTES);
    let a = t
        .post(
            d,
            &[("host", "acme-1.com"), ("type", "TXT"), ("content", &txt)],
        )
        .await;
    assert_eq!(a.status, 200, "{}", a.json);
    let caa = format!("0 issue \"{}\"", "z".repeat(250));
    let a = t
        .post(
            d,
            &[("host", "acme-1.com"), ("type", "CAA"), ("content", &caa)],
        )
        .await;
    assert_eq!(a.status, 400, "{}", a.json);
    let path = format!("/content/purge/{c}/1001");
    let purge = |urls: Vec<String>| {
        t.cdn(
            Method::POST,
            &path,
            Some(("application/json", json!({ "urls": urls }).to_string())),
        )
    };
    let a = purge(vec![format!(
        "/{}",
        "u".repeat(hostapi_sim::MAX_PURGE_URL_BYTES)
    )])
    .await;
    assert_eq!(a.status, 400, "{}", a.json);
    let a = purge(
        (0..20)
            .map(|k| format!("/{k}/{}", "u".repeat(1000)))
            .collect(),
    )
    .await;
    assert_eq!(a.status, 400, "{}", a.json);
    assert!(
        a.json["errorMessage"]
            .as_str()
            .unwrap()
            .contains("bytes in all"),
        "{}",
        a.json
    );
    let a = purge(
        (0..15)
            .map(|k| format!("/{k}/{}", "u".repeat(1000)))
            .collect(),
    )
    .await;
    assert_eq!(a.status, 200, "{}", a.json);
}

#[tokio::test]
async fn the_state_is_capped_in_bytes_and_its_export_imports_again() {
    let t = fast().await;
    // Fill the state close to its cap with 4 KiB TXT records.
    let mut doc = t.sim.export_state();
    let per = 4096 + 80;
    let n = (hostapi_sim::MAX_STATE_BYTES - (20 << 10)) / per;
    let recs: Vec<Value> = (0..n as u64)
        .map(|k| {
            json!({"id": 9_000_001 + k, "host": "acme-1.com", "rtype": "TXT",
                   "content": "t".repeat(4096), "priority": null})
        })
        .collect();
    doc["state"]["domains"] = json!({"0": {"ttl": null, "records": recs}});
    doc["state"]["next_dns_record"] = json!(n + 1);
    t.sim.import_state(doc).expect("import");
    let d = "/v1/domains/acme-1.com/dnsRecords";
    let txt = "w".repeat(4096);
    let mut refused = None;
    for k in 0..64 {
        let a = t
            .post(
                d,
                &[("host", "acme-1.com"), ("type", "TXT"), ("content", &txt)],
            )
            .await;
        if a.status != 200 {
            refused = Some((k, a));
            break;
        }
    }
    let (k, a) = refused.expect("a write past the cap is refused");
    assert!(k > 0, "room for some records first");
    assert_eq!(a.status, 409, "{}", a.json);
    assert!(
        a.json["errorMessage"]
            .as_str()
            .unwrap()
            .contains("MiB of state"),
        "{}",
        a.json
    );
    // Reads and deletes still work; the refused record is not there.
    let list = t.get(d).await;
    assert_eq!(list.status, 200);
    assert_eq!(list.json["dnsRecords"].as_array().unwrap().len(), n + k);
    // The export fits the import limit and imports again.
    let r = t
        .http
        .get(format!("{}/state", t.sim.control_url()))
        .send()
        .await
        .unwrap();
    let bytes = r.bytes().await.unwrap();
    assert!(
        bytes.len() <= hostapi_sim::MAX_IMPORT_BYTES,
        "{}",
        bytes.len()
    );
    let r = t
        .http
        .put(format!("{}/state", t.sim.control_url()))
        .header("Content-Type", "application/json")
        .body(bytes)
        .send()
        .await
        .unwrap();
    let a = read(r).await;
    assert_eq!(a.status, 200, "{}", a.json);
}
