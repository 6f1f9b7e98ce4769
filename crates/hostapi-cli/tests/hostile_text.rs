//! A server that answers names, contents and error pages full of terminal control
//! sequences and spreadsheet formulas: nothing of it reaches stdout or stderr raw, CSV
//! and TSV cells do not start formulas, and JSON and YAML keep the exact values.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;

use common::{TempDir, run_in};

/// What the server puts in names and contents: an OSC title, a screen clear, a
/// carriage return and backspaces that overwrite, a right-to-left override, a C1 CSI
/// (U+009B), and an OSC 8 hyperlink.
const HOSTILE: [&str; 7] = [
    "\x1b]0;pwned\x07title",
    "\x1b[2Jcleared",
    "safe\rEVIL",
    "abc\x08\x08\x08xyz",
    "invoice\u{202e}fdp.exe",
    "\u{9b}31mred",
    "\x1b]8;;https://evil.example/\x1b\\link\x1b]8;;\x1b\\",
];

/// Cells a spreadsheet would run.
const FORMULAS: [&str; 4] = [
    "=HYPERLINK(\"https://evil.example/\",\"x\")",
    "@SUM(1+1)",
    "+cmd|' /C calc'!A0",
    "-2+3+cmd|' /C calc'!A0",
];

/// Whether the text holds a character that acts on a terminal or reorders text: any
/// control character but the line breaks and tabs the CLI writes itself, or a
/// bidirectional control.
fn raw_control(text: &str) -> Option<char> {
    text.chars().find(|c| {
        (c.is_control() && !matches!(c, '\n' | '\t'))
            || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    })
}

fn assert_clean(what: &str, run: &common::Run) {
    for (stream, text) in [("stdout", &run.stdout), ("stderr", &run.stderr)] {
        if let Some(c) = raw_control(text) {
            panic!(
                "{what}: {c:?} raw on {stream}\n--- stdout\n{}\n--- stderr\n{}",
                run.stdout, run.stderr
            );
        }
    }
}

/// The cells of one CSV line (RFC 4180 quoting).
fn csv_cells(row: &str) -> Vec<String> {
    let mut cells = vec![String::new()];
    let mut quoted = false;
    let mut chars = row.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                chars.next();
                cells.last_mut().expect("a cell").push('"');
            }
            '"' => quoted = !quoted,
            ',' if !quoted => cells.push(String::new()),
            c => cells.last_mut().expect("a cell").push(c),
        }
    }
    cells
}

/// The virtual servers the server lists: one per hostile name, then the formulas.
fn servers() -> serde_json::Value {
    let names = HOSTILE.iter().chain(FORMULAS.iter());
    let servers: Vec<serde_json::Value> = names
        .enumerate()
        .map(|(i, name)| {
            serde_json::json!({
                "id": format!("{}", 100_001 + i),
                "serverName": name,
                "reference": "\t=1+1",
            })
        })
        .collect();
    serde_json::json!({ "virtualServers": servers })
}

