//! When the disk refuses the state file, a write is not applied and is
//! answered 503; reads keep working and everything is journaled. The disk
//! is made to refuse with a file size limit (`ulimit -f`) on the process.
#![cfg(unix)]

mod common;

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use common::*;
use serde_json::Value;

struct Proc {
    child: Child,
    base: String,
    key: String,
}

/// The simulator on `file`, its files limited to `blocks` × 512 bytes.
fn spawn(file: &std::path::Path, blocks: Option<u32>) -> Proc {
    let bin = env!("CARGO_BIN_EXE_hostapi-sim");
    let mut cmd = match blocks {
        Some(b) => {
            let mut c = Command::new("sh");
            c.arg("-c")
                .arg(format!(
                    "trap '' XFSZ; ulimit -f {b} && exec \"$0\" --seed 4 --state \"$1\""
                ))
                .arg(bin)
                .arg(file);
            c
        }
        None => {
            let mut c = Command::new(bin);
            c.args(["--seed", "4", "--state"]).arg(file);
            c
        }
    };
    let mut child = cmd
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

async fn contents(http: &reqwest::Client, p: &Proc) -> HashMap<String, u16> {
    let r = http
        .get(format!("{}/v1/domains/acme-1.com/dnsRecords", p.base))
        .header("X-Svc-Auth", &p.key)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200, "reads keep working");
    let v: Value = r.json().await.unwrap();
    v["dnsRecords"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["dnsRecord"]["content"].as_str())
        .map(|c| (c.to_string(), 0))
        .collect()
}

#[tokio::test]
async fn a_write_the_disk_refuses_is_not_applied_and_answered_503() {
    let dir = std::env::temp_dir().join(format!("hostapi-sim-disk-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("state.json");
    let http = client();
    // 32 KiB per file: the first snapshot fits, a few 4 KiB records more do not.
    let mut p = spawn(&file, Some(64));
    let mut answered = Vec::new();
    let mut refused = Vec::new();
    for k in 0..20 {
        let content = format!("{k:02}{}", "d".repeat(4000));
        let r = http
            .post(format!("{}/v1/domains/acme-1.com/dnsRecords", p.base))
            .header("X-Svc-Auth", &p.key)
            .form(&[
                ("host", "acme-1.com"),
                ("type", "TXT"),
                ("content", &content),
            ])
            .send()
            .await
            .unwrap();
        let status = r.status().as_u16();
        let v: Value = r.json().await.unwrap();
        match status {
            200 => {
                assert!(
                    refused.is_empty(),
                    "a write answered after the disk refused"
                );
                answered.push(content);
            }
            503 => {
                let msg = v["errorMessage"].as_str().unwrap_or_default();
                assert!(msg.contains("could not save its state file"), "{v}");
                refused.push(content);
            }
            other => panic!("unexpected {other}: {v}"),
        }
    }
    assert!(
        !answered.is_empty() && !refused.is_empty(),
        "{answered:?} {refused:?}"
    );
    // The refused writes are not applied; the answered ones are.
    let have = contents(&http, &p).await;
    for c in &answered {
        assert!(have.contains_key(c), "answered write missing");
    }
    for c in &refused {
        assert!(!have.contains_key(c), "refused write applied");
    }
    // Everything is journaled, the 503s included.
    let j: Value = http
        .get(format!("{}/_sim/requests", p.base))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let statuses: Vec<u64> = j["requests"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["method"] == "POST" && e["path"] == "/v1/domains/acme-1.com/dnsRecords")
        .filter_map(|e| e["status"].as_u64())
        .collect();
    assert_eq!(
        statuses.iter().filter(|s| **s == 503).count(),
        refused.len(),
        "{j}"
    );
    assert_eq!(
        statuses.iter().filter(|s| **s == 200).count(),
        answered.len(),
        "{j}"
    );
    p.child.kill().unwrap();
    p.child.wait().unwrap();
    // After a restart (without the limit): the answered writes, nothing else.
    let mut q = spawn(&file, None);
    let have = contents(&http, &q).await;
    for c in &answered {
        assert!(have.contains_key(c), "answered write lost");
    }
    for c in &refused {
        assert!(!have.contains_key(c), "refused write saved");
    }
    q.child.kill().unwrap();
    q.child.wait().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}
