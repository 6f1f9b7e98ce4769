//! One module per command group; each holds its clap grammar and its handlers. This
//! module holds what they share: the context every command runs with, and the parsers
//! and flags several groups use (ids, dates, durations, `--wait`).

pub(crate) mod api;
pub(crate) mod bare_metal;
pub(crate) mod bulk;
pub(crate) mod catalog;
pub(crate) mod cdn;
pub(crate) mod cdn_sync;
pub(crate) mod cloud;
pub(crate) mod config;
pub(crate) mod dns;
pub(crate) mod dns_sync;
pub(crate) mod domains;
pub(crate) mod find;
pub(crate) mod ips;
pub(crate) mod networks;
pub(crate) mod racks;
pub(crate) mod sandbox;
pub(crate) mod tour;
pub(crate) mod usage;
pub(crate) mod vps;

use std::time::Duration;

use chrono::{Datelike, NaiveDate, Utc};
use clap::Args;
use hostapi::Client;

use crate::cli::Command;
use crate::failure::Failure;
use crate::output::Printer;
use crate::progress::WaitSettings;

/// The least time between two polls of the service (the sandbox may poll faster: its
/// clock runs faster).
pub(crate) const MIN_SERVICE_INTERVAL: Duration = Duration::from_secs(1);

/// What every command runs with.
pub(crate) struct Context {
    pub(crate) client: Client,
    pub(crate) printer: Printer,
    /// `--yes`: destructive commands go ahead without asking.
    pub(crate) yes: bool,
    /// How waits poll unless a command's flags say otherwise (shorter in the sandbox,
    /// whose clock runs faster).
    pub(crate) wait: WaitSettings,
    /// Whether the client talks to the embedded simulator.
    pub(crate) sandbox: bool,
}

impl Context {
    /// The wait settings of one command: its `--wait-interval` / `--wait-timeout`
    /// over the defaults.
    pub(crate) fn wait_settings(&self, args: &WaitArgs) -> WaitSettings {
        let mut interval = args.wait_interval.unwrap_or(self.wait.interval);
        // Against the service, polls are at least a second apart; only the sandbox,
        // whose clock runs faster, polls more often.
        if !self.sandbox && interval < MIN_SERVICE_INTERVAL {
            eprintln!(
                "note: --wait-interval {} is raised to {}, the least time between polls of the service",
                hostapi::wait::human_duration(interval),
                hostapi::wait::human_duration(MIN_SERVICE_INTERVAL)
            );
            interval = MIN_SERVICE_INTERVAL;
        }
        WaitSettings {
            interval,
            timeout: args.wait_timeout.unwrap_or(self.wait.timeout),
        }
    }
}

pub(crate) async fn run(context: &Context, command: Command) -> Result<(), Failure> {
    match command {
        Command::Vps(command) => vps::run(context, command).await,
        Command::Cloud(command) => cloud::run(context, command).await,
        Command::Domains(command) => domains::run(context, command).await,
        Command::Dns(command) => dns::run(context, command).await,
        Command::BareMetal(command) => bare_metal::run(context, command).await,
        Command::Racks(command) => racks::run(context, command).await,
        Command::Ips(command) => ips::run(context, command).await,
        Command::Catalog(command) => catalog::run(context, command).await,
        Command::Networks(command) => networks::run(context, command).await,
        Command::Cdn(command) => cdn::run(context, command).await,
        Command::Tour => tour::run(context).await,
        Command::Whoami => config::whoami(context).await,
        Command::Find(args) => find::run(context, args).await,
        Command::Api(args) => api::run(context, args).await,
        // Handled before a client exists (see `app::run`).
        Command::Config(_) | Command::Completions { .. } | Command::Sandbox(_) => Ok(()),
    }
}

/// `--wait` and its tuning, for asynchronous operations.
#[derive(Debug, Clone, Args)]
pub(crate) struct WaitArgs {
    /// Wait until the operation is done, showing progress on stderr (Ctrl-C stops
    /// waiting; the operation goes on).
    #[arg(long)]
    pub(crate) wait: bool,
    /// Give up waiting after this long (e.g. 90s, 10m, 1h; default 30m).
    #[arg(long, value_name = "DURATION", value_parser = parse_duration, requires = "wait")]
    pub(crate) wait_timeout: Option<Duration>,
    /// Time between polls while waiting (at least 1s against the service, 100ms in
    /// --sandbox; e.g. 2s, 10s; default 5s, or 15 simulated seconds in --sandbox).
    #[arg(long, value_name = "DURATION", value_parser = parse_interval, requires = "wait")]
    pub(crate) wait_interval: Option<Duration>,
}

