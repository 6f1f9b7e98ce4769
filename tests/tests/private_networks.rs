//! Private networks: normalised output (snapshots), the exact wire form of each call,
//! validation before sending, typed decode errors, and the member waiters against
//! answers that change between polls.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use hostapi::private_networks::NetworkMemberStatus;
use hostapi::types::{BareMetalId, PrivateNetworkId, RateUnit};
use hostapi::{Error, WaitOptions};
use hostapi_tests::{API_KEY, client, decode_parts, fixture, strict_client, to_json};
use httpmock::Method::{DELETE, GET, POST};
use httpmock::MockServer;

const FORM: &str = "application/x-www-form-urlencoded";

fn network() -> PrivateNetworkId {
    PrivateNetworkId::from(7u32)
}

fn server_id() -> BareMetalId {
    BareMetalId::from(12345u32)
}

/// The detail of network 7 with bare metal 12345 in `status`, or without it.
fn detail(status: Option<&str>) -> String {
    let members = match status {
        Some(status) => format!(
            r#"[{{"id":12345,"dataCenter":"AMS-01","CIDR":"10.29.0.2/22","status":"{status}","portSpeed":"1000"}},{{"id":"999","status":"CONFIGURED"}}]"#
        ),
        None => r#"[{"id":"999","status":"CONFIGURED"}]"#.to_owned(),
    };
    format!(r#"[{{"id":7,"name":"backend","bareMetals":{members}}}]"#)
}

/// Polls as often as a waiter allows.
fn quick() -> WaitOptions {
    WaitOptions::new()
        .interval(WaitOptions::MIN_INTERVAL)
        .timeout(Duration::from_secs(10))
}

#[tokio::test]
async fn list_reads_offset_timestamps() {
    let server = MockServer::start_async().await;
    let mock = server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/v1/privateNetworks")
                .header("X-Svc-Auth", API_KEY);
            then.status(200)
                .body(fixture("infra-rest/private_networks.json"));
        })
        .await;
    let list = client(&server).private_networks().list().await.unwrap();
    mock.assert_async().await;
    // `_metadata.totalCount` is 3 and the page holds 3: one request.
    assert_eq!(list.len(), 3);
    let first = &list[0];
    // `+hhmm` without a colon.
    assert_eq!(
        first.created_at.map(|t| t.to_rfc3339()).as_deref(),
        Some("2023-05-01T10:15:00+02:00")
    );
    assert!(first.members.is_none());
    assert_eq!(list[1].server_count, Some(0));
    assert!(list[1].extra.contains_key("vlanId"));
    // Empty text is none.
    assert_eq!(list[2].name, None);
    assert_eq!(list[2].updated_at, None);
    insta::assert_json_snapshot!("private_networks_list", to_json(&list));
}

#[tokio::test]
async fn list_fetches_the_pages_the_count_announces() {
    let server = MockServer::start_async().await;
    let item = |id: u32| format!(r#"{{"id":{id},"name":"net-{id}","serverCount":0}}"#);
    let first = server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/v1/privateNetworks")
                .query_param_missing("offset")
                .query_param_missing("limit");
            then.status(200).body(format!(
                r#"{{"_metadata":{{"totalCount":3,"limit":2,"offset":0}},"privateNetworks":[{},{}]}}"#,
                item(1),
                item(2)
            ));
        })
        .await;
    let second = server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/v1/privateNetworks")
                .query_param("offset", "2")
                .query_param("limit", "100");
            then.status(200).body(format!(
                r#"{{"_metadata":{{"totalCount":3,"limit":100,"offset":2}},"privateNetworks":[{}]}}"#,
                item(3)
            ));
        })
        .await;
    let list = client(&server).private_networks().list().await.unwrap();
    first.assert_async().await;
    second.assert_async().await;
    let ids: Vec<&str> = list.iter().map(|n| n.id.as_str()).collect();
    assert_eq!(ids, ["1", "2", "3"]);
}

