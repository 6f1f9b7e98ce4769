//! The seam between the generated raw clients and the `hostapi` facade.
//!
//! Every generated client (`hostapi-raw-infra`, `-cloud`, `-cdn`) carries a [`Hooks`]
//! value and runs each request through it before sending, via progenitor's
//! `ClientHooks` trait: [`CallHooks::prepare`] adds what proves who is calling (the
//! `X-Svc-Auth` header, the CDN signature). The facade supplies the implementation;
//! sending, retrying and reading answers are the facade's own (it calls the generated
//! request once per attempt).
//!
//! Rust's orphan rule is why this crate exists: `ClientHooks` (progenitor's) can only be
//! implemented for a generated `Client` inside the crate that defines it, and that impl
//! needs a trait object type both the raw crates and the facade can name.

use std::fmt;
use std::sync::Arc;

/// What the facade does to every request before it is sent.
pub trait CallHooks: Send + Sync + 'static {
    /// Adjusts the request before it is sent: authentication, signing. An error stops
    /// the call before anything is sent and reaches the caller as progenitor's
    /// `Error::Custom`.
    fn prepare(&self, request: &mut reqwest::Request) -> Result<(), String>;
}

/// The hooks a generated client carries: a shared [`CallHooks`] implementation.
///
/// `Debug` prints nothing of what it holds (the facade's hooks hold credentials).
#[derive(Clone)]
pub struct Hooks(Arc<dyn CallHooks>);

impl Hooks {
    /// Wraps an implementation.
    pub fn new(hooks: impl CallHooks) -> Self {
        Self(Arc::new(hooks))
    }

    /// Hooks that add nothing: the request goes out as generated.
    pub fn none() -> Self {
        Self::new(NoHooks)
    }

    /// Runs [`CallHooks::prepare`]. (The `api-version` header progenitor adds to every
    /// request, which none of our interfaces documents, is taken out of the generated
    /// code by `hostapi-codegen`.)
    pub fn prepare(&self, request: &mut reqwest::Request) -> Result<(), String> {
        self.0.prepare(request)
    }
}

impl Default for Hooks {
    fn default() -> Self {
        Self::none()
    }
}

impl fmt::Debug for Hooks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Hooks { .. }")
    }
}

struct NoHooks;

impl CallHooks for NoHooks {
    fn prepare(&self, _: &mut reqwest::Request) -> Result<(), String> {
        Ok(())
    }
}

/// Implements progenitor's `ClientHooks` for a generated `Client` whose inner type is
/// [`Hooks`]: every request is prepared by the hooks it carries, then sent once.
///
/// ```ignore
/// include!(concat!(env!("OUT_DIR"), "/generated.rs"));
/// hostapi_hooks::impl_client_hooks!(Client);
/// ```
#[macro_export]
macro_rules! impl_client_hooks {
    ($client:ty) => {
        impl $crate::__private::ClientHooks<$crate::Hooks> for $client {
            async fn pre<E>(
                &self,
                request: &mut $crate::__private::reqwest::Request,
                _info: &$crate::__private::OperationInfo,
            ) -> ::std::result::Result<(), $crate::__private::Error<E>> {
                <$client as $crate::__private::ClientInfo<$crate::Hooks>>::inner(self)
                    .prepare(request)
                    .map_err($crate::__private::Error::Custom)
            }
        }
    };
}

/// What [`impl_client_hooks!`] expands to needs; not part of the API.
#[doc(hidden)]
pub mod __private {
    pub use progenitor_client::{ClientHooks, ClientInfo, Error, OperationInfo};
    pub use reqwest;
}
