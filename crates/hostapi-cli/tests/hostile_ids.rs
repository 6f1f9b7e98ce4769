//! Ids a hostile server sends never become request paths or completion candidates: a
//! small scripted server on 127.0.0.1 answers lists whose records carry ids like `..`,
//! `.`, `7/../../x` or shell syntax, and records every request the CLI sends.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::{Run, TempDir, command, finish, run_in};

/// Ids no rule allows, as a server would put them in a record.
const HOSTILE: &[&str] = &[
    "..",
    ".",
    "",
    "7/../../x",
    "%2e%2e",
    "a?b",
    "a#b",
    "a\nb",
    "1000$(touch${IFS}pwned)",
];

/// A server that answers each request with `answer(method, path)` (a 200 JSON body)
/// or a 404, and keeps `METHOD path` of every request. It serves at most `limit`
/// connections, then stops.
struct Scripted {
    base_url: String,
    seen: Arc<Mutex<Vec<String>>>,
}

impl Scripted {
    fn start(limit: usize, answer: fn(&str, &str) -> Option<String>) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a port on 127.0.0.1");
        let base_url = format!("http://{}", listener.local_addr().expect("an address"));
        let seen = Arc::new(Mutex::new(Vec::new()));
        let noted = Arc::clone(&seen);
        std::thread::spawn(move || {
            for stream in listener.incoming().take(limit) {
                let Ok(mut stream) = stream else { continue };
                let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
                let mut reader = BufReader::new(stream.try_clone().expect("a clone"));
                let mut line = String::new();
                if reader.read_line(&mut line).is_err() {
                    continue;
                }
                let mut length = 0usize;
                loop {
                    let mut header = String::new();
                    if reader.read_line(&mut header).unwrap_or(0) == 0 || header == "\r\n" {
                        break;
                    }
                    if let Some((name, value)) = header.split_once(':')
                        && name.eq_ignore_ascii_case("content-length")
                    {
                        length = value.trim().parse().unwrap_or(0);
                    }
                }
                let mut body = vec![0; length.min(1 << 20)];
                let _ = reader.read_exact(&mut body);
                let mut parts = line.split_whitespace();
                let (method, path) = (
                    parts.next().unwrap_or("").to_owned(),
                    parts.next().unwrap_or("").to_owned(),
                );
                noted
                    .lock()
                    .expect("the log")
                    .push(format!("{method} {path}"));
                let (status, body) = match answer(&method, &path) {
                    Some(body) => (200, body),
                    None => (
                        404,
                        r#"{"errorCode":"404","errorMessage":"not here"}"#.to_owned(),
                    ),
                };
                let _ = write!(
                    stream,
                    "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
            }
        });
        Self { base_url, seen }
    }

    fn seen(&self) -> Vec<String> {
        self.seen.lock().expect("the log").clone()
    }
}

fn hostile_json() -> Vec<String> {
    HOSTILE
        .iter()
        .map(|id| serde_json::Value::String((*id).to_owned()).to_string())
        .collect()
}

