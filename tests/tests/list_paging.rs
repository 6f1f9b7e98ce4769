//! Every list whose answer carries `_metadata` comes back whole from the simulator
//! serving it in pages of ten (leases, private clouds, private networks, cloud servers,
//! credentials), with its total; `limit` asks for no more pages than it needs; and a
//! server announcing an endless list ends with an error at once.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use futures::TryStreamExt;
use hostapi::client::RetryPolicy;
use hostapi::cloud::CredentialType;
use hostapi::types::BareMetalId;
use hostapi::{Client, Error};
use hostapi_sim::{JournalEntry, Sim, SimConfig};
use hostapi_tests::{API_KEY, sim_client_builder};
use httpmock::Method::GET;
use httpmock::{HttpMockRequest, HttpMockResponse, MockServer};
use serde_json::json;

async fn sandbox(size: usize) -> (Sim, Client) {
    let sim = Sim::start(SimConfig::default().with_seed(7).with_size(size))
        .await
        .expect("the simulator starts");
    let client = sim_client_builder(&sim, sim.api_key(), sim.cdn_secret())
        .build()
        .expect("a client");
    (sim, client)
}

/// The GET requests the simulator answered for `path`, in order.
fn requests(sim: &Sim, path: &str) -> Vec<JournalEntry> {
    sim.requests(None)
        .into_iter()
        .filter(|r| r.method == "GET" && r.path == path)
        .collect()
}

fn queries(sim: &Sim, path: &str) -> Vec<Option<String>> {
    requests(sim, path).into_iter().map(|r| r.query).collect()
}

#[tokio::test]
async fn leases_come_back_whole() {
    let (sim, client) = sandbox(0).await;
    let path = "/v1/bareMetals/20008/leases";
    let leases = client
        .bare_metals()
        .leases(&BareMetalId::new("20008").unwrap())
        .list();
    let leases = leases.await.expect("the leases");
    assert!(leases.is_complete(), "{:?}", leases.unreadable());
    assert_eq!(leases.len(), 25);
    assert_eq!(leases.total_count(), Some(25));
    let mut macs: Vec<_> = leases.iter().map(|l| l.mac.to_string()).collect();
    macs.sort();
    macs.dedup();
    assert_eq!(macs.len(), 25, "every lease once");
    // The documents name no paging parameters: none on the first request.
    assert_eq!(
        queries(&sim, path),
        [None, Some("limit=100&offset=10".to_owned())]
    );

    // Five of them: one request, the server's own page cut.
    sim.clear_requests();
    let five = client
        .bare_metals()
        .leases(&BareMetalId::new("20008").unwrap())
        .list()
        .limit(5)
        .await
        .expect("five leases");
    assert_eq!(five.items(), &leases[..5]);
    assert_eq!(five.total_count(), Some(25));
    assert_eq!(queries(&sim, path), [None]);
    sim.shutdown().await;
}

#[tokio::test]
async fn private_clouds_come_back_whole() {
    let (sim, client) = sandbox(15_000).await;
    let path = "/cloud/v2/privateClouds";
    let clouds = client.private_clouds().list().await.expect("the clouds");
    let ids: Vec<&str> = clouds.iter().map(|c| c.id.as_str()).collect();
    let expected: Vec<String> = (300_001..=300_015).map(|n: u32| n.to_string()).collect();
    assert_eq!(ids, expected);
    assert_eq!(clouds.total_count(), Some(15));
    assert_eq!(
        queries(&sim, path),
        [None, Some("limit=100&offset=10".to_owned())]
    );

    // A page at a time, each with the total and its offset.
    let pages: Vec<_> = client
        .private_clouds()
        .list()
        .page_size(3)
        .pages()
        .try_collect()
        .await
        .expect("the pages");
    let shape: Vec<(u64, usize, Option<u64>)> = pages
        .iter()
        .map(|p| (p.offset(), p.len(), p.total_count()))
        .collect();
    assert_eq!(
        shape,
        [(0, 10, Some(15)), (10, 3, Some(15)), (13, 2, Some(15))]
    );
    sim.shutdown().await;
}

#[tokio::test]
async fn private_networks_come_back_whole() {
    let (sim, client) = sandbox(0).await;
    for _ in 0..13 {
        client.private_networks().create().await.expect("created");
    }
    sim.clear_requests();
    let networks = client
        .private_networks()
        .list()
        .await
        .expect("the networks");
    let ids: Vec<String> = networks.iter().map(|n| n.id.to_string()).collect();
    let expected: Vec<String> = (501..=515).map(|n: u32| n.to_string()).collect();
    assert_eq!(ids, expected);
    assert_eq!(networks.total_count(), Some(15));
    assert_eq!(
        queries(&sim, "/v1/privateNetworks"),
        [None, Some("limit=100&offset=10".to_owned())]
    );
    sim.shutdown().await;
}

