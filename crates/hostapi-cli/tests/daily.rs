//! The command line for daily and scripted use: exit codes and messages in the user's
//! words, JSON for scripts, tables that fit, output shaping, waiting, confirmations,
//! completions, onboarding, bulk reads and search.

mod common;

use common::{TempDir, run_in, sandbox};

/// Configuration and URL problems exit 2, with the flag and environment names.
#[test]
fn configuration_and_url_problems_exit_2_in_the_users_words() {
    let home = TempDir::new("exit-config");
    for (args, env, words) in [
        (
            vec!["--base-url", "http://example.com", "vps", "list"],
            vec![("HOSTAPI_API_KEY", "k")],
            "--base-url",
        ),
        (
            vec!["--base-url", "not a url", "vps", "list"],
            vec![("HOSTAPI_API_KEY", "k")],
            "HOSTAPI_BASE_URL",
        ),
        (
            vec!["vps", "list"],
            vec![("HOSTAPI_API_KEY", "k")],
            "HOSTAPI_BASE_URL",
        ),
        (
            vec!["cdn", "origins", "list"],
            vec![("HOSTAPI_CDN_SECRET", "s"), ("HOSTAPI_CDN_CUSTOMER", "1")],
            "HOSTAPI_CDN_BASE_URL",
        ),
    ] {
        let run = run_in(home.path(), &args, &env).code(2);
        assert!(run.stderr.contains(words), "{args:?}: {}", run.stderr);
        assert!(
            !run.stderr.contains("credentials"),
            "{args:?}: {}",
            run.stderr
        );
        assert!(
            !run.stderr.contains("base_url:"),
            "{args:?}: {}",
            run.stderr
        );
    }
    // Missing credentials remain an authentication failure (3).
    let run = run_in(home.path(), &["vps", "list"], &[]).code(3);
    assert!(run.stderr.contains("HOSTAPI_API_KEY"), "{}", run.stderr);
}

/// Every id is checked locally, the same way, before anything is sent: a sandbox that
/// would answer 404 never sees the call (exit 2, not 4), and no Rust type names.
#[test]
fn every_id_is_checked_locally_in_the_same_way() {
    for (args, noun) in [
        (vec!["bare-metal", "get", "abc"], "bare metal server id"),
        (vec!["vps", "get", "abc"], "virtual server id"),
        (vec!["racks", "get", "x"], "private rack id"),
        (vec!["networks", "get", "x"], "private network id"),
        (vec!["cdn", "origins", "get", "x"], "origin id"),
        (vec!["cloud", "get", "a/b"], "cloud server id"),
        (vec!["vps", "get", "../x"], "virtual server id"),
        (
            vec!["bare-metal", "ips", "list", "20001x"],
            "bare metal server id",
        ),
        (
            vec!["catalog", "partition-schema", "get", "x", "20001"],
            "operating system id",
        ),
        (
            vec!["bare-metal", "leases", "get", "20001", "zz"],
            "MAC address",
        ),
    ] {
        let run = sandbox(&args).code(2);
        assert!(run.stderr.contains(noun), "{args:?}: {}", run.stderr);
        for leak in [
            "Id:",
            "Id`",
            "BareMetalId",
            "VirtualServerId",
            "CloudServerId",
        ] {
            assert!(!run.stderr.contains(leak), "{args:?}: {}", run.stderr);
        }
        assert!(run.stdout.is_empty(), "{args:?}: {}", run.stdout);
    }
}

/// The API call's operation name shows only with -v.
#[test]
fn the_operation_name_shows_only_with_verbose() {
    let quiet = sandbox(&["bare-metal", "get", "99999"]).code(4);
    assert!(!quiet.stderr.contains("getBareMetal"), "{}", quiet.stderr);
    let loud = sandbox(&["-v", "bare-metal", "get", "99999"]).code(4);
    assert!(
        loud.stderr
            .contains("call: getBareMetal (GET /v1/bareMetals/99999)"),
        "{}",
        loud.stderr
    );
}

/// Runs `hostapi --sandbox <args>` at a given terminal width.
fn sandbox_at(columns: &str, args: &[&str]) -> common::Run {
    let home = TempDir::new("width");
    let mut command = common::command(home.path());
    command.env("COLUMNS", columns).arg("--sandbox").args(args);
    common::finish(command)
}

