//! How to test your own code against `hostapi-sim`: copy this file.
//!
//! The simulator runs in the test's process on a free port of 127.0.0.1. Point a
//! client at it, call your code, then steer and inspect the simulator from Rust
//! (the same as its HTTP control API under `/_sim/`): inject a fault into one
//! operation, move simulated time forward, read the journal of requests it got.

use hostapi::Client;
use hostapi::bare_metal::InstallRequest;
use hostapi::types::{BareMetalId, OperatingSystemId};
use hostapi_sim::{FaultRule, Sim, SimConfig};

/// A simulator (seed 7: the same data every run) and a client for it.
async fn sandbox() -> (Sim, Client) {
    let sim = Sim::start(SimConfig::default().with_seed(7))
        .await
        .expect("the simulator starts");
    let client = Client::builder()
        .base_url(sim.base_url())
        .api_key(sim.api_key())
        .cdn_base_url(sim.cdn_base_url())
        .cdn_secret(sim.cdn_secret())
        .cdn_customer(sim.cdn_customer())
        .build()
        .expect("a client");
    (sim, client)
}

/// "Your code": the number of domains, as an application would count them.
async fn count_domains(client: &Client) -> Result<usize, hostapi::Error> {
    Ok(client.domains().list().await?.len())
}

#[tokio::test]
async fn my_code_survives_one_unavailable_answer() {
    let (sim, client) = sandbox().await;
    let expected = count_domains(&client).await.expect("a healthy read");

    // The next `GET /v1/domains` answers 503 (with Retry-After: 0), once.
    sim.add_faults(vec![FaultRule {
        operation: "GET /v1/domains".into(),
        fault: "status".into(),
        status: Some(503),
        retry_after: Some(0),
        times: Some(1),
        ..Default::default()
    }])
    .expect("a valid rule");
    sim.clear_requests();
    assert_eq!(count_domains(&client).await.expect("retried"), expected);

    // The journal shows what the client did: a 503, then a retry that worked.
    let statuses: Vec<_> = sim
        .requests(Some("GET /v1/domains"))
        .iter()
        .map(|r| r.status)
        .collect();
    assert_eq!(statuses, [Some(503), Some(200)]);
    sim.shutdown().await;
}

#[tokio::test]
async fn an_installation_finishes_when_simulated_time_moves_on() {
    let (sim, client) = sandbox().await;
    let server = BareMetalId::new("20001").expect("an id");
    let os = OperatingSystemId::new("201").expect("an id");
    client
        .bare_metals()
        .install(&server, &InstallRequest::new(os))
        .await
        .expect("installation starts");
    let status = client.bare_metals().installation_status(&server).await;
    assert!(!status.expect("a status").is_idle(), "installing");

    // Rather than sleep, move simulated time past the installation.
    sim.advance_clock(hostapi_sim::INSTALL_SECS)
        .expect("time moves on");
    let status = client.bare_metals().installation_status(&server).await;
    assert!(status.expect("a status").is_idle(), "installed");
    sim.shutdown().await;
}
