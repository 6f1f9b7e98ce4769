//! A small, bounded load generator for the simulator.
//!
//! ```text
//! cargo run --release -p hostapi-sim --example loadgen -- [REQUESTS] [CONCURRENCY] [PATH] [BASE_URL API_KEY]
//! ```
//!
//! Sends REQUESTS (default 20000) GETs of PATH (default
//! `/v1/operatingSystems/205`) over CONCURRENCY (default 32) keep-alive
//! connections and prints requests per second. Without BASE_URL it starts
//! an in-process simulator (of size `$SIM_SIZE`, default 0) and prints its
//! start-up time. Loopback only; stops after 60 s at most.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let requests: u64 = args.first().and_then(|s| s.parse().ok()).unwrap_or(20_000);
    let concurrency: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(32);
    let path = args
        .get(2)
        .cloned()
        .unwrap_or_else(|| "/v1/operatingSystems/205".into());
    let (_sim, base, key) = match (args.get(3), args.get(4)) {
        (Some(b), Some(k)) => (None, b.clone(), k.clone()),
        _ => {
            let size = std::env::var("SIM_SIZE")
                .ok()
                .and_then(|s| s.parse().ok())
                .unwrap_or(0);
            let t0 = Instant::now();
            let sim = hostapi_sim::Sim::start(hostapi_sim::SimConfig::default().with_size(size))
                .await
                .expect("start");
            println!("in-process start-up (size {size}): {:?}", t0.elapsed());
            let (b, k) = (sim.base_url(), sim.api_key().to_string());
            (Some(sim), b, k)
        }
    };
    assert!(
        base.starts_with("http://127.") || base.starts_with("http://localhost"),
        "loopback only"
    );
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .pool_max_idle_per_host(concurrency as usize)
        .build()
        .expect("client");
    let url = format!("{base}{path}");
    let next = Arc::new(AtomicU64::new(0));
    let errors = Arc::new(AtomicU64::new(0));
    let deadline = Instant::now() + Duration::from_secs(60);
    let t0 = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..concurrency {
        let (client, url, key, next, errors) = (
            client.clone(),
            url.clone(),
            key.clone(),
            next.clone(),
            errors.clone(),
        );
        tasks.push(tokio::spawn(async move {
            while next.fetch_add(1, Ordering::Relaxed) < requests && Instant::now() < deadline {
                let ok = match client.get(&url).header("X-Svc-Auth", &key).send().await {
                    Ok(r) => r.status().is_success() && r.bytes().await.is_ok(),
                    Err(_) => false,
                };
                if !ok {
                    errors.fetch_add(1, Ordering::Relaxed);
                }
            }
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
    let secs = t0.elapsed().as_secs_f64();
    let done = next.load(Ordering::Relaxed).min(requests);
    println!(
        "{done} requests, {concurrency} connections, {:.2} s: {:.0} requests/s, {} errors",
        secs,
        done as f64 / secs,
        errors.load(Ordering::Relaxed)
    );
}