/// At 80 and 120 columns every id (and the domain or IP that names a row) of a list
/// prints whole, on one line; other values are whole or shortened with `…`; columns
/// that do not fit even so are left out with a note, and --wide keeps them.
#[test]
fn tables_fit_the_terminal_without_splitting_ids() {
    let lists: &[(&[&str], &[&str])] = &[
        (&["cloud", "list"], &["id"]),
        (&["vps", "list"], &["id", "name"]),
        (&["bare-metal", "list"], &["id", "name"]),
        (&["domains", "list"], &["name"]),
        (&["dns", "list", "acme-1.com"], &["id", "name"]),
        (&["cdn", "origins", "list"], &["id", "url"]),
        (
            &["bare-metal", "ips", "list", "20001"],
            &["ip", "reverse_dns"],
        ),
        (&["racks", "list"], &["id"]),
        (&["networks", "list"], &["id"]),
    ];
    for (args, fields) in lists {
        let json = sandbox(&[args, &["-o", "json"][..]].concat()).ok().json();
        let items = json.as_array().expect("a list");
        assert!(!items.is_empty(), "{args:?}");
        for columns in ["80", "120"] {
            let run = sandbox_at(columns, &[args, &["-o", "table"][..]].concat()).ok();
            let width = columns.parse::<usize>().unwrap();
            for line in run.stdout.lines() {
                assert!(
                    line.trim_end().chars().count() <= width,
                    "{args:?} at {columns}: {line:?}"
                );
            }
            for item in items {
                let lines: Vec<&str> = run.stdout.lines().collect();
                let id = item[fields[0]].as_str().expect("an id");
                let line = lines
                    .iter()
                    .find(|l| l.split_whitespace().any(|w| w == id))
                    .unwrap_or_else(|| {
                        panic!("{args:?} at {columns}: {id} not whole\n{}", run.stdout)
                    });
                // The other named fields, when shown, are whole on that line, or
                // their start and `…`: never split silently.
                for field in &fields[1..] {
                    if let Some(value) = item[*field].as_str().filter(|v| !v.is_empty()) {
                        let header = run.stdout.lines().next().unwrap_or_default();
                        let shortened = line.split("  ").any(|cell| {
                            cell.trim()
                                .strip_suffix('…')
                                .is_some_and(|start| value.starts_with(start))
                        });
                        let shown =
                            line.contains(value) || shortened || run.stderr.contains("left out");
                        assert!(
                            shown,
                            "{args:?} at {columns}: {field}={value} split\n{header}\n{line}\n{}",
                            run.stderr
                        );
                    }
                }
            }
            if run.stderr.contains("left out") {
                let wide =
                    sandbox_at(columns, &[args, &["-o", "table", "--wide"][..]].concat()).ok();
                assert!(!wide.stderr.contains("left out"), "{}", wide.stderr);
                let narrow_header = run.stdout.lines().next().unwrap_or_default();
                let wide_header = wide.stdout.lines().next().unwrap_or_default();
                assert!(wide_header.len() > narrow_header.len(), "{wide_header}");
            }
        }
    }
    // At 80 columns the cloud list cannot show every column: a note says which.
    let run = sandbox_at("80", &["cloud", "list", "-o", "table"]).ok();
    assert!(
        run.stderr.contains("left out to fit 80 columns"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("--wide"), "{}", run.stderr);
    // Free text is cut with … before any column goes.
    let run = sandbox_at(
        "40",
        &["vps", "list", "-o", "table", "--columns", "id,template"],
    )
    .ok();
    assert!(
        run.stdout.contains("Windows Server 2019 Standard…"),
        "{}",
        run.stdout
    );
    assert!(!run.stderr.contains("left out"), "{}", run.stderr);
}

/// A tiny CSV reader (quoted fields with doubled quotes), to parse the output back.
fn read_csv(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    for line in text.lines() {
        let mut row = Vec::new();
        let mut cell = String::new();
        let mut quoted = false;
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            match (c, quoted) {
                ('"', true) if chars.peek() == Some(&'"') => {
                    cell.push('"');
                    chars.next();
                }
                ('"', _) => quoted = !quoted,
                (',', false) => row.push(std::mem::take(&mut cell)),
                (c, _) => cell.push(c),
            }
        }
        row.push(cell);
        rows.push(row);
    }
    rows
}

