//! The simulator as a CI service: a bind address with its control-token
//! rule, https with a generated certificate authority, and a prompt exit on
//! SIGTERM. Tests only ever connect to 127.0.0.1 (`0.0.0.0` includes it).

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::*;
use hostapi_sim::{SimConfig, TlsConfig};
use serde_json::Value;

fn every_address() -> std::net::IpAddr {
    std::net::Ipv4Addr::UNSPECIFIED.into()
}

#[tokio::test]
async fn on_every_address_the_control_api_needs_its_token() {
    let t = start(SimConfig {
        host: every_address(),
        ..Default::default()
    })
    .await;
    assert!(t.sim.addr().ip().is_unspecified());
    assert!(t.sim.base_url().starts_with("http://127.0.0.1:"));
    let token = t
        .sim
        .control_token()
        .expect("a token is generated")
        .to_string();
    assert_eq!(token.len(), 32);

    let faults = format!("{}/faults", t.sim.control_url());
    let r = t.http.get(&faults).send().await.unwrap();
    assert_eq!(r.status(), 401, "even from loopback");
    assert_eq!(r.headers()["www-authenticate"], "Bearer");
    let r = t
        .http
        .get(&faults)
        .bearer_auth("wrong")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 403);
    let r = t
        .http
        .get(&faults)
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let reset = format!("{}/reset", t.sim.control_url());
    assert_eq!(t.http.post(&reset).send().await.unwrap().status(), 401);
    // Health answers without a token: container health checks poll it.
    let health = format!("{}/health", t.sim.control_url());
    assert_eq!(t.http.get(&health).send().await.unwrap().status(), 200);
    assert_eq!(t.http.delete(&health).send().await.unwrap().status(), 401);
    // The interfaces themselves answer as ever.
    assert_eq!(t.get("/v1/domains").await.status, 200);
}

#[tokio::test]
async fn a_given_token_is_required_on_loopback_too_and_checked() {
    let t = start(SimConfig {
        control_token: Some("s3cret-token".into()),
        ..Default::default()
    })
    .await;
    let url = format!("{}/requests", t.sim.control_url());
    assert_eq!(t.http.get(&url).send().await.unwrap().status(), 401);
    let r = t
        .http
        .get(&url)
        .bearer_auth("s3cret-token")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let e = hostapi_sim::Sim::start(SimConfig {
        control_token: Some("has space".into()),
        ..Default::default()
    })
    .await
    .unwrap_err();
    assert!(e.to_string().contains("control token"), "{e}");
    // Without a token on loopback: no token needed (as before).
    let u = start(SimConfig::default()).await;
    assert!(u.sim.control_token().is_none());
    let r = u
        .http
        .get(format!("{}/health", u.sim.control_url()))
        .send()
        .await;
    assert_eq!(r.unwrap().status(), 200);
}

#[tokio::test]
async fn tls_serves_https_that_a_client_trusting_the_authority_accepts() {
    let dir = std::env::temp_dir().join(format!("hostapi-sim-tls-test-{}", std::process::id()));
    let t = start(SimConfig {
        tls: Some(TlsConfig {
            names: vec!["sim".into()],
            dir: Some(dir.clone()),
        }),
        ..Default::default()
    })
    .await;
    assert!(t.sim.base_url().starts_with("https://127.0.0.1:"));
    let ca_file = t.sim.ca_file().unwrap().to_path_buf();
    assert_eq!(ca_file, dir.join("ca.pem"));
    let pem = std::fs::read(&ca_file).unwrap();
    assert_eq!(pem, t.sim.ca_pem().unwrap().as_bytes());

    let trusting = reqwest::Client::builder()
        .tls_certs_only(reqwest::Certificate::from_pem_bundle(&pem).unwrap())
        .timeout(TIMEOUT)
        .build()
        .unwrap();
    let r = trusting
        .get(t.url("/v1/domains"))
        .header("X-Svc-Auth", t.sim.api_key())
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let r = trusting
        .get(format!("{}/health", t.sim.control_url()))
        .send()
        .await;
    assert_eq!(r.unwrap().status(), 200);
    // A client that trusts nothing refuses the certificate.
    let untrusting = reqwest::Client::builder()
        .tls_certs_only(Vec::new())
        .timeout(TIMEOUT)
        .build()
        .unwrap();
    assert!(untrusting.get(t.url("/v1/domains")).send().await.is_err());
    // Plain http to the https port gets no answer.
    let plain = t.url("/v1/domains").replacen("https://", "http://", 1);
    let r = t.http.get(plain).send().await;
    assert!(r.is_err() || r.unwrap().status() != 200);
    drop(t);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The binary with `args`, and the JSON line it printed.
fn spawn(args: &[&str]) -> (Child, Value) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hostapi-sim"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let info = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line:?}"));
    (child, info)
}

