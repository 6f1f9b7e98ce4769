//! Bare metal servers: the server (list and detail, one by one and in bulk), reference,
//! switch port, power, rescue mode, installation status and passwords — normalised
//! output (snapshots), the exact wire form of each call, and checks that send nothing.

use hostapi::Error;
use hostapi::bare_metal::{
    BareMetalPowerState, BareMetalServer, InstallationState, IpmiKind, SwitchPortStatus,
};
use hostapi::types::{BareMetalId, MacAddress, RescueImageId, expose_secrets};
use hostapi_tests::{API_KEY, client, fixture, strict_client, to_json};
use httpmock::Method::{GET, POST, PUT};
use httpmock::{Mock, MockServer};

fn id(value: &str) -> BareMetalId {
    BareMetalId::new(value).expect("a valid id")
}

/// A mock answering `method path` (with the API key) with `body`.
async fn answer<'a>(
    server: &'a MockServer,
    method: httpmock::Method,
    path: &str,
    status: u16,
    body: &str,
) -> Mock<'a> {
    server
        .mock_async(|when, then| {
            when.method(method).path(path).header("X-Svc-Auth", API_KEY);
            then.status(status)
                .header("content-type", "application/json")
                .body(body);
        })
        .await
}

/// Asserts a decode error of `operation` at `path`.
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

fn assert_invalid(error: &Error, expected: &str) {
    match error {
        Error::InvalidInput { argument, .. } => assert_eq!(argument, expected, "{error}"),
        other => panic!("expected invalid input `{expected}`, got {other}"),
    }
}

#[tokio::test]
async fn list_reads_string_and_integer_ids_and_keeps_unknown_fields() {
    let server = MockServer::start_async().await;
    let mock = answer(
        &server,
        GET,
        "/v1/bareMetals",
        200,
        &fixture("bare-metal/list.json"),
    )
    .await;
    let servers = client(&server)
        .bare_metals()
        .list()
        .await
        .expect("list decodes");
    mock.assert_async().await;

    let ids: Vec<&str> = servers.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids, ["20001", "20002", "20003"]);
    assert!(servers.is_complete());
    // null and "" both mean no reference; the detail parts are absent in the list.
    assert_eq!(servers[1].reference, None);
    assert_eq!(servers[2].reference, None);
    assert_eq!(servers[2].server_type, None);
    assert!(servers[0].hardware.is_none());
    assert_eq!(servers[2].extra["rackUnit"], "U12");
    assert_eq!(servers[2].extra["position"], 3);
    insta::assert_json_snapshot!("bare_metal_list", to_json(&servers));
}

#[tokio::test]
async fn get_normalises_every_quirk_of_the_detail() {
    let server = MockServer::start_async().await;
    let mock = answer(
        &server,
        GET,
        "/v1/bareMetals/20001",
        200,
        &fixture("bare-metal/detail.json"),
    )
    .await;
    let bm = client(&server)
        .bare_metals()
        .get(&id("20001"))
        .await
        .expect("detail decodes");
    mock.assert_async().await;

    assert_eq!(bm.id.as_str(), "20001");
    let hardware = bm.hardware.as_ref().unwrap();
    assert_eq!(hardware.kvm, Some(true));
    assert_eq!(hardware.hardware_raid, Some(false));
    assert_eq!(
        hardware.ram.as_ref().unwrap().bytes().unwrap().to_string(),
        "64000000000"
    );
    assert_eq!(hardware.hard_disks.len(), 2);
    assert_eq!(hardware.hard_disks[1].kind.as_deref(), Some("SSD"));
    assert_eq!(hardware.hard_disks[1].extra["wearLevel"], "3%");
    let network = bm.network.as_ref().unwrap();
    assert_eq!(
        network.mac_addresses,
        [
            "00:1a:2b:3c:4d:5e",
            "00:1a:2b:3c:4d:5f",
            "00:1a:2b:3c:4d:60"
        ]
        .map(|mac| MacAddress::new(mac).unwrap())
    );
    assert_eq!(network.excess_ip_price.unwrap().to_string(), "1.5");
    let ipmi = network.ipmi.as_ref().unwrap();
    assert_eq!(ipmi.kind, Some(IpmiKind::from_wire("iDRAC9")));
    assert!(ipmi.kind.as_ref().unwrap().is_unknown());
    let pack = bm.contract.as_ref().unwrap();
    assert_eq!(pack.monthly_price.unwrap().to_string(), "149.99");
    assert_eq!(pack.end_date, None);
    assert_eq!(pack.term.as_ref().unwrap().months(), Some(12));
    // The deprecated fields are not modelled but kept as sent, as unknown ones are.
    assert_eq!(
        bm.extra["serverSpecifications"],
        serde_json::json!({"placeholder": true})
    );
    assert_eq!(bm.extra["datacenterAccessCards"], serde_json::json!([]));
    assert_eq!(bm.extra["extras"], serde_json::json!([]));
    assert_eq!(bm.extra["powerSupply"], "dual");
    // The combination lock is a secret.
    let lock = bm
        .location
        .as_ref()
        .unwrap()
        .combination_lock
        .as_ref()
        .unwrap();
    assert_eq!(format!("{lock:?}"), "[REDACTED]");
    assert_eq!(lock.expose(), "4711");
    insta::assert_json_snapshot!("bare_metal_detail", to_json(&bm));
}

