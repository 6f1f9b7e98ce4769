//! Where settings come from (flags, then the environment, then a profile of the config
//! file), checked with `config show` and against a simulator started by the test:
//! refused credentials exit 3, a refused confirmation sends nothing, service failures
//! exit 1, and a write whose answer was lost is read back (or exits 6).

mod common;

use std::path::{Path, PathBuf};

use common::{LiveSim, Run, TempDir, run_in};
use hostapi_sim::{FaultConfig, FaultKind, FaultWeights, Sim, SimConfig};
use serde_json::Value;

/// Writes a config file into `home` and answers its path.
fn config_file(home: &Path, text: &str) -> PathBuf {
    let path = home.join("hostapi.toml");
    std::fs::write(&path, text).unwrap();
    path
}

/// `config show --output json` with these arguments and environment.
fn show(home: &Path, args: &[&str], env: &[(&str, &str)]) -> Value {
    let mut all = args.to_vec();
    all.extend(["config", "show", "--output", "json"]);
    run_in(home, &all, env).ok().json()
}

fn setting<'a>(shown: &'a Value, name: &str) -> (&'a Value, &'a str) {
    let entry = &shown["settings"][name];
    (
        &entry["value"],
        entry["source"].as_str().unwrap_or_default(),
    )
}

const TWO_PROFILES: &str = r#"
default_profile = "work"

[profiles.work]
base_url = "https://work.example.com"
api_key = "work-key"
cdn_customer = "C1"

[profiles.home]
base_url = "https://home.example.com"
api_key = "home-key"
"#;

#[test]
fn flags_beat_the_environment_which_beats_the_profile() {
    let home = TempDir::new("precedence");
    let file = config_file(home.path(), TWO_PROFILES);
    let file = file.to_str().unwrap();

    let shown = show(home.path(), &["--config", file], &[]);
    assert_eq!(shown["profile"], "work");
    assert_eq!(
        setting(&shown, "base_url"),
        (
            &Value::from("https://work.example.com"),
            "config profile work"
        )
    );
    assert_eq!(setting(&shown, "cdn_secret"), (&Value::Null, "not set"));

    let env = [("HOSTAPI_BASE_URL", "https://env.example.com")];
    let shown = show(home.path(), &["--config", file], &env);
    assert_eq!(
        setting(&shown, "base_url"),
        (
            &Value::from("https://env.example.com"),
            "environment HOSTAPI_BASE_URL"
        )
    );
    // The rest still comes from the profile.
    assert_eq!(setting(&shown, "cdn_customer").1, "config profile work");

    let shown = show(
        home.path(),
        &["--config", file, "--base-url", "https://flag.example.com"],
        &env,
    );
    assert_eq!(
        setting(&shown, "base_url"),
        (&Value::from("https://flag.example.com"), "flag --base-url")
    );
}

#[test]
fn profiles_are_chosen_by_flag_environment_or_the_file() {
    let home = TempDir::new("profiles");
    let file = config_file(home.path(), TWO_PROFILES);
    let file = file.to_str().unwrap();
    let base_url = |shown: &Value| shown["settings"]["base_url"]["value"].clone();

    let shown = show(home.path(), &["--config", file, "--profile", "home"], &[]);
    assert_eq!(base_url(&shown), "https://home.example.com");
    let shown = show(
        home.path(),
        &["--config", file],
        &[("HOSTAPI_PROFILE", "home")],
    );
    assert_eq!(base_url(&shown), "https://home.example.com");
    // The flag beats the variable.
    let shown = show(
        home.path(),
        &["--config", file, "--profile", "work"],
        &[("HOSTAPI_PROFILE", "home")],
    );
    assert_eq!(base_url(&shown), "https://work.example.com");
    // HOSTAPI_CONFIG names the file.
    let shown = show(home.path(), &[], &[("HOSTAPI_CONFIG", file)]);
    assert_eq!(base_url(&shown), "https://work.example.com");

    // Without default_profile, a profile named `default` is used.
    let plain = home.path().join("plain.toml");
    std::fs::write(
        &plain,
        "[profiles.default]\nbase_url = \"https://default.example.com\"\n",
    )
    .unwrap();
    let shown = show(home.path(), &["--config", plain.to_str().unwrap()], &[]);
    assert_eq!(base_url(&shown), "https://default.example.com");
    assert_eq!(shown["profile"], "default");

    let missing = run_in(
        home.path(),
        &["--config", file, "--profile", "play", "config", "show"],
        &[],
    );
    let missing = missing.code(2);
    assert!(
        missing.stderr.contains("no profile `play`"),
        "{}",
        missing.stderr
    );
    assert!(
        missing.stderr.contains("known profiles: home, work"),
        "{}",
        missing.stderr
    );
}

