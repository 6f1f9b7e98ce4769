//! `hostapi cloud`: virtual servers of the cloud v2 API (power with `--wait`,
//! credentials, datatraffic metrics) and private clouds.

use chrono::{DateTime, Duration as Span, NaiveDate, SubsecRound, Utc};
use clap::{Subcommand, ValueEnum};
use hostapi::cloud::{CloudServerState, CredentialType, Granularity, MetricsQuery, TrafficMetrics};
use hostapi::types::{CloudServerId, PrivateCloudId, Username};

use super::{Context, WaitArgs, WaitTuning, parse_id};
use crate::chart::{Combine, TrafficChart, Unit, terminal_width};
use crate::confirm::confirm;
use crate::failure::{Failure, NOT_FOUND};
use crate::outcome::settle;
use crate::output::{Column, col};
use crate::progress::{Resume, wait_with_progress};

#[derive(Debug, Subcommand)]
pub(crate) enum CloudCommand {
    /// List cloud servers (paged through for you).
    #[command(after_help = "Example:\n  hostapi --sandbox cloud list")]
    List {
        /// Servers asked for per request (1-1000).
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=1000))]
        page_size: u32,
    },
    /// Show cloud servers (several ids are read at once and print as a list).
    #[command(
        after_help = "Examples:\n  hostapi --sandbox cloud get c90e8a9c-09ba-46e2-ae8a-0c71c86fa728\n  hostapi --sandbox cloud get c90e8a9c-09ba-46e2-ae8a-0c71c86fa728 \\\n    be38016d-e266-4420-a801-0c71c86fa729"
    )]
    Get {
        /// The servers' ids.
        #[arg(required = true, value_parser = parse_id::<CloudServerId>, add = clap_complete::ArgValueCandidates::new(crate::completion::cloud_server_ids))]
        ids: Vec<CloudServerId>,
    },
    /// Set a server's reference (your own label; "" clears it).
    #[command(
        after_help = "Example:\n  hostapi --sandbox cloud set-reference c90e8a9c-09ba-46e2-ae8a-0c71c86fa728 web-frontend-1"
    )]
    SetReference {
        /// The server's id.
        #[arg(value_parser = parse_id::<CloudServerId>, add = clap_complete::ArgValueCandidates::new(crate::completion::cloud_server_ids))]
        id: CloudServerId,
        /// The new reference.
        reference: String,
    },
    /// Power a server on (prints the job; with --wait, the server once RUNNING).
    #[command(
        after_help = "Example:\n  hostapi --sandbox cloud power-on e620176a-34dc-4563-a017-0c71c86fa72a --wait"
    )]
    PowerOn {
        /// The server's id.
        #[arg(value_parser = parse_id::<CloudServerId>, add = clap_complete::ArgValueCandidates::new(crate::completion::cloud_server_ids))]
        id: CloudServerId,
        #[command(flatten)]
        wait: WaitArgs,
    },
    /// Power a server off (prints the job; with --wait, the server once STOPPED).
    #[command(
        after_help = "Example:\n  hostapi --sandbox cloud power-off c90e8a9c-09ba-46e2-ae8a-0c71c86fa728 --yes --wait"
    )]
    PowerOff {
        /// The server's id.
        #[arg(value_parser = parse_id::<CloudServerId>, add = clap_complete::ArgValueCandidates::new(crate::completion::cloud_server_ids))]
        id: CloudServerId,
        #[command(flatten)]
        wait: WaitArgs,
    },
    /// Reboot a server (prints the job; with --wait, the server once RUNNING again).
    #[command(
        after_help = "Example:\n  hostapi --sandbox cloud reboot c90e8a9c-09ba-46e2-ae8a-0c71c86fa728 --yes --wait"
    )]
    Reboot {
        /// The server's id.
        #[arg(value_parser = parse_id::<CloudServerId>, add = clap_complete::ArgValueCandidates::new(crate::completion::cloud_server_ids))]
        id: CloudServerId,
        #[command(flatten)]
        wait: WaitArgs,
    },
    /// Reinstall a server with its current operating system: its disks are wiped.
    #[command(
        after_help = "Example:\n  hostapi --sandbox cloud reinstall c90e8a9c-09ba-46e2-ae8a-0c71c86fa728 --yes --wait"
    )]
    Reinstall {
        /// The server's id.
        #[arg(value_parser = parse_id::<CloudServerId>, add = clap_complete::ArgValueCandidates::new(crate::completion::cloud_server_ids))]
        id: CloudServerId,
        #[command(flatten)]
        wait: WaitArgs,
    },
    /// Wait until a server is RUNNING or STOPPED, showing progress.
    #[command(
        after_help = "Example:\n  hostapi --sandbox cloud wait c90e8a9c-09ba-46e2-ae8a-0c71c86fa728 --state running"
    )]
    Wait {
        /// The server's id.
        #[arg(value_parser = parse_id::<CloudServerId>, add = clap_complete::ArgValueCandidates::new(crate::completion::cloud_server_ids))]
        id: CloudServerId,
        /// The state to wait for.
        #[arg(long, value_enum)]
        state: TargetState,
        #[command(flatten)]
        tuning: WaitTuning,
    },
    /// A server's credentials (user names; `get` shows a password).
    #[command(
        subcommand,
        after_help = "Example:\n  hostapi --sandbox cloud credentials list c90e8a9c-09ba-46e2-ae8a-0c71c86fa728"
    )]
    Credentials(CredentialsCommand),
    /// A server's metrics: datatraffic, drawn as a chart.
    #[command(
        subcommand,
        after_help = "Example:\n  hostapi --sandbox cloud metrics datatraffic c90e8a9c-09ba-46e2-ae8a-0c71c86fa728"
    )]
    Metrics(MetricsCommand),
    /// Private clouds.
    #[command(
        subcommand,
        after_help = "Example:\n  hostapi --sandbox cloud private-clouds list"
    )]
    PrivateClouds(PrivateCloudsCommand),
}

