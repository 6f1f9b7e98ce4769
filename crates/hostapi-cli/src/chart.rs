//! Terminal charts of traffic: outgoing traffic drawn up from a zero line, incoming
//! traffic drawn down from it, one bar per time bucket, with labelled axes and units.
//!
//! Drawn by hand rather than with `textplots`: textplots puts value labels only at the
//! top and bottom right, names no axis, has no legend, and draws every series with the
//! same braille dots, so without colour (`NO_COLOR`, pipes) two series cannot be told
//! apart. Here the two directions sit on either side of the zero line, so they read
//! the same in colour and without.

use std::fmt::Write;

/// What the values measure, for the axis labels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unit {
    /// Amounts of data, in bytes (labelled in decimal kB, MB, GB…).
    Bytes,
    /// Rates, in bits per second (labelled in kbps, Mbps, Gbps…).
    BitsPerSecond,
}

impl Unit {
    /// `value` in the largest unit that keeps it at 1 or more, e.g. `1.2 GB`.
    pub(crate) fn format(self, value: f64) -> String {
        let (units, step): (&[&str], f64) = match self {
            Unit::Bytes => (&["B", "kB", "MB", "GB", "TB", "PB"], 1000.0),
            Unit::BitsPerSecond => (&["bps", "kbps", "Mbps", "Gbps", "Tbps"], 1000.0),
        };
        let mut scaled = value;
        let mut index = 0;
        while scaled.abs() >= step && index + 1 < units.len() {
            scaled /= step;
            index += 1;
        }
        let text = if index == 0 || scaled >= 100.0 {
            format!("{scaled:.0}")
        } else {
            let text = format!("{scaled:.1}");
            text.strip_suffix(".0").map(str::to_owned).unwrap_or(text)
        };
        format!("{text} {}", units[index])
    }
}

/// A chart of outgoing (up) and incoming (down) traffic per bucket.
#[derive(Debug, Clone)]
pub(crate) struct TrafficChart {
    /// The first line.
    pub(crate) title: String,
    /// What the y axis measures per bar, e.g. `data per day`.
    pub(crate) y_caption: String,
    /// What the x axis is, e.g. `day (UTC)`.
    pub(crate) x_caption: String,
    /// The label of each bucket, for the x axis (e.g. `01-31`).
    pub(crate) labels: Vec<String>,
    /// Outgoing traffic per bucket, drawn up.
    pub(crate) outgoing: Vec<f64>,
    /// Incoming traffic per bucket, drawn down.
    pub(crate) incoming: Vec<f64>,
    /// The unit of the values.
    pub(crate) unit: Unit,
    /// How buckets combine when there are more than columns: sum amounts, average
    /// rates.
    pub(crate) combine: Combine,
}

/// How several buckets become one bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Combine {
    /// Add them up (amounts of data).
    Sum,
    /// Take their mean (rates).
    Mean,
}

/// Columns kept for the value labels of the y axis.
const LABEL_ROOM: usize = 10;
/// Rows on each side of the zero line.
const HALF_ROWS: usize = 6;
const UP_COLOUR: &str = "\x1b[32m";
const DOWN_COLOUR: &str = "\x1b[36m";
const RESET: &str = "\x1b[0m";