#[test]
fn the_default_file_lives_in_the_config_folder() {
    let home = TempDir::new("default-file");
    let folder = home.path().join(".config/hostapi");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("config.toml"), TWO_PROFILES).unwrap();
    let shown = show(home.path(), &[], &[]);
    assert_eq!(shown["config_file_exists"], true);
    assert_eq!(
        shown["settings"]["api_key"]["source"],
        "config profile work"
    );

    // XDG_CONFIG_HOME moves it.
    let xdg = home.path().join("xdg");
    std::fs::create_dir_all(xdg.join("hostapi")).unwrap();
    std::fs::write(
        xdg.join("hostapi/config.toml"),
        "[profiles.default]\napi_key = \"xdg-key\"\n",
    )
    .unwrap();
    let shown = show(
        home.path(),
        &["--show-secrets"],
        &[("XDG_CONFIG_HOME", xdg.to_str().unwrap())],
    );
    assert_eq!(shown["settings"]["api_key"]["value"], "xdg-key");
}

#[test]
fn secrets_in_settings_stay_hidden() {
    let home = TempDir::new("hidden");
    let file = config_file(home.path(), TWO_PROFILES);
    let file = file.to_str().unwrap();
    let env = [("HOSTAPI_CDN_SECRET", "cdn-secret-value")];
    let shown = show(home.path(), &["--config", file], &env);
    assert_eq!(shown["settings"]["api_key"]["value"], "[REDACTED]");
    assert_eq!(shown["settings"]["cdn_secret"]["value"], "[REDACTED]");
    let table = run_in(
        home.path(),
        &["--config", file, "config", "show", "-o", "table"],
        &env,
    )
    .ok();
    assert!(!table.stdout.contains("work-key") && !table.stdout.contains("cdn-secret-value"));
    assert!(
        table.stdout.contains("config profile work"),
        "{}",
        table.stdout
    );
    let shown = show(home.path(), &["--config", file, "--show-secrets"], &env);
    assert_eq!(shown["settings"]["api_key"]["value"], "work-key");
    assert_eq!(shown["settings"]["cdn_secret"]["value"], "cdn-secret-value");
}

#[test]
fn bad_config_files_are_usage_errors_that_do_not_quote_secrets() {
    let home = TempDir::new("bad-config");
    let broken = config_file(
        home.path(),
        "[profiles.work]\napi_key = \"sk-do-not-print\nx",
    );
    let run = run_in(
        home.path(),
        &["--config", broken.to_str().unwrap(), "config", "show"],
        &[],
    );
    let run = run.code(2);
    assert!(run.stderr.contains("is not valid"), "{}", run.stderr);
    assert!(!run.stderr.contains("sk-do-not-print"), "{}", run.stderr);

    let unknown = config_file(home.path(), "[profiles.work]\napi_kye = \"k\"\n");
    run_in(
        home.path(),
        &["--config", unknown.to_str().unwrap(), "config", "show"],
        &[],
    )
    .code(2);

    let run = run_in(
        home.path(),
        &["--config", "/nonexistent/hostapi.toml", "vps", "list"],
        &[],
    );
    assert!(run.code(2).stderr.contains("does not exist"));
}

/// The arguments that point the binary at a simulator with these credentials.
fn against(sim: &Sim, api_key: &str) -> Vec<String> {
    vec![
        "--base-url".into(),
        sim.base_url(),
        "--api-key".into(),
        api_key.into(),
        "--cdn-base-url".into(),
        sim.cdn_base_url(),
        "--cdn-customer".into(),
        sim.cdn_customer().into(),
    ]
}

fn run_against(home: &Path, sim: &Sim, key: &str, args: &[&str], env: &[(&str, &str)]) -> Run {
    let mut all: Vec<String> = against(sim, key);
    all.extend(args.iter().map(|a| (*a).to_owned()));
    let all: Vec<&str> = all.iter().map(String::as_str).collect();
    run_in(home, &all, env)
}

