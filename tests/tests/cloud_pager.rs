//! The cloud list pager against a mock server: several pages, an empty list, a
//! `totalCount` that changes mid-way, a short last page, a server that caps the page
//! size, a page without `_metadata`, and failures.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use futures::StreamExt;
use hostapi::Error;
use hostapi_tests::{API_KEY, client, strict_client};
use httpmock::Method::GET;
use httpmock::{HttpMockRequest, HttpMockResponse, MockServer};
use serde_json::json;

/// A paging server: `total(call)` is the `totalCount` it reports at call number `call`
/// (0-based) and also how many servers exist then; it answers at most `cap` per page.
/// Returns the query strings it received.
async fn serve(
    server: &MockServer,
    cap: usize,
    total: impl Fn(usize) -> usize + Send + Sync + 'static,
) -> Arc<Mutex<Vec<String>>> {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    let calls = AtomicUsize::new(0);
    server
        .mock_async(move |when, then| {
            when.method(GET)
                .path("/cloud/v2/virtualServers")
                .header("X-Svc-Auth", API_KEY);
            then.respond_with(move |req: &HttpMockRequest| {
                let call = calls.fetch_add(1, Ordering::SeqCst);
                let query = req.uri().query().unwrap_or_default().to_owned();
                log.lock().unwrap().push(query.clone());
                let param = |name: &str| {
                    query
                        .split('&')
                        .find_map(|pair| pair.strip_prefix(&format!("{name}=")))
                        .map(|v| v.parse::<usize>().unwrap())
                };
                let (limit, offset) = (param("limit").unwrap(), param("offset").unwrap());
                let total = total(call);
                let end = total.min(offset + limit.min(cap));
                let items: Vec<_> = (offset.min(end)..end)
                    .map(|i| json!({"id": format!("vs-{i}"), "state": "RUNNING"}))
                    .collect();
                let body = json!({
                    "virtualServers": items,
                    "_metadata": {"totalCount": total, "limit": limit.min(cap), "offset": offset},
                });
                HttpMockResponse::builder()
                    .status(200)
                    .header("content-type", "application/json")
                    .body(body.to_string())
                    .build()
            });
        })
        .await;
    seen
}

async fn ids(server: &MockServer, page_size: u32) -> Vec<String> {
    let listing = client(server)
        .cloud_servers()
        .list()
        .page_size(page_size)
        .collect()
        .await
        .expect("listing succeeds");
    assert!(listing.is_complete(), "{:?}", listing.unreadable());
    listing
        .into_iter()
        .map(|s| s.id.as_str().to_owned())
        .collect()
}

fn expected(range: std::ops::Range<usize>) -> Vec<String> {
    range.map(|i| format!("vs-{i}")).collect()
}

#[tokio::test]
async fn several_pages_until_the_total_count() {
    let server = MockServer::start_async().await;
    let seen = serve(&server, usize::MAX, |_| 5).await;
    assert_eq!(ids(&server, 2).await, expected(0..5));
    assert_eq!(
        *seen.lock().unwrap(),
        ["limit=2&offset=0", "limit=2&offset=2", "limit=2&offset=4"]
    );
}

#[tokio::test]
async fn a_short_last_page_ends_the_listing() {
    let server = MockServer::start_async().await;
    let seen = serve(&server, usize::MAX, |_| 7).await;
    assert_eq!(ids(&server, 4).await, expected(0..7));
    assert_eq!(
        *seen.lock().unwrap(),
        ["limit=4&offset=0", "limit=4&offset=4"]
    );
}

#[tokio::test]
async fn an_empty_list_is_one_request() {
    let server = MockServer::start_async().await;
    let seen = serve(&server, usize::MAX, |_| 0).await;
    assert!(ids(&server, 10).await.is_empty());
    assert_eq!(*seen.lock().unwrap(), ["limit=10&offset=0"]);
}

