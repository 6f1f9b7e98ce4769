//! Streaming 100,000 cloud servers a page of 100 at a time: the peak memory of the
//! whole stream against that of one page.
//!
//! The workspace forbids `unsafe`, so there is no counting allocator in this binary;
//! each measurement runs the client in a fresh child process (this binary again, told
//! so by [`PAGES_VAR`]) against the simulator, which stays in the parent.
//!
//! - **Live heap** (the ratio that counts, when valgrind is installed): the child runs
//!   under valgrind's DHAT, which counts every allocation and reports the peak of live
//!   bytes. Four runs: the client built but no request (`idle`), one page, two pages,
//!   every page. The ratio is (every page − idle) / (one page − idle). Under valgrind
//!   the stream is ten times slower, so `--quick` streams 100 pages (10,000 servers).
//!   Measured: idle 427 KB, one page +95 KB, two pages and any number after +219 KB.
//!   The step at the second page is hyper's read buffer, which grows while the first
//!   answer arrives (64 KiB → 192 KiB for a 83 KB page) and stays with the pooled
//!   connection (hyper caps it near 400 KiB); nothing grows after it.
//! - **Resident set** (shown beside it, and the ratio when valgrind is missing): the
//!   child reads one full page to warm up, resets the kernel's peak-RSS mark
//!   (`/proc/self/clear_refs`), streams, and reports how far the peak rose. glibc keeps
//!   and fragments freed memory, and hyper sizes its read buffer to what the socket
//!   held, so this creeps up over the first hundred pages and then stays (92 KiB after
//!   one page, 176 after ten, 276 after a hundred, 292 after a thousand, in one run)
//!   while the live heap does not grow at all.

use std::process::{Command, Stdio};

use futures::StreamExt;

use crate::setup::{SIM_SIZE, World};

/// Set in a child process: how many pages to stream.
const PAGES_VAR: &str = "HOSTAPI_BENCH_MEMORY_PAGES";
/// Set in a child process to skip the warm-up page and the peak reset (live heap).
const NO_WARM_UP_VAR: &str = "HOSTAPI_BENCH_MEMORY_NO_WARM_UP";
const BASE_URL_VAR: &str = "HOSTAPI_BENCH_BASE_URL";
const API_KEY_VAR: &str = "HOSTAPI_BENCH_API_KEY";
/// The benchmark's name, for filters.
pub(crate) const NAME: &str = "stream_memory_cloud_servers_100k";
/// Servers per page.
pub(crate) const PAGE_SIZE: u32 = 100;

/// Peaks of live heap bytes, from DHAT.
#[derive(Debug, Clone, Copy)]
pub(crate) struct HeapPeaks {
    /// The client built, nothing requested.
    pub(crate) idle: u64,
    /// One page read.
    pub(crate) one_page: u64,
    /// Two pages read: the connection's read buffer has grown to a page's size.
    pub(crate) two_pages: u64,
    /// `pages` pages streamed.
    pub(crate) all: u64,
    pub(crate) pages: u64,
}

/// Growth of the resident set's peak, in KiB.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RssGrowth {
    pub(crate) one_page_kib: u64,
    pub(crate) all_kib: u64,
    pub(crate) pages: u64,
}

/// Both measurements.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Memory {
    /// `None` when valgrind is not installed.
    pub(crate) heap: Option<HeapPeaks>,
    pub(crate) rss: RssGrowth,
}

/// Whether the command line's filter (if any) selects this benchmark.
pub(crate) fn wanted() -> bool {
    filter_allows(NAME)
}

/// Whether the command line's filter (if any) selects the benchmark `name`. Criterion's
/// filter is a regular expression; a plain substring of the name is what is honoured
/// here.
pub(crate) fn filter_allows(name: &str) -> bool {
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
    filters.is_empty() || filters.iter().any(|f| name.contains(f.as_str()))
}

/// The number of pages this process must stream, when it is a child.
pub(crate) fn child_pages() -> Option<String> {
    std::env::var(PAGES_VAR).ok()
}