#[tokio::test]
async fn get_reads_the_string_id_view_and_the_disk_summary() {
    let server = MockServer::start_async().await;
    answer(
        &server,
        GET,
        "/v1/bareMetals/20002",
        200,
        &fixture("bare-metal/detail_string_id.json"),
    )
    .await;
    let bm = client(&server)
        .bare_metals()
        .get(&id("20002"))
        .await
        .expect("detail decodes");
    assert_eq!(bm.id.as_str(), "20002");
    let hardware = bm.hardware.as_ref().unwrap();
    assert_eq!(
        (hardware.kvm, hardware.hardware_raid),
        (Some(false), Some(true))
    );
    // No hardDiskList: the groups come from the hardDisks text.
    let disks: Vec<(Option<u32>, String)> = hardware
        .hard_disks
        .iter()
        .map(|d| (d.count, d.kind.clone().unwrap_or_default()))
        .collect();
    assert_eq!(
        disks,
        [(Some(4), "SSD".to_owned()), (Some(1), "SATA".to_owned())]
    );
    let pack = bm.contract.as_ref().unwrap();
    assert_eq!(pack.start_date.unwrap().to_string(), "2020-01-05");
    assert_eq!((pack.end_date, pack.reference.as_deref()), (None, None));
    let ipmi = bm.network.as_ref().unwrap().ipmi.as_ref().unwrap();
    assert_eq!((ipmi.ip, ipmi.kind.clone()), (None, Some(IpmiKind::Drac)));
    insta::assert_json_snapshot!("bare_metal_detail_string_id", to_json(&bm));
}

#[tokio::test]
async fn an_unreadable_disk_summary_stays_text() {
    let server = MockServer::start_async().await;
    answer(
        &server,
        GET,
        "/v1/bareMetals/7",
        200,
        r#"{"bareMetal":{"bareMetalId":7,"server":{"hardDisks":"two big disks"}}}"#,
    )
    .await;
    let bm = client(&server).bare_metals().get(&id("7")).await.unwrap();
    let hardware = bm.hardware.unwrap();
    assert!(hardware.hard_disks.is_empty());
    assert_eq!(hardware.hard_disks_text.as_deref(), Some("two big disks"));
}

/// The value a case's field reads as, which must be none (or, for the MACs, the one
/// readable address).
type Field = fn(&BareMetalServer) -> String;

