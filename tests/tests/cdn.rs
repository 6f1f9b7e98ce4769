//! The CDN: normalised output (snapshots), signed paths checked against digests
//! computed outside Rust, the exact wire form of each write, and bad input or missing
//! configuration refused before anything is sent.

use hostapi::cdn::{Acl, NewOrigin, OriginType, OriginUpdate, PurgeStatus, SubCustomerUpdate};
use hostapi::client::RetryPolicy;
use hostapi::types::{CustomerNumber, OriginId, PurgeJobId, REDACTED, ZoneId, expose_secrets};
use hostapi::{Client, Error};
use hostapi_tests::{
    CDN_BASE_PATH, CDN_CUSTOMER, CDN_SECRET, CDN_TIMESTAMP, client, fixture, strict_client, to_json,
};
use httpmock::Method::{DELETE, GET, POST, PUT};
use httpmock::MockServer;
use serde_json::json;

/// Signatures of the resource paths these tests call, for the secret
/// `CDN_SECRET` at `CDN_TIMESTAMP`, computed outside Rust from the documented rule:
/// `printf %s "test-cdn-secret-9a7c1700000000$path" | sha1sum`.
const SIGNATURES: &[(&str, &str)] = &[
    (
        "/content/purge/C123456/1001",
        "c35ec448fd544d1a6425fc3979aa990777f1ab51",
    ),
    (
        "/content/purge/C123456/1001/5001",
        "a5ae09bc1b1dcb1305e7ee31ea60379d73c24539",
    ),
    (
        "/customers/C123456/20/0",
        "4664df2b35993f078e631110eabe40891f7378de",
    ),
    (
        "/customers/reseller/C123456/7001",
        "acd5506bc7a1a53bdfd7b462105f88cae7b29a48",
    ),
    (
        "/customers/reseller/C123456/7002",
        "28f4cc144c8ea13fdc08fa10d810c6624dbf99bd",
    ),
    (
        "/customers/reseller/C123456/7010",
        "ed1e7a630fcfd9b96b1b44e6d840b3c6c61dbbc4",
    ),
    (
        "/customers/reseller/C123456/7099",
        "7e04484444cfd2c91c86e4e62d213d5ccc020d10",
    ),
    (
        "/customers/acl/C123456",
        "df22dfccd757d07eec68924f8560dbf860392d5d",
    ),
    (
        "/origins/C123456",
        "c3500c13efc90132b7018a5bd17108734d3c24d2",
    ),
    (
        "/origins/C123456/101",
        "71c894be41f54b1edcd14581d151aaaaa50f03fd",
    ),
    (
        "/origins/C123456/102",
        "a6d830d487360161e7309d6302c0b9dc2df46bcc",
    ),
];

/// The path the mock server must see for `resource`: the CDN base path, the resource,
/// the timestamp and the signature from [`SIGNATURES`].
fn signed(resource: &str) -> String {
    let (_, signature) = SIGNATURES
        .iter()
        .find(|(path, _)| *path == resource)
        .unwrap_or_else(|| panic!("no signature computed for {resource}"));
    format!("{CDN_BASE_PATH}{resource}/{CDN_TIMESTAMP}/{signature}")
}

#[test]
fn the_signature_table_was_made_with_the_test_credentials() {
    // The table above hard-codes these; a change to the helpers must show up here.
    assert_eq!(CDN_SECRET, "test-cdn-secret-9a7c");
    assert_eq!(CDN_TIMESTAMP, 1_700_000_000);
    assert_eq!(CDN_CUSTOMER, "C123456");
}

/// Serves `body` as JSON for `method resource` (signed), and answers the mock.
async fn serve<'a>(
    server: &'a MockServer,
    method: httpmock::Method,
    resource: &str,
    body: String,
) -> httpmock::Mock<'a> {
    let path = signed(resource);
    server
        .mock_async(|when, then| {
            when.method(method).path(path);
            then.status(200)
                .header("content-type", "application/json")
                .body(body);
        })
        .await
}

fn zone() -> ZoneId {
    ZoneId::new("1001").unwrap()
}

// ---------------------------------------------------------------------------------
// Signing

#[tokio::test]
async fn every_call_is_signed_in_its_path_and_carries_no_auth_header() {
    let server = MockServer::start_async().await;
    let mock = server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/cdn/origins/C123456/1700000000/c3500c13efc90132b7018a5bd17108734d3c24d2")
                .header_missing("x-svc-auth")
                .header_missing("api-version")
                .header("user-agent", hostapi::client::USER_AGENT);
            then.status(200).body(r#"{"succes":[]}"#);
        })
        .await;
    let origins = client(&server).cdn().origins().list().await.unwrap();
    mock.assert_async().await;
    assert!(origins.is_empty());
}

