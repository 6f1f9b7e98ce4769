//! `hostapi networks`: private networks between bare metal servers, and their members.

use clap::Subcommand;
use hostapi::types::{BareMetalId, PrivateNetworkId};

use super::{Context, WaitArgs, parse_id};
use crate::confirm::confirm;
use crate::failure::Failure;
use crate::output::{Outcome, col};
use crate::progress::{Resume, wait_with_progress};

#[derive(Debug, Subcommand)]
pub(crate) enum NetworksCommand {
    /// List private networks.
    #[command(after_help = "Example:\n  hostapi --sandbox networks list")]
    List,
    /// Show one private network with its members.
    #[command(after_help = "Example:\n  hostapi --sandbox networks get 501")]
    Get {
        /// The network's id.
        #[arg(value_parser = parse_id::<PrivateNetworkId>, add = clap_complete::ArgValueCandidates::new(crate::completion::private_network_ids))]
        id: PrivateNetworkId,
    },
    /// Create a private network (the API takes no name).
    #[command(after_help = "Example:\n  hostapi --sandbox networks create")]
    Create,
    /// Delete a private network (asks first; --yes when not on a terminal).
    #[command(after_help = "Example:\n  hostapi --sandbox networks delete 502 --yes")]
    Delete {
        /// The network's id.
        #[arg(value_parser = parse_id::<PrivateNetworkId>, add = clap_complete::ArgValueCandidates::new(crate::completion::private_network_ids))]
        id: PrivateNetworkId,
    },
    /// The bare metal servers of a private network.
    #[command(
        subcommand,
        after_help = "Example:\n  hostapi --sandbox networks members list 501"
    )]
    Members(MembersCommand),
}

#[derive(Debug, Subcommand)]
pub(crate) enum MembersCommand {
    /// List a network's members and their status.
    #[command(after_help = "Example:\n  hostapi --sandbox networks members list 501")]
    List {
        /// The network's id.
        #[arg(value_parser = parse_id::<PrivateNetworkId>, add = clap_complete::ArgValueCandidates::new(crate::completion::private_network_ids))]
        id: PrivateNetworkId,
    },
    /// Add a bare metal server (with --wait, until it is CONFIGURED: about a minute).
    #[command(after_help = "Example:\n  hostapi --sandbox networks members add 502 20003 --wait")]
    Add {
        /// The network's id.
        #[arg(value_parser = parse_id::<PrivateNetworkId>, add = clap_complete::ArgValueCandidates::new(crate::completion::private_network_ids))]
        id: PrivateNetworkId,
        /// The bare metal server's id.
        #[arg(value_parser = parse_id::<BareMetalId>, add = clap_complete::ArgValueCandidates::new(crate::completion::bare_metal_ids))]
        server: BareMetalId,
        #[command(flatten)]
        wait: WaitArgs,
    },
    /// Remove a bare metal server (with --wait, until it is gone: about a minute).
    #[command(
        after_help = "Example:\n  hostapi --sandbox networks members remove 501 20001 --wait"
    )]
    Remove {
        /// The network's id.
        #[arg(value_parser = parse_id::<PrivateNetworkId>, add = clap_complete::ArgValueCandidates::new(crate::completion::private_network_ids))]
        id: PrivateNetworkId,
        /// The bare metal server's id.
        #[arg(value_parser = parse_id::<BareMetalId>, add = clap_complete::ArgValueCandidates::new(crate::completion::bare_metal_ids))]
        server: BareMetalId,
        #[command(flatten)]
        wait: WaitArgs,
    },
}

pub(crate) async fn run(context: &Context, command: NetworksCommand) -> Result<(), Failure> {
    let networks = context.client.private_networks();
    let out = &context.printer;
    match command {
        NetworksCommand::List => out.list(
            &out.limited(networks.list()).await?,
            &[
                col("ID", "id"),
                col("NAME", "name"),
                col("SERVERS", "server_count"),
                col("CREATED", "created_at"),
            ],
        ),
        NetworksCommand::Get { id } => out.one(&networks.get(&id).await?),
        NetworksCommand::Create => out.one(&networks.create().await?),
        NetworksCommand::Delete { id } => {
            confirm(&format!("delete private network {id}"), context.yes)?;
            let deleted = networks.delete(&id).await?;
            if out.is_json() {
                return out.one(&deleted);
            }
            out.done(&format!(
                "deleted private network {id}{}",
                deleted
                    .message
                    .map(|m| format!(": {m}"))
                    .unwrap_or_default()
            ))
        }
        NetworksCommand::Members(MembersCommand::List { id }) => {
            let network = networks.get(&id).await?;
            out.items(
                network.members.as_deref().unwrap_or_default(),
                &[
                    col("SERVER", "bare_metal_id"),
                    col("STATUS", "status"),
                    col("DATA CENTER", "data_center"),
                    col("CIDR", "cidr"),
                    col("GATEWAY", "gateway"),
                    col("PORT SPEED", "port_speed"),
                ],
            )
        }
        NetworksCommand::Members(MembersCommand::Add { id, server, wait }) => {
            networks.add_member(&id, &server).await?;
            if !wait.wait {
                return out.outcome(&Outcome::of(
                    "add_member",
                    &id,
                    "requested",
                    format!(
                        "adding bare metal server {server} to private network {id}; --wait follows it"
                    ),
                ));
            }
            let settings = context.wait_settings(&wait);
            let member = wait_with_progress(
                &format!("bare metal server {server} to join private network {id}"),
                &settings,
                &format!("bare metal server {server} is configured in private network {id}"),
                Resume::Check(format!("networks members list {id}")),
                async |options| {
                    networks
                        .wait_member_configured(&id, &server, &options)
                        .await
                },
            )
            .await?;
            out.one(&member)
        }
        NetworksCommand::Members(MembersCommand::Remove { id, server, wait }) => {
            networks.remove_member(&id, &server).await?;
            if !wait.wait {
                return out.outcome(&Outcome::of(
                    "remove_member",
                    &id,
                    "requested",
                    format!(
                        "removing bare metal server {server} from private network {id}; --wait follows it"
                    ),
                ));
            }
            let settings = context.wait_settings(&wait);
            wait_with_progress(
                &format!("bare metal server {server} to leave private network {id}"),
                &settings,
                &format!("bare metal server {server} left private network {id}"),
                Resume::Check(format!("networks members list {id}")),
                async |options| networks.wait_member_removed(&id, &server, &options).await,
            )
            .await?;
            out.outcome(&Outcome::of(
                "remove_member",
                &id,
                "done",
                format!("removed bare metal server {server} from private network {id}"),
            ))
        }
    }
}
