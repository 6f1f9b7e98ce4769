//! Cloud v2 virtual servers and private clouds: normalised output (snapshots), the exact
//! wire form of each call, refusals before sending, and typed decode errors.

use hostapi::Error;
use hostapi::cloud::{
    Aggregation, CloudServerState, CredentialType, FirewallState, Granularity, MetricsQuery,
    ServiceOffering,
};
use hostapi::types::{CloudServerId, JobStatus, Username, expose_secrets};
use hostapi_tests::{API_KEY, client, fixture, strict_client, to_json};
use httpmock::Method::{GET, POST, PUT};
use httpmock::{HttpMockRequest, MockServer};

const SERVER: &str = "5d7f8262-d77f-4476-8da8-6a84f8f2ae8d";

fn id() -> CloudServerId {
    CloudServerId::new(SERVER).unwrap()
}

/// The query string of a request, as sent.
fn query(req: &HttpMockRequest) -> String {
    req.uri().query().unwrap_or_default().to_owned()
}

#[tokio::test]
async fn list_normalises_every_quirk() {
    let server = MockServer::start_async().await;
    let mock = server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/cloud/v2/virtualServers")
                .header("X-Svc-Auth", API_KEY)
                .is_true(|req| query(req) == "limit=100&offset=0");
            then.status(200)
                .header("content-type", "application/json")
                .body(fixture("cloud/virtual_servers.json"));
        })
        .await;
    let servers = client(&server)
        .cloud_servers()
        .list()
        .await
        .expect("list decodes");
    mock.assert_async().await;

    assert_eq!(servers.len(), 4);
    assert!(servers.is_complete());
    // A number price and a string price are both exact money with the currency (the
    // decimal in its shortest form: "24.50" is 24.5).
    let price = |i: usize| {
        let money = servers[i]
            .contract
            .as_ref()
            .unwrap()
            .price_per_frequency
            .clone()
            .unwrap();
        (money.amount.to_string(), money.currency.unwrap())
    };
    assert_eq!(price(0), ("12.99".to_owned(), "EUR".to_owned()));
    assert_eq!(price(1), ("24.5".to_owned(), "USD".to_owned()));
    assert_eq!(price(2).0, "0.1");
    // iso null and an object; networkTraffic absent.
    assert!(servers[0].iso.is_none());
    assert_eq!(
        servers[1].iso.as_ref().unwrap().id.as_deref(),
        Some("iso-101")
    );
    assert!(servers[1].network_traffic.is_none());
    // The service's UNKNOWN and values the docs do not name.
    assert_eq!(servers[2].state, Some(CloudServerState::Indeterminate));
    assert_eq!(
        servers[2].firewall_state,
        Some(FirewallState::Indeterminate)
    );
    assert_eq!(
        servers[3].state,
        Some(CloudServerState::from_wire("MAINTENANCE"))
    );
    assert!(servers[3].state.as_ref().unwrap().is_unknown());
    assert_eq!(
        servers[3].service_offering,
        Some(ServiceOffering::from_wire("XXL"))
    );
    assert!(servers[3].service_offering.as_ref().unwrap().is_unknown());
    // Unknown fields are kept, on the record and in sub-objects.
    assert!(servers[1].extra.contains_key("backupPolicy"));
    assert!(servers[3].extra.contains_key("tags"));
    let hardware = servers[3].hardware.as_ref().unwrap();
    assert!(hardware.extra.contains_key("cpu.model"));
    assert!(hardware.extra.contains_key("storage.kind"));
    // Contract dates keep their offsets.
    assert_eq!(
        servers[1]
            .contract
            .as_ref()
            .unwrap()
            .starts_at
            .unwrap()
            .to_rfc3339(),
        "2022-11-15T10:30:00-05:00"
    );
    insta::assert_json_snapshot!("cloud_servers_list", to_json(&servers));
}

