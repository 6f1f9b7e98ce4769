//! `hostapi vps`: virtual servers of the v1 API.

use clap::Subcommand;
use hostapi::types::{Job, VirtualServerId};
use hostapi::virtual_servers::VirtualServerState;

use super::{Context, WaitArgs, parse_id};
use crate::confirm::confirm;
use crate::failure::Failure;
use crate::output::{Column, col};
use crate::progress::{Resume, wait_with_progress};

#[derive(Debug, Subcommand)]
pub(crate) enum VpsCommand {
    /// List virtual servers.
    #[command(after_help = "Example:\n  hostapi --sandbox vps list")]
    List,
    /// Show virtual servers (several ids are read at once and print as a list).
    #[command(
        after_help = "Examples:\n  hostapi --sandbox vps get 100001\n  hostapi --sandbox vps get 100001 100002 100003"
    )]
    Get {
        /// The servers' ids.
        #[arg(required = true, value_parser = parse_id::<VirtualServerId>, add = clap_complete::ArgValueCandidates::new(crate::completion::virtual_server_ids))]
        ids: Vec<VirtualServerId>,
    },
    /// Power a server on (prints the job; with --wait, the server once running).
    #[command(after_help = "Example:\n  hostapi --sandbox vps power-on 100003 --wait")]
    PowerOn {
        /// The server's id.
        #[arg(value_parser = parse_id::<VirtualServerId>, add = clap_complete::ArgValueCandidates::new(crate::completion::virtual_server_ids))]
        id: VirtualServerId,
        #[command(flatten)]
        wait: WaitArgs,
    },
    /// Power a server off (asks first, --yes when not on a terminal; prints the job,
    /// with --wait the server once stopped).
    #[command(after_help = "Example:\n  hostapi --sandbox vps power-off 100001 --yes --wait")]
    PowerOff {
        /// The server's id.
        #[arg(value_parser = parse_id::<VirtualServerId>, add = clap_complete::ArgValueCandidates::new(crate::completion::virtual_server_ids))]
        id: VirtualServerId,
        #[command(flatten)]
        wait: WaitArgs,
    },
    /// Reboot a server (asks first, --yes when not on a terminal; prints the job,
    /// with --wait the server once running again).
    #[command(after_help = "Example:\n  hostapi --sandbox vps reboot 100001 --yes")]
    Reboot {
        /// The server's id.
        #[arg(value_parser = parse_id::<VirtualServerId>, add = clap_complete::ArgValueCandidates::new(crate::completion::virtual_server_ids))]
        id: VirtualServerId,
        #[command(flatten)]
        wait: WaitArgs,
    },
    /// Reinstall a server with its current operating system: its disks are wiped.
    #[command(after_help = "Example:\n  hostapi --sandbox vps reinstall 100001 --yes")]
    Reinstall {
        /// The server's id.
        #[arg(value_parser = parse_id::<VirtualServerId>, add = clap_complete::ArgValueCandidates::new(crate::completion::virtual_server_ids))]
        id: VirtualServerId,
    },
}

/// The columns of `vps list` (and of `get` with several ids).
pub(crate) const VPS_COLUMNS: &[Column] = &[
    col("ID", "id"),
    col("NAME", "name"),
    col("STATE", "state"),
    col("TEMPLATE", "template"),
    col("IPS", "ips[].ip"),
    col("REFERENCE", "reference"),
];

pub(crate) async fn run(context: &Context, command: VpsCommand) -> Result<(), Failure> {
    let servers = context.client.virtual_servers();
    let out = &context.printer;
    match command {
        VpsCommand::List => out.list(&out.limited(servers.list()).await?, VPS_COLUMNS),
        VpsCommand::Get { ids } => {
            let total = ids.len();
            let read = servers.get_many(ids, super::bulk::options());
            super::bulk::get(context, "virtual server", total, read, VPS_COLUMNS).await
        }
        VpsCommand::PowerOn { id, wait } => {
            let job = servers.power_on(&id).await?;
            power_outcome(context, &id, job, &wait, VirtualServerState::Running).await
        }
        VpsCommand::PowerOff { id, wait } => {
            confirm(&format!("power off virtual server {id}"), context.yes)?;
            let job = servers.power_off(&id).await?;
            power_outcome(context, &id, job, &wait, VirtualServerState::Stopped).await
        }
        VpsCommand::Reboot { id, wait } => {
            confirm(&format!("reboot virtual server {id}"), context.yes)?;
            if !wait.wait {
                return out.one(&servers.reboot(&id).await?);
            }
            let settings = context.wait_settings(&wait);
            let server = wait_with_progress(
                &format!("virtual server {id} to reboot"),
                &settings,
                &format!("virtual server {id} is running again"),
                Resume::Check(format!("vps get {id}")),
                async |options| servers.reboot_and_wait(&id, &options).await,
            )
            .await?;
            out.one(&server)
        }
        VpsCommand::Reinstall { id } => {
            confirm(&format!("reinstall virtual server {id}"), context.yes)?;
            out.one(&servers.reinstall(&id).await?)
        }
    }
}

/// Prints a power call's job, or with `--wait` the server once it is in `target`.
async fn power_outcome(
    context: &Context,
    id: &VirtualServerId,
    job: Job,
    wait: &WaitArgs,
    target: VirtualServerState,
) -> Result<(), Failure> {
    if !wait.wait {
        return context.printer.one(&job);
    }
    let servers = context.client.virtual_servers();
    let settings = context.wait_settings(wait);
    let server = wait_with_progress(
        &format!("virtual server {id} to be {target}"),
        &settings,
        &format!("virtual server {id} is {target}"),
        Resume::Check(format!("vps get {id}")),
        async |options| servers.wait_state(id, target.clone(), &options).await,
    )
    .await?;
    context.printer.one(&server)
}
