//! `hostapi bare-metal`: bare metal servers — read, reference, switch port, power,
//! install, rescue, installation status, passwords, DHCP leases, IPs, network usage.

use std::net::IpAddr;

use clap::Subcommand;
use hostapi::bare_metal::{InstallPartition, InstallRequest, NewDhcpLease, PartitionLayout};
use hostapi::types::{BareMetalId, MacAddress, OperatingSystemId, RescueImageId};

use super::ips::{IP_COLUMNS, IpChange};
use super::usage::{self, UsageCommand};
use super::{Context, WaitArgs, WaitTuning, bulk, parse_id};
use crate::confirm::confirm;
use crate::failure::Failure;
use crate::outcome::settle;
use crate::output::{Column, Outcome, col, warn_unreadable};
use crate::progress::{Resume, wait_with_progress};
use serde_json::Value;

#[derive(Debug, Subcommand)]
pub(crate) enum BareMetalCommand {
    /// List bare metal servers (id, name, type and reference; --details adds the
    /// site and the IPs, read for every server at once; `get` shows the rest).
    #[command(
        after_help = "Examples:\n  hostapi --sandbox bare-metal list\n  hostapi --sandbox bare-metal list --details --filter location.site=AMS-01"
    )]
    List {
        /// Read each server in detail (site, IPs, the fields `get` shows), several
        /// at once.
        #[arg(long)]
        details: bool,
    },
    /// Show servers: location, hardware, network, contract, SLA. Several ids are read
    /// at once and print as a list.
    #[command(
        after_help = "Examples:\n  hostapi --sandbox bare-metal get 20001\n  hostapi --sandbox bare-metal get 20001 20002 20003 --columns id,name,location.site"
    )]
    Get {
        /// The servers' ids.
        #[arg(required = true, value_parser = parse_id::<BareMetalId>, add = clap_complete::ArgValueCandidates::new(crate::completion::bare_metal_ids))]
        ids: Vec<BareMetalId>,
    },
    /// Set a server's reference (your own label; "" clears it).
    #[command(
        after_help = "Example:\n  hostapi --sandbox bare-metal set-reference 20001 db-primary"
    )]
    SetReference {
        /// The server's id.
        #[arg(value_parser = parse_id::<BareMetalId>, add = clap_complete::ArgValueCandidates::new(crate::completion::bare_metal_ids))]
        id: BareMetalId,
        /// The new reference.
        reference: String,
    },
    /// The server's switch port: read, open (connect), close (cut off the network).
    #[command(
        subcommand,
        after_help = "Example:\n  hostapi --sandbox bare-metal switch-port get 20001"
    )]
    SwitchPort(SwitchPortCommand),
    /// The server's power: read the status, power cycle.
    #[command(
        subcommand,
        after_help = "Example:\n  hostapi --sandbox bare-metal power get 20001"
    )]
    Power(PowerCommand),
    /// Install an operating system: everything on the disks is lost (asks first;
    /// --yes when not on a terminal).
    #[command(
        after_help = "Examples:\n  hostapi --sandbox bare-metal install 20001 --os 9 --yes --wait\n  hostapi --sandbox bare-metal install 20001 --os 9 --disk /dev/sda \\\n    --partition ext2:500:/boot --partition swap:4096 --partition ext4:*:/ --yes\n  hostapi --sandbox bare-metal install 20001 --os 9 --raid-level 1 --raid-disks 2 --yes"
    )]
    Install {
        /// The server's id.
        #[arg(value_parser = parse_id::<BareMetalId>, add = clap_complete::ArgValueCandidates::new(crate::completion::bare_metal_ids))]
        id: BareMetalId,
        /// The operating system's id (see `hostapi catalog operating-systems list`).
        #[arg(long = "os", value_name = "OS_ID", value_parser = parse_id::<OperatingSystemId>, add = clap_complete::ArgValueCandidates::new(crate::completion::operating_system_ids))]
        os: OperatingSystemId,
        /// The disk to partition (default: the service's own layout).
        #[arg(long, value_name = "DEVICE", requires = "partitions")]
        disk: Option<String>,
        /// A partition, in order: FILESYSTEM:SIZE[:MOUNTPOINT], SIZE in MB or * for the
        /// rest of the disk (e.g. ext4:*:/, swap:4096).
        #[arg(long = "partition", value_name = "SPEC", value_parser = parse_partition, requires = "disk")]
        partitions: Vec<InstallPartition>,
        /// The bootable partition's index, from 0.
        #[arg(long, default_value_t = 0, requires = "disk")]
        bootable: usize,
        /// Software RAID level: 0, 1, 5, 6 or 10.
        #[arg(long, requires = "raid_disks")]
        raid_level: Option<u8>,
        /// How many disks software RAID spans.
        #[arg(long, requires = "raid_level")]
        raid_disks: Option<u32>,
        #[command(flatten)]
        wait: WaitArgs,
    },
    /// Boot the server into rescue mode (with --wait, prints the passwords once it
    /// is up; [REDACTED] unless --show-secrets).
    #[command(
        after_help = "Example:\n  hostapi --sandbox bare-metal rescue 20001 --image 121 --wait --show-secrets"
    )]
    Rescue {
        /// The server's id.
        #[arg(value_parser = parse_id::<BareMetalId>, add = clap_complete::ArgValueCandidates::new(crate::completion::bare_metal_ids))]
        id: BareMetalId,
        /// The rescue image's id (see `hostapi catalog rescue-images list`).
        #[arg(long = "image", value_name = "IMAGE_ID", value_parser = parse_id::<RescueImageId>, add = clap_complete::ArgValueCandidates::new(crate::completion::rescue_image_ids))]
        image: RescueImageId,
        #[command(flatten)]
        wait: WaitArgs,
    },
    /// The installation status (also reports a rescue boot).
    #[command(
        subcommand,
        after_help = "Example:\n  hostapi --sandbox bare-metal installation get 20001"
    )]
    Installation(InstallationCommand),
    /// Show the initial root password and the rescue mode password ([REDACTED]
    /// unless --show-secrets).
    #[command(
        after_help = "Example:\n  hostapi --sandbox bare-metal root-password 20001 --show-secrets"
    )]
    RootPassword {
        /// The server's id.
        #[arg(value_parser = parse_id::<BareMetalId>, add = clap_complete::ArgValueCandidates::new(crate::completion::bare_metal_ids))]
        id: BareMetalId,
    },
    /// DHCP leases (PXE boot) of a server.
    #[command(
        subcommand,
        after_help = "Example:\n  hostapi --sandbox bare-metal leases list 20001"
    )]
    Leases(LeasesCommand),
    /// IP addresses of a server.
    #[command(
        subcommand,
        after_help = "Example:\n  hostapi --sandbox bare-metal ips list 20001"
    )]
    Ips(BareMetalIpsCommand),
    /// Network usage of a server: bandwidth and data traffic, as figures, charts or
    /// the service's PNG graphs.
    #[command(
        subcommand,
        after_help = "Examples:\n  hostapi --sandbox bare-metal usage get 20001\n  hostapi --sandbox bare-metal usage datatraffic 20001 --from 2024-01-01 --to 2024-01-14 --chart"
    )]
    Usage(UsageCommand),
}

