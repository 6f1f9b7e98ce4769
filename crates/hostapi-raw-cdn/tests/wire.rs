//! The requests the generated CDN builders make, on the wire: a GET whose path ends in
//! the timestamp and the signature. (The facade's hooks compute the signature; here the
//! test passes one computed outside Rust, and a bare reqwest client sends it.)

use hostapi_raw_cdn::{Client, OperationBuilder};
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
                .header_missing("x-svc-auth")
                .header_missing("api-version");
            then.status(200);
        })
        .await;
    let http = reqwest::Client::new();
    let request = Client::new_with_client(&server.base_url(), http.clone())
        .get_origin()
        .customer_number("C123")
        .origin_id(55)
        .timestamp(1_700_000_000)
        .signature(SIGNATURE)
        .request()
        .expect("the request builds");
    let answer = http.execute(request).await.expect("the mock answers");
    assert_eq!(answer.status().as_u16(), 200);
    mock.assert_async().await;
}
