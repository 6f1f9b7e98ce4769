//! The generated cloud v2 client on the wire: a paginated list, and the answer handed
//! over as bytes.

use futures::TryStreamExt;
use hostapi_hooks::Hooks;
use hostapi_raw_cloud::Client;
use httpmock::Method::GET;
use httpmock::MockServer;

const PAGE: &str =
    r#"{"virtualServers":[{"id":"vs-5"}],"_metadata":{"totalCount":6,"limit":2,"offset":4}}"#;

#[tokio::test]
async fn lists_page_with_limit_and_offset_and_hand_the_answer_over_whole() {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let server = MockServer::start_async().await;
    let mock = server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/cloud/v2/virtualServers")
                .query_param("limit", "2")
                .query_param("offset", "4")
                .header_missing("api-version");
            then.status(200).body(PAGE);
        })
        .await;
    let client = Client::new_with_client(&server.base_url(), reqwest::Client::new(), Hooks::none());
    let answer = client
        .list_virtual_servers()
        .limit(2)
        .offset(4)
        .send()
        .await
        .expect("a 2XX answer");
    mock.assert_async().await;
    assert_eq!(answer.status().as_u16(), 200);
    let chunks: Vec<bytes::Bytes> = answer.into_inner_stream().try_collect().await.unwrap();
    assert_eq!(chunks.concat(), PAGE.as_bytes());
}

#[tokio::test]
async fn an_error_status_is_handed_over_unread() {
    let _ = rustls::crypto::ring::default_provider().install_default();
    let server = MockServer::start_async().await;
    server
        .mock_async(|when, then| {
            when.method(GET).path("/cloud/v2/virtualServers/x");
            then.status(404).body("not json at all");
        })
        .await;
    let client = Client::new_with_client(&server.base_url(), reqwest::Client::new(), Hooks::none());
    match client.get_virtual_server().id("x").send().await {
        Err(progenitor_client::Error::UnexpectedResponse(response)) => {
            assert_eq!(response.status().as_u16(), 404);
            assert_eq!(response.text().await.unwrap(), "not json at all");
        }
        Err(other) => panic!("expected the answer itself, got {other}"),
        Ok(answer) => panic!("a 404 came back as a success: {}", answer.status()),
    }
}
