//! Settling writes whose outcome is unknown.
//!
//! A write that fails with [`Error::OutcomeUnknown`](crate::Error::OutcomeUnknown) may
//! have been applied. Where one read can tell, the resource group offers a `confirm_*`
//! method that reads the resource back and answers what happened: the CLI calls it
//! after an ambiguous failure and reports the truth instead of "unknown".

/// What a read-back found about a write whose outcome was unknown.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Confirmation<T> {
    /// The change is there: the resource as it now is.
    Applied(T),
    /// The change is not there.
    NotApplied,
}

impl<T> Confirmation<T> {
    /// Whether the change is there.
    pub fn is_applied(&self) -> bool {
        matches!(self, Self::Applied(_))
    }

    /// The resource, when the change is there.
    pub fn applied(self) -> Option<T> {
        match self {
            Self::Applied(value) => Some(value),
            Self::NotApplied => None,
        }
    }
}
