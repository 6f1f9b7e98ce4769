//! `hostapi racks`: private racks, their IPs and their network usage.

use std::net::IpAddr;

use clap::Subcommand;
use hostapi::types::PrivateRackId;

use super::ips::{IP_COLUMNS, IpChange};
use super::{Context, DayRange, bulk, parse_id};
use crate::failure::Failure;
use crate::outcome::settle;
use crate::output::{Column, col};

#[derive(Debug, Subcommand)]
pub(crate) enum RacksCommand {
    /// List private racks (ids only; --details reads each rack at once for its name,
    /// site and SLA; `get` shows the rest).
    #[command(
        after_help = "Examples:\n  hostapi --sandbox racks list\n  hostapi --sandbox racks list --details"
    )]
    List {
        /// Read each rack in detail (name, site, SLA), several at once.
        #[arg(long)]
        details: bool,
    },
    /// Show private racks (several ids are read at once and print as a list).
    #[command(
        after_help = "Examples:\n  hostapi --sandbox racks get 7001\n  hostapi --sandbox racks get 7001 7002"
    )]
    Get {
        /// The racks' ids.
        #[arg(required = true, value_parser = parse_id::<PrivateRackId>, add = clap_complete::ArgValueCandidates::new(crate::completion::private_rack_ids))]
        ids: Vec<PrivateRackId>,
    },
    /// IP addresses of a rack.
    #[command(
        subcommand,
        after_help = "Example:\n  hostapi --sandbox racks ips list 7001"
    )]
    Ips(RackIpsCommand),
    /// Network usage of a rack.
    #[command(
        subcommand,
        after_help = "Example:\n  hostapi --sandbox racks usage get 7001"
    )]
    Usage(RackUsageCommand),
}

#[derive(Debug, Subcommand)]
pub(crate) enum RackIpsCommand {
    /// List a rack's IP addresses.
    #[command(after_help = "Example:\n  hostapi --sandbox racks ips list 7001")]
    List {
        /// The rack's id.
        #[arg(value_parser = parse_id::<PrivateRackId>, add = clap_complete::ArgValueCandidates::new(crate::completion::private_rack_ids))]
        id: PrivateRackId,
    },
    /// Show one IP address of a rack, with its reverse DNS name.
    #[command(after_help = "Example:\n  hostapi --sandbox racks ips get 7001 95.211.0.10")]
    Get {
        /// The rack's id.
        #[arg(value_parser = parse_id::<PrivateRackId>, add = clap_complete::ArgValueCandidates::new(crate::completion::private_rack_ids))]
        id: PrivateRackId,
        /// The IP address.
        ip: IpAddr,
    },
    /// Set a rack IP's reverse DNS name, or turn null routing on or off.
    #[command(
        after_help = "Example:\n  hostapi --sandbox racks ips update 7001 95.211.0.10 --null-routed true --yes"
    )]
    Update {
        /// The rack's id.
        #[arg(value_parser = parse_id::<PrivateRackId>, add = clap_complete::ArgValueCandidates::new(crate::completion::private_rack_ids))]
        id: PrivateRackId,
        #[command(flatten)]
        change: IpChange,
    },
}

#[derive(Debug, Subcommand)]
pub(crate) enum RackUsageCommand {
    /// Network usage over an interval (the API does not document its fields: shown
    /// as sent).
    #[command(
        after_help = "Example:\n  hostapi --sandbox racks usage get 7001 --from 2024-01-01 --to 2024-01-31"
    )]
    Get {
        /// The rack's id.
        #[arg(value_parser = parse_id::<PrivateRackId>, add = clap_complete::ArgValueCandidates::new(crate::completion::private_rack_ids))]
        id: PrivateRackId,
        #[command(flatten)]
        range: DayRange,
    },
}

/// The columns of `racks list`.
const RACK_COLUMNS: &[Column] = &[
    col("ID", "id"),
    col("NAME", "name"),
    col("SITE", "location.site"),
    col("SLA", "sla.name"),
];

pub(crate) async fn run(context: &Context, command: RacksCommand) -> Result<(), Failure> {
    let racks = context.client.private_racks();
    let out = &context.printer;
    match command {
        RacksCommand::List { details: false } => {
            out.list(&out.limited(racks.list()).await?, RACK_COLUMNS)
        }
        RacksCommand::List { details: true } => {
            let listing = out.limited(racks.list()).await?;
            crate::output::warn_unreadable(&listing);
            out.note_limit(&listing);
            let ids: Vec<PrivateRackId> = listing.iter().map(|r| r.id.clone()).collect();
            let total = ids.len();
            let (read, failed) =
                bulk::collect("private racks", total, racks.get_many(ids, bulk::options())).await;
            let records: Vec<_> = read.into_iter().map(|(_, rack)| rack).collect();
            out.items(&records, RACK_COLUMNS)?;
            bulk::report("private rack", total, failed)
        }
        RacksCommand::Get { ids } => {
            let total = ids.len();
            let read = racks.get_many(ids, bulk::options());
            bulk::get(context, "private rack", total, read, RACK_COLUMNS).await
        }
        RacksCommand::Ips(RackIpsCommand::List { id }) => {
            out.list(&out.limited(racks.ips(&id).list()).await?, IP_COLUMNS)
        }
        RacksCommand::Ips(RackIpsCommand::Get { id, ip }) => {
            out.one(&racks.ips(&id).get(ip).await?)
        }
        RacksCommand::Ips(RackIpsCommand::Update { id, change }) => {
            change.confirm(context.yes)?;
            let ips = racks.ips(&id);
            let update = change.update();
            let ip = settle(ips.update(change.ip, &update).await, || {
                ips.confirm_update(change.ip, &update)
            })
            .await?;
            out.one(&ip)
        }
        RacksCommand::Usage(RackUsageCommand::Get { id, range }) => {
            let (from, to) = range.resolve()?;
            // Kept as sent by the SDK: printed in snake case like every other record.
            out.value(&crate::output::snake_keys(
                out.to_json(&racks.network_usage(&id, from, to).await?)?,
            ))
        }
    }
}