/// The states `cloud wait` can wait for.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum TargetState {
    /// Powered on.
    Running,
    /// Powered off.
    Stopped,
}

#[derive(Debug, Subcommand)]
pub(crate) enum CredentialsCommand {
    /// List a server's credentials of one type (user names only).
    #[command(
        after_help = "Example:\n  hostapi --sandbox cloud credentials list c90e8a9c-09ba-46e2-ae8a-0c71c86fa728"
    )]
    List {
        /// The server's id.
        #[arg(value_parser = parse_id::<CloudServerId>, add = clap_complete::ArgValueCandidates::new(crate::completion::cloud_server_ids))]
        id: CloudServerId,
        /// Which credentials.
        #[arg(long = "type", value_enum, default_value_t = CredentialKind::OperatingSystem)]
        kind: CredentialKind,
    },
    /// Show one credential with its password ([REDACTED] unless --show-secrets).
    #[command(
        after_help = "Example:\n  hostapi --sandbox cloud credentials get c90e8a9c-09ba-46e2-ae8a-0c71c86fa728 root --show-secrets"
    )]
    Get {
        /// The server's id.
        #[arg(value_parser = parse_id::<CloudServerId>, add = clap_complete::ArgValueCandidates::new(crate::completion::cloud_server_ids))]
        id: CloudServerId,
        /// The user name.
        #[arg(value_parser = parse_id::<Username>)]
        username: Username,
        /// Which credentials.
        #[arg(long = "type", value_enum, default_value_t = CredentialKind::OperatingSystem)]
        kind: CredentialKind,
    },
}

/// The credential types of the cloud API.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum CredentialKind {
    /// Users of the server's operating system.
    OperatingSystem,
    /// Users of the control panel installed on the server.
    ControlPanel,
}

impl CredentialKind {
    fn as_sdk(self) -> CredentialType {
        match self {
            Self::OperatingSystem => CredentialType::OperatingSystem,
            Self::ControlPanel => CredentialType::ControlPanel,
        }
    }
}

#[derive(Debug, Subcommand)]
pub(crate) enum MetricsCommand {
    /// Datatraffic (outgoing up, incoming down) per bucket, drawn as a chart; JSON
    /// gives the figures.
    #[command(
        after_help = "Examples:\n  hostapi --sandbox cloud metrics datatraffic c90e8a9c-09ba-46e2-ae8a-0c71c86fa728\n  hostapi --sandbox cloud metrics datatraffic c90e8a9c-09ba-46e2-ae8a-0c71c86fa728 \\\n    --from 2024-01-01 --to 2024-01-02 --granularity hour --values"
    )]
    Datatraffic {
        /// The server's id.
        #[arg(value_parser = parse_id::<CloudServerId>, add = clap_complete::ArgValueCandidates::new(crate::completion::cloud_server_ids))]
        id: CloudServerId,
        /// Start, included: YYYY-MM-DD (midnight UTC) or RFC 3339 (default: 7 days
        /// before --to).
        #[arg(long, value_name = "TIME", value_parser = parse_time)]
        from: Option<DateTime<Utc>>,
        /// End, excluded: YYYY-MM-DD (midnight UTC) or RFC 3339 (default: now).
        #[arg(long, value_name = "TIME", value_parser = parse_time)]
        to: Option<DateTime<Utc>>,
        /// Bucket width (default: hour up to 2 days, day up to 90 days, else month).
        #[arg(long, value_enum)]
        granularity: Option<GranularityArg>,
        /// Also print the figure of every bucket under the chart.
        #[arg(long)]
        values: bool,
    },
}

