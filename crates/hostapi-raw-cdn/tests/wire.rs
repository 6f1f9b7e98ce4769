//! The generated CDN client on the wire: a GET whose path ends in the timestamp and
//! the signature. (The facade's hooks compute the signature; here the test passes one
//! computed outside Rust.)

use hostapi_hooks::Hooks;
use hostapi_raw_cdn::Client;
use httpmock::Method::GET;
use httpmock::MockServer;

/// `printf %s 'raw-wire-secret1700000000/origins/C123/55' | sha1sum`
const SIGNATURE: &str = "e496eac3e26e6a78fe5cee26ab11bd334c366fb5";

#[tokio::test]
async fn signed_paths_carry_timestamp_and_signature() {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let server = MockServer::start_async().await;
    let mock = server
        .mock_async(|when, then| {
            when.method(GET)
                .path(format!("/origins/C123/55/1700000000/{SIGNATURE}"))
                .header_missing("x-svc-auth");
            then.status(200).body(r#"{"succes":{"id":55,"origin_type":"simple","label":"static","ignore_cache_control":1}}"#);
        })
        .await;
    let client = Client::new_with_client(&server.base_url(), reqwest::Client::new(), Hooks::none());
    let answer = client
        .get_origin()
        .customer_number("C123")
        .origin_id(55)
        .timestamp(1_700_000_000)
        .signature(SIGNATURE)
        .send()
        .await
        .unwrap()
        .into_inner();
    mock.assert_async().await;
    // The misspelt key decodes; the facade reads either spelling.
    let origin = answer.succes.expect("payload under `succes`");
    assert_eq!(origin.id, Some(55));
    assert_eq!(origin.label.as_deref(), Some("static"));
}