#[tokio::test]
async fn unreadable_values_read_as_none_and_are_kept_or_strictly_fail_at_their_path() {
    let cases: [(&str, &str, &str, Field, &str); 6] = [
        (
            r#"{"bareMetal":{"bareMetalId":7,"server":{"kvm":"Maybe"}}}"#,
            "bareMetal.server.kvm",
            "Maybe",
            |bm| format!("{:?}", bm.hardware.as_ref().unwrap().kvm),
            "None",
        ),
        (
            r#"{"bareMetal":{"bareMetalId":7,"network":{"macAddresses":{"mac":["00:1a:2b:3c:4d:5e","00:1a:2b:3c:4d:zz"]}}}}"#,
            "bareMetal.network.macAddresses.mac[1]",
            "00:1a:2b:3c:4d:zz",
            |bm| {
                let macs = &bm.network.as_ref().unwrap().mac_addresses;
                macs.iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(",")
            },
            "00:1a:2b:3c:4d:5e",
        ),
        (
            r#"{"bareMetal":{"bareMetalId":7,"server":{"hardDiskList":[{"amount":2,"size":"big"}]}}}"#,
            "bareMetal.server.hardDiskList[0].size",
            "big",
            |bm| {
                let disk = &bm.hardware.as_ref().unwrap().hard_disks[0];
                format!("{:?} {:?}", disk.count, disk.size)
            },
            "Some(2) None",
        ),
        (
            r#"{"bareMetal":{"bareMetalId":7,"network":{"ipmi":{"ip":"10.0.0.300"}}}}"#,
            "bareMetal.network.ipmi.ip",
            "10.0.0.300",
            |bm| {
                format!(
                    "{:?}",
                    bm.network.as_ref().unwrap().ipmi.as_ref().unwrap().ip
                )
            },
            "None",
        ),
        (
            r#"{"bareMetal":{"bareMetalId":7,"serverHostingPack":{"startDate":"someday"}}}"#,
            "bareMetal.serverHostingPack.startDate",
            "someday",
            |bm| format!("{:?}", bm.contract.as_ref().map(|c| c.start_date)),
            "Some(None)",
        ),
        (
            r#"{"bareMetal":{"bareMetalId":7,"server":{"ram":"plenty"}}}"#,
            "bareMetal.server.ram",
            "plenty",
            |bm| format!("{:?}", bm.hardware.as_ref().unwrap().ram),
            "None",
        ),
    ];
    for (body, path, raw, field, expected) in cases {
        let server = MockServer::start_async().await;
        answer(&server, GET, "/v1/bareMetals/7", 200, body).await;
        let bm = client(&server)
            .bare_metals()
            .get(&id("7"))
            .await
            .unwrap_or_else(|e| panic!("{body}: {e}"));
        assert_eq!(bm.id.as_str(), "7");
        assert_eq!(field(&bm), expected, "{body}");
        let kept = serde_json::to_string(&to_json(&bm)).unwrap();
        assert!(kept.contains(raw), "{raw} is kept in extra: {kept}");
        let error = strict_client(&server)
            .bare_metals()
            .get(&id("7"))
            .await
            .unwrap_err();
        assert_decode(&error, "getBareMetal", path);
    }
}

#[tokio::test]
async fn a_server_without_a_readable_id_is_a_decode_error_even_leniently() {
    let server = MockServer::start_async().await;
    answer(
        &server,
        GET,
        "/v1/bareMetals/7",
        200,
        r#"{"bareMetal":{"bareMetalId":"","name":"x"}}"#,
    )
    .await;
    let error = client(&server)
        .bare_metals()
        .get(&id("7"))
        .await
        .unwrap_err();
    assert_decode(&error, "getBareMetal", "bareMetal.bareMetalId");
}

#[tokio::test]
async fn set_reference_sends_the_form_and_answers_the_server() {
    let server = MockServer::start_async().await;
    let mock = server
        .mock_async(|when, then| {
            when.method(PUT)
                .path("/v1/bareMetals/20001")
                .header("X-Svc-Auth", API_KEY)
                .header("content-type", "application/x-www-form-urlencoded")
                .body("reference=web+%26+api");
            then.status(200).body(fixture("bare-metal/detail.json"));
        })
        .await;
    let bm = client(&server)
        .bare_metals()
        .update(&id("20001"), "web & api")
        .await
        .unwrap();
    mock.assert_async().await;
    assert_eq!(bm.name.as_deref(), Some("web-01"));
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
    let bare_metals = client.bare_metals();
    let error = bare_metals
        .update(&id("1"), "line\nbreak")
        .await
        .unwrap_err();
    assert_invalid(&error, "reference");
    // A rescue image id is a number by its rule: one that is not cannot be made.
    assert_invalid(
        &RescueImageId::new("rescue-2024").unwrap_err(),
        "RescueImageId",
    );
    // Ids cannot escape their path segment.
    assert_invalid(&BareMetalId::new("../ips").unwrap_err(), "BareMetalId");
    assert_invalid(&"1 2".parse::<BareMetalId>().unwrap_err(), "BareMetalId");
    assert_eq!(any.calls_async().await, 0);
}

