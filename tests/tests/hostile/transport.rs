//! Transport failures told by their cause: a certificate no one trusts (a typed,
//! non-retryable error, and the request never leaves), a server that says nothing
//! (a timeout), a connection closed without an answer. After a write, a failure that
//! may have come after the request reached the server is an unknown outcome, never a
//! plain "failed".

use std::sync::Arc;
use std::time::Duration;

use hostapi::Error;
use hostapi::client::RetryPolicy;
use hostapi::error::TransportCause;
use hostapi::types::BareMetalId;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};

use super::builder;
use super::server::{Act, Server, reply};

/// A TLS acceptor presenting `tests/fixtures/tls/<name>.crt` (self-signed: no client
/// trusts it).
fn acceptor(name: &str) -> tokio_rustls::TlsAcceptor {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let pem = |ext: &str| hostapi_tests::fixture(&format!("tls/{name}.{ext}"));
    let certificate = CertificateDer::from_pem_slice(pem("crt").as_bytes()).expect("a certificate");
    let key = PrivateKeyDer::from_pem_slice(pem("key").as_bytes()).expect("a key");
    let config = rustls::ServerConfig::builder()
        .with_no_client_auth()
        .with_single_cert(vec![certificate], key)
        .expect("a server configuration");
    tokio_rustls::TlsAcceptor::from(Arc::new(config))
}

fn cause(error: &Error) -> Option<TransportCause> {
    match error {
        Error::Transport(e) => Some(e.cause),
        Error::OutcomeUnknown(e) => cause(&e.cause),
        _ => None,
    }
}

#[tokio::test]
async fn an_untrusted_certificate_is_told_apart_and_not_retried() {
    let server = Server::start_tls(
        |_, _| reply(200, "application/json", r#"{"bareMetals":[]}"#),
        acceptor("localhost"),
    )
    .await;
    let client = builder(&format!("https://127.0.0.1:{}", server.port))
        .retry_policy(
            RetryPolicy::default()
                .max_attempts(3)
                .initial_backoff(Duration::from_millis(5)),
        )
        .build()
        .unwrap();
    let error = client.bare_metals().list().await.unwrap_err();
    assert_eq!(
        cause(&error),
        Some(TransportCause::CertificateUntrusted),
        "{error:?}"
    );
    assert!(!error.is_retryable(), "{error}");
    assert_eq!(error.call().map(|c| c.attempts), Some(1), "{error:?}");
    assert!(error.to_string().contains("not trusted"), "{error}");
    // The handshake failed: no request was read, so no key went anywhere.
    assert!(server.seen().is_empty(), "{:?}", server.seen());
    // A write that never left is not of unknown outcome.
    let id = BareMetalId::from(20001u32);
    let error = client.bare_metals().power_cycle(&id).await.unwrap_err();
    assert!(!error.is_outcome_unknown(), "{error:?}");
    assert_eq!(cause(&error), Some(TransportCause::CertificateUntrusted));
}

#[tokio::test]
async fn silence_is_a_timeout_and_a_closed_connection_is_a_lost_one() {
    for (act, expected) in [
        (0, TransportCause::Timeout),
        (1, TransportCause::ConnectionLost),
    ] {
        let server = Server::start(move |_, _| if act == 0 { Act::Hang } else { Act::Close }).await;
        let client = builder(&server.base_url)
            .timeout(Duration::from_millis(300))
            .retry_policy(RetryPolicy::never())
            .build()
            .unwrap();
        let id = BareMetalId::from(20001u32);
        let read = client.bare_metals().get(&id).await.unwrap_err();
        assert_eq!(cause(&read), Some(expected), "{read:?}");
        assert!(!read.is_outcome_unknown(), "{read:?}");
        assert!(read.is_retryable(), "{read}");
        // The same failure after a POST: the request may have been applied.
        let write = client.bare_metals().power_cycle(&id).await.unwrap_err();
        assert!(write.is_outcome_unknown(), "{expected:?}: {write:?}");
        assert_eq!(cause(&write), Some(expected), "{write:?}");
        assert_eq!(write.operation(), Some("powerCycleBareMetal"));
        assert_eq!(server.seen().len(), 2);
    }
}
