//! The body of an error answer, read leniently: the service's JSON error object when it
//! is there, the title of a proxy's HTML page, and the text whatever it is.

use crate::scrub::Scrubber;

/// The body of an error answer.
///
/// Its text has been scrubbed before anything reads it: the configured API key and CDN
/// secret, CDN signatures and the values of secret-looking JSON keys are replaced by
/// [`REDACTED`](crate::REDACTED), so a server that echoes the request cannot make a
/// credential appear in a message.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ErrorBody {
    /// The body as received, scrubbed (lossily decoded as UTF-8); at most its first
    /// [`ErrorBody::MAX_LEN`] bytes.
    pub text: String,
    /// What the body turned out to be (judged from what was kept).
    pub kind: ErrorBodyKind,
    /// Whether the body was longer than [`ErrorBody::MAX_LEN`] and only its beginning
    /// was read (the rest was not: the connection was closed instead).
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
/// clients of the service have seen, every field optional and read leniently
/// (`errorCode` as a string or an integer).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ServiceError {
    /// `errorCode`.
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
    pub const MAX_LEN: usize = 64 * 1024;

    /// Reads a body leniently: never fails, whatever the bytes are. Secret-looking
    /// JSON values are redacted (no configured secret is known here; the client also
    /// removes those).
    pub fn parse(bytes: &[u8]) -> Self {
        Self::read(bytes, false, &Scrubber::default())
    }

    /// Reads a body the client received, scrubbed of what `scrubber` knows.
    pub(crate) fn read(bytes: &[u8], truncated: bool, scrubber: &Scrubber) -> Self {
        let text = scrubber.scrub(&String::from_utf8_lossy(bytes));
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
            truncated,
        }
    }

    /// The service's error object, when the body was one.
    pub fn service_error(&self) -> Option<&ServiceError> {
        match &self.kind {
            ErrorBodyKind::Service(error) => Some(error),
            _ => None,
        }
    }

    /// A one-line description for a message: the service's message and code, the
    /// proxy page's title, or the first characters of the text. Empty for no body.
    pub(crate) fn describe(&self) -> String {
        let described = match &self.kind {
            ErrorBodyKind::Empty => String::new(),
            ErrorBodyKind::Service(error) => error.describe(),
            ErrorBodyKind::Html { title } => match title {
                Some(title) => format!(" with an HTML page (from a proxy?): {title}"),
                None => " with an HTML page (from a proxy?)".to_owned(),
            },
            ErrorBodyKind::OtherJson | ErrorBodyKind::Text => {
                format!(": {}", excerpt(&self.text))
            }
        };
        if self.truncated {
            format!(
                "{described} (body longer than {} bytes, cut)",
                Self::MAX_LEN
            )
        } else {
            described
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
                serde_json::Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_owned()),
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

    fn describe(&self) -> String {
        let mut out = String::new();
        if let Some(message) = self.message.as_ref().or(self.user_message.as_ref()) {
            out.push_str(": ");
            out.push_str(&excerpt(message));
        }
        let mut notes = Vec::new();
        if let Some(code) = &self.code {
            notes.push(format!("error code {}", excerpt(code)));
        }
        if let Some(id) = &self.correlation_id {
            notes.push(format!("correlation id {}", excerpt(id)));
        }
        if !notes.is_empty() {
            out.push_str(&format!(" ({})", notes.join(", ")));
        }
        out
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
    (!title.is_empty()).then(|| excerpt(title))
}

/// At most this many characters of server text go into a message (the whole body
/// stays in the error value).
const MESSAGE_CHARS: usize = 200;

/// The first characters of `text`, on one line.
pub(crate) fn excerpt(text: &str) -> String {
    let one_line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() > MESSAGE_CHARS {
        let cut: String = one_line.chars().take(MESSAGE_CHARS).collect();
        format!("{cut}…")
    } else {
        one_line
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
    fn descriptions_are_one_line() {
        let body = ErrorBody::parse(
            br#"{"errorCode":"404","errorMessage":"Not\nfound","correlationId":"x"}"#,
        );
        assert_eq!(
            body.describe(),
            ": Not found (error code 404, correlation id x)"
        );
        let page = ErrorBody::parse(b"<html><title>Bad gateway</title></html>");
        assert_eq!(
            page.describe(),
            " with an HTML page (from a proxy?): Bad gateway"
        );
        assert_eq!(ErrorBody::parse(b"").describe(), "");
    }
}