#[tokio::test]
async fn switch_port_reads_opens_and_closes() {
    let server = MockServer::start_async().await;
    let get = answer(
        &server,
        GET,
        "/v1/bareMetals/20001/switchPort",
        200,
        &fixture("bare-metal/switch_port.json"),
    )
    .await;
    let open = server
        .mock_async(|when, then| {
            when.method(POST)
                .path("/v1/bareMetals/20001/switchPort/open")
                .header("X-Svc-Auth", API_KEY)
                .body("");
            then.status(200).body(
                r#"{"switchPort":{"status":"open","serverId":20001,"serverName":"web-01","switchNode":17}}"#,
            );
        })
        .await;
    let close = server
        .mock_async(|when, then| {
            when.method(POST)
                .path("/v1/bareMetals/20001/switchPort/close")
                .header("X-Svc-Auth", API_KEY)
                .body("");
            then.status(201).body(
                r#"{"switchPort":{"status":"Err-Disabled","serverId":20001,"serverName":"web-01","switchNode":17}}"#,
            );
        })
        .await;
    let client = client(&server);
    let bare_metals = client.bare_metals();
    let port = bare_metals.switch_port(&id("20001")).await.unwrap();
    assert_eq!(port.status, Some(SwitchPortStatus::Open));
    assert_eq!(
        port.server_id.as_ref().map(BareMetalId::as_str),
        Some("20001")
    );
    assert_eq!(port.extra["portSpeed"], "1000");
    insta::assert_json_snapshot!("bare_metal_switch_port", to_json(&port));

    let opened = bare_metals.open_switch_port(&id("20001")).await.unwrap();
    assert_eq!(opened.status, Some(SwitchPortStatus::Open));
    // An unknown status is kept as sent.
    let closed = bare_metals.close_switch_port(&id("20001")).await.unwrap();
    assert_eq!(
        closed.status,
        Some(SwitchPortStatus::from_wire("Err-Disabled"))
    );
    assert!(closed.status.as_ref().unwrap().is_unknown());
    get.assert_async().await;
    open.assert_async().await;
    close.assert_async().await;
}

#[tokio::test]
async fn power_status_and_power_cycle() {
    let server = MockServer::start_async().await;
    answer(
        &server,
        GET,
        "/v1/bareMetals/20001/powerStatus",
        200,
        &fixture("bare-metal/power_status.json"),
    )
    .await;
    answer(
        &server,
        GET,
        "/v1/bareMetals/20002/powerStatus",
        200,
        r#"{"powerStatus":{"status":"standby","serverId":20002,"serverName":"db-01"}}"#,
    )
    .await;
    let cycle = server
        .mock_async(|when, then| {
            when.method(POST)
                .path("/v1/bareMetals/20001/powerCycle")
                .header("X-Svc-Auth", API_KEY)
                .body("");
            then.status(202).body("{}");
        })
        .await;
    let client = client(&server);
    let bare_metals = client.bare_metals();
    let status = bare_metals.power_status(&id("20001")).await.unwrap();
    assert_eq!(status.status, Some(BareMetalPowerState::On));
    insta::assert_json_snapshot!("bare_metal_power_status", to_json(&status));
    let other = bare_metals.power_status(&id("20002")).await.unwrap();
    assert_eq!(
        other.status,
        Some(BareMetalPowerState::from_wire("standby"))
    );
    assert!(other.status.as_ref().unwrap().is_unknown());
    bare_metals.power_cycle(&id("20001")).await.unwrap();
    cycle.assert_async().await;
}