#[derive(Debug, Subcommand)]
pub(crate) enum SwitchPortCommand {
    /// Show whether the switch port is open or closed.
    #[command(after_help = "Example:\n  hostapi --sandbox bare-metal switch-port get 20001")]
    Get {
        /// The server's id.
        #[arg(value_parser = parse_id::<BareMetalId>, add = clap_complete::ArgValueCandidates::new(crate::completion::bare_metal_ids))]
        id: BareMetalId,
    },
    /// Open the switch port (connect the server to the network).
    #[command(after_help = "Example:\n  hostapi --sandbox bare-metal switch-port open 20001")]
    Open {
        /// The server's id.
        #[arg(value_parser = parse_id::<BareMetalId>, add = clap_complete::ArgValueCandidates::new(crate::completion::bare_metal_ids))]
        id: BareMetalId,
    },
    /// Close the switch port (cut the server off the network; asks first, --yes when
    /// not on a terminal).
    #[command(
        after_help = "Example:\n  hostapi --sandbox bare-metal switch-port close 20001 --yes"
    )]
    Close {
        /// The server's id.
        #[arg(value_parser = parse_id::<BareMetalId>, add = clap_complete::ArgValueCandidates::new(crate::completion::bare_metal_ids))]
        id: BareMetalId,
    },
}

