//! Bare metal installation: the wire form of the flat and the nested install, the
//! checks that send nothing, and the waiters on the installation status.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use hostapi::{
    BareMetalId, Error, InstallPartition, InstallPartitionSize, InstallRequest, OperatingSystemId,
    PartitionLayout, RescueImageId, WaitOptions,
};
use hostapi_tests::{API_KEY, client};
use httpmock::Method::{GET, POST};
use httpmock::MockServer;

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
                .header("user-agent", hostapi::USER_AGENT)
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
    match &error {
        Error::Status {
            operation,
            status,
            body,
        } => {
            assert_eq!((*operation, *status), ("installBareMetal", 409));
            assert_eq!(
                body.service_error().and_then(|e| e.message.as_deref()),
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
            InstallRequest {
                number_disks: Some(2),
                ..InstallRequest::new(os("867"))
            },
            "number_disks",
        ),
        (InstallRequest::new(os("debian-12")), "os_id"),
    ];
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

fn fast() -> WaitOptions {
    WaitOptions::new()
        .interval(Duration::from_millis(20))
        .timeout(Duration::from_secs(10))
}

#[tokio::test]
async fn wait_installed_polls_until_normal_and_reports_progress() {
    let server = MockServer::start_async().await;
    let installing = server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/v1/bareMetals/20001/installationStatus")
                .header("X-Svc-Auth", API_KEY);
            then.status(200).body(
                r#"{"installationStatus":{"code":1000,"description":"Installing","serverPackId":"20001","serverName":"web-01"}}"#,
            );
        })
        .await;
    installing.up_to_n_times_async(2).await;
    let normal = server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/v1/bareMetals/20001/installationStatus");
            then.status(200).body(
                r#"{"installationStatus":{"code":1000,"description":"Normal","serverPackId":20001,"serverName":"web-01"}}"#,
            );
        })
        .await;
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    let options = fast().on_progress(move |p| log.lock().unwrap().push((p.state.clone(), p.polls)));
    let status = client(&server)
        .bare_metals()
        .wait_installed(&id("20001"), &options)
        .await
        .unwrap();
    assert!(status.is_idle());
    assert_eq!(installing.calls_async().await, 2);
    assert_eq!(normal.calls_async().await, 1);
    assert_eq!(
        *seen.lock().unwrap(),
        [("Installing".to_owned(), 1), ("Installing".to_owned(), 2)]
    );
}

#[tokio::test]
async fn an_error_code_ends_the_wait_with_a_typed_error() {
    let server = MockServer::start_async().await;
    let first = server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/v1/bareMetals/20001/installationStatus");
            then.status(200)
                .body(r#"{"installationStatus":{"code":1000,"description":"Installing"}}"#);
        })
        .await;
    first.up_to_n_times_async(1).await;
    server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/v1/bareMetals/20001/installationStatus");
            then.status(200).body(
                r#"{"installationStatus":{"code":1003,"description":"Installation failed"}}"#,
            );
        })
        .await;
    let error = client(&server)
        .bare_metals()
        .wait_installed(&id("20001"), &fast())
        .await
        .unwrap_err();
    match error {
        Error::Api {
            operation,
            code,
            detail,
        } => {
            assert_eq!(operation, "getBareMetalInstallationStatus");
            assert_eq!(code, 1003);
            assert_eq!(detail.as_deref(), Some("Installation failed"));
        }
        other => panic!("{other}"),
    }
}

#[tokio::test]
async fn the_deadline_ends_the_wait_naming_the_last_state() {
    let server = MockServer::start_async().await;
    server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/v1/bareMetals/20001/installationStatus");
            then.status(200)
                .body(r#"{"installationStatus":{"code":1000,"description":"Installing"}}"#);
        })
        .await;
    let options = WaitOptions::new()
        .interval(Duration::from_millis(20))
        .timeout(Duration::from_millis(70));
    let error = client(&server)
        .bare_metals()
        .wait_installed(&id("20001"), &options)
        .await
        .unwrap_err();
    match error {
        Error::WaitTimeout {
            what, last_seen, ..
        } => {
            assert_eq!(what, "installation of bare metal server 20001");
            assert_eq!(last_seen, "Installing");
        }
        other => panic!("{other}"),
    }
}

#[tokio::test]
async fn rescue_then_wait_answers_the_rescue_password() {
    let server = MockServer::start_async().await;
    let rescue = server
        .mock_async(|when, then| {
            when.method(POST)
                .path("/v1/bareMetals/20001/rescueMode")
                .body("osId=121");
            then.status(200);
        })
        .await;
    let booting = server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/v1/bareMetals/20001/installationStatus");
            then.status(200).body(
                r#"{"installationStatus":{"code":1000,"description":"Rescue mode booting"}}"#,
            );
        })
        .await;
    booting.up_to_n_times_async(1).await;
    server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/v1/bareMetals/20001/installationStatus");
            then.status(200)
                .body(r#"{"installationStatus":{"code":1000,"description":"Normal"}}"#);
        })
        .await;
    let password = server
        .mock_async(|when, then| {
            when.method(GET).path("/v1/bareMetals/20001/rootPassword");
            then.status(200)
                .body(r#"{"rootPassword":"r00t","rescueModePassword":"r3scue-now"}"#);
        })
        .await;
    let client = client(&server);
    let bare_metals = client.bare_metals();
    bare_metals
        .rescue(&id("20001"), &RescueImageId::from(121u32))
        .await
        .unwrap();
    let passwords = bare_metals
        .wait_rescue_ready(&id("20001"), &fast())
        .await
        .unwrap();
    assert_eq!(
        passwords.rescue_mode_password.as_ref().map(|s| s.expose()),
        Some("r3scue-now")
    );
    rescue.assert_async().await;
    assert_eq!(booting.calls_async().await, 1);
    password.assert_async().await;
}
