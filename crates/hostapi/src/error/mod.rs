//! The one error type of the crate, and what each kind of failure keeps.
//!
//! Every failure of a call keeps the call it happened in ([`CallInfo`]: operation,
//! method, path, attempts, time), and its cause as [`std::error::Error::source`]. No
//! error ever holds a credential: texts taken from answers are scrubbed (see
//! [`ErrorBody`]), and URLs are kept without the CDN signature.

mod body;
mod escape;
mod transport;

use std::fmt;
use std::time::Duration;

pub(crate) use body::excerpt;
pub use body::{ErrorBody, ErrorBodyKind, ServiceError};
pub use escape::escape_controls;
pub use transport::TransportCause;

/// A boxed error, the cause of another.
pub(crate) type BoxError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// Everything that can go wrong in a hostapi call.
///
/// Match on the variant for the kind of failure, or ask the helpers, in the manner of
/// aws-sdk-rust's error metadata: [`is_not_found`](Error::is_not_found),
/// [`is_auth`](Error::is_auth), [`is_retryable`](Error::is_retryable),
/// [`is_timeout`](Error::is_timeout),
/// [`is_outcome_unknown`](Error::is_outcome_unknown), [`status`](Error::status),
/// [`service_error`](Error::service_error), [`call`](Error::call).
///
/// ```no_run
/// # async fn run(client: hostapi::Client) -> Result<(), hostapi::Error> {
/// let id: hostapi::types::BareMetalId = "20001".parse()?;
/// match client.bare_metals().get(&id).await {
///     Ok(server) => println!("{:?}", server.name),
///     Err(e) if e.is_not_found() => println!("no such server"),
///     Err(e) => return Err(e),
/// }
/// # Ok(())
/// # }
/// ```
///
/// Writes end in one of three ways: `Ok` (applied), an error that says the change was
/// not made, or [`Error::OutcomeUnknown`] when the request may have reached the
/// service but its answer was lost, cut, garbled or a server error: the change may
/// have been applied, so check before repeating it.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// An argument or setting was rejected before anything was sent.
    InvalidInput {
        /// The argument or setting at fault, e.g. `ttl` or `base_url`.
        argument: String,
        /// Why it was rejected.
        reason: String,
    },
    /// The exchange with the server failed: no connection, no answer, or an answer cut
    /// short. [`TransportError::cause`] says which.
    Transport(Box<TransportError>),
    /// The server answered with an error status.
    Status(Box<StatusError>),
    /// The server answered with a redirect. None is followed: credentials stay with the
    /// configured host.
    Redirect(Box<RedirectError>),
    /// The answer was larger than the client accepts
    /// ([`ClientBuilder::max_answer_bytes`](crate::ClientBuilder::max_answer_bytes)); the
    /// rest was not read.
    AnswerTooLarge(Box<TooLargeError>),
    /// The answer could not be read as what the documents describe.
    Decode(Box<DecodeError>),
    /// The answer carries a status code of the service's other than the normal `1000`
    /// (domains, installation status).
    Api(Box<ApiError>),
    /// A write whose request may have reached the service, but whose answer was lost,
    /// cut, garbled or a server error: the change may have been applied. Check (read
    /// the resource) before repeating it.
    OutcomeUnknown(Box<OutcomeUnknown>),
    /// Paging through a list could not go on: the server repeated records (it ignores
    /// `offset`), or sent more pages than its count allows.
    Paging(Box<PagingError>),
    /// A waiter gave up: the deadline passed before the awaited state was seen.
    WaitTimeout(Box<WaitError>),
    /// A waiter stopped because the resource reached a state from which the awaited
    /// one cannot follow.
    WaitFailed(Box<WaitError>),
}

/// The call a failure happened in.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct CallInfo {
    /// The operation, as the API documents name it (`getBareMetal`).
    pub operation: &'static str,
    /// The HTTP method (`GET`), once the request was built (empty before).
    pub method: &'static str,
    /// The resource path (`/v1/bareMetals/20001`; CDN paths without the timestamp and
    /// signature), once the request was built.
    pub path: String,
    /// How many attempts were made.
    pub attempts: u32,
    /// Time from the first attempt to the end of the call.
    pub elapsed: Duration,
}