fn stderr_of(child: &mut Child) -> String {
    let mut s = String::new();
    if let Some(mut e) = child.stderr.take() {
        let _ = std::io::Read::read_to_string(&mut e, &mut s);
    }
    s
}

#[tokio::test]
async fn the_binary_on_every_address_warns_and_prints_its_token() {
    let (mut child, info) = spawn(&["--host", "0.0.0.0", "--port", "0"]);
    let token = info["control_token"].as_str().unwrap().to_string();
    let base = info["base_url"].as_str().unwrap().to_string();
    let http = client();
    let state = format!("{base}/_sim/state");
    let unauth = http.get(&state).send().await.unwrap().status().as_u16();
    let auth = http
        .get(&state)
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .status()
        .as_u16();
    let api = http
        .get(format!("{base}/v1/domains"))
        .header("X-Svc-Auth", info["api_key"].as_str().unwrap())
        .send()
        .await
        .unwrap()
        .status()
        .as_u16();
    let _ = child.kill();
    let _ = child.wait();
    let err = stderr_of(&mut child);
    assert!(base.starts_with("http://127.0.0.1:"), "{base}");
    assert_eq!((unauth, auth, api), (401, 200, 200));
    assert!(err.contains("warning: listening on 0.0.0.0"), "{err}");
}

#[test]
fn the_binary_refuses_a_latency_past_its_cap() {
    let out = Command::new(env!("CARGO_BIN_EXE_hostapi-sim"))
        .args(["--latency-ms", "60001"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--latency-ms") && err.contains("60000"),
        "{err}"
    );
}

#[cfg(unix)]
#[tokio::test]
async fn sigterm_exits_promptly_with_a_request_in_flight_and_keeps_what_was_answered() {
    let dir = std::env::temp_dir().join(format!("hostapi-sim-term-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let state = dir.join("state.json");
    let state_arg = state.display().to_string();
    let (mut child, info) = spawn(&["--port", "0", "--state", &state_arg]);
    let base = info["base_url"].as_str().unwrap().to_string();
    let key = info["api_key"].as_str().unwrap().to_string();
    let http = client();
    let r = http
        .put(format!("{base}/v1/domains/acme-1.com"))
        .header("X-Svc-Auth", &key)
        .form(&[("ttl", "7200")])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    // A request held for 20 s by an injected latency.
    let slow = tokio::spawn({
        let http = http.clone();
        let url = format!("{base}/v1/domains");
        async move {
            http.get(url)
                .header("X-Svc-Auth", key)
                .header("X-Sim-Fault", "latency=20000")
                .send()
                .await
        }
    });
    tokio::time::sleep(Duration::from_millis(200)).await;
    let sent = Instant::now();
    let pid = child.id().to_string();
    assert!(
        Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap()
            .success()
    );
    let deadline = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(
            Instant::now() < deadline,
            "still running 10 s after SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(10));
    };
    let took = sent.elapsed();
    slow.abort();
    assert!(status.success(), "{status:?}: {}", stderr_of(&mut child));
    assert!(took < Duration::from_millis(1_500), "exit took {took:?}");
    // What was answered before the signal is there at the next start.
    let (mut again, info) = spawn(&["--port", "0", "--state", &state_arg]);
    let base = info["base_url"].as_str().unwrap();
    let r = http
        .get(format!("{base}/v1/domains/acme-1.com"))
        .header("X-Svc-Auth", info["api_key"].as_str().unwrap())
        .send()
        .await
        .unwrap();
    let domain: Value = r.json().await.unwrap();
    let _ = again.kill();
    let _ = again.wait();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(int(&domain["domain"]["ttl"]), Some(7200), "{domain}");
}

#[test]
fn the_binary_takes_its_settings_from_the_environment_too() {
    // A GitHub Actions service container takes no flags, only variables.
    let mut child = Command::new(env!("CARGO_BIN_EXE_hostapi-sim"))
        .args(["--port", "0"])
        .env("HOSTAPI_SIM_API_KEY", "env-key")
        .env("HOSTAPI_SIM_CDN_CUSTOMER", "100001")
        .env("HOSTAPI_SIM_CONTROL_TOKEN", "env-token")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let _ = child.kill();
    let _ = child.wait();
    let info: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(info["api_key"], "env-key");
    assert_eq!(info["cdn_customer"], "100001");
    assert_eq!(info["control_token"], "env-token");
}