#[derive(Debug, Subcommand)]
pub(crate) enum PowerCommand {
    /// Show whether the server is powered on or off.
    #[command(after_help = "Example:\n  hostapi --sandbox bare-metal power get 20001")]
    Get {
        /// The server's id.
        #[arg(value_parser = parse_id::<BareMetalId>, add = clap_complete::ArgValueCandidates::new(crate::completion::bare_metal_ids))]
        id: BareMetalId,
    },
    /// Power cycle (reboot) the server (asks first, --yes when not on a terminal;
    /// with --wait, until the power went off and is on again).
    #[command(after_help = "Example:\n  hostapi --sandbox bare-metal power cycle 20001 --yes")]
    Cycle {
        /// The server's id.
        #[arg(value_parser = parse_id::<BareMetalId>, add = clap_complete::ArgValueCandidates::new(crate::completion::bare_metal_ids))]
        id: BareMetalId,
        #[command(flatten)]
        wait: WaitArgs,
    },
}

#[derive(Debug, Subcommand)]
pub(crate) enum InstallationCommand {
    /// Show the installation status.
    #[command(after_help = "Example:\n  hostapi --sandbox bare-metal installation get 20001")]
    Get {
        /// The server's id.
        #[arg(value_parser = parse_id::<BareMetalId>, add = clap_complete::ArgValueCandidates::new(crate::completion::bare_metal_ids))]
        id: BareMetalId,
    },
    /// Wait until no installation (or rescue boot) runs, showing progress.
    #[command(
        after_help = "Example:\n  hostapi --sandbox bare-metal installation wait 20001 --wait-timeout 45m"
    )]
    Wait {
        /// The server's id.
        #[arg(value_parser = parse_id::<BareMetalId>, add = clap_complete::ArgValueCandidates::new(crate::completion::bare_metal_ids))]
        id: BareMetalId,
        #[command(flatten)]
        tuning: WaitTuning,
    },
}

#[derive(Debug, Subcommand)]
pub(crate) enum LeasesCommand {
    /// List a server's DHCP leases.
    #[command(after_help = "Example:\n  hostapi --sandbox bare-metal leases list 20001")]
    List {
        /// The server's id.
        #[arg(value_parser = parse_id::<BareMetalId>, add = clap_complete::ArgValueCandidates::new(crate::completion::bare_metal_ids))]
        id: BareMetalId,
    },
    /// Show the lease of one MAC address.
    #[command(
        after_help = "Example:\n  hostapi --sandbox bare-metal leases get 20001 ac:1f:6b:03:88:8c"
    )]
    Get {
        /// The server's id.
        #[arg(value_parser = parse_id::<BareMetalId>, add = clap_complete::ArgValueCandidates::new(crate::completion::bare_metal_ids))]
        id: BareMetalId,
        /// The MAC address (any letter case, `:` or `-`).
        #[arg(value_parser = parse_id::<MacAddress>)]
        mac: MacAddress,
    },
    /// Create a lease (PXE boot) for the server.
    #[command(
        after_help = "Example:\n  hostapi --sandbox bare-metal leases create 20002 --boot-file http://192.0.2.5/pxe.ipxe \\\n    --boot-server 192.0.2.5 --dns-server 192.0.2.53"
    )]
    Create {
        /// The server's id.
        #[arg(value_parser = parse_id::<BareMetalId>, add = clap_complete::ArgValueCandidates::new(crate::completion::bare_metal_ids))]
        id: BareMetalId,
        /// The PXE boot file (a URL).
        #[arg(long, value_name = "URL")]
        boot_file: String,
        /// The TFTP server's IP address.
        #[arg(long, value_name = "IP")]
        boot_server: IpAddr,
        /// The DNS server's IP address.
        #[arg(long, value_name = "IP")]
        dns_server: IpAddr,
    },
    /// Delete the lease of one MAC address.
    #[command(
        after_help = "Example:\n  hostapi --sandbox bare-metal leases delete 20001 ac:1f:6b:03:88:8c"
    )]
    Delete {
        /// The server's id.
        #[arg(value_parser = parse_id::<BareMetalId>, add = clap_complete::ArgValueCandidates::new(crate::completion::bare_metal_ids))]
        id: BareMetalId,
        /// The MAC address.
        #[arg(value_parser = parse_id::<MacAddress>)]
        mac: MacAddress,
    },
    /// Delete every lease of the server (asks first; --yes when not on a terminal).
    #[command(
        after_help = "Example:\n  hostapi --sandbox bare-metal leases delete-all 20001 --yes"
    )]
    DeleteAll {
        /// The server's id.
        #[arg(value_parser = parse_id::<BareMetalId>, add = clap_complete::ArgValueCandidates::new(crate::completion::bare_metal_ids))]
        id: BareMetalId,
    },
}

