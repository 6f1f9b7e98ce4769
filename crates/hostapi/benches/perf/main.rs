//! hostapi's performance benchmarks, each measured against its reference in the same run
//! and in alternation with it (the machine is noisy, so only ratios of interleaved
//! measurements are compared: see `paired`), then a table of the ratios against their
//! targets.
//!
//! Run with `cargo xtask bench` (or `cargo xtask bench --quick`), which prints the
//! table and runs this binary with glibc's heap trimming off (see `docs/performance.md`);
//! `cargo bench -p hostapi --bench perf` runs the same with glibc's defaults and prints
//! the table last. Criterion's own reports go to `<target>/criterion` (or `$CRITERION_HOME`).
//!
//! The simulator runs in this process on its own runtime. The memory measurement and
//! the instruction count run their client in a child process (this binary again, under
//! valgrind where it is installed) so that the simulator is not counted. The CLI's
//! memory is that of its release binary, run from a child process too.

mod calls;
mod cli_memory;
mod decode;
mod instructions;
mod memory;
mod paired;
mod raw_types;
mod setup;
mod signing;
mod table;

use std::path::PathBuf;

use criterion::Criterion;

fn main() {
    if let Some(pages) = memory::child_pages() {
        memory::run_child(&pages);
        return;
    }
    if let Some(task) = cli_memory::child_task() {
        cli_memory::run_child(&task);
        return;
    }
    if let Some(calls) = instructions::child_calls() {
        instructions::run_child(&calls);
        return;
    }
    let measuring = std::env::args().any(|arg| arg == "--bench");
    let quick = std::env::args().any(|arg| arg == "--quick");
    let output = output_directory();
    // Every criterion value is a ratio of paired measurements (`paired::Ratio`).
    let mut criterion = Criterion::default()
        .with_measurement(paired::Ratio)
        .output_directory(&output)
        .configure_from_args();

    signing::bench(&mut criterion);
    let world = setup::World::start();
    decode::bench(&mut criterion, &world);
    calls::bench(&mut criterion, &world);
    criterion.final_summary();

    // Without `--bench` (`cargo test --benches`) criterion only checks that each
    // benchmark runs once; there is nothing to compare.
    if !measuring {
        return;
    }
    let runs = if quick { 1 } else { 3 };
    let memory = memory::wanted().then(|| memory::measure(&world, quick, runs));
    let instructions = instructions::wanted().then(|| instructions::measure(&world, quick));
    let cli = if cli_memory::wanted() {
        cli_memory::measure(runs)
    } else {
        None
    };
    let report = table::Report::read(memory, instructions, cli);
    println!("\n{}", table::MARKER);
    print!("{}", report.render());
}

/// Where criterion writes its results: `$CRITERION_HOME`, else `criterion/` in the
/// target directory this binary was built into (`<target>/release/deps/perf-…`).
fn output_directory() -> PathBuf {
    if let Some(home) = std::env::var_os("CRITERION_HOME") {
        return PathBuf::from(home);
    }
    let exe = std::env::current_exe().expect("the bench binary knows its path");
    exe.ancestors()
        .nth(3)
        .map(|target| target.join("criterion"))
        .unwrap_or_else(|| PathBuf::from("target/criterion"))
}