impl TrafficChart {
    /// Draws the chart within `width` columns (at least 40 are used), in colour or
    /// not. Buckets beyond the room there is are combined, and the legend says how
    /// many make a bar.
    pub(crate) fn render(&self, width: usize, colour: bool) -> String {
        let count = self.outgoing.len().max(self.incoming.len());
        let mut out = String::new();
        let _ = writeln!(out, "{}", self.title);
        if count == 0 {
            let _ = writeln!(out, "(no values in this interval)");
            return out;
        }
        let value_at = |series: &[f64], i: usize| series.get(i).copied().unwrap_or(0.0);
        // Room for the bars once the widest value label ("999.9 kbps") and the axis
        // are set aside.
        let room = width.max(40).saturating_sub(LABEL_ROOM + 2);
        let per_bar = count.div_ceil(room);
        let bars = count.div_ceil(per_bar);
        // A gap between bars when there is room for it keeps them apart.
        let stride = if bars * 2 <= room { 2 } else { 1 };
        let combine = |series: &[f64]| -> Vec<f64> {
            (0..bars)
                .map(|bar| {
                    let range = bar * per_bar..((bar + 1) * per_bar).min(count);
                    let n = range.len().max(1) as f64;
                    let sum: f64 = range.map(|i| value_at(series, i)).sum();
                    match self.combine {
                        Combine::Sum => sum,
                        Combine::Mean => sum / n,
                    }
                })
                .collect()
        };
        let up = combine(&self.outgoing);
        let down = combine(&self.incoming);
        let peak = up.iter().chain(&down).copied().fold(0.0_f64, f64::max);
        let top_label = self.unit.format(peak);
        let mid_label = self.unit.format(peak / 2.0);
        let label_width = [&top_label, &mid_label, &self.unit.format(0.0)]
            .iter()
            .map(|l| l.chars().count())
            .max()
            .unwrap_or(1);
        // Heights in half rows; a value above zero shows at least half a row.
        let half_units = |value: f64| -> usize {
            if peak <= 0.0 || value <= 0.0 {
                return 0;
            }
            let units = (value / peak * (HALF_ROWS * 2) as f64).round() as usize;
            units.clamp(1, HALF_ROWS * 2)
        };
        let up_h: Vec<usize> = up.iter().map(|v| half_units(*v)).collect();
        let down_h: Vec<usize> = down.iter().map(|v| half_units(*v)).collect();
        let paint = |text: String, code: &str| -> String {
            if colour && !text.trim().is_empty() {
                format!("{code}{text}{RESET}")
            } else {
                text
            }
        };
        let row = |heights: &[usize], level: usize, full: char, half: char| -> String {
            let mut line = String::new();
            for h in heights {
                let cell = if *h >= 2 * (level + 1) {
                    full
                } else if *h == 2 * level + 1 {
                    half
                } else {
                    ' '
                };
                line.push(cell);
                if stride == 2 {
                    line.push(' ');
                }
            }
            line.trim_end().to_owned()
        };
        let plot_width = bars * stride;
        let _ = writeln!(out, "{:>label_width$}  {}", "", self.y_caption);
        // Outgoing, from the top row down to the zero line.
        for level in (0..HALF_ROWS).rev() {
            let label = match level {
                l if l == HALF_ROWS - 1 => top_label.as_str(),
                l if l == HALF_ROWS / 2 - 1 => mid_label.as_str(),
                _ => "",
            };
            let tick = if label.is_empty() { '│' } else { '┤' };
            let bars = paint(row(&up_h, level, '█', '▄'), UP_COLOUR);
            let _ = writeln!(out, "{label:>label_width$} {tick}{bars}");
        }
        let _ = writeln!(
            out,
            "{:>label_width$} ┼{}",
            self.unit.format(0.0),
            "─".repeat(plot_width)
        );
        // Incoming, from the zero line down.
        for level in 0..HALF_ROWS {
            let label = match level {
                l if l == HALF_ROWS - 1 => top_label.as_str(),
                l if l == HALF_ROWS / 2 - 1 => mid_label.as_str(),
                _ => "",
            };
            let tick = if label.is_empty() { '│' } else { '┤' };
            let bars = paint(row(&down_h, level, '█', '▀'), DOWN_COLOUR);
            let _ = writeln!(out, "{label:>label_width$} {tick}{bars}");
        }
        // The x axis: ticks and labels under the first, middle and last bars.
        let bar_label =
            |bar: usize| -> String { self.labels.get(bar * per_bar).cloned().unwrap_or_default() };
        let mut ticks: Vec<usize> = vec![0];
        if bars > 2 {
            ticks.push(bars / 2);
        }
        if bars > 1 {
            ticks.push(bars - 1);
        }
        let mut axis: Vec<char> = "─".repeat(plot_width.max(1)).chars().collect();
        for bar in &ticks {
            if let Some(c) = axis.get_mut(bar * stride) {
                *c = '┬';
            }
        }
        let _ = writeln!(
            out,
            "{:>label_width$} └{}",
            "",
            axis.into_iter().collect::<String>()
        );
        let labels_line = x_labels(
            &ticks
                .iter()
                .map(|bar| (bar * stride, bar_label(*bar)))
                .collect::<Vec<_>>(),
        );
        let _ = writeln!(out, "{:>label_width$}  {labels_line}", "");
        let _ = writeln!(out, "{:>label_width$}  {}", "", self.x_caption);
        let bucket_note = if per_bar > 1 {
            format!(" (one bar = {per_bar} buckets)")
        } else {
            String::new()
        };
        let (up_total, down_total) = match self.combine {
            Combine::Sum => (
                format!("total {}", self.unit.format(self.outgoing.iter().sum())),
                format!("total {}", self.unit.format(self.incoming.iter().sum())),
            ),
            Combine::Mean => (
                format!(
                    "peak {}",
                    self.unit
                        .format(self.outgoing.iter().copied().fold(0.0, f64::max))
                ),
                format!(
                    "peak {}",
                    self.unit
                        .format(self.incoming.iter().copied().fold(0.0, f64::max))
                ),
            ),
        };
        let _ = writeln!(
            out,
            "{}  {}{bucket_note}",
            paint(format!("▲ outgoing {up_total}"), UP_COLOUR),
            paint(format!("▼ incoming {down_total}"), DOWN_COLOUR),
        );
        out
    }
}

