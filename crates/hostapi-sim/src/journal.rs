//! The request journal (`GET /_sim/requests`): what each request was and
//! carried, which operation it named, how it was answered and which fault
//! spoilt it. The newest [`crate::JOURNAL_CAP`] entries are kept, within
//! [`crate::JOURNAL_MAX_BYTES`]; secrets are redacted and bodies cut at
//! [`crate::JOURNAL_BODY_CAP`] bytes.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// One request as the journal records it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct JournalEntry {
    /// 1-based, in arrival order of completion (keeps counting when the
    /// oldest entries are dropped).
    pub seq: u64,
    /// Simulated Unix time the request was answered.
    pub sim_time: f64,
    /// HTTP method.
    pub method: String,
    /// The path, with a CDN signature replaced by `REDACTED`.
    pub path: String,
    /// The query string, with values of secret-looking keys replaced.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
    /// The operationId it named (`listDomains`; `""` when none).
    pub operation: String,
    /// The interface of the operation: `infra`, `cloud` or `cdn` (`""`
    /// when none).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub api: String,
    /// The operation as `METHOD /path` template (`GET /v1/domains`; `""`
    /// when none).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub route: String,
    /// The status answered; absent when the connection was dropped.
    pub status: Option<u16>,
    /// The fault applied (`"503"`, `"drop-after"`, `"latency"`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fault: Option<String>,
    /// The request's body, when it had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request: Option<RecordedBody>,
    /// The answer's body as the operation produced it (before a
    /// `truncate` or `malformed` fault spoilt it), when it had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<RecordedBody>,
}

/// A body as recorded. A request body is kept as `json` (a JSON body),
/// `form` (a form: each field's value, an array when a field repeats) or
/// `text`; an answer body as `text` (exactly as sent). Bytes that are not
/// UTF-8 are kept as `hex`. Values of secret-looking fields (`password`,
/// `secret`, `key`, `token`, `auth`, `signature` in their names) and the
/// simulator's API key and CDN secret wherever they occur are
/// [`REDACTED`]. A body longer than [`crate::JOURNAL_BODY_CAP`] keeps its
/// first bytes as `text` (or `hex`) and `truncated: true`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct RecordedBody {
    /// The `Content-Type` header, when sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_type: Option<String>,
    /// The body's length in bytes.
    pub size: u64,
    /// A JSON body, parsed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub json: Option<Value>,
    /// A form body, field by field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub form: Option<Map<String, Value>>,
    /// The body as text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// The body in lowercase hex, when it is not UTF-8.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hex: Option<String>,
    /// The body was longer than [`crate::JOURNAL_BODY_CAP`] and is cut.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
}

/// Marker that replaces a secret.
pub const REDACTED: &str = "REDACTED";

/// The path and query as recorded: CDN signatures, secret query values and
/// the given secrets are replaced by [`REDACTED`].
pub(crate) fn redact(
    path: &str,
    query: Option<&str>,
    secrets: &[&str],
) -> (String, Option<String>) {
    let path = match (path.starts_with("/cdn/"), path.rfind('/')) {
        (true, Some(i)) if i + 1 < path.len() => format!("{}/{REDACTED}", &path[..i]),
        _ => path.to_string(),
    };
    let query = query.map(|q| {
        let q = q
            .split('&')
            .map(|kv| match kv.split_once('=') {
                Some((k, _)) if is_secret(k) => format!("{k}={REDACTED}"),
                _ => kv.to_string(),
            })
            .collect::<Vec<_>>()
            .join("&");
        scrub(&q, secrets)
    });
    (scrub(&path, secrets), query)
}

fn is_secret(key: &str) -> bool {
    let k = key.to_ascii_lowercase();
    ["key", "secret", "password", "token", "auth", "signature"]
        .iter()
        .any(|s| k.contains(s))
}

/// `text` with every occurrence of a secret replaced.
fn scrub(text: &str, secrets: &[&str]) -> String {
    let mut out = text.to_string();
    for s in secrets.iter().filter(|s| !s.is_empty()) {
        if out.contains(s) {
            out = out.replace(s, REDACTED);
        }
    }
    out
}

/// A JSON value with secret-looking fields and the secrets replaced.
fn scrub_json(v: Value, secrets: &[&str]) -> Value {
    match v {
        Value::String(s) => Value::String(scrub(&s, secrets)),
        Value::Array(a) => Value::Array(a.into_iter().map(|x| scrub_json(x, secrets)).collect()),
        Value::Object(o) => Value::Object(
            o.into_iter()
                .map(|(k, x)| {
                    let x = if is_secret(&k) && !x.is_null() {
                        Value::String(REDACTED.into())
                    } else {
                        scrub_json(x, secrets)
                    };
                    (scrub(&k, secrets), x)
                })
                .collect(),
        ),
        other => other,
    }
}