#[tokio::test]
async fn power_cycle_is_not_retried_unless_asked() {
    let server = MockServer::start_async().await;
    let busy = server
        .mock_async(|when, then| {
            when.method(POST).path("/v1/bareMetals/1/powerCycle");
            then.status(503);
        })
        .await;
    let client = hostapi::Client::builder()
        .base_url(server.base_url())
        .api_key(API_KEY)
        .retry_policy(
            hostapi::client::RetryPolicy::default()
                .max_attempts(2)
                .initial_backoff(std::time::Duration::from_millis(1))
                .max_backoff(std::time::Duration::from_millis(1))
                .deadline(std::time::Duration::from_secs(5)),
        )
        .build()
        .unwrap();
    let error = client
        .bare_metals()
        .power_cycle(&id("1"))
        .await
        .unwrap_err();
    assert_eq!(error.status(), Some(503));
    assert_eq!(error.operation(), Some("powerCycleBareMetal"));
    assert_eq!(busy.calls_async().await, 1);
    let _ = client
        .bare_metals()
        .retry_unsafe()
        .power_cycle(&id("1"))
        .await;
    assert_eq!(busy.calls_async().await, 3);
}

#[tokio::test]
async fn rescue_posts_the_image_id_to_the_documented_path() {
    let server = MockServer::start_async().await;
    let mock = server
        .mock_async(|when, then| {
            when.method(POST)
                .path("/v1/bareMetals/20001/rescueMode")
                .header("X-Svc-Auth", API_KEY)
                .header("content-type", "application/x-www-form-urlencoded")
                .body("osId=121");
            then.status(200);
        })
        .await;
    client(&server)
        .bare_metals()
        .rescue(&id("20001"), &RescueImageId::from(121u32))
        .await
        .unwrap();
    mock.assert_async().await;
}

#[tokio::test]
async fn installation_status_reads_both_id_shapes_and_both_name_spellings() {
    let server = MockServer::start_async().await;
    answer(
        &server,
        GET,
        "/v1/bareMetals/20001/installationStatus",
        200,
        &fixture("bare-metal/installation_status.json"),
    )
    .await;
    answer(
        &server,
        GET,
        "/v1/bareMetals/20002/installationStatus",
        200,
        r#"{"installationStatus":{"code":1000,"description":"Normal","serverPackId":20002,"serverPackName":"db-01"}}"#,
    )
    .await;
    let client = client(&server);
    let bare_metals = client.bare_metals();
    let installing = bare_metals.installation_status(&id("20001")).await.unwrap();
    assert_eq!(
        installing.description,
        Some(InstallationState::from_wire("Installing"))
    );
    assert!(installing.description.as_ref().unwrap().is_unknown());
    assert!(!installing.is_idle() && !installing.is_error());
    insta::assert_json_snapshot!("bare_metal_installation_status", to_json(&installing));
    let normal = bare_metals.installation_status(&id("20002")).await.unwrap();
    assert!(normal.is_idle());
    assert_eq!(
        normal.server_id.as_ref().map(BareMetalId::as_str),
        Some("20002")
    );
    assert_eq!(normal.server_name.as_deref(), Some("db-01"));
}

#[tokio::test]
async fn passwords_are_secrets_read_in_both_spellings() {
    let server = MockServer::start_async().await;
    answer(
        &server,
        GET,
        "/v1/bareMetals/20001/rootPassword",
        200,
        &fixture("bare-metal/root_password.json"),
    )
    .await;
    answer(
        &server,
        GET,
        "/v1/bareMetals/20002/rootPassword",
        200,
        r#"{"rootpassword":"documented-spelling","rescueModePassword":"r3scue"}"#,
    )
    .await;
    let client = client(&server);
    let bare_metals = client.bare_metals();
    let passwords = bare_metals.root_password(&id("20001")).await.unwrap();
    assert_eq!(
        passwords.root_password.as_ref().unwrap().expose(),
        "r00t-Pa55-word"
    );
    // An empty rescue password means none yet.
    assert_eq!(passwords.rescue_mode_password, None);
    assert!(!format!("{passwords:?}").contains("r00t"));
    insta::assert_json_snapshot!("bare_metal_passwords", to_json(&passwords));
    let exposed = expose_secrets(|| to_json(&passwords));
    assert_eq!(exposed["root_password"], "r00t-Pa55-word");

    let documented = bare_metals.root_password(&id("20002")).await.unwrap();
    assert_eq!(
        documented.root_password.as_ref().unwrap().expose(),
        "documented-spelling"
    );
    assert_eq!(documented.rescue_mode_password.unwrap().expose(), "r3scue");
}

