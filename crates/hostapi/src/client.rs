//! [`Client`], its builder, and configuration from the environment.
//!
//! [`Client::from_env`] reads the variables named by the `ENV_*` constants here;
//! [`ClientBuilder::retry_policy`] takes a [`RetryPolicy`]. [`Client`] and
//! [`ClientBuilder`] are also at the crate's root. [`Client::raw_request`] sends a
//! [`RawRequest`] to any documented path ([`documented_paths`]).

pub use crate::raw::{
    DocumentedPath, Interface, RAW_OPERATION, RawAnswer, RawRequest, documented_paths,
};
pub use crate::transport::retry::RetryPolicy;

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use reqwest::header::HeaderValue;
use secrecy::{ExposeSecret, SecretString};

use crate::Error;
use crate::config;
use crate::read::ReadMode;
use crate::scrub::Scrubber;
use crate::signing::{CdnSigner, Clock, SystemClock};
use crate::transport::Transport;
use crate::transport::credentials::{Auth, Credentials};

/// The environment variable holding the API key of the v1 and cloud interfaces.
pub const ENV_API_KEY: &str = "HOSTAPI_API_KEY";
/// The environment variable holding the v1 and cloud base URL.
pub const ENV_BASE_URL: &str = "HOSTAPI_BASE_URL";
/// The environment variable holding the CDN customer secret.
pub const ENV_CDN_SECRET: &str = "HOSTAPI_CDN_SECRET";
/// The environment variable holding the CDN customer number.
pub const ENV_CDN_CUSTOMER: &str = "HOSTAPI_CDN_CUSTOMER";
/// The environment variable holding the CDN base URL.
pub const ENV_CDN_BASE_URL: &str = "HOSTAPI_CDN_BASE_URL";
/// The environment variable naming a PEM file of more certificate authorities to trust.
pub const ENV_CA_FILE: &str = "HOSTAPI_CA_FILE";

/// The `User-Agent` every request carries.
pub const USER_AGENT: &str = concat!("hostapi/", env!("CARGO_PKG_VERSION"));

/// The client of all three interfaces: v1 infrastructure, cloud v2 and CDN.
///
/// Cheap to clone (clones share one connection pool). Build one with
/// [`Client::builder`] or [`Client::from_env`], then reach each resource group through
/// its handle: [`Client::virtual_servers`], [`Client::bare_metals`], [`Client::cdn`]…
/// Handles hold a clone of the client, so they (and the streams they make) can be
/// stored, moved into tasks and spawned.
///
/// `Debug` shows the base URLs and whether credentials are set, never the credentials.
#[derive(Clone)]
pub struct Client {
    pub(crate) inner: Arc<ClientInner>,
}

pub(crate) struct ClientInner {
    pub(crate) infra: hostapi_raw_infra::Client,
    pub(crate) cloud: hostapi_raw_cloud::Client,
    pub(crate) cdn: hostapi_raw_cdn::Client,
    /// How every call is made and read.
    pub(crate) transport: Transport,
    /// The CDN customer number, when configured.
    pub(crate) cdn_customer: Option<String>,
    /// Signs CDN paths; also the clock CDN timestamps come from.
    pub(crate) cdn_signer: Option<CdnSigner>,
    /// What v1 and cloud requests get before they are sent (the API key).
    pub(crate) api_credentials: Credentials,
    /// What CDN requests get before they are sent (the signature).
    pub(crate) cdn_credentials: Credentials,
    pub(crate) http: reqwest::Client,
    pub(crate) max_list_records: u64,
    pub(crate) base_url: Option<String>,
    pub(crate) cdn_base_url: Option<String>,
    has_api_key: bool,
}

impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let inner = &self.inner;
        f.debug_struct("Client")
            .field("base_url", &inner.base_url)
            .field("cdn_base_url", &inner.cdn_base_url)
            .field("cdn_customer", &inner.cdn_customer)
            .field(
                "api_key",
                &if inner.has_api_key { "set" } else { "not set" },
            )
            .field(
                "cdn_secret",
                &if inner.cdn_signer.is_some() {
                    "set"
                } else {
                    "not set"
                },
            )
            .finish()
    }
}

