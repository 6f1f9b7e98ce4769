//! What every request gets before it is sent: the credentials of its interface, and a
//! note of what was sent (method and path) for the call's record. A request is only
//! given an interface's credentials when it goes to that interface's host.

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

/// The credentials of one interface and the host they may go to: what the interface's
/// requests get before they are sent.
#[derive(Debug)]
pub(crate) struct Credentials {
    auth: Auth,
    /// Where the interface's requests go (none when its base URL is not configured).
    destination: Option<Destination>,
}

/// The scheme, host and port of an interface's base URL. (Compared field by field:
/// `Url::origin` would allocate on every request.)
#[derive(Debug)]
struct Destination {
    scheme: String,
    host: String,
    port: Option<u16>,
}

impl Destination {
    fn of(url: &reqwest::Url) -> Option<Self> {
        Some(Self {
            scheme: url.scheme().to_owned(),
            host: url.host_str()?.to_owned(),
            port: url.port_or_known_default(),
        })
    }

    fn is_of(&self, url: &reqwest::Url) -> bool {
        url.scheme() == self.scheme
            && url.host_str() == Some(self.host.as_str())
            && url.port_or_known_default() == self.port
    }
}

const X_SVC_AUTH: HeaderName = HeaderName::from_static("x-svc-auth");

/// Separates the setting from the reason in an error raised by `prepare`.
pub(crate) const PREPARE_ERROR_SEPARATOR: &str = ": ";

impl Credentials {
    /// The credentials of an interface whose requests go to `base_url` (`None` when it is not
    /// configured; then `auth` says what is missing).
    pub(crate) fn new(auth: Auth, base_url: Option<&str>) -> Self {
        let destination = base_url
            .and_then(|url| reqwest::Url::parse(url).ok())
            .and_then(|url| Destination::of(&url));
        Self { auth, destination }
    }

    /// Adds what proves who is calling (and `Accept`), and returns what is sent, for
    /// the call's record. An error stops the call before anything is sent: the missing
    /// setting (or `request`), then [`PREPARE_ERROR_SEPARATOR`], then why.
    ///
    /// A request that does not go to this interface's host is refused: its credentials
    /// (the API key, a CDN signature) are never sent elsewhere, whichever client built
    /// the request.
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
                self.goes_here(request.url())?;
                request.headers_mut().insert(X_SVC_AUTH, value.clone());
            }
            Auth::Cdn(signer) => {
                self.goes_here(request.url())?;
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

    /// Refuses a request that does not go to this interface's host.
    fn goes_here(&self, url: &reqwest::Url) -> Result<(), String> {
        if self
            .destination
            .as_ref()
            .is_some_and(|destination| destination.is_of(url))
        {
            return Ok(());
        }
        Err(format!(
            "request{PREPARE_ERROR_SEPARATOR}goes to `{}`, not to the interface whose \
             credentials it would carry",
            url.host_str().unwrap_or("no host")
        ))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn api_credentials(base_url: &str) -> Credentials {
        Credentials::new(
            Auth::ApiKey(HeaderValue::from_static("the-key")),
            Some(base_url),
        )
    }

    fn get(url: &str) -> reqwest::Request {
        reqwest::Request::new(reqwest::Method::GET, url.parse().expect("a URL"))
    }

    #[test]
    fn credentials_go_only_to_the_interfaces_host() {
        let credentials = api_credentials("http://127.0.0.1:8080");
        let mut request = get("http://127.0.0.1:8080/v1/virtualServers");
        let sent = credentials.prepare(&mut request).expect("its own host");
        assert_eq!(sent.path, "/v1/virtualServers");
        assert!(request.headers().contains_key(X_SVC_AUTH));

        for elsewhere in [
            "http://127.0.0.2:8080/v1/virtualServers",
            "http://127.0.0.1:8081/v1/virtualServers",
            "https://127.0.0.1:8080/v1/virtualServers",
            "http://localhost:8080/v1/virtualServers",
        ] {
            let mut request = get(elsewhere);
            let refused = credentials.prepare(&mut request).expect_err(elsewhere);
            assert!(
                refused.starts_with(&format!("request{PREPARE_ERROR_SEPARATOR}goes to `")),
                "{refused}"
            );
            assert!(!refused.contains("the-key"), "{refused}");
            assert!(!request.headers().contains_key(X_SVC_AUTH), "{elsewhere}");
        }
    }

    #[test]
    fn a_default_port_is_the_same_port_written_out() {
        let credentials = api_credentials("https://api.example.com");
        let mut request = get("https://api.example.com:443/v1/domains");
        assert!(credentials.prepare(&mut request).is_ok());
    }

    #[test]
    fn an_unconfigured_interface_names_its_missing_setting() {
        let credentials = Credentials::new(
            Auth::Missing {
                argument: "api_key",
                hint: "not configured",
            },
            None,
        );
        let refused = credentials
            .prepare(&mut get("https://unconfigured.invalid/v1/domains"))
            .expect_err("not configured");
        assert_eq!(
            refused,
            format!("api_key{PREPARE_ERROR_SEPARATOR}not configured")
        );
    }
}
