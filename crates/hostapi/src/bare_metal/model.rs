//! Bare metal servers as the facade presents them: the server, its switch port, power
//! status, installation status and passwords.

use std::net::IpAddr;

use rust_decimal::Decimal;
#[cfg(feature = "schema")]
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::Secret;
use crate::model::macros::{constructor, open_enum};
use crate::model::{BareMetalId, DataSize, Extra, HostingContract, MacAddress, Sla};

/// A bare metal server.
///
/// The list (`GET /v1/bareMetals`) gives only the id, name, server type and reference;
/// the detail (`get`, `set_reference`) fills in the rest. The parts a view does not
/// carry are `None` (or empty).
///
/// The detail's deprecated `extras`, `serverSpecifications` and `datacenterAccessCards`
/// (placeholder content, the documents say) are not modelled: they are kept in `extra`
/// as sent, with every other field the model does not name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct BareMetalServer {
    /// The server's id (a string in the list, an integer in the detail).
    pub id: BareMetalId,
    /// The server's name.
    pub name: Option<String>,
    /// The server type, as the service words it.
    pub server_type: Option<String>,
    /// The customer's own reference; `None` when unset (null or empty).
    pub reference: Option<String>,
    /// Where the server stands (detail only).
    pub location: Option<BareMetalLocation>,
    /// The hardware (detail only; the wire's `server` object).
    pub hardware: Option<BareMetalHardware>,
    /// The network contract and interfaces (detail only).
    pub network: Option<BareMetalNetwork>,
    /// The hosting contract (detail only; the wire's `serverHostingPack`).
    pub contract: Option<HostingContract>,
    /// The service level agreement (detail only).
    pub sla: Option<Sla>,
    /// Fields the model does not name.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

constructor! {
    /// A server known by its id only, as a list names one (set the other fields as needed).
    BareMetalServer(id: BareMetalId) { name, server_type, reference, location, hardware, network, contract, sla, extra }
}

/// Where a bare metal server stands.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct BareMetalLocation {
    /// The site (data centre).
    pub site: Option<String>,
    /// The cabinet.
    pub cabinet: Option<String>,
    /// The rack space (deprecated by the service; usually empty).
    pub rackspace: Option<String>,
    /// The cabinet's combination lock (deprecated by the service; usually empty). A
    /// physical access code, so it is a [`Secret`].
    pub combination_lock: Option<Secret>,
    /// Fields the model does not name.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

/// The hardware of a bare metal server.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct BareMetalHardware {
    /// The amount of memory ("64GB").
    pub ram: Option<DataSize>,
    /// Whether a KVM (remote console) is attached (the wire's "Yes"/"No").
    pub kvm: Option<bool>,
    /// Whether the server has hardware RAID (the wire's "Yes"/"No").
    pub hardware_raid: Option<bool>,
    /// The server type.
    pub server_type: Option<String>,
    /// The processor model.
    pub processor_type: Option<String>,
    /// The processor clock speed, as the service words it ("3300 Mhz").
    pub processor_speed: Option<String>,
    /// The number of processors.
    pub cpu_count: Option<u64>,
    /// Cores per processor.
    pub cores_per_cpu: Option<u64>,
    /// The disks, in groups of identical disks. Read from `hardDiskList`; when the
    /// wire has no list, from the `hardDisks` text if it can be read (empty otherwise:
    /// the text stays in [`hard_disks_text`](Self::hard_disks_text)).
    pub hard_disks: Vec<HardDisk>,
    /// The disks as the service summarises them (the wire's `hardDisks`, e.g.
    /// "2x2TB SATA, 2x480GB SSD"), kept as sent.
    pub hard_disks_text: Option<String>,
    /// Fields the model does not name.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

