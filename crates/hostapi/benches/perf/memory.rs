//! Streaming 100,000 cloud servers a page of 100 at a time: the peak memory of the
//! whole stream against that of one page.
//!
//! Memory is the process's resident set (the workspace forbids `unsafe`, so no
//! counting allocator): each phase runs in a fresh child process (this binary again,
//! told so by [`PHASE_VAR`]) whose client warms up with one small request, resets the
//! kernel's peak-RSS mark (`/proc/self/clear_refs`), then measures the growth of the
//! peak over the resident set at that moment. The simulator stays in the parent, so
//! its memory is not counted.

use std::process::{Command, Stdio};

use futures::StreamExt;

use crate::setup::{SIM_SIZE, World};

/// Set in a child process: how many pages to stream.
const PHASE_VAR: &str = "HOSTAPI_BENCH_MEMORY_PHASE";
const BASE_URL_VAR: &str = "HOSTAPI_BENCH_BASE_URL";
const API_KEY_VAR: &str = "HOSTAPI_BENCH_API_KEY";
/// The benchmark's name, for filters.
pub(crate) const NAME: &str = "stream_memory_cloud_servers_100k";
/// Servers per page.
pub(crate) const PAGE_SIZE: u32 = 100;

/// The two measurements, in KiB of peak growth.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Memory {
    /// Growth of the peak while reading one page.
    pub(crate) one_page_kib: u64,
    /// Growth of the peak while streaming every server.
    pub(crate) all_kib: u64,
    /// Servers the full stream yielded.
    pub(crate) streamed: u64,
}

/// Whether the command line's filter (if any) selects this benchmark. Criterion's
/// filter is a regular expression; a plain substring of the name is what is honoured
/// here.
pub(crate) fn wanted() -> bool {
    // Criterion's options that take a value (`--name value`).
    const VALUED: &[&str] = &[
        "--save-baseline",
        "--baseline",
        "--baseline-lenient",
        "--load-baseline",
        "--format",
        "--profile-time",
        "--sample-size",
        "--warm-up-time",
        "--measurement-time",
        "--nresamples",
        "--noise-threshold",
        "--confidence-level",
        "--significance-level",
        "--plotting-backend",
        "--output-format",
        "--color",
    ];
    let mut args = std::env::args().skip(1);
    let mut filters = Vec::new();
    while let Some(arg) = args.next() {
        if arg.starts_with('-') {
            if VALUED.contains(&arg.as_str()) {
                args.next();
            }
        } else {
            filters.push(arg);
        }
    }
    filters.is_empty() || filters.iter().any(|f| NAME.contains(f.as_str()))
}

/// The phase this process must run, when it is a child.
pub(crate) fn child_phase() -> Option<String> {
    std::env::var(PHASE_VAR).ok()
}

/// Runs both phases in child processes against `world`'s simulator, `runs` times
/// each (the median counts).
pub(crate) fn measure(world: &World, runs: usize) -> Memory {
    let all_pages = SIM_SIZE as u64 / u64::from(PAGE_SIZE);
    eprintln!("{NAME}: one page, then {all_pages} pages, {runs} run(s) each");
    let one = median((0..runs).map(|_| run_phase(world, 1).growth_kib));
    let mut streamed = 0;
    let all = median((0..runs).map(|_| {
        let outcome = run_phase(world, all_pages);
        streamed = outcome.items;
        outcome.growth_kib
    }));
    eprintln!("{NAME}: one page {one} KiB, the whole stream {all} KiB");
    Memory {
        one_page_kib: one,
        all_kib: all,
        streamed,
    }
}

fn median(values: impl Iterator<Item = u64>) -> u64 {
    let mut values: Vec<u64> = values.collect();
    values.sort_unstable();
    values[values.len() / 2]
}

struct Outcome {
    items: u64,
    growth_kib: u64,
}

fn run_phase(world: &World, pages: u64) -> Outcome {
    let exe = std::env::current_exe().expect("the bench binary knows its path");
    let output = Command::new(exe)
        .env(PHASE_VAR, pages.to_string())
        .env(BASE_URL_VAR, &world.base_url)
        .env(API_KEY_VAR, &world.api_key)
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .expect("the measuring child starts");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{pages} pages failed: {text}");
    let numbers: Vec<u64> = text
        .split_whitespace()
        .map(|n| n.parse().expect("the child prints numbers"))
        .collect();
    match numbers[..] {
        [items, growth_kib] => Outcome { items, growth_kib },
        _ => panic!("{pages} pages printed `{text}`"),
    }
}

/// In the child: warm up with one full page (the connection, the pool, buffers sized
/// for a page), reset the peak, stream `pages` pages dropping each server once read,
/// and print `items growth_kib`.
pub(crate) fn run_child(pages: &str) {
    let pages: usize = pages.parse().expect("the parent gives a number of pages");
    let base_url = std::env::var(BASE_URL_VAR).expect("the parent gives the base URL");
    let api_key = std::env::var(API_KEY_VAR).expect("the parent gives the API key");
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("the child's runtime starts");
    let client = hostapi::Client::builder()
        .base_url(base_url)
        .api_key(api_key)
        .build()
        .expect("the client builds");
    let servers = client.cloud_servers();
    let page = PAGE_SIZE as usize;
    runtime.block_on(async {
        let warm = count(servers.list().page_size(PAGE_SIZE).stream().take(page)).await;
        assert_eq!(warm, page as u64, "the warm-up reads a page");

        std::fs::write("/proc/self/clear_refs", "5").expect("the peak RSS mark resets");
        let before = status_kib("VmRSS");
        let stream = servers.list().page_size(PAGE_SIZE).stream();
        let items = count(stream.take(pages * page)).await;
        let peak = status_kib("VmHWM");
        println!("{items} {}", peak.saturating_sub(before));
    });
}

/// Consumes a stream of servers one at a time (each dropped once read).
async fn count(
    stream: impl futures::Stream<Item = Result<hostapi::CloudServer, hostapi::Error>>,
) -> u64 {
    stream
        .fold(0u64, |n, server| async move {
            server.expect("every server reads");
            n + 1
        })
        .await
}

/// A `kB` line of `/proc/self/status`.
fn status_kib(key: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status reads");
    status
        .lines()
        .find_map(|line| line.strip_prefix(key)?.strip_prefix(':'))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or_else(|| panic!("no {key} in /proc/self/status"))
}
