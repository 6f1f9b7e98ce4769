//! The seam between the generated raw clients and the `hostapi` facade.
//!
//! Every generated client (`hostapi-raw-infra`, `-cloud`, `-cdn`) carries a [`Hooks`]
//! value and routes each call through it, via progenitor's `ClientHooks` trait:
//! [`CallHooks::prepare`] before sending (the `X-Svc-Auth` header, the CDN signature)
//! and [`CallHooks::execute`] to send (timing, tracing, retries). The facade supplies
//! the implementation, so it never repeats those per call, and the raw crates stay what
//! progenitor makes of the spec plus one line: [`impl_client_hooks!`].
//!
//! Rust's orphan rule is why this crate exists: `ClientHooks` (progenitor's) can only be
//! implemented for a generated `Client` inside the crate that defines it, and that impl
//! needs a trait object type both the raw crates and the facade can name.

use std::fmt;
use std::sync::Arc;

use futures::future::BoxFuture;

/// What the facade does around every generated call.
pub trait CallHooks: Send + Sync + 'static {
    /// Adjusts the request before it is sent: authentication, signing. An error stops
    /// the call and reaches the caller as progenitor's `Error::Custom`.
    fn prepare(
        &self,
        request: &mut reqwest::Request,
        operation: &'static str,
    ) -> Result<(), String> {
        let _ = (request, operation);
        Ok(())
    }

    /// Sends the request. The default sends it once with `client`.
    fn execute<'a>(
        &'a self,
        client: &'a reqwest::Client,
        request: reqwest::Request,
        operation: &'static str,
    ) -> BoxFuture<'a, reqwest::Result<reqwest::Response>> {
        let _ = operation;
        Box::pin(client.execute(request))
    }
}

/// The header progenitor adds to every request. (A constant name is not parsed again
/// on each removal, as a string would be.)
const API_VERSION: reqwest::header::HeaderName =
    reqwest::header::HeaderName::from_static("api-version");

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

    /// Hooks that add nothing: the request goes out as generated, once.
    pub fn none() -> Self {
        Self::new(NoHooks)
    }

    /// Runs [`CallHooks::prepare`], after removing what progenitor adds that none of
    /// our interfaces document (an `api-version` header carrying the spec's version).
    pub fn prepare(
        &self,
        request: &mut reqwest::Request,
        operation: &'static str,
    ) -> Result<(), String> {
        request.headers_mut().remove(API_VERSION);
        self.0.prepare(request, operation)
    }

    /// Runs [`CallHooks::execute`].
    pub fn execute<'a>(
        &'a self,
        client: &'a reqwest::Client,
        request: reqwest::Request,
        operation: &'static str,
    ) -> BoxFuture<'a, reqwest::Result<reqwest::Response>> {
        self.0.execute(client, request, operation)
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

impl CallHooks for NoHooks {}

/// Implements progenitor's `ClientHooks` for a generated `Client` whose inner type is
/// [`Hooks`]: every call is prepared and executed by the hooks it carries.
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
                info: &$crate::__private::OperationInfo,
            ) -> ::std::result::Result<(), $crate::__private::Error<E>> {
                <$client as $crate::__private::ClientInfo<$crate::Hooks>>::inner(self)
                    .prepare(request, info.operation_id)
                    .map_err($crate::__private::Error::Custom)
            }

            async fn exec(
                &self,
                request: $crate::__private::reqwest::Request,
                info: &$crate::__private::OperationInfo,
            ) -> $crate::__private::reqwest::Result<$crate::__private::reqwest::Response> {
                let hooks = <$client as $crate::__private::ClientInfo<$crate::Hooks>>::inner(self);
                let client =
                    <$client as $crate::__private::ClientInfo<$crate::Hooks>>::client(self);
                hooks.execute(client, request, info.operation_id).await
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