#[derive(Debug, Subcommand)]
pub(crate) enum BareMetalIpsCommand {
    /// List a server's IP addresses.
    #[command(after_help = "Example:\n  hostapi --sandbox bare-metal ips list 20001")]
    List {
        /// The server's id.
        #[arg(value_parser = parse_id::<BareMetalId>, add = clap_complete::ArgValueCandidates::new(crate::completion::bare_metal_ids))]
        id: BareMetalId,
    },
    /// Show one IP address of a server.
    #[command(after_help = "Example:\n  hostapi --sandbox bare-metal ips get 20001 85.17.0.10")]
    Get {
        /// The server's id.
        #[arg(value_parser = parse_id::<BareMetalId>, add = clap_complete::ArgValueCandidates::new(crate::completion::bare_metal_ids))]
        id: BareMetalId,
        /// The IP address.
        ip: IpAddr,
    },
    /// Set an IP's reverse DNS name, or turn null routing on or off (one at a time).
    #[command(
        after_help = "Example:\n  hostapi --sandbox bare-metal ips update 20001 85.17.0.10 --reverse-lookup db.example.com"
    )]
    Update {
        /// The server's id.
        #[arg(value_parser = parse_id::<BareMetalId>, add = clap_complete::ArgValueCandidates::new(crate::completion::bare_metal_ids))]
        id: BareMetalId,
        #[command(flatten)]
        change: IpChange,
    },
}

/// Parses `FILESYSTEM:SIZE[:MOUNTPOINT]`.
fn parse_partition(value: &str) -> Result<InstallPartition, String> {
    let mut parts = value.splitn(3, ':');
    let filesystem = parts.next().unwrap_or_default().trim();
    let size = parts.next().map(str::trim);
    let mountpoint = parts.next().map(str::trim).filter(|m| !m.is_empty());
    let (Some(size), false) = (size, filesystem.is_empty()) else {
        return Err(format!(
            "`{value}` is not FILESYSTEM:SIZE[:MOUNTPOINT] (e.g. ext4:*:/ or swap:4096)"
        ));
    };
    let partition = if size == "*" {
        InstallPartition::rest(filesystem)
    } else {
        let megabytes = size
            .strip_suffix("MB")
            .unwrap_or(size)
            .trim()
            .parse::<u64>()
            .map_err(|_| format!("`{size}` is not a size in MB (e.g. 4096) nor * (the rest)"))?;
        InstallPartition::megabytes(filesystem, megabytes)
    };
    Ok(match mountpoint {
        Some(path) => partition.mountpoint(path),
        None => partition,
    })
}

/// The columns of `bare-metal list`.
pub(crate) const LIST_COLUMNS: &[Column] = &[
    col("ID", "id"),
    col("NAME", "name"),
    col("TYPE", "server_type"),
    col("REFERENCE", "reference"),
];

