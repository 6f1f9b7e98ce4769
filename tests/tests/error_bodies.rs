//! Error answers become typed errors that keep the status and the body: the
//! simulator's error objects in each interface's spelling, its fault answers (the 502
//! HTML page of a proxy among them), and shapes no interface documents — another JSON
//! shape, an HTML page, an empty body, plain text, bytes that are not UTF-8, a body too
//! large to keep whole.

use hostapi::bare_metal::InstallRequest;
use hostapi::client::RetryPolicy;
use hostapi::error::{ErrorBody, ErrorBodyKind, ServiceError};
use hostapi::types::{BareMetalId, CloudServerId, DnsRecordId, OperatingSystemId, VirtualServerId};
use hostapi::{Client, Error};
use hostapi_sim::{FaultConfig, FaultKind, FaultWeights, Sim, SimConfig};
use hostapi_tests::client;
use httpmock::Method::{DELETE, GET};
use httpmock::MockServer;

async fn sim(faults: FaultConfig) -> Sim {
    Sim::start(SimConfig {
        seed: 11,
        time_scale: 1000.0,
        faults,
        ..SimConfig::default()
    })
    .await
    .expect("the simulator starts")
}

fn sim_client(sim: &Sim, api_key: &str, cdn_secret: &str) -> Client {
    hostapi_tests::sim_client_builder(sim, api_key, cdn_secret)
        .retry_policy(RetryPolicy::never())
        .timeout(std::time::Duration::from_secs(10))
        .build()
        .expect("client builds")
}

/// The status and the body of an `Error::Status`, naming the operation.
fn status_of(result: Result<impl std::fmt::Debug, Error>, operation: &str) -> (u16, ErrorBody) {
    match result {
        Err(Error::Status(error)) => {
            assert_eq!(error.call.operation, operation);
            (error.status, error.body)
        }
        other => panic!("{operation}: expected Error::Status, got {other:?}"),
    }
}

/// The message of `error`, after checking it names `operation` (the message itself
/// does not: the operation is the error's [`CallInfo`](hostapi::error::CallInfo)).
/// The message after the operation, which `Display` names first.
fn shown(error: &Error, operation: &str) -> String {
    assert_eq!(error.operation(), Some(operation), "{error:?}");
    let text = error.to_string();
    match text
        .strip_prefix(operation)
        .and_then(|t| t.strip_prefix(": "))
    {
        Some(message) => message.to_owned(),
        None => panic!("the message does not name {operation} first: {text}"),
    }
}

fn service(body: &ErrorBody) -> &ServiceError {
    body.service_error()
        .unwrap_or_else(|| panic!("not the service's error object: {body:?}"))
}

#[tokio::test]
async fn the_simulators_error_objects_are_read_in_every_spelling() {
    let sim = sim(FaultConfig::default()).await;
    let client = sim_client(&sim, sim.api_key(), sim.cdn_secret());

    // v1: errorCode a string, errorDetails an object.
    let (status, body) = status_of(
        client
            .virtual_servers()
            .get(&VirtualServerId::from(99u32))
            .await,
        "getVirtualServer",
    );
    assert_eq!(status, 404);
    let error = service(&body);
    assert_eq!(error.code.as_deref(), Some("404"));
    assert!(error.message.is_some() && error.user_message.is_some());
    assert!(
        error
            .correlation_id
            .as_deref()
            .is_some_and(|c| c.len() == 36)
    );
    assert_eq!(error.details, Some(serde_json::json!({})));
    assert!(body.text.contains("\"errorCode\":\"404\""), "{}", body.text);
    assert!(!body.truncated);

    // v1 bare metal: errorCode an integer; a field named in errorDetails.
    let (status, body) = status_of(
        client
            .bare_metals()
            .install(
                &BareMetalId::from(20001u32),
                &InstallRequest::new(OperatingSystemId::from(121u32)),
            )
            .await,
        "installBareMetal",
    );
    assert_eq!(status, 400);
    let error = service(&body);
    assert_eq!(error.code.as_deref(), Some("400"));
    assert!(body.text.contains("\"errorCode\":400"), "{}", body.text);
    assert!(
        error.details.as_ref().and_then(|d| d.get("osId")).is_some(),
        "{body:?}"
    );

    // Cloud: errorCode an integer, errorDetails an array, a reference.
    let (status, body) = status_of(
        client
            .cloud_servers()
            .get(&CloudServerId::new("no-such-server").unwrap())
            .await,
        "getVirtualServer",
    );
    assert_eq!(status, 404);
    let error = service(&body);
    assert_eq!(error.code.as_deref(), Some("404"));
    assert!(error.reference.is_some(), "{body:?}");
    assert_eq!(error.details, Some(serde_json::json!([])));

    // A wrong key: 403, an authentication error (a missing one is 401).
    let wrong = sim_client(&sim, "not-the-key", "not-the-secret");
    let error = wrong.domains().list().await.unwrap_err();
    assert!(error.is_auth(), "{error:?}");
    assert_eq!(error.status(), Some(403));

    // CDN: a wrong secret signs wrongly: 403 with the CDN's error object.
    let (status, body) = status_of(wrong.cdn().origins().list().await, "listOrigins");
    assert_eq!(status, 403);
    assert_eq!(service(&body).code.as_deref(), Some("403"));

    // An answer without a body (delete) keeps its error the same way.
    let (status, body) = status_of(
        client
            .domains()
            .records(&"acme-1.com".parse().unwrap())
            .delete(&DnsRecordId::new("12345").unwrap())
            .await,
        "deleteDnsRecord",
    );
    assert_eq!(status, 404);
    assert_eq!(service(&body).code.as_deref(), Some("404"));
}

