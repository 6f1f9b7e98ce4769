//! The table of ratios: each benchmark against its reference, measured in the same
//! run, and against its target. The last line names the worst ratio against its target.

use std::fmt::Write as _;

use crate::cli_memory::{self, CliMemory};
use crate::instructions::Counts;
use crate::memory::{self, Memory};
use crate::paired::{Pair, Recorded};
use crate::{calls, decode, signing};

/// The line before the table (`cargo xtask bench` prints what follows it).
pub(crate) const MARKER: &str = "== hostapi performance: each against its floor, same run ==";

/// Which way a ratio must stay.
#[derive(Debug, Clone, Copy)]
enum Target {
    /// The ratio must be at most this.
    AtMost(f64),
    /// The ratio must be at least this.
    AtLeast(f64),
    /// Shown to explain another row; not a target.
    Info,
}

impl Target {
    /// How much of the allowance the ratio uses: above 1 misses the target.
    fn used(self, ratio: f64) -> f64 {
        match self {
            Self::AtMost(limit) => ratio / limit,
            Self::AtLeast(limit) => limit / ratio,
            Self::Info => 0.0,
        }
    }

    fn describe(self) -> String {
        match self {
            Self::AtMost(limit) => format!("<= {limit:.2}x"),
            Self::AtLeast(limit) => format!(">= {limit:.2}x"),
            Self::Info => "(info)".to_owned(),
        }
    }
}

/// One row: what was measured, against what, and the ratio.
struct Row {
    name: &'static str,
    measured: String,
    floor: String,
    /// `None` when a side was not run.
    ratio: Option<f64>,
    target: Target,
}

/// How a side's median unit time (ns) is shown.
type Show = fn(f64) -> String;

impl Row {
    /// The row of a paired measurement: each side's median unit time, labelled and
    /// shown by `sides`, and the median of the rounds' ratios (robust to a round that
    /// something else on the machine disturbed, unlike a mean).
    fn paired(name: &'static str, pair: &Pair, sides: [(&str, Show); 2], target: Target) -> Self {
        let units = Recorded::medians(pair.group, pair.name);
        let [(measured, show_measured), (floor, show_floor)] = sides;
        Self {
            name,
            measured: show(units, |(ns, _)| format!("{} {measured}", show_measured(ns))),
            floor: show(units, |(_, ns)| format!("{} {floor}", show_floor(ns))),
            ratio: Recorded::ratio(pair.group, pair.name).map(|(ratio, _)| ratio),
            target,
        }
    }
}

/// Every row of this run.
pub(crate) struct Report {
    rows: Vec<Row>,
}