#[tokio::test]
async fn get_reads_the_unwrapped_record() {
    let server = MockServer::start_async().await;
    let mock = server
        .mock_async(|when, then| {
            when.method(GET)
                .path(format!("/cloud/v2/virtualServers/{SERVER}"))
                .header("X-Svc-Auth", API_KEY)
                .header_missing("api-version");
            then.status(200).body(fixture("cloud/virtual_server.json"));
        })
        .await;
    let got = client(&server).cloud_servers().get(&id()).await.unwrap();
    mock.assert_async().await;
    assert_eq!(got.id, id());
    assert_eq!(got.service_offering, Some(ServiceOffering::Large));
    insta::assert_json_snapshot!("cloud_server_get", to_json(&got));
}

#[tokio::test]
async fn set_reference_puts_exactly_the_json_body() {
    let server = MockServer::start_async().await;
    let mock = server
        .mock_async(|when, then| {
            when.method(PUT)
                .path(format!("/cloud/v2/virtualServers/{SERVER}"))
                .header("X-Svc-Auth", API_KEY)
                .header("content-type", "application/json")
                .body(r#"{"reference":"web \"blue\" ☃"}"#);
            then.status(200).body(fixture("cloud/virtual_server.json"));
        })
        .await;
    let updated = client(&server)
        .cloud_servers()
        .update(&id(), "web \"blue\" ☃")
        .await
        .unwrap();
    mock.assert_async().await;
    assert_eq!(updated.reference.as_deref(), Some("app-1"));
}

#[tokio::test]
async fn power_calls_post_no_body_and_answer_the_job() {
    for action in ["powerOn", "powerOff", "reboot", "reinstall"] {
        let server = MockServer::start_async().await;
        let mock = server
            .mock_async(|when, then| {
                when.method(POST)
                    .path(format!("/cloud/v2/virtualServers/{SERVER}/{action}"))
                    .header("X-Svc-Auth", API_KEY)
                    .header_missing("content-type")
                    .header_missing("api-version")
                    .body("");
                then.status(202).body(fixture("cloud/job.json"));
            })
            .await;
        let client = client(&server);
        let servers = client.cloud_servers();
        let job = match action {
            "powerOn" => servers.power_on(&id()).await,
            "powerOff" => servers.power_off(&id()).await,
            "reboot" => servers.reboot(&id()).await,
            _ => servers.reinstall(&id()).await,
        }
        .unwrap_or_else(|e| panic!("{action}: {e}"));
        mock.assert_async().await;
        assert_eq!(job.status, Some(JobStatus::Pending), "{action}");
        if action == "powerOn" {
            insta::assert_json_snapshot!("cloud_job", to_json(&job));
        }
    }
}

#[tokio::test]
async fn a_job_status_the_docs_do_not_name_is_kept() {
    let server = MockServer::start_async().await;
    server
        .mock_async(|when, then| {
            when.method(POST)
                .path(format!("/cloud/v2/virtualServers/{SERVER}/reboot"));
            then.status(202)
                .body(r#"{"id":"j-2","name":"virtualServers.reboot","status":"RUNNING"}"#);
        })
        .await;
    let job = client(&server).cloud_servers().reboot(&id()).await.unwrap();
    assert_eq!(job.status, Some(JobStatus::from_wire("RUNNING")));
    assert!(job.status.as_ref().unwrap().is_unknown());
    assert_eq!(job.created_at, None);
}

#[tokio::test]
async fn credentials_list_by_type_without_passwords() {
    let server = MockServer::start_async().await;
    let mock = server
        .mock_async(|when, then| {
            when.method(GET)
                .path(format!(
                    "/cloud/v2/virtualServers/{SERVER}/credentials/OPERATING_SYSTEM"
                ))
                .header("X-Svc-Auth", API_KEY)
                .is_true(|req| query(req) == "limit=100&offset=0");
            then.status(200).body(fixture("cloud/credentials.json"));
        })
        .await;
    let credentials = client(&server)
        .cloud_servers()
        .credentials(&id())
        .list(CredentialType::OperatingSystem)
        .await
        .unwrap();
    mock.assert_async().await;
    assert_eq!(credentials.len(), 4);
    assert!(credentials.is_complete());
    assert!(credentials.iter().all(|c| c.password.is_none()));
    // An item without its type takes the type asked for; a type the docs do not name
    // is kept.
    assert_eq!(
        credentials[2].credential_type,
        CredentialType::OperatingSystem
    );
    assert_eq!(
        credentials[3].credential_type,
        CredentialType::from_wire("RESCUE_SYSTEM")
    );
    assert!(credentials[3].credential_type.is_unknown());
    insta::assert_json_snapshot!("cloud_credentials", to_json(&credentials));
}

#[tokio::test]
async fn credentials_are_paged_through_to_the_end() {
    let server = MockServer::start_async().await;
    let path = format!("/cloud/v2/virtualServers/{SERVER}/credentials/CONTROL_PANEL");
    let first = server
        .mock_async(|when, then| {
            when.method(GET)
                .path(path.clone())
                .is_true(|req| query(req) == "limit=100&offset=0");
            // The server caps the page at 2.
            then.status(200).body(
                r#"{"credentials":[{"type":"CONTROL_PANEL","username":"a"},{"type":"CONTROL_PANEL","username":"b"}],"_metadata":{"totalCount":3,"limit":2,"offset":0}}"#,
            );
        })
        .await;
    let second = server
        .mock_async(|when, then| {
            when.method(GET)
                .path(path.clone())
                .is_true(|req| query(req) == "limit=100&offset=2");
            then.status(200).body(
                r#"{"credentials":[{"type":"CONTROL_PANEL","username":"c"}],"_metadata":{"totalCount":3,"limit":2,"offset":2}}"#,
            );
        })
        .await;
    let credentials = client(&server)
        .cloud_servers()
        .credentials(&id())
        .list(CredentialType::ControlPanel)
        .await
        .unwrap();
    first.assert_async().await;
    second.assert_async().await;
    let names: Vec<&str> = credentials.iter().map(|c| c.username.as_str()).collect();
    assert_eq!(names, ["a", "b", "c"]);
}

#[tokio::test]
async fn one_credential_carries_its_password_as_a_secret() {
    let server = MockServer::start_async().await;
    let mock = server
        .mock_async(|when, then| {
            when.method(GET)
                .path(format!(
                    "/cloud/v2/virtualServers/{SERVER}/credentials/CONTROL_PANEL/root"
                ))
                .header("X-Svc-Auth", API_KEY);
            then.status(200).body(fixture("cloud/credential.json"));
        })
        .await;
    let credential = client(&server)
        .cloud_servers()
        .credentials(&id())
        .get(
            CredentialType::ControlPanel,
            &Username::new("root").unwrap(),
        )
        .await
        .unwrap();
    mock.assert_async().await;
    let password = credential.password.as_ref().unwrap();
    // Taken exactly as sent, never trimmed; redacted unless exposed.
    assert_eq!(password.expose(), "  s3cr3t pa55 ");
    assert!(!format!("{credential:?}").contains("s3cr3t"));
    let shown = expose_secrets(|| to_json(&credential));
    assert_eq!(shown["password"], "  s3cr3t pa55 ");
    insta::assert_json_snapshot!("cloud_credential", to_json(&credential));
}

#[tokio::test]
async fn datatraffic_sends_the_documented_query_and_reads_both_directions() {
    let server = MockServer::start_async().await;
    let mock = server
        .mock_async(|when, then| {
            when.method(GET)
                .path(format!(
                    "/cloud/v2/virtualServers/{SERVER}/metrics/datatraffic"
                ))
                .header("X-Svc-Auth", API_KEY)
                .query_param("from", "2024-01-01T00:00:00Z")
                .query_param("to", "2024-01-04T00:00:00Z")
                .query_param("aggregation", "SUM")
                .query_param("granularity", "DAY")
                .is_true(|req| {
                    query(req)
                        == "aggregation=SUM&from=2024-01-01T00%3A00%3A00Z&granularity=DAY&to=2024-01-04T00%3A00%3A00Z"
                });
            then.status(200).body(fixture("cloud/datatraffic.json"));
        })
        .await;
    let query = MetricsQuery::parse("2024-01-01T00:00:00Z", "2024-01-04T00:00:00Z")
        .unwrap()
        .granularity(Granularity::Day);
    let metrics = client(&server)
        .cloud_servers()
        .datatraffic(&id(), &query)
        .await
        .unwrap();
    mock.assert_async().await;
    // UP is outgoing, DOWN incoming.
    assert_eq!(metrics.outgoing.values[0].bytes.to_string(), "202499");
    assert_eq!(metrics.incoming.values[0].bytes.to_string(), "15000");
    assert_eq!(
        metrics
            .outgoing
            .total_bytes()
            .map(|b| b.to_string())
            .as_deref(),
        Some("15000202499")
    );
    assert!(metrics.extra.contains_key("metrics.DATATRAFFIC_PEAK"));
    insta::assert_json_snapshot!("cloud_datatraffic", to_json(&metrics));
}

#[tokio::test]
async fn datatraffic_without_granularity_sends_none() {
    let server = MockServer::start_async().await;
    let mock = server
        .mock_async(|when, then| {
            when.method(GET)
                .path(format!(
                    "/cloud/v2/virtualServers/{SERVER}/metrics/datatraffic"
                ))
                .query_param_missing("granularity")
                .query_param("aggregation", "SUM");
            then.status(200)
                .body(r#"{"_metadata":{"granularity":"15MIN"},"metrics":{}}"#);
        })
        .await;
    let query =
        MetricsQuery::parse("2024-01-01T01:00:00+01:00", "2024-01-01T02:00:00+01:00").unwrap();
    let metrics = client(&server)
        .cloud_servers()
        .datatraffic(&id(), &query)
        .await
        .unwrap();
    mock.assert_async().await;
    // Without _metadata, the interval is the query's (sent and shown in UTC).
    assert_eq!(metrics.from.to_rfc3339(), "2024-01-01T00:00:00+00:00");
    // A granularity the docs do not name is kept.
    assert_eq!(metrics.granularity, Some(Granularity::from_wire("15MIN")));
    assert!(metrics.granularity.as_ref().unwrap().is_unknown());
    assert!(metrics.outgoing.values.is_empty());
}

#[tokio::test]
async fn private_clouds_normalise_like_virtual_servers() {
    let server = MockServer::start_async().await;
    let mock = server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/cloud/v2/privateClouds")
                .header("X-Svc-Auth", API_KEY)
                .is_true(|req| query(req).is_empty());
            then.status(200).body(fixture("cloud/private_clouds.json"));
        })
        .await;
    let clouds = client(&server).private_clouds().list().await.unwrap();
    mock.assert_async().await;
    assert_eq!(clouds.len(), 2);
    assert_eq!(clouds[0].service_offering, Some(ServiceOffering::FlatFee));
    assert_eq!(
        clouds[1].service_offering,
        Some(ServiceOffering::from_wire("DEDICATED_HOSTS"))
    );
    assert!(clouds[1].service_offering.as_ref().unwrap().is_unknown());
    assert!(clouds[1].extra.contains_key("vcenterUrl"));
    insta::assert_json_snapshot!("private_clouds_list", to_json(&clouds));
}

#[tokio::test]
async fn private_clouds_are_paged_when_the_count_says_there_are_more() {
    // The documents name no paging parameters for private clouds: the first request
    // sends none, and the rest is asked for with `limit`/`offset` only because
    // `totalCount` says there is more.
    let server = MockServer::start_async().await;
    let first = server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/cloud/v2/privateClouds")
                .is_true(|req| query(req).is_empty());
            then.status(200).body(
                r#"{"privateClouds":[{"id":"300001"},{"id":"300002"}],"_metadata":{"totalCount":3,"limit":2,"offset":0}}"#,
            );
        })
        .await;
    let rest = server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/cloud/v2/privateClouds")
                .is_true(|req| query(req) == "limit=100&offset=2");
            then.status(200).body(
                r#"{"privateClouds":[{"id":"300003","serviceOffering":"FLAT_FEE"}],"_metadata":{"totalCount":3,"limit":100,"offset":2}}"#,
            );
        })
        .await;
    let clouds = client(&server).private_clouds().list().await.unwrap();
    first.assert_async().await;
    rest.assert_async().await;
    let ids: Vec<&str> = clouds.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["300001", "300002", "300003"]);
    assert_eq!(clouds.total_count(), Some(3));
    assert!(clouds.is_complete());
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
    let servers = client.cloud_servers();
    let argument = |result: Result<(), Error>| match result {
        Err(Error::InvalidInput { argument, .. }) => argument,
        other => panic!("{other:?}"),
    };
    // An id from the wire is taken as sent; it is checked before it reaches a path.
    let wire_id = CloudServerId::from(7u64);
    assert!(CloudServerId::new("../admin").is_err());
    let later = MetricsQuery::parse("2024-01-02T00:00:00Z", "2024-01-01T00:00:00Z").unwrap();
    let empty = MetricsQuery::parse("2024-01-02T00:00:00Z", "2024-01-02T00:00:00Z").unwrap();
    let fine = MetricsQuery::parse("2024-01-01T00:00:00Z", "2024-01-02T00:00:00Z").unwrap();
    assert!(matches!(
        MetricsQuery::parse("2024-01-01", "2024-01-02T00:00:00Z"),
        Err(Error::InvalidInput { ref argument, .. }) if argument == "from"
    ));
    assert_eq!(
        argument(servers.datatraffic(&wire_id, &later).await.map(drop)),
        "to"
    );
    assert_eq!(
        argument(servers.datatraffic(&wire_id, &empty).await.map(drop)),
        "to"
    );
    assert_eq!(
        argument(
            servers
                .datatraffic(
                    &wire_id,
                    &fine.clone().granularity(Granularity::from_wire("WEEK"))
                )
                .await
                .map(drop)
        ),
        "granularity"
    );
    assert_eq!(
        argument(
            servers
                .datatraffic(
                    &wire_id,
                    &fine.clone().aggregation(Aggregation::from_wire("AVG"))
                )
                .await
                .map(drop)
        ),
        "aggregation"
    );
    assert_eq!(
        argument(
            servers
                .credentials(&wire_id)
                .list(CredentialType::from_wire("SSH_KEY"))
                .await
                .map(drop)
        ),
        "credential_type"
    );
    assert_eq!(
        argument(
            servers
                .credentials(&wire_id)
                .get(
                    CredentialType::from_wire("SSH_KEY"),
                    &Username::new("root").unwrap()
                )
                .await
                .map(drop)
        ),
        "credential_type"
    );
    assert_eq!(argument(Username::new("../root").map(drop)), "username");
    assert_eq!(argument(Username::new("..").map(drop)), "username");
    assert_eq!(
        argument(
            servers
                .wait_state(
                    &wire_id,
                    CloudServerState::Starting,
                    &hostapi::WaitOptions::new()
                )
                .await
                .map(drop)
        ),
        "state"
    );
    assert_eq!(any.calls_async().await, 0);
}