#[tokio::test]
async fn the_simulators_fault_answers_are_typed_and_keep_their_body() {
    for (kind, status) in [
        (FaultKind::TooManyRequests, 429),
        (FaultKind::InternalServerError, 500),
        (FaultKind::ServiceUnavailable, 503),
        (FaultKind::BadGateway, 502),
    ] {
        let sim = sim(FaultConfig {
            rate: 1.0,
            weights: FaultWeights::only(kind),
            retry_after_secs: 0,
            ..FaultConfig::default()
        })
        .await;
        let client = sim_client(&sim, sim.api_key(), sim.cdn_secret());
        let (got, body) = status_of(client.domains().list().await, "listDomains");
        assert_eq!(got, status, "{kind:?}");
        if kind == FaultKind::BadGateway {
            // A proxy's page, reported as such, with its title.
            assert_eq!(
                body.kind,
                ErrorBodyKind::Html {
                    title: Some("502 Bad Gateway".to_owned())
                }
            );
            assert!(body.text.contains("nginx"));
            let error = client.domains().list().await.unwrap_err();
            assert_eq!(
                shown(&error, "listDomains"),
                "the server answered 502 Bad Gateway with an HTML page (from a proxy?): 502 Bad Gateway"
            );
        } else {
            let error = service(&body);
            assert_eq!(error.code.as_deref(), Some(status.to_string().as_str()));
            assert!(error.message.is_some());
        }
    }
}

/// A client of a mock server whose every GET of `path` answers `status` with `body`.
async fn answer(server: &MockServer, status: u16, content_type: &str, body: Vec<u8>) {
    server
        .mock_async(|when, then| {
            when.method(GET).path("/v1/domains");
            then.status(status)
                .header("content-type", content_type)
                .body(body);
        })
        .await;
}

async fn domains_error(status: u16, content_type: &str, body: impl Into<Vec<u8>>) -> Error {
    let server = MockServer::start_async().await;
    answer(&server, status, content_type, body.into()).await;
    client(&server).domains().list().await.unwrap_err()
}

