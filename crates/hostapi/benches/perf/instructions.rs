//! One call counted in instructions, when valgrind is installed: the facade's
//! `virtual_servers().get(id)` against a bare reqwest GET of the same URL whose body is
//! decoded into the raw type (`raw_types`), each in a child process (this binary again,
//! told so by [`CALLS_VAR`]) under callgrind, against the simulator in the parent.
//!
//! Wall time on these machines moves by more than the differences that matter here;
//! instruction counts do not. Each side runs twice, with `n` and `2n` calls, and the
//! difference divided by `n` is one call's count: start-up, connection set-up and
//! callgrind's own reporting cancel out.

use std::process::{Command, Stdio};

use crate::raw_types::VirtualServerList;
use crate::setup::World;

/// Set in a child process: `facade:N` or `typed:N`, the side and the number of calls.
const CALLS_VAR: &str = "HOSTAPI_BENCH_INSTRUCTION_CALLS";
const BASE_URL_VAR: &str = "HOSTAPI_BENCH_INSTRUCTION_BASE_URL";
const API_KEY_VAR: &str = "HOSTAPI_BENCH_INSTRUCTION_API_KEY";
/// The benchmark's name, for filters.
pub(crate) const NAME: &str = "one_call_instructions";
/// The server read (the one-call benchmark's).
const SERVER: u32 = 100_001;

/// Instructions of one call on each side.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Counts {
    pub(crate) facade: u64,
    pub(crate) typed: u64,
}

/// Whether this run wants the count (no filter, or a filter naming it), and valgrind
/// is there.
pub(crate) fn wanted() -> bool {
    crate::memory::filter_allows(NAME) && crate::memory::valgrind_available()
}

/// What this process must do, when it is a child.
pub(crate) fn child_calls() -> Option<String> {
    std::env::var(CALLS_VAR).ok()
}

/// Counts one call on each side against `world`'s simulator.
pub(crate) fn measure(world: &World, quick: bool) -> Counts {
    let calls: u64 = if quick { 200 } else { 1_000 };
    let per_call = |side: &str| {
        let fewer = collected(world, side, calls);
        let more = collected(world, side, 2 * calls);
        more.saturating_sub(fewer) / calls
    };
    eprintln!("{NAME}: callgrind, {calls} and {} calls a side", 2 * calls);
    let counts = Counts {
        facade: per_call("facade"),
        typed: per_call("typed"),
    };
    eprintln!("{NAME}: {counts:?}");
    counts
}

/// The instructions a child making `calls` calls on `side` executed, from callgrind.
fn collected(world: &World, side: &str, calls: u64) -> u64 {
    let exe = std::env::current_exe().expect("the bench binary knows its path");
    let output = Command::new("valgrind")
        .args(["--tool=callgrind", "--callgrind-out-file=/dev/null"])
        .arg(exe)
        .env(CALLS_VAR, format!("{side}:{calls}"))
        .env(BASE_URL_VAR, &world.base_url)
        .env(API_KEY_VAR, &world.api_key)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .output()
        .expect("valgrind starts");
    let report = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "callgrind run of {calls} {side} calls failed: {report}"
    );
    // "==123== Collected : 1234567"
    report
        .lines()
        .find_map(|line| line.split_once("Collected :"))
        .and_then(|(_, count)| count.trim().parse().ok())
        .unwrap_or_else(|| panic!("no count in callgrind's report: {report}"))
}

/// In the child: make the calls `spec` (`side:N`) names, one after the other.
pub(crate) fn run_child(spec: &str) {
    let (side, calls) = spec.split_once(':').expect("the parent gives side:calls");
    let calls: u64 = calls.parse().expect("the parent gives a number of calls");
    let base_url = std::env::var(BASE_URL_VAR).expect("the parent gives the base URL");
    let api_key = std::env::var(API_KEY_VAR).expect("the parent gives the API key");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("the child's runtime starts");
    let id = hostapi::types::VirtualServerId::from(SERVER);
    match side {
        "facade" => {
            let client = hostapi::Client::builder()
                .base_url(base_url)
                .api_key(api_key)
                .build()
                .expect("the client builds");
            let servers = client.virtual_servers();
            runtime.block_on(async {
                for _ in 0..calls {
                    let server = servers.get(&id).await.expect("the facade reads the server");
                    assert_eq!(server.id, id);
                }
            });
        }
        "typed" => {
            let _ = rustls::crypto::ring::default_provider().install_default();
            let http = reqwest::Client::new();
            let url = format!("{base_url}/v1/virtualServers/{id}");
            runtime.block_on(async {
                for _ in 0..calls {
                    let response = http
                        .get(&url)
                        .header("X-Svc-Auth", &api_key)
                        .send()
                        .await
                        .expect("the simulator answers");
                    let body = response.bytes().await.expect("the body arrives");
                    let list: VirtualServerList =
                        serde_json::from_slice(&body).expect("the raw type decodes");
                    std::hint::black_box(list);
                }
            });
        }
        other => panic!("unknown side {other}"),
    }
}