/// Bucket widths of the metrics API.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum GranularityArg {
    /// One value for the whole interval.
    None,
    /// Five minutes.
    #[value(name = "5min")]
    FiveMinutes,
    /// One hour.
    Hour,
    /// One day.
    Day,
    /// One month.
    Month,
    /// One year.
    Year,
}

impl GranularityArg {
    fn as_sdk(self) -> Granularity {
        match self {
            Self::None => Granularity::None,
            Self::FiveMinutes => Granularity::FiveMinutes,
            Self::Hour => Granularity::Hour,
            Self::Day => Granularity::Day,
            Self::Month => Granularity::Month,
            Self::Year => Granularity::Year,
        }
    }

    /// The granularity that gives a readable chart of `span`.
    fn for_span(span: Span) -> Self {
        if span <= Span::days(2) {
            Self::Hour
        } else if span <= Span::days(90) {
            Self::Day
        } else {
            Self::Month
        }
    }
}

#[derive(Debug, Subcommand)]
pub(crate) enum PrivateCloudsCommand {
    /// List private clouds.
    #[command(after_help = "Example:\n  hostapi --sandbox cloud private-clouds list")]
    List,
    /// Show one private cloud (read from the list: the API has no single view).
    #[command(after_help = "Example:\n  hostapi --sandbox cloud private-clouds get 300001")]
    Get {
        /// The private cloud's id.
        #[arg(value_parser = parse_id::<PrivateCloudId>, add = clap_complete::ArgValueCandidates::new(crate::completion::private_cloud_ids))]
        id: PrivateCloudId,
    },
}

/// The columns of a cloud server list.
pub(crate) const SERVER_COLUMNS: &[Column] = &[
    col("ID", "id"),
    col("REFERENCE", "reference"),
    col("STATE", "state"),
    col("OFFERING", "service_offering"),
    col("TEMPLATE", "template"),
    col("DATA CENTER", "data_center"),
    col("IPS", "ips[].ip"),
];

pub(crate) async fn run(context: &Context, command: CloudCommand) -> Result<(), Failure> {
    let servers = context.client.cloud_servers();
    let out = &context.printer;
    match command {
        CloudCommand::List { page_size } => out.list(
            &out.limited(servers.list().page_size(page_size)).await?,
            SERVER_COLUMNS,
        ),
        CloudCommand::Get { ids } => {
            let total = ids.len();
            let read = servers.get_many(ids, super::bulk::options());
            super::bulk::get(context, "cloud server", total, read, SERVER_COLUMNS).await
        }
        CloudCommand::SetReference { id, reference } => {
            let server = settle(servers.update(&id, &reference).await, || {
                servers.confirm_update(&id, &reference)
            })
            .await?;
            out.one(&server)
        }
        CloudCommand::PowerOn { id, wait } => {
            let job = servers.power_on(&id).await?;
            power_outcome(context, &id, job, &wait, TargetState::Running).await
        }
        CloudCommand::PowerOff { id, wait } => {
            confirm(&format!("power off cloud server {id}"), context.yes)?;
            let job = servers.power_off(&id).await?;
            power_outcome(context, &id, job, &wait, TargetState::Stopped).await
        }
        CloudCommand::Reboot { id, wait } => {
            confirm(&format!("reboot cloud server {id}"), context.yes)?;
            let job = servers.reboot(&id).await?;
            power_outcome(context, &id, job, &wait, TargetState::Running).await
        }
        CloudCommand::Reinstall { id, wait } => {
            confirm(&format!("reinstall cloud server {id}"), context.yes)?;
            let job = servers.reinstall(&id).await?;
            power_outcome(context, &id, job, &wait, TargetState::Running).await
        }
        CloudCommand::Wait { id, state, tuning } => {
            let server = wait_for(context, &id, state, &tuning.as_wait()).await?;
            out.one(&server)
        }
        CloudCommand::Credentials(command) => credentials(context, command).await,
        CloudCommand::Metrics(MetricsCommand::Datatraffic {
            id,
            from,
            to,
            granularity,
            values,
        }) => datatraffic(context, &id, from, to, granularity, values).await,
        CloudCommand::PrivateClouds(command) => private_clouds(context, command).await,
    }
}