/// The first `cap` bytes of `bytes` as text, or as hex when not UTF-8
/// (a character cut at the end does not count as not UTF-8).
fn text_or_hex(bytes: &[u8], secrets: &[&str]) -> (Option<String>, Option<String>) {
    match std::str::from_utf8(bytes) {
        Ok(s) => (Some(scrub(s, secrets)), None),
        Err(e) if e.error_len().is_none() => {
            let s = std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default();
            (Some(scrub(s, secrets)), None)
        }
        Err(_) => (None, Some(hex::encode(bytes))),
    }
}

/// A request body as recorded (None when empty).
pub(crate) fn record_request(
    bytes: &[u8],
    content_type: Option<&str>,
    secrets: &[&str],
) -> Option<RecordedBody> {
    if bytes.is_empty() {
        return None;
    }
    let cap = crate::JOURNAL_BODY_CAP;
    let mut rec = RecordedBody {
        content_type: content_type.map(|c| scrub(c, secrets)),
        size: bytes.len() as u64,
        ..RecordedBody::default()
    };
    if bytes.len() > cap {
        (rec.text, rec.hex) = text_or_hex(&bytes[..cap], secrets);
        rec.truncated = true;
        return Some(rec);
    }
    let ct = content_type.unwrap_or("").to_ascii_lowercase();
    if ct.contains("json")
        && let Ok(v) = serde_json::from_slice::<Value>(bytes)
    {
        rec.json = Some(scrub_json(v, secrets));
        return Some(rec);
    }
    if ct.starts_with("application/x-www-form-urlencoded") {
        let mut form = Map::new();
        for (k, v) in form_urlencoded::parse(bytes) {
            let v = if is_secret(&k) {
                REDACTED.to_string()
            } else {
                scrub(&v, secrets)
            };
            let k = scrub(&k, secrets);
            match form.get_mut(&k) {
                None => {
                    form.insert(k, Value::String(v));
                }
                Some(Value::Array(a)) => a.push(Value::String(v)),
                Some(prev) => {
                    let first = prev.take();
                    *prev = Value::Array(vec![first, Value::String(v)]);
                }
            }
        }
        rec.form = Some(form);
        return Some(rec);
    }
    (rec.text, rec.hex) = text_or_hex(bytes, secrets);
    Some(rec)
}

/// An answer body as recorded: exactly as sent, cut at the cap (None when
/// empty).
pub(crate) fn record_answer(
    bytes: &[u8],
    content_type: Option<&str>,
    secrets: &[&str],
) -> Option<RecordedBody> {
    if bytes.is_empty() {
        return None;
    }
    let cap = crate::JOURNAL_BODY_CAP;
    let kept = &bytes[..bytes.len().min(cap)];
    let (text, hex) = text_or_hex(kept, secrets);
    Some(RecordedBody {
        content_type: content_type.map(str::to_string),
        size: bytes.len() as u64,
        text,
        hex,
        truncated: bytes.len() > cap,
        ..RecordedBody::default()
    })
}

impl RecordedBody {
    /// The recorded bytes of an answer (its text, or its hex decoded).
    pub(crate) fn bytes(&self) -> Vec<u8> {
        match (&self.text, &self.hex) {
            (Some(t), _) => t.as_bytes().to_vec(),
            (None, Some(h)) => hex::decode(h).unwrap_or_default(),
            (None, None) => Vec::new(),
        }
    }

    /// Roughly the memory the record takes.
    fn weight(&self) -> usize {
        self.text.as_ref().map_or(0, String::len)
            + self.hex.as_ref().map_or(0, String::len)
            + self.json.as_ref().map_or(0, |v| v.to_string().len())
            + self.form.as_ref().map_or(0, |f| {
                f.iter().map(|(k, v)| k.len() + v.to_string().len()).sum()
            })
    }
}

impl JournalEntry {
    /// Roughly the memory the entry takes.
    fn weight(&self) -> usize {
        256 + self.path.len()
            + self.query.as_ref().map_or(0, String::len)
            + self.request.as_ref().map_or(0, RecordedBody::weight)
            + self.answer.as_ref().map_or(0, RecordedBody::weight)
    }
}

/// The bounded journal.
#[derive(Debug, Default)]
pub(crate) struct Journal {
    entries: VecDeque<(JournalEntry, usize)>,
    bytes: usize,
    seq: u64,
}

impl Journal {
    pub(crate) fn push(&mut self, mut e: JournalEntry) {
        self.seq += 1;
        e.seq = self.seq;
        let w = e.weight();
        self.bytes += w;
        self.entries.push_back((e, w));
        while self.entries.len() > crate::JOURNAL_CAP
            || (self.bytes > crate::JOURNAL_MAX_BYTES && self.entries.len() > 1)
        {
            if let Some((_, w)) = self.entries.pop_front() {
                self.bytes -= w;
            }
        }
    }

    /// Entries of the operations `routes` names (all when None), oldest
    /// first.
    pub(crate) fn list(&self, routes: Option<&[&str]>) -> Vec<JournalEntry> {
        self.entries
            .iter()
            .map(|(e, _)| e)
            .filter(|e| routes.is_none_or(|r| r.contains(&e.route.as_str())))
            .cloned()
            .collect()
    }