/// The answer to a request path.
fn answer(path: &str) -> (u16, &'static str, String) {
    let hostile = HOSTILE.concat();
    match path.split('?').next().unwrap_or_default() {
        "/v1/virtualServers" => (200, "application/json", servers().to_string()),
        // An error status with the service's JSON error object.
        "/v1/virtualServers/100002" => (
            400,
            "application/json",
            serde_json::json!({"errorCode": "\x1b[2J400", "errorMessage": hostile, "correlationId": "\u{202e}c-1"})
                .to_string(),
        ),
        // An error page from a proxy.
        "/v1/virtualServers/100003" => (
            500,
            "text/html",
            format!("<!DOCTYPE html><html><head><title>{hostile}</title></head><body>{hostile}</body></html>"),
        ),
        "/v1/domains/example.com" => (
            200,
            "application/json",
            serde_json::json!({"domain": {"domain": "example.com", "ttl": 3600}}).to_string(),
        ),
        "/v1/domains/example.com/dnsRecords" => {
            let records: Vec<serde_json::Value> = HOSTILE
                .iter()
                .enumerate()
                .map(|(i, text)| {
                    serde_json::json!({"dnsRecord": {
                        "id": format!("{}", 7001 + i),
                        "host": format!("h{i}.example.com"),
                        "type": "TXT",
                        "content": text,
                    }})
                })
                .collect();
            (
                200,
                "application/json",
                serde_json::json!({ "dnsRecords": records }).to_string(),
            )
        }
        _ => (404, "application/json", r#"{"errorMessage":"no"}"#.to_owned()),
    }
}

/// A server on 127.0.0.1 answering every request with [`answer`]; its base URL.
fn hostile_server() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}", listener.local_addr().expect("address"));
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            let mut reader = BufReader::new(&stream);
            let mut request_line = String::new();
            if reader.read_line(&mut request_line).is_err() {
                continue;
            }
            // The rest of the head, up to the blank line (GETs carry no body).
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|n| n > 0) && line != "\r\n" {
                line.clear();
            }
            let path = request_line.split(' ').nth(1).unwrap_or("/").to_owned();
            let (status, content_type, body) = answer(&path);
            let _ = write!(
                &stream,
                "HTTP/1.1 {status} X\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\
                 Connection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    url
}

/// Runs `hostapi --base-url URL --api-key k ARGS…`.
fn run(url: &str, home: &TempDir, args: &[&str]) -> common::Run {
    let mut all = vec!["--base-url", url, "--api-key", "a-key-no-answer-holds"];
    all.extend_from_slice(args);
    run_in(home.path(), &all, &[])
}

#[test]
fn tables_csv_and_tsv_show_hostile_names_escaped() {
    let url = hostile_server();
    let home = TempDir::new("hostile-table");
    let table = run(&url, &home, &["vps", "list", "-o", "table", "--wide"]).ok();
    assert_clean("table", &table);
    assert!(
        table.stdout.contains("\\x1b]0;pwned\\x07title"),
        "{}",
        table.stdout
    );
    assert!(
        table.stdout.contains("invoice\\u{202e}fdp.exe"),
        "{}",
        table.stdout
    );
    assert!(table.stdout.contains("\\u{9b}31mred"), "{}", table.stdout);

    // One record as a two-column table, and a query's records as lines of JSON.
    let query = run(
        &url,
        &home,
        &[
            "vps",
            "list",
            "-o",
            "table",
            "--query",
            "[.[] | {(.name): .id}]",
        ],
    )
    .ok();
    assert_clean("query table", &query);

    for format in ["csv", "tsv"] {
        let run = run(
            &url,
            &home,
            &[
                "vps",
                "list",
                "-o",
                format,
                "--columns",
                "id,name,reference",
            ],
        )
        .ok();
        assert_clean(format, &run);
        for row in run.stdout.lines().skip(1) {
            let cells = if format == "csv" {
                csv_cells(row)
            } else {
                row.split('\t').map(str::to_owned).collect()
            };
            assert_eq!(cells.len(), 3, "{format}: {row:?}");
            for cell in &cells {
                assert!(
                    !cell.starts_with(['=', '+', '@', '-', '\t', '\r']),
                    "{format}: a formula cell {cell:?} in {row:?}"
                );
            }
        }
        assert!(run.stdout.contains("'=HYPERLINK("), "{}", run.stdout);
        assert!(run.stdout.contains("'@SUM(1+1)"), "{}", run.stdout);
        assert!(run.stdout.contains("'+cmd|"), "{}", run.stdout);
        assert!(run.stdout.contains("'-2+3+cmd|"), "{}", run.stdout);
        // The SDK reads "\t=1+1" as "=1+1" (it trims): guarded as written.
        assert!(run.stdout.contains("'=1+1"), "{}", run.stdout);
    }

    // For machines: the cells as they are (still no raw control character).
    let raw = run(
        &url,
        &home,
        &[
            "vps",
            "list",
            "-o",
            "csv",
            "--columns",
            "name",
            "--no-formula-guard",
        ],
    )
    .ok();
    assert_clean("csv without the guard", &raw);
    assert!(raw.stdout.contains("\n@SUM(1+1)\n"), "{}", raw.stdout);
}

