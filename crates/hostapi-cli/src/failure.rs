//! How a failed command ends: one clear line on stderr, a hint that fixes it, and an
//! exit code a script can test (see `exit_codes!` in `cli.rs`).

use hostapi::Error;

use crate::untrusted;

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
/// Some changes were applied and others not (a partial apply), or an apply's
/// read-back found the service still not matching the file.
pub(crate) const PARTIAL: u8 = 7;
/// `plan --expect-no-changes` found changes to make (drift).
pub(crate) const CHANGES: u8 = 8;
/// An apply refused before any write: the plan is stale, or it updates or deletes
/// more than the safety thresholds allow.
pub(crate) const REFUSED: u8 = 9;
/// Interrupted by Ctrl-C.
pub(crate) const INTERRUPTED: u8 = 130;

/// A failed command.
#[derive(Debug)]
pub(crate) struct Failure {
    pub(crate) message: String,
    pub(crate) hint: Option<String>,
    pub(crate) code: u8,
    /// The API call that failed (`getBareMetal (GET /v1/bareMetals/1)`), shown only
    /// with `-v`.
    pub(crate) call: Option<String>,
}

/// Whether `-v` was given: failures then name the API call.
static VERBOSE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Records `-v` for [`Failure::print`].
pub(crate) fn set_verbose(verbose: bool) {
    VERBOSE.store(verbose, std::sync::atomic::Ordering::Relaxed);
}

impl Failure {
    pub(crate) fn new(code: u8, message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            hint: None,
            code,
            call: None,
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

    /// The message as shown to people: text from the server or a file in it has its
    /// control characters escaped ([`untrusted::lines`]).
    pub(crate) fn shown(&self) -> std::borrow::Cow<'_, str> {
        untrusted::lines(&self.message)
    }

    /// Prints the failure on stderr. Its message and hint may hold text from the
    /// server or a file (an error page's title, a file's line): control characters
    /// are shown escaped ([`untrusted::lines`]).
    pub(crate) fn print(&self) {
        eprintln!("error: {}", self.shown());
        if let Some(hint) = &self.hint {
            eprintln!("hint: {}", untrusted::lines(hint));
        }
        if let Some(call) = self
            .call
            .as_ref()
            .filter(|_| VERBOSE.load(std::sync::atomic::Ordering::Relaxed))
        {
            eprintln!("call: {}", untrusted::line(call));
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

/// A setting or argument the SDK names (`base_url`, `BareMetalId`) in the user's
/// words: the flag, environment variable and profile key that set it.
fn setting_words(argument: &str) -> String {
    let known = match argument {
        "base_url" => "base URL (--base-url, HOSTAPI_BASE_URL or `base_url` in the profile)",
        "cdn_base_url" => {
            "CDN base URL (--cdn-base-url, HOSTAPI_CDN_BASE_URL or `cdn_base_url` in the profile)"
        }
        "api_key" => "API key (--api-key, HOSTAPI_API_KEY or `api_key` in the profile)",
        "cdn_secret" => {
            "CDN secret (--cdn-secret, HOSTAPI_CDN_SECRET or `cdn_secret` in the profile)"
        }
        "cdn_customer" => {
            "CDN customer number (--cdn-customer, HOSTAPI_CDN_CUSTOMER or `cdn_customer` in the profile)"
        }
        "ttl" => "TTL",
        "os" | "os_id" => "operating system id (--os)",
        "rescue_image_id" => "rescue image id (--image)",
        "panel" => "control panel id",
        _ => "",
    };
    if !known.is_empty() {
        return known.to_owned();
    }
    // Anything else: `hdd.disk` → `disk`, `BareMetalId` → `bare metal id`,
    // `ftp_quota` → `ftp quota`.
    let last = argument.rsplit('.').next().unwrap_or(argument);
    let mut words = String::new();
    for (i, c) in last.chars().enumerate() {
        if c == '_' {
            words.push(' ');
        } else if c.is_ascii_uppercase() {
            if i > 0 {
                words.push(' ');
            }
            words.push(c.to_ascii_lowercase());
        } else {
            words.push(c);
        }
    }
    words
}

/// The failure of a setting or argument the SDK refused before sending anything.
fn invalid_input(argument: &str, reason: &str) -> Failure {
    let words = setting_words(argument);
    let missing = reason.starts_with("not configured") || reason.starts_with("no credentials");
    let (code, message, hint) = match argument {
        "base_url" | "cdn_base_url" => {
            let message = if missing {
                format!("the {words} is not set")
            } else {
                format!("the {words} cannot be used: {reason}")
            };
            (
                USAGE,
                message,
                "give an https:// URL (http:// only for 127.0.0.1, ::1 or localhost); `hostapi config show` tells where each setting comes from; or try --sandbox",
            )
        }
        "api_key" | "cdn_secret" if missing => (
            AUTH,
            "no credentials: set an API key (HOSTAPI_API_KEY or --api-key) or a CDN secret (HOSTAPI_CDN_SECRET or --cdn-secret)".to_owned(),
            "or add them to a profile of the config file (`hostapi config show` names it); or try --sandbox",
        ),
        "api_key" | "cdn_secret" | "cdn_customer" => (
            USAGE,
            format!("the {words} cannot be used: {reason}"),
            "fix the setting; `hostapi config show` tells where it comes from",
        ),
        _ => (
            USAGE,
            format!("invalid {words}: {reason}"),
            "check the value and try again; nothing was sent",
        ),
    };
    Failure::new(code, message).hint(hint)
}

/// The API call an error came from, for `-v`.
fn call_of(error: &Error) -> Option<String> {
    match error {
        Error::Transport(e) => Some(e.call.to_string()),
        Error::Status(e) => Some(e.call.to_string()),
        Error::Redirect(e) => Some(e.call.to_string()),
        Error::AnswerTooLarge(e) => Some(e.call.to_string()),
        Error::Decode(e) => e.call.as_ref().map(ToString::to_string),
        Error::Api(e) => e.call.as_ref().map(ToString::to_string),
        Error::OutcomeUnknown(e) => Some(e.call.to_string()),
        Error::Paging(e) => Some(e.call.to_string()),
        _ => None,
    }
}

impl From<Error> for Failure {
    fn from(error: Error) -> Self {
        if let Error::InvalidInput { argument, reason } = &error {
            return invalid_input(argument, reason);
        }
        // The operation shows with -v only (the `call:` line), not in front of the message.
        let message = error.message();
        let (code, hint) = match &error {
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
                "check again later, or wait longer with --wait-timeout",
            ),
            Error::WaitFailed(_) => (WAIT, "inspect the resource with `get`"),
            _ => (API, "run with -v for details"),
        };
        Self {
            message,
            hint: Some(hint.to_owned()),
            code,
            call: call_of(&error),
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
        assert_eq!(settings.code, USAGE);
        assert!(
            settings.message.contains("HOSTAPI_CDN_SECRET"),
            "{settings:?}"
        );
        let url = Failure::from(Error::InvalidInput {
            argument: "base_url".into(),
            reason: "not configured (HOSTAPI_BASE_URL)".into(),
        });
        assert_eq!(url.code, USAGE);
        assert!(url.message.contains("--base-url"), "{url:?}");
        let typed = Failure::from(Error::InvalidInput {
            argument: "BareMetalId".into(),
            reason: "is empty".into(),
        });
        assert_eq!(typed.message, "invalid bare metal id: is empty");
    }
}