/// Tuning of a command that always waits.
#[derive(Debug, Clone, Args)]
pub(crate) struct WaitTuning {
    /// Give up waiting after this long (e.g. 90s, 10m, 1h; default 30m).
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub(crate) wait_timeout: Option<Duration>,
    /// Time between polls (at least 1s against the service, 100ms in --sandbox; e.g.
    /// 2s, 10s; default 5s, or 15 simulated seconds in --sandbox).
    #[arg(long, value_name = "DURATION", value_parser = parse_interval)]
    pub(crate) wait_interval: Option<Duration>,
}

impl WaitTuning {
    /// The same tuning as [`WaitArgs`] with `--wait` given.
    pub(crate) fn as_wait(&self) -> WaitArgs {
        WaitArgs {
            wait: true,
            wait_timeout: self.wait_timeout,
            wait_interval: self.wait_interval,
        }
    }
}

/// A day interval (`--from`, `--to`) for usage reports.
#[derive(Debug, Clone, Args)]
pub(crate) struct DayRange {
    /// First day, YYYY-MM-DD (default: the first day of this month, UTC).
    #[arg(long, value_name = "DATE", value_parser = parse_date)]
    pub(crate) from: Option<NaiveDate>,
    /// Last day, YYYY-MM-DD, included (default: today, UTC).
    #[arg(long, value_name = "DATE", value_parser = parse_date)]
    pub(crate) to: Option<NaiveDate>,
}

impl DayRange {
    /// The interval with its defaults applied: this month so far, as the API itself
    /// defaults.
    pub(crate) fn resolve(&self) -> Result<(NaiveDate, NaiveDate), Failure> {
        let today = Utc::now().date_naive();
        let to = self.to.unwrap_or(today);
        let from = self.from.unwrap_or_else(|| to.with_day(1).unwrap_or(to));
        if from > to {
            return Err(Failure::usage(format!("--from {from} is after --to {to}"))
                .hint("give the first day with --from and the last with --to"));
        }
        Ok((from, to))
    }
}

/// An id argument of the command line: what it is called in messages and which
/// command lists the ids that exist. What it may be is the SDK's rule for the type
/// ([`hostapi::types::ID_RULES`]), the same rule the SDK checks ids read from the service by.
pub(crate) trait CliId: hostapi::types::TypedId {
    /// What the id names, in the user's words (`bare metal server id`).
    const NOUN: &'static str;
    /// The command that lists them, when there is one.
    const LIST: &'static str;
}

macro_rules! cli_id {
    ($($ty:ident => $noun:literal, $list:literal;)*) => {
        $(impl CliId for hostapi::types::$ty {
            const NOUN: &'static str = $noun;
            const LIST: &'static str = $list;
        })*
    };
}

cli_id! {
    BareMetalId => "bare metal server id", "hostapi bare-metal list";
    PrivateRackId => "private rack id", "hostapi racks list";
    PrivateNetworkId => "private network id", "hostapi networks list";
    VirtualServerId => "virtual server id", "hostapi vps list";
    DnsRecordId => "DNS record id", "hostapi dns list DOMAIN";
    OperatingSystemId => "operating system id", "hostapi catalog operating-systems list";
    ControlPanelId => "control panel id", "hostapi catalog control-panels list OS_ID";
    RescueImageId => "rescue image id", "hostapi catalog rescue-images list";
    CustomerNumber => "customer number", "";
    ZoneId => "zone id", "";
    OriginId => "origin id", "hostapi cdn origins list";
    PurgeJobId => "purge job id", "";
    CloudServerId => "cloud server id", "hostapi cloud list";
    PrivateCloudId => "private cloud id", "hostapi cloud private-clouds list";
    DomainName => "domain name", "hostapi domains list";
    MacAddress => "MAC address", "hostapi bare-metal leases list SERVER_ID";
    Username => "user name", "";
}

/// Parses an id argument by the SDK's rule for its type (after trimming), with a
/// message in the user's words; nothing is sent for an id that cannot be one.
pub(crate) fn parse_id<T: CliId>(value: &str) -> Result<T, String> {
    let text = value.trim();
    let listed = if T::LIST.is_empty() {
        String::new()
    } else {
        format!("; `{}` shows them", T::LIST)
    };
    text.parse().map_err(|e: hostapi::Error| {
        let form = T::ROW.rule.describe();
        match e {
            hostapi::Error::InvalidInput { reason, .. } => {
                format!("{reason}: a {} is {form}{listed}", T::NOUN)
            }
            other => format!("not a {}: {other}", T::NOUN),
        }
    })
}

