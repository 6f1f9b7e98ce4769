//! The sandbox remembers: a change made by one `hostapi --sandbox` run is seen by
//! the next; two runs at once both land; `hostapi sandbox status|reset`.

mod common;

use std::path::Path;

use common::{TempDir, command};

/// `hostapi <line>` with the sandbox remembering where users' do: under HOME.
fn remembering(home: &Path, line: &str) -> common::Run {
    let mut c = command(home);
    c.env_remove("HOSTAPI_SANDBOX_STATE")
        .args(line.split_whitespace());
    common::finish(c)
}

fn sandboxed(home: &Path, args: &str) -> std::process::Command {
    let mut c = command(home);
    c.env_remove("HOSTAPI_SANDBOX_STATE");
    c.arg("--sandbox").args(args.split_whitespace());
    c
}

fn ttl(home: &Path, domain: &str) -> i64 {
    let run = remembering(
        home,
        &format!("--sandbox domains get {domain} --output json"),
    )
    .ok();
    let v = run.json();
    v["ttl"]
        .as_i64()
        .or_else(|| v["domain"]["ttl"].as_i64())
        .unwrap_or_else(|| panic!("no ttl in {v}"))
}

#[test]
fn a_change_is_seen_by_the_next_run_until_reset() {
    let home = TempDir::new("remember");
    let before = ttl(home.path(), "acme-1.com");
    assert_ne!(before, 7200);
    remembering(home.path(), "--sandbox domains set-ttl acme-1.com 7200").ok();
    assert_eq!(ttl(home.path(), "acme-1.com"), 7200);

    let status = remembering(home.path(), "sandbox status --output json")
        .ok()
        .json();
    let file = status["stateFile"].as_str().unwrap().to_string();
    assert!(
        file.starts_with(home.path().to_str().unwrap()) && file.ends_with("hostapi/sandbox.json"),
        "{file}"
    );
    assert_eq!(status["exists"], true);
    assert_eq!(status["writes"], 1);
    assert!(status["simTime"].as_f64().is_some());
    let text = remembering(home.path(), "sandbox status").ok().stdout;
    assert!(
        text.contains("sandbox.json") && text.contains("seed:"),
        "{text}"
    );

    remembering(home.path(), "sandbox reset").ok();
    assert_eq!(ttl(home.path(), "acme-1.com"), before);
}

#[test]
fn two_runs_at_once_both_land() {
    let home = TempDir::new("concurrent");
    let spawn = |line: &str| {
        sandboxed(home.path(), line)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("spawn")
    };
    let a = spawn("domains set-ttl acme-1.com 7200");
    let b = spawn("domains set-ttl bluebird-2.net 10800");
    for child in [a, b] {
        let out = child.wait_with_output().expect("wait");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert_eq!(ttl(home.path(), "acme-1.com"), 7200);
    assert_eq!(ttl(home.path(), "bluebird-2.net"), 10800);
    let status = remembering(home.path(), "sandbox status --output json")
        .ok()
        .json();
    assert_eq!(status["writes"], 2);
}
