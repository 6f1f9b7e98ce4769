//! What every request gets before it is sent: the credentials of its interface, and a
//! note of what was sent (method and path) for the call's record.

use std::cell::RefCell;

use futures::FutureExt;
use hostapi_hooks::CallHooks;
use reqwest::header::{HeaderName, HeaderValue};

use crate::signing::CdnSigner;

/// How a request proves who is calling.
#[derive(Debug)]
pub(crate) enum Auth {
    /// v1 and cloud: the `X-Svc-Auth` header (the value is marked sensitive, so the
    /// HTTP stack never prints it either).
    ApiKey(HeaderValue),
    /// CDN: a signed path.
    Cdn(CdnSigner),
    /// Not configured: the call stops before sending, naming the setting.
    Missing {
        /// The setting, e.g. `api_key`.
        argument: &'static str,
        /// How to provide it.
        hint: &'static str,
    },
}

/// The facade's [`CallHooks`].
#[derive(Debug)]
pub(crate) struct FacadeHooks {
    pub(crate) auth: Auth,
}

const X_SVC_AUTH: HeaderName = HeaderName::from_static("x-svc-auth");

/// Separates the setting from the reason in an error raised by `prepare` (which can
/// only pass a string through the generated code).
pub(crate) const PREPARE_ERROR_SEPARATOR: &str = ": ";

impl CallHooks for FacadeHooks {
    fn prepare(&self, request: &mut reqwest::Request) -> Result<(), String> {
        // Every answer the facade reads is JSON but the graphs, which ask for PNG
        // themselves; the usage views answer JSON or PNG by `Accept` (quirk 9), so a
        // request that accepts anything asks for JSON.
        let accept = request.headers().get(reqwest::header::ACCEPT);
        if accept.is_none_or(|value| value == "*/*") {
            request.headers_mut().insert(
                reqwest::header::ACCEPT,
                HeaderValue::from_static("application/json"),
            );
        }
        let mut path = request.url().path().to_owned();
        match &self.auth {
            Auth::ApiKey(value) => {
                request.headers_mut().insert(X_SVC_AUTH, value.clone());
            }
            Auth::Cdn(signer) => {
                // The record keeps the resource path: the timestamp and signature
                // segments are not part of it (and the signature is a credential).
                let cut = path.rsplitn(3, '/').nth(2).map_or(0, str::len);
                path.truncate(cut);
                signer.sign(request.url_mut())?;
            }
            Auth::Missing { argument, hint } => {
                return Err(format!("{argument}{PREPARE_ERROR_SEPARATOR}{hint}"));
            }
        }
        Sent::record(request.method(), path);
        Ok(())
    }
}

/// What the last attempt of the call in progress sent: filled in by the hooks, which
/// see the request the generated code built, and read by the transport, which does
/// not. The attempt owns its record (a task-local value, taken back when the attempt
/// ends), so no lock guards it.
#[derive(Debug, Default)]
pub(crate) struct Sent {
    /// The method (`GET`), or empty before a request was built.
    pub(crate) method: &'static str,
    pub(crate) path: String,
}

/// The name of a method the generated clients use (they use no other than these).
fn method_name(method: &reqwest::Method) -> &'static str {
    use reqwest::Method;
    match *method {
        Method::GET => "GET",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::DELETE => "DELETE",
        Method::PATCH => "PATCH",
        Method::HEAD => "HEAD",
        Method::OPTIONS => "OPTIONS",
        _ => "OTHER",
    }
}

tokio::task_local! {
    static SENT: RefCell<Sent>;
}

impl Sent {
    fn record(method: &reqwest::Method, path: String) {
        let _ = SENT.try_with(|slot| {
            *slot.borrow_mut() = Sent {
                method: method_name(method),
                path,
            };
        });
    }

    /// Runs `attempt` with a fresh record, then returns its outcome and what it sent.
    ///
    /// Built from combinators rather than as an `async fn` or block: those keep the
    /// future they are given beside the one they await, doubling the size of the
    /// call's future (which every layer above moves, whole, as it starts).
    pub(crate) fn scope<F: Future>(attempt: F) -> impl Future<Output = (F::Output, Sent)> {
        // The record is taken while the attempt's scope is still entered (so it is
        // there; `try_with` only keeps this from ever panicking).
        let attempt = attempt.map(|output| {
            let sent = SENT.try_with(RefCell::take).unwrap_or_default();
            (output, sent)
        });
        SENT.scope(RefCell::default(), attempt)
    }
}