#[tokio::test]
async fn the_base_url_path_is_not_part_of_the_signed_path() {
    // Without the `/cdn` stem the resource path, and so the signature, are the same.
    let server = MockServer::start_async().await;
    let mock = server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/customers/acl/C123456/1700000000/df22dfccd757d07eec68924f8560dbf860392d5d");
            then.status(200).body(fixture("cdn/acl.json"));
        })
        .await;
    let client = Client::builder()
        .cdn_base_url(server.base_url())
        .cdn_secret(CDN_SECRET)
        .cdn_customer(CDN_CUSTOMER)
        .clock(hostapi::signing::FixedClock(CDN_TIMESTAMP))
        .retry_policy(RetryPolicy::never())
        .build()
        .unwrap();
    client.cdn().acl().get().await.unwrap();
    mock.assert_async().await;
}

// ---------------------------------------------------------------------------------
// Reads: every quirk normalised

#[tokio::test]
async fn the_customer_has_booleans_timestamps_and_a_redacted_secret() {
    let server = MockServer::start_async().await;
    let mock = serve(
        &server,
        GET,
        "/customers/C123456/20/0",
        fixture("cdn/customer.json"),
    )
    .await;
    let customer = client(&server).cdn().customers().get().await.unwrap();
    mock.assert_async().await;

    assert_eq!(customer.reseller, Some(true));
    assert_eq!(customer.active, Some(true));
    assert_eq!(customer.parent, None);
    assert_eq!(
        customer.created_at.map(|t| t.to_rfc3339()).as_deref(),
        Some("2019-01-01T00:00:00+00:00")
    );
    assert_eq!(customer.extra["support_level"], "gold");
    // The secret: redacted in Debug and in serialised output, unless exposed.
    let secret = customer.api_secret.as_ref().unwrap();
    assert_eq!(secret.expose(), "cust-secret-0f3a9c");
    assert!(!format!("{customer:?}").contains("cust-secret-0f3a9c"));
    assert_eq!(to_json(&customer)["api_secret"], REDACTED);
    let exposed = expose_secrets(|| to_json(&customer));
    assert_eq!(exposed["api_secret"], "cust-secret-0f3a9c");
    insta::assert_json_snapshot!("cdn_customer", to_json(&customer));
}

#[tokio::test]
async fn sub_customers_are_read_from_the_indexed_object_by_their_number() {
    // The answer files sub-customers as `{<group>: {"10": …, "0": …, "1": …}}`; each
    // is found in it by its number, wherever it stands.
    let server = MockServer::start_async().await;
    let mut mocks = Vec::new();
    for number in ["7001", "7002", "7010"] {
        mocks.push(
            serve(
                &server,
                GET,
                &format!("/customers/reseller/C123456/{number}"),
                fixture("cdn/sub_customers.json"),
            )
            .await,
        );
    }
    let client = client(&server);
    let mut subs = Vec::new();
    for number in ["7001", "7002", "7010"] {
        let sub = client
            .cdn()
            .sub_customers()
            .get(&CustomerNumber::new(number).unwrap())
            .await
            .unwrap();
        assert_eq!(sub.customer_number.as_str(), number);
        subs.push(sub);
    }
    for mock in &mocks {
        mock.assert_async().await;
    }

    assert_eq!(
        subs.iter().map(|s| s.active).collect::<Vec<_>>(),
        [Some(true), Some(true), Some(false)]
    );
    assert_eq!(
        subs.iter()
            .map(|s| s.company_name.as_deref())
            .collect::<Vec<_>>(),
        [Some("First Shop"), Some("Second Shop"), Some("Tenth Shop")]
    );
    assert_eq!(subs[1].reseller, Some(true));
    assert_eq!(subs[0].group, "C123456");
    assert_eq!(subs[0].extra["created_at"], 1_600_000_000);
    assert_eq!(subs[1].api_secret, None, "an empty secret is no secret");
    assert_eq!(subs[2].notes, None, "an empty note is no note");
    assert!(!format!("{subs:?}").contains("sub-secret-00"));
    assert_eq!(
        expose_secrets(|| to_json(&subs))[0]["api_secret"],
        "sub-secret-00"
    );
    insta::assert_json_snapshot!("cdn_sub_customers", to_json(&subs));
}

#[tokio::test]
async fn a_sub_customer_missing_from_the_answer_is_a_decode_error() {
    let server = MockServer::start_async().await;
    serve(
        &server,
        GET,
        "/customers/reseller/C123456/7099",
        fixture("cdn/sub_customers.json"),
    )
    .await;
    let err = client(&server)
        .cdn()
        .sub_customers()
        .get(&CustomerNumber::new("7099").unwrap())
        .await
        .unwrap_err();
    let (operation, path, message) = decode_error(err);
    assert_eq!((operation, path.as_str()), ("getSubCustomer", "success"));
    assert!(message.contains("7099"), "{message}");
}

