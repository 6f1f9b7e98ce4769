//! The read-only catalogues as the facade presents them.

#[cfg(feature = "schema")]
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::model::macros::constructor;
use crate::model::{ControlPanelId, Extra, OperatingSystemId, RescueImageId};

/// A rescue image, to boot a bare metal server into rescue mode.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct RescueImage {
    /// The image's id (the `osId` of a rescue mode launch).
    pub id: RescueImageId,
    /// The image's name.
    pub name: Option<String>,
    /// Fields the model does not name.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

constructor! {
    /// An entry known by its id only (set the other fields as needed).
    RescueImage(id: RescueImageId) { name, extra }
}

/// An operating system that can be installed on a bare metal server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct OperatingSystem {
    /// The operating system's id (the `osId` of an installation).
    pub id: OperatingSystemId,
    /// Its name.
    pub name: Option<String>,
    /// Fields the model does not name.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

constructor! {
    /// An entry known by its id only (set the other fields as needed).
    OperatingSystem(id: OperatingSystemId) { name, extra }
}

/// A control panel available for an operating system.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct ControlPanel {
    /// The control panel's id.
    pub id: ControlPanelId,
    /// Its name.
    pub name: Option<String>,
    /// Fields the model does not name.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

constructor! {
    /// An entry known by its id only (set the other fields as needed).
    ControlPanel(id: ControlPanelId) { name, extra }
}

/// The partitioning the service suggests for an operating system on a given bare
/// metal server, with the disks and filesystem types to choose from.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct PartitionSchema {
    /// The wire's `limit`, as sent. The API does not say what it limits (presumably
    /// the number of partitions).
    pub limit: Option<i64>,
    /// The server's disks, as device paths (`/dev/sda`).
    pub disks: Vec<String>,
    /// The suggested partitioning.
    pub suggestion: Option<PartitionSuggestion>,
    /// The filesystem types that can be chosen (swap included).
    pub filesystem_types: Vec<String>,
    /// Fields the model does not name (also the leftovers of the nested `disks` and
    /// `filesystemTypes` objects, as `disks.<key>` and `filesystemTypes.<key>`).
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

/// A suggested partitioning of one disk.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct PartitionSuggestion {
    /// The disk, as a device path.
    pub disk: Option<String>,
    /// The index of the bootable partition.
    pub bootable: Option<u32>,
    /// The partitions, in the order the service gives them.
    pub partitions: Vec<Partition>,
    /// Fields the model does not name (also the leftovers of the nested `hdd` object,
    /// as `hdd.<key>`).
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

/// One partition of a suggestion.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct Partition {
    /// The partition's index (from 0).
    pub index: u32,
    /// Its size; `None` when the service gives none that can be read.
    pub size: Option<PartitionSize>,
    /// The filesystem type (`ext4`, `swap`, …), as the service names it.
    pub filesystem: Option<String>,
    /// Where it is mounted; `None` for swap (the wire's empty mountpoint).
    pub mountpoint: Option<String>,
    /// Fields the model does not name.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

/// The size of a partition: a number of megabytes, or whatever is left of the disk
/// (the wire's `*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum PartitionSize {
    /// A fixed size in megabytes (the unit the API states).
    Megabytes(u64),
    /// The rest of the disk.
    Remainder,
}

impl PartitionSize {
    /// The size in megabytes, for a fixed size.
    pub fn megabytes(&self) -> Option<u64> {
        match self {
            Self::Megabytes(mb) => Some(*mb),
            Self::Remainder => None,
        }
    }

    /// Whether the partition takes the rest of the disk.
    pub fn is_remainder(&self) -> bool {
        matches!(self, Self::Remainder)
    }
}

/// The answer of `/v1/services`.
///
/// The API does not document this record's fields, so the facade does not interpret
/// it: it is the JSON the service sent, as sent, behind a type of its own. Read it with
/// [`as_json`](Self::as_json) or [`into_json`](Self::into_json).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(transparent)]
pub struct ServiceList(serde_json::Value);

impl ServiceList {
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

crate::read::shapes::has_extra!(RescueImage, OperatingSystem, ControlPanel);