impl fmt::Display for CallInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.method.is_empty() {
            write!(f, "{}", self.operation)
        } else {
            write!(f, "{} ({} {})", self.operation, self.method, self.path)
        }
    }
}

/// An exchange that failed: see [`Error::Transport`].
#[derive(Debug)]
#[non_exhaustive]
pub struct TransportError {
    /// The call.
    pub call: CallInfo,
    /// What failed.
    pub cause: TransportCause,
    pub(crate) source: Option<BoxError>,
}

/// An error status: see [`Error::Status`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct StatusError {
    /// The call.
    pub call: CallInfo,
    /// The HTTP status code.
    pub status: u16,
    /// The server's `Retry-After`, when it sent one.
    pub retry_after: Option<Duration>,
    /// The answer's body, read leniently.
    pub body: ErrorBody,
}

/// A redirect: see [`Error::Redirect`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct RedirectError {
    /// The call.
    pub call: CallInfo,
    /// The 3xx status.
    pub status: u16,
    /// The host the `Location` header names (`None` for a relative or missing one).
    pub location_host: Option<String>,
}

/// An answer over the size limit: see [`Error::AnswerTooLarge`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct TooLargeError {
    /// The call.
    pub call: CallInfo,
    /// The limit, in bytes.
    pub limit: usize,
}

/// An answer that could not be read: see [`Error::Decode`].
#[derive(Debug)]
#[non_exhaustive]
pub struct DecodeError {
    /// The call, when the answer came from one.
    pub call: Option<CallInfo>,
    /// The JSON path of what could not be read (`bareMetals[3].bareMetal.bareMetalId`),
    /// empty when the body as a whole is at fault.
    pub path: String,
    /// What is wrong there.
    pub message: String,
    /// The beginning of the body as received, scrubbed.
    pub body_excerpt: String,
    pub(crate) source: Option<BoxError>,
}

/// A code other than `1000`: see [`Error::Api`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ApiError {
    /// The call.
    pub call: Option<CallInfo>,
    /// The code.
    pub code: i64,
    /// What the service says about it, when it says anything.
    pub detail: Option<String>,
}

/// A write that may have been applied: see [`Error::OutcomeUnknown`].
#[derive(Debug)]
#[non_exhaustive]
pub struct OutcomeUnknown {
    /// The call.
    pub call: CallInfo,
    /// What went wrong after the request may have reached the service (also the
    /// error's [`source`](std::error::Error::source)).
    pub cause: Error,
}

/// A list that could not be paged through: see [`Error::Paging`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct PagingError {
    /// The call that fetched the page at fault.
    pub call: CallInfo,
    /// What the pager saw.
    pub message: String,
}

/// A waiter that stopped: see [`Error::WaitTimeout`] and [`Error::WaitFailed`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct WaitError {
    /// What was awaited, e.g. `bare metal 20001 to be installed`.
    pub what: String,
    /// The last state seen.
    pub last_seen: String,
    /// How long the waiter waited.
    pub waited: Duration,
}

/// The message names the operation first when the error happened in a call
/// (`getDnsRecord: the server answered 404 Not Found …`), so a logged `{e}` says which
/// call failed; it shows the server's text (an error page's title, a message, a state)
/// with its control characters escaped by [`escape_controls`], so printing an error
/// cannot act on a terminal; the fields keep the text exactly.
impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(operation) = self.operation() {
            write!(f, "{operation}: ")?;
        }
        f.write_str(&self.message())
    }
}

impl Error {
    /// The message without the operation in front: what `Display` shows after
    /// `operation: `, escaped the same way. For a caller that shows the operation
    /// elsewhere (or not at all, as the CLI does without `-v`).
    pub fn message(&self) -> String {
        let mut message = String::new();
        // Writing to a String cannot fail.
        let _ = self.write_message(&mut message);
        escape_controls(&message).into_owned()
    }

