//! Writes under injected faults are reported truthfully:
//! against a simulator failing a quarter of its requests with every kind of fault —
//! error statuses, dropped connections, and answers lost, cut or garbled after the
//! change was applied — each write the binary makes is compared with the simulator's
//! log of applied writes:
//!
//! - exit 0 only when the change was applied;
//! - exit 6 (outcome unknown) only where the client could not tell, and rarely (the
//!   CLI reads back where it can);
//! - any other exit only when nothing was applied.

mod common;

use std::path::Path;

use common::{LiveSim, Run, TempDir, run_in};
use hostapi_sim::{FaultConfig, Sim, SimConfig};

/// The share of requests that get a fault.
const FAULT_RATE: f64 = 0.25;

/// One write, how it ended, and what the simulator applied meanwhile.
#[derive(Debug)]
struct Observed {
    args: Vec<String>,
    code: i32,
    applied: usize,
    stderr: String,
}

/// Runs one write and counts the writes the simulator applied during it (runs are
/// sequential, so every new entry of the log is this run's).
fn observe(home: &Path, sim: &Sim, args: Vec<String>) -> (Observed, Run) {
    let before = sim.write_log().len();
    let mut all = vec![
        "--base-url".to_owned(),
        sim.base_url(),
        "--api-key".to_owned(),
        sim.api_key().to_owned(),
        "--yes".to_owned(),
        "-o".to_owned(),
        "json".to_owned(),
    ];
    all.extend(args.iter().cloned());
    let all: Vec<&str> = all.iter().map(String::as_str).collect();
    let run = run_in(home, &all, &[]);
    let applied = sim.write_log().len() - before;
    let observed = Observed {
        args,
        code: run.code,
        applied,
        stderr: run.stderr.clone(),
    };
    (observed, run)
}

fn owned(args: &[&str]) -> Vec<String> {
    args.iter().map(|a| (*a).to_owned()).collect()
}

#[test]
fn every_write_under_faults_is_reported_truthfully() {
    for seed in [11, 12, 13] {
        writes_are_reported_truthfully(seed);
    }
}

fn writes_are_reported_truthfully(seed: u64) {
    let home = TempDir::new("outcomes");
    let live = LiveSim::start(
        SimConfig::default()
            .with_seed(seed)
            .with_faults(FaultConfig {
                rate: FAULT_RATE,
                retry_after_secs: 0,
                ..FaultConfig::default()
            }),
    );
    let sim = &live.sim;
    let mut observed = Vec::new();
    for round in 0..20u32 {
        // A TTL (PUT, idempotent), a reference (PUT), a record created (POST, not
        // retried unless it provably never arrived) and then deleted (DELETE).
        let ttl = (3600 + round * 60).to_string();
        let reference = format!("ref-{round}");
        let name = format!("w{round}.acme-1.com");
        let content = format!("192.0.2.{}", round + 1);
        observed.push(
            observe(
                home.path(),
                sim,
                owned(&["domains", "set-ttl", "acme-1.com", &ttl]),
            )
            .0,
        );
        observed.push(
            observe(
                home.path(),
                sim,
                owned(&["bare-metal", "set-reference", "20001", &reference]),
            )
            .0,
        );
        let (created, run) = observe(
            home.path(),
            sim,
            owned(&[
                "dns",
                "create",
                "acme-1.com",
                "--name",
                &name,
                "--type",
                "A",
                "--content",
                &content,
            ]),
        );
        let id = (created.code == 0)
            .then(|| run.json()["id"].as_str().map(str::to_owned))
            .flatten();
        observed.push(created);
        if let Some(id) = id {
            observed.push(
                observe(
                    home.path(),
                    sim,
                    owned(&["dns", "delete", "acme-1.com", &id]),
                )
                .0,
            );
        }
    }

    let mut unknown = 0;
    for write in &observed {
        match write.code {
            0 => assert!(
                write.applied >= 1,
                "exit 0 but nothing was applied: {write:#?}"
            ),
            6 => {
                unknown += 1;
                assert!(
                    write.stderr.contains("hint:"),
                    "exit 6 without a hint: {write:#?}"
                );
            }
            _ => assert_eq!(
                write.applied, 0,
                "reported as not applied, but it was: {write:#?}"
            ),
        }
        // A create is never made twice (it is not retried once it may have arrived).
        if write.args[0] == "dns" && write.args[1] == "create" {
            assert!(write.applied <= 1, "a record was created twice: {write:#?}");
        }
    }
    let stats = sim.stats();
    let faults: u64 = stats.faults.values().sum();
    let read_back = observed
        .iter()
        .filter(|w| w.stderr.contains("read back:"))
        .count();
    eprintln!(
        "seed {seed}: write outcomes under {:.0} % faults: {} writes, {} faults injected ({:?}), {} settled by reading back, {} unknown (exit 6)",
        FAULT_RATE * 100.0,
        observed.len(),
        faults,
        stats.faults,
        read_back,
        unknown
    );
    assert!(faults > 0, "no fault was injected: the test proves nothing");
    assert!(
        unknown * 10 < observed.len(),
        "exit 6 for {unknown} of {} writes (at most 10 % expected)",
        observed.len()
    );
}
