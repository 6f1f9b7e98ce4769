//! Waiting for a cloud virtual server's power state, against a mock server whose answer
//! changes between polls.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hostapi::{CloudServerId, CloudServerState, Error, WaitOptions};
use hostapi_tests::{API_KEY, client};
use httpmock::Method::{GET, POST};
use httpmock::{HttpMockRequest, HttpMockResponse, MockServer};

const SERVER: &str = "vs-1";

fn id() -> CloudServerId {
    CloudServerId::new(SERVER).unwrap()
}

fn fast() -> WaitOptions {
    WaitOptions::new()
        .interval(Duration::from_millis(10))
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
async fn power_on_waits_through_the_opposite_and_transitional_states() {
    let server = MockServer::start_async().await;
    let power = accept_power(&server, "powerOn").await;
    let polls = states(&server, &["STOPPED", "STARTING", "STARTING", "RUNNING"]).await;
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    let options = fast().on_progress(move |p| log.lock().unwrap().push(p.state.clone()));
    let running = client(&server)
        .cloud_servers()
        .power_on_and_wait(&id(), options)
        .await
        .unwrap();
    power.assert_async().await;
    assert_eq!(running.state, Some(CloudServerState::Running));
    assert_eq!(polls.load(Ordering::SeqCst), 4);
    assert_eq!(*seen.lock().unwrap(), ["STOPPED", "STARTING", "STARTING"]);
}

#[tokio::test]
async fn power_off_waits_until_stopped() {
    let server = MockServer::start_async().await;
    let power = accept_power(&server, "powerOff").await;
    let polls = states(&server, &["RUNNING", "STOPPING", "STOPPED"]).await;
    let stopped = client(&server)
        .cloud_servers()
        .power_off_and_wait(&id(), fast())
        .await
        .unwrap();
    power.assert_async().await;
    assert_eq!(stopped.state, Some(CloudServerState::Stopped));
    assert_eq!(polls.load(Ordering::SeqCst), 3);
}

#[tokio::test]
async fn reboot_waits_until_running_again() {
    let server = MockServer::start_async().await;
    let power = accept_power(&server, "reboot").await;
    let polls = states(&server, &["STOPPING", "STOPPED", "STARTING", "RUNNING"]).await;
    let server_after = client(&server)
        .cloud_servers()
        .reboot_and_wait(&id(), fast())
        .await
        .unwrap();
    power.assert_async().await;
    assert_eq!(server_after.state, Some(CloudServerState::Running));
    assert_eq!(polls.load(Ordering::SeqCst), 4);
}

#[tokio::test]
async fn the_service_s_unknown_state_ends_the_wait() {
    let server = MockServer::start_async().await;
    states(&server, &["STARTING", "UNKNOWN", "RUNNING"]).await;
    let err = client(&server)
        .cloud_servers()
        .wait_for_state(&id(), CloudServerState::Running, fast())
        .await
        .unwrap_err();
    match err {
        Error::WaitFailed { what, state } => {
            assert_eq!(state, "UNKNOWN");
            assert_eq!(what, "cloud server vs-1 to be RUNNING");
        }
        other => panic!("{other}"),
    }
}

#[tokio::test]
async fn a_state_the_docs_do_not_name_ends_the_wait() {
    let server = MockServer::start_async().await;
    states(&server, &["STOPPING", "MAINTENANCE"]).await;
    let err = client(&server)
        .cloud_servers()
        .wait_for_state(&id(), CloudServerState::Stopped, fast())
        .await
        .unwrap_err();
    assert!(
        matches!(&err, Error::WaitFailed { state, .. } if state == "MAINTENANCE"),
        "{err}"
    );
}

#[tokio::test]
async fn the_deadline_names_the_last_state_seen() {
    let server = MockServer::start_async().await;
    let polls = states(&server, &["STARTING"]).await;
    let options = WaitOptions::new()
        .interval(Duration::from_millis(20))
        .timeout(Duration::from_millis(150));
    let err = client(&server)
        .cloud_servers()
        .wait_for_state(&id(), CloudServerState::Running, options)
        .await
        .unwrap_err();
    match err {
        Error::WaitTimeout {
            what, last_seen, ..
        } => {
            assert_eq!(last_seen, "STARTING");
            assert_eq!(what, "cloud server vs-1 to be RUNNING");
        }
        other => panic!("{other}"),
    }
    // It polled until the deadline, then stopped.
    let seen = polls.load(Ordering::SeqCst);
    assert!(seen >= 1, "{seen}");
    tokio::time::sleep(Duration::from_millis(60)).await;
    assert_eq!(polls.load(Ordering::SeqCst), seen);
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
        .wait_for_state(&id(), CloudServerState::Running, fast())
        .await
        .unwrap_err();
    assert!(err.is_not_found(), "{err}");
}
