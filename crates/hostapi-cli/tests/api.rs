//! `hostapi api METHOD PATH`: raw requests to documented paths, in the sandbox (whose
//! simulator checks the API key and the CDN signature) and against a mock server that
//! shows what went on the wire: the credentials are sent, and never printed.

mod common;

use common::{TempDir, run_in, sandbox};
use httpmock::MockServer;

#[test]
fn a_documented_get_prints_the_answer_body() {
    let run = sandbox(&["api", "GET", "/v1/domains"]).ok();
    let body = run.json();
    let domains = body["domains"].as_array().expect("{domains:[…]}");
    assert!(!domains.is_empty(), "{}", run.stdout);
    assert_eq!(domains[0]["domain"]["domain"], "acme-1.com");
    // Through a pipe, as received: one line, no pretty printing.
    assert!(!run.stdout.trim_end().contains('\n'), "{}", run.stdout);
}

#[test]
fn get_fields_go_to_the_query() {
    let two = sandbox(&["api", "GET", "/cloud/v2/virtualServers", "-f", "limit=2"]).ok();
    let body = two.json();
    assert_eq!(body["_metadata"]["limit"], 2, "{}", two.stdout);
    assert_eq!(
        body["virtualServers"].as_array().map(Vec::len),
        Some(2),
        "{}",
        two.stdout
    );
}

#[test]
fn a_write_sends_form_fields_and_a_cdn_path_is_signed() {
    let home = TempDir::new("api-write");
    let state = home.path().join("sandbox.json");
    let state = state.to_str().expect("a UTF-8 path");
    let env = [("HOSTAPI_SANDBOX_STATE", state)];
    let run = run_in(
        home.path(),
        &[
            "--sandbox",
            "api",
            "PUT",
            "/v1/domains/acme-1.com",
            "-f",
            "ttl=3600",
        ],
        &env,
    )
    .ok();
    assert_eq!(run.json()["domain"]["ttl"], "3600", "{}", run.stdout);
    // The change stays in the sandbox's remembered state.
    let read = run_in(
        home.path(),
        &["--sandbox", "domains", "get", "acme-1.com", "-o", "json"],
        &env,
    )
    .ok();
    assert_eq!(read.json()["ttl"], 3600, "{}", read.stdout);

    // The simulator refuses a CDN call whose signature is wrong (exit 3).
    let origins = sandbox(&["api", "GET", "/origins/462427"]).ok();
    assert!(origins.json()["succes"].is_array(), "{}", origins.stdout);
}

#[test]
fn a_json_body_comes_from_input() {
    let home = TempDir::new("api-input");
    let body = home.path().join("body.json");
    std::fs::write(&body, "{\"reference\": \"raw-test\"}").expect("written");
    let bad = home.path().join("bad.json");
    std::fs::write(&bad, "{\n  \"type\": }").expect("written");
    let state = home.path().join("sandbox.json");
    let env = [("HOSTAPI_SANDBOX_STATE", state.to_str().expect("UTF-8"))];
    const SERVER: &str = "/cloud/v2/virtualServers/c90e8a9c-09ba-46e2-ae8a-0c71c86fa728";
    let updated = run_in(
        home.path(),
        &[
            "--sandbox",
            "api",
            "PUT",
            SERVER,
            "--input",
            body.to_str().expect("UTF-8"),
        ],
        &env,
    )
    .ok();
    assert_eq!(
        updated.json()["reference"],
        "raw-test",
        "{}",
        updated.stdout
    );
    let refused = run_in(
        home.path(),
        &[
            "--sandbox",
            "api",
            "PUT",
            SERVER,
            "--input",
            bad.to_str().expect("UTF-8"),
        ],
        &env,
    )
    .code(2);
    assert!(
        refused.stderr.contains("line 2 column"),
        "{}",
        refused.stderr
    );
}