/// Prints the job of a power call, or with `--wait` waits for the state it leads to
/// and prints the server.
async fn power_outcome(
    context: &Context,
    id: &CloudServerId,
    job: hostapi::types::Job,
    wait: &WaitArgs,
    target: TargetState,
) -> Result<(), Failure> {
    if !wait.wait {
        return context.printer.one(&job);
    }
    let server = wait_for(context, id, target, wait).await?;
    context.printer.one(&server)
}

/// Waits for a server to reach `target`, with progress on stderr.
pub(crate) async fn wait_for(
    context: &Context,
    id: &CloudServerId,
    target: TargetState,
    wait: &WaitArgs,
) -> Result<hostapi::cloud::CloudServer, Failure> {
    let state = match target {
        TargetState::Running => CloudServerState::Running,
        TargetState::Stopped => CloudServerState::Stopped,
    };
    let settings = context.wait_settings(wait);
    let servers = context.client.cloud_servers();
    let done = format!("cloud server {id} is {}", state.as_wire());
    wait_with_progress(
        &format!("cloud server {id} to be {}", state.as_wire()),
        &settings,
        &done,
        Resume::Wait(format!(
            "cloud wait {id} --state {}",
            state.as_wire().to_ascii_lowercase()
        )),
        async |options| servers.wait_state(id, state.clone(), &options).await,
    )
    .await
}

async fn credentials(context: &Context, command: CredentialsCommand) -> Result<(), Failure> {
    let servers = context.client.cloud_servers();
    match command {
        CredentialsCommand::List { id, kind } => context.printer.list(
            &servers.credentials(&id).list(kind.as_sdk()).await?,
            &[col("TYPE", "credential_type"), col("USERNAME", "username")],
        ),
        CredentialsCommand::Get { id, username, kind } => context.printer.one(
            &servers
                .credentials(&id)
                .get(kind.as_sdk(), &username)
                .await?,
        ),
    }
}

/// Parses `YYYY-MM-DD` (midnight UTC) or an RFC 3339 date-time.
fn parse_time(value: &str) -> Result<DateTime<Utc>, String> {
    let text = value.trim();
    if let Ok(date) = NaiveDate::parse_from_str(text, "%Y-%m-%d") {
        return Ok(date.and_time(chrono::NaiveTime::MIN).and_utc());
    }
    DateTime::parse_from_rfc3339(text)
        .map(|t| t.with_timezone(&Utc))
        .map_err(|_| {
            format!("`{value}` is neither a date (2024-01-31) nor an RFC 3339 time (2024-01-31T12:00:00Z)")
        })
}

async fn datatraffic(
    context: &Context,
    id: &CloudServerId,
    from: Option<DateTime<Utc>>,
    to: Option<DateTime<Utc>>,
    granularity: Option<GranularityArg>,
    values: bool,
) -> Result<(), Failure> {
    let to = to.unwrap_or_else(|| Utc::now().trunc_subsecs(0));
    let from = from.unwrap_or(to - Span::days(7));
    if from >= to {
        return Err(
            Failure::usage(format!("--from {from} is not before --to {to}"))
                .hint("--from is included and --to excluded: give a later --to"),
        );
    }
    let granularity = granularity.unwrap_or_else(|| GranularityArg::for_span(to - from));
    let query = MetricsQuery::new(from, to).granularity(granularity.as_sdk());
    let metrics = context
        .client
        .cloud_servers()
        .datatraffic(id, &query)
        .await?;
    let out = &context.printer;
    if out.is_json() {
        return out.one(&metrics);
    }
    out.drawing(&chart(id, &metrics).render(terminal_width(), out.colour()))?;
    if values {
        let rows = bucket_rows(&metrics);
        out.items(
            &rows,
            &[
                col("BUCKET", "bucket"),
                col("OUTGOING", "outgoing"),
                col("INCOMING", "incoming"),
            ],
        )?;
    }
    Ok(())
}

/// One row of `--values`: the bucket's start and both directions, with units.
#[derive(serde::Serialize, schemars::JsonSchema)]
struct BucketRow {
    bucket: String,
    outgoing: String,
    incoming: String,
}

