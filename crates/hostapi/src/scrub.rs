//! Keeping credentials out of everything the client prints: error messages, body
//! excerpts, HTML titles and log lines.
//!
//! A server (or a proxy) may echo the request into its answer: the `X-Svc-Auth` header,
//! or a CDN URL whose last segment is a signature that authorises the call for minutes.
//! Every text taken from an answer passes through a [`Scrubber`] before anything reads
//! it, which replaces with [`REDACTED`]:
//!
//! - the configured API key and CDN secret, by exact value (and percent-encoded);
//! - every run of exactly 40 hexadecimal digits (the shape of a CDN signature: a
//!   SHA-1), whoever computed it;
//! - the string value of every JSON member whose key looks secret ([`is_secret_key`]).

use std::sync::Arc;

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use secrecy::{ExposeSecret, SecretString};

use crate::REDACTED;

/// What URL encoders leave as it is (RFC 3986's unreserved characters); some encode
/// these too, so both forms are scrubbed.
const UNRESERVED_KEPT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// Replaces known secrets in text; cheap to clone (the client holds one).
#[derive(Clone, Default)]
pub(crate) struct Scrubber {
    /// The configured secrets, each with its percent-encoded form when that differs.
    secrets: Arc<[SecretString]>,
}

impl std::fmt::Debug for Scrubber {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Scrubber({} secrets)", self.secrets.len())
    }
}

impl Scrubber {
    /// A scrubber of `secrets` (the API key, the CDN secret: whichever are set).
    pub(crate) fn new<'s>(secrets: impl IntoIterator<Item = &'s SecretString>) -> Self {
        let mut all = Vec::new();
        for secret in secrets {
            let value = secret.expose_secret();
            if value.is_empty() {
                continue;
            }
            all.push(secret.clone());
            for set in [NON_ALPHANUMERIC, UNRESERVED_KEPT] {
                let encoded = utf8_percent_encode(value, set).to_string();
                if encoded != value && !all.iter().any(|s| s.expose_secret() == encoded) {
                    all.push(SecretString::from(encoded));
                }
            }
        }
        // Longest first, so that a secret containing another is replaced whole.
        all.sort_by_key(|s| std::cmp::Reverse(s.expose_secret().len()));
        Self {
            secrets: all.into(),
        }
    }

    /// `text` with every secret replaced by [`REDACTED`].
    pub(crate) fn scrub(&self, text: &str) -> String {
        let mut out = text.to_owned();
        for secret in self.secrets.iter() {
            let value = secret.expose_secret();
            if out.contains(value) {
                out = out.replace(value, REDACTED);
            }
        }
        redact_secret_members(&redact_signatures(&out))
    }
}

/// Whether a JSON key names a secret: it contains `password`, `passwd`, `secret`,
/// `token`, `auth`, `key`, `credential` or `combinationlock`, in any letter case.
/// Broad on purpose: redacting a harmless value costs less than printing a secret.
pub(crate) fn is_secret_key(key: &str) -> bool {
    const WORDS: [&str; 8] = [
        "password",
        "passwd",
        "secret",
        "token",
        "auth",
        "key",
        "credential",
        "combinationlock",
    ];
    let lower = key.to_ascii_lowercase();
    WORDS.iter().any(|word| lower.contains(word))
}

/// Replaces every run of exactly 40 hex digits (a SHA-1, as in a CDN signature).
fn redact_signatures(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    let mut at = 0;
    while at < bytes.len() {
        if !bytes[at].is_ascii_hexdigit() {
            at += 1;
            continue;
        }
        let start = at;
        while at < bytes.len() && bytes[at].is_ascii_alphanumeric() {
            at += 1;
        }
        let run = &bytes[start..at];
        if run.len() == 40 && run.iter().all(u8::is_ascii_hexdigit) {
            out.push_str(&text[copied..start]);
            out.push_str(REDACTED);
            copied = at;
        }
    }
    out.push_str(&text[copied..]);
    out
}

/// Replaces the string value of every `"<secret key>": "…"` member in JSON text (or
/// what is left of JSON cut short). Works on the text, not a parsed value, so a body
/// that is not valid JSON is redacted too.
fn redact_secret_members(text: &str) -> String {
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
        let key = text.get(at + 1..end).unwrap_or("");
        at = end + 1;
        if !is_secret_key(key) {
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
        out.push_str(REDACTED);
        copied = close.min(text.len());
        at = close + 1;
    }
    out.push_str(&text[copied..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scrubber() -> Scrubber {
        Scrubber::new(&[
            SecretString::from("key-1/2+3"),
            SecretString::from("cdn-secret"),
        ])
    }

    #[test]
    fn configured_secrets_are_replaced_as_sent_and_percent_encoded() {
        let echoed = "X-Svc-Auth: key-1/2+3 (or key%2D1%2F2%2B3, key-1%2F2%2B3) secret=cdn-secret";
        let scrubbed = scrubber().scrub(echoed);
        assert_eq!(
            scrubbed,
            "X-Svc-Auth: [REDACTED] (or [REDACTED], [REDACTED]) secret=[REDACTED]"
        );
    }

    #[test]
    fn signatures_are_replaced_wherever_they_appear() {
        let sig = "0123456789abcdef0123456789abcdef01234567";
        let text = format!("GET /origins/C1/1700000000/{sig} failed; id {sig}x stays");
        assert_eq!(
            Scrubber::default().scrub(&text),
            format!("GET /origins/C1/1700000000/[REDACTED] failed; id {sig}x stays")
        );
    }

    #[test]
    fn secret_members_are_redacted_in_json_and_in_json_cut_short() {
        assert_eq!(
            Scrubber::default().scrub(
                r#"{"rootPassword": "hunter2", "rescueModePassword":"x\"y", "user": "root", "apiToken": "t"}"#
            ),
            r#"{"rootPassword": "[REDACTED]", "rescueModePassword":"[REDACTED]", "user": "root", "apiToken": "[REDACTED]"}"#
        );
        assert_eq!(
            Scrubber::default()
                .scrub(r#"[{"PASSWORD" : "p", "api_secret": null, "basic_auth_password": "b"#),
            r#"[{"PASSWORD" : "[REDACTED]", "api_secret": null, "basic_auth_password": "[REDACTED]"#
        );
        // A key name as a value is not a key.
        assert_eq!(
            Scrubber::default().scrub(r#"{"field": "password", "x": "password"}"#),
            r#"{"field": "password", "x": "password"}"#
        );
        for cut in [
            "",
            "\"",
            "{\"password",
            "{\"password\":",
            "{\"password\": \"ab\\",
        ] {
            let _ = Scrubber::default().scrub(cut);
        }
    }

    #[test]
    fn secret_keys_by_name() {
        for key in [
            "password",
            "X-Auth-Token",
            "api_secret",
            "APIKEY",
            "headers_token",
        ] {
            assert!(is_secret_key(key), "{key}");
        }
        for key in ["reference", "serverName", "ip"] {
            assert!(!is_secret_key(key), "{key}");
        }
    }
}
