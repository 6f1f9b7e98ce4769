//! The one error type of the crate.

use std::fmt;
use std::time::Duration;

/// Everything that can go wrong in a hostapi call.
///
/// Each variant names what was being done (`operation`, the spec's operationId such
/// as `getBareMetal`, or the argument at fault) so a message is useful on its own.
/// No variant ever holds a credential: the API key, CDN secret and passwords are
/// never part of an error.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// An argument was rejected before anything was sent.
    #[error("invalid {argument}: {reason}")]
    InvalidInput {
        /// The argument (or setting, or environment variable) at fault.
        argument: String,
        /// Why it was rejected.
        reason: String,
    },

    /// The request could not be sent, or the answer could not be received whole
    /// (connection refused or reset, TLS failure, body cut short).
    #[error("{operation}: {message}")]
    Transport {
        /// The operation.
        operation: &'static str,
        /// What failed.
        message: String,
        /// The underlying error, when there is one.
        #[source]
        source: Option<reqwest::Error>,
    },

    /// No answer came within the configured timeout.
    #[error("{operation}: no answer within the timeout")]
    Timeout {
        /// The operation.
        operation: &'static str,
    },

    /// The server answered with an error status.
    #[error("{operation}: the server answered {status}{}", describe_body(body))]
    Status {
        /// The operation.
        operation: &'static str,
        /// The HTTP status code.
        status: u16,
        /// The answer's body, read leniently.
        body: ErrorBody,
    },

    /// The server's answer could not be read as what the API documents.
    #[error("{operation}: cannot read the answer{}: {message}", at_path(path))]
    Decode {
        /// The operation.
        operation: &'static str,
        /// The JSON path of the offending field (`virtualServers[3].state`), empty when
        /// the body as a whole is at fault.
        path: String,
        /// What is wrong there.
        message: String,
        /// The body as received (lossily decoded as UTF-8).
        body: String,
    },

    /// The answer carries a domain status code other than the normal `1000`.
    #[error("{operation}: the service reports code {code}{}", with_detail(detail))]
    Api {
        /// The operation.
        operation: &'static str,
        /// The code (1000 is normal).
        code: i64,
        /// What the service says about it, when it says anything.
        detail: Option<String>,
    },

    /// A waiter gave up: the deadline passed before the awaited state was seen.
    #[error("gave up waiting for {what} after {waited:?}; last seen: {last_seen}")]
    WaitTimeout {
        /// What was awaited.
        what: String,
        /// How long it waited.
        waited: Duration,
        /// The last state observed.
        last_seen: String,
    },

    /// A waiter stopped because the resource reached a state from which the awaited
    /// one cannot follow (for example UNKNOWN).
    #[error("stopped waiting for {what}: it is {state}")]
    WaitFailed {
        /// What was awaited.
        what: String,
        /// The state that ended the wait.
        state: String,
    },
}

/// The body of an error answer, read leniently: the JSON error shape when it is there,
/// and the text whatever it is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ErrorBody {
    /// The body as received (lossily decoded as UTF-8, secret fields redacted); its
    /// first [`ErrorBody::MAX_LEN`] bytes when it was longer.
    pub text: String,
    /// What the body turned out to be (judged from what was kept).
    pub kind: ErrorBodyKind,
    /// Whether the body was longer than [`ErrorBody::MAX_LEN`] bytes and only its
    /// beginning was read.
    pub truncated: bool,
}

/// What an error body turned out to be.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorBodyKind {
    /// No body.
    #[default]
    Empty,
    /// The service's JSON error object.
    Service(Box<ServiceError>),
    /// JSON of another shape.
    OtherJson,
    /// An HTML page, typically from a proxy or load balancer in front of the service.
    Html {
        /// The page's `<title>`, when it has one.
        title: Option<String>,
    },
    /// Anything else.
    Text,
}

/// The service's error object. The API documents no error format; this is the shape
/// clients of the service have seen, every field optional.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ServiceError {
    /// `errorCode`, a string or an integer on the wire.
    pub code: Option<String>,
    /// `errorMessage`.
    pub message: Option<String>,
    /// `userMessage`.
    pub user_message: Option<String>,
    /// `reference`.
    pub reference: Option<String>,
    /// `correlationId`.
    pub correlation_id: Option<String>,
    /// `errorDetails`, as sent (an object, an array, or absent).
    pub details: Option<serde_json::Value>,
}