/// The columns of servers read in detail (`get` with several ids, `list --details`).
const DETAIL_COLUMNS: &[Column] = &[
    col("ID", "id"),
    col("NAME", "name"),
    col("TYPE", "server_type"),
    col("SITE", "location.site"),
    col("IPS", "ips[].ip"),
    col("REFERENCE", "reference"),
];

/// The columns of `get` with several ids.
const GET_COLUMNS: &[Column] = &[
    col("ID", "id"),
    col("NAME", "name"),
    col("TYPE", "server_type"),
    col("SITE", "location.site"),
    col("CABINET", "location.cabinet"),
    col("REFERENCE", "reference"),
];

/// `bare-metal list --details`: every server read in detail, with its IPs (as
/// `bare-metal ips list` shows them, under `ips`), several at once.
async fn list_details(context: &Context) -> Result<(), Failure> {
    let servers = context.client.bare_metals();
    let listing = context.printer.limited(servers.list()).await?;
    warn_unreadable(&listing);
    context.printer.note_limit(&listing);
    let ids: Vec<BareMetalId> = listing.iter().map(|s| s.id.clone()).collect();
    let total = ids.len();
    let records = detailed(context, ids).await;
    let (records, failed) = records;
    context.printer.shaped_list(records, DETAIL_COLUMNS)?;
    bulk::report("bare metal server", total, failed)
}

/// Servers read in detail, each with its IPs under `ips` (the JSON of `get` and of
/// `bare-metal ips list`), several at once; and the ids that could not be read.
pub(crate) async fn detailed(
    context: &Context,
    ids: Vec<BareMetalId>,
) -> (Vec<Value>, Vec<(BareMetalId, Failure)>) {
    let servers = context.client.bare_metals();
    let total = ids.len();
    let details = servers.get_many(ids.clone(), bulk::options());
    let ips = hostapi::bulk::bulk(futures::stream::iter(ids), bulk::options(), |id| {
        let servers = servers.clone();
        async move { servers.ips(&id).list().await }
    });
    let ((read, mut failed), (ips, ip_failures)) = futures::join!(
        bulk::collect("bare metal servers", total, details),
        bulk::collect("their IPs", total, ips),
    );
    let mut ips: std::collections::HashMap<String, Value> = ips
        .into_iter()
        .map(|(id, listing)| {
            let json = context.printer.to_json(&*listing).unwrap_or_default();
            (id.to_string(), json)
        })
        .collect();
    let mut records = Vec::new();
    for (id, server) in read {
        let mut json = match context.printer.to_json(&server) {
            Ok(json) => json,
            Err(failure) => {
                failed.push((id, failure));
                continue;
            }
        };
        if let (Some(map), Some(list)) = (json.as_object_mut(), ips.remove(&id.to_string())) {
            map.insert("ips".to_owned(), list);
        }
        records.push(json);
    }
    for (id, failure) in ip_failures {
        eprintln!(
            "warning: the IPs of bare metal server {id} could not be read: {}",
            failure.shown()
        );
    }
    (records, failed)
}

