//! Bare metal network: usage (combined, bandwidth, data traffic, PNG graphs), IPs and
//! DHCP leases — normalised output, wire form, and checks that send nothing.

use std::net::IpAddr;

use hostapi::Error;
use hostapi::bare_metal::NewDhcpLease;
use hostapi::ips::{IpUpdate, ServerKind};
use hostapi::types::{BareMetalId, DataUnit, MacAddress, RateUnit};
use hostapi_tests::{API_KEY, client, fixture, strict_client, to_json};
use httpmock::Method::{DELETE, GET, POST, PUT};
use httpmock::MockServer;

fn id(value: &str) -> BareMetalId {
    BareMetalId::new(value).expect("a valid id")
}

fn ip(value: &str) -> IpAddr {
    value.parse().expect("a valid IP address")
}

fn mac(value: &str) -> MacAddress {
    MacAddress::new(value).expect("a valid MAC address")
}

/// A calendar date (`chrono::NaiveDate`, which the facade takes), read from its ISO
/// text: the test crate does not depend on chrono, so the type is left to inference.
macro_rules! day {
    ($y:literal, $m:literal, $d:literal) => {
        serde_json::from_value(serde_json::json!(format!("{:04}-{:02}-{:02}", $y, $m, $d)))
            .expect("a valid date")
    };
}

fn assert_invalid(error: &Error, expected: &str) {
    match error {
        Error::InvalidInput { argument, .. } => assert_eq!(argument, expected, "{error}"),
        other => panic!("expected invalid input `{expected}`, got {other}"),
    }
}

fn assert_decode(error: &Error, expected_operation: &str, expected_path: &str) {
    match error {
        Error::Decode(e) => {
            assert_eq!(
                e.call.as_ref().map(|c| c.operation),
                Some(expected_operation),
                "{error}"
            );
            assert_eq!(e.path, expected_path, "{error}");
        }
        other => panic!("expected a decode error, got {other}"),
    }
}

/// A GET of `path` with the API key, the usage query of January 2024 and
/// `Accept: application/json`, answered with `body`.
async fn usage_mock<'a>(server: &'a MockServer, path: &str, body: String) -> httpmock::Mock<'a> {
    server
        .mock_async(|when, then| {
            when.method(GET)
                .path(path)
                .header("X-Svc-Auth", API_KEY)
                .header("accept", "application/json")
                .query_param("dateFrom", "01-01-2024")
                .query_param("dateTo", "31-01-2024");
            then.status(200)
                .header("content-type", "application/json")
                .body(body);
        })
        .await
}

#[tokio::test]
async fn the_combined_usage_reads_per_port_maps_and_units() {
    let server = MockServer::start_async().await;
    let mock = usage_mock(
        &server,
        "/v1/bareMetals/20001/networkUsage",
        fixture("bare-metal/network_usage.json"),
    )
    .await;
    let usage = client(&server)
        .bare_metals()
        .network_usage(&id("20001"), day!(2024, 1, 1), day!(2024, 1, 31))
        .await
        .unwrap();
    mock.assert_async().await;
    let bandwidth = usage.bandwidth.as_ref().unwrap();
    assert_eq!(bandwidth.ports.len(), 2);
    assert_eq!(bandwidth.ports[0].port.as_deref(), Some("eth0"));
    let total = bandwidth.ports[0].total.as_ref().unwrap();
    assert_eq!(total.bits_per_second().unwrap().to_string(), "11000000");
    assert_eq!(bandwidth.extra["measurement.peakDay"], "12-01-2024");
    // `dataTraffic` in this view.
    let traffic = usage.data_traffic.as_ref().unwrap();
    let eth0 = traffic.ports[0].total.as_ref().unwrap();
    assert_eq!(
        (eth0.amount.to_string(), &eth0.unit),
        ("1100.5".to_owned(), &DataUnit::Gigabytes)
    );
    let interval = traffic.interval.unwrap();
    assert_eq!(
        (
            interval.from.map(|d| d.to_string()),
            interval.to.map(|d| d.to_string())
        ),
        (Some("2024-01-01".to_owned()), Some("2024-01-31".to_owned()))
    );
    assert_eq!(traffic.extra["interval.timezone"], "CET");
    assert_eq!(usage.extra["currency"], "EUR");
    insta::assert_json_snapshot!("bare_metal_network_usage", to_json(&usage));
}

