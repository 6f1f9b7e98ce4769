//! Network usage of bare metal servers (`hostapi bare-metal usage …`): the figures as
//! tables, a day-by-day chart, and the service's own PNG graphs.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use chrono::NaiveDate;
use clap::{Args, Subcommand};
use futures::{StreamExt, TryStreamExt};
use hostapi::bare_metal::{PortUsage, UsageReport};
use hostapi::types::{BareMetalId, BitRate, DataSize};
use serde::Serialize;
use serde_json::Value;

use super::cloud::decimal;
use super::{Context, DayRange, parse_id};
use crate::chart::{Combine, TrafficChart, Unit, terminal_width};
use crate::failure::{API, Failure};
use crate::output::{lookup, scalar};

#[derive(Debug, Subcommand)]
pub(crate) enum UsageCommand {
    /// Bandwidth and data traffic over an interval, per switch port.
    #[command(
        after_help = "Example:\n  hostapi --sandbox bare-metal usage get 20001 --from 2024-01-01 --to 2024-01-31"
    )]
    Get {
        /// The server's id.
        #[arg(value_parser = parse_id::<BareMetalId>, add = clap_complete::ArgValueCandidates::new(crate::completion::bare_metal_ids))]
        id: BareMetalId,
        #[command(flatten)]
        range: DayRange,
    },
    /// Bandwidth (bit rates) over an interval, per switch port; --chart draws it
    /// day by day, --png writes the service's graph.
    #[command(
        after_help = "Examples:\n  hostapi --sandbox bare-metal usage bandwidth 20001 --from 2024-01-01 --to 2024-01-14 --chart\n  hostapi --sandbox bare-metal usage bandwidth 20001 --from 2024-01-01 --to 2024-01-31 \\\n    --png bandwidth.png"
    )]
    Bandwidth {
        /// The server's id.
        #[arg(value_parser = parse_id::<BareMetalId>, add = clap_complete::ArgValueCandidates::new(crate::completion::bare_metal_ids))]
        id: BareMetalId,
        #[command(flatten)]
        range: DayRange,
        #[command(flatten)]
        picture: PictureArgs,
    },
    /// Data traffic (amounts) over an interval, per switch port; --chart draws it
    /// day by day, --png writes the service's graph.
    #[command(
        after_help = "Examples:\n  hostapi --sandbox bare-metal usage datatraffic 20001 --from 2024-01-01 --to 2024-01-14 --chart\n  hostapi --sandbox bare-metal usage datatraffic 20001 --from 2024-01-01 --to 2024-01-31 \\\n    --png traffic.png"
    )]
    Datatraffic {
        /// The server's id.
        #[arg(value_parser = parse_id::<BareMetalId>, add = clap_complete::ArgValueCandidates::new(crate::completion::bare_metal_ids))]
        id: BareMetalId,
        #[command(flatten)]
        range: DayRange,
        #[command(flatten)]
        picture: PictureArgs,
    },
}

/// How a usage report can be pictured.
#[derive(Debug, Clone, Args)]
pub(crate) struct PictureArgs {
    /// Draw a chart, outgoing up and incoming down, one bar per day. The API answers
    /// one figure per interval, so this reads each day on its own: one call per day,
    /// at most 62 days. With --output json, prints the daily reports.
    #[arg(long)]
    chart: bool,
    /// Write the service's PNG graph of the interval to FILE (`-`: standard output,
    /// which must not be a terminal unless --force).
    #[arg(long, value_name = "FILE", conflicts_with = "chart")]
    png: Option<PathBuf>,
    /// With `--png -`: write the image to standard output even when it is a terminal
    /// (its bytes are the server's, and a terminal reads some as commands).
    #[arg(long, requires = "png")]
    force: bool,
}

impl PictureArgs {
    /// Refuses `--png -` to a terminal unless `--force`, before anything is sent.
    fn check_png_target(&self, stdout_is_terminal: bool) -> Result<(), Failure> {
        match &self.png {
            Some(path) if path == Path::new("-") && stdout_is_terminal && !self.force => {
                Err(Failure::usage(
                    "not writing a PNG image to the terminal: its bytes would be read as text and terminal commands",
                )
                .hint("give a file (--png graph.png), redirect standard output (--png - > graph.png), or add --force"))
            }
            _ => Ok(()),
        }
    }
}

/// The most days `--chart` reads, one call each.
const MAX_CHART_DAYS: i64 = 62;
/// How many of those calls run at once.
const CHART_CONCURRENCY: usize = 4;

/// The two kinds of report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Bandwidth,
    DataTraffic,
}

impl Kind {
    fn title(self) -> &'static str {
        match self {
            Kind::Bandwidth => "Bandwidth",
            Kind::DataTraffic => "Data traffic",
        }
    }
}