impl ErrorBody {
    /// The most of an error body the client reads and keeps (64 KiB): enough for any
    /// error object or proxy page, and a bound on what a misbehaving server can make
    /// the client hold.
    pub const MAX_LEN: usize = crate::transport::hooks::MAX_ERROR_BODY;

    /// Reads a body leniently: never fails, whatever the bytes are. The values of
    /// secret fields (passwords, API secrets) are replaced by [`REDACTED`](crate::REDACTED)
    /// in the text kept, should a server ever echo one in an error.
    pub fn parse(bytes: &[u8]) -> Self {
        let text = body_text(bytes);
        let trimmed = text.trim_start();
        let kind = if trimmed.is_empty() {
            ErrorBodyKind::Empty
        } else if let Ok(value) = serde_json::from_str::<serde_json::Value>(&text) {
            ServiceError::from_json(&value).map_or(ErrorBodyKind::OtherJson, |e| {
                ErrorBodyKind::Service(Box::new(e))
            })
        } else if looks_like_html(trimmed) {
            ErrorBodyKind::Html {
                title: html_title(trimmed),
            }
        } else {
            ErrorBodyKind::Text
        };
        Self {
            text,
            kind,
            truncated: false,
        }
    }

    /// The same body, marked as the beginning of a longer one when `truncated`.
    pub(crate) fn cut_short(mut self, truncated: bool) -> Self {
        self.truncated = truncated;
        self
    }

    /// The service's error object, when the body was one.
    pub fn service_error(&self) -> Option<&ServiceError> {
        match &self.kind {
            ErrorBodyKind::Service(error) => Some(error),
            _ => None,
        }
    }
}

impl ServiceError {
    /// Reads the error object out of a JSON value; `None` when the value has none of
    /// its fields.
    fn from_json(value: &serde_json::Value) -> Option<Self> {
        let object = value.as_object()?;
        let text = |key: &str| {
            object.get(key).and_then(|v| match v {
                serde_json::Value::String(s) => Some(s.clone()),
                serde_json::Value::Number(n) => Some(n.to_string()),
                _ => None,
            })
        };
        let error = Self {
            code: text("errorCode"),
            message: text("errorMessage"),
            user_message: text("userMessage"),
            reference: text("reference"),
            correlation_id: text("correlationId"),
            details: object.get("errorDetails").cloned(),
        };
        let empty = error.code.is_none()
            && error.message.is_none()
            && error.user_message.is_none()
            && error.correlation_id.is_none();
        (!empty).then_some(error)
    }
}

fn looks_like_html(text: &str) -> bool {
    let head: String = text
        .chars()
        .take(64)
        .collect::<String>()
        .to_ascii_lowercase();
    head.starts_with("<!doctype html")
        || head.starts_with("<html")
        || head.starts_with("<head")
        || head.starts_with("<body")
}

fn html_title(text: &str) -> Option<String> {
    let lower = text.to_ascii_lowercase();
    let start = lower.find("<title")?;
    let open_end = start + lower[start..].find('>')? + 1;
    let close = open_end + lower[open_end..].find("</title")?;
    let title = text.get(open_end..close)?.trim();
    (!title.is_empty()).then(|| title.to_owned())
}

/// The keys whose values are secrets in some answer, lower-case (keys are compared
/// without regard to case): the bare metal passwords and combination lock, the cloud
/// credential password, the CDN API secrets and origin basic auth password.
const SECRET_KEYS: [&str; 6] = [
    "rootpassword",
    "rescuemodepassword",
    "combinationlock",
    "password",
    "api_secret",
    "basic_auth_password",
];

/// A body as text for an error: lossily decoded as UTF-8, with the string values of
/// secret keys replaced by [`REDACTED`](crate::REDACTED).
pub(crate) fn body_text(bytes: &[u8]) -> String {
    redact_secrets(&String::from_utf8_lossy(bytes))
}