/// Parses `YYYY-MM-DD`.
pub(crate) fn parse_date(value: &str) -> Result<NaiveDate, String> {
    NaiveDate::parse_from_str(value.trim(), "%Y-%m-%d")
        .map_err(|e| format!("`{value}` is not a date like 2024-01-31: {e}"))
}

/// Parses a duration: a number with a unit (`500ms`, `90s`, `10m`, `2h`), or a bare
/// number of seconds.
pub(crate) fn parse_duration(value: &str) -> Result<Duration, String> {
    let text = value.trim();
    let split = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let amount: f64 = number
        .parse()
        .map_err(|_| format!("`{value}` is not a duration like 500ms, 90s, 10m or 2h"))?;
    let seconds = match unit.trim() {
        "ms" => amount / 1000.0,
        "" | "s" => amount,
        "m" | "min" => amount * 60.0,
        "h" => amount * 3600.0,
        other => {
            return Err(format!(
                "`{other}` is not a unit of time: use ms, s, m or h (e.g. 90s)"
            ));
        }
    };
    Duration::try_from_secs_f64(seconds)
        .map_err(|_| format!("`{value}` is not a duration this tool can wait"))
}

/// Parses the time between the polls of a wait: a duration no shorter than the SDK's
/// floor, refused here before the command sends anything.
pub(crate) fn parse_interval(value: &str) -> Result<Duration, String> {
    let interval = parse_duration(value)?;
    if interval < hostapi::WaitOptions::MIN_INTERVAL {
        return Err(format!(
            "`{value}` is shorter than the {} between polls a wait allows",
            hostapi::wait::human_duration(hostapi::WaitOptions::MIN_INTERVAL)
        ));
    }
    Ok(interval)
}

/// Parses a boolean the way people write one: true/false, yes/no, on/off, 1/0.
pub(crate) fn parse_bool(value: &str) -> Result<bool, String> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" | "yes" | "on" | "1" => Ok(true),
        "false" | "no" | "off" | "0" => Ok(false),
        _ => Err(format!("`{value}` is not true or false")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_take_units_or_seconds() {
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration("90s"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("10m"), Ok(Duration::from_secs(600)));
        assert_eq!(parse_duration("2h"), Ok(Duration::from_secs(7200)));
        assert_eq!(parse_duration("1.5"), Ok(Duration::from_millis(1500)));
        assert!(parse_duration("ten").is_err());
        assert!(parse_duration("5d").is_err());
        assert!(parse_duration("").is_err());
        assert_eq!(parse_interval("100ms"), Ok(Duration::from_millis(100)));
        assert!(parse_interval("50ms").is_err());
    }

    #[test]
    fn dates_and_booleans_parse() {
        assert_eq!(
            parse_date("2024-02-29"),
            Ok(NaiveDate::from_ymd_opt(2024, 2, 29).unwrap())
        );
        assert!(parse_date("29-02-2024").is_err());
        assert_eq!(parse_bool("Yes"), Ok(true));
        assert_eq!(parse_bool("0"), Ok(false));
        assert!(parse_bool("maybe").is_err());
    }

    #[test]
    fn ids_follow_the_sdks_rules() {
        // The documents leave zone ids and customer numbers open; the simulator's
        // sub-customer is `C10001`.
        assert!(parse_id::<hostapi::types::ZoneId>("zone-a1").is_ok());
        assert!(parse_id::<hostapi::types::CustomerNumber>("C10001").is_ok());
        assert!(parse_id::<hostapi::types::BareMetalId>(" 20001 ").is_ok());
        let refused = parse_id::<hostapi::types::BareMetalId>("20001a").unwrap_err();
        assert!(
            refused.contains("a bare metal server id is a number"),
            "{refused}"
        );
        for hostile in [
            "..",
            ".",
            "",
            "a/b",
            "a?b",
            "a\nb",
            "1000$(touch${IFS}pwned)",
        ] {
            assert!(
                parse_id::<hostapi::types::ZoneId>(hostile).is_err(),
                "{hostile:?}"
            );
            assert!(
                parse_id::<hostapi::types::CloudServerId>(hostile).is_err(),
                "{hostile:?}"
            );
        }
    }

    #[test]
    fn a_backwards_day_range_is_a_usage_error() {
        let range = DayRange {
            from: NaiveDate::from_ymd_opt(2024, 2, 2),
            to: NaiveDate::from_ymd_opt(2024, 2, 1),
        };
        assert_eq!(range.resolve().unwrap_err().code, crate::failure::USAGE);
    }
}
