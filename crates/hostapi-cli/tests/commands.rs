//! The CLI end to end against the sandbox: what each kind of command prints (tables,
//! charts and JSON, as snapshots), waits, secrets, confirmations, exit codes, PNG
//! graphs, completions and the tour.

mod common;

use std::process::Stdio;

use common::{TempDir, command, line_in, par_map, sandbox_line, slug};

const CLOUD_ID: &str = "c90e8a9c-09ba-46e2-ae8a-0c71c86fa728";

/// Help texts, as people see them (100 columns).
#[test]
fn help_texts() {
    let home = TempDir::new("help");
    for line in [
        "--help",
        "-h",
        "bare-metal --help",
        "bare-metal install --help",
        "cloud power-off --help",
        "cloud metrics datatraffic --help",
        "dns update --help",
        "cdn purge --help",
        "networks members add --help",
    ] {
        let run = line_in(home.path(), line).ok();
        insta::assert_snapshot!(format!("help_{}", slug(line)), run.stdout, line);
    }
}

/// Tables for people, from the same JSON as `--output json`.
#[test]
fn tables() {
    let lines = vec![
        "vps list",
        "bare-metal get 20001",
        "dns list acme-1.com",
        "bare-metal leases list 20001",
        "networks members list 501",
        "cdn purge-status 1001 5001",
        "bare-metal usage get 20002 --from 2024-01-01 --to 2024-01-31",
    ];
    let runs = par_map(lines, |line| {
        (line, sandbox_line(&format!("{line} --output table")).ok())
    });
    for (line, run) in runs {
        insta::assert_snapshot!(format!("table_{}", slug(line)), run.stdout, line);
    }
}

/// Charts: outgoing up, incoming down, labelled axes and units.
#[test]
fn charts() {
    let lines = vec![
        format!("cloud metrics datatraffic {CLOUD_ID} --from 2024-01-01 --to 2024-01-15"),
        format!(
            "cloud metrics datatraffic {CLOUD_ID} --from 2024-01-01T00:00:00Z \
             --to 2024-01-01T12:00:00Z --granularity hour --values"
        ),
        "bare-metal usage datatraffic 20002 --from 2024-01-01 --to 2024-01-20 --chart".to_owned(),
        "bare-metal usage bandwidth 20002 --from 2024-01-01 --to 2024-01-10 --chart".to_owned(),
    ];
    let runs = par_map(lines, |line| {
        let run = sandbox_line(&format!("{line} --output table")).ok();
        (line, run)
    });
    for (line, run) in runs {
        assert!(
            run.stdout.contains('▲') && run.stdout.contains('▼'),
            "{}",
            run.stdout
        );
        let name = slug(&line.replace(CLOUD_ID, "ID"));
        insta::assert_snapshot!(format!("chart_{name}"), run.stdout, &line);
    }
}

/// `--output json` is the SDK's serialisation and nothing else; progress goes to
/// stderr.
#[test]
fn json_documents() {
    let lines = vec![
        "vps get 100001".to_owned(),
        format!("cloud get {CLOUD_ID}"),
        "dns get acme-1.com 1000003".to_owned(),
        "cdn origins get 102".to_owned(),
        "bare-metal usage bandwidth 20001 --from 2024-01-01 --to 2024-01-31".to_owned(),
        format!(
            "cloud metrics datatraffic {CLOUD_ID} --from 2024-01-01 --to 2024-01-04 \
             --granularity day"
        ),
    ];
    let runs = par_map(lines, |line| {
        let run = sandbox_line(&format!("{line} --output json")).ok();
        (line, run)
    });
    for (line, run) in runs {
        let name = slug(&line.replace(CLOUD_ID, "ID"));
        insta::assert_json_snapshot!(format!("json_{name}"), run.json(), &line);
    }
}

#[test]
fn json_is_the_default_through_a_pipe_and_tables_stay_on_request() {
    let run = sandbox_line("domains get acme-1.com").ok();
    assert_eq!(run.json()["name"], "acme-1.com");
    let run = sandbox_line("domains get acme-1.com -o table").ok();
    assert!(run.stdout.starts_with(" FIELD"), "{}", run.stdout);
    assert!(
        !run.stdout.contains('\x1b'),
        "NO_COLOR is set: {}",
        run.stdout
    );
}

