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
/// A write whose answer was lost: the change may have been applied.
pub(crate) const OUTCOME_UNKNOWN: u8 = 6;
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

/// The operations of the CDN interface, whose 403 means a refused signature.
const CDN_OPERATIONS: &[&str] = &[
    "purgeZoneContent",
    "getPurgeJob",
    "getCustomer",
    "getSubCustomer",
    "upsertSubCustomer",
    "getAcl",
    "replaceAcl",
    "deleteAcl",
    "listOrigins",
    "getOrigin",
    "createOrigin",
    "updateOrigin",
];

impl From<Error> for Failure {
    fn from(error: Error) -> Self {
        let message = error.to_string();
        let (code, hint) = match &error {
            Error::InvalidInput { argument, .. } => match argument.as_str() {
                "api_key" | "base_url" => (
                    AUTH,
                    "set HOSTAPI_API_KEY and HOSTAPI_BASE_URL, pass --api-key/--base-url, add a profile to ~/.config/hostapi/config.toml, or try --sandbox",
                ),
                "cdn_secret" | "cdn_base_url" | "cdn_customer" => (
                    AUTH,
                    "set HOSTAPI_CDN_SECRET, HOSTAPI_CDN_CUSTOMER and HOSTAPI_CDN_BASE_URL (or the matching flags), or try --sandbox",
                ),
                _ => (USAGE, "check the value and try again; nothing was sent"),
            },
            Error::Status(status) => status_outcome(status.status, status.call.operation),
            Error::OutcomeUnknown(_) => (
                OUTCOME_UNKNOWN,
                "the change may have been applied: check (e.g. with `get` or `list`) before repeating the command",
            ),
            Error::Transport(_) => (
                API,
                "check the base URL and the network; run with -v to see each call",
            ),
            Error::Redirect(_) => (
                API,
                "the server sends this request elsewhere, which is not followed: check the base URL",
            ),
            Error::AnswerTooLarge(_) | Error::Decode(_) | Error::Paging(_) => (
                API,
                "the service answered something unexpected; run with -v and report it",
            ),
            Error::Api(_) => (API, "the service reports an error state for this resource"),
            Error::WaitTimeout(_) => (
                WAIT,
                "the operation goes on in the background; check again later",
            ),
            Error::WaitFailed(_) => (WAIT, "inspect the resource with `get`"),
            _ => (API, "run with -v for details"),
        };
        Self {
            message,
            hint: Some(hint.to_owned()),
            code,
        }
    }
}

/// The exit code and hint of an error status of the operation `operation`.
fn status_outcome(status: u16, operation: &str) -> (u8, &'static str) {
    match status {
        401 => (
            AUTH,
            "the service refused the credentials: check the API key (HOSTAPI_API_KEY, --api-key or the profile; `hostapi config show` tells which is used)",
        ),
        403 if CDN_OPERATIONS.contains(&operation) => (
            AUTH,
            "the CDN refused the signed call: check the CDN secret and customer number (`hostapi config show`), and this machine's clock (signatures hold for 5 minutes)",
        ),
        403 => (
            AUTH,
            "the service refuses this request for this account or resource (its message says why); if it should be allowed, check the API key",
        ),
        409 => (
            API,
            "the resource is busy or already so (e.g. an installation runs): wait for it, then retry",
        ),
        400 | 422 => (
            API,
            "the service rejected a value; its message names the field",
        ),
        404 => (NOT_FOUND, "check the id; `list` shows what exists"),
        429 => (API, "the service is rate limiting: wait a little and retry"),
        500.. => (
            API,
            "the service failed; retry later (calls were already retried where safe)",
        ),
        _ => (API, "the service rejected the request"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_map_to_codes_and_hints_that_fit() {
        let (code, hint) = status_outcome(401, "listVirtualServers");
        assert_eq!(code, AUTH);
        assert!(hint.contains("API key"));
        let (code, hint) = status_outcome(403, "getAcl");
        assert_eq!(code, AUTH);
        assert!(hint.contains("clock"));
        let (code, hint) = status_outcome(403, "updateDomainTtl");
        assert_eq!(code, AUTH);
        assert!(hint.contains("its message says why"));
        assert_eq!(status_outcome(404, "getBareMetal").0, NOT_FOUND);
        let (code, hint) = status_outcome(409, "installBareMetal");
        assert_eq!(code, API);
        assert!(hint.contains("wait for it"));
        assert_eq!(status_outcome(503, "getBareMetal").0, API);
        let usage = Failure::from(Error::InvalidInput {
            argument: "ttl".into(),
            reason: "too small".into(),
        });
        assert_eq!(usage.code, USAGE);
        assert!(usage.hint.unwrap().contains("nothing was sent"));
        let settings = Failure::from(Error::InvalidInput {
            argument: "cdn_secret".into(),
            reason: "missing".into(),
        });
        assert_eq!(settings.code, AUTH);
    }
}
