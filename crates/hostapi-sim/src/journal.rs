//! The request journal (`GET /_sim/requests`): what each request was, which
//! operation it named, how it was answered and which fault spoilt it. The
//! newest [`crate::JOURNAL_CAP`] entries are kept; secrets are redacted.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

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
    /// The operation it named (`""` when none).
    pub operation: String,
    /// The status answered; absent when the connection was dropped.
    pub status: Option<u16>,
    /// The fault applied (`"503"`, `"drop-after"`, `"latency"`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fault: Option<String>,
}

/// Marker that replaces a secret.
pub const REDACTED: &str = "REDACTED";

/// The path and query as recorded: CDN signatures and secret query values
/// are replaced by [`REDACTED`].
pub(crate) fn redact(path: &str, query: Option<&str>) -> (String, Option<String>) {
    let path = match (path.starts_with("/cdn/"), path.rfind('/')) {
        (true, Some(i)) if i + 1 < path.len() => format!("{}/{REDACTED}", &path[..i]),
        _ => path.to_string(),
    };
    let query = query.map(|q| {
        q.split('&')
            .map(|kv| match kv.split_once('=') {
                Some((k, _)) if is_secret(k) => format!("{k}={REDACTED}"),
                _ => kv.to_string(),
            })
            .collect::<Vec<_>>()
            .join("&")
    });
    (path, query)
}

fn is_secret(key: &str) -> bool {
    let k = key.to_ascii_lowercase();
    ["key", "secret", "password", "token", "auth", "signature"]
        .iter()
        .any(|s| k.contains(s))
}

/// The bounded journal.
#[derive(Debug, Default)]
pub(crate) struct Journal {
    entries: VecDeque<JournalEntry>,
    seq: u64,
}

impl Journal {
    pub(crate) fn push(&mut self, mut e: JournalEntry) {
        self.seq += 1;
        e.seq = self.seq;
        if self.entries.len() >= crate::JOURNAL_CAP {
            self.entries.pop_front();
        }
        self.entries.push_back(e);
    }

    /// Entries of `operation` (all when None), oldest first.
    pub(crate) fn list(&self, operation: Option<&str>) -> Vec<JournalEntry> {
        self.entries
            .iter()
            .filter(|e| operation.is_none_or(|o| e.operation == o))
            .cloned()
            .collect()
    }

    pub(crate) fn clear(&mut self) {
        self.entries.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cdn_signature_and_secret_query_values_are_redacted() {
        let (p, q) = redact(
            "/cdn/origins/123/1700000000/abcdef",
            Some("api_key=s3&limit=2"),
        );
        assert_eq!(p, "/cdn/origins/123/1700000000/REDACTED");
        assert_eq!(q.as_deref(), Some("api_key=REDACTED&limit=2"));
        let (p, q) = redact("/v1/domains", None);
        assert_eq!(p, "/v1/domains");
        assert_eq!(q, None);
    }

    #[test]
    fn the_journal_keeps_the_newest_entries() {
        let mut j = Journal::default();
        for i in 0..crate::JOURNAL_CAP + 5 {
            j.push(JournalEntry {
                seq: 0,
                sim_time: i as f64,
                method: "GET".into(),
                path: "/v1/domains".into(),
                query: None,
                operation: if i % 2 == 0 { "a" } else { "b" }.into(),
                status: Some(200),
                fault: None,
            });
        }
        let all = j.list(None);
        assert_eq!(all.len(), crate::JOURNAL_CAP);
        assert_eq!(all[0].seq, 6);
        assert!(j.list(Some("a")).iter().all(|e| e.operation == "a"));
        j.clear();
        assert!(j.list(None).is_empty());
    }
}
