//! Acknowledged writes per second with a 10,000-record state kept in a
//! state file: 64 clients on loopback each update DNS records one after
//! another; a write counts once it is answered (its change is on disk).
//!
//! `cargo bench -p hostapi-sim --bench writes` (criterion reports the
//! throughput in writes/s as `elem/s`); add `--profile dev` for a debug
//! build. Method and results: docs/simulator.md, "Performance".

use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use hostapi_sim::{Sim, SimConfig};
use serde_json::{Value, json};

/// Records in the state.
const RECORDS: u64 = 10_000;
/// Clients writing at once.
const CLIENTS: usize = 64;
/// Writes per measured batch.
const BATCH: usize = 1024;

struct Setup {
    sim: Sim,
    http: reqwest::Client,
    /// (domain name, record ids) of the editable domains filled.
    domains: Vec<(String, Vec<u64>)>,
    _dir: TempDir,
}

struct TempDir(std::path::PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

async fn setup(on_disk: bool) -> Setup {
    let dir = std::env::temp_dir().join(format!("hostapi-sim-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let sim = Sim::start(SimConfig {
        seed: 1,
        state_file: on_disk.then(|| dir.join("state.json")),
        ..Default::default()
    })
    .await
    .expect("start");
    let _ = rustls::crypto::ring::default_provider().install_default();
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(CLIENTS)
        .build()
        .expect("client");
    // The editable domains (index % 4 < 2), 1,000 TXT records each.
    let list: Value = http
        .get(format!("{}/v1/domains", sim.base_url()))
        .header("X-Svc-Auth", sim.api_key())
        .send()
        .await
        .expect("list domains")
        .json()
        .await
        .expect("domains JSON");
    let names: Vec<String> = list["domains"]
        .as_array()
        .expect("domains")
        .iter()
        .filter_map(|d| d["domain"]["domain"].as_str().map(str::to_string))
        .collect();
    let editable: Vec<usize> = (0..names.len()).filter(|i| i % 4 < 2).collect();
    let per = RECORDS / editable.len() as u64;
    let mut doc = sim.export_state();
    let mut domains_doc = serde_json::Map::new();
    let mut domains = Vec::new();
    let mut next = 0u64;
    for &i in &editable {
        let mut recs = Vec::new();
        let mut ids = Vec::new();
        for _ in 0..per {
            next += 1;
            let id = 9_000_000 + next;
            ids.push(id);
            recs.push(json!({
                "id": id, "host": names[i], "rtype": "TXT",
                "content": format!("v=bench{next} {}", "x".repeat(240)), "priority": null,
            }));
        }
        domains_doc.insert(i.to_string(), json!({"ttl": null, "records": recs}));
        domains.push((names[i].clone(), ids));
    }
    doc["state"]["domains"] = Value::Object(domains_doc);
    doc["state"]["next_dns_record"] = json!(next);
    sim.import_state(doc)
        .expect("import the 10,000-record state");
    Setup {
        sim,
        http,
        domains,
        _dir: TempDir(dir),
    }
}

/// `BATCH` record updates from `CLIENTS` clients; answers the time taken.
async fn batch(s: &Setup, round: u64) -> Duration {
    let start = Instant::now();
    let mut tasks = Vec::with_capacity(CLIENTS);
    for c in 0..CLIENTS {
        let http = s.http.clone();
        let base = s.sim.base_url();
        let key = s.sim.api_key().to_string();
        let (name, ids) = s.domains[c % s.domains.len()].clone();
        tasks.push(tokio::spawn(async move {
            for k in 0..BATCH / CLIENTS {
                let id = ids[(c + k * CLIENTS) % ids.len()];
                let content = format!("v=round{round} {c} {k}");
                let r = http
                    .put(format!("{base}/v1/domains/{name}/dnsRecords/{id}"))
                    .header("X-Svc-Auth", &key)
                    .form(&[
                        ("host", name.as_str()),
                        ("type", "TXT"),
                        ("content", &content),
                    ])
                    .send()
                    .await
                    .expect("send");
                assert_eq!(r.status(), 200, "write refused");
            }
        }));
    }
    for t in tasks {
        t.await.expect("client task");
    }
    start.elapsed()
}

fn writes(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let mut g = c.benchmark_group("sim_state_file");
    g.throughput(Throughput::Elements(BATCH as u64));
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(10));
    // The same writes without a state file: what the handlers cost alone.
    for (name, on_disk) in [
        ("acknowledged_writes_10k_records", true),
        ("writes_10k_records_in_memory", false),
    ] {
        let s = rt.block_on(setup(on_disk));
        let mut round = 0;
        g.bench_function(name, |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    round += 1;
                    total += rt.block_on(batch(&s, round));
                }
                total
            })
        });
        rt.block_on(s.sim.shutdown());
    }
    g.finish();
}

criterion_group!(benches, writes);
criterion_main!(benches);
