//! `--state FILE` survives `kill -9`: every answered write is on disk.

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
    let mut child = Command::new(env!("CARGO_BIN_EXE_hostapi-sim"))
        .args(["--seed", "4", "--state"])
        .arg(file)
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
