//! `cargo xtask bench [--quick]`: builds the CLI's release binary (for the CLI's
//! memory rows), runs the benchmarks (`crates/hostapi/benches/perf`)
//! and prints their table of ratios on stdout, the last line being the worst ratio
//! against its target. Criterion's progress goes to stderr. Fails when a ratio misses
//! its target or the benchmarks fail.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};

/// The line the benchmark binary prints before its table (`table::MARKER` there).
const MARKER: &str = "== hostapi performance: each against its floor, same run ==";

/// Criterion's options for `--quick`: stop each benchmark once its estimate is steady
/// (at most 3 s), and a smaller bootstrap.
const QUICK: &[&str] = &["--quick", "--measurement-time", "3", "--nresamples", "2000"];

/// glibc's heap trimming, turned off in the benchmarks' process (as their threads are
/// pinned to CPUs): with it on, whether a side gives its freed heap back to the system
/// after each unit and faults it in again in the next depends on where its last blocks
/// happen to lie, and the 10k decode measured 1.04× one run and 1.36× the next (1.12–
/// 1.14× with it off). See docs/performance.md.
const NO_HEAP_TRIM: &str = "glibc.malloc.trim_threshold=1073741824";

/// `GLIBC_TUNABLES` for the benchmarks: the caller's, and [`NO_HEAP_TRIM`].
fn tunables() -> String {
    match std::env::var("GLIBC_TUNABLES") {
        Ok(given) if !given.is_empty() => format!("{given}:{NO_HEAP_TRIM}"),
        _ => NO_HEAP_TRIM.to_owned(),
    }
}

pub(crate) fn run(root: &Path, quick: bool, filter: Option<&str>) -> Result<(), String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    // The CLI's memory rows measure its release binary, which the benchmark finds
    // beside itself in the same target directory.
    let built = Command::new(&cargo)
        .current_dir(root)
        .args([
            "build",
            "--release",
            "--package",
            "hostapi-cli",
            "--bin",
            "hostapi",
        ])
        .status()
        .map_err(|e| format!("cannot run cargo build: {e}"))?;
    if !built.success() {
        return Err(format!(
            "building the CLI for its memory rows failed ({built})"
        ));
    }
    let mut command = Command::new(cargo);
    let tunables = tunables();
    eprintln!("benchmarks: GLIBC_TUNABLES={tunables} (heap trimming off)");
    command
        .current_dir(root)
        // The decode rows read answers through `hostapi::internal`.
        .args(["bench", "--package", "hostapi", "--features", "internal"])
        .args(["--bench", "perf", "--"])
        .env("GLIBC_TUNABLES", tunables)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    if quick {
        command.args(QUICK);
    }
    if let Some(filter) = filter {
        command.arg(filter);
    }
    let mut child = command
        .spawn()
        .map_err(|e| format!("cannot run cargo bench: {e}"))?;
    let stdout = child.stdout.take().ok_or("cargo bench has no stdout")?;
    let mut table = Vec::new();
    let mut in_table = false;
    for line in BufReader::new(stdout).lines() {
        let line = line.map_err(|e| format!("reading the benchmarks' output: {e}"))?;
        if in_table {
            table.push(line);
        } else {
            in_table = line == MARKER;
            eprintln!("{line}");
        }
    }
    let status = child
        .wait()
        .map_err(|e| format!("waiting for cargo bench: {e}"))?;
    if !status.success() {
        return Err(format!("the benchmarks failed ({status})"));
    }
    if table.is_empty() {
        return Err("the benchmarks printed no table".to_owned());
    }
    println!("{MARKER}");
    for line in &table {
        println!("{line}");
    }
    match table.last() {
        Some(worst) if worst.ends_with("within target") => Ok(()),
        _ => Err("a ratio missed its target (see the table)".to_owned()),
    }
}
