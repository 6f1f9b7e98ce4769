//! `hostapi vps`: virtual servers of the v1 API.

use clap::Subcommand;
use hostapi::VirtualServerId;

use super::{Context, parse_id};
use crate::confirm::confirm;
use crate::failure::Failure;
use crate::output::col;

#[derive(Debug, Subcommand)]
pub(crate) enum VpsCommand {
    /// List virtual servers.
    #[command(after_help = "Example:\n  hostapi vps list")]
    List,
    /// Show one virtual server.
    #[command(after_help = "Example:\n  hostapi vps get 100001")]
    Get {
        /// The server's id.
        #[arg(value_parser = parse_id::<VirtualServerId>)]
        id: VirtualServerId,
    },
    /// Power a server on (asynchronous: prints the job).
    #[command(after_help = "Example:\n  hostapi vps power-on 100001")]
    PowerOn {
        /// The server's id.
        #[arg(value_parser = parse_id::<VirtualServerId>)]
        id: VirtualServerId,
    },
    /// Power a server off (asynchronous: prints the job).
    #[command(after_help = "Example:\n  hostapi vps power-off 100001")]
    PowerOff {
        /// The server's id.
        #[arg(value_parser = parse_id::<VirtualServerId>)]
        id: VirtualServerId,
    },
    /// Reboot a server (asynchronous: prints the job).
    #[command(after_help = "Example:\n  hostapi vps reboot 100001")]
    Reboot {
        /// The server's id.
        #[arg(value_parser = parse_id::<VirtualServerId>)]
        id: VirtualServerId,
    },
    /// Reinstall a server with its current operating system: its disks are wiped.
    #[command(after_help = "Example:\n  hostapi vps reinstall 100001 --yes")]
    Reinstall {
        /// The server's id.
        #[arg(value_parser = parse_id::<VirtualServerId>)]
        id: VirtualServerId,
    },
}

pub(crate) async fn run(context: &Context, command: VpsCommand) -> Result<(), Failure> {
    let servers = context.client.virtual_servers();
    let out = &context.printer;
    match command {
        VpsCommand::List => out.list(
            &servers.list().await?,
            &[
                col("ID", "id"),
                col("NAME", "name"),
                col("STATE", "state"),
                col("TEMPLATE", "template"),
                col("IPS", "ips[].ip"),
                col("REFERENCE", "reference"),
            ],
        ),
        VpsCommand::Get { id } => out.one(&servers.get(&id).await?),
        VpsCommand::PowerOn { id } => out.one(&servers.power_on(&id).await?),
        VpsCommand::PowerOff { id } => out.one(&servers.power_off(&id).await?),
        VpsCommand::Reboot { id } => out.one(&servers.reboot(&id).await?),
        VpsCommand::Reinstall { id } => {
            confirm(&format!("reinstall virtual server {id}"), context.yes)?;
            out.one(&servers.reinstall(&id).await?)
        }
    }
}
