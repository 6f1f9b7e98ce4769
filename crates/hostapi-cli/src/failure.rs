//! How a failed command ends: one clear line on stderr, a hint that fixes it, and an
//! exit code a script can test (see `exit_codes!` in `cli.rs`).

use hostapi::Error;

/// The API or the network failed.
pub(crate) const API: u8 = 1;
/// A bad flag or argument; nothing was sent.
pub(crate) const USAGE: u8 = 2;
/// Missing or refused credentials.
pub(crate) const AUTH: u8 = 3;
/// The resource does not exist.
pub(crate) const NOT_FOUND: u8 = 4;
/// A wait ended without reaching its goal.
pub(crate) const WAIT: u8 = 5;
/// Interrupted by Ctrl-C.
pub(crate) const INTERRUPTED: u8 = 130;

/// A failed command.
#[derive(Debug)]
pub(crate) struct Failure {
    pub(crate) message: String,
    pub(crate) hint: Option<String>,
    pub(crate) code: u8,
}

impl Failure {
    pub(crate) fn new(code: u8, message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            hint: None,
            code,
        }
    }

    pub(crate) fn usage(message: impl Into<String>) -> Self {
        Self::new(USAGE, message)
    }

    pub(crate) fn hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    pub(crate) fn interrupted() -> Self {
        Self::new(INTERRUPTED, "interrupted")
    }

    pub(crate) fn print(&self) {
        eprintln!("error: {}", self.message);
        if let Some(hint) = &self.hint {
            eprintln!("hint: {hint}");
        }
    }
}

impl From<Error> for Failure {
    fn from(error: Error) -> Self {
        let message = error.to_string();
        let (code, hint) = match &error {
            Error::InvalidInput { argument, .. } => match argument.as_str() {
                "api_key" | "base_url" => (
                    AUTH,
                    "set HOSTAPI_API_KEY and HOSTAPI_BASE_URL, pass --api-key/--base-url, add a profile to ~/.config/hostapi/config.toml, or try --sandbox".to_owned(),
                ),
                "cdn_secret" | "cdn_base_url" | "cdn_customer" => (
                    AUTH,
                    "set HOSTAPI_CDN_SECRET, HOSTAPI_CDN_CUSTOMER and HOSTAPI_CDN_BASE_URL (or the matching flags), or try --sandbox".to_owned(),
                ),
                _ => (USAGE, "check the value and try again; nothing was sent".to_owned()),
            },
            Error::Status { status: 401 | 403, .. } => (
                AUTH,
                "the service refused the credentials: check the API key (or CDN secret and customer number), and the clock for CDN calls".to_owned(),
            ),
            Error::Status { status: 404, .. } => (NOT_FOUND, "check the id; `list` shows what exists".to_owned()),
            Error::Status { status: 429, .. } => (API, "the service is rate limiting: wait a little and retry".to_owned()),
            Error::Status { status, .. } if *status >= 500 => {
                (API, "the service failed; retry later (calls were already retried where safe)".to_owned())
            }
            Error::Status { .. } => (API, "the service rejected the request".to_owned()),
            Error::Transport { .. } | Error::Timeout { .. } => {
                (API, "check the base URL and the network; run with -v to see each call".to_owned())
            }
            Error::Decode { .. } => (API, "the service answered something unexpected; run with -v and report it".to_owned()),
            Error::Api { .. } => (API, "the service reports an error state for this resource".to_owned()),
            Error::WaitTimeout { .. } => (WAIT, "the operation goes on in the background; check again later".to_owned()),
            Error::WaitFailed { .. } => (WAIT, "inspect the resource with `get`".to_owned()),
            _ => (API, "run with -v for details".to_owned()),
        };
        Self {
            message,
            hint: Some(hint),
            code,
        }
    }
}