fn bucket_rows(metrics: &TrafficMetrics) -> Vec<BucketRow> {
    let incoming = &metrics.incoming.values;
    metrics
        .outgoing
        .values
        .iter()
        .enumerate()
        .map(|(i, out)| BucketRow {
            bucket: out.timestamp.to_rfc3339(),
            outgoing: Unit::Bytes.format(decimal(&out.bytes)),
            incoming: incoming
                .get(i)
                .map(|v| Unit::Bytes.format(decimal(&v.bytes)))
                .unwrap_or_default(),
        })
        .collect()
}

/// An exact decimal as a float, for drawing.
pub(crate) fn decimal(value: &impl ToString) -> f64 {
    value.to_string().parse().unwrap_or(0.0)
}

/// The chart of a datatraffic answer.
pub(crate) fn chart(id: &CloudServerId, metrics: &TrafficMetrics) -> TrafficChart {
    let granularity = metrics.granularity.clone().unwrap_or(Granularity::None);
    let (label_format, bucket) = match granularity {
        Granularity::FiveMinutes => ("%m-%d %H:%M", "5 minutes"),
        Granularity::Hour => ("%m-%d %H:%M", "hour"),
        Granularity::Day => ("%m-%d", "day"),
        Granularity::Month => ("%Y-%m", "month"),
        Granularity::Year => ("%Y", "year"),
        _ => ("%Y-%m-%d", "interval"),
    };
    // Buckets are read from the outgoing series; the incoming one lines up with it.
    let series = if metrics.outgoing.values.is_empty() {
        &metrics.incoming.values
    } else {
        &metrics.outgoing.values
    };
    // Buckets within one day need only the time of day.
    let one_day =
        metrics.to.with_timezone(&Utc) - metrics.from.with_timezone(&Utc) <= Span::days(1);
    let label_format = if one_day && label_format.contains("%H") {
        "%H:%M"
    } else {
        label_format
    };
    let labels = series
        .iter()
        .map(|v| {
            v.timestamp
                .with_timezone(&Utc)
                .format(label_format)
                .to_string()
        })
        .collect();
    TrafficChart {
        title: format!(
            "Datatraffic of cloud server {id}, {} to {} (UTC)",
            metrics.from.with_timezone(&Utc).format("%Y-%m-%d %H:%M"),
            metrics.to.with_timezone(&Utc).format("%Y-%m-%d %H:%M"),
        ),
        y_caption: format!("data per {bucket}"),
        x_caption: format!("{bucket} starting (UTC)"),
        labels,
        outgoing: metrics
            .outgoing
            .values
            .iter()
            .map(|v| decimal(&v.bytes))
            .collect(),
        incoming: metrics
            .incoming
            .values
            .iter()
            .map(|v| decimal(&v.bytes))
            .collect(),
        unit: Unit::Bytes,
        combine: Combine::Sum,
    }
}

async fn private_clouds(context: &Context, command: PrivateCloudsCommand) -> Result<(), Failure> {
    let clouds = context
        .printer
        .limited(context.client.private_clouds().list())
        .await?;
    match command {
        PrivateCloudsCommand::List => context.printer.list(
            &clouds,
            &[
                col("ID", "id"),
                col("DATA CENTER", "data_center"),
                col("OFFERING", "service_offering"),
                col("SLA", "sla.name"),
                col("CPU CORES", "hardware.cpu_cores"),
                col("IPS", "ips[].ip"),
            ],
        ),
        PrivateCloudsCommand::Get { id } => match clouds.iter().find(|c| c.id == id) {
            Some(cloud) => context.printer.one(cloud),
            None => Err(Failure::new(NOT_FOUND, format!("no private cloud {id}"))
                .hint("`hostapi cloud private-clouds list` shows what exists")),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_dates_or_rfc3339() {
        assert_eq!(
            parse_time("2024-01-31").unwrap().to_rfc3339(),
            "2024-01-31T00:00:00+00:00"
        );
        assert_eq!(
            parse_time("2024-01-31T12:00:00+01:00")
                .unwrap()
                .to_rfc3339(),
            "2024-01-31T11:00:00+00:00"
        );
        assert!(parse_time("31-01-2024").is_err());
    }

    #[test]
    fn the_default_granularity_suits_the_span() {
        assert_eq!(
            GranularityArg::for_span(Span::hours(30)),
            GranularityArg::Hour
        );
        assert_eq!(GranularityArg::for_span(Span::days(7)), GranularityArg::Day);
        assert_eq!(
            GranularityArg::for_span(Span::days(365)),
            GranularityArg::Month
        );
    }
}