/// Builds a [`Client`].
///
/// ```
/// # fn main() -> Result<(), hostapi::Error> {
/// let client = hostapi::Client::builder()
///     .base_url("https://api.example.com")
///     .api_key("my-api-key")
///     .timeout(std::time::Duration::from_secs(20))
///     .build()?;
/// # let _ = client;
/// # Ok(())
/// # }
/// ```
#[derive(Default)]
pub struct ClientBuilder {
    api_key: Option<SecretString>,
    base_url: Option<String>,
    cdn_secret: Option<SecretString>,
    cdn_customer: Option<String>,
    cdn_base_url: Option<String>,
    connect_timeout: Option<Duration>,
    timeout: Option<Duration>,
    retry: Option<RetryPolicy>,
    clock: Option<Arc<dyn Clock>>,
    max_answer_bytes: Option<usize>,
    max_list_records: Option<u64>,
    strict: bool,
    ca_file: Option<std::path::PathBuf>,
}

impl fmt::Debug for ClientBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientBuilder")
            .field("base_url", &self.base_url)
            .field("cdn_base_url", &self.cdn_base_url)
            .field("cdn_customer", &self.cdn_customer)
            .field("api_key", &self.api_key.as_ref().map(|_| "set"))
            .field("cdn_secret", &self.cdn_secret.as_ref().map(|_| "set"))
            .field("connect_timeout", &self.connect_timeout)
            .field("timeout", &self.timeout)
            .field("retry", &self.retry)
            .field("max_answer_bytes", &self.max_answer_bytes)
            .field("max_list_records", &self.max_list_records)
            .field("strict", &self.strict)
            .field("ca_file", &self.ca_file)
            .finish_non_exhaustive()
    }
}

impl ClientBuilder {
    /// The API key of the v1 and cloud interfaces (sent as `X-Svc-Auth`).
    pub fn api_key(mut self, key: impl Into<String>) -> Self {
        self.api_key = Some(SecretString::from(key.into()));
        self
    }

    /// The base URL of the v1 and cloud interfaces (`https://…`; plain `http://` only
    /// for loopback hosts). v1 paths start `/v1`, cloud paths `/cloud/v2`.
    pub fn base_url(mut self, url: impl Into<String>) -> Self {
        self.base_url = Some(url.into());
        self
    }

    /// The CDN customer secret, which signs every CDN call.
    pub fn cdn_secret(mut self, secret: impl Into<String>) -> Self {
        self.cdn_secret = Some(SecretString::from(secret.into()));
        self
    }

    /// The CDN customer number the CDN calls act for.
    pub fn cdn_customer(mut self, customer: impl Into<String>) -> Self {
        self.cdn_customer = Some(customer.into());
        self
    }

    /// The base URL of the CDN interface (`https://…`; plain `http://` only for
    /// loopback hosts).
    pub fn cdn_base_url(mut self, url: impl Into<String>) -> Self {
        self.cdn_base_url = Some(url.into());
        self
    }