#[tokio::test]
async fn the_combined_usage_reads_either_traffic_key_and_keeps_a_second_one() {
    let server = MockServer::start_async().await;
    usage_mock(
        &server,
        "/v1/bareMetals/1/networkUsage",
        r#"{"datatraffic":{"measurement":{"total":"7 GB"}}}"#.to_owned(),
    )
    .await;
    usage_mock(
        &server,
        "/v1/bareMetals/2/networkUsage",
        r#"{"dataTraffic":{"measurement":{"total":"7 GB"}},"datatraffic":{"measurement":{"total":"8 GB"}}}"#
            .to_owned(),
    )
    .await;
    let client = client(&server);
    let bare_metals = client.bare_metals();
    let (from, to) = (day!(2024, 1, 1), day!(2024, 1, 31));
    let usage = bare_metals.network_usage(&id("1"), from, to).await.unwrap();
    let total = usage.data_traffic.unwrap().total.unwrap();
    assert_eq!(
        (total.amount.to_string(), total.unit),
        ("7".to_owned(), DataUnit::Gigabytes)
    );
    assert_eq!(usage.bandwidth, None);
    // Both keys: the documented one of this view wins, the other is kept as sent.
    let usage = bare_metals.network_usage(&id("2"), from, to).await.unwrap();
    let total = usage.data_traffic.unwrap().total.unwrap();
    assert_eq!(total.amount.to_string(), "7");
    assert_eq!(usage.extra["datatraffic"]["measurement"]["total"], "8 GB");
}

#[tokio::test]
async fn bandwidth_reads_a_per_port_array() {
    let server = MockServer::start_async().await;
    usage_mock(
        &server,
        "/v1/bareMetals/20001/networkUsage/bandwidth",
        fixture("bare-metal/bandwidth.json"),
    )
    .await;
    let bandwidth = client(&server)
        .bare_metals()
        .bandwidth(&id("20001"), day!(2024, 1, 1), day!(2024, 1, 31))
        .await
        .unwrap();
    assert_eq!(bandwidth.ports[0].port.as_deref(), Some("eth0"));
    assert_eq!(bandwidth.ports[1].port, None);
    assert_eq!(
        bandwidth.ports[1].incoming.as_ref().unwrap().unit,
        RateUnit::GigabitsPerSecond
    );
    assert_eq!(bandwidth.ports[1].extra["errors"], 0);
    // Terabits per second are a unit the model knows now (an unknown one is kept: see
    // the data traffic's PiB).
    assert_eq!(
        bandwidth.overusage.as_ref().unwrap().unit,
        RateUnit::TerabitsPerSecond
    );
    assert_eq!(bandwidth.extra["graphUrl"], serde_json::Value::Null);
    insta::assert_json_snapshot!("bare_metal_bandwidth", to_json(&bandwidth));
}

#[tokio::test]
async fn data_traffic_reads_a_single_node_under_either_key() {
    let server = MockServer::start_async().await;
    usage_mock(
        &server,
        "/v1/bareMetals/20001/networkUsage/datatraffic",
        fixture("bare-metal/datatraffic.json"),
    )
    .await;
    usage_mock(
        &server,
        "/v1/bareMetals/20002/networkUsage/datatraffic",
        r#"{"dataTraffic":{"measurement":{"total":"5 TB"},"serverId":20002}}"#.to_owned(),
    )
    .await;
    let client = client(&server);
    let bare_metals = client.bare_metals();
    let traffic = bare_metals
        .data_traffic(&id("20001"), day!(2024, 1, 1), day!(2024, 1, 31))
        .await
        .unwrap();
    assert_eq!(traffic.ports.len(), 1);
    assert_eq!(traffic.ports[0].port, None);
    assert_eq!(
        traffic.monthly_threshold.as_ref().unwrap().unit,
        DataUnit::from_wire("PiB")
    );
    assert!(
        traffic
            .monthly_threshold
            .as_ref()
            .unwrap()
            .unit
            .is_unknown()
    );
    insta::assert_json_snapshot!("bare_metal_data_traffic", to_json(&traffic));
    let other = bare_metals
        .data_traffic(&id("20002"), day!(2024, 1, 1), day!(2024, 1, 31))
        .await
        .unwrap();
    assert_eq!(other.total.unwrap().unit, DataUnit::Terabytes);
    assert_eq!(other.server_id.unwrap().as_str(), "20002");
}