    /// The message, server text as it came.
    fn write_message(&self, f: &mut String) -> fmt::Result {
        use fmt::Write as _;
        match self {
            Self::InvalidInput { argument, reason } => write!(f, "invalid {argument}: {reason}"),
            Self::Transport(e) => f.write_str(&e.cause.describe()),
            Self::Status(e) => write!(
                f,
                "the server answered {}{}",
                status_text(e.status),
                e.body.describe()
            ),
            Self::Redirect(e) => write!(
                f,
                "the server answered {} (a redirect{}), which is not followed: credentials stay \
                 with the configured host",
                status_text(e.status),
                e.location_host
                    .as_ref()
                    .map(|h| format!(" to {h}"))
                    .unwrap_or_default()
            ),
            Self::AnswerTooLarge(e) => write!(
                f,
                "the answer is larger than {} bytes, the most this client reads",
                e.limit
            ),
            Self::Decode(e) => {
                f.write_str("cannot read the answer")?;
                if !e.path.is_empty() {
                    write!(f, " at `{}`", e.path)?;
                }
                write!(f, ": {}", e.message)
            }
            Self::Api(e) => {
                write!(f, "the service reports code {}", e.code)?;
                match &e.detail {
                    Some(detail) => write!(f, ": {detail}"),
                    None => Ok(()),
                }
            }
            Self::OutcomeUnknown(e) => {
                // The cause happened in the same call: its operation is named once, in
                // front of the whole message.
                f.write_str(
                    "the change may have been applied (the answer was lost or unreadable: ",
                )?;
                e.cause.write_message(f)?;
                f.write_str(")")
            }
            Self::Paging(e) => write!(f, "cannot page through the list: {}", e.message),
            Self::WaitTimeout(e) => write!(
                f,
                "gave up waiting for {} after {}; last seen: {}",
                e.what,
                crate::wait::human_duration(e.waited),
                e.last_seen
            ),
            Self::WaitFailed(e) => {
                write!(f, "stopped waiting for {}: it is {}", e.what, e.last_seen)
            }
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Transport(e) => e.source.as_deref().map(|s| s as _),
            Self::Decode(e) => e.source.as_deref().map(|s| s as _),
            Self::OutcomeUnknown(e) => Some(&e.cause),
            _ => None,
        }
    }
}

/// `404 Not Found`, or the bare number for a status without a standard reason.
fn status_text(status: u16) -> String {
    match http::StatusCode::from_u16(status)
        .ok()
        .and_then(|s| s.canonical_reason())
    {
        Some(reason) => format!("{status} {reason}"),
        None => status.to_string(),
    }
}

impl Error {
    /// The HTTP status of an error answer ([`Error::Status`]), or of the lost answer of
    /// a write whose outcome is unknown.
    pub fn status(&self) -> Option<u16> {
        match self {
            Self::Status(e) => Some(e.status),
            Self::Redirect(e) => Some(e.status),
            Self::OutcomeUnknown(e) => e.cause.status(),
            _ => None,
        }
    }

    /// Whether the server said the resource does not exist (404).
    pub fn is_not_found(&self) -> bool {
        matches!(self, Self::Status(e) if e.status == 404)
    }

    /// Whether the server refused the credentials (401 or 403).
    pub fn is_auth(&self) -> bool {
        matches!(self, Self::Status(e) if matches!(e.status, 401 | 403))
    }

    /// Whether the same call may succeed if tried again later: a connection that could
    /// not be made or was lost, a timeout, `429`, `502`, `503`, `504`. (The client has
    /// already retried these as its [`RetryPolicy`](crate::RetryPolicy) allows.) A
    /// certificate the client does not trust is not retryable.
    pub fn is_retryable(&self) -> bool {
        match self {
            Self::Transport(e) => e.cause.is_retryable(),
            Self::Status(e) => crate::transport::retry::is_retryable_status(e.status),
            _ => false,
        }
    }