    /// How long to wait for a connection (default 10 s).
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = Some(timeout);
        self
    }

    /// How long one attempt may take, from sending to the end of the answer
    /// (default 30 s). The retry policy's deadline bounds all attempts together.
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// How failed attempts are retried (default [`RetryPolicy::default`]).
    pub fn retry_policy(mut self, policy: RetryPolicy) -> Self {
        self.retry = Some(policy);
        self
    }

    /// The clock CDN signatures are computed with (default: the system clock).
    pub fn clock(mut self, clock: impl Clock) -> Self {
        self.clock = Some(Arc::new(clock));
        self
    }

    /// The largest answer the client reads, in bytes (default
    /// [`ClientBuilder::DEFAULT_MAX_ANSWER_BYTES`], 64 MiB: far above the largest real
    /// answer). A larger answer fails with [`Error::AnswerTooLarge`] and its
    /// connection is closed; the rest is never read. Error answers are read up to 64
    /// KiB whatever this says.
    pub fn max_answer_bytes(mut self, bytes: usize) -> Self {
        self.max_answer_bytes = Some(bytes);
        self
    }

    /// The most records a paged list may hold (default
    /// [`ClientBuilder::DEFAULT_MAX_LIST_RECORDS`], one million) before it stops with
    /// [`Error::Paging`], so a server announcing ever more records cannot make a list
    /// run for ever; one list can set its own with
    /// [`List::max_records`](crate::List::max_records). Zero is refused by `build`.
    pub fn max_list_records(mut self, records: u64) -> Self {
        self.max_list_records = Some(records);
        self
    }

    /// The default of [`ClientBuilder::max_list_records`]: one million records.
    pub const DEFAULT_MAX_LIST_RECORDS: u64 = 1_000_000;

    /// Reads answers strictly: a field that cannot be read fails its record (or the
    /// call) instead of reading as `None` with a warning. For tests that want to hear
    /// of every value the wire policy had to forgive (see the crate docs).
    pub fn strict(mut self, strict: bool) -> Self {
        self.strict = strict;
        self
    }

    /// A PEM file of certificate authorities to trust besides the system's, e.g. the
    /// `ca.pem` of a simulator started with `--tls` in docker-compose (`https://sim:8080`).
    /// Read when the client is built; an unreadable file or one without a certificate
    /// fails [`build`](ClientBuilder::build) naming `ca_file`.
    pub fn ca_file(mut self, path: impl Into<std::path::PathBuf>) -> Self {
        self.ca_file = Some(path.into());
        self
    }

    /// The default of [`ClientBuilder::max_answer_bytes`]: 64 MiB.
    pub const DEFAULT_MAX_ANSWER_BYTES: usize = 64 * 1024 * 1024;

    /// Checks the configuration and builds the client. Nothing is sent.
    ///
    /// Fails with [`Error::InvalidInput`] naming the setting when a base URL is not
    /// https (nor loopback), a credential cannot be sent as given, the retry policy
    /// allows no attempt (zero attempts or a zero deadline), or nothing at all is
    /// configured. An interface left unconfigured fails at its first call, before
    /// sending anything, naming what is missing.
    pub fn build(self) -> Result<Client, Error> {
        let base_url = self
            .base_url
            .as_deref()
            .map(|u| config::base_url("base_url", u))
            .transpose()?;
        let cdn_base_url = self
            .cdn_base_url
            .as_deref()
            .map(|u| config::base_url("cdn_base_url", u))
            .transpose()?;
        if let Some(key) = &self.api_key {
            config::credential("api_key", key.expose_secret())?;
        }
        if let Some(secret) = &self.cdn_secret {
            config::credential("cdn_secret", secret.expose_secret())?;
        }
        if let Some(customer) = &self.cdn_customer {
            crate::validate::path_segment("cdn_customer", customer)?;
        }
        if self.api_key.is_none() && self.cdn_secret.is_none() {
            return Err(Error::invalid(
                "api_key",
                format!(
                    "no credentials configured: set an API key ({ENV_API_KEY}) or a CDN secret ({ENV_CDN_SECRET})"
                ),
            ));
        }

        let retry = self.retry.unwrap_or_default();
        retry.check()?;
        let attempt_timeout = self.timeout.unwrap_or(Duration::from_secs(30));
        if attempt_timeout.is_zero() {
            return Err(Error::invalid(
                "timeout",
                "is zero; no attempt could finish",
            ));
        }
        let max_answer_bytes = self
            .max_answer_bytes
            .unwrap_or(ClientBuilder::DEFAULT_MAX_ANSWER_BYTES);
        if max_answer_bytes == 0 {
            return Err(Error::invalid("max_answer_bytes", "is zero"));
        }
        let max_list_records = self
            .max_list_records
            .unwrap_or(ClientBuilder::DEFAULT_MAX_LIST_RECORDS);
        if max_list_records == 0 {
            return Err(Error::invalid("max_list_records", "is zero"));
        }

        // One rustls provider for the process; keep one the application installed.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let mut http = reqwest::Client::builder()
            .user_agent(USER_AGENT)
            .connect_timeout(self.connect_timeout.unwrap_or(Duration::from_secs(10)))
            // No redirect is followed: the credentials of a request would go with it
            // to whatever host `Location` names (plain http included). A 3xx is an
            // error naming that host. And no `Referer`, which would carry a signed
            // CDN URL.
            .redirect(reqwest::redirect::Policy::none())
            .referer(false)
            .pool_idle_timeout(Duration::from_secs(60));
        // Plain http is only accepted for loopback hosts; when every interface is
        // reached that way (the simulator, tests), no TLS trust roots are needed, and
        // not reading the system's (tens of milliseconds) makes a client cheap.
        let plain_only = [&base_url, &cdn_base_url]
            .into_iter()
            .flatten()
            .all(|url| url.starts_with("http://"));
        let extra_roots = match &self.ca_file {
            Some(path) => {
                let shown = path.display();
                let pem = std::fs::read(path)
                    .map_err(|e| Error::invalid("ca_file", format!("cannot read {shown}: {e}")))?;
                reqwest::Certificate::from_pem_bundle(&pem)
                    .ok()
                    .filter(|c| !c.is_empty())
                    .ok_or_else(|| Error::invalid("ca_file", format!("{shown}: no certificate")))?
            }
            None => Vec::new(),
        };
        if plain_only {
            http = http.tls_certs_only(std::iter::empty());
        } else if !extra_roots.is_empty() {
            http = http.tls_certs_merge(extra_roots);
        }
        // Loopback and plain http never through a proxy (see `proxy`).
        let bases: Vec<&str> = [&base_url, &cdn_base_url]
            .into_iter()
            .flatten()
            .map(String::as_str)
            .collect();
        http = crate::proxy::configure(http, &crate::proxy::ProxyEnv::from_env(), &bases);
        let http = http.build().map_err(|e| {
            Error::invalid("client", format!("the HTTP client could not be built: {e}"))
        })?;

        let api_auth = match (&self.api_key, &base_url) {
            (Some(key), Some(_)) => {
                let mut value = HeaderValue::from_str(key.expose_secret())
                    .map_err(|_| Error::invalid("api_key", "cannot be sent in a header"))?;
                value.set_sensitive(true);
                Auth::ApiKey(value)
            }
            (None, _) => Auth::Missing {
                argument: "api_key",
                hint: "not configured (HOSTAPI_API_KEY)",
            },
            (Some(_), None) => Auth::Missing {
                argument: "base_url",
                hint: "not configured (HOSTAPI_BASE_URL)",
            },
        };
        let clock = self.clock.unwrap_or_else(|| Arc::new(SystemClock));
        let cdn_signer = match (&self.cdn_secret, &cdn_base_url) {
            (Some(secret), Some(url)) => Some(CdnSigner::new(secret.clone(), clock, url)),
            _ => None,
        };
        let cdn_auth = match (&cdn_signer, &cdn_base_url) {
            (Some(signer), _) => Auth::Cdn(signer.clone()),
            (None, None) if self.cdn_secret.is_some() => Auth::Missing {
                argument: "cdn_base_url",
                hint: "not configured (HOSTAPI_CDN_BASE_URL)",
            },
            (None, _) => Auth::Missing {
                argument: "cdn_secret",
                hint: "not configured (HOSTAPI_CDN_SECRET)",
            },
        };
        let api_credentials = Credentials::new(api_auth, base_url.as_deref());
        let cdn_credentials = Credentials::new(cdn_auth, cdn_base_url.as_deref());
        let scrub = Scrubber::new(self.api_key.iter().chain(self.cdn_secret.iter()));
        let transport = Transport {
            retry,
            attempt_timeout,
            max_answer_bytes,
            mode: ReadMode {
                strict: self.strict,
            },
            scrub,
        };

        // Unconfigured interfaces get a base URL that cannot be reached; their calls
        // stop at the credentials before anything is sent.
        let unconfigured = "https://unconfigured.invalid";
        let api_base = base_url.as_deref().unwrap_or(unconfigured);
        let cdn_base = cdn_base_url.as_deref().unwrap_or(unconfigured);
        Ok(Client {
            inner: Arc::new(ClientInner {
                infra: hostapi_raw_infra::Client::new_with_client(api_base, http.clone()),
                cloud: hostapi_raw_cloud::Client::new_with_client(api_base, http.clone()),
                cdn: hostapi_raw_cdn::Client::new_with_client(cdn_base, http.clone()),
                transport,
                cdn_customer: self.cdn_customer,
                cdn_signer,
                api_credentials,
                cdn_credentials,
                http,
                max_list_records,
                base_url,
                cdn_base_url,
                has_api_key: self.api_key.is_some(),
            }),
        })
    }
}