/// A group of identical disks ("2x2TB SATA").
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct HardDisk {
    /// How many disks of this kind (an entry that gives no amount is one disk); `None`
    /// when the amount cannot be read.
    pub count: Option<u32>,
    /// The size of each disk, when stated.
    pub size: Option<DataSize>,
    /// The kind of disk (SATA, SAS, SSD, NVMe…), as the service words it.
    pub kind: Option<String>,
    /// Fields of a `hardDiskList` entry the model does not name.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

/// The network contract and interfaces of a bare metal server.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct BareMetalNetwork {
    /// The data pack's name.
    pub data_pack: Option<String>,
    /// What over-usage of the data pack costs.
    pub data_pack_excess: Option<DataPackExcess>,
    /// The monthly price of the data pack (no currency given).
    #[cfg_attr(feature = "schema", schemars(with = "Option<String>"))]
    #[serde(with = "rust_decimal::serde::str_option")]
    pub monthly_price: Option<Decimal>,
    /// IPs included free of charge.
    pub ips_free_of_charge: Option<u64>,
    /// IPs assigned.
    pub ips_assigned: Option<u64>,
    /// The monthly price of each IP beyond the free ones (no currency given).
    #[cfg_attr(feature = "schema", schemars(with = "Option<String>"))]
    #[serde(with = "rust_decimal::serde::str_option")]
    pub excess_ip_price: Option<Decimal>,
    /// The IPMI (out-of-band management) interface.
    pub ipmi: Option<Ipmi>,
    /// The server's MAC addresses, lower-case and colon-separated whatever the wire's
    /// spelling.
    pub mac_addresses: Vec<MacAddress>,
    /// Fields the model does not name.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

open_enum! {
    /// What data pack over-usage is measured in.
    ExcessKind {
        /// Bandwidth (a rate).
        Bandwidth = "bandwidth" => "bandwidth",
        /// Data traffic (a volume).
        DataTraffic = "datatraffic" => "data_traffic",
    }
}

/// The price of data pack over-usage.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct DataPackExcess {
    /// What is measured.
    pub kind: Option<ExcessKind>,
    /// The price per unit of over-usage (no currency given).
    #[cfg_attr(feature = "schema", schemars(with = "Option<String>"))]
    #[serde(with = "rust_decimal::serde::str_option")]
    pub price_per_unit: Option<Decimal>,
    /// The unit over-usage is counted in ("GB", "Mbps"), as sent.
    pub unit: Option<String>,
    /// Fields the model does not name.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

open_enum! {
    /// The kind of IPMI interface.
    IpmiKind {
        /// HP Integrated Lights-Out.
        Ilo = "ILO" => "ilo",
        /// Dell Remote Access Controller.
        Drac = "DRAC" => "drac",
    }
}

/// The IPMI (out-of-band management) interface of a bare metal server.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct Ipmi {
    /// Its IP address.
    pub ip: Option<IpAddr>,
    /// The netmask.
    pub netmask: Option<String>,
    /// The network.
    pub network: Option<String>,
    /// The gateway.
    pub gateway: Option<String>,
    /// ILO, DRAC, …
    pub kind: Option<IpmiKind>,
    /// Fields the model does not name.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

open_enum! {
    /// Whether a switch port lets traffic through.
    SwitchPortStatus {
        /// Open: the server is connected.
        Open = "open" => "open",
        /// Closed: the server is cut off the network.
        Closed = "closed" => "closed",
    }
}

/// The switch port of a bare metal server.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct SwitchPort {
    /// Open or closed.
    pub status: Option<SwitchPortStatus>,
    /// The server's id.
    pub server_id: Option<BareMetalId>,
    /// The server's name.
    pub server_name: Option<String>,
    /// The port's identifier on the switch.
    pub switch_node: Option<i64>,
    /// Fields the model does not name.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

open_enum! {
    /// Whether a bare metal server is powered.
    BareMetalPowerState {
        /// Powered on.
        On = "on" => "on",
        /// Powered off.
        Off = "off" => "off",
    }
}

/// The power status of a bare metal server (blade servers are not supported by the
/// service).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct BareMetalPowerStatus {
    /// On or off.
    pub status: Option<BareMetalPowerState>,
    /// The server's id.
    pub server_id: Option<BareMetalId>,
    /// The server's name.
    pub server_name: Option<String>,
    /// Fields the model does not name.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

open_enum! {
    /// What an installation status says. The docs name only `Normal` (no installation
    /// or rescue boot is running); any other description (e.g. "Installing") is kept as
    /// sent.
    InstallationState {
        /// No installation is running.
        Normal = "Normal" => "normal",
    }
}

/// The code of an installation status that means all is well.
pub const INSTALLATION_CODE_NORMAL: i64 = 1000;

/// The installation (or rescue mode) status of a bare metal server.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct InstallationStatus {
    /// The status code: 1000 normally, anything else an error.
    pub code: Option<i64>,
    /// What is going on; `Normal` when nothing runs.
    pub description: Option<InstallationState>,
    /// The server's id (the wire's `serverPackId`, a string or an integer).
    pub server_id: Option<BareMetalId>,
    /// The server's name (sent as `serverName`, documented as `serverPackName`; both
    /// are read).
    pub server_name: Option<String>,
    /// Fields the model does not name.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

impl InstallationStatus {
    /// Whether the code says an error (present and not 1000).
    pub fn is_error(&self) -> bool {
        self.code.is_some_and(|c| c != INSTALLATION_CODE_NORMAL)
    }

    /// Whether no installation or rescue boot is running (`Normal`).
    pub fn is_idle(&self) -> bool {
        self.description == Some(InstallationState::Normal)
    }
}

/// The passwords of a bare metal server. Both are [`Secret`]s: redacted in `Debug` and
/// in serialised output unless exposed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct BareMetalPasswords {
    /// The initial root password (sent as `rootPassword`, documented as
    /// `rootpassword`; both are read).
    pub root_password: Option<Secret>,
    /// The rescue mode password; set (or changed) once rescue mode has launched.
    pub rescue_mode_password: Option<Secret>,
    /// Fields the model does not name.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

crate::read::shapes::has_extra!(
    BareMetalServer,
    SwitchPort,
    BareMetalPowerStatus,
    InstallationStatus,
    BareMetalPasswords,
    HardDisk
);
