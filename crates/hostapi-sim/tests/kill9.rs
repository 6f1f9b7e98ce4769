//! `--state FILE` survives `kill -9`: every answered write is on disk (in
//! the change log, until a snapshot takes it in), and simulated time goes
//! on from where the killed process left it.

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use common::*;
use serde_json::Value;

struct Proc {
    child: Child,
    base: String,
    key: String,
}

fn spawn(file: &std::path::Path) -> Proc {
    spawn_with(file, &[])
}

fn spawn_with(file: &std::path::Path, extra: &[&str]) -> Proc {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hostapi-sim"))
        .args(["--seed", "4", "--state"])
        .arg(file)
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn hostapi-sim");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("first line");
    let v: Value = serde_json::from_str(&line).expect("JSON line");
    Proc {
        child,
        base: v["base_url"].as_str().expect("base_url").into(),
        key: v["api_key"].as_str().expect("api_key").into(),
    }
}

#[tokio::test]
async fn kill_9_loses_nothing_that_was_answered() {
    let dir = std::env::temp_dir().join(format!("hostapi-sim-kill9-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("state.json");
    let _ = std::fs::remove_file(&file);
    let http = client();
    let mut p = spawn(&file);
    for ttl in ["3600", "7200"] {
        let r = http
            .put(format!("{}/v1/domains/acme-1.com", p.base))
            .header("X-Svc-Auth", &p.key)
            .form(&[("ttl", ttl)])
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200);
    }
    let r = http
        .post(format!("{}/v1/bareMetals/20002/install", p.base))
        .header("X-Svc-Auth", &p.key)
        .form(&[("osId", "201")])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    p.child.kill().unwrap(); // SIGKILL
    p.child.wait().unwrap();
    let mut q = spawn(&file);
    let get = |path: &str| {
        http.get(format!("{}{path}", q.base))
            .header("X-Svc-Auth", &q.key)
            .send()
    };
    let d: Value = get("/v1/domains/acme-1.com")
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let ttl = &d["domain"]["ttl"];
    assert!(ttl == 7200 || ttl == "7200", "{d}");
    let s: Value = get("/v1/bareMetals/20002/installationStatus")
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(s["installationStatus"]["description"], "Installing");
    q.child.kill().unwrap();
    q.child.wait().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The records of acme-1.com: id → content.
async fn records(http: &reqwest::Client, p: &Proc) -> std::collections::HashMap<u64, String> {
    let v: Value = http
        .get(format!("{}/v1/domains/acme-1.com/dnsRecords", p.base))
        .header("X-Svc-Auth", &p.key)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    v["dnsRecords"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let r = &r["dnsRecord"];
            let id = r["id"]
                .as_u64()
                .or_else(|| r["id"].as_str().and_then(|s| s.parse().ok()))
                .unwrap();
            (id, r["content"].as_str().unwrap_or_default().to_string())
        })
        .collect()
}

#[tokio::test]
async fn kill_9_during_bursts_of_concurrent_writes_loses_nothing_answered() {
    let dir = std::env::temp_dir().join(format!("hostapi-sim-kill9-burst-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("state.json");
    let http = client();
    let mut answered: Vec<(u64, String)> = Vec::new();
    for round in 0..6u64 {
        let mut p = spawn(&file);
        let mut tasks = Vec::new();
        for k in 0..150 {
            let (http, base, key) = (http.clone(), p.base.clone(), p.key.clone());
            tasks.push(tokio::spawn(async move {
                let content = format!("r{round}-{k}");
                let r = http
                    .post(format!("{base}/v1/domains/acme-1.com/dnsRecords"))
                    .header("X-Svc-Auth", &key)
                    .form(&[
                        ("host", "acme-1.com"),
                        ("type", "TXT"),
                        ("content", &content),
                    ])
                    .send()
                    .await
                    .ok()?;
                if r.status() != 200 {
                    return None;
                }
                let v: Value = r.json().await.ok()?;
                Some((v["dnsRecord"]["id"].as_u64()?, content))
            }));
        }
        // Kill at a different point of each burst.
        tokio::time::sleep(std::time::Duration::from_millis(30 + round * 90)).await;
        p.child.kill().unwrap(); // SIGKILL
        p.child.wait().unwrap();
        for t in tasks {
            if let Ok(Some(w)) = t.await {
                answered.push(w);
            }
        }
        let mut q = spawn(&file);
        let have = records(&http, &q).await;
        for (id, content) in &answered {
            assert_eq!(
                have.get(id),
                Some(content),
                "round {round}: record {id} lost"
            );
        }
        eprintln!(
            "round {round}: {} answered writes so far, all kept",
            answered.len()
        );
        q.child.kill().unwrap();
        q.child.wait().unwrap();
    }
    assert!(!answered.is_empty(), "some writes were answered");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Create one TXT record in acme-1.com: its id.
async fn create(http: &reqwest::Client, p: &Proc, content: &str) -> u64 {
    let r = http
        .post(format!("{}/v1/domains/acme-1.com/dnsRecords", p.base))
        .header("X-Svc-Auth", &p.key)
        .form(&[
            ("host", "acme-1.com"),
            ("type", "TXT"),
            ("content", content),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let v: Value = r.json().await.unwrap();
    let id = &v["dnsRecord"]["id"];
    id.as_u64()
        .or_else(|| id.as_str().and_then(|s| s.parse().ok()))
        .unwrap_or_else(|| panic!("record id in {v}"))
}

/// Updates and deletes are saved record by record: after `kill -9` during a
/// burst of them, every answered update holds and every answered delete is
/// gone (and the zone's other records are as they were).
#[tokio::test]
async fn kill_9_during_bursts_of_updates_and_deletes_loses_nothing_answered() {
    let dir = std::env::temp_dir().join(format!("hostapi-sim-kill9-edit-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("state.json");
    let http = client();
    // What each record must hold after a restart (None: deleted).
    let mut expected: std::collections::HashMap<u64, Option<String>> = Default::default();
    let mut answered = 0;
    for round in 0..4u64 {
        let mut p = spawn(&file);
        let mut ids = Vec::new();
        for k in 0..60 {
            let content = format!("c{round}-{k}");
            let id = create(&http, &p, &content).await;
            expected.insert(id, Some(content));
            ids.push(id);
        }
        let mut tasks = Vec::new();
        for (k, id) in ids.into_iter().enumerate() {
            let (http, base, key) = (http.clone(), p.base.clone(), p.key.clone());
            tasks.push(tokio::spawn(async move {
                let url = format!("{base}/v1/domains/acme-1.com/dnsRecords/{id}");
                // Every third record deleted, the others updated.
                let attempted = (k % 3 != 0).then(|| format!("u{round}-{k}"));
                let r = match &attempted {
                    None => http.delete(&url).header("X-Svc-Auth", &key).send().await,
                    Some(content) => {
                        http.put(&url)
                            .header("X-Svc-Auth", &key)
                            .form(&[
                                ("host", "acme-1.com"),
                                ("type", "TXT"),
                                ("content", content.as_str()),
                            ])
                            .send()
                            .await
                    }
                };
                let ok = r.is_ok_and(|r| r.status() == 200);
                (id, attempted, ok)
            }));
        }
        // Kill at a different point of each burst.
        tokio::time::sleep(std::time::Duration::from_millis(20 + round * 60)).await;
        p.child.kill().unwrap(); // SIGKILL
        p.child.wait().unwrap();
        let mut outcomes = Vec::new();
        for t in tasks {
            outcomes.push(t.await.unwrap());
        }
        let mut q = spawn(&file);
        let have = records(&http, &q).await;
        for (id, attempted, ok) in outcomes {
            let now = have.get(&id).cloned();
            if ok {
                answered += 1;
                assert_eq!(now, attempted, "round {round}: answered write to {id} lost");
            } else {
                // Not answered: saved or not, either is right.
                let before = expected.get(&id).cloned().flatten();
                assert!(
                    now == attempted || now == before,
                    "round {round}: record {id} is {now:?}, neither {before:?} nor {attempted:?}"
                );
            }
            expected.insert(id, now);
        }
        for (id, want) in &expected {
            assert_eq!(have.get(id), want.as_ref(), "round {round}: record {id}");
        }
        eprintln!("round {round}: {answered} answered updates and deletes so far, all kept");
        q.child.kill().unwrap();
        q.child.wait().unwrap();
    }
    assert!(answered > 0, "some updates or deletes were answered");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn simulated_time_goes_on_after_kill_9() {
    let dir = std::env::temp_dir().join(format!("hostapi-sim-kill9-time-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("state.json");
    let http = client();
    // An install takes 300 simulated seconds: 0.6 s at this scale.
    let mut p = spawn_with(&file, &["--time-scale", "500"]);
    let r = http
        .post(format!("{}/v1/bareMetals/20002/install", p.base))
        .header("X-Svc-Auth", &p.key)
        .form(&[("osId", "201")])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    p.child.kill().unwrap();
    p.child.wait().unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(1200)).await;
    let mut q = spawn_with(&file, &["--time-scale", "500"]);
    let s: Value = http
        .get(format!("{}/v1/bareMetals/20002/installationStatus", q.base))
        .header("X-Svc-Auth", &q.key)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(s["installationStatus"]["description"], "Normal", "{s}");
    q.child.kill().unwrap();
    q.child.wait().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn help_documents_the_control_api_and_the_state_file() {
    let out = Command::new(env!("CARGO_BIN_EXE_hostapi-sim"))
        .arg("--help")
        .output()
        .expect("run --help");
    let text = String::from_utf8_lossy(&out.stdout);
    for needle in [
        "--state <FILE>",
        "--cdn-clock-skew",
        "--cdn-clock",
        "/_sim/health",
        "/_sim/reset",
        "/_sim/state",
        "/_sim/clock/advance",
        "/_sim/faults",
        "/_sim/requests",
    ] {
        assert!(text.contains(needle), "{needle} missing from:\n{text}");
    }
}