impl Client {
    /// Starts building a client.
    pub fn builder() -> ClientBuilder {
        ClientBuilder::default()
    }

    /// Builds a client from the environment: `HOSTAPI_API_KEY`, `HOSTAPI_BASE_URL`,
    /// `HOSTAPI_CDN_SECRET`, `HOSTAPI_CDN_CUSTOMER`, `HOSTAPI_CDN_BASE_URL`,
    /// `HOSTAPI_CA_FILE` ([`ClientBuilder::ca_file`]). Unset and
    /// empty variables count as not configured.
    pub fn from_env() -> Result<Self, Error> {
        Self::builder_from_env().build()
    }

    /// A builder preset from the environment (see [`Client::from_env`]), for adding
    /// settings before building.
    pub fn builder_from_env() -> ClientBuilder {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        let mut builder = Self::builder();
        if let Some(key) = var(ENV_API_KEY) {
            builder = builder.api_key(key);
        }
        if let Some(url) = var(ENV_BASE_URL) {
            builder = builder.base_url(url);
        }
        if let Some(secret) = var(ENV_CDN_SECRET) {
            builder = builder.cdn_secret(secret);
        }
        if let Some(customer) = var(ENV_CDN_CUSTOMER) {
            builder = builder.cdn_customer(customer);
        }
        if let Some(url) = var(ENV_CDN_BASE_URL) {
            builder = builder.cdn_base_url(url);
        }
        if let Some(path) = var(ENV_CA_FILE) {
            builder = builder.ca_file(path);
        }
        builder
    }

