//! CDN signing: [`hostapi::cdn_signature`] against its floor, the SHA-1 and hex
//! encoding of the same bytes already laid end to end. Timed in the thread's CPU
//! time.

use std::hint::black_box;

use std::time::Duration;

use criterion::{Criterion, SamplingMode, Throughput};
use sha1::{Digest, Sha1};

use crate::cpu_time::ThreadCpuTime;

pub(crate) const GROUP: &str = "cdn_signature";
pub(crate) const FACADE: &str = "facade_cdn_signature";
pub(crate) const FLOOR: &str = "sha1_hex_floor";

const SECRET: &str = "0123456789abcdef0123456789abcdef";
const TIMESTAMP: i64 = 1_700_000_000;
const PATH: &str = "/customers/C123456/origins/104";

pub(crate) fn bench(criterion: &mut Criterion<ThreadCpuTime>) {
    let joined = format!("{SECRET}{TIMESTAMP}{PATH}");
    let floor = |input: &str| hex::encode(Sha1::digest(input.as_bytes()));
    assert_eq!(
        hostapi::cdn_signature(SECRET, TIMESTAMP, PATH),
        floor(&joined),
        "the floor computes the same signature"
    );

    let mut group = criterion.benchmark_group(GROUP);
    // Few long samples: the CPU clock moves in scheduler ticks.
    group
        .throughput(Throughput::Elements(1))
        .sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .measurement_time(Duration::from_secs(4));
    group.bench_function(FACADE, |b| {
        b.iter(|| hostapi::cdn_signature(black_box(SECRET), black_box(TIMESTAMP), black_box(PATH)))
    });
    group.bench_function(FLOOR, |b| b.iter(|| floor(black_box(&joined))));
    group.finish();
}
