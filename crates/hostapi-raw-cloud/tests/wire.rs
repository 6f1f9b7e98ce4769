//! The generated cloud v2 client on the wire: a paginated list.

use hostapi_hooks::Hooks;
use hostapi_raw_cloud::Client;
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
            then.status(200).body(
                r#"{"virtualServers":[{"id":"vs-5","state":"RUNNING"},{"id":"vs-6","state":"HIBERNATING"}],
                    "_metadata":{"totalCount":6,"limit":2,"offset":4}}"#,
            );
        })
        .await;
    let client = Client::new_with_client(&server.base_url(), reqwest::Client::new(), Hooks::none());
    let page = client
        .list_virtual_servers()
        .limit(2)
        .offset(4)
        .send()
        .await
        .unwrap()
        .into_inner();
    mock.assert_async().await;
    let ids: Vec<&str> = page.virtual_servers.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids, ["vs-5", "vs-6"]);
    // An open set stays a string at this layer: tomorrow's state decodes.
    assert_eq!(
        page.virtual_servers[1].state.as_deref(),
        Some("HIBERNATING")
    );
    let metadata = page.metadata.expect("_metadata decodes");
    assert_eq!(
        (metadata.total_count, metadata.limit, metadata.offset),
        (Some(6), Some(2), Some(4))
    );
}
