//! The cloud v2 virtual server, the private cloud and the shapes they share, and the
//! credentials of a server, as the facade presents them.

use chrono::{DateTime, FixedOffset};
#[cfg(feature = "schema")]
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::Secret;
use crate::model::macros::{constructor, open_enum};
use crate::model::{
    CloudServerId, DataSize, Extra, IpAddress, Money, PrivateCloudId, Sla, Username,
};

open_enum! {
    /// The power state of a cloud virtual server.
    ///
    /// The docs name RUNNING, STOPPED, STARTING, STOPPING and UNKNOWN. The service's own
    /// `UNKNOWN` is [`Indeterminate`](Self::Indeterminate); any value the docs do not
    /// name (e.g. `MAINTENANCE`) is kept in [`Unknown`](Self::Unknown).
    CloudServerState {
        /// `RUNNING`: powered on.
        Running = "RUNNING" => "running",
        /// `STOPPED`: powered off.
        Stopped = "STOPPED" => "stopped",
        /// `STARTING`: powering on (or coming back from a reboot).
        Starting = "STARTING" => "starting",
        /// `STOPPING`: powering off (or going down for a reboot).
        Stopping = "STOPPING" => "stopping",
        /// `UNKNOWN`: the service itself does not know the state.
        Indeterminate = "UNKNOWN" => "unknown",
    }
}

open_enum! {
    /// The state of a cloud virtual server's firewall (no call changes it). The
    /// service's own `UNKNOWN` is [`Indeterminate`](Self::Indeterminate).
    FirewallState {
        /// `ENABLED`.
        Enabled = "ENABLED" => "enabled",
        /// `DISABLED`.
        Disabled = "DISABLED" => "disabled",
        /// `UNKNOWN`: the service does not know.
        Indeterminate = "UNKNOWN" => "unknown",
    }
}

open_enum! {
    /// The service offering (size) of a cloud virtual server or private cloud.
    ServiceOffering {
        /// `S`.
        Small = "S" => "small",
        /// `M`.
        Medium = "M" => "medium",
        /// `L`.
        Large = "L" => "large",
        /// `XL`.
        ExtraLarge = "XL" => "extra_large",
        /// `FLAT_FEE`, seen on private clouds.
        FlatFee = "FLAT_FEE" => "flat_fee",
    }
}

open_enum! {
    /// How often a contract is billed (`billingFrequency`).
    BillingFrequency {
        /// `MONTH`: monthly.
        Month = "MONTH" => "month",
    }
}

open_enum! {
    /// The kind of traffic a server's allowance covers (`trafficType`).
    TrafficType {
        /// `VOLUME`.
        Volume = "VOLUME" => "volume",
        /// `PREMIUM`.
        Premium = "PREMIUM" => "premium",
    }
}

open_enum! {
    /// The kind of a server's credential.
    CredentialType {
        /// `OPERATING_SYSTEM`: a user of the server's operating system.
        OperatingSystem = "OPERATING_SYSTEM" => "operating_system",
        /// `CONTROL_PANEL`: a user of the control panel installed on the server.
        ControlPanel = "CONTROL_PANEL" => "control_panel",
    }
}

/// A virtual server of the cloud v2 interface (`/cloud/v2/virtualServers`).
///
/// The v1 interface shows virtual servers in another shape:
/// [`VirtualServer`](crate::VirtualServer). Every field but `id` is optional on the
/// wire (the docs do not say which are always sent), so they are `Option`s here;
/// `ips` is empty when the wire has none.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct CloudServer {
    /// The server's id (a string, often UUID-shaped).
    pub id: CloudServerId,
    /// The customer's own reference; `None` when unset (null, absent or empty).
    pub reference: Option<String>,
    /// The customer's id.
    pub customer_id: Option<String>,
    /// The data center code, e.g. `AMS-01`.
    pub data_center: Option<String>,
    /// The id of the cloud server this virtual server belongs to, when it belongs to
    /// one (the wire's `cloudServerId`; not a [`CloudServerId`]).
    pub cloud_server_id: Option<String>,
    /// The power state.
    pub state: Option<CloudServerState>,
    /// The firewall state.
    pub firewall_state: Option<FirewallState>,
    /// The operating system template, e.g. `UBUNTU_22_04_64BIT`.
    pub template: Option<String>,
    /// The service offering (S, M, L, XL).
    pub service_offering: Option<ServiceOffering>,
    /// The service level agreement's name.
    pub sla: Option<Sla>,
    /// The contract.
    pub contract: Option<CloudContract>,
    /// The hardware.
    pub hardware: Option<CloudHardware>,
    /// The attached ISO image; `None` when none is attached (the wire's `null`).
    pub iso: Option<CloudIso>,
    /// The IP addresses.
    pub ips: Vec<IpAddress>,
    /// The traffic allowance; `None` when the record leaves it out (some do).
    pub network_traffic: Option<CloudNetworkTraffic>,
    /// Fields the model does not name.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

