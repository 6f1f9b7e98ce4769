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
                    "set HOSTAPI_API_KEY and HOSTAPI_BASE_URL, pass --api-key/--base-url, add a profile to ~/.config/hostapi/config.toml, or try --sandbox".to_owned(),
                ),
                "cdn_secret" | "cdn_base_url" | "cdn_customer" => (
                    AUTH,
                    "set HOSTAPI_CDN_SECRET, HOSTAPI_CDN_CUSTOMER and HOSTAPI_CDN_BASE_URL (or the matching flags), or try --sandbox".to_owned(),
                ),
                _ => (USAGE, "check the value and try again; nothing was sent".to_owned()),
            },
            Error::Status { status: 401, .. } => (
                AUTH,
                "the service refused the credentials: check the API key (HOSTAPI_API_KEY, --api-key or the profile; `hostapi config show` tells which is used)".to_owned(),
            ),
            Error::Status { status: 403, operation, .. } if CDN_OPERATIONS.contains(operation) => (
                AUTH,
                "the CDN refused the signed call: check the CDN secret and customer number (`hostapi config show`), and this machine's clock (signatures hold for 5 minutes)".to_owned(),
            ),
            Error::Status { status: 403, .. } => (
                AUTH,
                "the service refuses this request for this account or resource (its message says why); if it should be allowed, check the API key".to_owned(),
            ),
            Error::Status { status: 409, .. } => (
                API,
                "the resource is busy or already so (e.g. an installation runs): wait for it, then retry".to_owned(),
            ),
            Error::Status { status: 400 | 422, .. } => (
                API,
                "the service rejected a value; its message names the field".to_owned(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use hostapi::ErrorBody;

    fn status(operation: &'static str, status: u16) -> Failure {
        Failure::from(Error::Status {
            operation,
            status,
            body: ErrorBody::parse(br#"{"errorCode":"403","errorMessage":"no"}"#),
        })
    }

    #[test]
    fn statuses_map_to_codes_and_hints_that_fit() {
        let refused = status("listVirtualServers", 401);
        assert_eq!(refused.code, AUTH);
        assert!(refused.hint.unwrap().contains("API key"));
        let signature = status("getAcl", 403);
        assert_eq!(signature.code, AUTH);
        assert!(signature.hint.unwrap().contains("clock"));
        let forbidden = status("updateDomainTtl", 403);
        assert_eq!(forbidden.code, AUTH);
        assert!(forbidden.hint.unwrap().contains("its message says why"));
        assert_eq!(status("getBareMetal", 404).code, NOT_FOUND);
        let busy = status("installBareMetal", 409);
        assert_eq!(busy.code, API);
        assert!(busy.hint.unwrap().contains("wait for it"));
        assert_eq!(status("getBareMetal", 503).code, API);
        let usage = Failure::from(Error::InvalidInput {
            argument: "ttl".into(),
            reason: "too small".into(),
        });
        assert_eq!(usage.code, USAGE);
        assert!(usage.hint.unwrap().contains("nothing was sent"));
    }
}