#[test]
fn global_flags_go_anywhere_on_the_line() {
    let home = TempDir::new("anywhere");
    for line in [
        "--sandbox --output json vps get 100001",
        "vps --sandbox get --output json 100001",
        "vps get 100001 -o json --sandbox",
    ] {
        let run = line_in(home.path(), line).ok();
        assert_eq!(run.json()["id"], "100001", "{line}");
    }
}

#[test]
fn waits_end_in_the_state_awaited_with_progress_on_stderr() {
    let stopped = sandbox_line(&format!("cloud power-off {CLOUD_ID} --wait --yes -o json")).ok();
    assert_eq!(stopped.json()["state"], "stopped");
    assert!(
        stopped.stderr.contains("waiting for cloud server"),
        "{}",
        stopped.stderr
    );
    assert!(stopped.stderr.contains("is STOPPED"), "{}", stopped.stderr);

    // Without --wait: the job.
    let job = sandbox_line(&format!("cloud reboot {CLOUD_ID} --yes -o json"))
        .ok()
        .json();
    assert!(job["id"].is_string() && job["status"].is_string(), "{job}");

    let member = sandbox_line("networks members add 502 20003 --wait -o json")
        .ok()
        .json();
    assert_eq!(member["status"], "configured", "{member}");
    assert_eq!(member["bare_metal_id"], "20003", "{member}");
    let removed = sandbox_line("networks members remove 501 20001 --wait").ok();
    assert!(
        removed.stderr.contains("left private network 501"),
        "{}",
        removed.stderr
    );

    let purged = sandbox_line("cdn purge 1001 /a.css /b.js --wait")
        .ok()
        .json();
    // The purge job, kept with --wait: its id, zone, files and each file's status.
    assert_eq!(purged["zone"], "1001", "{purged}");
    assert!(purged["job_id"].is_string(), "{purged}");
    let entries = purged["entries"].as_array().expect("a list");
    assert_eq!(entries.len(), 2, "{purged}");
    assert!(entries.iter().all(|e| e["status"] == "done"), "{purged}");

    let rescued = sandbox_line("bare-metal rescue 20001 --image 121 --wait --show-secrets")
        .ok()
        .json();
    let password = rescued["rescue_mode_password"].as_str().unwrap_or_default();
    assert!(
        !password.is_empty() && password != "[REDACTED]",
        "{rescued}"
    );

    // Slow enough (300 simulated seconds = 100 ms) for the polls to see it install.
    let home = TempDir::new("install");
    let installed = common::line_scaled(
        home.path(),
        "3000",
        "--sandbox bare-metal install 20001 --os 9 --yes --wait",
    )
    .ok();
    assert_eq!(installed.json()["description"], "normal");
    assert!(
        installed.stderr.contains(": Installing"),
        "{}",
        installed.stderr
    );
}

#[test]
fn a_wait_that_runs_out_of_time_exits_5() {
    // At a time scale of 1 an installation takes five real minutes.
    let home = TempDir::new("timeout");
    let run = common::line_scaled(
        home.path(),
        "1",
        "--sandbox bare-metal install 20001 --os 9 --yes --wait \
         --wait-timeout 300ms --wait-interval 100ms",
    )
    .code(5);
    assert!(run.stderr.contains("gave up waiting"), "{}", run.stderr);
    assert!(run.stderr.contains("hint:"), "{}", run.stderr);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
}

#[test]
fn ctrl_c_stops_a_wait_with_exit_130() {
    let home = TempDir::new("interrupt");
    let (code, stderr) = common::interrupt_a_wait(home.path());
    assert_eq!(code, 130);
    assert!(stderr.contains("error: interrupted"), "{stderr}");
}

