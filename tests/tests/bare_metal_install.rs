//! Bare metal installation: the wire form of the flat and the nested install, the
//! checks that send nothing, and the waiters on the installation status.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hostapi::bare_metal::{
    InstallPartition, InstallPartitionSize, InstallRequest, PartitionLayout,
};
use hostapi::types::{BareMetalId, OperatingSystemId, RescueImageId};
use hostapi::{Error, WaitOptions};
use hostapi_tests::{API_KEY, client};
use httpmock::Method::{GET, POST};
use httpmock::{HttpMockRequest, HttpMockResponse, MockServer};

fn id(value: &str) -> BareMetalId {
    BareMetalId::new(value).expect("a valid id")
}

fn os(value: &str) -> OperatingSystemId {
    OperatingSystemId::new(value).expect("a valid id")
}

/// /boot 500 MB, swap 4 GB, / the rest; boot from partition 0.
fn layout() -> PartitionLayout {
    PartitionLayout::new("/dev/sda")
        .partition(InstallPartition::megabytes("ext2", 500).mountpoint("/boot"))
        .partition(InstallPartition::megabytes("swap", 4096))
        .partition(InstallPartition::rest("ext4").mountpoint("/"))
        .bootable(0)
}

#[tokio::test]
async fn install_without_layout_sends_the_flat_form() {
    for (request, body) in [
        (InstallRequest::new(os("867")), "osId=867"),
        (
            InstallRequest::new(os("867")).raid(1, 2),
            "numberDisks=2&osId=867&raidLevel=1",
        ),
    ] {
        let server = MockServer::start_async().await;
        let mock = server
            .mock_async(|when, then| {
                when.method(POST)
                    .path("/v1/bareMetals/20001/install")
                    .header("X-Svc-Auth", API_KEY)
                    .header("content-type", "application/x-www-form-urlencoded")
                    .header_missing("api-version")
                    .body(body);
                then.status(200);
            })
            .await;
        client(&server)
            .bare_metals()
            .install(&id("20001"), &request)
            .await
            .unwrap_or_else(|e| panic!("{body}: {e}"));
        mock.assert_async().await;
    }
}

#[tokio::test]
async fn install_with_a_layout_sends_bracketed_keys() {
    let server = MockServer::start_async().await;
    // The exact body: bracketed keys, form-encoded (`[` is %5B, `]` %5D, `/` %2F),
    // partitions numbered from 0, swap with an empty mountpoint, `*` for the rest.
    let body = concat!(
        "osId=867",
        "&hdd%5Bdisk%5D=%2Fdev%2Fsda",
        "&hdd%5Bbootable%5D=0",
        "&hdd%5Bparams%5D%5B0%5D%5Btype%5D=ext2",
        "&hdd%5Bparams%5D%5B0%5D%5Bsize%5D=500",
        "&hdd%5Bparams%5D%5B0%5D%5Bmountpoint%5D=%2Fboot",
        "&hdd%5Bparams%5D%5B1%5D%5Btype%5D=swap",
        "&hdd%5Bparams%5D%5B1%5D%5Bsize%5D=4096",
        "&hdd%5Bparams%5D%5B1%5D%5Bmountpoint%5D=",
        "&hdd%5Bparams%5D%5B2%5D%5Btype%5D=ext4",
        "&hdd%5Bparams%5D%5B2%5D%5Bsize%5D=*",
        "&hdd%5Bparams%5D%5B2%5D%5Bmountpoint%5D=%2F",
        "&raidLevel=1",
        "&numberDisks=2",
    );
    let mock = server
        .mock_async(|when, then| {
            when.method(POST)
                .path("/v1/bareMetals/20001/install")
                .header("X-Svc-Auth", API_KEY)
                .header("content-type", "application/x-www-form-urlencoded")
                .header("user-agent", hostapi::client::USER_AGENT)
                .header_missing("api-version")
                .form_urlencoded_tuple("hdd[params][2][size]", "*")
                .form_urlencoded_tuple("hdd[params][0][mountpoint]", "/boot")
                .body(body);
            then.status(200);
        })
        .await;
    client(&server)
        .bare_metals()
        .install(
            &id("20001"),
            &InstallRequest::new(os("867")).hdd(layout()).raid(1, 2),
        )
        .await
        .unwrap();
    mock.assert_async().await;
}