pub(crate) async fn bare_metal(context: &Context, command: UsageCommand) -> Result<(), Failure> {
    let servers = context.client.bare_metals();
    let out = &context.printer;
    match command {
        UsageCommand::Get { id, range } => {
            let (from, to) = range.resolve()?;
            let usage = servers.network_usage(&id, from, to).await?;
            if out.is_json() {
                return out.one(&usage);
            }
            let json = out.to_json(&usage)?;
            print_report(context, Kind::Bandwidth, &json["bandwidth"])?;
            print_report(context, Kind::DataTraffic, &json["data_traffic"])
        }
        UsageCommand::Bandwidth { id, range, picture } => {
            let (from, to) = range.resolve()?;
            picture.check_png_target(std::io::stdout().is_terminal())?;
            if let Some(path) = &picture.png {
                let png = servers.bandwidth_png(&id, from, to).await?;
                return write_png(path, &png);
            }
            if picture.chart {
                let days =
                    daily(from, to, async |day| servers.bandwidth(&id, day, day).await).await?;
                return chart(context, &id, Kind::Bandwidth, &days);
            }
            let report = servers.bandwidth(&id, from, to).await?;
            if out.is_json() {
                return out.one(&report);
            }
            print_report(context, Kind::Bandwidth, &out.to_json(&report)?)
        }
        UsageCommand::Datatraffic { id, range, picture } => {
            let (from, to) = range.resolve()?;
            picture.check_png_target(std::io::stdout().is_terminal())?;
            if let Some(path) = &picture.png {
                let png = servers.data_traffic_png(&id, from, to).await?;
                return write_png(path, &png);
            }
            if picture.chart {
                let days = daily(from, to, async |day| {
                    servers.data_traffic(&id, day, day).await
                })
                .await?;
                return chart(context, &id, Kind::DataTraffic, &days);
            }
            let report = servers.data_traffic(&id, from, to).await?;
            if out.is_json() {
                return out.one(&report);
            }
            print_report(context, Kind::DataTraffic, &out.to_json(&report)?)
        }
    }
}