#[tokio::test]
async fn the_acl_is_taken_from_under_the_customer_number() {
    let server = MockServer::start_async().await;
    let mock = serve(
        &server,
        GET,
        "/customers/acl/C123456",
        fixture("cdn/acl.json"),
    )
    .await;
    let acl = client(&server).cdn().acl().get().await.unwrap();
    mock.assert_async().await;

    assert!(acl.content.post && acl.content.get && !acl.content.delete);
    assert!(acl.origins.put && !acl.origins.delete);
    // A permission left out reads as false; a section left out allows nothing.
    assert!(!acl.customers.delete);
    assert_eq!(acl.ftplog, Default::default());
    // Unknown permissions and sections are kept.
    assert_eq!(acl.zones.extra["PATCH"], true);
    assert_eq!(acl.extra["rules"], json!({"GET": true, "POST": false}));
    insta::assert_json_snapshot!("cdn_acl", to_json(&acl));
}

#[tokio::test]
async fn origins_are_read_under_succes_with_every_quirk() {
    let server = MockServer::start_async().await;
    let mock = serve(
        &server,
        GET,
        "/origins/C123456",
        fixture("cdn/origins.json"),
    )
    .await;
    let origins = client(&server).cdn().origins().list().await.unwrap();
    mock.assert_async().await;

    assert_eq!(origins.len(), 3);
    assert_eq!(origins[0].ignore_cache_control, Some(false));
    // The samples' `ignore_cache_refresh` is read as the documented flag.
    assert_eq!(origins[1].ignore_cache_control, Some(true));
    assert!(!origins[1].extra.contains_key("ignore_cache_refresh"));
    assert_eq!(origins[1].origin_type, Some(OriginType::S3));
    assert_eq!(origins[2].origin_type, Some(OriginType::from_wire("ftp")));
    assert!(origins[2].origin_type.as_ref().unwrap().is_unknown());
    assert_eq!(origins[2].extra["ssl_verify"], 0);
    // Empty strings are no value.
    assert_eq!(origins[0].s3_bucket_name, None);
    assert_eq!(origins[0].basic_auth_password, None);
    // The password: redacted unless exposed.
    assert!(!format!("{origins:?}").contains("s3-access-key-secret"));
    assert_eq!(to_json(&origins)[1]["basic_auth_password"], REDACTED);
    // Origin headers often carry a token: a secret too.
    assert_eq!(origins[0].headers_origin, None);
    assert_eq!(to_json(&origins)[1]["headers_origin"], REDACTED);
    assert_eq!(
        expose_secrets(|| to_json(&origins))[1]["headers_origin"],
        "X-Origin-Token: abc"
    );
    assert_eq!(
        expose_secrets(|| to_json(&origins))[1]["basic_auth_password"],
        "s3-access-key-secret"
    );
    insta::assert_json_snapshot!("cdn_origins", to_json(&origins));
}

#[tokio::test]
async fn a_single_origin_answered_to_the_list_is_a_list_of_one() {
    let server = MockServer::start_async().await;
    serve(
        &server,
        GET,
        "/origins/C123456",
        fixture("cdn/origin_success.json"),
    )
    .await;
    let origins = client(&server).cdn().origins().list().await.unwrap();
    assert_eq!(origins.len(), 1);
    assert_eq!(origins[0].id.as_str(), "101");
}