#[tokio::test]
async fn unreadable_usage_figures_are_none_and_kept_or_strictly_errors_at_their_path() {
    let server = MockServer::start_async().await;
    usage_mock(
        &server,
        "/v1/bareMetals/1/networkUsage",
        r#"{"bandwidth":{"measurement":{"node":{"eth0":{"in":"fast","out":"1 Mbps"}}}}}"#
            .to_owned(),
    )
    .await;
    usage_mock(
        &server,
        "/v1/bareMetals/1/networkUsage/datatraffic",
        r#"{"datatraffic":{"interval":{"from":"2024/01/01"},"measurement":{"total":"5 TB"}}}"#
            .to_owned(),
    )
    .await;
    usage_mock(
        &server,
        "/v1/bareMetals/2/networkUsage/datatraffic",
        r#"{"unexpected":{}}"#.to_owned(),
    )
    .await;
    let (from, to) = (day!(2024, 1, 1), day!(2024, 1, 31));

    let lenient = client(&server);
    let usage = lenient
        .bare_metals()
        .network_usage(&id("1"), from, to)
        .await
        .unwrap();
    let kept = serde_json::to_string(&to_json(&usage)).unwrap();
    assert!(kept.contains("\"fast\""), "the figure is kept: {kept}");
    assert!(
        kept.contains("\"1 Mbps\"") || kept.contains("megabits"),
        "{kept}"
    );
    let traffic = lenient
        .bare_metals()
        .data_traffic(&id("1"), from, to)
        .await
        .unwrap();
    assert_eq!(traffic.total.as_ref().unwrap().unit, DataUnit::Terabytes);
    let kept = serde_json::to_string(&to_json(&traffic)).unwrap();
    assert!(kept.contains("2024/01/01"), "the date is kept: {kept}");

    let strict = strict_client(&server);
    let error = strict
        .bare_metals()
        .network_usage(&id("1"), from, to)
        .await
        .unwrap_err();
    assert_decode(
        &error,
        "getBareMetalNetworkUsage",
        // The ports keyed by name are read as a list: the path names eth0 by its place.
        "bandwidth.measurement.node[0].in",
    );
    let error = strict
        .bare_metals()
        .data_traffic(&id("1"), from, to)
        .await
        .unwrap_err();
    assert_decode(
        &error,
        "getBareMetalDataTrafficUsage",
        "datatraffic.interval.from",
    );
    // No usage at all where it is expected.
    let error = lenient
        .bare_metals()
        .data_traffic(&id("2"), from, to)
        .await
        .unwrap_err();
    assert_decode(&error, "getBareMetalDataTrafficUsage", "datatraffic");
}

const PNG: &[u8] = &[
    0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, b'I', b'H', b'D', b'R',
];