    pub(crate) fn clear(&mut self) {
        self.entries.clear();
        self.bytes = 0;
    }
}

/// Entries as NDJSON: one JSON object per line (the `--replay` format).
pub(crate) fn ndjson(entries: &[JournalEntry]) -> String {
    let mut out = String::new();
    for e in entries {
        if let Ok(line) = serde_json::to_string(e) {
            out.push_str(&line);
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(i: usize, route: &str) -> JournalEntry {
        JournalEntry {
            seq: 0,
            sim_time: i as f64,
            method: "GET".into(),
            path: "/v1/domains".into(),
            query: None,
            operation: "listDomains".into(),
            api: "infra".into(),
            route: route.into(),
            status: Some(200),
            fault: None,
            request: None,
            answer: None,
        }
    }

    #[test]
    fn cdn_signature_and_secret_query_values_are_redacted() {
        let (p, q) = redact(
            "/cdn/origins/123/1700000000/abcdef",
            Some("api_key=s3&limit=2&x=THEKEY"),
            &["THEKEY"],
        );
        assert_eq!(p, "/cdn/origins/123/1700000000/REDACTED");
        assert_eq!(q.as_deref(), Some("api_key=REDACTED&limit=2&x=REDACTED"));
        let (p, q) = redact("/v1/domains", None, &[]);
        assert_eq!(p, "/v1/domains");
        assert_eq!(q, None);
    }

    #[test]
    fn request_bodies_are_kept_by_kind_with_secrets_redacted() {
        let form = record_request(
            b"content=1.2.3.4&type=A&rootPassword=hunter2&hdd%5B0%5D=a&hdd%5B0%5D=b",
            Some("application/x-www-form-urlencoded"),
            &[],
        )
        .unwrap();
        let f = form.form.unwrap();
        assert_eq!(f["content"], "1.2.3.4");
        assert_eq!(f["rootPassword"], REDACTED);
        assert_eq!(f["hdd[0]"], serde_json::json!(["a", "b"]));
        let json = record_request(
            br#"{"urls":["/a"],"nested":{"secret":"x","note":"has THEKEY inside"}}"#,
            Some("application/json"),
            &["THEKEY"],
        )
        .unwrap();
        let j = json.json.unwrap();
        assert_eq!(j["urls"][0], "/a");
        assert_eq!(j["nested"]["secret"], REDACTED);
        assert_eq!(j["nested"]["note"], "has REDACTED inside");
        let text = record_request(b"plain THEKEY", Some("text/plain"), &["THEKEY"]).unwrap();
        assert_eq!(text.text.as_deref(), Some("plain REDACTED"));
        let bin = record_request(&[0xff, 0x00], None, &[]).unwrap();
        assert_eq!(bin.hex.as_deref(), Some("ff00"));
        assert!(record_request(b"", None, &[]).is_none());
    }

    #[test]
    fn long_bodies_are_cut_with_a_marker() {
        let big = vec![b'a'; crate::JOURNAL_BODY_CAP + 10];
        let r = record_request(&big, Some("application/json"), &[]).unwrap();
        assert!(r.truncated && r.json.is_none());
        assert_eq!(r.size as usize, big.len());
        assert_eq!(r.text.unwrap().len(), crate::JOURNAL_BODY_CAP);
        let a = record_answer(&big, None, &[]).unwrap();
        assert!(a.truncated);
        let small = record_answer(b"{\"b\":1,\"a\":2}", Some("application/json"), &[]).unwrap();
        assert_eq!(small.bytes(), b"{\"b\":1,\"a\":2}");
    }

    #[test]
    fn the_journal_keeps_the_newest_entries() {
        let mut j = Journal::default();
        for i in 0..crate::JOURNAL_CAP + 5 {
            j.push(entry(i, if i % 2 == 0 { "A" } else { "B" }));
        }
        let all = j.list(None);
        assert_eq!(all.len(), crate::JOURNAL_CAP);
        assert_eq!(all[0].seq, 6);
        assert!(j.list(Some(&["A"])).iter().all(|e| e.route == "A"));
        j.clear();
        assert!(j.list(None).is_empty());
    }

    #[test]
    fn the_journal_stays_within_its_byte_budget() {
        let mut j = Journal::default();
        let body = vec![b'x'; crate::JOURNAL_BODY_CAP];
        for i in 0..crate::JOURNAL_CAP {
            let mut e = entry(i, "A");
            e.answer = record_answer(&body, None, &[]);
            j.push(e);
        }
        assert!(j.bytes <= crate::JOURNAL_MAX_BYTES, "{}", j.bytes);
        assert!(j.list(None).len() < crate::JOURNAL_CAP);
        assert_eq!(j.list(None).last().unwrap().seq, crate::JOURNAL_CAP as u64);
    }

    #[test]
    fn ndjson_is_one_entry_per_line_and_reads_back() {
        let entries = vec![entry(1, "A"), entry(2, "B")];
        let text = ndjson(&entries);
        let back: Vec<JournalEntry> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(back, entries);
    }
}