/// The line of x axis labels: the first at its column, the last ending at its column
/// (pushed right if the two would touch), the ones between centred on their columns
/// when they fit.
fn x_labels(ticks: &[(usize, String)]) -> String {
    let Some(((first_column, first), rest)) = ticks.split_first() else {
        return String::new();
    };
    let mut placed = vec![(*first_column, first.clone())];
    if let Some(((last_column, last), middle)) = rest.split_last() {
        let first_end = first_column + first.chars().count();
        let last_start = (last_column + 1)
            .saturating_sub(last.chars().count())
            .max(first_end + 1);
        for (column, text) in middle {
            let start = column.saturating_sub(text.chars().count() / 2);
            if start > first_end && start + text.chars().count() < last_start {
                placed.push((start, text.clone()));
            }
        }
        placed.push((last_start, last.clone()));
    }
    let mut line = String::new();
    for (start, text) in placed {
        let current = line.chars().count();
        line.push_str(&" ".repeat(start.saturating_sub(current)));
        line.push_str(&text);
    }
    line
}

/// The width charts are drawn within: `$COLUMNS` when set, else 80.
pub(crate) fn terminal_width() -> usize {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse().ok())
        .filter(|c: &usize| *c >= 40)
        .unwrap_or(80)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chart(outgoing: Vec<f64>, incoming: Vec<f64>) -> TrafficChart {
        let labels = (1..=outgoing.len()).map(|d| format!("01-{d:02}")).collect();
        TrafficChart {
            title: "Datatraffic".into(),
            y_caption: "data per day".into(),
            x_caption: "day (UTC)".into(),
            labels,
            outgoing,
            incoming,
            unit: Unit::Bytes,
            combine: Combine::Sum,
        }
    }

    #[test]
    fn units_scale_to_the_value() {
        assert_eq!(Unit::Bytes.format(0.0), "0 B");
        assert_eq!(Unit::Bytes.format(999.0), "999 B");
        assert_eq!(Unit::Bytes.format(1_500_000_000.0), "1.5 GB");
        assert_eq!(Unit::Bytes.format(2_000_000.0), "2 MB");
        assert_eq!(Unit::Bytes.format(250e12), "250 TB");
        assert_eq!(Unit::BitsPerSecond.format(11e6), "11 Mbps");
    }

    #[test]
    fn outgoing_grows_up_and_incoming_down_with_labelled_axes() {
        let text = chart(vec![2e9, 1e9, 0.0], vec![1e9, 0.0, 2e9]).render(80, false);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "Datatraffic");
        assert!(lines[1].ends_with("data per day"), "{text}");
        // Top row: only the first bar reaches the peak; labelled with it.
        assert!(lines[2].starts_with("2 GB ┤█"), "{text}");
        assert!(!lines[2].contains("█ █"), "{text}");
        // The zero line.
        assert!(lines[8].starts_with(" 0 B ┼──────"), "{text}");
        // Bottom row: only the third bar reaches the peak downwards.
        assert!(lines[14].starts_with("2 GB ┤    █"), "{text}");
        assert!(text.contains("01-01"), "{text}");
        assert!(text.contains("01-03"), "{text}");
        assert!(text.contains("day (UTC)"), "{text}");
        assert!(text.contains("▲ outgoing total 3 GB"), "{text}");
        assert!(text.contains("▼ incoming total 3 GB"), "{text}");
        assert!(!text.contains('\x1b'), "no colour asked: {text}");
        let coloured = chart(vec![2e9], vec![1e9]).render(80, true);
        assert!(coloured.contains(UP_COLOUR) && coloured.contains(DOWN_COLOUR));
    }

    #[test]
    fn x_labels_keep_first_and_last_and_fit_the_middle() {
        let ticks = |items: &[(usize, &str)]| -> Vec<(usize, String)> {
            items.iter().map(|(c, t)| (*c, (*t).to_owned())).collect()
        };
        assert_eq!(
            x_labels(&ticks(&[(0, "01-01"), (20, "01-11"), (40, "01-21")])),
            "01-01             01-11             01-21"
        );
        // Too close: the middle goes, the last moves right of the first.
        assert_eq!(
            x_labels(&ticks(&[(0, "01-01"), (2, "01-02"), (4, "01-03")])),
            "01-01 01-03"
        );
        assert_eq!(x_labels(&ticks(&[(0, "2024")])), "2024");
    }

    #[test]
    fn many_buckets_are_combined_to_fit() {
        let text = chart(vec![1.0; 300], vec![1.0; 300]).render(80, false);
        assert!(text.contains("one bar = 5 buckets"), "{text}");
        assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
        assert!(text.contains("total 300 B"), "{text}");
    }

    #[test]
    fn all_zero_or_empty_series_draw_without_bars() {
        let text = chart(vec![0.0, 0.0], vec![0.0, 0.0]).render(80, false);
        assert!(!text.contains('█'), "{text}");
        let empty = chart(vec![], vec![]).render(80, false);
        assert!(empty.contains("no values"), "{empty}");
    }
}