#[test]
fn credentials_from_each_source_reach_the_service_and_wrong_ones_exit_3() {
    let live = LiveSim::start(SimConfig::default().with_seed(3));
    let sim = &live.sim;
    let home = TempDir::new("auth");
    let profile = format!(
        "[profiles.default]\nbase_url = \"{}\"\napi_key = \"{}\"\ncdn_base_url = \"{}\"\ncdn_secret = \"{}\"\ncdn_customer = \"{}\"\n",
        sim.base_url(),
        sim.api_key(),
        sim.cdn_base_url(),
        sim.cdn_secret(),
        sim.cdn_customer()
    );
    let file = config_file(home.path(), &profile);
    let file = file.to_str().unwrap();

    // All from the profile: all three interfaces answer.
    run_in(home.path(), &["--config", file, "vps", "list"], &[]).ok();
    run_in(home.path(), &["--config", file, "cloud", "list"], &[]).ok();
    run_in(
        home.path(),
        &["--config", file, "cdn", "origins", "list"],
        &[],
    )
    .ok();

    // A wrong key in the environment beats the profile's right one.
    let wrong = [("HOSTAPI_API_KEY", "not-the-key")];
    let run = run_in(home.path(), &["--config", file, "vps", "list"], &wrong).code(3);
    assert!(run.stderr.contains("403"), "{}", run.stderr);
    assert!(run.stderr.contains("check the API key"), "{}", run.stderr);
    assert!(
        !run.stderr.contains("not-the-key"),
        "the key leaked: {}",
        run.stderr
    );
    // And the right key as a flag beats the environment.
    let key = format!("--api-key={}", sim.api_key());
    run_in(
        home.path(),
        &["--config", file, &key, "vps", "list"],
        &wrong,
    )
    .ok();

    // A wrong CDN secret.
    let run = run_in(
        home.path(),
        &["--config", file, "cdn", "origins", "list"],
        &[("HOSTAPI_CDN_SECRET", "wrong-secret")],
    )
    .code(3);
    assert!(run.stderr.contains("403"), "{}", run.stderr);

    // No credentials anywhere.
    let empty = TempDir::new("no-credentials");
    let run = run_in(empty.path(), &["vps", "list"], &[]).code(3);
    assert!(run.stderr.contains("--sandbox"), "{}", run.stderr);
    // CDN settings missing while the API key is there.
    let run = run_against(
        empty.path(),
        sim,
        sim.api_key(),
        &["cdn", "acl", "get"],
        &[],
    )
    .code(3);
    assert!(run.stderr.contains("HOSTAPI_CDN_SECRET"), "{}", run.stderr);
}

#[test]
fn a_refused_confirmation_sends_nothing() {
    let live = LiveSim::start(SimConfig::default());
    let sim = &live.sim;
    let home = TempDir::new("refused");
    for args in [
        ["dns", "delete", "acme-1.com", "1000000"].as_slice(),
        &["networks", "delete", "501"],
        &["bare-metal", "leases", "delete-all", "20001"],
    ] {
        run_against(home.path(), sim, sim.api_key(), args, &[]).code(2);
    }
    assert_eq!(sim.stats().requests, 0, "{:?}", sim.stats());
    run_against(
        home.path(),
        sim,
        sim.api_key(),
        &["dns", "delete", "acme-1.com", "1000000", "--yes"],
        &[],
    )
    .ok();
    let writes = sim.write_log();
    assert_eq!(writes.len(), 1, "{writes:?}");
    assert!(writes[0].operation.starts_with("DELETE"), "{writes:?}");
}

#[test]
fn service_failures_exit_1_or_6_with_a_hint() {
    let failing = |weights: FaultWeights| {
        LiveSim::start(SimConfig::default().with_faults(FaultConfig {
            rate: 1.0,
            weights,
            ..FaultConfig::default()
        }))
    };
    let none = FaultWeights {
        too_many_requests: 0,
        internal_server_error: 0,
        bad_gateway: 0,
        service_unavailable: 0,
        drop_before: 0,
        drop_after: 0,
        truncate: 0,
        malformed: 0,
    };
    let home = TempDir::new("faults");

    let live = failing(FaultWeights {
        malformed: 1,
        ..none.clone()
    });
    let run = run_against(
        home.path(),
        &live.sim,
        live.sim.api_key(),
        &["vps", "get", "100001"],
        &[],
    )
    .code(1);
    assert!(
        run.stderr
            .contains("hint: the service answered something unexpected"),
        "{}",
        run.stderr
    );

    // A POST that may have reached the service is not retried: one attempt. Its answer
    // is a server error, so the network may have been created: exit 6, and a hint to
    // check (no read-back can tell a new network from the others).
    let live = failing(FaultWeights {
        internal_server_error: 1,
        ..none
    });
    let run = run_against(
        home.path(),
        &live.sim,
        live.sim.api_key(),
        &["networks", "create"],
        &[],
    )
    .code(6);
    assert_eq!(live.sim.stats().requests, 1, "{:?}", live.sim.stats());
    assert!(run.stderr.contains("500"), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("error: the change may have been applied"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("hint:"), "{}", run.stderr);
    assert!(run.stderr.contains("check"), "{}", run.stderr);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
}

/// How a write whose answer was lost ended, from its run.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Settled {
    /// The answer came: no read-back.
    Answered,
    /// Read back: applied (exit 0).
    Applied,
    /// Read back: not applied (exit 1).
    NotApplied,
    /// The read-back failed too (exit 6).
    Unknown,
}

