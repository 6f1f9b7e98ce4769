//! Paired measurement: a benchmark and its floor timed in alternation, so that what
//! the machine does meanwhile (other processes, CPU frequency, a neighbour on the same
//! host) weighs on both alike.
//!
//! Measured one after the other, as criterion measures the functions of a group, the
//! two sides of a ratio drifted apart by up to 40 % between runs on this 2-core VM
//! (the same decode took 68 ms in one run and 101 ms in the next), which made every
//! ratio a coin toss. Here one *round* runs a block of the benchmark and a block of
//! the floor (in that order in even rounds, the other way in odd ones) and yields the
//! round's ratio: benchmark time over floor time. A block is one untimed unit then
//! `units_per_round` timed ones: the timed units follow a unit of their own side, as
//! they would in a loop of their own (measured with alternating single units instead,
//! the raw decode ran 15 % faster right after the facade's than after its own, which
//! is the allocator's doing, not the decoder's).
//!
//! Criterion drives the rounds: [`Ratio`] is a criterion measurement whose value is a
//! sum of round ratios, so criterion's per-iteration estimate (and its confidence
//! interval, outlier analysis and saved `estimates.json`) is the ratio itself. The
//! absolute time of each unit is kept on the side ([`Recorded`]) for the table.

use std::collections::BTreeMap;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use criterion::measurement::{Measurement, ValueFormatter};
use criterion::{BenchmarkGroup, SamplingMode, Throughput};

/// A criterion measurement whose values are ratios (a sum of round ratios per sample;
/// criterion divides by the rounds). Only [`Pair::bench`] produces them.
pub(crate) struct Ratio;

impl Measurement for Ratio {
    type Intermediate = ();
    type Value = f64;

    fn start(&self) {}

    // Never timed by criterion itself: every benchmark uses `iter_custom`.
    fn end(&self, (): ()) -> f64 {
        0.0
    }

    fn add(&self, a: &f64, b: &f64) -> f64 {
        a + b
    }

    fn zero(&self) -> f64 {
        0.0
    }

    fn to_f64(&self, value: &f64) -> f64 {
        *value
    }

    fn formatter(&self) -> &dyn ValueFormatter {
        &RatioFormatter
    }
}

/// Shows ratios as they are, with an `x`.
struct RatioFormatter;

impl ValueFormatter for RatioFormatter {
    fn scale_values(&self, _typical: f64, _values: &mut [f64]) -> &'static str {
        "x"
    }

    fn scale_throughputs(
        &self,
        _typical: f64,
        _: &Throughput,
        _values: &mut [f64],
    ) -> &'static str {
        "x"
    }

    fn scale_for_machines(&self, _values: &mut [f64]) -> &'static str {
        "ratio"
    }
}

/// What a unit's time is read from.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Clock {
    /// The benchmark thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`, to the nanosecond):
    /// for work that only computes, which other processes then cannot stretch.
    ThreadCpu,
    /// Wall time: for calls, whose time is mostly spent waiting for the server.
    Wall,
}

impl Clock {
    /// The time of one unit, dropping what it returns included: the facade frees the
    /// raw records' leftovers while it normalises, so the floor must pay for freeing
    /// its own result too.
    fn time<T>(self, unit: impl FnOnce() -> T) -> Duration {
        match self {
            Self::Wall => {
                let started = Instant::now();
                drop(unit());
                started.elapsed()
            }
            Self::ThreadCpu => {
                let started = thread_cpu();
                drop(unit());
                thread_cpu().saturating_sub(started)
            }
        }
    }
}

fn thread_cpu() -> Duration {
    let now = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Duration::new(
        u64::try_from(now.tv_sec).unwrap_or(0),
        u32::try_from(now.tv_nsec).unwrap_or(0),
    )
}

/// One comparison: its criterion group and name, the clock, and how many units of
/// each side make a round.
pub(crate) struct Pair {
    /// The criterion group [`Pair::bench`] is given.
    pub(crate) group: &'static str,
    pub(crate) name: &'static str,
    pub(crate) clock: Clock,
    pub(crate) units_per_round: u32,
}