#[tokio::test]
async fn error_statuses_keep_operation_status_and_body() {
    let server = MockServer::start_async().await;
    answer(
        &server,
        GET,
        "/v1/bareMetals/404",
        404,
        r#"{"errorCode":"404","errorMessage":"Server not found"}"#,
    )
    .await;
    let error = client(&server)
        .bare_metals()
        .get(&id("404"))
        .await
        .unwrap_err();
    assert!(error.is_not_found());
    assert_eq!(error.operation(), Some("getBareMetal"));
    assert!(error.to_string().contains("Server not found"), "{error}");
}

/// Counts the facade's `hostapi.call` spans whose parent is the span named `parent`,
/// through a process-wide subscriber (the reads of `get_many` run on the runtime's
/// worker threads, which a thread's own default subscriber would not reach).
fn calls_under(parent: &'static str) -> std::sync::Arc<std::sync::atomic::AtomicUsize> {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use tracing_subscriber::layer::{Context, SubscriberExt};
    use tracing_subscriber::registry::LookupSpan;

    struct CallsUnder(&'static str, Arc<AtomicUsize>);
    impl<S> tracing_subscriber::Layer<S> for CallsUnder
    where
        S: tracing::Subscriber + for<'a> LookupSpan<'a>,
    {
        fn on_new_span(
            &self,
            attrs: &tracing::span::Attributes<'_>,
            id: &tracing::span::Id,
            ctx: Context<'_, S>,
        ) {
            let parent = ctx.span(id).and_then(|span| span.parent());
            if attrs.metadata().name() == "hostapi.call"
                && parent.is_some_and(|parent| parent.name() == self.0)
            {
                self.1.fetch_add(1, Ordering::SeqCst);
            }
        }
    }

    let count = Arc::new(AtomicUsize::new(0));
    let subscriber = tracing_subscriber::registry().with(CallsUnder(parent, count.clone()));
    tracing::subscriber::set_global_default(subscriber)
        .expect("no other test in this file sets a global subscriber");
    count
}

/// `get_many` on tokio's multi-thread runtime runs each read as its own task; the
/// reads' spans still sit under the caller's span, as they would unspawned.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn get_many_reads_spawned_as_tasks_keep_the_callers_span() {
    use futures::StreamExt;
    use hostapi::bulk::BulkOptions;
    use tracing::Instrument;

    let calls = calls_under("bulk caller");
    let sim = hostapi_sim::Sim::start(hostapi_sim::SimConfig::default().with_seed(3))
        .await
        .expect("the simulator starts");
    let client = hostapi_tests::sim_client_builder(&sim, sim.api_key(), sim.cdn_secret())
        .build()
        .expect("client builds");
    let ids: Vec<BareMetalId> = (20001..20007u32).map(BareMetalId::from).collect();
    let items: Vec<_> = client
        .bare_metals()
        .get_many(ids.clone(), BulkOptions::new(3))
        .collect::<Vec<_>>()
        .instrument(tracing::info_span!("bulk caller"))
        .await;
    for (item, asked) in items.iter().zip(&ids) {
        let server = item.result.as_ref().expect("every server reads");
        assert_eq!(&server.id, asked);
    }
    assert_eq!(
        calls.load(std::sync::atomic::Ordering::SeqCst),
        ids.len(),
        "one call span under the caller's per id"
    );
    sim.shutdown().await;
}
