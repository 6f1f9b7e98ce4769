//! The requests the generated v1 builders make, on the wire. (The facade adds the
//! credentials, sends them and reads the answers; here a bare reqwest client sends
//! them.)

use hostapi_raw_infra::types::UpdateDomainTtlForm;
use hostapi_raw_infra::{Client, OperationBuilder};
use httpmock::Method::PUT;
use httpmock::MockServer;

#[tokio::test]
async fn domain_ttl_is_a_form_encoded_put() {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let server = MockServer::start_async().await;
    let mock = server
        .mock_async(|when, then| {
            when.method(PUT)
                .path("/v1/domains/example.com")
                .header("content-type", "application/x-www-form-urlencoded")
                .header_missing("api-version")
                .body("ttl=3600");
            then.status(200);
        })
        .await;
    let http = reqwest::Client::new();
    let request = Client::new_with_client(&server.base_url(), http.clone())
        .update_domain_ttl()
        .domainname("example.com")
        .body(UpdateDomainTtlForm { ttl: 3600 })
        .request()
        .expect("the request builds");
    let answer = http.execute(request).await.expect("the mock answers");
    assert_eq!(answer.status().as_u16(), 200);
    mock.assert_async().await;
}
