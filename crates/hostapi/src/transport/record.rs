//! What one facade call learns from its hooks.
//!
//! The generated client hides the HTTP exchange behind typed results, and loses the
//! status when an error body is not JSON. The facade runs each call inside a task-local
//! [`CallRecord`]; the hooks, which see every request and answer, fill it in.

use std::sync::{Arc, Mutex, MutexGuard};

use bytes::Bytes;

/// Per-call options the caller chose.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct CallOptions {
    /// Retry this call even though it is not idempotent.
    pub(crate) retry_unsafe: bool,
    /// The facade decodes the success body itself (see [`super::call::body`]): the
    /// generated code is handed an empty one; the record keeps the real one.
    pub(crate) body_for_facade: bool,
}

/// What the hooks saw of one call.
#[derive(Debug, Default)]
pub(crate) struct CallRecord {
    pub(crate) options: CallOptions,
    /// The method and the resource path (without the CDN's signature segments).
    pub(crate) method: Option<reqwest::Method>,
    pub(crate) path: Option<String>,
    /// The status of the last answer.
    pub(crate) status: Option<u16>,
    /// The body of the last answer, as received.
    pub(crate) body: Option<Bytes>,
    /// Whether the body of the last answer was longer than what was kept.
    pub(crate) body_truncated: bool,
    /// How many attempts were made.
    pub(crate) attempts: u32,
}

/// A shared handle on the record of the call in progress.
#[derive(Debug, Clone, Default)]
pub(crate) struct Recorder(Arc<Mutex<CallRecord>>);

impl Recorder {
    pub(crate) fn new(options: CallOptions) -> Self {
        Self(Arc::new(Mutex::new(CallRecord {
            options,
            ..CallRecord::default()
        })))
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, CallRecord> {
        // A panic while holding this lock leaves plain data behind; keep using it.
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The record of the call this task is running, if it runs inside one.
    pub(crate) fn current() -> Option<Self> {
        CURRENT.try_with(Clone::clone).ok()
    }

    /// Runs `future` with this record as the current one.
    pub(crate) async fn scope<F: Future>(self, future: F) -> F::Output {
        CURRENT.scope(self, future).await
    }
}

tokio::task_local! {
    static CURRENT: Recorder;
}
