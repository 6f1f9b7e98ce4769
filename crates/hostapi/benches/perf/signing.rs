//! CDN signing: [`hostapi::signing::cdn_signature`] against its floor, the SHA-1 and hex
//! encoding of the same bytes already laid end to end. Timed in the thread's CPU
//! time, in alternation, by batches of [`BATCH`] signatures.

use std::hint::black_box;

use criterion::Criterion;
use sha1::{Digest, Sha1};

use crate::paired::{Clock, Pair, Ratio};

pub(crate) const GROUP: &str = "cdn_signature";
/// `cdn_signature` over SHA-1 + hex of the joined input.
pub(crate) const FACADE_OVER_SHA1: Pair = Pair {
    group: GROUP,
    name: "facade_over_sha1_hex",
    clock: Clock::ThreadCpu,
    units_per_round: 4,
};
/// Signatures per timed unit (a few milliseconds).
pub(crate) const BATCH: u32 = 10_000;

const SECRET: &str = "0123456789abcdef0123456789abcdef";
const TIMESTAMP: i64 = 1_700_000_000;
const PATH: &str = "/customers/C123456/origins/104";

pub(crate) fn bench(criterion: &mut Criterion<Ratio>) {
    let joined = format!("{SECRET}{TIMESTAMP}{PATH}");
    let floor = |input: &str| hex::encode(Sha1::digest(input.as_bytes()));
    assert_eq!(
        hostapi::signing::cdn_signature(SECRET, TIMESTAMP, PATH),
        floor(&joined),
        "the floor computes the same signature"
    );

    let mut group = criterion.benchmark_group(GROUP);
    group.sample_size(10);
    FACADE_OVER_SHA1.bench(
        &mut group,
        || {
            for _ in 0..BATCH {
                black_box(hostapi::signing::cdn_signature(
                    black_box(SECRET),
                    black_box(TIMESTAMP),
                    black_box(PATH),
                ));
            }
        },
        || {
            for _ in 0..BATCH {
                black_box(floor(black_box(&joined)));
            }
        },
    );
    group.finish();
}