/// Every format parses back to the same records; --columns, --no-headers, --filter,
/// --sort, --limit and --query use the JSON field names in every format.
#[test]
fn output_shaping_works_in_every_format() {
    let all = sandbox(&["vps", "list", "-o", "json"]).ok().json();
    let all = all.as_array().unwrap().clone();
    let running: Vec<&serde_json::Value> = all.iter().filter(|v| v["state"] == "running").collect();

    // JSON: filter, sort descending, limit, columns.
    let shaped = sandbox(&[
        "vps",
        "list",
        "-o",
        "json",
        "--filter",
        "state=running",
        "--sort=-id",
        "--limit",
        "3",
        "--columns",
        "id,name,state",
    ])
    .ok()
    .json();
    let shaped = shaped.as_array().unwrap();
    assert_eq!(shaped.len(), 3);
    let mut expected: Vec<u64> = running
        .iter()
        .map(|v| v["id"].as_str().unwrap().parse().unwrap())
        .collect();
    expected.sort_unstable_by(|a, b| b.cmp(a));
    for (item, id) in shaped.iter().zip(&expected) {
        assert_eq!(item["id"], id.to_string());
        assert_eq!(item["state"], "running");
        assert_eq!(item.as_object().unwrap().len(), 3, "{item}");
    }

    // YAML parses back to the JSON.
    let yaml = sandbox(&["vps", "list", "-o", "yaml"]).ok();
    let back: serde_json::Value = serde_yaml_ng::from_str(&yaml.stdout).expect("YAML");
    assert_eq!(back, serde_json::Value::Array(all.clone()));

    // CSV: a header of JSON names, then one row per record.
    let csv = sandbox(&["vps", "list", "-o", "csv", "--columns", "id,name,ips"]).ok();
    let rows = read_csv(&csv.stdout);
    assert_eq!(rows[0], ["id", "name", "ips"]);
    assert_eq!(rows.len(), all.len() + 1);
    for (row, item) in rows[1..].iter().zip(&all) {
        assert_eq!(row[0], item["id"].as_str().unwrap());
        let ips: Vec<&str> = item["ips"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["ip"].as_str().unwrap())
            .collect();
        assert_eq!(row[2], ips.join(", "));
    }

    // TSV without headers.
    let tsv = sandbox(&[
        "vps",
        "list",
        "-o",
        "tsv",
        "--no-headers",
        "--columns",
        "id,state",
        "--limit",
        "2",
    ])
    .ok();
    let lines: Vec<Vec<&str>> = tsv
        .stdout
        .lines()
        .map(|l| l.split('\t').collect())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(
        lines[0],
        [
            all[0]["id"].as_str().unwrap(),
            all[0]["state"].as_str().unwrap()
        ]
    );

    // A table with chosen columns: headers are the JSON names in capitals.
    let table = sandbox(&[
        "vps",
        "list",
        "-o",
        "table",
        "--columns",
        "id,state",
        "--limit",
        "1",
    ])
    .ok();
    assert_eq!(
        table
            .stdout
            .lines()
            .next()
            .unwrap()
            .split_whitespace()
            .collect::<Vec<_>>(),
        ["ID", "STATE"]
    );

    // Glob filters on a nested field, any letter case.
    let globbed = sandbox(&[
        "vps",
        "list",
        "-o",
        "json",
        "--filter",
        "ips[].ip=37.48.0.1?",
    ])
    .ok()
    .json();
    for item in globbed.as_array().unwrap() {
        assert!(
            item["ips"]
                .as_array()
                .unwrap()
                .iter()
                .any(|i| i["ip"].as_str().unwrap().starts_with("37.48.0.1"))
        );
    }

    // --query: a jq filter; strings print raw outside JSON.
    let ids = sandbox(&[
        "vps",
        "list",
        "-o",
        "table",
        "--query",
        ".[] | select(.state == \"running\") | .id",
    ])
    .ok();
    let expected: Vec<&str> = running.iter().map(|v| v["id"].as_str().unwrap()).collect();
    assert_eq!(ids.stdout.lines().collect::<Vec<_>>(), expected);
    let count = sandbox(&[
        "vps",
        "list",
        "-o",
        "json",
        "--query",
        "map(select(.state == \"running\")) | length",
    ])
    .ok()
    .json();
    assert_eq!(count, running.len());
    // A query that is not jq is a usage error, before anything is printed.
    let bad = sandbox(&["vps", "list", "--query", ".[ | nope"]).code(2);
    assert!(bad.stdout.is_empty());
    // Shaping a record: --columns keeps the JSON names.
    let one = sandbox(&[
        "bare-metal",
        "get",
        "20001",
        "-o",
        "json",
        "--columns",
        "id,location.site",
    ])
    .ok()
    .json();
    assert_eq!(one.as_object().unwrap().len(), 2, "{one}");
    assert!(one["location"]["site"].is_string(), "{one}");
}