impl Report {
    /// The rows from this run's paired measurements (`paired::Recorded`), the memory
    /// measurement and the instruction count (each `None` when not run).
    pub(crate) fn read(
        memory: Option<Memory>,
        instructions: Option<Counts>,
        cli: Option<CliMemory>,
    ) -> Self {
        let mut rows = vec![
            Row::paired(
                "decode+normalise 10k v1 servers",
                &decode::FACADE_OVER_RAW,
                [("facade", millis), ("raw types", millis)],
                Target::AtMost(1.2),
            ),
            Row::paired(
                "  the same against serde Value",
                &decode::FACADE_OVER_VALUE,
                [("facade", millis), ("serde_json::Value", millis)],
                Target::Info,
            ),
            Row::paired(
                "  a path-tracked decode (errors)",
                &decode::TRACKED_OVER_RAW,
                [("decode only", millis), ("raw types", millis)],
                Target::Info,
            ),
            // Wall time, which on a shared machine measures how cold the caches are
            // after each trip through the kernel as much as the code: the one-call
            // target is the instruction count's, below.
            Row::paired(
                "one call (GET v1 server)",
                &calls::FACADE_OVER_REQWEST,
                [("facade", micros), ("bare reqwest", micros)],
                Target::Info,
            ),
            Row::paired(
                "  bare reqwest + raw-type decode",
                &calls::TYPED_OVER_REQWEST,
                [("typed", micros), ("bare reqwest", micros)],
                Target::Info,
            ),
        ];
        // Deterministic where wall time is not: one call in instructions, against bare
        // reqwest with the body decoded into the raw type (not run without valgrind).
        rows.push(match instructions {
            Some(counts) => Row {
                name: "  one call, instructions",
                measured: format!("{} facade", counts.facade),
                floor: format!("{} bare reqwest + raw decode", counts.typed),
                ratio: Some(counts.facade as f64 / counts.typed.max(1) as f64),
                target: Target::AtMost(1.15),
            },
            None => Row {
                name: "  one call, instructions",
                measured: "not run (no valgrind)".to_owned(),
                floor: String::new(),
                ratio: None,
                target: Target::AtMost(1.15),
            },
        });
        // Throughput: the facade's requests per second over bare reqwest's, the inverse
        // of the time ratio.
        let mut bulk = Row::paired(
            "bulk 1000 bare metal details",
            &calls::GET_MANY_OVER_REQWEST,
            [("get_many", bulk_rate), ("bare reqwest", bulk_rate)],
            Target::AtLeast(0.8),
        );
        bulk.ratio = bulk.ratio.map(|r| 1.0 / r);
        rows.push(bulk);
        rows.push(Row::paired(
            "  client CPU for the 1000",
            &calls::GET_MANY_CPU_OVER_REQWEST,
            [("get_many", millis), ("bare reqwest", millis)],
            Target::Info,
        ));

        let rss_row = |target| match memory {
            Some(Memory { rss, .. }) => Row {
                name: "  resident set (glibc keeps freed memory)",
                measured: format!("+{} KiB over {} pages", rss.all_kib, rss.pages),
                floor: format!("+{} KiB over one page", rss.one_page_kib),
                // A page's growth under one memory page would make any ratio noise.
                ratio: Some(rss.all_kib as f64 / rss.one_page_kib.max(4) as f64),
                target,
            },
            None => Row {
                name: "  resident set",
                measured: "not run".to_owned(),
                floor: String::new(),
                ratio: None,
                target,
            },
        };
        match memory.and_then(|m| m.heap) {
            Some(heap) => {
                let page = heap.one_page.saturating_sub(heap.idle).max(1);
                rows.push(Row {
                    name: "stream cloud servers (live heap)",
                    measured: format!(
                        "{} KiB peak, {}k servers",
                        heap.all.saturating_sub(heap.idle) / 1024,
                        heap.pages * u64::from(memory::PAGE_SIZE) / 1000
                    ),
                    floor: format!("{} KiB one page of {}", page / 1024, memory::PAGE_SIZE),
                    ratio: Some(heap.all.saturating_sub(heap.idle) as f64 / page as f64),
                    target: Target::AtMost(2.0),
                });
                rows.push(Row {
                    name: "  same, against a second page",
                    measured: format!("{} KiB peak", heap.all.saturating_sub(heap.idle) / 1024),
                    floor: format!(
                        "{} KiB two pages",
                        heap.two_pages.saturating_sub(heap.idle) / 1024
                    ),
                    ratio: Some(
                        heap.all.saturating_sub(heap.idle) as f64
                            / heap.two_pages.saturating_sub(heap.idle).max(1) as f64,
                    ),
                    target: Target::Info,
                });
                rows.push(rss_row(Target::Info));
            }
            // Without valgrind the resident set is all there is.
            None => rows.push(rss_row(Target::AtMost(2.0))),
        }

        // The CLI's peak resident set printing a 3.4 MB answer: at most 150 MB as JSON
        // and 250 MB as a table (44x and 73x the answer).
        for (name, target, peak) in [
            (
                "CLI 200k list as JSON: peak RSS",
                44.0,
                cli.map(|cli| cli.json_kib),
            ),
            (
                "CLI 200k list as table: peak RSS",
                73.0,
                cli.map(|cli| cli.table_kib),
            ),
        ] {
            rows.push(match (cli, peak) {
                (Some(cli), Some(kib)) => Row {
                    name,
                    measured: format!("{:.1} MB peak", kib as f64 * 1024.0 / 1e6),
                    floor: format!(
                        "{:.2} MB answer, {}k records",
                        cli.answer_bytes as f64 / 1e6,
                        cli_memory::RECORDS / 1000
                    ),
                    ratio: Some(kib as f64 * 1024.0 / cli.answer_bytes.max(1) as f64),
                    target: Target::AtMost(target),
                },
                _ => Row {
                    name,
                    measured: "not run (needs hostapi built --release)".to_owned(),
                    floor: String::new(),
                    ratio: None,
                    target: Target::AtMost(target),
                },
            });
        }

        rows.push(Row::paired(
            "CDN signatures",
            &signing::FACADE_OVER_SHA1,
            [("cdn_signature", signing_rate), ("sha1+hex", signing_rate)],
            Target::AtMost(1.5),
        ));
        Self { rows }
    }

    /// The table, one row per benchmark, then the worst ratio against its target.
    pub(crate) fn render(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{:<34} {:<30} {:<40} {:>7}  {:<9}",
            "benchmark", "measured", "reference (same run)", "ratio", "target"
        );
        for row in &self.rows {
            let (ratio, verdict) = match row.ratio {
                Some(ratio) if matches!(row.target, Target::Info) => (format!("{ratio:.3}x"), ""),
                Some(ratio) if row.target.used(ratio) <= 1.0 => (format!("{ratio:.3}x"), "ok"),
                Some(ratio) => (format!("{ratio:.3}x"), "MISSED"),
                None => ("-".to_owned(), "not run"),
            };
            let _ = writeln!(
                out,
                "{:<34} {:<30} {:<40} {:>7}  {:<9} {}",
                row.name,
                row.measured,
                row.floor,
                ratio,
                row.target.describe(),
                verdict
            );
        }
        let worst = self
            .rows
            .iter()
            .filter_map(|row| Some((row, row.ratio?)))
            .max_by(|(a, ra), (b, rb)| a.target.used(*ra).total_cmp(&b.target.used(*rb)));
        let _ = match worst {
            Some((row, ratio)) => {
                let used = row.target.used(ratio);
                writeln!(
                    out,
                    "worst: {} {ratio:.3}x against {} ({:.0}% of its allowance): {}",
                    row.name,
                    row.target.describe(),
                    used * 100.0,
                    if used <= 1.0 {
                        "within target"
                    } else {
                        "MISSED"
                    }
                )
            }
            None => writeln!(out, "worst: nothing measured: MISSED"),
        };
        out
    }
}

fn show<T>(value: Option<T>, format: impl Fn(T) -> String) -> String {
    value.map_or_else(|| "not run".to_owned(), format)
}

fn millis(ns: f64) -> String {
    format!("{:.2} ms", ns / 1e6)
}

fn micros(ns: f64) -> String {
    format!("{:.1} us", ns / 1e3)
}

/// Bare metal details per second, from the time of one bulk unit.
fn bulk_rate(ns: f64) -> String {
    format!("{:.0}/s", f64::from(calls::BARE_METALS) / (ns / 1e9))
}

/// Signatures per second, from the time of one batch.
fn signing_rate(ns: f64) -> String {
    format!("{:.0}/s", f64::from(signing::BATCH) / (ns / 1e9))
}
