//! Asynchronous jobs: what power and reinstall calls answer.

use chrono::{DateTime, FixedOffset};
#[cfg(feature = "schema")]
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::common::Extra;
use super::macros::{constructor, id_type, open_enum};

id_type! {
    /// The id of an asynchronous job.
    JobId
}

open_enum! {
    /// Where a job is.
    JobStatus {
        /// Accepted, not finished.
        Pending = "PENDING" => "pending",
        /// Finished.
        Completed = "COMPLETED" => "completed",
    }
}

/// An asynchronous job started by a power or reinstall call.
///
/// The v1 interface answers only the job's id; the cloud interface also gives its
/// name, status and creation time. Neither offers a job endpoint: to wait for the
/// outcome, watch the server's state (see the waiters on each resource).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct Job {
    /// The job id.
    pub id: JobId,
    /// The job's name, e.g. `virtualServers.powerOn` (cloud only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The job's status (cloud only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<JobStatus>,
    /// When the job was created (cloud only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<DateTime<FixedOffset>>,
    /// Fields the model does not name.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

constructor! {
    /// A job known by its id only (set the other fields as needed).
    Job(id: JobId) { name, status, created_at, extra }
}