#[test]
fn json_and_yaml_keep_the_exact_values() {
    let url = hostile_server();
    let home = TempDir::new("hostile-json");
    let json = run(&url, &home, &["vps", "list", "-o", "json"]).ok();
    assert_clean("json", &json);
    let names: Vec<String> = json
        .json()
        .as_array()
        .expect("a list")
        .iter()
        .map(|server| server["name"].as_str().unwrap_or_default().to_owned())
        .collect();
    let expected: Vec<String> = HOSTILE
        .iter()
        .chain(FORMULAS.iter())
        .map(|s| (*s).to_owned())
        .collect();
    assert_eq!(names, expected);

    let yaml = run(&url, &home, &["vps", "list", "-o", "yaml"]).ok();
    assert_clean("yaml", &yaml);
    let value: serde_json::Value = serde_yaml_ng::from_str(&yaml.stdout).expect("YAML");
    assert_eq!(value, json.json());
}

#[test]
fn error_messages_show_the_server_text_escaped() {
    let url = hostile_server();
    let home = TempDir::new("hostile-errors");
    // The service's JSON error object.
    let json_error = run(&url, &home, &["vps", "get", "100002", "-o", "table"]);
    assert_ne!(json_error.code, 0);
    assert_clean("JSON error body", &json_error);
    assert!(
        json_error.stderr.contains("\\x1b]0;pwned"),
        "{}",
        json_error.stderr
    );
    // A proxy's HTML page.
    let html_error = run(&url, &home, &["vps", "get", "100003", "-o", "table", "-v"]);
    assert_ne!(html_error.code, 0);
    assert_clean("HTML error page", &html_error);
    assert!(
        html_error.stderr.contains("\\u{202e}"),
        "{}",
        html_error.stderr
    );
    // Several at once: each input's error on its own line.
    let bulk = run(
        &url,
        &home,
        &["vps", "get", "100002", "100003", "-o", "json"],
    );
    assert_ne!(bulk.code, 0);
    assert_clean("bulk errors", &bulk);
}

#[test]
fn plan_lines_show_records_escaped() {
    let url = hostile_server();
    let home = TempDir::new("hostile-plan");
    // A record of the file is hostile too.
    let file = home.path().join("zone.yaml");
    std::fs::write(
        &file,
        "domain: example.com\nttl: 3600\nrecords:\n- name: www\n  type: TXT\n  values:\n  - \"\\e[2Jfile\\u202e\"\n",
    )
    .expect("file");
    let file = file.to_string_lossy().into_owned();
    let plan = run(
        &url,
        &home,
        &[
            "dns",
            "plan",
            "example.com",
            &file,
            "--prune",
            "-o",
            "table",
        ],
    )
    .ok();
    assert_clean("plan", &plan);
    assert!(plan.stdout.contains("\\x1b[2Jcleared"), "{}", plan.stdout);
    assert!(
        plan.stdout.contains("\\x1b[2Jfile\\u{202e}"),
        "{}",
        plan.stdout
    );
    // Applying: each change's progress line, and the outcome (this server takes no
    // write: the deletes are refused, the create's answer is not a record).
    let apply = run(
        &url,
        &home,
        &[
            "dns",
            "apply",
            "example.com",
            &file,
            "--prune",
            "--yes",
            "--concurrency",
            "1",
            "-o",
            "table",
        ],
    );
    assert_ne!(apply.code, 0, "{}", apply.stderr);
    assert_clean("apply", &apply);
    assert!(apply.stderr.contains("[1/"), "{}", apply.stderr);
    assert!(apply.stderr.contains("\\x1b[2Jcleared"), "{}", apply.stderr);
    // As JSON: the exact values, in JSON's escapes.
    let json = run(
        &url,
        &home,
        &["dns", "plan", "example.com", &file, "--prune", "-o", "json"],
    )
    .ok();
    assert_clean("plan as JSON", &json);
    let text = json.json().to_string();
    for hostile in HOSTILE {
        let encoded = serde_json::to_string(hostile).expect("JSON");
        assert!(
            text.contains(encoded.trim_matches('"')),
            "{hostile:?} not kept in {text}"
        );
    }
}

