//! The table of ratios: each benchmark against its floor, measured in the same run,
//! and against its target. The last line names the worst ratio against its target.

use std::fmt::Write as _;
use std::path::Path;
use std::time::SystemTime;

use crate::memory::{self, Memory};
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
    /// Reads this run's criterion estimates (files older than `started` belong to an
    /// earlier run and count as not run) and the memory measurement.
    pub(crate) fn read(output: &Path, started: SystemTime, memory: Option<Memory>) -> Self {
        let time = |group: &str, bench: &str| median_ns(output, group, bench, started);
        let mut rows = Vec::new();

        let facade = time(decode::GROUP, decode::FACADE);
        let raw = time(decode::GROUP, decode::RAW);
        let value = time(decode::GROUP, decode::VALUE);
        rows.push(Row {
            name: "decode+normalise 10k v1 servers",
            measured: show(facade, |ns| format!("{} facade", millis(ns))),
            floor: match (raw, value) {
                (Some(raw), Some(value)) => format!(
                    "{} raw types ({} Value, {:.2}x)",
                    millis(raw),
                    millis(value),
                    value / raw
                ),
                _ => show(raw, |ns| format!("{} raw types", millis(ns))),
            },
            ratio: ratio(facade, raw),
            target: Target::AtMost(1.2),
        });

        let tracked = time(decode::GROUP, decode::TRACKED);
        rows.push(Row {
            name: "  of which the path-tracked decode",
            measured: show(tracked, |ns| format!("{} decode only", millis(ns))),
            floor: show(raw, |ns| format!("{} raw types", millis(ns))),
            ratio: ratio(tracked, raw),
            target: Target::Info,
        });

        let facade = time(calls::ONE_GROUP, calls::FACADE);
        let bare = time(calls::ONE_GROUP, calls::REQWEST);
        rows.push(Row {
            name: "one call (GET v1 server)",
            measured: show(facade, |ns| format!("{} facade", micros(ns))),
            floor: show(bare, |ns| format!("{} bare reqwest", micros(ns))),
            ratio: ratio(facade, bare),
            target: Target::AtMost(1.1),
        });

        let typed = time(calls::ONE_GROUP, calls::REQWEST_RAW);
        rows.push(Row {
            name: "  bare reqwest + raw-type decode",
            measured: show(typed, |ns| format!("{} typed", micros(ns))),
            floor: show(bare, |ns| format!("{} bare reqwest", micros(ns))),
            ratio: ratio(typed, bare),
            target: Target::Info,
        });

        let facade = time(calls::BULK_GROUP, calls::FACADE);
        let bare = time(calls::BULK_GROUP, calls::REQWEST);
        let per_second = |ns: f64| f64::from(calls::BARE_METALS) / (ns / 1e9);
        rows.push(Row {
            name: "bulk 1000 bare metal details",
            measured: show(facade, |ns| format!("{:.0}/s get_many", per_second(ns))),
            floor: show(bare, |ns| format!("{:.0}/s bare reqwest", per_second(ns))),
            // Throughput: the facade's requests per second over bare reqwest's.
            ratio: ratio(bare, facade),
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

        let facade = time(signing::GROUP, signing::FACADE);
        let floor = time(signing::GROUP, signing::FLOOR);
        rows.push(Row {
            name: "CDN signatures",
            measured: show(facade, |ns| format!("{:.0}/s cdn_signature", 1e9 / ns)),
            floor: show(floor, |ns| format!("{:.0}/s sha1+hex", 1e9 / ns)),
            ratio: ratio(facade, floor),
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
                Some(ratio) if matches!(row.target, Target::Info) => (format!("{ratio:.2}x"), ""),
                Some(ratio) if row.target.used(ratio) <= 1.0 => (format!("{ratio:.2}x"), "ok"),
                Some(ratio) => (format!("{ratio:.2}x"), "MISSED"),
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
                    "worst: {} {ratio:.2}x against {} ({:.0}% of its allowance): {}",
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

fn ratio(numerator: Option<f64>, denominator: Option<f64>) -> Option<f64> {
    Some(numerator? / denominator?)
}

fn show(ns: Option<f64>, format: impl Fn(f64) -> String) -> String {
    ns.map_or_else(|| "not run".to_owned(), format)
}

fn millis(ns: f64) -> String {
    format!("{:.2} ms", ns / 1e6)
}

fn micros(ns: f64) -> String {
    format!("{:.1} us", ns / 1e3)
}

/// The median time per iteration (ns) criterion estimated in this run.
fn median_ns(output: &Path, group: &str, bench: &str, started: SystemTime) -> Option<f64> {
    let path = output.join(group).join(bench).join("new/estimates.json");
    let fresh = std::fs::metadata(&path)
        .and_then(|m| m.modified())
        .is_ok_and(|modified| modified >= started);
    if !fresh {
        return None;
    }
    let text = std::fs::read_to_string(&path).ok()?;
    let estimates: serde_json::Value = serde_json::from_str(&text).ok()?;
    estimates["median"]["point_estimate"].as_f64()
}
