//! What the benchmarks share: a simulator with 10,000 v1 virtual servers, 1,000 bare
//! metals and 100,000 cloud servers (size 100000) on its own runtime, the facade
//! client and a bare reqwest client pointed at it, and the client runtime.
//!
//! The clients and the simulator run on different CPUs when the machine has two or
//! more: the clients' thread (this one) on the first CPU it may use, the simulator's
//! threads on the others, as a client and its server would run on two machines.
//! Left to the scheduler, the client thread and the simulator's two workers shared
//! two cores and where the scheduler put them decided the bulk benchmark: the same
//! 1,000 bare reqwest reads ran at anything from 18,000 to 33,000 a second from one
//! unit to the next (and the facade's at 13,000 to 30,000), so that the ratio of
//! identical runs ranged from 0.62 to 0.99.

use std::time::Duration;

use hostapi_sim::{Sim, SimConfig};
use rustix::thread::{CpuSet, sched_getaffinity, sched_setaffinity};
use tokio::runtime::Runtime;

/// The simulator's size knob: 100,000 cloud servers, 10,000 v1 virtual servers, 1,000
/// bare metals.
pub(crate) const SIM_SIZE: usize = 100_000;

/// The running simulator and the clients of the benchmarks.
pub(crate) struct World {
    /// Runs the clients (one thread: every call of a benchmark, and the connections'
    /// own tasks, run there, for the facade and for bare reqwest alike).
    pub(crate) runtime: Runtime,
    pub(crate) client: hostapi::Client,
    pub(crate) http: reqwest::Client,
    pub(crate) base_url: String,
    pub(crate) api_key: String,
    sim: Option<Sim>,
    /// Runs the simulator; kept last so it outlives the simulator's shutdown.
    sim_runtime: Runtime,
}

impl World {
    pub(crate) fn start() -> Self {
        let cpus = Cpus::split();
        let sim_runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("sim")
            .on_thread_start(move || {
                if let Some(cpus) = cpus {
                    pin_this_thread(&cpus.server);
                }
            })
            .enable_all()
            .build()
            .expect("the simulator's runtime starts");
        let sim = sim_runtime
            .block_on(Sim::start(
                SimConfig::default().with_seed(9).with_size(SIM_SIZE),
            ))
            .expect("the simulator starts");
        if let Some(cpus) = cpus {
            pin_this_thread(&cpus.client);
        }
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("the client runtime starts");
        let client = hostapi::Client::builder()
            .base_url(sim.base_url())
            .api_key(sim.api_key())
            .build()
            .expect("the facade client builds");
        let _ = rustls::crypto::ring::default_provider().install_default();
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(30))
            .build()
            .expect("the reqwest client builds");
        Self {
            runtime,
            client,
            http,
            base_url: sim.base_url(),
            api_key: sim.api_key().to_owned(),
            sim: Some(sim),
            sim_runtime,
        }
    }

    /// A bare reqwest GET of `path` with the API key: the body, after checking the
    /// status is 200.
    pub(crate) async fn bare_get(&self, path: &str) -> bytes::Bytes {
        let response = self
            .http
            .get(format!("{}{path}", self.base_url))
            .header("X-Svc-Auth", &self.api_key)
            .send()
            .await
            .expect("the simulator answers");
        assert_eq!(response.status(), 200, "GET {path}");
        response.bytes().await.expect("the body arrives")
    }
}

/// Which CPUs the clients' thread and the simulator's threads run on.
#[derive(Clone, Copy)]
struct Cpus {
    client: CpuSet,
    server: CpuSet,
}

impl Cpus {
    /// The first CPU this process may use for the clients, the rest for the
    /// simulator; `None` (nothing pinned) with fewer than two, or when the allowed
    /// CPUs cannot be read.
    fn split() -> Option<Self> {
        let allowed = sched_getaffinity(None)
            .map_err(|error| {
                eprintln!("benchmarks: CPU affinity unknown ({error}); threads not pinned")
            })
            .ok()?;
        let usable: Vec<usize> = (0..CpuSet::MAX_CPU)
            .filter(|&cpu| allowed.is_set(cpu))
            .collect();
        let Some((&first, rest)) = usable.split_first().filter(|(_, rest)| !rest.is_empty()) else {
            eprintln!("benchmarks: one CPU only; the client and the simulator share it");
            return None;
        };
        let mut client = CpuSet::new();
        client.set(first);
        let mut server = CpuSet::new();
        for &cpu in rest {
            server.set(cpu);
        }
        eprintln!("benchmarks: clients on CPU {first}, simulator on CPUs {rest:?}");
        Some(Self { client, server })
    }
}

/// Keeps the calling thread on `cpus` (best effort: a refusal is reported and the
/// thread runs where the scheduler puts it).
fn pin_this_thread(cpus: &CpuSet) {
    if let Err(error) = sched_setaffinity(None, cpus) {
        eprintln!("benchmarks: could not pin a thread ({error}); it runs unpinned");
    }
}

impl Drop for World {
    fn drop(&mut self) {
        if let Some(sim) = self.sim.take() {
            self.sim_runtime.block_on(sim.shutdown());
        }
    }
}