#[tokio::test]
async fn a_server_that_caps_the_page_size_is_followed() {
    // Asked for 10 per page, the server answers at most 4: short pages do not end the
    // listing while totalCount says there is more.
    let server = MockServer::start_async().await;
    let seen = serve(&server, 4, |_| 10).await;
    assert_eq!(ids(&server, 10).await, expected(0..10));
    assert_eq!(
        *seen.lock().unwrap(),
        [
            "limit=10&offset=0",
            "limit=10&offset=4",
            "limit=10&offset=8"
        ]
    );
}

#[tokio::test]
async fn a_total_count_that_grows_mid_way_is_followed() {
    // 3 servers at the first page, 5 from the second on.
    let server = MockServer::start_async().await;
    let seen = serve(&server, usize::MAX, |call| if call == 0 { 3 } else { 5 }).await;
    assert_eq!(ids(&server, 2).await, expected(0..5));
    assert_eq!(
        *seen.lock().unwrap(),
        ["limit=2&offset=0", "limit=2&offset=2", "limit=2&offset=4"]
    );
}

#[tokio::test]
async fn a_total_count_that_shrinks_mid_way_is_followed() {
    // 8 servers at the first page, 3 from the second on: the second page (offset 2)
    // carries one server and a count of 3, which the 3 received reach.
    let server = MockServer::start_async().await;
    let seen = serve(&server, usize::MAX, |call| if call == 0 { 8 } else { 3 }).await;
    assert_eq!(ids(&server, 2).await, expected(0..3));
    assert_eq!(
        *seen.lock().unwrap(),
        ["limit=2&offset=0", "limit=2&offset=2"]
    );
}

#[tokio::test]
async fn an_empty_page_ends_the_listing_whatever_the_count_says() {
    let server = MockServer::start_async().await;
    let calls = AtomicUsize::new(0);
    let mock = server
        .mock_async(move |when, then| {
            when.method(GET).path("/cloud/v2/virtualServers");
            then.respond_with(move |_: &HttpMockRequest| {
                let body = if calls.fetch_add(1, Ordering::SeqCst) == 0 {
                    r#"{"virtualServers":[{"id":"a"},{"id":"b"}],"_metadata":{"totalCount":100}}"#
                } else {
                    r#"{"virtualServers":[],"_metadata":{"totalCount":100}}"#
                };
                HttpMockResponse::builder().status(200).body(body).build()
            });
        })
        .await;
    assert_eq!(ids(&server, 2).await, ["a", "b"]);
    assert_eq!(mock.calls_async().await, 2);
}

#[tokio::test]
async fn a_page_without_metadata_is_the_only_page() {
    let server = MockServer::start_async().await;
    let mock = server
        .mock_async(|when, then| {
            when.method(GET).path("/cloud/v2/virtualServers");
            then.status(200)
                .body(r#"{"virtualServers":[{"id":"a"},{"id":"b"}]}"#);
        })
        .await;
    // A full page (2 of 2) without _metadata: still one page.
    assert_eq!(ids(&server, 2).await, ["a", "b"]);
    assert_eq!(mock.calls_async().await, 1);
}

#[tokio::test]
async fn a_failed_page_is_the_listing_s_error() {
    let server = MockServer::start_async().await;
    server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/cloud/v2/virtualServers")
                .query_param("offset", "0");
            then.status(200).body(
                r#"{"virtualServers":[{"id":"a"}],"_metadata":{"totalCount":2,"limit":1,"offset":0}}"#,
            );
        })
        .await;
    server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/cloud/v2/virtualServers")
                .query_param("offset", "1");
            then.status(503).body("<html><title>Down</title></html>");
        })
        .await;
    let err = client(&server)
        .cloud_servers()
        .list()
        .page_size(1)
        .collect()
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(503), "{err}");
    assert_eq!(err.operation(), Some("listVirtualServers"));
}