/// Changes that cut service or replace a whole configuration ask first: without a
/// terminal and without --yes they are refused (exit 2) and nothing is printed.
#[test]
fn changes_that_cut_service_ask_first() {
    for args in [
        &["cdn", "acl", "set", "--allow", "content.get"][..],
        &["bare-metal", "switch-port", "close", "20001"],
        &["ips", "update", "85.17.0.10", "--null-routed", "true"],
        &[
            "bare-metal",
            "ips",
            "update",
            "20001",
            "85.17.0.10",
            "--null-routed",
            "on",
        ],
        &["bare-metal", "power", "cycle", "20001"],
        &["vps", "power-off", "100001"],
        &["vps", "reboot", "100001"],
        &["vps", "reinstall", "100001"],
        &["cloud", "power-off", "c90e8a9c-09ba-46e2-ae8a-0c71c86fa728"],
    ] {
        let run = sandbox(args).code(2);
        assert!(
            run.stderr.contains("without confirmation"),
            "{args:?}: {}",
            run.stderr
        );
        assert!(run.stderr.contains("--yes"), "{args:?}: {}", run.stderr);
        assert!(run.stdout.is_empty(), "{args:?}");
        sandbox(&[args, &["--yes"][..]].concat()).ok();
    }
    // Turning null routing off cuts nothing: no question.
    sandbox(&["ips", "update", "85.17.0.10", "--null-routed", "false"]).ok();
}

/// On a terminal, an unclear answer is asked again; `yes` then goes on.
#[test]
fn an_unclear_answer_is_asked_again() {
    if std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("skipped: no `script` to give the binary a terminal");
        return;
    }
    let home = TempDir::new("prompt");
    let line = format!(
        "{} --sandbox -o json bare-metal switch-port close 20001",
        common::BIN
    );
    let mut command = common::command(home.path());
    command
        .env_clear()
        .env("HOME", home.path())
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("COLUMNS", "100")
        .args(["-qec", &line, "/dev/null"]);
    command.stdin(std::process::Stdio::piped());
    // `script` reads the answers from its input and types them on the terminal.
    let mut child = std::process::Command::new("script")
        .args(["-qec", &line, "/dev/null"])
        .env("HOME", home.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("script starts");
    {
        use std::io::Write;
        let mut input = child.stdin.take().unwrap();
        input.write_all(b"maybe\nyes\n").unwrap();
    }
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("please type yes or no"), "{text}");
    assert!(text.contains("\"status\""), "{text}");
}

/// vps power actions and the bare metal power cycle take --wait; durations read as
/// people write them.
#[test]
fn power_actions_wait_and_durations_read_well() {
    let run = sandbox(&[
        "vps",
        "power-off",
        "100001",
        "--yes",
        "--wait",
        "-o",
        "json",
    ])
    .ok();
    assert_eq!(run.json()["state"], "stopped", "{}", run.stdout);
    assert!(
        run.stderr.contains("virtual server 100001 is stopped ("),
        "{}",
        run.stderr
    );
    let run = sandbox(&["vps", "power-on", "100003", "--wait", "-o", "json"]).ok();
    assert_eq!(run.json()["state"], "running");
    // The sandbox's power cycle is too quick to be seen off, so the wait for it ends
    // at its deadline: kept exactly, and told in a duration people read.
    let run = sandbox(&[
        "bare-metal",
        "power",
        "cycle",
        "20001",
        "--yes",
        "--wait",
        "--wait-timeout",
        "1s",
    ])
    .code(5);
    assert!(run.stderr.contains("after 1.0s"), "{}", run.stderr);
    assert!(run.stderr.contains("--wait-timeout"), "{}", run.stderr);
    // A duration reads as 5.0s or 2m10s, never as 5.005874957s.
    for line in run.stderr.lines().filter(|l| l.ends_with(')')) {
        let inner = line.rsplit('(').next().unwrap().trim_end_matches(')');
        assert!(
            inner.ends_with("ms") || inner.split('.').nth(1).is_none_or(|f| f.len() <= 2),
            "{line}"
        );
    }
    // Too short an interval is refused before anything is sent.
    let run = sandbox(&[
        "vps",
        "power-on",
        "100003",
        "--wait",
        "--wait-interval",
        "0s",
    ])
    .code(2);
    assert!(run.stderr.contains("--wait-interval"), "{}", run.stderr);
}

/// A closed pipe ends quietly: completions and long outputs under `| head -1`.
#[test]
fn a_closed_pipe_ends_quietly() {
    let home = TempDir::new("pipe");
    for line in [
        format!("'{}' completions bash | head -1", common::BIN),
        format!("'{}' completions zsh | head -1", common::BIN),
        format!("'{}' completions fish | head -1", common::BIN),
        format!("'{}' --sandbox vps list -o csv | head -1", common::BIN),
        format!("'{}' --sandbox cloud list -o json | head -1", common::BIN),
    ] {
        let script = format!("{line}; exit ${{PIPESTATUS[0]}}");
        let run = common::finish({
            let mut command = std::process::Command::new("bash");
            command.args(["-c", &script]).env("HOME", home.path());
            command
        });
        assert!(
            run.code == 0 || run.code == 141,
            "{line}: exit {}\n{}",
            run.code,
            run.stderr
        );
        assert!(!run.stderr.contains("panicked"), "{line}: {}", run.stderr);
        assert_eq!(run.stdout.lines().count(), 1, "{line}");
    }
}
