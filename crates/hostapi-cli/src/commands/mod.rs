//! One module per command group; each holds its clap grammar and its handlers.

pub(crate) mod ips;
pub(crate) mod vps;

use hostapi::Client;

use crate::cli::Command;
use crate::failure::Failure;
use crate::output::Printer;
use crate::progress::WaitSettings;

/// What every command runs with.
pub(crate) struct Context {
    pub(crate) client: Client,
    pub(crate) printer: Printer,
    /// `--yes`: destructive commands go ahead without asking.
    pub(crate) yes: bool,
    pub(crate) wait: WaitSettings,
}

pub(crate) async fn run(context: &Context, command: Command) -> Result<(), Failure> {
    match command {
        Command::Vps(command) => vps::run(context, command).await,
        Command::Ips(command) => ips::run(context, command).await,
        Command::Completions { .. } => Ok(()),
    }
}

/// Parses an id argument with the SDK's own checks, as a usage error.
pub(crate) fn parse_id<T>(value: &str) -> Result<T, String>
where
    T: std::str::FromStr<Err = hostapi::Error>,
{
    value.parse().map_err(|e: hostapi::Error| e.to_string())
}