#[tokio::test]
async fn graphs_ask_for_png_and_check_the_signature() {
    let server = MockServer::start_async().await;
    let bandwidth = server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/v1/bareMetals/20001/networkUsage/bandwidth")
                .header("X-Svc-Auth", API_KEY)
                .header("accept", "image/png")
                .query_param("dateFrom", "01-02-2024")
                .query_param("dateTo", "29-02-2024");
            then.status(200)
                .header("content-type", "image/png")
                .body(PNG);
        })
        .await;
    let traffic = server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/v1/bareMetals/20001/networkUsage/datatraffic")
                .header("X-Svc-Auth", API_KEY)
                .header("accept", "image/png");
            then.status(200)
                .header("content-type", "application/json")
                .body(r#"{"datatraffic":{}}"#);
        })
        .await;
    let client = client(&server);
    let bare_metals = client.bare_metals();
    let png = bare_metals
        .bandwidth_png(&id("20001"), day!(2024, 2, 1), day!(2024, 2, 29))
        .await
        .unwrap();
    assert_eq!(png, PNG);
    bandwidth.assert_async().await;
    let error = bare_metals
        .data_traffic_png(&id("20001"), day!(2024, 2, 1), day!(2024, 2, 29))
        .await
        .unwrap_err();
    match &error {
        Error::Decode(e) => {
            assert_eq!(
                e.call.as_ref().map(|c| c.operation),
                Some("getBareMetalDataTrafficUsage")
            );
            assert_eq!(e.path, "");
            assert!(e.message.contains("expected a PNG image"), "{}", e.message);
            assert!(e.message.contains("application/json"), "{}", e.message);
            assert_eq!(e.body_excerpt, r#"{"datatraffic":{}}"#);
        }
        other => panic!("{other}"),
    }
    traffic.assert_async().await;
}

#[tokio::test]
async fn graph_errors_keep_the_status() {
    let server = MockServer::start_async().await;
    server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/v1/bareMetals/20001/networkUsage/bandwidth");
            then.status(403)
                .body("<html><head><title>Forbidden</title></head></html>");
        })
        .await;
    let error = client(&server)
        .bare_metals()
        .bandwidth_png(&id("20001"), day!(2024, 2, 1), day!(2024, 2, 29))
        .await
        .unwrap_err();
    assert!(error.is_auth(), "{error}");
    assert_eq!(error.operation(), Some("getBareMetalBandwidthUsage"));
}

#[tokio::test]
async fn a_reversed_interval_sends_nothing() {
    let server = MockServer::start_async().await;
    let any = server
        .mock_async(|when, then| {
            when.any_request();
            then.status(500);
        })
        .await;
    let client = client(&server);
    let bare_metals = client.bare_metals();
    let (from, to) = (day!(2024, 2, 1), day!(2024, 1, 1));
    assert_invalid(
        &bare_metals
            .network_usage(&id("1"), from, to)
            .await
            .unwrap_err(),
        "from",
    );
    assert_invalid(
        &bare_metals.bandwidth(&id("1"), from, to).await.unwrap_err(),
        "from",
    );
    assert_invalid(
        &bare_metals
            .data_traffic(&id("1"), from, to)
            .await
            .unwrap_err(),
        "from",
    );
    assert_invalid(
        &bare_metals
            .bandwidth_png(&id("1"), from, to)
            .await
            .unwrap_err(),
        "from",
    );
    assert_invalid(
        &bare_metals
            .data_traffic_png(&id("1"), from, to)
            .await
            .unwrap_err(),
        "from",
    );
    assert_eq!(any.calls_async().await, 0);
}

