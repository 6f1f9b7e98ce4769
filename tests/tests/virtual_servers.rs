//! v1 virtual servers: normalised output (snapshots), exact wire form of each call.

use hostapi::Error;
use hostapi::types::VirtualServerId;
use hostapi::virtual_servers::VirtualServerState;
use hostapi_tests::{API_KEY, client, decode_parts, fixture, strict_client, to_json};
use httpmock::Method::{GET, POST};
use httpmock::MockServer;

#[tokio::test]
async fn list_normalises_every_quirk() {
    let server = MockServer::start_async().await;
    let mock = server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/v1/virtualServers")
                .header("X-Svc-Auth", API_KEY);
            then.status(200)
                .header("content-type", "application/json")
                .body(fixture("infra/virtual_servers.json"));
        })
        .await;
    let servers = client(&server)
        .virtual_servers()
        .list()
        .await
        .expect("list decodes");
    mock.assert_async().await;

    // Both ipAddresses shapes become one list; `Id` and `id` both give the platform id;
    // a state the docs do not list is kept.
    assert!(servers.is_complete());
    assert_eq!(servers[0].ips.len(), 2);
    assert_eq!(servers[1].ips.len(), 2);
    assert_eq!(
        servers[1].platform.as_ref().and_then(|p| p.id.as_deref()),
        Some("4")
    );
    let state = servers[2].state.as_ref().expect("a state");
    assert!(state.is_unknown(), "{state:?}");
    assert_eq!(state.as_wire(), "Migrating");
    assert_eq!(
        servers[2].state,
        Some(VirtualServerState::from_wire("MIGRATING"))
    );
    assert!(servers[2].extra.contains_key("backupPolicy"));
    insta::assert_json_snapshot!("virtual_servers_list", to_json(&servers));
}

#[tokio::test]
async fn get_unwraps_the_one_element_array() {
    let server = MockServer::start_async().await;
    server
        .mock_async(|when, then| {
            when.method(GET).path("/v1/virtualServers/102");
            then.status(200).body(
                r#"{"virtualServers":[{"id":102,"serverName":"db-01","ipAddresses":{"198.51.100.7":{"isNulled":false,"reverseDNS":"db"}}}]}"#,
            );
        })
        .await;
    let vs = client(&server)
        .virtual_servers()
        .get(&VirtualServerId::from(102u64))
        .await
        .unwrap();
    assert_eq!(vs.id.as_str(), "102");
    assert_eq!(vs.ips[0].ip.to_string(), "198.51.100.7");
}

#[tokio::test]
async fn get_with_other_than_one_element_is_a_decode_error() {
    let server = MockServer::start_async().await;
    server
        .mock_async(|when, then| {
            when.method(GET).path("/v1/virtualServers/7");
            then.status(200).body(r#"{"virtualServers":[]}"#);
        })
        .await;
    let err = client(&server)
        .virtual_servers()
        .get(&7u64.into())
        .await
        .unwrap_err();
    assert_eq!(
        decode_parts(&err),
        Some((
            "getVirtualServer",
            "virtualServers",
            "expected exactly one server, found 0"
        )),
        "{err:?}"
    );
}

/// The list is read record by record: a field that cannot be read costs that field
/// (kept in `extra`, named by its path on a strict client), a record whose id cannot be
/// read is left out of the list and named by its path, and the other records are kept.
/// Any 2xx answer is read.
#[tokio::test]
async fn a_list_record_at_fault_is_named_by_its_path() {
    for status in [200, 203] {
        let server = MockServer::start_async().await;
        server
            .mock_async(|when, then| {
                when.method(GET).path("/v1/virtualServers");
                then.status(status).body(
                    r#"{"total":3,"virtualServers":[{"id":1},{"id":2,"administrativeInfo":{"createdAt":"yesterday"}},{"id":{"n":3}}]}"#,
                );
            })
            .await;
        let listing = client(&server)
            .virtual_servers()
            .list()
            .await
            .unwrap_or_else(|e| panic!("{status}: {e}"));
        let ids: Vec<&str> = listing.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, ["1", "2"], "{status}");
        let info = listing[1]
            .administrative
            .as_ref()
            .expect("administrativeInfo");
        assert_eq!(info.created_at, None);
        assert_eq!(info.extra["createdAt"], "yesterday");
        assert_eq!(listing.extra()["total"], 3);
        let [unreadable] = listing.unreadable() else {
            panic!("{status}: {:?}", listing.unreadable())
        };
        assert_eq!(unreadable.index, 2);
        let (operation, path, message) = decode_parts(&unreadable.error).expect("a decode error");
        assert_eq!(
            (operation, path),
            ("listVirtualServers", "virtualServers[2].id")
        );
        assert!(message.contains("expected an id"), "{message}");

        // Strictly, the forgiven date fails its record too, named by its path.
        let strict = strict_client(&server)
            .virtual_servers()
            .list()
            .await
            .unwrap();
        assert_eq!(strict.len(), 1);
        let errors: Vec<(usize, &str, &str)> = strict
            .unreadable()
            .iter()
            .map(|u| {
                let (_, path, message) = decode_parts(&u.error).expect("a decode error");
                (u.index, path, message)
            })
            .collect();
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert_eq!(
            (errors[0].0, errors[0].1),
            (1, "virtualServers[1].administrativeInfo.createdAt")
        );
        assert_eq!(
            errors[0].2,
            "expected a local date-time like 2024-01-31T13:45:00, found `yesterday`"
        );
        assert_eq!((errors[1].0, errors[1].1), (2, "virtualServers[2].id"));
        assert!(strict.into_result().is_err());
    }
}

#[tokio::test]
async fn power_calls_post_nothing_with_the_key_and_return_the_job() {
    for (action, call) in [
        ("powerOn", 0),
        ("powerOff", 1),
        ("reboot", 2),
        ("reinstall", 3),
    ] {
        let server = MockServer::start_async().await;
        let mock = server
            .mock_async(|when, then| {
                when.method(POST)
                    .path(format!("/v1/virtualServers/101/{action}"))
                    .header("X-Svc-Auth", API_KEY)
                    .header("user-agent", hostapi::client::USER_AGENT)
                    .header_missing("api-version")
                    .body("");
                then.status(202).body(r#"{"asyncjob":{"jobid":"job-42"}}"#);
            })
            .await;
        let client = client(&server);
        let servers = client.virtual_servers();
        let id = VirtualServerId::from(101u64);
        let job = match call {
            0 => servers.power_on(&id).await,
            1 => servers.power_off(&id).await,
            2 => servers.reboot(&id).await,
            _ => servers.reinstall(&id).await,
        }
        .unwrap_or_else(|e| panic!("{action}: {e}"));
        mock.assert_async().await;
        assert_eq!(job.id.as_str(), "job-42", "{action}");
    }
}

#[tokio::test]
async fn a_non_numeric_id_is_refused_before_sending() {
    let server = MockServer::start_async().await;
    let any = server
        .mock_async(|when, then| {
            when.any_request();
            then.status(500);
        })
        .await;
    // A v1 virtual server id is a number by its rule: one that is not cannot be made.
    let err = "abc".parse::<VirtualServerId>().unwrap_err();
    assert!(
        matches!(&err, Error::InvalidInput { argument, .. } if argument == "VirtualServerId"),
        "{err}"
    );
    let _ = client(&server);
    assert_eq!(any.calls_async().await, 0);
}
