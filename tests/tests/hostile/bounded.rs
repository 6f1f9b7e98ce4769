//! Answers are read up to a size: past it, a typed error, the connection dropped, and
//! memory bounded (a 10 GB answer, or one without end, does not take the process down).

use std::time::{Duration, Instant};

use hostapi::Error;

use super::builder;
use super::server::{Act, Server};

/// The resident set of this process, in bytes (Linux).
fn resident() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: u64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0);
    pages * 4096
}

#[tokio::test]
async fn huge_and_endless_answers_stop_at_the_limit() {
    let limit = 4 * 1024 * 1024;
    let heads = [
        // Announced: 10 GB.
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 10737418240\r\n\r\n"
            .to_owned(),
        // No length at all: the body ends when the connection does.
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n".to_owned(),
    ];
    for head in heads {
        let server = Server::start(move |_, _| Act::Stream {
            head: head.clone(),
            // Far more than the limit; the client stops reading first.
            total: 512 * 1024 * 1024,
        })
        .await;
        let client = builder(&server.base_url)
            .max_answer_bytes(limit)
            .retry_policy(hostapi::client::RetryPolicy::never())
            .build()
            .unwrap();
        let before = resident();
        let started = Instant::now();
        let error = client.bare_metals().list().await.unwrap_err();
        assert!(
            matches!(&error, Error::AnswerTooLarge(e) if e.limit == limit),
            "{error:?}"
        );
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "stopped early: {:?}",
            started.elapsed()
        );
        let grown = resident().saturating_sub(before);
        assert!(
            grown < 64 * 1024 * 1024,
            "the resident set grew by {grown} bytes"
        );
    }
}

#[tokio::test]
async fn error_answers_are_cut_at_64_kib() {
    let server = Server::start(|_, _| Act::Stream {
        head: "HTTP/1.1 500 Oops\r\ncontent-type: text/plain\r\n\r\n".to_owned(),
        total: 256 * 1024 * 1024,
    })
    .await;
    let client = super::client(&server.base_url);
    match client.bare_metals().list().await.unwrap_err() {
        Error::Status(error) => {
            assert!(error.body.truncated);
            assert_eq!(error.body.text.len(), hostapi::error::ErrorBody::MAX_LEN);
        }
        other => panic!("{other:?}"),
    }
}