    /// Whether no answer came in the time allowed: the client's request timeout
    /// ([`ClientBuilder::timeout`](crate::ClientBuilder::timeout)) or its connect
    /// timeout ran out ([`TransportCause::Timeout`], [`TransportCause::ConnectTimeout`]),
    /// also when that left a write's outcome unknown. A waiter that gave up is not a
    /// timeout of a call: match [`Error::WaitTimeout`] for that.
    pub fn is_timeout(&self) -> bool {
        match self {
            Self::Transport(e) => {
                matches!(
                    e.cause,
                    TransportCause::Timeout | TransportCause::ConnectTimeout
                )
            }
            Self::OutcomeUnknown(e) => e.cause.is_timeout(),
            _ => false,
        }
    }

    /// Whether this is a write that may have been applied although the call failed
    /// ([`Error::OutcomeUnknown`]).
    pub fn is_outcome_unknown(&self) -> bool {
        matches!(self, Self::OutcomeUnknown(_))
    }

    /// The call the error happened in, when it happened in one.
    pub fn call(&self) -> Option<&CallInfo> {
        match self {
            Self::Transport(e) => Some(&e.call),
            Self::Status(e) => Some(&e.call),
            Self::Redirect(e) => Some(&e.call),
            Self::AnswerTooLarge(e) => Some(&e.call),
            Self::Decode(e) => e.call.as_ref(),
            Self::Api(e) => e.call.as_ref(),
            Self::OutcomeUnknown(e) => Some(&e.call),
            Self::Paging(e) => Some(&e.call),
            _ => None,
        }
    }

