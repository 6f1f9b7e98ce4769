//! Private networks as the facade presents them.

use std::net::IpAddr;

use chrono::{DateTime, FixedOffset};
#[cfg(feature = "schema")]
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::model::macros::{constructor, open_enum};
use crate::model::{BareMetalId, BitRate, Extra, PrivateNetworkId};

/// A private network between bare metal servers.
///
/// One shape for both views: the list gives the counts and timestamps and no members
/// (`members` is `None`), the single view gives the members and no counts or
/// timestamps.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct PrivateNetwork {
    /// The network's id.
    pub id: PrivateNetworkId,
    /// The network's name.
    pub name: Option<String>,
    /// How many servers are members (list view).
    pub server_count: Option<u64>,
    /// The customer number (list view).
    pub customer_number: Option<String>,
    /// When the network was created (list view).
    pub created_at: Option<DateTime<FixedOffset>>,
    /// When the network last changed (list view).
    pub updated_at: Option<DateTime<FixedOffset>>,
    /// The member servers (single view); `None` in the list view, which does not
    /// give them.
    pub members: Option<Vec<PrivateNetworkMember>>,
    /// Fields the model does not name.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

constructor! {
    /// A network known by its id only (set the other fields as needed).
    PrivateNetwork(id: PrivateNetworkId) { name, server_count, customer_number, created_at, updated_at, members, extra }
}

impl PrivateNetwork {
    /// The member with this bare metal id, when the view lists members and it is one.
    pub fn member(&self, server: &BareMetalId) -> Option<&PrivateNetworkMember> {
        self.members
            .as_deref()?
            .iter()
            .find(|m| &m.bare_metal_id == server)
    }
}

open_enum! {
    /// Where a server is in joining or leaving a private network.
    NetworkMemberStatus {
        /// Being added (about a minute).
        Configuring = "CONFIGURING" => "configuring",
        /// A member.
        Configured = "CONFIGURED" => "configured",
        /// Being removed (about a minute); the member then disappears.
        Removing = "REMOVING" => "removing",
    }
}

/// A bare metal server in a private network.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct PrivateNetworkMember {
    /// The server's id (an integer or a string on the wire).
    pub bare_metal_id: BareMetalId,
    /// Where it is in joining or leaving the network.
    pub status: Option<NetworkMemberStatus>,
    /// The data centre.
    pub data_center: Option<String>,
    /// The server's address in the network, in CIDR notation (`10.29.0.2/22`), as
    /// sent.
    pub cidr: Option<String>,
    /// The network's broadcast address.
    pub broadcast: Option<IpAddr>,
    /// The gateway.
    pub gateway: Option<IpAddr>,
    /// The netmask.
    pub netmask: Option<IpAddr>,
    /// The speed of the server's port in the network. The API gives it as a string
    /// without stating a unit; a bare number is read as Mbps (`"1000"` is 1000 Mbps),
    /// a number with a unit (`"1 Gbps"`) as stated.
    pub port_speed: Option<BitRate>,
    /// Fields the model does not name.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

/// The answer of creating a private network.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct CreatedPrivateNetwork {
    /// The new network's id.
    pub id: PrivateNetworkId,
    /// What the service said.
    pub message: Option<String>,
    /// Fields the model does not name.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

/// What the service answers when it deletes a private network.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct DeletedPrivateNetwork {
    /// The service's message, when it sends one.
    pub message: Option<String>,
    /// Fields the model does not name.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

crate::read::shapes::has_extra!(PrivateNetwork, PrivateNetworkMember, CreatedPrivateNetwork);
