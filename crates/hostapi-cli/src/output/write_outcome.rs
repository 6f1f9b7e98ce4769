//! The record a write that answers no resource prints.

use schemars::JsonSchema;
use serde::Serialize;

/// What a write that answers no resource did (`WriteOutcome` in the JSON Schema):
/// `{"action": "power_cycle", "id": "20001", "status": "requested", "message": …}`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(crate) struct Outcome {
    /// What was done, in snake case (`power_cycle`, `delete_lease`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) action: Option<&'static str>,
    /// The resource's id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) id: Option<String>,
    /// `requested` (accepted; it goes on in the background) or `done`.
    pub(crate) status: &'static str,
    /// The same in words.
    pub(crate) message: String,
}

impl Outcome {
    pub(crate) fn new(status: &'static str, message: impl Into<String>) -> Self {
        Self {
            action: None,
            id: None,
            status,
            message: message.into(),
        }
    }

    /// A write `action` on the resource `id`, with its status and message.
    pub(crate) fn of(
        action: &'static str,
        id: impl std::fmt::Display,
        status: &'static str,
        message: impl Into<String>,
    ) -> Self {
        Self {
            action: Some(action),
            id: Some(id.to_string()),
            status,
            message: message.into(),
        }
    }
}