#[tokio::test]
async fn ips_list_get_and_update() {
    let server = MockServer::start_async().await;
    let list = server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/v1/bareMetals/20001/ips")
                .header("X-Svc-Auth", API_KEY);
            then.status(200).body(fixture("bare-metal/ips.json"));
        })
        .await;
    let get = server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/v1/bareMetals/20001/ips/192.0.2.10")
                .header("X-Svc-Auth", API_KEY);
            then.status(200).body(fixture("bare-metal/ip.json"));
        })
        .await;
    let reverse = server
        .mock_async(|when, then| {
            when.method(PUT)
                .path("/v1/bareMetals/20001/ips/192.0.2.10")
                .header("X-Svc-Auth", API_KEY)
                .header("content-type", "application/x-www-form-urlencoded")
                .body("reverseLookup=mail.example.com");
            then.status(200).body(fixture("bare-metal/ip.json"));
        })
        .await;
    let null_route = server
        .mock_async(|when, then| {
            when.method(PUT)
                .path("/v1/bareMetals/20001/ips/2001:db8::10")
                .body("nullRouted=1");
            then.status(200)
                .body(r#"{"ip":{"ip":"2001:db8::10","nullRouted":true}}"#);
        })
        .await;
    let client = client(&server);
    let ips = client.bare_metals().ips(&id("20001"));

    let all = ips.list().await.unwrap();
    list.assert_async().await;
    // `mask` (as sent) and `netmask` (as documented) both give the netmask.
    assert_eq!(all[0].netmask.as_deref(), Some("255.255.255.0"));
    assert_eq!(all[1].netmask.as_deref(), Some("ffff:ffff:ffff:ffff::"));
    assert_eq!(
        all[1].server.as_ref().unwrap().kind,
        Some(ServerKind::from_wire("Dedicated"))
    );
    assert!(
        all[1]
            .server
            .as_ref()
            .unwrap()
            .kind
            .as_ref()
            .unwrap()
            .is_unknown()
    );
    assert!(all.is_complete());
    assert_eq!(all[1].extra["assignedBy"], "portal");
    insta::assert_json_snapshot!("bare_metal_ips", to_json(&all));

    let one = ips.get(ip("192.0.2.10")).await.unwrap();
    get.assert_async().await;
    assert_eq!(one.reverse_dns.as_deref(), Some("mail.example.com"));
    insta::assert_json_snapshot!("bare_metal_ip", to_json(&one));

    ips.update(
        ip("192.0.2.10"),
        &IpUpdate::ReverseDns("mail.example.com".into()),
    )
    .await
    .unwrap();
    reverse.assert_async().await;
    let routed = ips
        .update(ip("2001:DB8:0::10"), &IpUpdate::NullRouted(true))
        .await
        .unwrap();
    null_route.assert_async().await;
    assert_eq!(routed.null_routed, Some(true));
}

#[tokio::test]
async fn bad_ip_input_sends_nothing() {
    let server = MockServer::start_async().await;
    let any = server
        .mock_async(|when, then| {
            when.any_request();
            then.status(500);
        })
        .await;
    let client = client(&server);
    let ips = client.bare_metals().ips(&id("20001"));
    // An IP is an `IpAddr` now: what is not one ("192.0.2", "../../leases",
    // "192.0.2.300") cannot reach a call at all.
    for text in ["192.0.2", "../../leases", "192.0.2.300"] {
        assert!(text.parse::<IpAddr>().is_err(), "{text}");
    }
    assert_invalid(
        &ips.update(ip("192.0.2.10"), &IpUpdate::ReverseDns("not a host".into()))
            .await
            .unwrap_err(),
        "reverse_dns",
    );
    assert_eq!(any.calls_async().await, 0);
}

#[tokio::test]
async fn leases_list_in_both_shapes() {
    for fixture_name in ["bare-metal/leases.json", "bare-metal/leases_bare.json"] {
        let server = MockServer::start_async().await;
        let mock = server
            .mock_async(|when, then| {
                when.method(GET)
                    .path("/v1/bareMetals/20001/leases")
                    .header("X-Svc-Auth", API_KEY);
                then.status(200).body(fixture(fixture_name));
            })
            .await;
        let leases = client(&server)
            .bare_metals()
            .leases(&id("20001"))
            .list()
            .await
            .unwrap_or_else(|e| panic!("{fixture_name}: {e}"));
        mock.assert_async().await;
        assert_eq!(leases.len(), 2, "{fixture_name}");
        assert!(leases.is_complete());
        // MACs in any spelling come out lower-case and colon-separated.
        assert_eq!(leases[1].mac.as_str(), "00:1a:2b:3c:4d:5f");
        let options = &leases[0].options;
        assert_eq!(
            (options[0].id, options[0].policy_name.as_deref()),
            (Some(67), None)
        );
        assert_eq!(options[1].extra["scopeId"], "7");
        assert_eq!(leases.extra()["_metadata.page"], 1);
        // Both shapes normalise to the same value.
        insta::assert_json_snapshot!("bare_metal_leases", to_json(&leases));
    }
}