#[test]
fn secrets_are_redacted_unless_asked_for() {
    let cases = vec![
        (format!("cloud credentials get {CLOUD_ID} root"), "password"),
        ("bare-metal root-password 20001".to_owned(), "root_password"),
        ("cdn origins get 102".to_owned(), "basic_auth_password"),
        ("cdn customers get".to_owned(), "api_secret"),
    ];
    let failures: Vec<String> = par_map(cases, |(line, field)| {
        let hidden = sandbox_line(&line).ok().json();
        let table = sandbox_line(&format!("{line} -o table")).ok().stdout;
        let shown = sandbox_line(&format!("{line} --show-secrets")).ok().json();
        let value = shown[field].as_str().unwrap_or_default().to_owned();
        let mut problems = Vec::new();
        if hidden[field] != "[REDACTED]" {
            problems.push(format!("{line}: JSON shows {}", hidden[field]));
        }
        if !table.contains("[REDACTED]") || table.contains(&value) {
            problems.push(format!("{line}: table not redacted:\n{table}"));
        }
        if value.is_empty() || value == "[REDACTED]" {
            problems.push(format!("{line}: --show-secrets shows {value:?}"));
        }
        problems
    })
    .into_iter()
    .flatten()
    .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // In lists too.
    let subs = sandbox_line("cdn sub-customers get 46242701 -o table").ok();
    assert!(subs.stdout.contains("[REDACTED]"), "{}", subs.stdout);
}

#[test]
fn destructive_commands_refuse_without_yes_off_a_terminal() {
    let lines = vec![
        "dns delete acme-1.com 1000000".to_owned(),
        "bare-metal install 20001 --os 9".to_owned(),
        "bare-metal leases delete-all 20001".to_owned(),
        "networks delete 502".to_owned(),
        "cdn purge 1001 --everything".to_owned(),
        "cdn acl delete".to_owned(),
        format!("cloud reinstall {CLOUD_ID}"),
        "vps reinstall 100001".to_owned(),
    ];
    let runs = par_map(lines, |line| {
        let run = sandbox_line(&line);
        (line, run)
    });
    for (line, run) in runs {
        let run = run.code(2);
        assert!(run.stderr.contains("refusing to"), "{line}: {}", run.stderr);
        assert!(run.stderr.contains("--yes"), "{line}: {}", run.stderr);
        assert!(run.stdout.is_empty(), "{line}: {}", run.stdout);
    }
    // With --yes they go ahead.
    sandbox_line("dns delete acme-1.com 1000000 --yes").ok();
    sandbox_line("networks delete 502 -y").ok();
}

#[test]
fn exit_codes_tell_usage_and_not_found_apart() {
    let cases = vec![
        ("vps get", 2, "required"),
        ("vps get 100001 --output xml", 2, "invalid value"),
        ("bare-metal get ..", 2, "invalid"),
        ("dns update acme-1.com 1000000", 2, "nothing to change"),
        // The documents give no TTL range: the service refuses it (and says why).
        ("domains set-ttl acme-1.com 5", 1, "ttl"),
        ("cdn acl set --allow stats.post", 2, "stats.get"),
        ("cdn purge 1001 /a *", 2, "--everything"),
        ("cloud wait x --state paused", 2, "invalid value"),
        ("cloud power-on x --wait-timeout 5s", 2, "--wait"),
        (
            "bare-metal usage datatraffic 20001 --from 2024-01-01 --to 2024-06-01 --chart",
            2,
            "62",
        ),
        ("vps get 999999", 4, "hint: check the id"),
        ("bare-metal get 29999", 4, "hint:"),
        ("cloud private-clouds get 1", 4, "no private cloud 1"),
        ("cdn origins get 999", 4, "hint:"),
    ];
    let runs = par_map(cases, |(line, code, text)| {
        (line, sandbox_line(line), code, text)
    });
    for (line, run, code, text) in runs {
        assert_eq!(run.code, code, "{line}: {}", run.stderr);
        assert!(run.stderr.contains(text), "{line}: {}", run.stderr);
        assert!(run.stdout.is_empty(), "{line}: {}", run.stdout);
    }
}

