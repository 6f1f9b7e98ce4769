//! The v1 virtual server as the facade presents it.

use chrono::{NaiveDate, NaiveDateTime};
#[cfg(feature = "schema")]
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::model::macros::{constructor, id_type, open_enum};
use crate::model::{ContractTerm, DataSize, Extra, IpAddress, MacAddress, Sla};

id_type! {
    /// The id of a v1 virtual server (an integer on the wire).
    VirtualServerId
}

open_enum! {
    /// The power state of a v1 virtual server.
    VirtualServerState {
        /// Running.
        Running = "Running" => "running",
        /// Stopped.
        Stopped = "Stopped" => "stopped",
    }
}

/// A virtual server of the v1 interface.
///
/// Its nested parts (platform, agreement, contract) are boxed: a list holds every
/// record at once, and a record without them then takes 304 bytes rather than 576.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct VirtualServer {
    /// The server's id.
    pub id: VirtualServerId,
    /// The server's name.
    pub name: Option<String>,
    /// The customer's own reference.
    pub reference: Option<String>,
    /// The power state.
    pub state: Option<VirtualServerState>,
    /// The template it was installed from.
    pub template: Option<String>,
    /// The platform it runs on, where the record says.
    pub platform: Option<Box<Platform>>,
    /// The attached ISO's name, if one is attached.
    pub attached_iso: Option<String>,
    /// The MAC address.
    pub mac_address: Option<MacAddress>,
    /// The service level agreement's name.
    pub sla: Option<Box<Sla>>,
    /// The data traffic pack's name.
    pub data_traffic_pack: Option<String>,
    /// The data traffic limit.
    pub data_traffic_limit: Option<DataSize>,
    /// The IP addresses, whichever of its two shapes the wire used.
    pub ips: Vec<IpAddress>,
    /// Contract and billing details.
    pub administrative: Option<Box<AdministrativeInfo>>,
    /// Fields the model does not name.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

constructor! {
    /// A server known by its id only (set the other fields as needed).
    VirtualServer(id: VirtualServerId) { name, reference, state, template, platform, attached_iso, mac_address, sla, data_traffic_pack, data_traffic_limit, ips, administrative, extra }
}

/// The platform a virtual server runs on (the wire's `type`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct Platform {
    /// The platform's id (sent as `id` or `Id`).
    pub id: Option<String>,
    /// The platform's name.
    pub name: Option<String>,
    /// Fields the model does not name.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

/// Contract and billing details of a v1 virtual server.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct AdministrativeInfo {
    /// The customer number.
    pub customer_number: Option<String>,
    /// When the server was created (local time of the service; the wire gives no offset).
    pub created_at: Option<NaiveDateTime>,
    /// Contract start.
    pub start_date: Option<NaiveDate>,
    /// Contract end; `None` while the contract runs on.
    pub end_date: Option<NaiveDate>,
    /// How often it is billed, as the service words it.
    pub billing_frequency: Option<String>,
    /// The contract term.
    pub contract_term: Option<ContractTerm>,
    /// The order number.
    pub order_number: Option<String>,
    /// Fields the model does not name.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

crate::read::shapes::has_extra!(VirtualServer);

#[cfg(test)]
mod tests {
    use super::VirtualServer;

    /// A list holds every record at once: 200,000 servers at this size take 61 MB.
    #[test]
    fn a_server_stays_small() {
        assert!(
            std::mem::size_of::<VirtualServer>() <= 304,
            "{} bytes",
            std::mem::size_of::<VirtualServer>()
        );
    }
}