/// Prints one report (as serialised) for people: a title, a table per switch port,
/// and the totals.
fn print_report(context: &Context, kind: Kind, report: &Value) -> Result<(), Failure> {
    let out = &context.printer;
    if report.is_null() {
        return out.text(&format!("{}: not reported", kind.title()));
    }
    let server = match (lookup(report, "server_id"), lookup(report, "server_name")) {
        (id, name) if name.is_empty() => id,
        (id, name) => format!("{id} ({name})"),
    };
    out.text(&format!(
        "{} of bare metal server {server}, {} to {}",
        kind.title(),
        lookup(report, "interval.from"),
        lookup(report, "interval.to"),
    ))?;
    let ports = report["ports"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    let rows = ports
        .iter()
        .map(|port| {
            ["port", "incoming", "outgoing", "total"]
                .iter()
                .map(|key| scalar(&port[*key]))
                .collect()
        })
        .collect();
    out.rows(&["PORT", "IN", "OUT", "TOTAL"], rows)?;
    let summary = [
        ("TOTAL", "total"),
        ("AVERAGE", "average"),
        ("OVERUSAGE", "overusage"),
        ("MONTHLY THRESHOLD", "monthly_threshold"),
    ]
    .iter()
    .filter(|(_, key)| !report[*key].is_null())
    .map(|(name, key)| ((*name).to_owned(), scalar(&report[*key])))
    .collect();
    out.pairs(summary)
}

/// Reads one report per day of `[from, to]`, a few calls at a time, in day order.
async fn daily<Q>(
    from: NaiveDate,
    to: NaiveDate,
    read: impl AsyncFn(NaiveDate) -> Result<UsageReport<Q>, hostapi::Error>,
) -> Result<Vec<(NaiveDate, UsageReport<Q>)>, Failure> {
    let days = (to - from).num_days() + 1;
    if days > MAX_CHART_DAYS {
        return Err(Failure::usage(format!(
            "--chart reads one day per call; {days} days is more than {MAX_CHART_DAYS}"
        ))
        .hint("narrow --from/--to, or use --png for the service's graph of the whole interval"));
    }
    let read = &read;
    futures::stream::iter(from.iter_days().take_while(|d| *d <= to))
        .map(|day| async move { read(day).await.map(|report| (day, report)) })
        .buffered(CHART_CONCURRENCY)
        .map_err(Failure::from)
        .try_collect()
        .await
}

/// Draws the daily reports, or prints them as JSON.
fn chart<Q: Serialize + Figure>(
    context: &Context,
    id: &BareMetalId,
    kind: Kind,
    days: &[(NaiveDate, UsageReport<Q>)],
) -> Result<(), Failure> {
    let out = &context.printer;
    if out.is_json() {
        let reports: Vec<&UsageReport<Q>> = days.iter().map(|(_, report)| report).collect();
        return out.one(&reports);
    }
    let (unit, combine, y_caption) = match kind {
        Kind::Bandwidth => (Unit::BitsPerSecond, Combine::Mean, "average rate per day"),
        Kind::DataTraffic => (Unit::Bytes, Combine::Sum, "data per day"),
    };
    let outgoing = days
        .iter()
        .map(|(_, report)| port_sum(report, |port| port.outgoing.as_ref()))
        .collect();
    let incoming = days
        .iter()
        .map(|(_, report)| port_sum(report, |port| port.incoming.as_ref()))
        .collect();
    let (first, last) = match (days.first(), days.last()) {
        (Some((first, _)), Some((last, _))) => (*first, *last),
        _ => return out.text("(no days in this interval)"),
    };
    let drawing = TrafficChart {
        title: format!(
            "{} of bare metal server {id}, {first} to {last}",
            kind.title()
        ),
        y_caption: y_caption.to_owned(),
        x_caption: "day".to_owned(),
        labels: days
            .iter()
            .map(|(d, _)| d.format("%m-%d").to_string())
            .collect(),
        outgoing,
        incoming,
        unit,
        combine,
    };
    out.drawing(&drawing.render(terminal_width(), out.colour()))
}

/// A figure a chart can draw: an amount of data or a rate, in base units.
pub(crate) trait Figure {
    /// Bytes, or bits per second; `None` for a unit the SDK does not know.
    fn base_units(&self) -> Option<f64>;
}

impl Figure for DataSize {
    fn base_units(&self) -> Option<f64> {
        self.bytes().map(|bytes| decimal(&bytes))
    }
}

impl Figure for BitRate {
    fn base_units(&self) -> Option<f64> {
        self.bits_per_second().map(|bits| decimal(&bits))
    }
}

/// The sum over the switch ports of one direction (a figure in a unit the SDK does not
/// know counts as 0).
fn port_sum<Q: Figure>(report: &UsageReport<Q>, direction: fn(&PortUsage<Q>) -> Option<&Q>) -> f64 {
    base_sum(report.ports.iter().map(direction))
}

/// The sum of figures in base units (a missing figure, or one in a unit the SDK does
/// not know, counts as 0).
fn base_sum<'a, Q: Figure + 'a>(figures: impl IntoIterator<Item = Option<&'a Q>>) -> f64 {
    figures
        .into_iter()
        .flatten()
        .filter_map(Figure::base_units)
        .sum()
}

/// Writes a PNG graph to a file, or to standard output for `-`.
fn write_png(path: &Path, png: &[u8]) -> Result<(), Failure> {
    if path == Path::new("-") {
        let mut stdout = std::io::stdout().lock();
        return stdout
            .write_all(png)
            .and_then(|()| stdout.flush())
            .map_err(|e| Failure::new(API, format!("cannot write the graph: {e}")));
    }
    std::fs::write(path, png).map_err(|e| {
        Failure::usage(format!("cannot write {}: {e}", path.display()))
            .hint("check that the folder exists and is writable")
    })?;
    eprintln!(
        "wrote the graph to {} ({} bytes)",
        path.display(),
        png.len()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use hostapi::types::DataUnit;

    fn size(text: &str) -> DataSize {
        let (amount, unit) = text.split_once(' ').unwrap();
        DataSize::new(amount.parse().unwrap(), DataUnit::from_wire(unit))
    }

    #[test]
    fn a_png_goes_to_a_terminal_only_when_forced() {
        let picture = |png: Option<&str>, force| PictureArgs {
            chart: false,
            png: png.map(PathBuf::from),
            force,
        };
        let refused = picture(Some("-"), false)
            .check_png_target(true)
            .unwrap_err();
        assert_eq!(refused.code, crate::failure::USAGE);
        assert!(refused.hint.unwrap_or_default().contains("--force"));
        assert!(picture(Some("-"), true).check_png_target(true).is_ok());
        assert!(picture(Some("-"), false).check_png_target(false).is_ok());
        assert!(
            picture(Some("graph.png"), false)
                .check_png_target(true)
                .is_ok()
        );
        assert!(picture(None, false).check_png_target(true).is_ok());
    }

    #[test]
    fn ports_add_up_in_base_units() {
        let incoming = [size("1.5 GB"), size("500 MB")];
        assert_eq!(base_sum(incoming.iter().map(Some)), 2.0e9);
        // The unknown unit counts as nothing rather than as a guess, and so does a
        // port without the figure.
        let outgoing = [Some(size("2 MB")), Some(size("1 XB")), None];
        assert_eq!(base_sum(outgoing.iter().map(Option::as_ref)), 2.0e6);
    }
}