#[tokio::test]
async fn a_failed_page_ends_the_stream_after_the_records_before_it() {
    let server = MockServer::start_async().await;
    server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/cloud/v2/virtualServers")
                .query_param("offset", "0");
            then.status(200).body(
                r#"{"virtualServers":[{"id":"a"}],"_metadata":{"totalCount":3,"limit":1,"offset":0}}"#,
            );
        })
        .await;
    server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/cloud/v2/virtualServers")
                .query_param("offset", "1");
            then.status(404).body("{}");
        })
        .await;
    let items: Vec<Result<_, Error>> = client(&server)
        .cloud_servers()
        .list()
        .page_size(1)
        .stream()
        .collect()
        .await;
    assert_eq!(items.len(), 2, "{items:?}");
    assert_eq!(items[0].as_ref().unwrap().id.as_str(), "a");
    assert!(items[1].as_ref().unwrap_err().is_not_found());
}

#[tokio::test]
async fn a_server_that_ignores_the_offset_is_caught() {
    // Every page is the first: without the check the pager would read the same two
    // servers until the count was reached, and hand out duplicates.
    let server = MockServer::start_async().await;
    let mock = server
        .mock_async(|when, then| {
            when.method(GET).path("/cloud/v2/virtualServers");
            then.status(200).body(
                r#"{"virtualServers":[{"id":"a"},{"id":"b"}],"_metadata":{"totalCount":6,"limit":2,"offset":0}}"#,
            );
        })
        .await;
    let err = client(&server)
        .cloud_servers()
        .list()
        .page_size(2)
        .collect()
        .await
        .unwrap_err();
    match &err {
        Error::Paging(e) => {
            assert_eq!(e.call.operation, "listVirtualServers");
            assert!(e.message.contains("offset 2"), "{}", e.message);
        }
        other => panic!("expected a paging error, got {other}"),
    }
    assert_eq!(mock.calls_async().await, 2);
}

const UNREADABLE_IP_PAGE: &str = r#"{"virtualServers":[{"id":"a"},{"id":"b","ips":[{"ip":"not-an-ip"},{"ip":"10.0.0.2"}]}],"_metadata":{"totalCount":2}}"#;

#[tokio::test]
async fn an_unreadable_field_of_a_server_costs_that_field() {
    let server = MockServer::start_async().await;
    server
        .mock_async(|when, then| {
            when.method(GET).path("/cloud/v2/virtualServers");
            then.status(200).body(UNREADABLE_IP_PAGE);
        })
        .await;
    let servers = client(&server)
        .cloud_servers()
        .list()
        .collect()
        .await
        .unwrap();
    assert!(servers.is_complete());
    assert_eq!(
        servers.iter().map(|s| s.id.as_str()).collect::<Vec<_>>(),
        ["a", "b"]
    );
    // The IP that cannot be read is left out of the list and kept as sent.
    let b = &servers[1];
    assert_eq!(b.ips.len(), 1, "{:?}", b.ips);
    assert_eq!(b.ips[0].ip.to_string(), "10.0.0.2");
    assert_eq!(b.extra["ips[0]"], json!({"ip": "not-an-ip"}));
}

#[tokio::test]
async fn a_strict_client_names_the_unreadable_server_s_place_in_the_page() {
    let server = MockServer::start_async().await;
    server
        .mock_async(|when, then| {
            when.method(GET).path("/cloud/v2/virtualServers");
            then.status(200).body(UNREADABLE_IP_PAGE);
        })
        .await;
    let servers = strict_client(&server)
        .cloud_servers()
        .list()
        .collect()
        .await
        .unwrap();
    assert_eq!(
        servers.iter().map(|s| s.id.as_str()).collect::<Vec<_>>(),
        ["a"]
    );
    let [unreadable] = servers.unreadable() else {
        panic!("one server is unreadable: {:?}", servers.unreadable());
    };
    assert_eq!(unreadable.index, 1);
    match &unreadable.error {
        Error::Decode(e) => {
            assert_eq!(
                e.call.as_ref().map(|c| c.operation),
                Some("listVirtualServers")
            );
            assert_eq!(e.path, "virtualServers[1].ips[0].ip");
            assert!(e.body_excerpt.contains("not-an-ip"), "{}", e.body_excerpt);
        }
        other => panic!("{other}"),
    }
}