    /// The operation the error happened in (`getBareMetal`), when it happened in one.
    pub fn operation(&self) -> Option<&'static str> {
        self.call().map(|call| call.operation)
    }

    /// The service's error object, when the error answer carried one (also through an
    /// unknown outcome).
    pub fn service_error(&self) -> Option<&ServiceError> {
        match self {
            Self::Status(e) => e.body.service_error(),
            Self::OutcomeUnknown(e) => e.cause.service_error(),
            _ => None,
        }
    }

    /// The server's `Retry-After`, when an error answer carried one.
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            Self::Status(e) => e.retry_after,
            Self::OutcomeUnknown(e) => e.cause.retry_after(),
            _ => None,
        }
    }

    /// An argument refused before anything was sent ([`Error::InvalidInput`]), naming the
    /// argument and why; for code built on the facade that checks its own input.
    pub fn invalid(argument: impl Into<String>, reason: impl fmt::Display) -> Self {
        Self::InvalidInput {
            argument: argument.into(),
            reason: reason.to_string(),
        }
    }

    /// The same error, now part of a write whose outcome is unknown.
    pub(crate) fn outcome_unknown(self, call: CallInfo) -> Self {
        Self::OutcomeUnknown(Box::new(OutcomeUnknown { call, cause: self }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn call() -> CallInfo {
        CallInfo {
            operation: "getBareMetal",
            method: "GET",
            path: "/v1/bareMetals/1".into(),
            attempts: 1,
            elapsed: Duration::from_millis(3),
        }
    }

    fn status(status: u16, body: &[u8]) -> Error {
        Error::Status(Box::new(StatusError {
            call: call(),
            status,
            retry_after: None,
            body: ErrorBody::parse(body),
        }))
    }

    #[test]
    fn messages_say_what_the_server_said() {
        let error = status(
            404,
            br#"{"errorCode":"404","errorMessage":"Not found","correlationId":"x"}"#,
        );
        assert_eq!(
            error.to_string(),
            "getBareMetal: the server answered 404 Not Found: Not found (error code 404, correlation id x)"
        );
        assert!(error.is_not_found());
        assert!(!error.is_retryable());
        assert_eq!(error.operation(), Some("getBareMetal"));
        assert_eq!(
            error
                .service_error()
                .and_then(|e| e.correlation_id.as_deref()),
            Some("x")
        );
        let error = status(502, b"<html><title>Bad gateway</title></html>");
        assert_eq!(
            error.to_string(),
            "getBareMetal: the server answered 502 Bad Gateway with an HTML page (from a proxy?): Bad gateway"
        );
        assert!(error.is_retryable());
    }

    #[test]
    fn server_text_is_shown_escaped_and_kept_exactly() {
        let hostile = "\x1b]0;pwned\x07\x1b[2J\u{9b}1m\u{202e}gnp.exe\x08";
        let json = serde_json::json!({"errorCode": "E\x1b[2J", "errorMessage": hostile});
        let error = status(400, json.to_string().as_bytes());
        let shown = error.to_string();
        assert_eq!(
            shown,
            "getBareMetal: the server answered 400 Bad Request: \\x1b]0;pwned\\x07\\x1b[2J\\u{9b}1m\\u{202e}gnp.exe\\x08 (error code E\\x1b[2J)"
        );
        assert_eq!(
            error.service_error().and_then(|e| e.message.as_deref()),
            Some(hostile)
        );
        let page = format!("<html><head><title>{hostile}</title></head></html>");
        let error = status(502, page.as_bytes());
        assert!(!error.to_string().chars().any(char::is_control), "{error}");
        assert!(error.to_string().contains("\\u{202e}"), "{error}");
        let Error::Status(status) = &error else {
            unreachable!()
        };
        assert_eq!(status.body.text, page);
        // Through an unknown outcome, and whatever the variant.
        let unknown = error.outcome_unknown(call());
        assert!(
            !unknown.to_string().contains(['\x1b', '\u{202e}']),
            "{unknown}"
        );
        let wait = Error::WaitFailed(Box::new(WaitError {
            what: "server 1".into(),
            last_seen: "\x1b[2Jbroken\r".into(),
            waited: Duration::from_secs(1),
        }));
        assert_eq!(
            wait.to_string(),
            "stopped waiting for server 1: it is \\x1b[2Jbroken\\r"
        );
    }

    #[test]
    fn an_unknown_outcome_keeps_its_cause_as_source() {
        use std::error::Error as _;
        let error = status(500, b"").outcome_unknown(call());
        assert!(error.is_outcome_unknown());
        assert_eq!(error.status(), Some(500));
        assert!(
            error
                .source()
                .is_some_and(|s| s.to_string().contains("500"))
        );
        assert_eq!(
            error.to_string(),
            "getBareMetal: the change may have been applied (the answer was lost or \
             unreadable: the server answered 500 Internal Server Error)"
        );
    }

    fn transport(cause: TransportCause) -> Error {
        Error::Transport(Box::new(TransportError {
            call: call(),
            cause,
            source: None,
        }))
    }

    #[test]
    fn a_timeout_is_a_call_that_got_no_answer_in_time() {
        assert!(transport(TransportCause::Timeout).is_timeout());
        assert!(transport(TransportCause::ConnectTimeout).is_timeout());
        assert!(
            transport(TransportCause::Timeout)
                .outcome_unknown(call())
                .is_timeout()
        );
        assert!(!transport(TransportCause::ConnectionRefused).is_timeout());
        assert!(!status(504, b"").is_timeout());
        let wait = Error::WaitTimeout(Box::new(WaitError {
            what: "server 1".into(),
            last_seen: "running".into(),
            waited: Duration::from_secs(1),
        }));
        assert!(!wait.is_timeout(), "a waiter's deadline is WaitTimeout");
        assert_eq!(
            transport(TransportCause::Timeout).to_string(),
            "getBareMetal: no answer within the time allowed"
        );
        assert_eq!(
            transport(TransportCause::Timeout).message(),
            "no answer within the time allowed"
        );
    }

    #[test]
    fn only_errors_of_a_call_name_an_operation() {
        let invalid = Error::invalid("ttl", "is too small");
        assert_eq!(invalid.to_string(), "invalid ttl: is too small");
        let decode = Error::Decode(Box::new(DecodeError {
            call: None,
            path: "id".into(),
            message: "expected a number".into(),
            body_excerpt: String::new(),
            source: None,
        }));
        assert_eq!(
            decode.to_string(),
            "cannot read the answer at `id`: expected a number"
        );
    }
}