#[tokio::test]
async fn the_hand_written_install_reports_error_statuses_like_the_others() {
    let server = MockServer::start_async().await;
    server
        .mock_async(|when, then| {
            when.method(POST).path("/v1/bareMetals/20001/install");
            then.status(409)
                .header("content-type", "application/json")
                .body(r#"{"errorCode":"409","errorMessage":"An installation is already running"}"#);
        })
        .await;
    let error = client(&server)
        .bare_metals()
        .install(&id("20001"), &InstallRequest::new(os("867")).hdd(layout()))
        .await
        .unwrap_err();
    // A 409 says the installation was not started: not applied, not unknown.
    assert!(!error.is_outcome_unknown());
    match &error {
        Error::Status(e) => {
            assert_eq!((e.call.operation, e.status), ("installBareMetal", 409));
            assert_eq!(
                e.body.service_error().and_then(|e| e.message.as_deref()),
                Some("An installation is already running")
            );
        }
        other => panic!("{other}"),
    }
}

#[tokio::test]
async fn a_bad_plan_is_refused_before_sending() {
    let server = MockServer::start_async().await;
    let any = server
        .mock_async(|when, then| {
            when.any_request();
            then.status(500);
        })
        .await;
    let with = |change: &dyn Fn(&mut PartitionLayout)| {
        let mut layout = layout();
        change(&mut layout);
        InstallRequest::new(os("867")).hdd(layout)
    };
    let cases = [
        (
            with(&|l| l.partitions[2].mountpoint = Some("/srv".into())),
            "hdd.partitions",
        ),
        (
            with(&|l| l.partitions[2].size = InstallPartitionSize::Megabytes(0)),
            "hdd.partitions[2].size",
        ),
        (
            with(&|l| l.partitions[1].size = InstallPartitionSize::Remainder),
            "hdd.partitions[2].size",
        ),
        (
            with(&|l| l.partitions[0].mountpoint = Some("boot".into())),
            "hdd.partitions[0].mountpoint",
        ),
        (
            with(&|l| l.partitions[0].mountpoint = Some("/".into())),
            "hdd.partitions[2].mountpoint",
        ),
        (with(&|l| l.bootable = 3), "hdd.bootable"),
        (with(&|l| l.disk = String::new()), "hdd.disk"),
        (InstallRequest::new(os("867")).raid(3, 4), "raid_level"),
        (InstallRequest::new(os("867")).raid(5, 2), "number_disks"),
        (InstallRequest::new(os("867")).raid(10, 5), "number_disks"),
        (
            {
                let mut disks_without_raid = InstallRequest::new(os("867"));
                disks_without_raid.number_disks = Some(2);
                disks_without_raid
            },
            "number_disks",
        ),
    ];
    // An operating system id is a number by its rule: one that is not cannot be made.
    assert!(OperatingSystemId::new("debian-12").is_err());
    let client = client(&server);
    for (request, argument) in cases {
        let error = client
            .bare_metals()
            .install(&id("20001"), &request)
            .await
            .unwrap_err();
        match error {
            Error::InvalidInput {
                argument: got,
                reason,
            } => assert_eq!(got, argument, "{reason}"),
            other => panic!("{argument}: {other}"),
        }
    }
    assert_eq!(any.calls_async().await, 0);
}

/// Polls as often as a waiter allows.
fn fast() -> WaitOptions {
    WaitOptions::new()
        .interval(WaitOptions::MIN_INTERVAL)
        .timeout(Duration::from_secs(10))
}

/// An installation status answer.
fn status_body(code: u32, description: &str) -> String {
    format!(
        r#"{{"installationStatus":{{"code":{code},"description":"{description}","serverPackId":"20001","serverName":"web-01"}}}}"#
    )
}

/// Serves the installation statuses `states` in turn (the last one repeats).
async fn statuses(server: &MockServer, states: &[(u32, &str)]) -> Arc<AtomicUsize> {
    let bodies: Vec<String> = states.iter().map(|(c, d)| status_body(*c, d)).collect();
    let calls = Arc::new(AtomicUsize::new(0));
    let counter = calls.clone();
    server
        .mock_async(move |when, then| {
            when.method(GET)
                .path("/v1/bareMetals/20001/installationStatus")
                .header("X-Svc-Auth", API_KEY);
            then.respond_with(move |_: &HttpMockRequest| {
                let call = counter.fetch_add(1, Ordering::SeqCst);
                HttpMockResponse::builder()
                    .status(200)
                    .body(bodies[call.min(bodies.len() - 1)].clone())
                    .build()
            });
        })
        .await;
    calls
}

async fn accept_install(server: &MockServer) -> httpmock::Mock<'_> {
    server
        .mock_async(|when, then| {
            when.method(POST)
                .path("/v1/bareMetals/20001/install")
                .body("osId=867");
            then.status(200).body("{}");
        })
        .await
}

