//! A server that echoes the request into its error answer (as some do) cannot make a
//! credential appear in any message, debug output or log line: not the API key, not
//! the CDN secret, not a CDN signature.

use std::error::Error as _;
use std::sync::{Arc, Mutex};

use super::server::{Act, Seen, Server, reply};
use super::{API_KEY, CDN_SECRET, client};

/// The ways an echoing server words its error.
fn echo(format: usize, status: u16, seen: &Seen) -> Act {
    // The echo carries the request, and the CDN secret too for good measure.
    let echoed = format!("{} secret={CDN_SECRET}", seen.as_text());
    let quoted = serde_json::to_string(&echoed).unwrap();
    match format {
        0 => reply(
            status,
            "application/json",
            &format!(
                r#"{{"errorCode":"{status}","errorMessage":{quoted},"userMessage":{quoted},"correlationId":{quoted},"reference":{quoted}}}"#
            ),
        ),
        1 => reply(status, "text/plain", &echoed),
        2 => reply(
            status,
            "text/html",
            &format!("<html><head><title>{echoed}</title></head><body>{echoed}</body></html>"),
        ),
        _ => reply(
            status,
            "application/json",
            &format!(r#"{{"request":{quoted},"X-Svc-Auth":"{API_KEY}"}}"#),
        ),
    }
}

/// Everything printed about `error`: its message, debug form and causes.
fn printed(error: &hostapi::Error) -> String {
    let mut text = format!("{error}\n{error:?}\n");
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(&format!("{cause}\n{cause:?}\n"));
        source = cause.source();
    }
    text
}

/// A tracing subscriber writing to a buffer, for the log lines.
fn capture() -> (Arc<Mutex<Vec<u8>>>, tracing::subscriber::DefaultGuard) {
    #[derive(Clone)]
    struct Buffer(Arc<Mutex<Vec<u8>>>);
    impl std::io::Write for Buffer {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let buffer = Arc::new(Mutex::new(Vec::new()));
    let writer = Buffer(buffer.clone());
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_writer(move || writer.clone())
        .finish();
    (buffer, tracing::subscriber::set_default(subscriber))
}

#[tokio::test]
async fn echoed_credentials_never_print() {
    let (logs, _guard) = capture();
    let mut checked = 0;
    for status in [400, 401, 403, 404, 409, 422, 429, 500, 502, 503] {
        for format in 0..4 {
            let server = Server::start(move |_, seen| echo(format, status, seen)).await;
            let client = client(&server.base_url);
            let v1 = client
                .bare_metals()
                .get(&"20001".parse().unwrap())
                .await
                .unwrap_err();
            let cdn = client
                .cdn()
                .origins()
                .get(&"101".parse().unwrap())
                .await
                .unwrap_err();
            let signature = server.seen()[1].path.rsplit('/').next().unwrap().to_owned();
            for error in [&v1, &cdn] {
                let text = printed(error);
                for secret in [API_KEY, CDN_SECRET, signature.as_str()] {
                    assert!(
                        !text.contains(secret),
                        "status {status}, format {format}: `{secret}` in\n{text}"
                    );
                }
                assert!(
                    text.contains("[REDACTED]"),
                    "the echo was scrubbed, not lost: {text}"
                );
                checked += 1;
            }
        }
    }
    let logs = String::from_utf8_lossy(&logs.lock().unwrap()).into_owned();
    assert!(
        !logs.contains(API_KEY) && !logs.contains(CDN_SECRET),
        "{logs}"
    );
    assert_eq!(checked, 80);
}

#[tokio::test]
async fn secret_looking_fields_of_an_answer_are_redacted_in_output() {
    let server = Server::start(|_, _| {
        reply(200, "application/json", r#"{"bareMetal":{"bareMetalId":1,"apiToken":"tok-123","nested":{"Password":"pw-456"}}}"#)
    })
    .await;
    let server_record = client(&server.base_url)
        .bare_metals()
        .get(&"1".parse().unwrap())
        .await
        .unwrap();
    let shown = format!(
        "{:?} {}",
        server_record,
        serde_json::to_string(&server_record).unwrap()
    );
    assert!(
        !shown.contains("tok-123") && !shown.contains("pw-456"),
        "{shown}"
    );
    // The values are still there for code that asks.
    assert_eq!(server_record.extra["apiToken"], "tok-123");
    let exposed = hostapi::types::expose_secrets(|| serde_json::to_string(&server_record).unwrap());
    assert!(exposed.contains("tok-123"));
}
