//! The requests the generated cloud v2 builders make, on the wire: a paginated list.
//! (The facade adds the credentials, sends them and reads the answers; here a bare
//! reqwest client sends them.)

use hostapi_raw_cloud::{Client, OperationBuilder};
use httpmock::Method::GET;
use httpmock::MockServer;

#[tokio::test]
async fn lists_page_with_limit_and_offset() {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let server = MockServer::start_async().await;
    let mock = server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/cloud/v2/virtualServers")
                .query_param("limit", "2")
                .query_param("offset", "4")
                .header_missing("api-version");
            then.status(200);
        })
        .await;
    let http = reqwest::Client::new();
    let request = Client::new_with_client(&server.base_url(), http.clone())
        .list_virtual_servers()
        .limit(2)
        .offset(4)
        .request()
        .expect("the request builds");
    let answer = http.execute(request).await.expect("the mock answers");
    assert_eq!(answer.status().as_u16(), 200);
    mock.assert_async().await;
}