#[tokio::test]
async fn unknown_error_shapes_keep_status_and_text() {
    // JSON of another shape.
    let error = domains_error(
        418,
        "application/json",
        r#"{"error":"teapot","retry":false}"#,
    )
    .await;
    let (status, body) = status_of(Err::<(), _>(error), "listDomains");
    assert_eq!(status, 418);
    assert_eq!(body.kind, ErrorBodyKind::OtherJson);
    assert_eq!(body.text, r#"{"error":"teapot","retry":false}"#);

    let error = domains_error(500, "application/json", "[1,2,3]").await;
    assert_eq!(
        shown(&error, "listDomains"),
        "the server answered 500 Internal Server Error: [1,2,3]"
    );
    let (_, body) = status_of(Err::<(), _>(error), "listDomains");
    assert_eq!(body.kind, ErrorBodyKind::OtherJson);

    // An HTML page without a title.
    let page = "<!DOCTYPE html>\n<html><body><h1>Gateway Timeout</h1></body></html>";
    let error = domains_error(504, "text/html", page).await;
    assert_eq!(
        shown(&error, "listDomains"),
        "the server answered 504 Gateway Timeout with an HTML page (from a proxy?)"
    );
    let (status, body) = status_of(Err::<(), _>(error), "listDomains");
    assert_eq!(status, 504);
    assert_eq!(body.kind, ErrorBodyKind::Html { title: None });
    assert_eq!(body.text, page);

    // No body at all.
    let error = domains_error(500, "application/json", "").await;
    assert_eq!(
        shown(&error, "listDomains"),
        "the server answered 500 Internal Server Error"
    );
    let (_, body) = status_of(Err::<(), _>(error), "listDomains");
    assert_eq!(body, ErrorBody::parse(b""));
    assert_eq!(body.kind, ErrorBodyKind::Empty);

    // Plain text, and bytes that are not UTF-8.
    let error = domains_error(400, "text/plain", "bad request\n").await;
    let (_, body) = status_of(Err::<(), _>(error), "listDomains");
    assert_eq!(
        (body.kind, body.text.as_str()),
        (ErrorBodyKind::Text, "bad request\n")
    );
    let error = domains_error(500, "application/octet-stream", vec![0xff, 0xfe, b'x']).await;
    let (_, body) = status_of(Err::<(), _>(error), "listDomains");
    assert_eq!(body.kind, ErrorBodyKind::Text);
    assert_eq!(body.text, "\u{fffd}\u{fffd}x");
}

#[tokio::test]
async fn a_huge_error_body_is_cut_and_the_message_stays_short() {
    // Two megabytes: text, then an HTML page whose title comes first.
    let text = "0123456789".repeat(200_000);
    let error = domains_error(500, "text/plain", text.clone()).await;
    let shown = error.to_string();
    assert!(shown.len() < 400, "{} characters", shown.len());
    assert!(
        shown.contains("body longer than 65536 bytes, cut"),
        "{shown}"
    );
    let (status, body) = status_of(Err::<(), _>(error), "listDomains");
    assert_eq!(status, 500);
    assert!(body.truncated);
    assert_eq!(body.text.len(), ErrorBody::MAX_LEN);
    assert_eq!(body.text, text[..ErrorBody::MAX_LEN]);
    assert_eq!(body.kind, ErrorBodyKind::Text);

    let page = format!(
        "<html><head><title>Request Entity Too Large</title></head><body>{}</body></html>",
        "x".repeat(3_000_000)
    );
    let error = domains_error(413, "text/html", page).await;
    let (status, body) = status_of(Err::<(), _>(error), "listDomains");
    assert_eq!(status, 413);
    assert!(body.truncated);
    assert_eq!(
        body.kind,
        ErrorBodyKind::Html {
            title: Some("Request Entity Too Large".to_owned())
        }
    );

    // A huge error object: the start is kept, it no longer parses as one.
    let object = format!(
        r#"{{"errorCode":"500","errorMessage":"{}"}}"#,
        "m".repeat(100_000)
    );
    let error = domains_error(500, "application/json", object).await;
    let (_, body) = status_of(Err::<(), _>(error), "listDomains");
    assert!(body.truncated);
    assert_eq!(body.kind, ErrorBodyKind::Text);
    assert!(body.text.starts_with(r#"{"errorCode":"500""#));
}

#[tokio::test]
async fn an_html_page_where_json_was_expected_is_a_decode_error_saying_so() {
    let server = MockServer::start_async().await;
    answer(
        &server,
        200,
        "text/html",
        b"<html><head><title>Sign in</title></head></html>".to_vec(),
    )
    .await;
    match client(&server).domains().list().await {
        Err(Error::Decode(error)) => {
            assert_eq!(
                error.call.as_ref().map(|c| c.operation),
                Some("listDomains")
            );
            assert_eq!(error.path, "");
            assert_eq!(
                error.message,
                "the answer is an HTML page, not JSON (from a proxy?)"
            );
            // The page itself (and its title) is in the excerpt.
            assert!(error.body_excerpt.starts_with("<html>"), "{error:?}");
            assert!(
                error.body_excerpt.contains("<title>Sign in</title>"),
                "{error:?}"
            );
        }
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn an_error_answer_to_a_call_without_a_body_is_typed_too() {
    let server = MockServer::start_async().await;
    server
        .mock_async(|when, then| {
            when.method(DELETE)
                .path("/v1/domains/example.com/dnsRecords/7");
            then.status(409)
                .header("content-type", "application/json")
                .body(r#"{"errorCode":"409","errorMessage":"busy","correlationId":"c-9"}"#);
        })
        .await;
    let error = client(&server)
        .domains()
        .records(&"example.com".parse().unwrap())
        .delete(&DnsRecordId::new("7").unwrap())
        .await
        .unwrap_err();
    assert_eq!(
        shown(&error, "deleteDnsRecord"),
        "the server answered 409 Conflict: busy (error code 409, correlation id c-9)"
    );
    let (status, body) = status_of(Err::<(), _>(error), "deleteDnsRecord");
    assert_eq!(status, 409);
    assert_eq!(service(&body).correlation_id.as_deref(), Some("c-9"));
}