    /// The v1 and cloud base URL, when configured.
    pub fn base_url(&self) -> Option<&str> {
        self.inner.base_url.as_deref()
    }

    /// The CDN base URL, when configured.
    pub fn cdn_base_url(&self) -> Option<&str> {
        self.inner.cdn_base_url.as_deref()
    }

    /// `text` with the configured API key and CDN secret (as given and
    /// percent-encoded) and anything shaped like a CDN signature replaced by
    /// [`REDACTED`](crate::REDACTED): what the client does to every message it makes
    /// from an answer, for messages made elsewhere (a configuration file's error in
    /// `hostapi-sync`, whose file may hold the credentials).
    pub fn scrub_secrets(&self, text: &str) -> String {
        self.inner.transport.scrub.scrub(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_never_shows_credentials() {
        let client = Client::builder()
            .base_url("http://127.0.0.1:1")
            .api_key("KEY-that-must-not-leak")
            .cdn_secret("SECRET-that-must-not-leak")
            .cdn_base_url("http://127.0.0.1:2/cdn")
            .cdn_customer("C1")
            .build()
            .unwrap();
        let shown = format!("{client:?} {client:#?}");
        assert!(!shown.contains("must-not-leak"), "{shown}");
        assert!(shown.contains("http://127.0.0.1:1"), "{shown}");
        let builder = Client::builder().api_key("KEY-that-must-not-leak");
        assert!(!format!("{builder:?}").contains("must-not-leak"));
    }

    #[test]
    fn nothing_configured_is_refused() {
        let err = Client::builder().build().unwrap_err();
        assert!(
            matches!(err, Error::InvalidInput { ref argument, .. } if argument == "api_key"),
            "{err}"
        );
        let err = Client::builder()
            .api_key("k")
            .base_url("http://example.com")
            .build()
            .unwrap_err();
        assert!(
            matches!(err, Error::InvalidInput { ref argument, .. } if argument == "base_url"),
            "{err}"
        );
    }
}