/// Replaces the string value of every `"<secret key>": "…"` pair in JSON text (or
/// what is left of JSON cut short) with [`REDACTED`](crate::REDACTED). Works on the
/// text, not a parsed value, so a body that is not valid JSON is redacted too.
pub(crate) fn redact_secrets(text: &str) -> String {
    let bytes = text.as_bytes();
    let skip_space = |mut at: usize| {
        while bytes.get(at).is_some_and(u8::is_ascii_whitespace) {
            at += 1;
        }
        at
    };
    // The index of the quote closing the string opened at `open`, or the end.
    let string_end = |open: usize| {
        let mut at = open + 1;
        while at < bytes.len() {
            match bytes[at] {
                b'\\' => at += 2,
                b'"' => return at,
                _ => at += 1,
            }
        }
        bytes.len()
    };
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] != b'"' {
            at += 1;
            continue;
        }
        let end = string_end(at);
        let key = &text[at + 1..end];
        at = end + 1;
        if !SECRET_KEYS.iter().any(|k| key.eq_ignore_ascii_case(k)) {
            continue;
        }
        let colon = skip_space(at);
        if bytes.get(colon) != Some(&b':') {
            continue;
        }
        let open = skip_space(colon + 1);
        if bytes.get(open) != Some(&b'"') {
            continue;
        }
        let close = string_end(open);
        out.push_str(&text[copied..=open]);
        out.push_str(crate::REDACTED);
        copied = close.min(text.len());
        at = close + 1;
    }
    out.push_str(&text[copied..]);
    out
}

/// At most this many characters of a body go into an error message (the whole body
/// stays in the error value).
const MESSAGE_BODY_CHARS: usize = 200;

fn describe_body(body: &ErrorBody) -> String {
    let described = describe_kind(body);
    if body.truncated {
        format!(
            "{described} (body longer than {} bytes, cut)",
            ErrorBody::MAX_LEN
        )
    } else {
        described
    }
}

fn describe_kind(body: &ErrorBody) -> String {
    match &body.kind {
        ErrorBodyKind::Empty => String::new(),
        ErrorBodyKind::Service(error) => {
            let mut out = String::new();
            if let Some(message) = error.message.as_ref().or(error.user_message.as_ref()) {
                out.push_str(": ");
                out.push_str(message);
            }
            let mut notes = Vec::new();
            if let Some(code) = &error.code {
                notes.push(format!("error code {code}"));
            }
            if let Some(id) = &error.correlation_id {
                notes.push(format!("correlation id {id}"));
            }
            if !notes.is_empty() {
                out.push_str(&format!(" ({})", notes.join(", ")));
            }
            out
        }
        ErrorBodyKind::Html { title } => match title {
            Some(title) => format!(" with an HTML page (from a proxy?): {title}"),
            None => " with an HTML page (from a proxy?)".to_owned(),
        },
        ErrorBodyKind::OtherJson | ErrorBodyKind::Text => format!(": {}", excerpt(&body.text)),
    }
}

/// The first characters of `text`, on one line.
pub(crate) fn excerpt(text: &str) -> String {
    let one_line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() > MESSAGE_BODY_CHARS {
        let cut: String = one_line.chars().take(MESSAGE_BODY_CHARS).collect();
        format!("{cut}…")
    } else {
        one_line
    }
}

fn at_path(path: &str) -> String {
    if path.is_empty() {
        String::new()
    } else {
        format!(" at `{path}`")
    }
}

fn with_detail(detail: &Option<String>) -> String {
    detail
        .as_ref()
        .map(|d| format!(": {d}"))
        .unwrap_or_default()
}

impl Error {
    /// The HTTP status, for [`Error::Status`].
    pub fn status(&self) -> Option<u16> {
        match self {
            Self::Status { status, .. } => Some(*status),
            _ => None,
        }
    }

    /// Whether the server said the resource does not exist (404).
    pub fn is_not_found(&self) -> bool {
        self.status() == Some(404)
    }

    /// Whether the server refused the credentials (401 or 403).
    pub fn is_auth(&self) -> bool {
        matches!(self.status(), Some(401 | 403))
    }

