//! `Sim::start_blocking`: a simulator on its own thread and runtime, for
//! tests with a blocking client — here plain `std::net::TcpStream` HTTP/1.1,
//! with and without an async runtime around it.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use hostapi_sim::{Sim, SimConfig};

/// One blocking HTTP/1.1 request (the connection closed after it): the
/// status and the body.
fn call(sim: &Sim, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
    let mut s = TcpStream::connect(sim.addr()).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let body = body.unwrap_or("");
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {}\r\nX-Svc-Auth: {}\r\nConnection: close\r\n\
         Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n",
        sim.addr(),
        sim.api_key(),
        body.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    s.write_all(body.as_bytes()).unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).expect("answer");
    let status = out
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .expect("a status line");
    let body = out
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_string();
    (status, body)
}

#[test]
fn a_blocking_test_starts_calls_and_drops_the_simulator() {
    let sim = Sim::start_blocking(SimConfig::default().with_seed(2)).expect("start");
    let (status, body) = call(&sim, "GET", "/v1/domains", None);
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("acme-1.com"), "{body}");
    let (status, _) = call(&sim, "PUT", "/v1/domains/acme-1.com", Some("ttl=7200"));
    assert_eq!(status, 200);
    // The in-process control API works from a blocking test too.
    assert_eq!(sim.requests(Some("updateDomainTtl")).len(), 1);
    sim.advance_clock(10.0).unwrap();
    let addr = sim.addr();
    drop(sim);
    // Dropped: the thread has stopped and the port is closed.
    assert!(TcpStream::connect_timeout(&addr, Duration::from_secs(2)).is_err());
}

#[tokio::test(flavor = "current_thread")]
async fn a_blocking_client_inside_a_current_thread_runtime() {
    // `Sim::start` here would share the test's only thread with the
    // blocking client below, which would then wait forever.
    let sim = Sim::start_blocking(SimConfig::default()).expect("start");
    let (status, _) = call(&sim, "GET", "/cloud/v2/virtualServers", None);
    assert_eq!(status, 200);
    let (status, body) = call(&sim, "GET", "/v1/nothing", None);
    assert_eq!(status, 404, "{body}");
}

#[test]
fn a_bad_configuration_is_reported_not_panicked() {
    let e = Sim::start_blocking(SimConfig::default().with_time_scale(0.0)).unwrap_err();
    assert!(e.to_string().contains("time_scale"), "{e}");
}
