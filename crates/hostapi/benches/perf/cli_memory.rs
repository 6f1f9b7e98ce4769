//! The CLI printing a list of 200,000 tiny records (`{"id":"1000000"}`, a 3.4 MB
//! answer from a small server of this process): its peak resident set against the
//! answer's size, as JSON and as a table.
//!
//! The binary measured is the release build of `hostapi` beside this benchmark's
//! (`<target>/release/hostapi`), which `cargo xtask bench` builds first. The peak is
//! the kernel's count for a child that has ended (`getrusage` of `RUSAGE_CHILDREN`),
//! which covers every child a process has waited for; so each command runs from a
//! fresh process of its own (this binary again, told so by [`RUN_VAR`]), which prints
//! the peak.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

/// Set in a measuring child: `port format`.
const RUN_VAR: &str = "HOSTAPI_BENCH_CLI_RUN";
/// Set in a measuring child: the CLI binary.
const CLI_VAR: &str = "HOSTAPI_BENCH_CLI";
/// The benchmark's name, for filters.
pub(crate) const NAME: &str = "cli_list_memory_200k";
/// The records of the answer.
pub(crate) const RECORDS: usize = 200_000;

/// Peaks of the resident set, in KiB.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CliMemory {
    /// The answer's size in bytes.
    pub(crate) answer_bytes: usize,
    /// Printing it as JSON.
    pub(crate) json_kib: u64,
    /// Printing it as a table.
    pub(crate) table_kib: u64,
}

/// Whether the command line's filter (if any) selects this benchmark.
pub(crate) fn wanted() -> bool {
    crate::memory::filter_allows(NAME)
}

/// The CLI's release binary beside this one, if it was built.
fn cli_binary() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let cli = exe.parent()?.parent()?.join("hostapi");
    cli.is_file().then_some(cli)
}

/// What a measuring child must run, when this process is one.
pub(crate) fn child_task() -> Option<String> {
    std::env::var(RUN_VAR).ok()
}

/// Measures (the median of `runs` runs of each format), or `None` when the CLI's
/// release binary is missing.
pub(crate) fn measure(runs: usize) -> Option<CliMemory> {
    let Some(cli) = cli_binary() else {
        eprintln!("{NAME}: no release build of hostapi beside the benchmark: not run");
        return None;
    };
    let body = answer(RECORDS);
    let answer_bytes = body.len();
    let port = serve(body, 2 * runs + 2);
    eprintln!(
        "{NAME}: {} printing {RECORDS} records ({answer_bytes} bytes), {runs} run(s) each",
        cli.display()
    );
    let peak = |format: &str| median((0..runs).map(|_| peak_kib(&cli, port, format)));
    let json_kib = peak("json");
    let table_kib = peak("table");
    eprintln!("{NAME}: peak JSON {json_kib} KiB, table {table_kib} KiB");
    Some(CliMemory {
        answer_bytes,
        json_kib,
        table_kib,
    })
}

fn median(values: impl Iterator<Item = u64>) -> u64 {
    let mut values: Vec<u64> = values.collect();
    values.sort_unstable();
    values[values.len() / 2]
}

/// `{"virtualServers":[{"id":"1000000"},…]}` with `records` records.
fn answer(records: usize) -> Vec<u8> {
    let mut body = String::from("{\"virtualServers\":[");
    for index in 0..records {
        if index > 0 {
            body.push(',');
        }
        body.push_str(&format!("{{\"id\":\"{}\"}}", 1_000_000 + index));
    }
    body.push_str("]}");
    body.into_bytes()
}

/// Serves `body` to `connections` connections on 127.0.0.1 (each closed after its
/// answer), on a thread of its own; returns the port.
fn serve(body: Vec<u8>, connections: usize) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
    let port = listener.local_addr().expect("its address").port();
    std::thread::spawn(move || {
        for stream in listener.incoming().take(connections) {
            let Ok(stream) = stream else { continue };
            answer_one(stream, &body);
        }
    });
    port
}

/// Reads one request's head (a list request has no body) and answers it.
fn answer_one(mut stream: TcpStream, body: &[u8]) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let mut head = Vec::new();
    let mut chunk = [0u8; 1024];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < 64 * 1024 {
        match stream.read(&mut chunk) {
            Ok(0) | Err(_) => return,
            Ok(n) => head.extend_from_slice(&chunk[..n]),
        }
    }
    let status = format!(
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(status.as_bytes());
    let _ = stream.write_all(body);
}

/// The peak resident set, in KiB, of `hostapi vps list -o FORMAT` against the server
/// on `port`, measured in a fresh child.
fn peak_kib(cli: &PathBuf, port: u16, format: &str) -> u64 {
    let exe = std::env::current_exe().expect("the bench binary knows its path");
    let output = Command::new(exe)
        .env(RUN_VAR, format!("{port} {format}"))
        .env(CLI_VAR, cli)
        .stdin(Stdio::null())
        .stderr(Stdio::inherit())
        .output()
        .expect("the measuring child starts");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "measuring {format} failed: {text}");
    text.trim()
        .parse()
        .unwrap_or_else(|_| panic!("the measuring child printed `{text}`"))
}

/// In a measuring child: run the CLI as told (its output thrown away, its settings
/// from flags only) and print its peak resident set in KiB.
pub(crate) fn run_child(task: &str) {
    let (port, format) = task.split_once(' ').expect("`port format`");
    let cli = std::env::var_os(CLI_VAR).expect("the parent names the CLI");
    let home = std::env::temp_dir().join(format!("hostapi-bench-cli-{}", std::process::id()));
    std::fs::create_dir_all(&home).expect("a HOME for the CLI");
    let mut command = Command::new(cli);
    for (key, _) in std::env::vars_os() {
        if key.to_string_lossy().starts_with("HOSTAPI_") {
            command.env_remove(&key);
        }
    }
    let status = command
        .env("HOME", &home)
        .env_remove("XDG_CONFIG_HOME")
        // As users run it: the benchmarks' own glibc tuning is not the CLI's.
        .env_remove("GLIBC_TUNABLES")
        .args(["--base-url", &format!("http://127.0.0.1:{port}")])
        .args(["--api-key", "x", "vps", "list", "--output", format])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .status()
        .expect("hostapi starts");
    let _ = std::fs::remove_dir_all(&home);
    assert!(status.success(), "hostapi vps list -o {format}: {status}");
    let usage = nix::sys::resource::getrusage(nix::sys::resource::UsageWho::RUSAGE_CHILDREN)
        .expect("getrusage");
    // Linux counts `ru_maxrss` in KiB.
    println!("{}", usage.max_rss());
}