    /// The operation the error happened in, when it happened in one.
    pub fn operation(&self) -> Option<&'static str> {
        match self {
            Self::Transport { operation, .. }
            | Self::Timeout { operation }
            | Self::Status { operation, .. }
            | Self::Decode { operation, .. }
            | Self::Api { operation, .. } => Some(operation),
            _ => None,
        }
    }

    pub(crate) fn invalid(argument: impl Into<String>, reason: impl fmt::Display) -> Self {
        Self::InvalidInput {
            argument: argument.into(),
            reason: reason.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_service_shape_is_read_with_string_or_integer_codes() {
        let body = ErrorBody::parse(br#"{"errorCode": 404, "errorMessage": "Server not found", "correlationId": "c-1", "errorDetails": []}"#);
        let error = body.service_error().expect("service error");
        assert_eq!(error.code.as_deref(), Some("404"));
        assert_eq!(error.details, Some(serde_json::json!([])));
        let body = ErrorBody::parse(br#"{"errorCode": "ACCESS_DENIED", "userMessage": "no"}"#);
        assert_eq!(
            body.service_error().and_then(|e| e.code.as_deref()),
            Some("ACCESS_DENIED")
        );
    }

    #[test]
    fn html_pages_text_and_other_json_are_told_apart() {
        let page = ErrorBody::parse(
            b"<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head></html>",
        );
        assert_eq!(
            page.kind,
            ErrorBodyKind::Html {
                title: Some("502 Bad Gateway".into())
            }
        );
        assert_eq!(ErrorBody::parse(b"").kind, ErrorBodyKind::Empty);
        assert_eq!(ErrorBody::parse(b"oops").kind, ErrorBodyKind::Text);
        assert_eq!(ErrorBody::parse(b"[1,2]").kind, ErrorBodyKind::OtherJson);
        assert_eq!(ErrorBody::parse(&[0xff, 0xfe]).kind, ErrorBodyKind::Text);
    }

    #[test]
    fn secret_values_are_redacted_from_bodies_kept_in_errors() {
        assert_eq!(
            redact_secrets(
                r#"{"rootPassword": "hunter2", "rescueModePassword":"x\"y", "user": "root"}"#
            ),
            r#"{"rootPassword": "[REDACTED]", "rescueModePassword":"[REDACTED]", "user": "root"}"#
        );
        assert_eq!(
            redact_secrets(r#"[{"PASSWORD" : "p", "api_secret": null, "basic_auth_password": "b"#),
            r#"[{"PASSWORD" : "[REDACTED]", "api_secret": null, "basic_auth_password": "[REDACTED]"#
        );
        // A key name as a value is not a key.
        assert_eq!(
            redact_secrets(r#"{"field": "password", "x": "password"}"#),
            r#"{"field": "password", "x": "password"}"#
        );
        for cut in [
            "",
            "\"",
            "{\"password",
            "{\"password\":",
            "{\"password\": \"ab\\",
        ] {
            let _ = redact_secrets(cut);
        }
        let body = ErrorBody::parse(br#"{"errorMessage": "bad", "password": "s3cret"}"#);
        assert!(!body.text.contains("s3cret"), "{}", body.text);
        assert_eq!(
            body.service_error().and_then(|e| e.message.as_deref()),
            Some("bad")
        );
    }

    #[test]
    fn messages_name_operation_status_and_what_the_server_said() {
        let error = Error::Status {
            operation: "getBareMetal",
            status: 404,
            body: ErrorBody::parse(
                br#"{"errorCode":"404","errorMessage":"Not found","correlationId":"x"}"#,
            ),
        };
        assert_eq!(
            error.to_string(),
            "getBareMetal: the server answered 404: Not found (error code 404, correlation id x)"
        );
        let error = Error::Status {
            operation: "listDomains",
            status: 502,
            body: ErrorBody::parse(b"<html><title>Bad gateway</title></html>"),
        };
        assert_eq!(
            error.to_string(),
            "listDomains: the server answered 502 with an HTML page (from a proxy?): Bad gateway"
        );
    }
}