pub(crate) async fn run(context: &Context, command: BareMetalCommand) -> Result<(), Failure> {
    let servers = context.client.bare_metals();
    let out = &context.printer;
    match command {
        BareMetalCommand::List { details: false } => {
            out.list(&out.limited(servers.list()).await?, LIST_COLUMNS)
        }
        BareMetalCommand::List { details: true } => list_details(context).await,
        BareMetalCommand::Get { ids } => {
            let total = ids.len();
            let read = servers.get_many(ids, bulk::options());
            bulk::get(context, "bare metal server", total, read, GET_COLUMNS).await
        }
        BareMetalCommand::SetReference { id, reference } => {
            let server = settle(servers.update(&id, &reference).await, || {
                servers.confirm_update(&id, &reference)
            })
            .await?;
            out.one(&server)
        }
        BareMetalCommand::SwitchPort(command) => match command {
            SwitchPortCommand::Get { id } => out.one(&servers.switch_port(&id).await?),
            SwitchPortCommand::Open { id } => out.one(&servers.open_switch_port(&id).await?),
            SwitchPortCommand::Close { id } => {
                confirm(
                    &format!(
                        "close the switch port of bare metal server {id}, cutting it off the network"
                    ),
                    context.yes,
                )?;
                out.one(&servers.close_switch_port(&id).await?)
            }
        },
        BareMetalCommand::Power(command) => match command {
            PowerCommand::Get { id } => out.one(&servers.power_status(&id).await?),
            PowerCommand::Cycle { id, wait } => {
                confirm(
                    &format!("power cycle bare metal server {id} (it goes down for a while)"),
                    context.yes,
                )?;
                if wait.wait {
                    let settings = context.wait_settings(&wait);
                    let status = wait_with_progress(
                        &format!("bare metal server {id} to power cycle"),
                        &settings,
                        &format!("bare metal server {id} is on again"),
                        Resume::Check(format!("bare-metal power get {id}")),
                        async |options| servers.power_cycle_and_wait(&id, &options).await,
                    )
                    .await?;
                    return out.one(&status);
                }
                servers.power_cycle(&id).await?;
                out.outcome(&Outcome::of(
                    "power_cycle",
                    &id,
                    "requested",
                    format!("power cycle of bare metal server {id} requested"),
                ))
            }
        },
        BareMetalCommand::Install {
            id,
            os,
            disk,
            partitions,
            bootable,
            raid_level,
            raid_disks,
            wait,
        } => {
            let mut request = InstallRequest::new(os.clone());
            if let Some(disk) = disk {
                let layout = partitions
                    .into_iter()
                    .fold(PartitionLayout::new(disk), PartitionLayout::partition)
                    .bootable(bootable);
                request = request.hdd(layout);
            }
            request.raid_level = raid_level;
            request.number_disks = raid_disks;
            install(context, &id, &request, &wait).await
        }
        BareMetalCommand::Rescue { id, image, wait } => {
            // The passwords before the boot tell the new rescue password from an old one.
            let before = if wait.wait {
                Some(servers.root_password(&id).await?)
            } else {
                None
            };
            servers.rescue(&id, &image).await?;
            let Some(before) = before else {
                return out.outcome(&Outcome::of(
                    "rescue",
                    &id,
                    "requested",
                    format!(
                        "rescue mode of bare metal server {id} launched; `hostapi bare-metal installation wait {id}` follows it"
                    ),
                ));
            };
            let settings = context.wait_settings(&wait);
            let passwords = wait_with_progress(
                &format!("rescue mode of bare metal server {id}"),
                &settings,
                &format!("bare metal server {id} is in rescue mode"),
                Resume::Wait(format!("bare-metal installation wait {id}")),
                async |options| servers.wait_rescue_ready(&id, &before, &options).await,
            )
            .await?;
            out.one(&passwords)
        }
        BareMetalCommand::Installation(InstallationCommand::Get { id }) => {
            out.one(&servers.installation_status(&id).await?)
        }
        BareMetalCommand::Installation(InstallationCommand::Wait { id, tuning }) => {
            let now = servers.installation_status(&id).await?;
            let done = format!("bare metal server {id}: no installation running");
            if now.is_idle() {
                eprintln!("{done}");
                return out.one(&now);
            }
            let settings = context.wait_settings(&tuning.as_wait());
            let status = wait_with_progress(
                &format!("installation of bare metal server {id}"),
                &settings,
                &done,
                Resume::Wait(format!("bare-metal installation wait {id}")),
                async |options| servers.wait_installed(&id, &now, &options).await,
            )
            .await?;
            out.one(&status)
        }
        BareMetalCommand::RootPassword { id } => out.one(&servers.root_password(&id).await?),
        BareMetalCommand::Leases(command) => leases(context, command).await,
        BareMetalCommand::Ips(command) => ips(context, command).await,
        BareMetalCommand::Usage(command) => usage::bare_metal(context, command).await,
    }
}

