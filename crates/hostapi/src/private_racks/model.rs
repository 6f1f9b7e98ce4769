//! Private racks as the facade presents them.

#[cfg(feature = "schema")]
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::model::macros::constructor;
use crate::model::{Extra, HostingContract, PrivateRackId, Sla};

/// A private rack.
///
/// One shape for both views: the list gives only the id (a string there), so a rack
/// from [`PrivateRacks::list`](crate::PrivateRacks::list) has `name`, `location`,
/// `contract` and `sla` empty; [`PrivateRacks::get`](crate::PrivateRacks::get) fills
/// them (the id is an integer there; both become a [`PrivateRackId`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct PrivateRack {
    /// The rack's id.
    pub id: PrivateRackId,
    /// The rack's name.
    pub name: Option<String>,
    /// Where the rack stands.
    pub location: Option<RackLocation>,
    /// The hosting contract (the wire's `serverHostingPack`).
    pub contract: Option<HostingContract>,
    /// The service level agreement.
    pub sla: Option<Sla>,
    /// Fields the model does not name.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

constructor! {
    /// A rack known by its id only, as the list gives one (set the other fields as needed).
    PrivateRack(id: PrivateRackId) { name, location, contract, sla, extra }
}

/// Where a private rack stands.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct RackLocation {
    /// The site (data centre).
    pub site: Option<String>,
    /// The suite.
    pub suite: Option<String>,
    /// The cabinet.
    pub cabinet: Option<String>,
    /// Fields the model does not name.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

crate::read::shapes::has_extra!(PrivateRack);

/// The network usage of a private rack over an interval.
///
/// The API does not document the fields of this record, so the facade does not
/// interpret it: it is the JSON the service sent, as sent, behind a type of its own.
/// Read it with [`as_json`](Self::as_json) or [`into_json`](Self::into_json).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(transparent)]
pub struct RackNetworkUsage(serde_json::Value);

impl RackNetworkUsage {
    pub(crate) fn new(value: serde_json::Value) -> Self {
        Self(value)
    }

    /// The record as the service sent it.
    pub fn as_json(&self) -> &serde_json::Value {
        &self.0
    }

    /// The record as the service sent it, owned.
    pub fn into_json(self) -> serde_json::Value {
        self.0
    }
}