impl Pair {
    /// Adds the comparison to `group`: each criterion iteration is one round of
    /// `benchmark` against `floor`; every unit's time and every round's ratio is
    /// recorded under `group/name` (criterion's warm-up rounds too: the medians make
    /// the first, colder rounds harmless).
    pub(crate) fn bench<A, B, RA, RB>(
        &self,
        group: &mut BenchmarkGroup<'_, Ratio>,
        mut benchmark: A,
        mut floor: B,
    ) where
        A: FnMut() -> RA,
        B: FnMut() -> RB,
    {
        let key = format!("{}/{}", self.group, self.name);
        group.sampling_mode(SamplingMode::Flat);
        group.bench_function(self.name, |b| {
            b.iter_custom(|rounds| {
                let mut sum = 0.0;
                let mut times = Times::default();
                for round in 0..rounds {
                    let (measured, base) = if round % 2 == 0 {
                        let measured = self.block(&mut benchmark, &mut times.measured);
                        (measured, self.block(&mut floor, &mut times.floor))
                    } else {
                        let base = self.block(&mut floor, &mut times.floor);
                        (self.block(&mut benchmark, &mut times.measured), base)
                    };
                    let ratio = measured.as_secs_f64() / base.as_secs_f64().max(1e-12);
                    times.ratios.push(ratio);
                    sum += ratio;
                }
                Recorded::add(&key, times);
                sum
            })
        });
    }

    /// One side's share of a round: an untimed unit (so the timed ones follow a unit
    /// of their own side, whatever the other side left behind in the allocator and the
    /// caches), then `units_per_round` timed units; their total time.
    fn block<R>(&self, unit: &mut impl FnMut() -> R, times: &mut Vec<Duration>) -> Duration {
        drop(unit());
        let mut total = Duration::ZERO;
        for _ in 0..self.units_per_round {
            let took = self.clock.time(&mut *unit);
            total += took;
            times.push(took);
        }
        total
    }
}

/// Unit times of the two sides.
#[derive(Default)]
struct Times {
    measured: Vec<Duration>,
    floor: Vec<Duration>,
    /// One per round.
    ratios: Vec<f64>,
}

/// The unit times of every comparison in this run, for the table's absolute figures.
pub(crate) struct Recorded;

static RECORDED: Mutex<BTreeMap<String, Times>> = Mutex::new(BTreeMap::new());

impl Recorded {
    fn add(key: &str, times: Times) {
        let mut all = RECORDED.lock().unwrap_or_else(PoisonError::into_inner);
        let entry = all.entry(key.to_owned()).or_default();
        entry.measured.extend(times.measured);
        entry.floor.extend(times.floor);
        entry.ratios.extend(times.ratios);
    }

    /// The median round ratio of `group/name` and the number of rounds; `None` when it
    /// did not run.
    pub(crate) fn ratio(group: &str, name: &str) -> Option<(f64, usize)> {
        let mut all = RECORDED.lock().unwrap_or_else(PoisonError::into_inner);
        let ratios = &mut all.get_mut(&format!("{group}/{name}"))?.ratios;
        ratios.sort_unstable_by(f64::total_cmp);
        Some((*ratios.get(ratios.len() / 2)?, ratios.len()))
    }

    /// The median unit time (ns) of each side of `group/name`: (benchmark, floor);
    /// `None` when it did not run.
    pub(crate) fn medians(group: &str, name: &str) -> Option<(f64, f64)> {
        let mut all = RECORDED.lock().unwrap_or_else(PoisonError::into_inner);
        let times = all.get_mut(&format!("{group}/{name}"))?;
        Some((median(&mut times.measured)?, median(&mut times.floor)?))
    }
}

fn median(times: &mut [Duration]) -> Option<f64> {
    if times.is_empty() {
        return None;
    }
    times.sort_unstable();
    Some(times[times.len() / 2].as_secs_f64() * 1e9)
}
