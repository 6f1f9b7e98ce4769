//! Private racks: normalised output (snapshots), the exact wire form of each call,
//! validation before sending, and typed decode errors.

use std::net::IpAddr;

use hostapi::ips::IpUpdate;
use hostapi::types::PrivateRackId;
use hostapi::{Client, Error};
use hostapi_tests::{API_KEY, client, decode_parts, fixture, strict_client, to_json};
use httpmock::Method::{GET, PUT};
use httpmock::MockServer;

const FORM: &str = "application/x-www-form-urlencoded";

fn rack() -> PrivateRackId {
    PrivateRackId::from(4001u32)
}

fn ip(text: &str) -> IpAddr {
    text.parse().expect("an IP address")
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
    // The list view names nothing else; a name it sends anyway is read (one reader
    // for the list and the detail), and nothing is left over.
    assert!(racks[0].name.is_none() && racks[0].contract.is_none());
    assert_eq!(racks[2].name.as_deref(), Some("fra-rack-3"));
    assert!(racks.iter().all(|r| r.extra.is_empty()));
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
    assert_eq!(
        detail.sla.as_ref().and_then(|s| s.name.as_deref()),
        Some("Basic - 24x7x24")
    );
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
    // The agreement's price is read; what the model does not name is kept.
    let sla = detail.sla.expect("an agreement");
    assert_eq!(sla.name.as_deref(), Some("Gold"));
    assert_eq!(
        sla.monthly_price.map(|p| p.to_string()).as_deref(),
        Some("49.5")
    );
    assert_eq!(sla.extra["responseTime"], serde_json::json!("4h"));
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
    let single = ips.get(ip("192.0.2.65")).await.unwrap();
    list.assert_async().await;
    one.assert_async().await;

    assert_eq!(all.len(), 3);
    assert!(
        all.iter()
            .all(|ip| ip.private_rack_id.as_ref() == Some(&rack()))
    );
    assert_eq!(all[1].null_routed, Some(true));
    assert!(all[0].reverse_dns.is_none());
    assert!(all[2].extra.contains_key("vlan"));
    assert_eq!(single.reverse_dns.as_deref(), Some("rack1-65.example.com"));
    insta::assert_json_snapshot!("private_rack_ips_list", to_json(&all));
    insta::assert_json_snapshot!("private_rack_ip_get", to_json(&single));
}

#[tokio::test]
async fn ip_updates_put_one_field() {
    for (change, body) in [
        (
            IpUpdate::ReverseDns("rack1-65.example.com".into()),
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
            .update(ip("192.0.2.65"), &change)
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
    let err = ips
        .update(ip("192.0.2.65"), &IpUpdate::ReverseDns("not a host".into()))
        .await
        .unwrap_err();
    assert!(
        matches!(&err, Error::InvalidInput { argument, .. } if argument == "reverse_dns"),
        "{err}"
    );
    // Addresses are typed: what is not one cannot be passed at all.
    for text in ["192.0.2", "../x", "x"] {
        assert!(text.parse::<IpAddr>().is_err(), "{text}");
    }
    // Ids a caller builds are checked when built.
    assert!(PrivateRackId::new("..").is_err());
    assert!(PrivateRackId::new("a/b").is_err());
    assert_eq!(any.calls_async().await, 0);
}

/// The errors of the records a list could not read.
fn unreadable<T>(listing: hostapi::Listing<T>) -> Vec<Error> {
    listing
        .into_parts()
        .1
        .into_iter()
        .map(|u| u.error)
        .collect()
}

/// The decode errors of one call: a single record's error, or those of the records a
/// list could not read (a list call that fails as a whole panics).
async fn decode_errors(client: &Client, operation: &str) -> Vec<(&'static str, String)> {
    let racks = client.private_racks();
    let errors: Vec<Error> = match operation {
        "listPrivateRacks" => unreadable(racks.list().await.unwrap()),
        "getPrivateRack" => racks.get(&rack()).await.err().into_iter().collect(),
        _ => unreadable(racks.ips(&rack()).list().await.unwrap()),
    };
    errors
        .iter()
        .map(|e| {
            let (op, path, _) = decode_parts(e).unwrap_or_else(|| panic!("{e:?}"));
            (op, path.to_owned())
        })
        .collect()
}

/// An unreadable id fails its record (the rest of the list is kept); any other field
/// that cannot be read costs that field on a default client, and is a decode error
/// naming its path on a strict one.
#[tokio::test]
async fn unreadable_fields_are_decode_errors_with_their_path() {
    let cases: [(&str, &str, &str, &str, bool); 4] = [
        (
            "/v1/privateRacks",
            r#"{"privateRacks":[{"privateRack":{"privateRackId":"4001"}},{"privateRack":{"privateRackId":""}}]}"#,
            "listPrivateRacks",
            "privateRacks[1].privateRack.privateRackId",
            true,
        ),
        (
            "/v1/privateRacks/4001",
            r#"{"privateRack":{"privateRackId":4001,"serverHostingPack":{"startDate":"2019-04-01","endDate":"someday"}}}"#,
            "getPrivateRack",
            "privateRack.serverHostingPack.endDate",
            false,
        ),
        (
            "/v1/privateRacks/4001/ips",
            r#"{"ips":[{"ip":{"ip":"192.0.2.1"}},{"ip":{"ip":"192.0.2.300"}}]}"#,
            "listPrivateRackIps",
            "ips[1].ip.ip",
            true,
        ),
        (
            "/v1/privateRacks/4001/ips",
            r#"{"ips":[{"ip":{"ip":"192.0.2.1","billingInformation":{"price":"free"}}}]}"#,
            "listPrivateRackIps",
            "ips[0].ip.billingInformation.price",
            false,
        ),
    ];
    for (path, body, operation, field, is_id) in cases {
        let server = MockServer::start_async().await;
        server
            .mock_async(|when, then| {
                when.method(GET).path(path);
                then.status(200).body(body);
            })
            .await;
        let expected = vec![(operation, field.to_owned())];
        let lenient = decode_errors(&client(&server), operation).await;
        if is_id {
            assert_eq!(lenient, expected, "{body}");
        } else {
            assert!(lenient.is_empty(), "{body}: {lenient:?}");
        }
        let strict = decode_errors(&strict_client(&server), operation).await;
        assert_eq!(strict, expected, "strictly: {body}");
    }
    // Leniently, the value that could not be read is kept where it was.
    let server = MockServer::start_async().await;
    server
        .mock_async(|when, then| {
            when.method(GET).path("/v1/privateRacks/4001");
            then.status(200).body(cases[1].1);
        })
        .await;
    let detail = client(&server).private_racks().get(&rack()).await.unwrap();
    let contract = detail.contract.expect("a contract");
    assert_eq!(contract.end_date, None);
    assert_eq!(contract.extra["endDate"], "someday");
    assert_eq!(day(contract.start_date).as_deref(), Some("2019-04-01"));
}
