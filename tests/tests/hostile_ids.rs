//! Ids a hostile server sends are checked where they are read: a record whose id breaks
//! its rule is unreadable (the list returns the others, and counts it), a strict client
//! errors, and a reference to another resource that breaks its rule is kept out of the
//! typed value.

use hostapi::Error;
use hostapi::types::BareMetalId;
use hostapi_tests::{client, client_builder};
use httpmock::Method::GET;
use httpmock::MockServer;

/// Ids no rule allows.
const HOSTILE: &[&str] = &[
    "..",
    ".",
    "",
    "7/../../x",
    "%2e%2e",
    "a?b",
    "a#b",
    "a\nb",
    "1000$(touch${IFS}pwned)",
];

fn bare_metals_answer() -> String {
    let mut items: Vec<String> = HOSTILE
        .iter()
        .map(|id| {
            let id = serde_json::Value::String((*id).to_owned());
            format!(r#"{{"bareMetal":{{"bareMetalId":{id},"serverName":"x"}}}}"#)
        })
        .collect();
    items.push(r#"{"bareMetal":{"bareMetalId":"20001","serverName":"web-01"}}"#.to_owned());
    format!(r#"{{"bareMetals":[{}]}}"#, items.join(","))
}

#[tokio::test]
async fn a_record_whose_id_breaks_its_rule_is_unreadable() {
    let server = MockServer::start_async().await;
    server
        .mock_async(|when, then| {
            when.method(GET).path("/v1/bareMetals");
            then.status(200)
                .header("content-type", "application/json")
                .body(bare_metals_answer());
        })
        .await;
    let listing = client(&server)
        .bare_metals()
        .list()
        .await
        .expect("the list reads");
    let ids: Vec<&BareMetalId> = listing.iter().map(|server| &server.id).collect();
    assert_eq!(ids, [&BareMetalId::from(20001u32)]);
    assert_eq!(listing.unreadable().len(), HOSTILE.len());

    // A strict client counts them the same way (a record that cannot be read is
    // never a value), and a single answer whose id breaks its rule is an error.
    let strict = client_builder(&server)
        .strict(true)
        .build()
        .expect("the client builds");
    let listing = strict.bare_metals().list().await.expect("the list reads");
    assert_eq!(listing.unreadable().len(), HOSTILE.len());
    server
        .mock_async(|when, then| {
            when.method(GET).path("/v1/bareMetals/20001");
            then.status(200)
                .header("content-type", "application/json")
                .body(r#"{"bareMetal":{"bareMetalId":"..","serverName":"x"}}"#);
        })
        .await;
    for client in [client(&server), strict] {
        match client.bare_metals().get(&BareMetalId::from(20001u32)).await {
            Err(Error::Decode(error)) => {
                assert!(error.path.contains("bareMetalId"), "{error:?}")
            }
            other => panic!("an answer whose id breaks its rule: {other:?}"),
        }
    }
}

#[tokio::test]
async fn a_reference_that_breaks_its_rule_is_none() {
    let server = MockServer::start_async().await;
    server
        .mock_async(|when, then| {
            when.method(GET).path("/v1/bareMetals/20001/ips/192.0.2.10");
            then.status(200)
                .header("content-type", "application/json")
                .body(r#"{"ip":{"ip":"192.0.2.10","serverId":"../..","privateRackId":"7/../x"}}"#);
        })
        .await;
    let ip = client(&server)
        .bare_metals()
        .ips(&BareMetalId::from(20001u32))
        .get("192.0.2.10".parse().expect("an address"))
        .await
        .expect("the IP reads");
    assert_eq!(ip.server.and_then(|server| server.id), None);
    assert_eq!(ip.private_rack_id, None);
    // The values stay in `extra`, as sent.
    assert!(ip.extra.contains_key("serverId"), "{:?}", ip.extra);
}