fn settled(run: &Run) -> Settled {
    let lost = run.stderr.contains("the answer was lost");
    match run.code {
        0 if !lost => Settled::Answered,
        0 if run.stderr.contains("read back: applied") => Settled::Applied,
        1 if run.stderr.contains("read back: not applied") => Settled::NotApplied,
        6 if run.stderr.contains("reading it back failed too") => Settled::Unknown,
        _ => panic!(
            "unexpected end: exit {}\n--- stdout\n{}\n--- stderr\n{}",
            run.code, run.stdout, run.stderr
        ),
    }
}

/// Runs `args` against simulators failing half their requests (seeded, so each seed
/// always fails the same requests) with `weights`, until every end in `wanted` was
/// seen; answers each end seen with the run that ended so.
fn ends(
    weights: &FaultWeights,
    args: &[&str],
    wanted: &[Settled],
) -> std::collections::BTreeMap<Settled, Run> {
    let home = TempDir::new("lost");
    let mut seen = std::collections::BTreeMap::new();
    for seed in 1..=40 {
        let live = LiveSim::start(
            SimConfig::default()
                .with_seed(seed)
                .with_faults(FaultConfig {
                    rate: 0.5,
                    weights: weights.clone(),
                    ..FaultConfig::default()
                }),
        );
        let run = run_against(home.path(), &live.sim, live.sim.api_key(), args, &[]);
        seen.entry(settled(&run)).or_insert(run);
        if wanted.iter().all(|end| seen.contains_key(end)) {
            return seen;
        }
    }
    panic!("not every end of {wanted:?} was seen: {seen:#?}");
}

#[test]
fn a_write_whose_answer_was_lost_is_read_back_and_reported_truthfully() {
    // A garbled answer: the change was made. Read back, it is seen (exit 0, the domain
    // printed as on success), unless the read-back is garbled too (exit 6).
    let ends_seen = ends(
        &FaultWeights::only(FaultKind::Malformed),
        &["domains", "set-ttl", "acme-1.com", "3600", "-o", "json"],
        &[Settled::Applied, Settled::Unknown],
    );
    let applied = &ends_seen[&Settled::Applied];
    assert_eq!(applied.json()["ttl"], 3600, "{}", applied.stdout);
    let unknown = &ends_seen[&Settled::Unknown];
    assert!(unknown.stdout.is_empty(), "{}", unknown.stdout);
    assert!(unknown.stderr.contains("hint:"), "{}", unknown.stderr);

    // A server error before the service made the change: read back, it is not there
    // (exit 1, nothing printed).
    let ends_seen = ends(
        &FaultWeights::only(FaultKind::InternalServerError),
        &[
            "dns",
            "create",
            "acme-1.com",
            "--name",
            "lost.acme-1.com",
            "--type",
            "A",
            "--content",
            "192.0.2.99",
        ],
        &[Settled::NotApplied],
    );
    let not_applied = &ends_seen[&Settled::NotApplied];
    assert!(not_applied.stdout.is_empty(), "{}", not_applied.stdout);
    assert!(
        not_applied
            .stderr
            .contains("error: the change was not applied"),
        "{}",
        not_applied.stderr
    );
}

/// A server that answers every request with `body` (200, JSON), one connection at a
/// time, until the test ends; answers its base URL.
fn canned(body: &'static str) -> String {
    use std::io::{BufRead, BufReader, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}", listener.local_addr().expect("address"));
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { continue };
            let mut reader = BufReader::new(&stream);
            // The request's head, up to the blank line (GETs carry no body).
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|n| n > 0) && line != "\r\n" {
                line.clear();
            }
            let _ = write!(
                &stream,
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\
                 Connection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    url
}

#[test]
fn a_list_prints_its_readable_records_and_warns_of_the_others() {
    let url = canned(
        r#"{"virtualServers":[{"id":"100001","serverName":"one"},{"serverName":"no id"},{"id":"100003","serverName":"three"}]}"#,
    );
    let home = TempDir::new("unreadable");
    let run = run_in(
        home.path(),
        &[
            "--base-url",
            &url,
            "--api-key",
            "k",
            "vps",
            "list",
            "-o",
            "json",
        ],
        &[],
    )
    .ok();
    let listed = run.json();
    let ids: Vec<&str> = listed
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|server| server["id"].as_str())
        .collect();
    assert_eq!(ids, ["100001", "100003"], "{}", run.stdout);
    let warnings: Vec<&str> = run
        .stderr
        .lines()
        .filter(|line| line.starts_with("warning: record"))
        .collect();
    assert_eq!(warnings.len(), 1, "{}", run.stderr);
    assert!(
        warnings[0].starts_with("warning: record 1 "),
        "{}",
        run.stderr
    );
}
