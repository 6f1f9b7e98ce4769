//! `hostapi catalog`: the read-only catalogues — operating systems, control panels,
//! rescue images, partition schemas, services.

use clap::Subcommand;
use hostapi::types::{BareMetalId, ControlPanelId, OperatingSystemId};

use super::{Context, parse_id};
use crate::failure::Failure;
use serde_json::Value;

use crate::output::{Column, col, snake_keys};

#[derive(Debug, Subcommand)]
pub(crate) enum CatalogCommand {
    /// Operating systems (to install on bare metal servers).
    #[command(
        subcommand,
        after_help = "Example:\n  hostapi --sandbox catalog operating-systems list"
    )]
    OperatingSystems(OperatingSystemsCommand),
    /// Control panels available for an operating system.
    #[command(
        subcommand,
        after_help = "Example:\n  hostapi --sandbox catalog control-panels list 9"
    )]
    ControlPanels(ControlPanelsCommand),
    /// Rescue images (to boot bare metal servers into rescue mode).
    #[command(
        subcommand,
        after_help = "Example:\n  hostapi --sandbox catalog rescue-images list"
    )]
    RescueImages(RescueImagesCommand),
    /// The partitioning suggested for installing an operating system on a server.
    #[command(
        subcommand,
        after_help = "Example:\n  hostapi --sandbox catalog partition-schema get 9 20001"
    )]
    PartitionSchema(PartitionSchemaCommand),
    /// The account's services (shown as the API sends them; it documents no fields).
    #[command(
        subcommand,
        after_help = "Example:\n  hostapi --sandbox catalog services list"
    )]
    Services(ServicesCommand),
}

#[derive(Debug, Subcommand)]
pub(crate) enum OperatingSystemsCommand {
    /// List operating systems.
    #[command(after_help = "Example:\n  hostapi --sandbox catalog operating-systems list")]
    List,
    /// Show one operating system.
    #[command(after_help = "Example:\n  hostapi --sandbox catalog operating-systems get 9")]
    Get {
        /// The operating system's id.
        #[arg(value_parser = parse_id::<OperatingSystemId>, add = clap_complete::ArgValueCandidates::new(crate::completion::operating_system_ids))]
        os: OperatingSystemId,
    },
}

#[derive(Debug, Subcommand)]
pub(crate) enum ControlPanelsCommand {
    /// List the control panels of an operating system.
    #[command(after_help = "Example:\n  hostapi --sandbox catalog control-panels list 9")]
    List {
        /// The operating system's id.
        #[arg(value_parser = parse_id::<OperatingSystemId>, add = clap_complete::ArgValueCandidates::new(crate::completion::operating_system_ids))]
        os: OperatingSystemId,
    },
    /// Show one control panel of an operating system.
    #[command(after_help = "Example:\n  hostapi --sandbox catalog control-panels get 9 1")]
    Get {
        /// The operating system's id.
        #[arg(value_parser = parse_id::<OperatingSystemId>, add = clap_complete::ArgValueCandidates::new(crate::completion::operating_system_ids))]
        os: OperatingSystemId,
        /// The control panel's id.
        #[arg(value_parser = parse_id::<ControlPanelId>)]
        panel: ControlPanelId,
    },
}

#[derive(Debug, Subcommand)]
pub(crate) enum RescueImagesCommand {
    /// List rescue images.
    #[command(after_help = "Example:\n  hostapi --sandbox catalog rescue-images list")]
    List,
}

#[derive(Debug, Subcommand)]
pub(crate) enum PartitionSchemaCommand {
    /// Show the partitioning suggested for an operating system on a bare metal server.
    #[command(after_help = "Example:\n  hostapi --sandbox catalog partition-schema get 9 20001")]
    Get {
        /// The operating system's id.
        #[arg(value_parser = parse_id::<OperatingSystemId>, add = clap_complete::ArgValueCandidates::new(crate::completion::operating_system_ids))]
        os: OperatingSystemId,
        /// The bare metal server's id.
        #[arg(value_parser = parse_id::<BareMetalId>, add = clap_complete::ArgValueCandidates::new(crate::completion::bare_metal_ids))]
        server: BareMetalId,
    },
}

#[derive(Debug, Subcommand)]
pub(crate) enum ServicesCommand {
    /// List the account's services.
    #[command(after_help = "Example:\n  hostapi --sandbox catalog services list")]
    List,
}

const NAMED: &[Column] = &[col("ID", "id"), col("NAME", "name")];

pub(crate) async fn run(context: &Context, command: CatalogCommand) -> Result<(), Failure> {
    let catalog = context.client.catalog();
    let out = &context.printer;
    match command {
        CatalogCommand::OperatingSystems(OperatingSystemsCommand::List) => out.list(
            &out.limited(catalog.operating_systems().list()).await?,
            NAMED,
        ),
        CatalogCommand::OperatingSystems(OperatingSystemsCommand::Get { os }) => {
            out.one(&catalog.operating_systems().get(&os).await?)
        }
        CatalogCommand::ControlPanels(ControlPanelsCommand::List { os }) => out.list(
            &out.limited(catalog.operating_systems().control_panels(&os).list())
                .await?,
            NAMED,
        ),
        CatalogCommand::ControlPanels(ControlPanelsCommand::Get { os, panel }) => out.one(
            &catalog
                .operating_systems()
                .control_panels(&os)
                .get(&panel)
                .await?,
        ),
        CatalogCommand::RescueImages(RescueImagesCommand::List) => {
            out.list(&out.limited(catalog.rescue_images().list()).await?, NAMED)
        }
        CatalogCommand::PartitionSchema(PartitionSchemaCommand::Get { os, server }) => out.one(
            &catalog
                .operating_systems()
                .partition_schema(&os, &server)
                .await?,
        ),
        CatalogCommand::Services(ServicesCommand::List) => {
            // The record is kept as sent; the CLI lists its services, in snake case
            // like every other list.
            let json = snake_keys(out.to_json(&catalog.services().get().await?)?);
            let services = match json {
                Value::Object(mut map) => map.remove("services").unwrap_or(Value::Array(vec![])),
                other => other,
            };
            let services: Vec<Value> = match services {
                Value::Array(items) => items,
                Value::Null => Vec::new(),
                other => vec![other],
            };
            out.items(
                &services,
                &[
                    col("ID", "id"),
                    col("NAME", "name"),
                    col("STATUS", "status"),
                    col("START", "start_date"),
                    col("MONTHLY PRICE", "monthly_price"),
                ],
            )
        }
    }
}