#[tokio::test]
async fn install_and_wait_polls_until_normal_again_and_reports_progress() {
    let server = MockServer::start_async().await;
    let install = accept_install(&server).await;
    // Read before the install, then two polls installing, then normal.
    let polls = statuses(
        &server,
        &[
            (1000, "Normal"),
            (1000, "Installing"),
            (1000, "Installing"),
            (1000, "Normal"),
        ],
    )
    .await;
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    let options = fast().on_progress(move |p| log.lock().unwrap().push((p.state.clone(), p.polls)));
    let status = client(&server)
        .bare_metals()
        .install_and_wait(&id("20001"), &InstallRequest::new(os("867")), &options)
        .await
        .unwrap();
    install.assert_async().await;
    assert!(status.is_idle());
    assert_eq!(polls.load(Ordering::SeqCst), 4);
    assert_eq!(
        *seen.lock().unwrap(),
        [("Installing".to_owned(), 1), ("Installing".to_owned(), 2)]
    );
}

#[tokio::test]
async fn the_normal_status_of_before_the_install_is_not_its_end() {
    // Normal before, still normal at the first poll (the installation has not begun),
    // then installing, then normal: the wait ends at the second normal only.
    let server = MockServer::start_async().await;
    accept_install(&server).await;
    let polls = statuses(
        &server,
        &[
            (1000, "Normal"),
            (1000, "Normal"),
            (1000, "Installing"),
            (1000, "Normal"),
        ],
    )
    .await;
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    let options = fast().on_progress(move |p| log.lock().unwrap().push(p.state.clone()));
    let status = client(&server)
        .bare_metals()
        .install_and_wait(&id("20001"), &InstallRequest::new(os("867")), &options)
        .await
        .unwrap();
    assert!(status.is_idle());
    assert_eq!(polls.load(Ordering::SeqCst), 4);
    assert_eq!(
        *seen.lock().unwrap(),
        ["normal (the installation has not begun)", "Installing"]
    );
}