#[tokio::test]
async fn an_empty_object_answered_to_the_list_is_no_origins() {
    let server = MockServer::start_async().await;
    serve(&server, GET, "/origins/C123456", r#"{"success":{}}"#.into()).await;
    assert!(
        client(&server)
            .cdn()
            .origins()
            .list()
            .await
            .unwrap()
            .is_empty()
    );
}

#[tokio::test]
async fn one_origin_is_read_under_success_and_under_succes() {
    let server = MockServer::start_async().await;
    serve(
        &server,
        GET,
        "/origins/C123456/101",
        fixture("cdn/origin_success.json"),
    )
    .await;
    serve(
        &server,
        GET,
        "/origins/C123456/102",
        fixture("cdn/origin_succes.json"),
    )
    .await;
    let cdn = client(&server);
    let first = cdn
        .cdn()
        .origins()
        .get(&OriginId::from(101u64))
        .await
        .unwrap();
    let second = cdn
        .cdn()
        .origins()
        .get(&OriginId::from(102u64))
        .await
        .unwrap();

    assert_eq!(first.ignore_cache_control, Some(true));
    assert_eq!(first.extra["http2"], true);
    assert_eq!(second.id.as_str(), "102");
    assert_eq!(second.origin_type, Some(OriginType::S3), "any letter case");
    assert_eq!(
        second.ignore_cache_control,
        Some(false),
        "\"0\" under the samples' name"
    );
    insta::assert_json_snapshot!("cdn_origin_success", to_json(&first));
    insta::assert_json_snapshot!("cdn_origin_succes", to_json(&second));
}

#[tokio::test]
async fn purge_status_lists_every_url_with_its_status() {
    let server = MockServer::start_async().await;
    let mock = serve(
        &server,
        GET,
        "/content/purge/C123456/1001/5001",
        fixture("cdn/purge_status.json"),
    )
    .await;
    let job = client(&server)
        .cdn()
        .purge_status(&zone(), &PurgeJobId::from(5001u64))
        .await
        .unwrap();
    mock.assert_async().await;

    assert_eq!(job.id, PurgeJobId::from(5001u64));
    assert_eq!(job.zone, zone());
    assert!(!job.is_done(), "files are still queued");
    let entries = &job.entries;
    let statuses: Vec<&PurgeStatus> = entries.iter().map(|e| &e.status).collect();
    assert_eq!(
        statuses,
        [
            &PurgeStatus::Queued,
            &PurgeStatus::Done,
            &PurgeStatus::from_wire("Processing"),
            &PurgeStatus::Queued,
        ]
    );
    assert!(statuses[2].is_unknown());
    assert_eq!(entries[3].url, "/img/banner.png");
    assert_eq!(
        job.urls,
        entries.iter().map(|e| e.url.clone()).collect::<Vec<_>>()
    );
    insta::assert_json_snapshot!("cdn_purge_status", to_json(&job));
}

#[tokio::test]
async fn wait_purged_polls_until_nothing_is_queued() {
    let server = MockServer::start_async().await;
    let path = signed("/content/purge/C123456/1001/5001");
    // Two polls see a queued file, the third sees none.
    let queued = server
        .mock_async(|when, then| {
            when.method(GET).path(path.clone());
            then.status(200)
                .body(r#"{"success":[{"/a.css":"Queued"},{"/b.js":"Done"}]}"#);
        })
        .await;
    let progress = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = progress.clone();
    let options = hostapi::WaitOptions::new()
        .interval(hostapi::WaitOptions::MIN_INTERVAL)
        .timeout(std::time::Duration::from_secs(5))
        .on_progress(move |p| seen.lock().unwrap().push(p.state.clone()));
    let client = client(&server);
    let waiting = client.cdn();
    let (zone, job) = (zone(), PurgeJobId::from(5001u64));
    let wait = waiting.wait_purged(&zone, &job, &options);
    let swap = async {
        while queued.calls_async().await < 2 {
            tokio::time::sleep(std::time::Duration::from_millis(2)).await;
        }
        queued.delete_async().await;
        server
            .mock_async(|when, then| {
                when.method(GET).path(path.clone());
                then.status(200)
                    .body(r#"{"success":[{"/a.css":"Done"},{"/b.js":"Done"}]}"#);
            })
            .await;
    };
    let (job, ()) = tokio::time::timeout(std::time::Duration::from_secs(20), async {
        tokio::join!(wait, swap)
    })
    .await
    .expect("the wait ends, and the answer is swapped after two polls");
    let job = job.expect("the purge finishes");
    assert!(job.is_done(), "{job:?}");
    assert_eq!(job.entries.len(), 2, "{job:?}");
    assert!(
        job.entries.iter().all(|e| e.status == PurgeStatus::Done),
        "{job:?}"
    );
    let progress = progress.lock().unwrap();
    assert!(progress.len() >= 2, "{progress:?}");
    assert_eq!(progress[0], "1 of 2 files queued");
}

// ---------------------------------------------------------------------------------
// Answers that cannot be read: typed errors with the JSON path

fn decode_error(err: Error) -> (&'static str, String, String) {
    match err {
        Error::Decode(e) => {
            let operation = e.call.as_ref().expect("the call is kept").operation;
            (operation, e.path, e.message)
        }
        other => panic!("expected a decode error, got {other:?}"),
    }
}

#[tokio::test]
async fn an_origin_answer_with_neither_key_is_a_decode_error() {
    let server = MockServer::start_async().await;
    serve(
        &server,
        GET,
        "/origins/C123456/101",
        r#"{"result":{}}"#.into(),
    )
    .await;
    let err = client(&server)
        .cdn()
        .origins()
        .get(&OriginId::from(101u64))
        .await
        .unwrap_err();
    let (operation, path, message) = decode_error(err);
    assert_eq!(operation, "getOrigin");
    assert_eq!(path, "success");
    assert!(message.contains("succes"), "{message}");
}

/// Serves the answers of [`unreadable_fields_cost_the_field_not_the_call`] and
/// [`a_strict_client_names_each_unreadable_field_by_its_path`].
async fn serve_unreadable_fields(server: &MockServer) {
    serve(
        server,
        GET,
        "/origins/C123456",
        r#"{"succes":[{"id":1},{"id":2,"refresh_every":-5}]}"#.into(),
    )
    .await;
    serve(
        server,
        GET,
        "/customers/C123456/20/0",
        r#"{"success":{"id":1,"created_at":"yesterday","active":1}}"#.into(),
    )
    .await;
}

#[tokio::test]
async fn unreadable_fields_cost_the_field_not_the_call() {
    let server = MockServer::start_async().await;
    serve_unreadable_fields(&server).await;
    let client = client(&server);
    let cdn = client.cdn();

    // A negative refresh interval cannot be a number of seconds: that field is none,
    // its raw value kept, and the record and the list stay.
    let origins = cdn.origins().list().await.unwrap();
    assert!(origins.is_complete());
    assert_eq!(origins.len(), 2);
    assert_eq!(origins[1].id.as_str(), "2");
    assert_eq!(origins[1].refresh_every_seconds, None);
    assert_eq!(origins[1].extra["refresh_every"], -5);
    assert!(origins[0].extra.is_empty(), "{:?}", origins[0].extra);

    // Text where Unix seconds belong: the other fields are read.
    let customer = cdn.customers().get().await.unwrap();
    assert_eq!(customer.id.as_ref().map(|id| id.as_str()), Some("1"));
    assert_eq!(customer.created_at, None);
    assert_eq!(customer.extra["created_at"], "yesterday");
    assert_eq!(customer.active, Some(true));
}

#[tokio::test]
async fn a_strict_client_names_each_unreadable_field_by_its_path() {
    let server = MockServer::start_async().await;
    serve_unreadable_fields(&server).await;
    let client = strict_client(&server);
    let cdn = client.cdn();

    // In a list, the record at fault fails alone.
    let origins = cdn.origins().list().await.unwrap();
    assert_eq!(origins.len(), 1);
    assert_eq!(origins[0].id.as_str(), "1");
    let [unreadable] = origins.unreadable() else {
        panic!("one record is unreadable: {:?}", origins.unreadable());
    };
    assert_eq!(unreadable.index, 1);
    let Error::Decode(e) = &unreadable.error else {
        panic!("expected a decode error, got {:?}", unreadable.error);
    };
    assert_eq!(
        (e.call.as_ref().map(|c| c.operation), e.path.as_str()),
        (Some("listOrigins"), "success[1].refresh_every")
    );

    // A single record fails the call, at its first unreadable field.
    let (operation, path, _) = decode_error(cdn.customers().get().await.unwrap_err());
    assert_eq!(
        (operation, path.as_str()),
        ("getCustomer", "success.created_at")
    );
}

#[tokio::test]
async fn what_identifies_a_record_is_required_even_leniently() {
    let server = MockServer::start_async().await;
    serve(
        &server,
        GET,
        "/customers/reseller/C123456/7001",
        r#"{"success":{"C123456":{"0":{},"first":{}}}}"#.into(),
    )
    .await;
    serve(
        &server,
        GET,
        "/customers/acl/C123456",
        r#"{"success":{"C1":{},"C2":{}}}"#.into(),
    )
    .await;
    serve(
        &server,
        GET,
        "/origins/C123456/102",
        r#"{"succes":{"label":"no id"}}"#.into(),
    )
    .await;
    serve(
        &server,
        GET,
        "/origins/C123456",
        r#"{"succes":[{"id":1},{"label":"no id"},{"id":3}]}"#.into(),
    )
    .await;
    let client = client(&server);
    let cdn = client.cdn();

    // Sub-customers under keys that are not indexes, none with a number: 7001 is not
    // among them.
    let number = CustomerNumber::new("7001").unwrap();
    let (operation, path, message) =
        decode_error(cdn.sub_customers().get(&number).await.unwrap_err());
    assert_eq!((operation, path.as_str()), ("getSubCustomer", "success"));
    assert!(message.contains("7001"), "{message}");

    // ACLs of other customers only.
    let (operation, path, message) = decode_error(cdn.acl().get().await.unwrap_err());
    assert_eq!((operation, path.as_str()), ("getAcl", "success"));
    assert!(message.contains("C123456"), "{message}");

    // An origin without an id (`succes` is read as `success`).
    let (operation, path, _) = decode_error(
        cdn.origins()
            .get(&OriginId::from(102u64))
            .await
            .unwrap_err(),
    );
    assert_eq!((operation, path.as_str()), ("getOrigin", "success.id"));

    // In a list, the record without an id is unreadable in its place; the others stay.
    let origins = cdn.origins().list().await.unwrap();
    assert_eq!(
        origins.iter().map(|o| o.id.as_str()).collect::<Vec<_>>(),
        ["1", "3"]
    );
    assert!(!origins.is_complete());
    let [unreadable] = origins.unreadable() else {
        panic!("one record is unreadable: {:?}", origins.unreadable());
    };
    assert_eq!(unreadable.index, 1);
    let Error::Decode(e) = &unreadable.error else {
        panic!("expected a decode error, got {:?}", unreadable.error);
    };
    assert_eq!(e.path, "success[1].id");
}

#[tokio::test]
async fn a_wrongly_typed_integer_boolean_is_none_or_strictly_an_error() {
    let server = MockServer::start_async().await;
    serve(
        &server,
        GET,
        "/customers/C123456/20/0",
        r#"{"success":{"id":1,"active":"maybe","reseller":"Yes"}}"#.into(),
    )
    .await;
    let customer = client(&server).cdn().customers().get().await.unwrap();
    assert_eq!(customer.active, None);
    assert_eq!(customer.extra["active"], "maybe");
    assert_eq!(customer.reseller, Some(true), "\"Yes\" is a boolean");
    let (operation, path, _) = decode_error(
        strict_client(&server)
            .cdn()
            .customers()
            .get()
            .await
            .unwrap_err(),
    );
    assert_eq!(
        (operation, path.as_str()),
        ("getCustomer", "success.active")
    );
}

// ---------------------------------------------------------------------------------
// Writes: the exact wire form

#[tokio::test]
async fn purge_posts_the_paths_as_json() {
    let server = MockServer::start_async().await;
    let path = signed("/content/purge/C123456/1001");
    let mock = server
        .mock_async(|when, then| {
            when.method(POST)
                .path(path)
                .header("content-type", "application/json")
                .json_body(json!({"urls": ["/index.html", "/css/site.css"]}));
            then.status(200).body(r#"{"success": 5002}"#);
        })
        .await;
    let job = client(&server)
        .cdn()
        .purge(&zone(), &["/index.html", "/css/site.css"])
        .await
        .unwrap();
    mock.assert_async().await;
    assert_eq!(job.id.as_str(), "5002");
    assert_eq!(job.zone, zone());
    assert_eq!(job.urls, ["/index.html", "/css/site.css"]);
    assert!(job.entries.is_empty(), "no status is read yet");
    assert!(!job.is_done());
}

#[tokio::test]
async fn purge_everything_posts_a_single_star() {
    let server = MockServer::start_async().await;
    let path = signed("/content/purge/C123456/1001");
    let mock = server
        .mock_async(|when, then| {
            when.method(POST).path(path).body(r#"{"urls":["*"]}"#);
            then.status(200).body(r#"{"success":5003}"#);
        })
        .await;
    let job = client(&server)
        .cdn()
        .purge_everything(&zone())
        .await
        .unwrap();
    mock.assert_async().await;
    assert_eq!(job.id, PurgeJobId::from(5003u64));
    assert_eq!(job.urls, ["*"]);
}

#[tokio::test]
async fn upsert_sub_customer_sends_the_set_fields_as_a_form() {
    let server = MockServer::start_async().await;
    let path = signed("/customers/reseller/C123456/7001");
    let mock = server
        .mock_async(|when, then| {
            when.method(POST)
                .path(path)
                .header("content-type", "application/x-www-form-urlencoded")
                .body("active=1&companyName=New+Shop+%26+Co&ftp_quota=2048");
            then.status(200).body(
                r#"{"success":{"C123456":{"0":{"customer_number":"7001","companyName":"New Shop & Co","active":1,"ftp_quota":2048,"reseller":0}}}}"#,
            );
        })
        .await;
    let update = SubCustomerUpdate::new()
        .active(true)
        .ftp_quota(2048)
        .company_name("New Shop & Co");
    let sub = client(&server)
        .cdn()
        .sub_customers()
        .update(&CustomerNumber::new("7001").unwrap(), &update)
        .await
        .unwrap();
    mock.assert_async().await;
    assert_eq!(sub.customer_number.as_str(), "7001");
    assert_eq!(sub.company_name.as_deref(), Some("New Shop & Co"));
    assert_eq!(sub.ftp_quota, Some(2048));
    assert_eq!(sub.reseller, Some(false));
}

/// The ACL of `fixtures/cdn/acl.json` as the JSON text the `acl` field carries
/// (every section and permission, named or kept from `extra`, in key order):
/// `{"content":{"DELETE":false,"GET":true,"POST":true},"customers":{"DELETE":false,
/// "GET":true,"POST":false},"ftplog":{"DELETE":false,"GET":false,"POST":false},
/// "logs":{"GET":false},"origins":{"DELETE":false,"GET":true,"POST":true,"PUT":true},
/// "rules":{"GET":true,"POST":false},"search":{"GET":true},"stats":{"GET":true},
/// "zones":{"DELETE":false,"GET":true,"PATCH":true,"POST":true}}`, form-encoded.
const ACL_FORM: &str = "acl=%7B%22content%22%3A%7B%22DELETE%22%3Afalse%2C%22GET%22%3Atrue%2C%22POST%22%3Atrue%7D%2C%22customers%22%3A%7B%22DELETE%22%3Afalse%2C%22GET%22%3Atrue%2C%22POST%22%3Afalse%7D%2C%22ftplog%22%3A%7B%22DELETE%22%3Afalse%2C%22GET%22%3Afalse%2C%22POST%22%3Afalse%7D%2C%22logs%22%3A%7B%22GET%22%3Afalse%7D%2C%22origins%22%3A%7B%22DELETE%22%3Afalse%2C%22GET%22%3Atrue%2C%22POST%22%3Atrue%2C%22PUT%22%3Atrue%7D%2C%22rules%22%3A%7B%22GET%22%3Atrue%2C%22POST%22%3Afalse%7D%2C%22search%22%3A%7B%22GET%22%3Atrue%7D%2C%22stats%22%3A%7B%22GET%22%3Atrue%7D%2C%22zones%22%3A%7B%22DELETE%22%3Afalse%2C%22GET%22%3Atrue%2C%22PATCH%22%3Atrue%2C%22POST%22%3Atrue%7D%7D";

#[tokio::test]
async fn replace_acl_sends_the_acl_as_json_text_in_one_form_field() {
    let server = MockServer::start_async().await;
    serve(
        &server,
        GET,
        "/customers/acl/C123456",
        fixture("cdn/acl.json"),
    )
    .await;
    let path = signed("/customers/acl/C123456");
    let mock = server
        .mock_async(|when, then| {
            when.method(POST)
                .path(path)
                .header("content-type", "application/x-www-form-urlencoded")
                .body(ACL_FORM);
            then.status(200).body(fixture("cdn/acl.json"));
        })
        .await;
    let client = client(&server);
    // What was read is written back whole, unknown entries included.
    let acl: Acl = client.cdn().acl().get().await.unwrap();
    let answered = client.cdn().acl().update(&acl).await.unwrap();
    mock.assert_async().await;
    assert_eq!(answered, acl);
}

#[tokio::test]
async fn delete_acl_sends_delete_without_a_body() {
    let server = MockServer::start_async().await;
    let path = signed("/customers/acl/C123456");
    let mock = server
        .mock_async(|when, then| {
            when.method(DELETE).path(path).body("");
            then.status(200).body(
                r#"{"success":{"C123456":{"content":{"POST":false,"GET":false,"DELETE":false}}}}"#,
            );
        })
        .await;
    let acl = client(&server).cdn().acl().delete().await.unwrap();
    mock.assert_async().await;
    assert_eq!(acl, Acl::default());
}

#[tokio::test]
async fn create_origin_sends_the_flag_under_both_names() {
    let server = MockServer::start_async().await;
    let path = signed("/origins/C123456");
    let mock = server
        .mock_async(|when, then| {
            when.method(POST)
                .path(path)
                .header("content-type", "application/x-www-form-urlencoded")
                .body(
                    "basic_auth_password=s3+secret%26key&basic_auth_user=AKIAEXAMPLE0000001\
                     &ignore_cache_control=1&ignore_cache_refresh=1&label=assets\
                     &origin=https%3A%2F%2Fassets.s3.example&origin_type=s3\
                     &refresh_every=3600&s3_bucket_name=assets-bucket",
                );
            then.status(200).body(fixture("cdn/origin_succes.json"));
        })
        .await;
    let new = NewOrigin::new("assets", "https://assets.s3.example")
        .origin_type(OriginType::S3)
        .s3_bucket_name("assets-bucket")
        .refresh_every_seconds(3600)
        .ignore_cache_control(true)
        .basic_auth("AKIAEXAMPLE0000001", "s3 secret&key");
    assert!(!format!("{new:?}").contains("s3 secret&key"));
    let created = client(&server).cdn().origins().create(&new).await.unwrap();
    mock.assert_async().await;
    assert_eq!(created.id.as_str(), "102");
}

#[tokio::test]
async fn update_origin_sends_only_what_changes_and_reads_nothing_back() {
    for answer in [
        r#"{"success":""}"#,
        r#"{"succes":""}"#,
        r#"{"success":true,"message":"updated"}"#,
        "",
    ] {
        let server = MockServer::start_async().await;
        let path = signed("/origins/C123456/101");
        let mock = server
            .mock_async(|when, then| {
                when.method(PUT)
                    .path(path)
                    .header("content-type", "application/x-www-form-urlencoded")
                    .body("ignore_cache_control=0&ignore_cache_refresh=0&label=www+main");
                then.status(200).body(answer);
            })
            .await;
        let update = OriginUpdate::new()
            .label("www main")
            .ignore_cache_control(false);
        client(&server)
            .cdn()
            .origins()
            .update(&OriginId::from(101u64), &update)
            .await
            .unwrap_or_else(|e| panic!("{answer}: {e}"));
        mock.assert_async().await;
    }
}

// ---------------------------------------------------------------------------------
// Refused before sending

fn assert_invalid<T: std::fmt::Debug>(result: Result<T, Error>, expected: &str) {
    match result {
        Err(Error::InvalidInput { argument, reason }) => {
            assert_eq!(argument, expected, "{reason}");
        }
        other => panic!("expected invalid {expected}, got {other:?}"),
    }
}

#[tokio::test]
async fn bad_input_sends_nothing() {
    let server = MockServer::start_async().await;
    let any = server
        .mock_async(|when, then| {
            when.any_request();
            then.status(500);
        })
        .await;
    let client = client(&server);
    let cdn = client.cdn();
    let none: [&str; 0] = [];

    assert_invalid(cdn.purge(&zone(), &none).await, "paths");
    assert_invalid(cdn.purge(&zone(), &["/a.css", "*"]).await, "paths");
    assert_invalid(cdn.purge(&zone(), &["/a.css", "  "]).await, "paths");
    // Zone ids and customer numbers are tokens, purge job ids numbers: other text
    // cannot be made into one.
    assert_invalid(ZoneId::new("zoné"), "ZoneId");
    assert_invalid(PurgeJobId::new("job-1"), "PurgeJobId");
    assert_invalid(CustomerNumber::new("70:01"), "CustomerNumber");
    assert_invalid(
        cdn.sub_customers()
            .update(
                &CustomerNumber::new("7001").unwrap(),
                &SubCustomerUpdate::new(),
            )
            .await,
        "update",
    );
    let mut acl = Acl::default();
    acl.extra.insert("content".into(), json!({"GET": true}));
    assert_invalid(cdn.acl().update(&acl).await, "acl.extra");
    assert_invalid(
        cdn.origins()
            .create(&NewOrigin::new(" ", "https://www.example.com"))
            .await,
        "label",
    );
    assert_invalid(
        cdn.origins()
            .create(&NewOrigin::new("www", "www.example.com"))
            .await,
        "url",
    );
    assert_invalid(
        cdn.origins()
            .create(
                &NewOrigin::new("assets", "https://assets.example.com").origin_type(OriginType::S3),
            )
            .await,
        "s3_bucket_name",
    );
    assert_invalid(
        cdn.origins()
            .update(&OriginId::from(101u64), &OriginUpdate::new())
            .await,
        "update",
    );
    // An origin id is a number by its rule: other text cannot be made into one.
    assert_invalid(OriginId::new("abc"), "OriginId");
    assert_eq!(any.calls_async().await, 0);
}

#[tokio::test]
async fn missing_cdn_settings_are_named_and_nothing_is_sent() {
    let server = MockServer::start_async().await;
    let any = server
        .mock_async(|when, then| {
            when.any_request();
            then.status(500);
        })
        .await;
    let cdn_base = format!("{}{CDN_BASE_PATH}", server.base_url());

    let no_customer = Client::builder()
        .cdn_base_url(&cdn_base)
        .cdn_secret(CDN_SECRET)
        .build()
        .unwrap();
    assert_invalid(no_customer.cdn().acl().get().await, "cdn_customer");
    assert_invalid(
        no_customer.cdn().purge(&zone(), &["/a.css"]).await,
        "cdn_customer",
    );

    let no_secret = Client::builder()
        .api_key("key")
        .base_url(server.base_url())
        .cdn_base_url(&cdn_base)
        .cdn_customer(CDN_CUSTOMER)
        .build()
        .unwrap();
    assert_invalid(no_secret.cdn().origins().list().await, "cdn_secret");
    assert_invalid(
        no_secret.cdn().purge_everything(&zone()).await,
        "cdn_secret",
    );

    let no_base_url = Client::builder()
        .cdn_secret(CDN_SECRET)
        .cdn_customer(CDN_CUSTOMER)
        .build()
        .unwrap();
    assert_invalid(no_base_url.cdn().customers().get().await, "cdn_base_url");

    let reserved = Client::builder()
        .cdn_base_url(&cdn_base)
        .cdn_secret(CDN_SECRET)
        .cdn_customer("reseller")
        .build()
        .unwrap();
    assert_invalid(reserved.cdn().customers().get().await, "cdn_customer");

    assert_eq!(any.calls_async().await, 0);
}
