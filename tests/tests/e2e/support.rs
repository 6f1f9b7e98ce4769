//! What every scenario shares: a simulator with a client pointed at it, wait options
//! sized for the fast clock, and checks of typed errors.

use std::time::Duration;

use chrono::NaiveDate;
use hostapi::client::RetryPolicy;
use hostapi::error::ServiceError;
use hostapi::{Client, Error, WaitOptions};
use hostapi_sim::{Sim, SimConfig};

/// The dataset seeds the scenarios run over, each against its own simulator. A seed
/// fixes the records' values (names, MACs, passwords, prices, traffic); their ids and
/// shapes, which the scenarios name, are the same for every seed.
pub(crate) const SEEDS: [u64; 3] = [20_240_601, 7, 3_141_592];

/// The variable that replaces [`SEEDS`] with other seeds (comma-separated), to try a
/// dataset the fixed seeds do not cover.
const SEEDS_VARIABLE: &str = "HOSTAPI_E2E_SEEDS";

/// The seeds of this run: [`SEEDS`], or those of `HOSTAPI_E2E_SEEDS`.
pub(crate) fn seeds() -> Vec<u64> {
    match std::env::var(SEEDS_VARIABLE) {
        Ok(list) if !list.trim().is_empty() => list
            .split(',')
            .map(|seed| {
                seed.trim()
                    .parse()
                    .unwrap_or_else(|e| panic!("{SEEDS_VARIABLE}: `{seed}`: {e}"))
            })
            .collect(),
        _ => SEEDS.to_vec(),
    }
}

/// Simulated seconds per real second. An installation (300 simulated seconds) lasts
/// 3 s, a rescue boot 1.2 s, a private network member transition 600 ms, a cloud power
/// phase 50 ms, a purge 100 ms. Waiters poll at most every 100 ms
/// ([`WaitOptions::MIN_INTERVAL`]) and prove the transition they wait for (a reboot
/// waiter must see the server leave RUNNING), so a transition must outlast a poll or
/// two, even on a loaded machine.
pub(crate) const TIME_SCALE: f64 = 100.0;

/// Bound of one HTTP request.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

/// Bound of one scenario.
pub(crate) const SCENARIO_TIMEOUT: Duration = Duration::from_secs(60);

/// A running simulator and a client of all three of its interfaces.
pub(crate) struct Env {
    pub(crate) sim: Sim,
    pub(crate) client: Client,
    /// The simulator's dataset seed.
    pub(crate) seed: u64,
}

impl Env {
    /// Starts a simulator with the first of [`SEEDS`]; see [`Env::start_seeded`].
    pub(crate) async fn start() -> Env {
        Env::start_seeded(SEEDS[0]).await
    }

    /// Starts a simulator (the given seed, fast clock, no faults) and builds a client
    /// with its base URLs and credentials.
    pub(crate) async fn start_seeded(seed: u64) -> Env {
        let sim = Sim::start(
            SimConfig::default()
                .with_seed(seed)
                .with_time_scale(TIME_SCALE),
        )
        .await
        .expect("the simulator starts");
        let client = client_with(&sim, sim.api_key(), sim.cdn_secret());
        Env { sim, client, seed }
    }

    /// A client of this simulator with other credentials.
    pub(crate) fn client_with(&self, api_key: &str, cdn_secret: &str) -> Client {
        client_with(&self.sim, api_key, cdn_secret)
    }

    /// How many requests of `operation` (`"GET /v1/domains"`) the simulator has run.
    pub(crate) fn operation_count(&self, operation: &str) -> u64 {
        self.sim
            .stats()
            .operations
            .get(operation)
            .copied()
            .unwrap_or(0)
    }
}

/// A client of `sim` with the given credentials; retries off, so every call is one
/// request and an error surfaces as the simulator answered it; strict, so a field of an
/// answer the facade cannot read fails the call instead of becoming a warning.
fn client_with(sim: &Sim, api_key: &str, cdn_secret: &str) -> Client {
    hostapi_tests::sim_client_builder(sim, api_key, cdn_secret)
        .retry_policy(RetryPolicy::never())
        .strict(true)
        .timeout(REQUEST_TIMEOUT)
        .build()
        .expect("the client builds")
}

/// Polls as often as a waiter allows ([`WaitOptions::MIN_INTERVAL`]), for at most 30 s:
/// the longest transition (an installation) takes 3 s at [`TIME_SCALE`].
pub(crate) fn waits() -> WaitOptions {
    WaitOptions::new()
        .interval(WaitOptions::MIN_INTERVAL)
        .timeout(Duration::from_secs(30))
}

/// A calendar day.
pub(crate) fn day(year: i32, month: u32, day: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(year, month, day).expect("a valid date")
}

/// The service error of a call that must fail with `status` in `operation`; panics
/// with the outcome otherwise. The body must be the service's JSON error object with
/// an error code equal to the status, a message and a correlation id.
#[track_caller]
pub(crate) fn service_error<T: std::fmt::Debug>(
    result: Result<T, Error>,
    operation: &str,
    status: u16,
) -> ServiceError {
    let error = match result {
        Ok(value) => panic!("{operation}: expected {status}, got {value:?}"),
        Err(error) => error,
    };
    match &error {
        Error::Status(answer) if answer.call.operation == operation && answer.status == status => {
            let body = &answer.body;
            let service = body
                .service_error()
                .unwrap_or_else(|| panic!("{operation}: not a service error body: {body:?}"))
                .clone();
            let status_text = status.to_string();
            assert_eq!(
                service.code.as_deref(),
                Some(status_text.as_str()),
                "{operation}: error code"
            );
            assert!(
                service.message.as_deref().is_some_and(|m| !m.is_empty()),
                "{operation}: error message in {service:?}"
            );
            assert!(
                service.correlation_id.is_some(),
                "{operation}: correlation id in {service:?}"
            );
            service
        }
        other => panic!("{operation}: expected status {status}, got {other:?}"),
    }
}