/// Reads the lease list `body` with a lenient and a strict client.
async fn read_leases(
    body: &str,
) -> (
    Result<hostapi::Listing<hostapi::bare_metal::DhcpLease>, Error>,
    Result<hostapi::Listing<hostapi::bare_metal::DhcpLease>, Error>,
) {
    let server = MockServer::start_async().await;
    server
        .mock_async(|when, then| {
            when.method(GET).path("/v1/bareMetals/20001/leases");
            then.status(200).body(body);
        })
        .await;
    let lenient = client(&server)
        .bare_metals()
        .leases(&id("20001"))
        .list()
        .await;
    let strict = strict_client(&server)
        .bare_metals()
        .leases(&id("20001"))
        .list()
        .await;
    (lenient, strict)
}

#[tokio::test]
async fn a_lease_without_a_readable_mac_is_unreadable_in_its_place() {
    // The MAC identifies a lease.
    let (lenient, strict) = read_leases(
        r#"[{"leases":[{"mac":"00:1a"},{"mac":"00:1a:2b:3c:4d:5e","ip":"192.0.2.20"}]}]"#,
    )
    .await;
    for leases in [lenient.unwrap(), strict.unwrap()] {
        assert_eq!(leases.len(), 1);
        assert_eq!(leases[0].mac.as_str(), "00:1a:2b:3c:4d:5e");
        let [unreadable] = leases.unreadable() else {
            panic!("one lease is unreadable: {:?}", leases.unreadable());
        };
        assert_eq!(unreadable.index, 0);
        assert_decode(
            &unreadable.error,
            "listBareMetalLeases",
            "[0].leases[0].mac",
        );
    }
}

#[tokio::test]
async fn an_unreadable_lease_field_is_none_and_kept_or_strictly_an_error() {
    for (body, path, key) in [
        (
            r#"{"leases":[{"mac":"00:1a:2b:3c:4d:5e","ip":"x"}]}"#,
            "leases[0].ip",
            "ip",
        ),
        (
            r#"{"leases":[{"mac":"00:1a:2b:3c:4d:5e","options":[{"optionId":"sixty-seven","optionValue":"x"}]}]}"#,
            "leases[0].options[0].optionId",
            "optionId",
        ),
    ] {
        let (lenient, strict) = read_leases(body).await;
        let leases = lenient.unwrap_or_else(|e| panic!("{body}: {e}"));
        assert!(leases.is_complete(), "{body}");
        let lease = &leases[0];
        if key == "ip" {
            assert_eq!(lease.ip, None);
            assert_eq!(lease.extra["ip"], "x");
        } else {
            assert_eq!(lease.options[0].id, None);
            assert_eq!(lease.options[0].extra["optionId"], "sixty-seven");
        }
        let strict = strict.unwrap();
        assert!(strict.is_empty(), "{body}");
        assert_decode(&strict.unreadable()[0].error, "listBareMetalLeases", path);
    }
}

#[tokio::test]
async fn a_lease_answer_that_is_no_list_is_a_decode_error() {
    let (lenient, strict) = read_leases(r#""no leases""#).await;
    assert_decode(&lenient.unwrap_err(), "listBareMetalLeases", "");
    assert_decode(&strict.unwrap_err(), "listBareMetalLeases", "");
}

#[tokio::test]
async fn a_lease_is_read_by_mac_in_both_shapes() {
    let server = MockServer::start_async().await;
    let wrapped = server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/v1/bareMetals/20001/leases/00:1a:2b:3c:4d:5e")
                .header("X-Svc-Auth", API_KEY);
            then.status(200).body(fixture("bare-metal/lease.json"));
        })
        .await;
    let bare = server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/v1/bareMetals/20002/leases/00:1a:2b:3c:4d:5e");
            then.status(200)
                .body(r#"{"ip":"192.0.2.20","mac":"00:1A:2B:3C:4D:5E","scope":"192.0.2.0"}"#);
        })
        .await;
    let empty = server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/v1/bareMetals/20003/leases/00:1a:2b:3c:4d:5e");
            then.status(200).body("[]");
        })
        .await;
    let client = client(&server);
    let bare_metals = client.bare_metals();
    // The MAC is sent lower-case and colon-separated whatever the caller's spelling.
    let lease = bare_metals
        .leases(&id("20001"))
        .get(&mac("00-1A-2B-3C-4D-5E"))
        .await
        .unwrap();
    wrapped.assert_async().await;
    assert_eq!(lease.extra["leaseDuration"], "8 days");
    insta::assert_json_snapshot!("bare_metal_lease", to_json(&lease));
    let lease = bare_metals
        .leases(&id("20002"))
        .get(&mac("00:1a:2b:3c:4d:5e"))
        .await
        .unwrap();
    bare.assert_async().await;
    assert_eq!(lease.ip.unwrap().to_string(), "192.0.2.20");
    let error = bare_metals
        .leases(&id("20003"))
        .get(&mac("00:1a:2b:3c:4d:5e"))
        .await
        .unwrap_err();
    assert_decode(&error, "getBareMetalLease", "");
    empty.assert_async().await;
}

