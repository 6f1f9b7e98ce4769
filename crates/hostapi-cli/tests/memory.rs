//! The CLI's memory grows with what it prints, not many times the answer: the peak
//! resident set of `hostapi vps list` printing 20,000 tiny records (`{"id":"1000000"}`,
//! a 340 KB answer) from a small server, less the peak of the same command printing
//! one record, divided by the answer's size.
//!
//! The peak is the kernel's count for a child that has ended (`getrusage` of
//! `RUSAGE_CHILDREN`), which covers every child a process has waited for; so each
//! command is run from a fresh process of its own, this test binary again, told which
//! command by [`MEASURE_VAR`] (see [`measuring_child`]), which prints the peak.

mod common;

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Command, Stdio};
use std::time::Duration;

/// Set in the measuring child: the port of the server and the output format.
const MEASURE_VAR: &str = "HOSTAPI_TEST_MEASURE_PEAK";
/// The records of the large answer.
const RECORDS: usize = 20_000;
/// The most the peak may grow, per byte of the answer. Printing grew it by 338x (JSON)
/// and 427x (table) while every list was turned into one JSON tree and a comfy-table of
/// every cell; by 36x once records were printed one by one (what remains is the SDK
/// holding the records: see docs/performance.md).
const MAX_GROWTH_PER_ANSWER_BYTE: f64 = 60.0;

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

/// Serves `body` to every request on 127.0.0.1 (for at most 8 connections, each
/// closed after its answer), on a thread of its own; returns the port.
fn serve(body: Vec<u8>) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
    let port = listener.local_addr().expect("its address").port();
    std::thread::spawn(move || {
        for stream in listener.incoming().take(8) {
            let Ok(stream) = stream else { continue };
            answer_one(stream, &body);
        }
    });
    port
}

/// Reads one request's head (the CLI's list requests have no body) and answers it.
fn answer_one(mut stream: TcpStream, body: &[u8]) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let mut head = Vec::new();
    let mut byte = [0u8; 1024];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < 64 * 1024 {
        match stream.read(&mut byte) {
            Ok(0) | Err(_) => return,
            Ok(n) => head.extend_from_slice(&byte[..n]),
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
/// on `port`, measured in a fresh process.
fn peak_kib(port: u16, format: &str) -> u64 {
    let exe = std::env::current_exe().expect("the test binary knows its path");
    let output = Command::new(exe)
        .args([
            "--exact",
            "measuring_child",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(MEASURE_VAR, format!("{port} {format}"))
        .stdin(Stdio::null())
        .output()
        .expect("the measuring child starts");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "the measuring child failed: {stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // The harness prints the test's name on the same line.
    stdout
        .split_once("peak_kib ")
        .and_then(|(_, rest)| rest.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| panic!("no peak in the child's output: {stdout}"))
}

/// In the measuring child (a no-op in a normal run): runs the command it is told,
/// its output thrown away, and prints the peak resident set of it, in KiB.
#[test]
fn measuring_child() {
    let Ok(task) = std::env::var(MEASURE_VAR) else {
        return;
    };
    let (port, format) = task.split_once(' ').expect("`port format`");
    let home = common::TempDir::new("memory");
    let status = common::command(home.path())
        .args(["--base-url", &format!("http://127.0.0.1:{port}")])
        .args(["--api-key", "x", "vps", "list", "--output", format])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .status()
        .expect("hostapi starts");
    assert!(status.success(), "hostapi vps list failed: {status}");
    let usage = nix::sys::resource::getrusage(nix::sys::resource::UsageWho::RUSAGE_CHILDREN)
        .expect("getrusage");
    // Linux counts `ru_maxrss` in KiB.
    println!("peak_kib {}", usage.max_rss());
}

#[test]
fn printing_a_list_grows_with_the_answer_not_hundreds_of_times_it() {
    let large = answer(RECORDS);
    let answer_bytes = large.len();
    let one = serve(answer(1));
    let many = serve(large);
    for format in ["json", "table"] {
        let base = peak_kib(one, format);
        let peak = peak_kib(many, format);
        let growth = peak.saturating_sub(base) * 1024;
        let factor = growth as f64 / answer_bytes as f64;
        eprintln!(
            "{format}: peak {peak} KiB, one record {base} KiB: +{} KiB for a {answer_bytes}-byte answer of {RECORDS} records ({factor:.1}x)",
            growth / 1024
        );
        assert!(
            factor <= MAX_GROWTH_PER_ANSWER_BYTE,
            "printing {RECORDS} records as {format} grew the resident set by {factor:.1}x the answer (at most {MAX_GROWTH_PER_ANSWER_BYTE}x)"
        );
    }
}