#[test]
fn png_graphs_are_written_to_a_file_or_stdout() {
    let home = TempDir::new("png");
    let run = line_in(
        home.path(),
        "--sandbox bare-metal usage datatraffic 20001 \
         --from 2024-01-01 --to 2024-01-31 --png traffic.png",
    )
    .ok();
    assert!(run.stdout.is_empty());
    assert!(run.stderr.contains("wrote the graph"), "{}", run.stderr);
    let bytes = std::fs::read(home.path().join("traffic.png")).unwrap();
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");

    let mut run = command(home.path());
    run.args([
        "--sandbox",
        "bare-metal",
        "usage",
        "bandwidth",
        "20001",
        "--png",
        "-",
    ])
    .stdout(Stdio::piped())
    .stderr(Stdio::piped());
    let output = run.output().unwrap();
    assert!(output.status.success());
    assert!(output.stdout.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
}

#[test]
fn completions_for_each_shell() {
    let home = TempDir::new("completions");
    for shell in ["bash", "zsh", "fish"] {
        // The script registers the binary; the shell asks it on Tab (tests/completion.rs).
        let run = line_in(home.path(), &format!("completions {shell}")).ok();
        assert!(run.stdout.contains("hostapi"), "{shell}");
        assert!(run.stdout.contains("COMPLETE="), "{shell}: {}", run.stdout);
        // No hidden flag: the sandbox's time scale is a variable, not a flag.
        assert!(!run.stdout.contains("time-scale"), "{shell}");
    }
    // The variable is read; a value that is not a number is a usage error.
    let bad = common::run_in(
        home.path(),
        &["--sandbox", "vps", "list"],
        &[(common::TIME_SCALE_VAR, "fast")],
    )
    .code(2);
    assert!(
        bad.stderr.contains("HOSTAPI_SANDBOX_TIME_SCALE"),
        "{}",
        bad.stderr
    );
    // The flag is gone.
    line_in(home.path(), "--sandbox --sandbox-time-scale 10 vps list").code(2);
}

#[test]
fn the_tour_walks_all_three_interfaces() {
    let run = sandbox_line("tour").ok();
    for part in [
        "== 1. Lists",
        "$ hostapi --sandbox dns create acme-1.com",
        "$ hostapi --sandbox dns delete",
        "$ hostapi --sandbox cloud power-off",
        "$ hostapi --sandbox cloud power-on",
        "$ hostapi --sandbox bare-metal install 20001",
        "$ hostapi --sandbox cdn purge 1001",
        "That was the tour.",
    ] {
        assert!(
            run.stdout.contains(part),
            "missing {part:?}:\n{}",
            run.stdout
        );
    }
    for part in ["is STOPPED", "is RUNNING", "is installed", "nothing queued"] {
        assert!(
            run.stderr.contains(part),
            "missing {part:?}:\n{}",
            run.stderr
        );
    }
    // Each step prints exactly what its command prints on its own (a fresh sandbox
    // has the tour's data): the tour runs the commands' own code.
    let mut blocks = std::collections::BTreeMap::new();
    for block in run.stdout.split("\n$ hostapi --sandbox ").skip(1) {
        let (line, rest) = block.split_once('\n').unwrap_or((block, ""));
        let printed = rest
            .split("\n== ")
            .next()
            .and_then(|p| p.split("\nThat was the tour.").next())
            .unwrap_or_default();
        blocks.insert(line.to_owned(), printed.trim_end().to_owned());
    }
    let lines = vec![
        "vps list --limit 5",
        "bare-metal list --details --limit 5",
        "bare-metal get 20001 20002 20003",
        "find web-*",
        "cdn purge 1001 /index.html /css/site.css --wait",
    ];
    let alone = par_map(lines, |line| {
        (line, sandbox_line(&format!("{line} --output table")).ok())
    });
    for (line, alone) in alone {
        let in_tour = blocks
            .get(line)
            .unwrap_or_else(|| panic!("the tour does not run {line:?}: {blocks:#?}"));
        assert_eq!(in_tour, alone.stdout.trim_end(), "{line}");
    }
    let purge = &blocks["cdn purge 1001 /index.html /css/site.css --wait"];
    assert!(
        purge.contains("done") && !purge.contains("queued"),
        "{purge}"
    );
    // Text for people even through a pipe, and only in the sandbox.
    assert!(!run.stdout.trim_start().starts_with('{'));
    sandbox_line("tour --output json").code(2);
    let home = TempDir::new("tour");
    let run = line_in(home.path(), "tour").code(2);
    assert!(run.stderr.contains("--sandbox"), "{}", run.stderr);
}
