//! Waiting for a cloud virtual server's power state, against a mock server whose answer
//! changes between polls.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hostapi::cloud::CloudServerState;
use hostapi::types::{CloudServerId, JobStatus};
use hostapi::{Error, WaitOptions};
use hostapi_tests::{API_KEY, client};
use httpmock::Method::{GET, POST};
use httpmock::{HttpMockRequest, HttpMockResponse, MockServer};

const SERVER: &str = "vs-1";

fn id() -> CloudServerId {
    CloudServerId::new(SERVER).unwrap()
}

/// Polls as often as a waiter allows ([`WaitOptions::MIN_INTERVAL`]).
fn fast() -> WaitOptions {
    WaitOptions::new()
        .interval(WaitOptions::MIN_INTERVAL)
        .timeout(Duration::from_secs(10))
}

/// Serves `GET /cloud/v2/virtualServers/vs-1` with the given states in turn (the last
/// one repeats); returns the mock's call counter.
async fn states(server: &MockServer, states: &[&str]) -> Arc<AtomicUsize> {
    let states: Vec<String> = states.iter().map(|s| (*s).to_owned()).collect();
    let calls = Arc::new(AtomicUsize::new(0));
    let counter = calls.clone();
    server
        .mock_async(move |when, then| {
            when.method(GET)
                .path(format!("/cloud/v2/virtualServers/{SERVER}"))
                .header("X-Svc-Auth", API_KEY);
            then.respond_with(move |_: &HttpMockRequest| {
                let call = counter.fetch_add(1, Ordering::SeqCst);
                let state = &states[call.min(states.len() - 1)];
                HttpMockResponse::builder()
                    .status(200)
                    .body(format!(r#"{{"id":"{SERVER}","state":"{state}"}}"#))
                    .build()
            });
        })
        .await;
    calls
}

async fn accept_power<'a>(server: &'a MockServer, action: &str) -> httpmock::Mock<'a> {
    server
        .mock_async(|when, then| {
            when.method(POST)
                .path(format!("/cloud/v2/virtualServers/{SERVER}/{action}"))
                .body("");
            then.status(202)
                .body(r#"{"id":"job-1","name":"virtualServers.x","status":"PENDING","createdAt":"2024-03-01T12:00:00+0000"}"#);
        })
        .await
}

#[tokio::test]
async fn power_on_then_waiting_goes_through_the_opposite_and_transitional_states() {
    let server = MockServer::start_async().await;
    let power = accept_power(&server, "powerOn").await;
    let polls = states(&server, &["STOPPED", "STARTING", "STARTING", "RUNNING"]).await;
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    let options = fast().on_progress(move |p| log.lock().unwrap().push(p.state.clone()));
    let client = client(&server);
    let job = client.cloud_servers().power_on(&id()).await.unwrap();
    assert_eq!(job.status, Some(JobStatus::Pending));
    let running = client
        .cloud_servers()
        .wait_state(&id(), CloudServerState::Running, &options)
        .await
        .unwrap();
    power.assert_async().await;
    assert_eq!(running.state, Some(CloudServerState::Running));
    assert_eq!(polls.load(Ordering::SeqCst), 4);
    assert_eq!(*seen.lock().unwrap(), ["stopped", "starting", "starting"]);
}

#[tokio::test]
async fn power_off_then_waiting_ends_when_stopped() {
    let server = MockServer::start_async().await;
    let power = accept_power(&server, "powerOff").await;
    let polls = states(&server, &["RUNNING", "STOPPING", "STOPPED"]).await;
    let client = client(&server);
    client.cloud_servers().power_off(&id()).await.unwrap();
    let stopped = client
        .cloud_servers()
        .wait_state(&id(), CloudServerState::Stopped, &fast())
        .await
        .unwrap();
    power.assert_async().await;
    assert_eq!(stopped.state, Some(CloudServerState::Stopped));
    assert_eq!(polls.load(Ordering::SeqCst), 3);
}

#[tokio::test]
async fn only_running_or_stopped_can_be_awaited() {
    let server = MockServer::start_async().await;
    let polls = states(&server, &["RUNNING"]).await;
    let err = client(&server)
        .cloud_servers()
        .wait_state(&id(), CloudServerState::Starting, &fast())
        .await
        .unwrap_err();
    assert!(
        matches!(&err, Error::InvalidInput { argument, .. } if argument == "state"),
        "{err}"
    );
    assert_eq!(polls.load(Ordering::SeqCst), 0, "nothing is sent");
}

#[tokio::test]
async fn reboot_waits_until_running_again() {
    let server = MockServer::start_async().await;
    let power = accept_power(&server, "reboot").await;
    let polls = states(&server, &["STOPPING", "STOPPED", "STARTING", "RUNNING"]).await;
    let server_after = client(&server)
        .cloud_servers()
        .reboot_and_wait(&id(), &fast())
        .await
        .unwrap();
    power.assert_async().await;
    assert_eq!(server_after.state, Some(CloudServerState::Running));
    assert_eq!(polls.load(Ordering::SeqCst), 4);
}

#[tokio::test]
async fn reboot_does_not_take_the_running_of_before_the_reboot_as_its_end() {
    // Still RUNNING at the first two polls (the reboot has not begun), then down and
    // up again: the wait ends at the second RUNNING, not the first.
    let server = MockServer::start_async().await;
    accept_power(&server, "reboot").await;
    let polls = states(
        &server,
        &["RUNNING", "RUNNING", "STOPPING", "STARTING", "RUNNING"],
    )
    .await;
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    let options = fast().on_progress(move |p| log.lock().unwrap().push(p.state.clone()));
    let after = client(&server)
        .cloud_servers()
        .reboot_and_wait(&id(), &options)
        .await
        .unwrap();
    assert_eq!(after.state, Some(CloudServerState::Running));
    assert_eq!(polls.load(Ordering::SeqCst), 5);
    assert_eq!(
        *seen.lock().unwrap(),
        [
            "running (the reboot has not begun)",
            "running (the reboot has not begun)",
            "stopping",
            "starting"
        ]
    );
}

#[tokio::test]
async fn a_reboot_never_seen_to_begin_ends_at_the_deadline_saying_so() {
    let server = MockServer::start_async().await;
    accept_power(&server, "reboot").await;
    states(&server, &["RUNNING"]).await;
    let options = WaitOptions::new()
        .interval(WaitOptions::MIN_INTERVAL)
        .timeout(Duration::from_millis(300));
    let err = client(&server)
        .cloud_servers()
        .reboot_and_wait(&id(), &options)
        .await
        .unwrap_err();
    match err {
        Error::WaitTimeout(e) => {
            assert_eq!(e.what, "cloud server vs-1 to reboot");
            assert_eq!(e.last_seen, "running (the reboot has not begun)");
        }
        other => panic!("{other}"),
    }
}

#[tokio::test]
async fn a_passing_unknown_state_is_tolerated() {
    // The service's UNKNOWN for a poll or two does not end the wait.
    let server = MockServer::start_async().await;
    let polls = states(&server, &["STARTING", "UNKNOWN", "UNKNOWN", "RUNNING"]).await;
    let running = client(&server)
        .cloud_servers()
        .wait_state(&id(), CloudServerState::Running, &fast())
        .await
        .unwrap();
    assert_eq!(running.state, Some(CloudServerState::Running));
    assert_eq!(polls.load(Ordering::SeqCst), 4);
}

#[tokio::test]
async fn an_unknown_state_that_lasts_ends_the_wait() {
    let server = MockServer::start_async().await;
    let polls = states(&server, &["STARTING", "UNKNOWN"]).await;
    let err = client(&server)
        .cloud_servers()
        .wait_state(&id(), CloudServerState::Running, &fast())
        .await
        .unwrap_err();
    match err {
        Error::WaitFailed(e) => {
            assert_eq!(e.last_seen, CloudServerState::Indeterminate.to_string());
            assert_eq!(e.what, "cloud server vs-1 to be running");
        }
        other => panic!("{other}"),
    }
    // One STARTING, then UNKNOWN tolerated three polls in a row, failing at the fourth.
    assert_eq!(polls.load(Ordering::SeqCst), 5);
}

#[tokio::test]
async fn a_state_the_docs_do_not_name_ends_the_wait() {
    let server = MockServer::start_async().await;
    states(&server, &["STOPPING", "MAINTENANCE"]).await;
    let err = client(&server)
        .cloud_servers()
        .wait_state(&id(), CloudServerState::Stopped, &fast())
        .await
        .unwrap_err();
    assert!(
        matches!(&err, Error::WaitFailed(e) if e.last_seen.eq_ignore_ascii_case("MAINTENANCE")),
        "{err}"
    );
}

#[tokio::test]
async fn the_deadline_names_the_last_state_seen() {
    let server = MockServer::start_async().await;
    let polls = states(&server, &["STARTING"]).await;
    let options = WaitOptions::new()
        .interval(WaitOptions::MIN_INTERVAL)
        .timeout(Duration::from_millis(350));
    let err = client(&server)
        .cloud_servers()
        .wait_state(&id(), CloudServerState::Running, &options)
        .await
        .unwrap_err();
    match err {
        Error::WaitTimeout(e) => {
            assert_eq!(e.last_seen, "starting");
            assert_eq!(e.what, "cloud server vs-1 to be running");
            assert_eq!(e.waited, Duration::from_millis(350));
        }
        other => panic!("{other}"),
    }
    // It polled until the deadline, then stopped.
    let seen = polls.load(Ordering::SeqCst);
    assert!(seen >= 2, "{seen}");
    tokio::time::sleep(Duration::from_millis(250)).await;
    assert_eq!(polls.load(Ordering::SeqCst), seen);
}

#[tokio::test]
async fn an_interval_under_the_floor_is_refused_before_polling() {
    let server = MockServer::start_async().await;
    let polls = states(&server, &["RUNNING"]).await;
    let options = WaitOptions::new().interval(Duration::from_millis(10));
    let err = client(&server)
        .cloud_servers()
        .wait_state(&id(), CloudServerState::Running, &options)
        .await
        .unwrap_err();
    assert!(
        matches!(&err, Error::InvalidInput { argument, .. } if argument == "interval"),
        "{err}"
    );
    assert_eq!(polls.load(Ordering::SeqCst), 0);
}

#[tokio::test]
async fn an_error_while_polling_ends_the_wait_with_that_error() {
    let server = MockServer::start_async().await;
    server
        .mock_async(|when, then| {
            when.method(GET)
                .path(format!("/cloud/v2/virtualServers/{SERVER}"));
            then.status(404)
                .body(r#"{"errorCode":404,"errorMessage":"gone"}"#);
        })
        .await;
    let err = client(&server)
        .cloud_servers()
        .wait_state(&id(), CloudServerState::Running, &fast())
        .await
        .unwrap_err();
    assert!(err.is_not_found(), "{err}");
}