#[tokio::test]
async fn lease_writes_send_the_documented_requests() {
    let server = MockServer::start_async().await;
    let create = server
        .mock_async(|when, then| {
            when.method(POST)
                .path("/v1/bareMetals/20001/leases")
                .header("X-Svc-Auth", API_KEY)
                .header("content-type", "application/x-www-form-urlencoded")
                .body(concat!(
                    "bootFileName=http%3A%2F%2Fboot.example.com%2Fipxe.php%3Fserver%3D1",
                    "&bootServerHostName=192.0.2.5",
                    "&domainNameServerIp=2001%3Adb8%3A%3A53",
                ));
            then.status(204);
        })
        .await;
    let delete_all = server
        .mock_async(|when, then| {
            when.method(DELETE)
                .path("/v1/bareMetals/20001/leases")
                .header("X-Svc-Auth", API_KEY)
                .body("");
            then.status(204);
        })
        .await;
    let delete_one = server
        .mock_async(|when, then| {
            when.method(DELETE)
                .path("/v1/bareMetals/20001/leases/00:1a:2b:3c:4d:5e")
                .header("X-Svc-Auth", API_KEY)
                .body("");
            then.status(204);
        })
        .await;
    let client = client(&server);
    let leases = client.bare_metals().leases(&id("20001"));
    leases
        .create(&NewDhcpLease::new(
            "http://boot.example.com/ipxe.php?server=1",
            ip("192.0.2.5"),
            ip("2001:DB8::53"),
        ))
        .await
        .unwrap();
    create.assert_async().await;
    leases.delete_all().await.unwrap();
    delete_all.assert_async().await;
    leases.delete(&mac("00:1A:2B:3C:4D:5E")).await.unwrap();
    delete_one.assert_async().await;
}

#[tokio::test]
async fn bad_lease_input_sends_nothing() {
    let server = MockServer::start_async().await;
    let any = server
        .mock_async(|when, then| {
            when.any_request();
            then.status(500);
        })
        .await;
    let client = client(&server);
    let leases = client.bare_metals().leases(&id("20001"));
    let mut blank_file = NewDhcpLease::new(
        "http://boot.example.com/ipxe",
        ip("192.0.2.5"),
        ip("192.0.2.53"),
    );
    blank_file.boot_file_name = "  ".into();
    assert_invalid(
        &leases.create(&blank_file).await.unwrap_err(),
        "boot_file_name",
    );
    // The servers are `IpAddr`s and the MAC a `MacAddress` now: a host name, an empty
    // address, a short MAC or a path cannot reach a call at all.
    assert!("tftp.example.com".parse::<IpAddr>().is_err());
    assert!("".parse::<IpAddr>().is_err());
    assert_invalid(&MacAddress::new("00:1a:2b:3c:4d").unwrap_err(), "mac");
    assert_invalid(&MacAddress::new("../../ips").unwrap_err(), "mac");
    assert_eq!(any.calls_async().await, 0);
}