/// Measures against `world`'s simulator: the live heap under DHAT when valgrind is
/// there (`quick`: 100 pages rather than all), and the resident set (median of `runs`).
pub(crate) fn measure(world: &World, quick: bool, runs: usize) -> Memory {
    let all_pages = SIM_SIZE as u64 / u64::from(PAGE_SIZE);
    let heap = valgrind_available().then(|| {
        let pages = if quick { 100 } else { all_pages };
        eprintln!("{NAME}: live heap under DHAT: idle, one page, two, {pages} pages");
        let peaks = HeapPeaks {
            idle: dhat_peak(world, 0),
            one_page: dhat_peak(world, 1),
            two_pages: dhat_peak(world, 2),
            all: dhat_peak(world, pages),
            pages,
        };
        eprintln!("{NAME}: {peaks:?}");
        peaks
    });
    eprintln!("{NAME}: resident set: one page, then {all_pages} pages, {runs} run(s) each");
    let one = median((0..runs).map(|_| rss_growth(world, 1)));
    let all = median((0..runs).map(|_| rss_growth(world, all_pages)));
    eprintln!("{NAME}: resident set: one page +{one} KiB, {all_pages} pages +{all} KiB");
    Memory {
        heap,
        rss: RssGrowth {
            one_page_kib: one,
            all_kib: all,
            pages: all_pages,
        },
    }
}

pub(crate) fn valgrind_available() -> bool {
    Command::new("valgrind")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
}

fn median(values: impl Iterator<Item = u64>) -> u64 {
    let mut values: Vec<u64> = values.collect();
    values.sort_unstable();
    values[values.len() / 2]
}

/// A child running this binary with the simulator's address.
fn child(world: &World, program: &str, pages: u64) -> Command {
    let mut command = Command::new(program);
    command
        .env(PAGES_VAR, pages.to_string())
        .env(BASE_URL_VAR, &world.base_url)
        .env(API_KEY_VAR, &world.api_key)
        .stdin(Stdio::null());
    command
}

fn exe() -> String {
    let exe = std::env::current_exe().expect("the bench binary knows its path");
    exe.to_string_lossy().into_owned()
}

/// The peak of live heap bytes of a child streaming `pages` pages, from DHAT.
fn dhat_peak(world: &World, pages: u64) -> u64 {
    let mut command = child(world, "valgrind", pages);
    command
        .env(NO_WARM_UP_VAR, "1")
        .args(["--tool=dhat", "--dhat-out-file=/dev/null"])
        .arg(exe());
    let output = command.output().expect("valgrind starts");
    let report = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "DHAT run of {pages} pages failed: {report}"
    );
    // "==123== At t-gmax: 645,197 bytes in 3,059 blocks"
    report
        .lines()
        .find_map(|line| line.split_once("At t-gmax:"))
        .and_then(|(_, rest)| rest.split_whitespace().next())
        .and_then(|bytes| bytes.replace(',', "").parse().ok())
        .unwrap_or_else(|| panic!("no peak in DHAT's report: {report}"))
}

/// How far the resident set's peak rose while a child streamed `pages` pages.
fn rss_growth(world: &World, pages: u64) -> u64 {
    let output = child(world, &exe(), pages)
        .stderr(Stdio::inherit())
        .output()
        .expect("the measuring child starts");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{pages} pages failed: {text}");
    match text.split_whitespace().collect::<Vec<_>>()[..] {
        [_items, growth_kib] => growth_kib.parse().expect("the child prints KiB"),
        _ => panic!("{pages} pages printed `{text}`"),
    }
}

/// In the child: stream `pages` pages, dropping each server once read, and print
/// `items growth_kib`. Unless told not to, first read one full page (the connection,
/// the pool, buffers sized for a page) and reset the peak-RSS mark.
pub(crate) fn run_child(pages: &str) {
    let pages: usize = pages.parse().expect("the parent gives a number of pages");
    let warm_up = std::env::var_os(NO_WARM_UP_VAR).is_none();
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
        if warm_up {
            let warm = count(servers.list().page_size(PAGE_SIZE).stream().take(page)).await;
            assert_eq!(warm, page as u64, "the warm-up reads a page");
            std::fs::write("/proc/self/clear_refs", "5").expect("the peak RSS mark resets");
        }
        let before = status_kib("VmRSS");
        let stream = servers.list().page_size(PAGE_SIZE).stream();
        let items = count(stream.take(pages * page)).await;
        assert_eq!(items, (pages * page) as u64, "every server streamed");
        let peak = status_kib("VmHWM");
        println!("{items} {}", peak.saturating_sub(before));
    });
}

/// Consumes a stream of servers one at a time (each dropped once read).
async fn count(
    stream: impl futures::Stream<Item = Result<hostapi::cloud::CloudServer, hostapi::Error>>,
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