fn records(method: &str, path: &str) -> Option<String> {
    if method == "GET" && path == "/v1/domains/acme.com" {
        return Some(
            r#"{"domain":{"code":1000,"domain":"acme.com","status":"ACTIVE","ttl":3600,"isEditable":true}}"#
                .to_owned(),
        );
    }
    if method != "GET" || path != "/v1/domains/acme.com/dnsRecords" {
        return None;
    }
    let mut records: Vec<String> = hostile_json()
        .iter()
        .map(|id| {
            format!(
                r#"{{"dnsRecord":{{"id":{id},"host":"old.acme.com","type":"A","content":"192.0.2.9"}}}}"#
            )
        })
        .collect();
    records.push(
        r#"{"dnsRecord":{"id":"1000001","host":"gone.acme.com","type":"A","content":"192.0.2.8"}}"#
            .to_owned(),
    );
    Some(format!(r#"{{"dnsRecords":[{}]}}"#, records.join(",")))
}

fn bare_metals(_: &str, path: &str) -> Option<String> {
    if path != "/v1/bareMetals" && !path.starts_with("/v1/bareMetals?") {
        return None;
    }
    let mut items: Vec<String> = hostile_json()
        .iter()
        .map(|id| format!(r#"{{"bareMetal":{{"bareMetalId":{id},"serverName":"x"}}}}"#))
        .collect();
    items.push(r#"{"bareMetal":{"bareMetalId":"20001","serverName":"web-01"}}"#.to_owned());
    Some(format!(r#"{{"bareMetals":[{}]}}"#, items.join(",")))
}

fn against(home: &std::path::Path, server: &Scripted, args: &[&str]) -> Run {
    let mut all = vec!["--base-url", &server.base_url, "--api-key", "k", "--yes"];
    all.extend_from_slice(args);
    run_in(home, &all, &[])
}

#[test]
fn dns_apply_prune_never_deletes_outside_a_record() {
    let home = TempDir::new("hostile-prune");
    let file = home.path().join("acme.yaml");
    std::fs::write(
        &file,
        "records:\n  - name: www\n    type: A\n    value: 192.0.2.1\n",
    )
    .expect("the file");
    let server = Scripted::start(40, records);
    let file = file.to_string_lossy().into_owned();
    let run = against(
        home.path(),
        &server,
        &["dns", "apply", "acme.com", &file, "--prune"],
    );
    let seen = server.seen();
    assert!(
        seen.iter()
            .any(|r| r.starts_with("GET /v1/domains/acme.com/dnsRecords")),
        "the records were listed: {seen:?}\n{}",
        run.stderr
    );
    for request in &seen {
        let Some(path) = request.strip_prefix("DELETE ") else {
            continue;
        };
        let id = path
            .strip_prefix("/v1/domains/acme.com/dnsRecords/")
            .unwrap_or_else(|| panic!("a DELETE outside a record: {request}"));
        assert!(
            !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()),
            "a DELETE of a record that is not one: {request}"
        );
    }
    assert!(
        !seen.iter().any(|r| r == "DELETE /v1/domains/acme.com/"),
        "{seen:?}"
    );
    // The prune ran: the record with a good id that the file does not name was
    // deleted (the others were unreadable, and are not touched).
    assert!(
        seen.iter()
            .any(|r| r == "DELETE /v1/domains/acme.com/dnsRecords/1000001"),
        "{seen:?}\n{}",
        run.stderr
    );
}

#[test]
fn bare_metal_details_never_get_outside_a_server() {
    let home = TempDir::new("hostile-details");
    let server = Scripted::start(40, bare_metals);
    let run = against(
        home.path(),
        &server,
        &["-o", "json", "bare-metal", "list", "--details"],
    );
    let seen = server.seen();
    assert!(
        seen.iter().any(|r| r.starts_with("GET /v1/bareMetals")),
        "{seen:?}"
    );
    for request in &seen {
        let path = request.split_once(' ').map_or("", |(_, p)| p);
        let path = path.split('?').next().unwrap_or_default();
        // The list, or a server's detail or one of its views.
        let good = path == "/v1/bareMetals"
            || path.strip_prefix("/v1/bareMetals/").is_some_and(|rest| {
                let id = rest.split('/').next().unwrap_or_default();
                !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit())
            });
        assert!(good, "a request outside a bare metal server: {request}");
    }
    assert!(!seen.iter().any(|r| r == "GET /v1/"), "{seen:?}");
    // The server with a good id is still listed (with details asked for it).
    assert!(
        seen.iter().any(|r| r == "GET /v1/bareMetals/20001"),
        "{seen:?}\n{}",
        run.stderr
    );
}

#[test]
fn completion_offers_no_hostile_id() {
    let home = TempDir::new("hostile-complete");
    let server = Scripted::start(10, bare_metals);
    let mut run = command(home.path());
    // fish's protocol: one candidate a line, a tab before its description.
    run.env("COMPLETE", "fish")
        .env("HOSTAPI_BASE_URL", &server.base_url)
        .env("HOSTAPI_API_KEY", "k")
        .args(["--", "hostapi", "bare-metal", "get", ""]);
    let Run { code, stdout, .. } = finish(run);
    assert_eq!(code, 0);
    assert!(
        server
            .seen()
            .iter()
            .any(|r| r.starts_with("GET /v1/bareMetals")),
        "the ids were asked for"
    );
    let candidates: Vec<&str> = stdout
        .lines()
        .map(|line| line.split('\t').next().unwrap_or_default())
        .collect();
    assert!(candidates.contains(&"20001"), "{candidates:?}");
    for candidate in &candidates {
        assert!(
            !candidate.contains('$') && !candidate.contains("touch"),
            "{candidate:?}"
        );
        assert!(
            candidate.starts_with('-') || candidate.bytes().all(|b| b.is_ascii_digit()),
            "{candidate:?} in {candidates:?}"
        );
    }
}