#[tokio::test]
async fn get_unwraps_the_array_and_reads_members() {
    let server = MockServer::start_async().await;
    let mock = server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/v1/privateNetworks/7")
                .header("X-Svc-Auth", API_KEY);
            then.status(200)
                .body(fixture("infra-rest/private_network.json"));
        })
        .await;
    let net = client(&server)
        .private_networks()
        .get(&network())
        .await
        .unwrap();
    mock.assert_async().await;
    let members = net.members.as_deref().unwrap();
    let ids: Vec<_> = members.iter().map(|m| m.bare_metal_id.as_str()).collect();
    assert_eq!(ids, ["12345", "12346", "12347", "12348"]);
    let statuses: Vec<_> = members.iter().map(|m| m.status.clone()).collect();
    assert_eq!(
        statuses,
        [
            Some(NetworkMemberStatus::Configured),
            Some(NetworkMemberStatus::Configuring),
            Some(NetworkMemberStatus::Removing),
            Some(NetworkMemberStatus::from_wire("migrating")),
        ]
    );
    assert!(members[3].status.as_ref().is_some_and(|s| s.is_unknown()));
    // A bare port speed is in Mbps; one with a unit keeps it.
    let speed = members[0].port_speed.as_ref().unwrap();
    assert_eq!(
        (speed.amount.to_string(), speed.unit.clone()),
        ("1000".to_owned(), RateUnit::MegabitsPerSecond)
    );
    assert_eq!(
        members[2].port_speed.as_ref().unwrap().unit,
        RateUnit::GigabitsPerSecond
    );
    assert_eq!(
        members[0].gateway.map(|g| g.to_string()).as_deref(),
        Some("10.29.0.1")
    );
    assert_eq!(members[3].broadcast, None);
    assert_eq!(members[3].gateway, None);
    assert!(members[3].extra.contains_key("vlan"));
    assert!(net.extra.contains_key("createdBy"));
    assert_eq!(
        net.member(&BareMetalId::from(12346u32))
            .map(|m| m.cidr.as_deref()),
        Some(Some("10.29.0.6/22"))
    );
    insta::assert_json_snapshot!("private_network_get", to_json(&net));
}