/// Runs `hostapi ARGS…` with stdout and stderr on a pseudo-terminal (util-linux
/// `script`), both streams in `stdout` with the terminal's `\r\n` made `\n`; `None`
/// where `script` is missing.
fn on_terminal(home: &TempDir, args: &[&str]) -> Option<common::Run> {
    let present = std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !present {
        eprintln!("skipped: util-linux `script` is not installed");
        return None;
    }
    let line = std::iter::once(common::BIN)
        .chain(args.iter().copied())
        .map(|word| format!("'{word}'"))
        .collect::<Vec<_>>()
        .join(" ");
    let mut run = common::finish(common::shell(
        home.path(),
        &format!("script -qec \"{line}\" /dev/null"),
    ));
    run.stdout = run.stdout.replace("\r\n", "\n");
    Some(run)
}

#[test]
fn a_png_goes_to_a_terminal_only_when_forced() {
    let url = hostile_server();
    let home = TempDir::new("hostile-png");
    let png = [
        "--base-url",
        &url,
        "--api-key",
        "a-key-no-answer-holds",
        "bare-metal",
        "usage",
        "bandwidth",
        "20001",
        "--from",
        "2024-01-01",
        "--to",
        "2024-01-02",
        "--png",
        "-",
    ];
    let Some(refused) = on_terminal(&home, &png) else {
        return;
    };
    assert_eq!(refused.code, 2, "{}", refused.stdout);
    assert!(
        refused
            .stdout
            .contains("not writing a PNG image to the terminal"),
        "{}",
        refused.stdout
    );
    assert!(refused.stdout.contains("--force"), "{}", refused.stdout);
    // Forced, the request is sent (this server has no graph: a 404).
    let forced = on_terminal(&home, &[&png[..], &["--force"]].concat()).expect("script");
    assert!(
        !forced.stdout.contains("not writing a PNG"),
        "{}",
        forced.stdout
    );
    assert_eq!(forced.code, 4, "{}", forced.stdout);
    // Through a pipe, as before.
    let piped = run(&url, &home, &png[4..]);
    assert_eq!(piped.code, 4, "{}", piped.stderr);
}

#[test]
fn an_export_is_exact_in_a_file_and_escaped_on_a_terminal() {
    let url = hostile_server();
    let home = TempDir::new("hostile-export");
    let export = ["dns", "export", "example.com", "--format", "yaml"];
    let piped = run(&url, &home, &export).ok();
    let file: serde_json::Value = serde_yaml_ng::from_str(&piped.stdout).expect("YAML");
    let values: Vec<&str> = file["records"]
        .as_array()
        .expect("records")
        .iter()
        .filter_map(|r| r["values"][0].as_str())
        .collect();
    assert_eq!(values, HOSTILE, "{}", piped.stdout);

    let args: Vec<&str> = ["--base-url", &url, "--api-key", "a-key-no-answer-holds"]
        .into_iter()
        .chain(export)
        .collect();
    let Some(shown) = on_terminal(&home, &args) else {
        return;
    };
    assert_eq!(shown.code, 0, "{}", shown.stdout);
    assert_clean("export on a terminal", &shown);
    assert!(shown.stdout.contains("\\u{202e}"), "{}", shown.stdout);
}