constructor! {
    /// A server known by its id only (set the other fields as needed).
    CloudServer(id: CloudServerId) { reference, customer_id, data_center, cloud_server_id, state, firewall_state, template, service_offering, sla, contract, hardware, iso, ips, network_traffic, extra }
}

/// A private cloud (`/cloud/v2/privateClouds`).
///
/// The docs list the record's fields without describing them; `contract`, `hardware`,
/// `ips` and `network_traffic` have the virtual server's shapes. Every other field the
/// service sends is kept in `extra`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct PrivateCloud {
    /// The private cloud's id.
    pub id: PrivateCloudId,
    /// The customer's id.
    pub customer_id: Option<String>,
    /// The data center code.
    pub data_center: Option<String>,
    /// The service offering (`FLAT_FEE` in the samples).
    pub service_offering: Option<ServiceOffering>,
    /// The service level agreement's name.
    pub sla: Option<Sla>,
    /// The contract.
    pub contract: Option<CloudContract>,
    /// The hardware.
    pub hardware: Option<CloudHardware>,
    /// The IP addresses.
    pub ips: Vec<IpAddress>,
    /// The traffic allowance, when the record gives one.
    pub network_traffic: Option<CloudNetworkTraffic>,
    /// Fields the model does not name.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

constructor! {
    /// A private cloud known by its id only (set the other fields as needed).
    PrivateCloud(id: PrivateCloudId) { customer_id, data_center, service_offering, sla, contract, hardware, ips, network_traffic, extra }
}

/// The contract of a cloud virtual server or private cloud.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct CloudContract {
    /// The contract's id.
    pub id: Option<String>,
    /// When the contract starts (the wire's `YYYY-MM-DDThh:mm:ss+hhmm`).
    pub starts_at: Option<DateTime<FixedOffset>>,
    /// When the contract ends; `None` when it runs on (null or absent).
    pub ends_at: Option<DateTime<FixedOffset>>,
    /// How many `billing_frequency` units one billing cycle lasts.
    pub billing_cycle: Option<u32>,
    /// The unit of `billing_cycle` (MONTH).
    pub billing_frequency: Option<BillingFrequency>,
    /// The price per billing frequency, exact, in the contract's currency (the wire's
    /// `pricePerFrequency`, a number or a decimal string, with `currency`).
    pub price_per_frequency: Option<Money>,
    /// Fields the model does not name (and `currency` when no price came with it).
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

/// The hardware of a cloud virtual server or private cloud.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct CloudHardware {
    /// CPU cores (the wire's `cpu.cores`).
    pub cpu_cores: Option<u32>,
    /// Memory (the wire's `{unit, amount}`).
    pub memory: Option<DataSize>,
    /// Storage (the wire's `{unit, amount}`).
    pub storage: Option<DataSize>,
    /// Fields the model does not name; those of `cpu`, `memory` and `storage` are kept
    /// under `cpu.<name>`, `memory.<name>` and `storage.<name>`.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

/// An ISO image attached to a cloud virtual server.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct CloudIso {
    /// The ISO's id.
    pub id: Option<String>,
    /// The ISO's file name.
    pub name: Option<String>,
    /// The name shown to people.
    pub display_name: Option<String>,
    /// Fields the model does not name.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

/// The traffic allowance of a cloud virtual server or private cloud.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct CloudNetworkTraffic {
    /// What the allowance counts (the wire's `type`; `DATATRAFFIC`).
    pub kind: Option<String>,
    /// The kind of traffic (VOLUME or PREMIUM).
    pub traffic_type: Option<TrafficType>,
    /// The limit, with its unit (`datatrafficLimit` in `datatrafficUnit`).
    pub datatraffic_limit: Option<DataSize>,
    /// Fields the model does not name (and `datatrafficUnit` when no limit came with
    /// it).
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

/// A credential of a cloud virtual server: a user of its operating system or control
/// panel.
///
/// Only the last password the service configured is known: if the customer changed it
/// since, `password` no longer works. Lists carry no password
/// ([`Credentials::list`](crate::Credentials::list)); read one credential
/// ([`Credentials::get`](crate::Credentials::get)) for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct Credential {
    /// Operating system or control panel (the type asked for when the wire leaves it
    /// out).
    pub credential_type: CredentialType,
    /// The user name.
    pub username: Username,
    /// The password, a [`Secret`] (redacted in `Debug` and serialised output unless
    /// exposed); `None` in lists, and when the service sends none.
    pub password: Option<Secret>,
    /// Fields the model does not name.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

constructor! {
    /// A credential without its password, as a list gives one (set the other fields as needed).
    Credential(credential_type: CredentialType, username: Username) { password, extra }
}

crate::read::shapes::has_extra!(CloudServer, PrivateCloud, Credential);
