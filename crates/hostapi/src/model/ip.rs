//! An IP address assigned to a server, in every view the interfaces give of one: a
//! bare metal's or a private rack's IPs, the answer of `PUT /v1/ips/{ip}`, a v1 virtual
//! server's `ipAddresses`, a cloud server's `ips`. One type for all of them; each view
//! fills the fields it has.

use std::net::IpAddr;

use chrono::NaiveDate;
use rust_decimal::Decimal;
#[cfg(feature = "schema")]
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::model::macros::{constructor, open_enum};
use crate::model::{Extra, PrivateRackId};

open_enum! {
    /// What kind of server an IP is assigned to.
    ServerKind {
        /// A bare metal server.
        BareMetal = "Bare Metal" => "bare_metal",
        /// A cloud server.
        Cloud = "Cloud" => "cloud",
        /// A v1 virtual server (not in the docs' examples; seen in answers).
        VirtualServer = "Virtual Server" => "virtual_server",
        /// A private rack (not in the docs' examples; seen in answers).
        PrivateRack = "Private Rack" => "private_rack",
    }
}

open_enum! {
    /// Whether an address is reachable from the internet (the cloud interface's `type`).
    IpVisibility {
        /// Public.
        Public = "PUBLIC" => "public",
        /// Private.
        Private = "PRIVATE" => "private",
    }
}

/// An IP address and its settings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct IpAddress {
    /// The address.
    pub ip: IpAddr,
    /// Public or private, when the view says (cloud servers).
    pub visibility: Option<IpVisibility>,
    /// The reverse DNS name (PTR), when set (the wire's `reverseLookup` or
    /// `reverseDNS`).
    pub reverse_dns: Option<String>,
    /// Whether traffic to it is null-routed; `None` when the view does not say.
    pub null_routed: Option<bool>,
    /// The server it is assigned to, when the view says.
    pub server: Option<AssignedServer>,
    /// The private rack it belongs to, for rack IPs.
    pub private_rack_id: Option<PrivateRackId>,
    /// The gateway, when the view says.
    pub gateway: Option<String>,
    /// The netmask, when the view says (documented `netmask`, sent as `mask`).
    pub netmask: Option<String>,
    /// What it costs, when the view says.
    pub billing: Option<IpBilling>,
    /// Fields the model does not name.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

constructor! {
    /// An address with nothing else known about it (set the other fields as needed).
    IpAddress(ip: IpAddr) {
        visibility, reverse_dns, null_routed, server, private_rack_id, gateway, netmask,
        billing, extra,
    }
}

impl IpAddress {
    /// An address with nothing else known about it.
    pub(crate) fn bare(ip: IpAddr) -> Self {
        Self::new(ip)
    }
}

/// The server an IP is assigned to.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct AssignedServer {
    /// The server's id.
    pub id: Option<String>,
    /// The server's name.
    pub name: Option<String>,
    /// Bare metal, cloud, …
    pub kind: Option<ServerKind>,
}

/// What an IP costs.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct IpBilling {
    /// The monthly price (no currency given).
    #[cfg_attr(feature = "schema", schemars(with = "Option<String>"))]
    #[serde(with = "rust_decimal::serde::str_option")]
    pub monthly_price: Option<Decimal>,
    /// Billing start.
    pub start_date: Option<NaiveDate>,
    /// Billing end; `None` while it runs on.
    pub end_date: Option<NaiveDate>,
    /// Fields the model does not name.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

/// One change to an IP's settings. The API takes one at a time.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum IpUpdate {
    /// Set the reverse DNS name (PTR; the wire's `reverseLookup`).
    ReverseDns(String),
    /// Null-route the IP (`true`) or stop null-routing it (`false`).
    NullRouted(bool),
}

crate::read::shapes::has_extra!(IpAddress);