#[tokio::test]
async fn cloud_servers_stop_at_the_limit() {
    let (sim, client) = sandbox(0).await;
    let path = "/cloud/v2/virtualServers";
    let all = client
        .cloud_servers()
        .list()
        .page_size(10)
        .await
        .expect("all");
    assert_eq!((all.len(), all.total_count()), (40, Some(40)));
    assert_eq!(requests(&sim, path).len(), 4);

    for (limit, page_size, asked) in [
        (5, 100, vec!["limit=5&offset=0"]),
        (12, 10, vec!["limit=10&offset=0", "limit=2&offset=10"]),
    ] {
        sim.clear_requests();
        let some = client
            .cloud_servers()
            .list()
            .page_size(page_size)
            .limit(limit)
            .await
            .expect("some");
        assert_eq!(some.items(), &all[..limit]);
        assert_eq!(some.total_count(), Some(40));
        let asked: Vec<Option<String>> = asked.into_iter().map(|q| Some(q.to_owned())).collect();
        assert_eq!(queries(&sim, path), asked, "limit {limit}");
    }
    sim.shutdown().await;
}

#[tokio::test]
async fn credentials_come_back_whole() {
    let (sim, client) = sandbox(0).await;
    // The first server (index 0) has two operating system users.
    let first = client
        .cloud_servers()
        .list()
        .limit(1)
        .await
        .expect("a server");
    let credentials = client.cloud_servers().credentials(&first[0].id);
    let users = credentials
        .list(CredentialType::OperatingSystem)
        .page_size(1)
        .await
        .expect("the credentials");
    let names: Vec<&str> = users.iter().map(|c| c.username.as_str()).collect();
    assert_eq!(names, ["root", "admin"]);
    assert_eq!(users.total_count(), Some(2));
    sim.shutdown().await;
}

/// A server announcing `total` cloud servers and inventing fresh ones for every page,
/// as many as asked for; counts the requests.
async fn endless(server: &MockServer, total: u64) -> Arc<AtomicUsize> {
    let calls = Arc::new(AtomicUsize::new(0));
    let counter = calls.clone();
    server
        .mock_async(move |when, then| {
            when.method(GET)
                .path("/cloud/v2/virtualServers")
                .header("X-Svc-Auth", API_KEY);
            then.respond_with(move |req: &HttpMockRequest| {
                let call = counter.fetch_add(1, Ordering::SeqCst);
                let query = req.uri().query().unwrap_or_default().to_owned();
                let limit: usize = query
                    .split('&')
                    .find_map(|pair| pair.strip_prefix("limit="))
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(10);
                let items: Vec<_> = (0..limit)
                    .map(|i| json!({"id": format!("vs-{call}-{i}"), "state": "RUNNING"}))
                    .collect();
                let body = json!({
                    "virtualServers": items,
                    "_metadata": {"totalCount": total, "limit": limit, "offset": 0},
                });
                HttpMockResponse::builder()
                    .status(200)
                    .header("content-type", "application/json")
                    .body(body.to_string())
                    .build()
            });
        })
        .await;
    calls
}

fn client_of(server: &MockServer, max_list_records: Option<u64>) -> Client {
    let builder = Client::builder()
        .base_url(server.base_url())
        .api_key(API_KEY)
        .retry_policy(RetryPolicy::never())
        .timeout(Duration::from_secs(5));
    match max_list_records {
        Some(n) => builder.max_list_records(n),
        None => builder,
    }
    .build()
    .expect("a client")
}

#[tokio::test]
async fn an_endless_list_ends_at_once_with_an_error() {
    let server = MockServer::start_async().await;
    let calls = endless(&server, 1_000_000_000_000).await;
    let started = Instant::now();
    let error = client_of(&server, None)
        .cloud_servers()
        .list()
        .await
        .expect_err("no list of a trillion servers");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    let Error::Paging(paging) = &error else {
        panic!("a paging error: {error:?}");
    };
    assert_eq!(paging.call.operation, "listVirtualServers");
    let message = error.to_string();
    assert!(
        message.contains("1000000000000") && message.contains("ceiling of 1000000"),
        "{message}"
    );
    assert_eq!(
        calls.load(Ordering::SeqCst),
        1,
        "nothing asked after the count"
    );

    // Five of them are fine: one request, no ceiling in the way.
    let five = client_of(&server, None)
        .cloud_servers()
        .list()
        .limit(5)
        .await
        .expect("five");
    assert_eq!(five.len(), 5);
    assert_eq!(five.total_count(), Some(1_000_000_000_000));
    assert_eq!(calls.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn the_ceiling_is_set_on_the_client_or_the_list() {
    let server = MockServer::start_async().await;
    let calls = endless(&server, 150).await;
    let small = client_of(&server, Some(100));
    let error = small.cloud_servers().list().await.expect_err("above 100");
    assert!(error.to_string().contains("ceiling of 100"), "{error}");
    assert_eq!(calls.load(Ordering::SeqCst), 1);
    // The list's own ceiling wins over the client's.
    let all = small
        .cloud_servers()
        .list()
        .page_size(50)
        .max_records(200)
        .await
        .expect("150 is within 200");
    assert_eq!(all.len(), 150);
    let error = client_of(&server, None)
        .cloud_servers()
        .list()
        .max_records(149)
        .await
        .expect_err("above 149");
    assert!(error.to_string().contains("ceiling of 149"), "{error}");
    let zero = Client::builder()
        .base_url(server.base_url())
        .api_key(API_KEY)
        .max_list_records(0)
        .build();
    assert!(matches!(zero, Err(Error::InvalidInput { .. })), "{zero:?}");
}