#[tokio::test]
async fn get_takes_the_network_asked_for_from_a_longer_array() {
    let server = MockServer::start_async().await;
    server
        .mock_async(|when, then| {
            when.method(GET).path("/v1/privateNetworks/7");
            then.status(200)
                .body(r#"[{"id":6,"name":"other"},{"id":7,"name":"backend"}]"#);
        })
        .await;
    let net = client(&server)
        .private_networks()
        .get(&network())
        .await
        .unwrap();
    assert_eq!(net.name.as_deref(), Some("backend"));
    assert_eq!(net.members.as_deref(), Some(&[][..]));

    let server = MockServer::start_async().await;
    server
        .mock_async(|when, then| {
            when.method(GET).path("/v1/privateNetworks/7");
            then.status(200).body("[]");
        })
        .await;
    let err = client(&server)
        .private_networks()
        .get(&network())
        .await
        .unwrap_err();
    let (operation, path, message) = decode_parts(&err).unwrap_or_else(|| panic!("{err:?}"));
    assert_eq!((operation, path), ("getPrivateNetwork", ""));
    assert!(message.contains("private network 7"), "{message}");
}

#[tokio::test]
async fn create_and_delete() {
    let server = MockServer::start_async().await;
    let create = server
        .mock_async(|when, then| {
            when.method(POST)
                .path("/v1/privateNetworks")
                .header("X-Svc-Auth", API_KEY)
                .body("");
            then.status(201)
                .body(r#"{"id":10,"message":"Private network created"}"#);
        })
        .await;
    let delete = server
        .mock_async(|when, then| {
            when.method(DELETE)
                .path("/v1/privateNetworks/10")
                .header("X-Svc-Auth", API_KEY)
                .body("");
            then.status(200)
                .body(r#"{"message":"Private network 10 deleted"}"#);
        })
        .await;
    let client = client(&server);
    let networks = client.private_networks();
    let created = networks.create().await.unwrap();
    assert_eq!(created.id.as_str(), "10");
    assert_eq!(created.message.as_deref(), Some("Private network created"));
    let deleted = networks.delete(&created.id).await.unwrap();
    assert_eq!(
        deleted.message.as_deref(),
        Some("Private network 10 deleted")
    );
    create.assert_async().await;
    delete.assert_async().await;
    insta::assert_json_snapshot!("private_network_created", to_json(&created));
}

#[tokio::test]
async fn add_member_posts_the_form_and_remove_member_deletes() {
    let server = MockServer::start_async().await;
    let add = server
        .mock_async(|when, then| {
            when.method(POST)
                .path("/v1/privateNetworks/7/bareMetals")
                .header("X-Svc-Auth", API_KEY)
                .header("content-type", FORM)
                .body("bareMetalId=12345");
            then.status(204);
        })
        .await;
    let remove = server
        .mock_async(|when, then| {
            when.method(DELETE)
                .path("/v1/privateNetworks/7/bareMetals/12345")
                .header("X-Svc-Auth", API_KEY)
                .body("");
            then.status(204);
        })
        .await;
    let client = client(&server);
    let networks = client.private_networks();
    networks.add_member(&network(), &server_id()).await.unwrap();
    networks
        .remove_member(&network(), &server_id())
        .await
        .unwrap();
    add.assert_async().await;
    remove.assert_async().await;
}

#[tokio::test]
async fn non_numeric_ids_send_nothing() {
    // Network and server ids are numbers by their rules: one that is not cannot be
    // made, so no call can send one.
    let argument = |err: Error| match err {
        Error::InvalidInput { argument, .. } => argument,
        other => panic!("{other}"),
    };
    assert_eq!(
        argument("backend".parse::<PrivateNetworkId>().unwrap_err()),
        "PrivateNetworkId"
    );
    assert_eq!(
        argument("web-01".parse::<BareMetalId>().unwrap_err()),
        "BareMetalId"
    );
}

#[tokio::test]
async fn wait_member_configured_polls_until_configured() {
    let server = MockServer::start_async().await;
    let configuring = server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/v1/privateNetworks/7")
                .header("X-Svc-Auth", API_KEY);
            then.status(200).body(detail(Some("CONFIGURING")));
        })
        .await;
    configuring.up_to_n_times_async(2).await;
    let configured = server
        .mock_async(|when, then| {
            when.method(GET).path("/v1/privateNetworks/7");
            then.status(200).body(detail(Some("CONFIGURED")));
        })
        .await;
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    let options = quick().on_progress(move |p| {
        log.lock().unwrap().push((p.state.clone(), p.polls));
    });
    let member = client(&server)
        .private_networks()
        .wait_member_configured(&network(), &server_id(), &options)
        .await
        .unwrap();
    assert_eq!(member.status, Some(NetworkMemberStatus::Configured));
    assert_eq!(member.bare_metal_id, server_id());
    assert_eq!(
        *seen.lock().unwrap(),
        [("configuring".to_owned(), 1), ("configuring".to_owned(), 2)]
    );
    configuring.assert_calls_async(2).await;
    configured.assert_calls_async(1).await;
}

#[tokio::test]
async fn wait_member_removed_polls_until_the_member_is_gone() {
    let server = MockServer::start_async().await;
    let removing = server
        .mock_async(|when, then| {
            when.method(GET).path("/v1/privateNetworks/7");
            then.status(200).body(detail(Some("REMOVING")));
        })
        .await;
    removing.up_to_n_times_async(3).await;
    let gone = server
        .mock_async(|when, then| {
            when.method(GET).path("/v1/privateNetworks/7");
            then.status(200).body(detail(None));
        })
        .await;
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    let options = quick().on_progress(move |p| log.lock().unwrap().push(p.state.clone()));
    client(&server)
        .private_networks()
        .wait_member_removed(&network(), &server_id(), &options)
        .await
        .unwrap();
    assert_eq!(*seen.lock().unwrap(), ["removing"; 3]);
    removing.assert_calls_async(3).await;
    gone.assert_calls_async(1).await;
}

#[tokio::test]
async fn waiters_stop_on_states_the_goal_cannot_follow() {
    // A state that contradicts the goal ends the wait at the first poll; one that may
    // only be late (a member not listed yet, a removal not shown yet) after a few.
    let tolerated = 4;
    for (status, removal, state, polls) in [
        (None, false, "not a member", tolerated),
        (Some("REMOVING"), false, "removing", 1),
        (Some("MIGRATING"), false, "MIGRATING", 1),
        (Some("CONFIGURED"), true, "configured", tolerated),
        (Some("CONFIGURING"), true, "configuring", tolerated),
        (Some("MIGRATING"), true, "MIGRATING", 1),
    ] {
        let server = MockServer::start_async().await;
        let mock = server
            .mock_async(|when, then| {
                when.method(GET).path("/v1/privateNetworks/7");
                then.status(200).body(detail(status));
            })
            .await;
        let client = client(&server);
        let networks = client.private_networks();
        let err = if removal {
            networks
                .wait_member_removed(&network(), &server_id(), &quick())
                .await
                .unwrap_err()
        } else {
            networks
                .wait_member_configured(&network(), &server_id(), &quick())
                .await
                .map(|_| ())
                .unwrap_err()
        };
        match err {
            Error::WaitFailed(e) => {
                assert_eq!(e.last_seen, state, "{status:?} removal={removal}");
                assert!(e.what.contains("12345") && e.what.contains("private network 7"));
            }
            other => panic!("{status:?} removal={removal}: {other}"),
        }
        mock.assert_calls_async(polls).await;
    }
    // Already gone: the removal wait is over at once.
    let server = MockServer::start_async().await;
    server
        .mock_async(|when, then| {
            when.method(GET).path("/v1/privateNetworks/7");
            then.status(200).body(detail(None));
        })
        .await;
    client(&server)
        .private_networks()
        .wait_member_removed(&network(), &server_id(), &quick())
        .await
        .unwrap();
}

#[tokio::test]
async fn waiters_give_up_at_the_deadline_and_pass_poll_errors_on() {
    let server = MockServer::start_async().await;
    server
        .mock_async(|when, then| {
            when.method(GET).path("/v1/privateNetworks/7");
            then.status(200).body(detail(Some("CONFIGURING")));
        })
        .await;
    let options = WaitOptions::new()
        .interval(WaitOptions::MIN_INTERVAL)
        .timeout(Duration::from_millis(250));
    match client(&server)
        .private_networks()
        .wait_member_configured(&network(), &server_id(), &options)
        .await
        .unwrap_err()
    {
        Error::WaitTimeout(e) => assert_eq!(e.last_seen, "configuring"),
        other => panic!("{other}"),
    }

    let server = MockServer::start_async().await;
    server
        .mock_async(|when, then| {
            when.method(GET).path("/v1/privateNetworks/7");
            then.status(404)
                .body(r#"{"errorCode":"404","errorMessage":"Private network 7 not found"}"#);
        })
        .await;
    let err = client(&server)
        .private_networks()
        .wait_member_removed(&network(), &server_id(), &quick())
        .await
        .unwrap_err();
    assert!(err.is_not_found(), "{err}");
    assert_eq!(err.operation(), Some("getPrivateNetwork"));
}

/// A field that cannot be read costs that field on a default client (a member whose
/// id cannot be read is left out of the members, and kept in `extra`), and is a
/// decode error naming its path on a strict one.
#[tokio::test]
async fn unreadable_fields_are_decode_errors_with_their_path() {
    let list = |item: &str| format!(r#"{{"privateNetworks":[{{"id":1,"name":"a"}},{item}]}}"#);
    let member = |m: &str| format!(r#"[{{"id":7,"bareMetals":[{{"id":1}},{m}]}}]"#);
    let cases = [
        (
            "/v1/privateNetworks",
            list(r#"{"id":2,"createdAt":"yesterday"}"#),
            "listPrivateNetworks",
            "privateNetworks[1].createdAt",
        ),
        (
            "/v1/privateNetworks",
            list(r#"{"id":2,"updatedAt":"2023-05-01 10:15"}"#),
            "listPrivateNetworks",
            "privateNetworks[1].updatedAt",
        ),
        (
            "/v1/privateNetworks/7",
            member(r#"{"id":2,"gateway":"10.0.0"}"#),
            "getPrivateNetwork",
            "[0].bareMetals[1].gateway",
        ),
        (
            "/v1/privateNetworks/7",
            member(r#"{"status":"CONFIGURED"}"#),
            "getPrivateNetwork",
            "[0].bareMetals[1].id",
        ),
        (
            "/v1/privateNetworks/7",
            member(r#"{"id":2,"portSpeed":"fast"}"#),
            "getPrivateNetwork",
            "[0].bareMetals[1].portSpeed",
        ),
    ];
    for (path, body, operation, field) in cases {
        let server = MockServer::start_async().await;
        server
            .mock_async(|when, then| {
                when.method(GET).path(path);
                then.status(200).body(&body);
            })
            .await;
        let strict = strict_client(&server);
        let err = if operation == "listPrivateNetworks" {
            let lenient = client(&server).private_networks().list().await.unwrap();
            assert!(lenient.is_complete() && lenient.len() == 2, "{body}");
            let second = &lenient[1];
            assert!(second.created_at.is_none() && second.updated_at.is_none());
            let key = field.rsplit('.').next().unwrap();
            assert!(second.extra.contains_key(key), "{body}: {:?}", second.extra);
            let listing = strict.private_networks().list().await.unwrap();
            assert_eq!(listing.len(), 1, "{body}");
            listing.into_result().unwrap_err()
        } else {
            let lenient = client(&server)
                .private_networks()
                .get(&network())
                .await
                .unwrap_or_else(|e| panic!("{body}: {e}"));
            let members = lenient.members.as_deref().unwrap();
            if field.ends_with(".id") {
                assert_eq!(members.len(), 1, "{body}");
                assert!(
                    lenient.extra.contains_key("bareMetals[1]"),
                    "{:?}",
                    lenient.extra
                );
            } else {
                assert_eq!(members.len(), 2, "{body}");
                let second = &members[1];
                assert!(second.gateway.is_none() && second.port_speed.is_none());
                let key = field.rsplit('.').next().unwrap();
                assert!(second.extra.contains_key(key), "{body}: {:?}", second.extra);
            }
            strict.private_networks().get(&network()).await.unwrap_err()
        };
        let (op, at, _) = decode_parts(&err).unwrap_or_else(|| panic!("{body}: {err:?}"));
        assert_eq!((op, at), (operation, field), "{body}");
    }
    // A creation answer without the new id: the network may have been made, but
    // which it is cannot be told.
    let server = MockServer::start_async().await;
    server
        .mock_async(|when, then| {
            when.method(POST).path("/v1/privateNetworks");
            then.status(200).body(r#"{"message":"created"}"#);
        })
        .await;
    let err = client(&server)
        .private_networks()
        .create()
        .await
        .unwrap_err();
    assert!(err.is_outcome_unknown(), "{err:?}");
    let (operation, path, _) = decode_parts(&err).unwrap_or_else(|| panic!("{err:?}"));
    assert_eq!((operation, path), ("createPrivateNetwork", "id"));
}
