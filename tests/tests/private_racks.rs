//! Private racks: normalised output (snapshots), the exact wire form of each call,
//! validation before sending, and typed decode errors.

use hostapi::{Error, IpUpdate, PrivateRackId};
use hostapi_tests::{API_KEY, client, fixture, to_json};
use httpmock::Method::{GET, PUT};
use httpmock::MockServer;

const FORM: &str = "application/x-www-form-urlencoded";

fn rack() -> PrivateRackId {
    PrivateRackId::from(4001u32)
}

/// A date as text, for comparing the model's dates (the tests do not depend on chrono).
fn day<T: ToString>(value: Option<T>) -> Option<String> {
    value.map(|d| d.to_string())
}

#[tokio::test]
async fn list_reads_string_and_integer_ids() {
    let server = MockServer::start_async().await;
    let mock = server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/v1/privateRacks")
                .header("X-Svc-Auth", API_KEY);
            then.status(200)
                .body(fixture("infra-rest/private_racks.json"));
        })
        .await;
    let racks = client(&server).private_racks().list().await.unwrap();
    mock.assert_async().await;
    let ids: Vec<_> = racks.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["4001", "4002", "4003"]);
    // The list view names nothing else; a field it sends anyway is kept.
    assert!(racks[0].name.is_none() && racks[0].contract.is_none());
    assert!(racks[2].extra.contains_key("privateRackName"));
    insta::assert_json_snapshot!("private_racks_list", to_json(&racks));
}

#[tokio::test]
async fn get_reads_the_detail() {
    let server = MockServer::start_async().await;
    let mock = server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/v1/privateRacks/4001")
                .header("X-Svc-Auth", API_KEY);
            then.status(200)
                .body(fixture("infra-rest/private_rack.json"));
        })
        .await;
    let detail = client(&server).private_racks().get(&rack()).await.unwrap();
    mock.assert_async().await;
    // An integer id in the detail is the same id as the list's string.
    assert_eq!(detail.id, rack());
    let contract = detail.contract.as_ref().unwrap();
    assert_eq!(day(contract.start_date).as_deref(), Some("2019-04-01"));
    assert_eq!(day(contract.end_date), None);
    // The pack's copy of the rack's id and name matches, so it is not repeated.
    assert!(contract.extra.is_empty());
    assert_eq!(detail.sla.as_deref(), Some("Basic - 24x7x24"));
    insta::assert_json_snapshot!("private_rack_get", to_json(&detail));
}

#[tokio::test]
async fn a_pack_that_disagrees_with_its_rack_is_kept() {
    let server = MockServer::start_async().await;
    server
        .mock_async(|when, then| {
            when.method(GET).path("/v1/privateRacks/4001");
            then.status(200).body(
                r#"{"privateRack":{"privateRackId":"4001","privateRackName":"a","serverHostingPack":{"privateRackId":4009,"privateRackName":"b","startDate":"Jan 5, 2020","endDate":"2023-01-04T00:00:00+0100"},"serviceLevelAgreement":{"sla":"Gold","pricePerMonth":49.5,"responseTime":"4h"}}}"#,
            );
        })
        .await;
    let detail = client(&server).private_racks().get(&rack()).await.unwrap();
    let contract = detail.contract.unwrap();
    assert_eq!(contract.extra["privateRackId"], "4009");
    assert_eq!(contract.extra["privateRackName"], "b");
    assert_eq!(day(contract.start_date).as_deref(), Some("2020-01-05"));
    assert_eq!(day(contract.end_date).as_deref(), Some("2023-01-04"));
    assert_eq!(
        detail.extra["serviceLevelAgreement.pricePerMonth"],
        serde_json::json!(49.5)
    );
    assert_eq!(
        detail.extra["serviceLevelAgreement.responseTime"],
        serde_json::json!("4h")
    );
}

#[tokio::test]
async fn ips_list_and_get() {
    let server = MockServer::start_async().await;
    let list = server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/v1/privateRacks/4001/ips")
                .header("X-Svc-Auth", API_KEY);
            then.status(200)
                .body(fixture("infra-rest/private_rack_ips.json"));
        })
        .await;
    let one = server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/v1/privateRacks/4001/ips/192.0.2.65")
                .header("X-Svc-Auth", API_KEY);
            then.status(200)
                .body(fixture("infra-rest/private_rack_ip.json"));
        })
        .await;
    let client = client(&server);
    let ips = client.private_racks().ips(&rack());
    let all = ips.list().await.unwrap();
    let single = ips.get("192.0.2.65").await.unwrap();
    list.assert_async().await;
    one.assert_async().await;

    assert_eq!(all.len(), 3);
    assert!(
        all.iter()
            .all(|ip| ip.private_rack_id.as_ref() == Some(&rack()))
    );
    assert_eq!(all[1].null_routed, Some(true));
    assert!(all[0].reverse_lookup.is_none());
    assert!(all[2].extra.contains_key("vlan"));
    assert_eq!(
        single.reverse_lookup.as_deref(),
        Some("rack1-65.example.com")
    );
    insta::assert_json_snapshot!("private_rack_ips_list", to_json(&all));
    insta::assert_json_snapshot!("private_rack_ip_get", to_json(&single));
}