#[tokio::test]
async fn a_page_size_of_zero_asks_for_one_record_a_page() {
    let server = MockServer::start_async().await;
    let mock = server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/cloud/v2/virtualServers")
                .is_true(|req| query(req) == "limit=1&offset=0");
            then.status(200)
                .body(r#"{"virtualServers":[{"id":"a"}],"_metadata":{"totalCount":1}}"#);
        })
        .await;
    let servers = client(&server)
        .cloud_servers()
        .list()
        .page_size(0)
        .await
        .unwrap();
    mock.assert_async().await;
    assert_eq!(servers.len(), 1);
}

/// Serves answers with one unreadable field each: a contract start that is no date, a
/// job's impossible creation date, a traffic point without its value.
async fn serve_unreadable_fields(server: &MockServer) {
    server
        .mock_async(|when, then| {
            when.method(GET)
                .path(format!("/cloud/v2/virtualServers/{SERVER}"));
            then.status(200)
                .body(r#"{"id":"x","contract":{"startsAt":"next tuesday","id":"c-1"}}"#);
        })
        .await;
    server
        .mock_async(|when, then| {
            when.method(POST)
                .path(format!("/cloud/v2/virtualServers/{SERVER}/powerOn"));
            then.status(202)
                .body(r#"{"id":"j1","status":"PENDING","createdAt":"2024-13-01T00:00:00+0000"}"#);
        })
        .await;
    server
        .mock_async(|when, then| {
            when.method(GET).path(format!(
                "/cloud/v2/virtualServers/{SERVER}/metrics/datatraffic"
            ));
            then.status(200).body(
                r#"{"metrics":{"DATATRAFFIC_DOWN":{"unit":"B","values":[{"timestamp":"2024-01-01T00:00:00Z"},{"timestamp":"2024-01-01T01:00:00Z","value":7}]}}}"#,
            );
        })
        .await;
}

fn traffic_query() -> MetricsQuery {
    MetricsQuery::parse("2024-01-01T00:00:00Z", "2024-01-02T00:00:00Z").unwrap()
}

#[tokio::test]
async fn unreadable_fields_read_as_none_and_are_kept() {
    let server = MockServer::start_async().await;
    serve_unreadable_fields(&server).await;
    let client = client(&server);
    let servers = client.cloud_servers();

    let got = servers.get(&id()).await.unwrap();
    assert_eq!(got.id.as_str(), "x");
    let contract = got.contract.as_ref().unwrap();
    assert_eq!(contract.starts_at, None);
    assert_eq!(contract.extra["startsAt"], "next tuesday");

    let job = servers.power_on(&id()).await.unwrap();
    assert_eq!(job.status, Some(JobStatus::Pending));
    assert_eq!(job.created_at, None);
    assert_eq!(job.extra["createdAt"], "2024-13-01T00:00:00+0000");

    // A point without its value is not a point: left out, kept in the series.
    let metrics = servers.datatraffic(&id(), &traffic_query()).await.unwrap();
    assert_eq!(metrics.incoming.values.len(), 1);
    assert_eq!(metrics.incoming.values[0].bytes.to_string(), "7");
    assert_eq!(
        metrics.incoming.extra["values[0]"]["timestamp"],
        "2024-01-01T00:00:00Z"
    );
}

#[tokio::test]
async fn a_strict_client_refuses_them_naming_the_path() {
    let server = MockServer::start_async().await;
    serve_unreadable_fields(&server).await;
    let client = strict_client(&server);
    let servers = client.cloud_servers();
    let decode = |result: Result<(), Error>| match result {
        Err(Error::Decode(e)) => (e.call.expect("the call is kept").operation, e.path),
        other => panic!("{other:?}"),
    };
    assert_eq!(
        decode(servers.get(&id()).await.map(drop)),
        ("getVirtualServer", "contract.startsAt".to_owned())
    );
    // The power call's answer cannot be read, so whether it was applied is unknown.
    let err = servers.power_on(&id()).await.unwrap_err();
    assert!(err.is_outcome_unknown(), "{err}");
    assert_eq!(err.operation(), Some("powerOnVirtualServer"));
    match err {
        Error::OutcomeUnknown(e) => assert_eq!(
            decode(Err(e.cause)),
            ("powerOnVirtualServer", "createdAt".to_owned())
        ),
        other => panic!("{other}"),
    }
    assert_eq!(
        decode(servers.datatraffic(&id(), &traffic_query()).await.map(drop)),
        (
            "getVirtualServerDatatrafficMetrics",
            "metrics.DATATRAFFIC_DOWN.values[0].value".to_owned()
        )
    );
}

#[tokio::test]
async fn error_statuses_keep_the_status_and_the_service_error() {
    let server = MockServer::start_async().await;
    server
        .mock_async(|when, then| {
            when.method(GET).path("/cloud/v2/virtualServers/missing");
            then.status(404).body(
                r#"{"errorCode":404,"errorMessage":"Virtual server missing not found","correlationId":"c-1","errorDetails":[]}"#,
            );
        })
        .await;
    let err = client(&server)
        .cloud_servers()
        .get(&CloudServerId::new("missing").unwrap())
        .await
        .unwrap_err();
    assert!(err.is_not_found(), "{err}");
    assert_eq!(err.operation(), Some("getVirtualServer"));
}
