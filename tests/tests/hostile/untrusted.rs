//! Answers that are not what they claim stay data: a redirect after a write leaves its
//! outcome unknown, more than 100 headers is one attempt and a clear error, a number
//! too large for a float costs its field only, and a repeated key is read once (the
//! first) and warned of.

use std::time::Duration;

use hostapi::Error;
use hostapi::client::RetryPolicy;
use hostapi::error::TransportCause;
use hostapi::types::BareMetalId;

use super::server::{Act, Server, reply, reply_with};
use super::{builder, client};

fn retrying(base_url: &str) -> hostapi::Client {
    builder(base_url)
        .retry_policy(
            RetryPolicy::default()
                .max_attempts(4)
                .initial_backoff(Duration::from_millis(5)),
        )
        .build()
        .unwrap()
}

#[tokio::test]
async fn a_redirect_after_a_write_leaves_its_outcome_unknown() {
    for status in [301, 302, 303, 307, 308] {
        let server = Server::start(move |_, _| {
            reply_with(
                status,
                &[("location", "https://elsewhere.example/done")],
                "",
            )
        })
        .await;
        let client = retrying(&server.base_url);
        let id = BareMetalId::from(20001u32);
        let error = client.bare_metals().power_cycle(&id).await.unwrap_err();
        assert!(error.is_outcome_unknown(), "{status}: {error:?}");
        match &error {
            Error::OutcomeUnknown(unknown) => {
                assert!(
                    matches!(&unknown.cause, Error::Redirect(r) if r.status == status),
                    "{error:?}"
                );
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            server.seen().len(),
            1,
            "a redirected POST is not sent again"
        );
        // A read redirected is a plain error: nothing was changed.
        let read = client.bare_metals().get(&id).await.unwrap_err();
        assert!(matches!(read, Error::Redirect(_)), "{read:?}");
    }
}

/// An answer whose head holds `count` headers.
fn many_headers(count: usize) -> Act {
    let mut head = "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n".to_owned();
    for i in 0..count {
        head.push_str(&format!("x-filler-{i}: {i}\r\n"));
    }
    let body = r#"{"bareMetals":[]}"#;
    head.push_str(&format!(
        "content-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    ));
    Act::Reply(head.into_bytes())
}

#[tokio::test]
async fn more_than_100_headers_is_one_attempt_and_a_clear_error() {
    let server = Server::start(|_, _| many_headers(150)).await;
    let client = retrying(&server.base_url);
    let error = client.bare_metals().list().await.unwrap_err();
    match &error {
        Error::Transport(transport) => {
            assert_eq!(
                transport.cause,
                TransportCause::AnswerHeadTooLarge,
                "{error:?}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(!error.is_retryable(), "{error}");
    assert_eq!(server.seen().len(), 1, "not retried");
    assert!(
        error.to_string().contains("more than 100 headers"),
        "{error}"
    );
    // After a write, the request reached the server: the outcome is unknown.
    let error = client
        .bare_metals()
        .power_cycle(&BareMetalId::from(20001u32))
        .await
        .unwrap_err();
    assert!(error.is_outcome_unknown(), "{error:?}");
    assert_eq!(server.seen().len(), 2);
    // Up to the limit, the answer reads.
    let server = Server::start(|_, _| many_headers(90)).await;
    assert!(client_of(&server).bare_metals().list().await.is_ok());
}

fn client_of(server: &Server) -> hostapi::Client {
    client(&server.base_url)
}

#[tokio::test]
async fn a_number_too_large_for_a_float_costs_its_field_only() {
    let server = Server::start(|_, _| {
        reply(
            200,
            "application/json",
            r#"{"bareMetals":[
                {"bareMetal":{"bareMetalId":1,"reference":"one","server":{"numberOfCpus":1e999}}},
                {"bareMetal":{"bareMetalId":2,"reference":"two","server":{"numberOfCpus":2}}},
                {"bareMetal":{"bareMetalId":3,"reference":-1E+400}}
            ]}"#,
        )
    })
    .await;
    let listing = client_of(&server).bare_metals().list().await.unwrap();
    let items = listing.items();
    assert_eq!(items.len(), 3, "{listing:?}");
    assert!(listing.unreadable().is_empty(), "{listing:?}");
    let first = items[0].hardware.as_ref().unwrap();
    assert_eq!(first.cpu_count, None);
    assert_eq!(
        first.extra.get("numberOfCpus"),
        Some(&serde_json::json!("1e999"))
    );
    assert_eq!(items[0].reference.as_deref(), Some("one"));
    assert_eq!(items[1].hardware.as_ref().unwrap().cpu_count, Some(2));
    assert_eq!(items[2].id, BareMetalId::from(3u32));
}

#[tokio::test]
async fn a_repeated_key_reads_its_first_value_and_is_warned_of() {
    let body = r#"{"bareMetals":[{"bareMetal":{"bareMetalId":1,"reference":"first","reference":"second"}}]}"#;
    let server = Server::start(move |_, _| reply(200, "application/json", body)).await;
    let listing = client_of(&server).bare_metals().list().await.unwrap();
    assert_eq!(listing.items()[0].reference.as_deref(), Some("first"));
    assert!(listing.items()[0].extra.get("reference").is_none());
    // Strictly, the warning is the error.
    let strict = builder(&server.base_url)
        .retry_policy(RetryPolicy::never())
        .strict(true)
        .build()
        .unwrap();
    let error = strict.bare_metals().list().await.unwrap_err();
    assert!(error.to_string().contains("repeats a key"), "{error}");
    assert!(error.to_string().contains("`reference`"), "{error}");
}
