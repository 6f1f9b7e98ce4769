//! The table of ratios: each benchmark against its floor, measured in the same run,
//! and against its target. The last line names the worst ratio against its target.

use std::fmt::Write as _;

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

/// Every row of this run.
pub(crate) struct Report {
    rows: Vec<Row>,
}

impl Report {
    /// The rows from this run's paired measurements (`paired::Recorded`) and the
    /// memory measurement.
    pub(crate) fn read(memory: Option<Memory>) -> Self {
        // The median of the rounds' ratios (robust to a round that something else on
        // the machine disturbed, unlike a mean), and the median time of one unit of
        // each side.
        let ratio = |pair: &Pair| Recorded::ratio(pair.group, pair.name).map(|(r, _)| r);
        let units = |pair: &Pair| Recorded::medians(pair.group, pair.name);
        let mut rows = Vec::new();

        let facade = units(&decode::FACADE_OVER_RAW);
        let value = units(&decode::FACADE_OVER_VALUE);
        rows.push(Row {
            name: "decode+normalise 10k v1 servers",
            measured: show(facade, |(ns, _)| format!("{} facade", millis(ns))),
            floor: show(facade, |(_, ns)| format!("{} raw types", millis(ns))),
            ratio: ratio(&decode::FACADE_OVER_RAW),
            target: Target::AtMost(1.2),
        });
        rows.push(Row {
            name: "  the same against serde Value",
            measured: show(value, |(ns, _)| format!("{} facade", millis(ns))),
            floor: show(value, |(_, ns)| format!("{} serde_json::Value", millis(ns))),
            ratio: ratio(&decode::FACADE_OVER_VALUE),
            target: Target::Info,
        });
        let tracked = units(&decode::TRACKED_OVER_RAW);
        rows.push(Row {
            name: "  a path-tracked decode (errors)",
            measured: show(tracked, |(ns, _)| format!("{} decode only", millis(ns))),
            floor: show(tracked, |(_, ns)| format!("{} raw types", millis(ns))),
            ratio: ratio(&decode::TRACKED_OVER_RAW),
            target: Target::Info,
        });

        let one = units(&calls::FACADE_OVER_REQWEST);
        rows.push(Row {
            name: "one call (GET v1 server)",
            measured: show(one, |(ns, _)| format!("{} facade", micros(ns))),
            floor: show(one, |(_, ns)| format!("{} bare reqwest", micros(ns))),
            ratio: ratio(&calls::FACADE_OVER_REQWEST),
            target: Target::AtMost(1.1),
        });
        let typed = units(&calls::TYPED_OVER_REQWEST);
        rows.push(Row {
            name: "  bare reqwest + raw-type decode",
            measured: show(typed, |(ns, _)| format!("{} typed", micros(ns))),
            floor: show(typed, |(_, ns)| format!("{} bare reqwest", micros(ns))),
            ratio: ratio(&calls::TYPED_OVER_REQWEST),
            target: Target::Info,
        });

        let bulk = units(&calls::GET_MANY_OVER_REQWEST);
        let per_second = |ns: f64| f64::from(calls::BARE_METALS) / (ns / 1e9);
        rows.push(Row {
            name: "bulk 1000 bare metal details",
            measured: show(bulk, |(ns, _)| format!("{:.0}/s get_many", per_second(ns))),
            floor: show(bulk, |(_, ns)| {
                format!("{:.0}/s bare reqwest", per_second(ns))
            }),
            // Throughput: the facade's requests per second over bare reqwest's, the
            // inverse of the time ratio.
            ratio: ratio(&calls::GET_MANY_OVER_REQWEST).map(|r| 1.0 / r),
            target: Target::AtLeast(0.8),
        });

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

        let signing = units(&signing::FACADE_OVER_SHA1);
        let per_second = |ns: f64| f64::from(signing::BATCH) / (ns / 1e9);
        rows.push(Row {
            name: "CDN signatures",
            measured: show(signing, |(ns, _)| {
                format!("{:.0}/s cdn_signature", per_second(ns))
            }),
            floor: show(signing, |(_, ns)| {
                format!("{:.0}/s sha1+hex", per_second(ns))
            }),
            ratio: ratio(&signing::FACADE_OVER_SHA1),
            target: Target::AtMost(1.5),
        });
        Self { rows }
    }

    /// The table, one row per benchmark, then the worst ratio against its target.
    pub(crate) fn render(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{:<34} {:<30} {:<40} {:>7}  {:<9}",
            "benchmark", "measured", "floor (same run)", "ratio", "target"
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