/// Installs, and with `--wait` follows the installation to its end.
pub(crate) async fn install(
    context: &Context,
    id: &BareMetalId,
    request: &InstallRequest,
    wait: &WaitArgs,
) -> Result<(), Failure> {
    confirm(
        &format!(
            "install operating system {} on bare metal server {id}, wiping its disks",
            request.os_id
        ),
        context.yes,
    )?;
    let servers = context.client.bare_metals();
    // The status before the installation tells its end from a state it had already.
    let before = if wait.wait {
        Some(servers.installation_status(id).await?)
    } else {
        None
    };
    servers.install(id, request).await?;
    let Some(before) = before else {
        return context.printer.outcome(&Outcome::of(
            "install",
            id,
            "requested",
            format!(
                "installation on bare metal server {id} started; `hostapi bare-metal installation wait {id}` follows it"
            ),
        ));
    };
    let settings = context.wait_settings(wait);
    let status = wait_with_progress(
        &format!("installation of bare metal server {id}"),
        &settings,
        &format!("bare metal server {id} is installed"),
        Resume::Wait(format!("bare-metal installation wait {id}")),
        async |options| servers.wait_installed(id, &before, &options).await,
    )
    .await?;
    context.printer.one(&status)
}

async fn leases(context: &Context, command: LeasesCommand) -> Result<(), Failure> {
    let servers = context.client.bare_metals();
    let out = &context.printer;
    match command {
        LeasesCommand::List { id } => out.list(
            &out.limited(servers.leases(&id).list()).await?,
            &[
                col("IP", "ip"),
                col("MAC", "mac"),
                col("SCOPE", "scope"),
                col("OPTIONS", "options[].name"),
            ],
        ),
        LeasesCommand::Get { id, mac } => out.one(&servers.leases(&id).get(&mac).await?),
        LeasesCommand::Create {
            id,
            boot_file,
            boot_server,
            dns_server,
        } => {
            let lease = NewDhcpLease::new(boot_file, boot_server, dns_server);
            servers.leases(&id).create(&lease).await?;
            out.outcome(&Outcome::of(
                "create_lease",
                &id,
                "done",
                format!("lease created for bare metal server {id}"),
            ))
        }
        LeasesCommand::Delete { id, mac } => {
            servers.leases(&id).delete(&mac).await?;
            out.outcome(&Outcome::of(
                "delete_lease",
                &id,
                "done",
                format!("lease of {mac} deleted from bare metal server {id}"),
            ))
        }
        LeasesCommand::DeleteAll { id } => {
            confirm(
                &format!("delete every DHCP lease of bare metal server {id}"),
                context.yes,
            )?;
            servers.leases(&id).delete_all().await?;
            out.outcome(&Outcome::of(
                "delete_all_leases",
                &id,
                "done",
                format!("every lease of bare metal server {id} deleted"),
            ))
        }
    }
}

async fn ips(context: &Context, command: BareMetalIpsCommand) -> Result<(), Failure> {
    let servers = context.client.bare_metals();
    let out = &context.printer;
    match command {
        BareMetalIpsCommand::List { id } => {
            out.list(&out.limited(servers.ips(&id).list()).await?, IP_COLUMNS)
        }
        BareMetalIpsCommand::Get { id, ip } => out.one(&servers.ips(&id).get(ip).await?),
        BareMetalIpsCommand::Update { id, change } => {
            change.confirm(context.yes)?;
            let ips = servers.ips(&id);
            let update = change.update();
            let ip = settle(ips.update(change.ip, &update).await, || {
                ips.confirm_update(change.ip, &update)
            })
            .await?;
            out.one(&ip)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hostapi::bare_metal::InstallPartitionSize;

    #[test]
    fn partitions_parse_from_their_short_form() {
        let root = parse_partition("ext4:*:/").unwrap();
        assert_eq!(root.size, InstallPartitionSize::Remainder);
        assert_eq!(root.mountpoint.as_deref(), Some("/"));
        let swap = parse_partition("swap:4096").unwrap();
        assert_eq!(swap.size, InstallPartitionSize::Megabytes(4096));
        assert_eq!(swap.mountpoint, None);
        assert_eq!(
            parse_partition("ext2:500MB:/boot").unwrap().size,
            InstallPartitionSize::Megabytes(500)
        );
        assert!(parse_partition("ext4").is_err());
        assert!(parse_partition(":100:/").is_err());
        assert!(parse_partition("ext4:lots:/").is_err());
    }
}
