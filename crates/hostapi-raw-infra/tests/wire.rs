//! The generated v1 client on the wire: what it sends, and the answer handed over as
//! bytes.

use futures::TryStreamExt;
use hostapi_hooks::{CallHooks, Hooks};
use hostapi_raw_infra::Client;
use hostapi_raw_infra::types::UpdateDomainTtlForm;
use httpmock::Method::PUT;
use httpmock::MockServer;

/// Adds the API key the way the facade's hooks do, to show the seam works.
struct ApiKey;

impl CallHooks for ApiKey {
    fn prepare(&self, request: &mut reqwest::Request) -> Result<(), String> {
        request.headers_mut().insert(
            "x-svc-auth",
            reqwest::header::HeaderValue::from_static("k-123"),
        );
        Ok(())
    }
}

fn client(server: &MockServer) -> Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    Client::new_with_client(
        &server.base_url(),
        reqwest::Client::new(),
        Hooks::new(ApiKey),
    )
}

#[tokio::test]
async fn domain_ttl_is_a_form_encoded_put() {
    let server = MockServer::start_async().await;
    let mock = server
        .mock_async(|when, then| {
            when.method(PUT)
                .path("/v1/domains/example.com")
                .header("x-svc-auth", "k-123")
                .header("content-type", "application/x-www-form-urlencoded")
                .header_missing("api-version")
                .body("ttl=3600");
            then.status(200).body(
                r#"{"domain":{"domain":"example.com","ttl":3600,"code":1000,"isEditable":"true"}}"#,
            );
        })
        .await;
    let answer = client(&server)
        .update_domain_ttl()
        .domainname("example.com")
        .body(UpdateDomainTtlForm { ttl: 3600 })
        .send()
        .await
        .expect("a 2XX answer");
    mock.assert_async().await;
    let chunks: Vec<bytes::Bytes> = answer.into_inner_stream().try_collect().await.unwrap();
    assert!(
        chunks.concat().starts_with(br#"{"domain":"#),
        "handed over as sent"
    );
}
