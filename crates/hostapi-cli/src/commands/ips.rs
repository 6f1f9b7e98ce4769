//! `hostapi ips`: IP addresses of any server.

use std::net::IpAddr;

use clap::{Args, Subcommand};
use hostapi::ips::IpUpdate;

use super::Context;
use crate::failure::Failure;
use crate::output::{Column, col};

/// The columns of an IP list (bare metal and rack IPs).
pub(crate) const IP_COLUMNS: &[Column] = &[
    col("IP", "ip"),
    col("REVERSE LOOKUP", "reverse_dns"),
    col("NULL ROUTED", "null_routed"),
    col("GATEWAY", "gateway"),
    col("NETMASK", "netmask"),
    col("MONTHLY PRICE", "billing.monthly_price"),
];

#[derive(Debug, Subcommand)]
pub(crate) enum IpsCommand {
    /// Set an IP's reverse DNS name, or turn null routing on or off (one at a time).
    #[command(
        after_help = "Examples:\n  hostapi --sandbox ips update 85.17.0.10 --reverse-lookup web.example.com\n  hostapi --sandbox ips update 85.17.0.10 --null-routed true --yes"
    )]
    Update {
        #[command(flatten)]
        change: IpChange,
    },
}

/// The IP and the one change every `ips update` command (of any server, a bare metal,
/// a rack) takes.
#[derive(Debug, Args)]
pub(crate) struct IpChange {
    /// The IP address.
    pub(crate) ip: IpAddr,
    /// The reverse DNS name (PTR) to set ("" clears it).
    #[arg(
        long,
        conflicts_with = "null_routed",
        required_unless_present = "null_routed"
    )]
    reverse_lookup: Option<String>,
    /// Null-route the IP (true) or stop (false).
    #[arg(long, value_parser = super::parse_bool)]
    null_routed: Option<bool>,
}

impl IpChange {
    /// Null routing drops every packet to the IP: it asks first (or needs --yes).
    pub(crate) fn confirm(&self, yes: bool) -> Result<(), Failure> {
        if self.null_routed == Some(true) {
            crate::confirm::confirm(
                &format!("null-route {} (all traffic to it is dropped)", self.ip),
                yes,
            )?;
        }
        Ok(())
    }

    /// The one change `--reverse-lookup` / `--null-routed` ask for (clap makes sure
    /// there is exactly one).
    pub(crate) fn update(&self) -> IpUpdate {
        match (&self.reverse_lookup, self.null_routed) {
            (Some(name), _) => IpUpdate::ReverseDns(name.clone()),
            (None, on) => IpUpdate::NullRouted(on.unwrap_or(false)),
        }
    }
}

pub(crate) async fn run(context: &Context, command: IpsCommand) -> Result<(), Failure> {
    match command {
        IpsCommand::Update { change } => {
            change.confirm(context.yes)?;
            context.printer.one(
                &context
                    .client
                    .ips()
                    .update(change.ip, &change.update())
                    .await?,
            )
        }
    }
}