#[tokio::test]
async fn wait_installed_after_a_status_read_mid_installation_ends_at_normal() {
    let server = MockServer::start_async().await;
    let polls = statuses(&server, &[(1000, "Installing"), (1000, "Normal")]).await;
    let bare_metals = client(&server).bare_metals();
    let before = bare_metals.installation_status(&id("20001")).await.unwrap();
    assert!(!before.is_idle());
    let status = bare_metals
        .wait_installed(&id("20001"), &before, &fast())
        .await
        .unwrap();
    assert!(status.is_idle());
    assert_eq!(polls.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn an_error_code_ends_the_wait_with_a_typed_error() {
    let server = MockServer::start_async().await;
    statuses(
        &server,
        &[
            (1000, "Installing"),
            (1000, "Installing"),
            (1003, "Installation failed"),
        ],
    )
    .await;
    let bare_metals = client(&server).bare_metals();
    let before = bare_metals.installation_status(&id("20001")).await.unwrap();
    let error = bare_metals
        .wait_installed(&id("20001"), &before, &fast())
        .await
        .unwrap_err();
    match error {
        Error::Api(e) => {
            assert_eq!(
                e.call.as_ref().map(|c| c.operation),
                Some("getBareMetalInstallationStatus")
            );
            assert_eq!(e.code, 1003);
            // The description, as the service sent it.
            assert_eq!(e.detail.as_deref(), Some("Installation failed"));
        }
        other => panic!("{other}"),
    }
}

#[tokio::test]
async fn the_deadline_ends_the_wait_naming_the_last_state() {
    let server = MockServer::start_async().await;
    statuses(&server, &[(1000, "Installing")]).await;
    let options = WaitOptions::new()
        .interval(WaitOptions::MIN_INTERVAL)
        .timeout(Duration::from_millis(250));
    let bare_metals = client(&server).bare_metals();
    let before = bare_metals.installation_status(&id("20001")).await.unwrap();
    let error = bare_metals
        .wait_installed(&id("20001"), &before, &options)
        .await
        .unwrap_err();
    match error {
        Error::WaitTimeout(e) => {
            assert_eq!(e.what, "installation of bare metal 20001");
            assert_eq!(e.last_seen, "Installing");
        }
        other => panic!("{other}"),
    }
}

#[tokio::test]
async fn an_installation_that_never_begins_ends_at_the_deadline_saying_so() {
    let server = MockServer::start_async().await;
    accept_install(&server).await;
    statuses(&server, &[(1000, "Normal")]).await;
    let options = WaitOptions::new()
        .interval(WaitOptions::MIN_INTERVAL)
        .timeout(Duration::from_millis(250));
    let error = client(&server)
        .bare_metals()
        .install_and_wait(&id("20001"), &InstallRequest::new(os("867")), &options)
        .await
        .unwrap_err();
    match error {
        Error::WaitTimeout(e) => {
            assert_eq!(e.last_seen, "normal (the installation has not begun)");
        }
        other => panic!("{other}"),
    }
}

#[tokio::test]
async fn rescue_then_wait_answers_the_new_rescue_password() {
    let server = MockServer::start_async().await;
    let rescue = server
        .mock_async(|when, then| {
            when.method(POST)
                .path("/v1/bareMetals/20001/rescueMode")
                .body("osId=121");
            then.status(200);
        })
        .await;
    let polls = statuses(&server, &[(1000, "Rescue mode booting"), (1000, "Normal")]).await;
    // The password of an earlier rescue boot, read before this one and at the first
    // poll; then this boot's.
    let calls = AtomicUsize::new(0);
    let password = server
        .mock_async(move |when, then| {
            when.method(GET).path("/v1/bareMetals/20001/rootPassword");
            then.respond_with(move |_: &HttpMockRequest| {
                let rescue = if calls.fetch_add(1, Ordering::SeqCst) < 2 {
                    "r3scue-before"
                } else {
                    "r3scue-now"
                };
                HttpMockResponse::builder()
                    .status(200)
                    .body(format!(
                        r#"{{"rootPassword":"r00t","rescueModePassword":"{rescue}"}}"#
                    ))
                    .build()
            });
        })
        .await;
    let passwords = client(&server)
        .bare_metals()
        .rescue_and_wait(&id("20001"), &RescueImageId::from(121u32), &fast())
        .await
        .unwrap();
    assert_eq!(
        passwords.rescue_mode_password.as_ref().map(|s| s.expose()),
        Some("r3scue-now")
    );
    rescue.assert_async().await;
    assert_eq!(polls.load(Ordering::SeqCst), 2);
    assert_eq!(password.calls_async().await, 3);
}
