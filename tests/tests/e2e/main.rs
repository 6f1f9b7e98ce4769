//! End to end: the facade against the in-process simulator.
//!
//! Every facade operation is called through the public `hostapi` API, with a strict
//! `Client` built from the simulator's base URLs and credentials (fast clock, no
//! faults), for each of several dataset seeds (`support::SEEDS`, or those of
//! `HOSTAPI_E2E_SEEDS`). Each write is read back through the facade, each waiter runs to its end
//! under the fast clock, every resource is read, and a few error paths come back as
//! typed errors with the service's error body.
//!
//! Each scenario is its own test, against its own simulator for each seed. The last
//! test plays every scenario against one simulator per seed and checks, from the
//! simulator's request counters, that every operation of the three specs was called.
//!
//! The tests of `settled` pin down where the facade and the simulator once read the
//! docs differently, so the disagreement cannot come back; they are left out of the
//! coverage run.

mod bare_metal;
mod cdn;
mod cloud;
mod coverage;
mod errors;
mod infra;
mod settled;
mod support;

use futures::future::BoxFuture;

use support::{Env, SCENARIO_TIMEOUT, seeds};

/// A scenario: calls against the simulator of `env`, asserting as it goes.
type Scenario = for<'a> fn(&'a Env) -> BoxFuture<'a, ()>;

/// Runs `scenario` against `env`, bounded by [`SCENARIO_TIMEOUT`]. The seed is named
/// first, so that a failure's output says which dataset it was.
async fn play(name: &str, scenario: Scenario, env: &Env) {
    eprintln!("scenario {name}, seed {}", env.seed);
    tokio::time::timeout(SCENARIO_TIMEOUT, scenario(env))
        .await
        .unwrap_or_else(|_| {
            panic!(
                "scenario {name} (seed {}) did not finish within {SCENARIO_TIMEOUT:?}",
                env.seed
            )
        });
}

/// Declares one test per scenario and the list [`SCENARIOS`] of them all.
macro_rules! scenarios {
    ($($module:ident :: $name:ident),+ $(,)?) => {
        /// Every scenario, in the order the coverage run plays them.
        const SCENARIOS: &[(&str, Scenario)] = &[
            $((stringify!($name), |env| Box::pin($module::$name(env)))),+
        ];

        $(
            #[tokio::test]
            async fn $name() {
                for seed in seeds() {
                    let env = Env::start_seeded(seed).await;
                    play(stringify!($name), |env| Box::pin($module::$name(env)), &env).await;
                    env.sim.shutdown().await;
                }
            }
        )+
    };
}

scenarios! {
    infra::v1_virtual_servers,
    infra::domains_and_dns_records,
    infra::private_racks,
    infra::catalogue,
    infra::private_networks,
    bare_metal::bare_metal_servers,
    bare_metal::bare_metal_ips,
    bare_metal::bare_metal_leases,
    bare_metal::bare_metal_install,
    bare_metal::bare_metal_rescue,
    bare_metal::bare_metal_usage,
    cloud::cloud_server_list,
    cloud::cloud_server_details,
    cloud::cloud_server_power,
    cloud::private_clouds,
    cdn::cdn_customers,
    cdn::cdn_acl,
    cdn::cdn_origins,
    cdn::cdn_purges,
    errors::error_answers,
}

/// For each seed, plays every scenario against one simulator, then checks that every
/// operation of the three specs ran at least once and that the simulator ran nothing
/// else.
#[tokio::test]
async fn every_spec_operation_is_exercised() {
    for seed in seeds() {
        let env = Env::start_seeded(seed).await;
        for (name, scenario) in SCENARIOS {
            play(name, *scenario, &env).await;
        }
        coverage::assert_every_operation_ran(&env.sim.stats());
        env.sim.shutdown().await;
    }
}