#[test]
fn an_undocumented_path_is_refused_unless_any_path() {
    let refused = sandbox(&["api", "GET", "/v1/nosuch"]).code(2);
    assert!(
        refused.stderr.contains("not a documented path"),
        "{}",
        refused.stderr
    );
    assert!(refused.stderr.contains("--any-path"), "{}", refused.stderr);
    assert!(refused.stdout.is_empty());

    let wrong_method = sandbox(&["api", "POST", "/v1/domains"]).code(2);
    assert!(
        wrong_method.stderr.contains("GET /v1/domains"),
        "{}",
        wrong_method.stderr
    );

    // Sent with --any-path: the simulator does not know it either (exit 4).
    let sent = sandbox(&["api", "GET", "/v1/nosuch", "--any-path"]).code(4);
    assert!(sent.stderr.contains("404"), "{}", sent.stderr);

    for escaping in [
        "/v1/domains/../bareMetals",
        "/v1/domains/%2e%2e",
        "v1/domains",
    ] {
        let run = sandbox(&["api", "GET", escaping, "--any-path"]).code(2);
        assert!(
            run.stderr.contains("invalid path"),
            "{escaping}: {}",
            run.stderr
        );
    }
}

#[test]
fn shaping_flags_read_the_body_as_json() {
    let run = sandbox(&[
        "api",
        "GET",
        "/v1/domains",
        "--query",
        ".domains[0].domain.domain",
    ])
    .ok();
    assert!(run.stdout.contains("acme-1.com"), "{}", run.stdout);
}

/// What the CLI sends to a server of its own: the API key in `X-Svc-Auth`, the CDN
/// path signed with the secret; what it prints, with -v and -i, holds neither, even
/// when the server echoes them.
#[test]
fn credentials_are_sent_and_never_printed() {
    const KEY: &str = "raw-api-key-4f1e9a";
    const SECRET: &str = "raw-cdn-secret-77c2";
    let server = MockServer::start();
    let api = server.mock(|when, then| {
        when.method(httpmock::Method::GET)
            .path("/v1/domains")
            .header("x-svc-auth", KEY);
        then.status(200)
            .header("content-type", "application/json")
            .header("x-echo", KEY)
            .body(format!("{{\"domains\":[],\"echo\":\"{KEY}\"}}"));
    });
    let cdn = server.mock(|when, then| {
        when.method(httpmock::Method::GET).is_true(|request| {
            let path = request.uri().path().to_owned();
            let parts: Vec<&str> = path.rsplitn(3, '/').collect();
            let [signature, timestamp, resource] = parts[..] else {
                return false;
            };
            let Ok(timestamp) = timestamp.parse::<i64>() else {
                return false;
            };
            resource == "/cdn/origins/C77"
                && signature == hostapi::signing::cdn_signature(SECRET, timestamp, "/origins/C77")
        });
        then.status(200)
            .header("content-type", "application/json")
            .body(format!("{{\"succes\":[],\"echo\":\"{SECRET}\"}}"));
    });
    let home = TempDir::new("api-wire");
    let base = server.base_url();
    let cdn_base = format!("{base}/cdn");
    let env = [
        ("HOSTAPI_API_KEY", KEY),
        ("HOSTAPI_BASE_URL", base.as_str()),
        ("HOSTAPI_CDN_SECRET", SECRET),
        ("HOSTAPI_CDN_BASE_URL", cdn_base.as_str()),
        ("HOSTAPI_CDN_CUSTOMER", "C77"),
    ];
    let v1 = run_in(
        home.path(),
        &["api", "GET", "/v1/domains", "-v", "-i"],
        &env,
    )
    .ok();
    let signed = run_in(
        home.path(),
        &["api", "GET", "/origins/C77", "-v", "-i"],
        &env,
    )
    .ok();
    api.assert_calls(1);
    cdn.assert_calls(1);
    for run in [&v1, &signed] {
        for secret in [KEY, SECRET] {
            assert!(!run.stdout.contains(secret), "{}", run.stdout);
            assert!(!run.stderr.contains(secret), "{}", run.stderr);
        }
        assert!(run.stdout.contains("[REDACTED]"), "{}", run.stdout);
        // No signature (40 hex digits) in the -v log either.
        let hex_run = run
            .stderr
            .split(|c: char| !c.is_ascii_hexdigit())
            .any(|w| w.len() == 40);
        assert!(!hex_run, "{}", run.stderr);
    }
    assert!(v1.stdout.starts_with("HTTP 200\n"), "{}", v1.stdout);

    // --show-secrets prints the body as received.
    let shown = run_in(
        home.path(),
        &["api", "GET", "/v1/domains", "--show-secrets"],
        &env,
    )
    .ok();
    assert!(shown.stdout.contains(KEY), "{}", shown.stdout);
}
