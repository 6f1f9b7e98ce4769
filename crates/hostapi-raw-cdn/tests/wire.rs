//! The generated CDN client on the wire: a GET whose path ends in the timestamp and
//! the signature. (The facade's hooks compute the signature; here the test passes one
//! computed outside Rust.)

use futures::TryStreamExt;
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
    let body = r#"{"succes":{"id":55,"origin_type":"simple"}}"#;
    let mock = server
        .mock_async(|when, then| {
            when.method(GET)
                .path(format!("/origins/C123/55/1700000000/{SIGNATURE}"))
                .header_missing("x-svc-auth");
            then.status(200).body(body);
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
        .expect("a 2XX answer");
    mock.assert_async().await;
    let chunks: Vec<bytes::Bytes> = answer.into_inner_stream().try_collect().await.unwrap();
    assert_eq!(
        chunks.concat(),
        body.as_bytes(),
        "the misspelt key reaches the facade as sent"
    );
}
