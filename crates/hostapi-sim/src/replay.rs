//! Replay (`hostapi-sim --replay FILE`): serve a recorded journal back, in
//! order, for a test that wants a fixed script. FILE is NDJSON as `GET
//! /_sim/requests?format=ndjson` exports it. Each request is matched to
//! the next entry by method and path (a CDN path without its timestamp and
//! signature) and answered with the entry's status and body; a dropped
//! connection is dropped again. A request that does not match, or comes
//! after the last entry, answers 400 saying what the script expected; the
//! script does not move on. `GET /_sim/replay` tells how far it went.

use axum::body::Body;
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;
use serde::Serialize;

use crate::error::{self, ApiError};
use crate::journal::JournalEntry;
use crate::server::Inner;
use crate::state::lock;

/// The script and how far it went.
#[derive(Debug)]
pub(crate) struct Replay {
    entries: Vec<JournalEntry>,
    next: usize,
    mismatches: u64,
}

/// How far a replay went (`GET /_sim/replay`).
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct ReplayProgress {
    /// Entries in the script.
    pub total: usize,
    /// Entries served so far.
    pub served: usize,
    /// Requests that did not match the next entry (or came after the end).
    pub mismatches: u64,
    /// The next entry, as `METHOD path`, when any is left.
    pub next: Option<String>,
}

/// Read a script: one journal entry per line (blank lines skipped). An
/// entry whose answer body was cut when recorded cannot be served and is
/// refused, as is a line that is not an entry.
pub fn read_script(text: &str) -> Result<Vec<JournalEntry>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let e: JournalEntry = serde_json::from_str(line)
            .map_err(|err| format!("line {}: not a journal entry: {err}", i + 1))?;
        if let Some(s) = e.status
            && StatusCode::from_u16(s).is_err()
        {
            return Err(format!("line {}: status {s} is not an HTTP status", i + 1));
        }
        if e.answer.as_ref().is_some_and(|a| a.truncated) {
            return Err(format!(
                "line {}: the answer of {} {} was cut at {} bytes when recorded, so it cannot \
                 be served back",
                i + 1,
                e.method,
                e.path,
                crate::JOURNAL_BODY_CAP
            ));
        }
        out.push(e);
    }
    if out.is_empty() {
        return Err("the script has no entries".into());
    }
    Ok(out)
}

impl Replay {
    pub(crate) fn new(entries: Vec<JournalEntry>) -> Self {
        Replay {
            entries,
            next: 0,
            mismatches: 0,
        }
    }

    pub(crate) fn progress(&self) -> ReplayProgress {
        ReplayProgress {
            total: self.entries.len(),
            served: self.next,
            mismatches: self.mismatches,
            next: self
                .entries
                .get(self.next)
                .map(|e| format!("{} {}", e.method, e.path)),
        }
    }
}

/// The part of a path a replay compares: a CDN path without its last two
/// segments (timestamp and signature, which change on every call).
fn key(path: &str) -> &str {
    if !path.starts_with("/cdn/") {
        return path;
    }
    let mut p = path.trim_end_matches('/');
    for _ in 0..2 {
        if let Some(i) = p.rfind('/') {
            p = &p[..i];
        }
    }
    p
}

/// Answer one request from the script.
pub(crate) fn serve(inner: &Inner, parts: &Parts) -> Response {
    let path = parts.uri.path();
    let method = parts.method.as_str();
    let style = crate::server::style_of(path);
    let mut replay = match &inner.replay {
        Some(r) => lock(r),
        None => return Response::default(),
    };
    let at = replay.next;
    let total = replay.entries.len();
    let expected = replay.entries.get(at).cloned();
    let entry = match expected {
        Some(e) if e.method == method && key(&e.path) == key(path) => e,
        other => {
            replay.mismatches += 1;
            drop(replay);
            let message = match other {
                Some(e) => format!(
                    "replay: the script expects {} {} next (entry {} of {total}), not {method} \
                     {}",
                    e.method,
                    key(&e.path),
                    at + 1,
                    key(path)
                ),
                None => format!(
                    "replay: the script has ended ({total} entries served); {method} {} is \
                     past its end",
                    key(path)
                ),
            };
            let e = ApiError::new(StatusCode::BAD_REQUEST, message);
            return error::response(style, &e, &inner.correlation_id(), "replay");
        }
    };
    replay.next += 1;
    drop(replay);
    let Some(status) = entry.status.and_then(|s| StatusCode::from_u16(s).ok()) else {
        return crate::server::drop_response();
    };
    let (body, content_type) = match &entry.answer {
        Some(a) => (a.bytes(), a.content_type.clone()),
        None => (Vec::new(), None),
    };
    let mut r = Response::new(Body::from(body));
    *r.status_mut() = status;
    if let Some(ct) = content_type.and_then(|c| HeaderValue::from_str(&c).ok()) {
        r.headers_mut().insert(header::CONTENT_TYPE, ct);
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cdn_path_is_compared_without_timestamp_and_signature() {
        assert_eq!(key("/cdn/origins/1/1700000000/REDACTED"), "/cdn/origins/1");
        assert_eq!(key("/cdn/origins/1/1700000001/abc"), "/cdn/origins/1");
        assert_eq!(key("/v1/domains"), "/v1/domains");
    }

    #[test]
    fn scripts_are_checked_line_by_line() {
        assert!(read_script("").unwrap_err().contains("no entries"));
        let e = read_script("{\"seq\":1}\n").unwrap_err();
        assert!(e.starts_with("line 1: not a journal entry"), "{e}");
        let line = r#"{"seq":1,"sim_time":0.0,"method":"GET","path":"/v1/domains","operation":"listDomains","status":200,"answer":{"size":70000,"text":"x","truncated":true}}"#;
        let e = read_script(&format!("\n{line}\n")).unwrap_err();
        assert!(
            e.starts_with("line 2: the answer of GET /v1/domains was cut"),
            "{e}"
        );
        let ok = line.replace(",\"truncated\":true", "");
        assert_eq!(read_script(&ok).unwrap().len(), 1);
        let bad = ok.replace("200", "1000");
        assert!(read_script(&bad).unwrap_err().contains("status 1000"));
    }
}
