//! A criterion measurement of the benchmark thread's CPU time, for the benchmarks that
//! only compute (decoding, signing): other processes on a shared machine stretch wall
//! time, not the CPU time this thread spends.
//!
//! Read from `/proc/thread-self/schedstat` (nanoseconds on CPU), which the kernel
//! brings up to date at each scheduler tick: a reading can lag by up to one tick
//! (1–4 ms), so samples must be much longer than that (the benchmarks using it take
//! samples of tens of milliseconds or more).

use criterion::measurement::{Measurement, ValueFormatter, WallTime};

/// CPU time of the calling thread, in nanoseconds.
pub(crate) struct ThreadCpuTime;

/// Formats nanoseconds as criterion's wall-time measurement does.
static NANOSECONDS: WallTime = WallTime;

impl Measurement for ThreadCpuTime {
    type Intermediate = u64;
    type Value = u64;

    fn start(&self) -> u64 {
        thread_cpu_ns()
    }

    fn end(&self, started: u64) -> u64 {
        thread_cpu_ns().saturating_sub(started)
    }

    fn add(&self, a: &u64, b: &u64) -> u64 {
        a + b
    }

    fn zero(&self) -> u64 {
        0
    }

    fn to_f64(&self, value: &u64) -> f64 {
        *value as f64
    }

    fn formatter(&self) -> &dyn ValueFormatter {
        NANOSECONDS.formatter()
    }
}

fn thread_cpu_ns() -> u64 {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat")
        .expect("/proc/thread-self/schedstat reads (Linux)");
    text.split_whitespace()
        .next()
        .and_then(|ns| ns.parse().ok())
        .expect("schedstat starts with the CPU time in ns")
}
