//! What the benchmarks share: a simulator with 10,000 v1 virtual servers, 1,000 bare
//! metals and 100,000 cloud servers (size 100000) on its own runtime, the facade
//! client and a bare reqwest client pointed at it, and the client runtime.

use std::time::Duration;

use hostapi_sim::{Sim, SimConfig};
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
        let sim_runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("sim")
            .enable_all()
            .build()
            .expect("the simulator's runtime starts");
        let sim = sim_runtime
            .block_on(Sim::start(
                SimConfig::default().with_seed(9).with_size(SIM_SIZE),
            ))
            .expect("the simulator starts");
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

impl Drop for World {
    fn drop(&mut self) {
        if let Some(sim) = self.sim.take() {
            self.sim_runtime.block_on(sim.shutdown());
        }
    }
}
