//! What every request gets before it is sent: the credentials of its interface, and a
//! note of what was sent (method and path) for the call's record.

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

/// What the requests of one interface get before they are sent.
#[derive(Debug)]
pub(crate) struct FacadeHooks {
    pub(crate) auth: Auth,
}

const X_SVC_AUTH: HeaderName = HeaderName::from_static("x-svc-auth");

/// Separates the setting from the reason in an error raised by `prepare`.
pub(crate) const PREPARE_ERROR_SEPARATOR: &str = ": ";

impl FacadeHooks {
    /// Adds what proves who is calling (and `Accept`), and returns what is sent, for
    /// the call's record. An error stops the call before anything is sent: the missing
    /// setting, then [`PREPARE_ERROR_SEPARATOR`], then how to provide it.
    pub(crate) fn prepare(&self, request: &mut reqwest::Request) -> Result<Sent, String> {
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
        Ok(Sent {
            method: method_name(request.method()),
            path,
        })
    }
}

/// What an attempt sent, for the call's record.
#[derive(Debug, Default)]
pub(crate) struct Sent {
    /// The method (`GET`), or empty when no request was built.
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