#[tokio::test]
async fn ip_updates_put_one_field() {
    for (change, body) in [
        (
            IpUpdate::ReverseLookup("rack1-65.example.com".into()),
            "reverseLookup=rack1-65.example.com",
        ),
        (IpUpdate::NullRouted(true), "nullRouted=1"),
        (IpUpdate::NullRouted(false), "nullRouted=0"),
    ] {
        let server = MockServer::start_async().await;
        let mock = server
            .mock_async(|when, then| {
                when.method(PUT)
                    .path("/v1/privateRacks/4001/ips/192.0.2.65")
                    .header("X-Svc-Auth", API_KEY)
                    .header("content-type", FORM)
                    .body(body);
                then.status(200)
                    .body(fixture("infra-rest/private_rack_ip.json"));
            })
            .await;
        let ip = client(&server)
            .private_racks()
            .ips(&rack())
            .update("192.0.2.65", &change)
            .await
            .unwrap_or_else(|e| panic!("{body}: {e}"));
        mock.assert_async().await;
        assert_eq!(ip.ip.to_string(), "192.0.2.65");
    }
}

#[tokio::test]
async fn network_usage_sends_dd_mm_yyyy_and_keeps_the_record_opaque() {
    let server = MockServer::start_async().await;
    let mock = server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/v1/privateRacks/4001/networkUsage")
                .header("X-Svc-Auth", API_KEY)
                .query_param("dateFrom", "01-01-2024")
                .query_param("dateTo", "31-01-2024");
            then.status(200)
                .body(fixture("infra-rest/private_rack_network_usage.json"));
        })
        .await;
    let usage = client(&server)
        .private_racks()
        .network_usage(
            &rack(),
            "2024-01-01".parse().unwrap(),
            "2024-01-31".parse().unwrap(),
        )
        .await
        .unwrap();
    mock.assert_async().await;
    assert_eq!(usage.as_json()["networkUsage"]["days"], 31);
    insta::assert_json_snapshot!("private_rack_network_usage", to_json(&usage));
}

#[tokio::test]
async fn a_one_day_interval_is_allowed() {
    let server = MockServer::start_async().await;
    let mock = server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/v1/privateRacks/4001/networkUsage")
                .query_param("dateFrom", "29-02-2024")
                .query_param("dateTo", "29-02-2024");
            then.status(200).body("{}");
        })
        .await;
    client(&server)
        .private_racks()
        .network_usage(
            &rack(),
            "2024-02-29".parse().unwrap(),
            "2024-02-29".parse().unwrap(),
        )
        .await
        .unwrap();
    mock.assert_async().await;
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
    let racks = client.private_racks();
    let err = racks
        .network_usage(
            &rack(),
            "2024-02-01".parse().unwrap(),
            "2024-01-31".parse().unwrap(),
        )
        .await
        .unwrap_err();
    assert!(
        matches!(&err, Error::InvalidInput { argument, .. } if argument == "from"),
        "{err}"
    );
    let ips = racks.ips(&rack());
    for (ip, change, argument) in [
        ("192.0.2", IpUpdate::NullRouted(true), "ip"),
        ("../x", IpUpdate::NullRouted(true), "ip"),
        (
            "192.0.2.65",
            IpUpdate::ReverseLookup("not a host".into()),
            "reverse_lookup",
        ),
    ] {
        let err = ips.update(ip, &change).await.unwrap_err();
        assert!(
            matches!(&err, Error::InvalidInput { argument: a, .. } if a == argument),
            "{ip}: {err}"
        );
    }
    assert!(matches!(
        ips.get("x").await.unwrap_err(),
        Error::InvalidInput { argument, .. } if argument == "ip"
    ));
    // Ids a caller builds are checked when built.
    assert!(PrivateRackId::new("..").is_err());
    assert!(PrivateRackId::new("a/b").is_err());
    assert_eq!(any.calls_async().await, 0);
}

#[tokio::test]
async fn unreadable_fields_are_decode_errors_with_their_path() {
    let cases: [(&str, &str, &str, &str); 4] = [
        (
            "/v1/privateRacks",
            r#"{"privateRacks":[{"privateRack":{"privateRackId":"4001"}},{"privateRack":{"privateRackId":""}}]}"#,
            "listPrivateRacks",
            "privateRacks[1].privateRack.privateRackId",
        ),
        (
            "/v1/privateRacks/4001",
            r#"{"privateRack":{"privateRackId":4001,"serverHostingPack":{"startDate":"2019-04-01","endDate":"someday"}}}"#,
            "getPrivateRack",
            "privateRack.serverHostingPack.endDate",
        ),
        (
            "/v1/privateRacks/4001/ips",
            r#"{"ips":[{"ip":{"ip":"192.0.2.1"}},{"ip":{"ip":"192.0.2.300"}}]}"#,
            "listPrivateRackIps",
            "ips[1].ip.ip",
        ),
        (
            "/v1/privateRacks/4001/ips",
            r#"{"ips":[{"ip":{"ip":"192.0.2.1","billingInformation":{"price":"free"}}}]}"#,
            "listPrivateRackIps",
            "ips[0].ip.billingInformation.price",
        ),
    ];
    for (path, body, operation, field) in cases {
        let server = MockServer::start_async().await;
        server
            .mock_async(|when, then| {
                when.method(GET).path(path);
                then.status(200).body(body);
            })
            .await;
        let client = client(&server);
        let racks = client.private_racks();
        let err = match operation {
            "listPrivateRacks" => racks.list().await.map(|_| ()),
            "getPrivateRack" => racks.get(&rack()).await.map(|_| ()),
            _ => racks.ips(&rack()).list().await.map(|_| ()),
        }
        .unwrap_err();
        match err {
            Error::Decode {
                operation: op,
                path: p,
                ..
            } => {
                assert_eq!(op, operation, "{body}");
                assert_eq!(p, field, "{body}");
            }
            other => panic!("{body}: {other}"),
        }
    }
}
