//! Onboarding through the built binary: `config init` (flags and the environment off a
//! terminal) writes a profile readable by its owner only, `config set`, `config
//! profiles` and `config use` change and list it, a config file holding secrets that
//! others can read draws a warning, and `whoami` makes one call per interface against
//! a simulator started by the test. Secrets are never printed.

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use common::{LiveSim, Run, TempDir, finish, run_in, shell};
use hostapi_sim::SimConfig;

const KEY: &str = "key-that-must-not-be-printed";
const SECRET: &str = "secret-that-must-not-be-printed";

fn config_path(home: &Path) -> std::path::PathBuf {
    home.join(".config/hostapi/config.toml")
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

fn no_secrets(run: &Run) {
    for secret in [KEY, SECRET] {
        assert!(
            !run.stdout.contains(secret) && !run.stderr.contains(secret),
            "a secret was printed: {run:?}"
        );
    }
}

#[test]
fn config_init_writes_a_profile_for_the_owner_only() {
    let home = TempDir::new("init");
    let path = config_path(home.path());

    // Off a terminal, with nothing given, nothing is written.
    let refused = run_in(home.path(), &["config", "init"], &[]).code(2);
    assert!(refused.stderr.contains("nothing to write"), "{refused:?}");
    assert!(!path.exists());
    // A base URL the client would refuse is refused before writing.
    let refused = run_in(
        home.path(),
        &["config", "init", "--base-url", "http://api.example.com"],
        &[("HOSTAPI_API_KEY", KEY)],
    )
    .code(2);
    no_secrets(&refused);
    assert!(!path.exists());

    // Flags and the environment (the key, kept out of the shell's history).
    let run = run_in(
        home.path(),
        &[
            "config",
            "init",
            "--base-url",
            "https://api.example.com",
            "-o",
            "json",
        ],
        &[("HOSTAPI_API_KEY", KEY)],
    )
    .ok();
    no_secrets(&run);
    let profile = run.json();
    assert_eq!(profile["name"], "default");
    assert_eq!(profile["default"], true);
    assert_eq!(profile["api_key_set"], true);
    assert_eq!(profile["cdn_secret_set"], false);
    assert_eq!(profile["base_url"], "https://api.example.com");
    assert_eq!(mode(&path), 0o600);
    assert_eq!(mode(path.parent().unwrap()), 0o700);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.contains("[profiles.default]") && text.contains(KEY),
        "{text}"
    );

    // A second profile keeps the first and the default.
    run_in(
        home.path(),
        &[
            "config",
            "init",
            "--profile",
            "staging",
            "--base-url",
            "https://api.staging.example.com",
            "--cdn-secret",
            SECRET,
            "--cdn-customer",
            "C42",
        ],
        &[],
    )
    .ok();
    assert_eq!(mode(&path), 0o600);
    let shown = run_in(home.path(), &["config", "show", "-o", "json"], &[])
        .ok()
        .json();
    assert_eq!(shown["profile"], "default");
    assert_eq!(
        shown["settings"]["api_key"]["value"],
        hostapi::types::REDACTED
    );
}

#[test]
fn config_set_profiles_and_use() {
    let home = TempDir::new("set");
    let path = config_path(home.path());
    let set = |args: &[&str]| {
        let mut all = vec!["config", "set"];
        all.extend(args);
        all.extend(["-o", "json"]);
        run_in(home.path(), &all, &[])
    };
    let profile = set(&["base-url", "https://api.example.com"]).ok().json();
    assert_eq!(profile["name"], "default");
    assert_eq!(mode(&path), 0o600);
    // A secret from stdin, never on the command line.
    let run = finish(shell(
        home.path(),
        &format!(
            "printf %s '{KEY}' | '{}' config set api_key - -o json",
            common::BIN
        ),
    ))
    .ok();
    no_secrets(&run);
    assert_eq!(run.json()["api_key_set"], true);
    assert!(std::fs::read_to_string(&path).unwrap().contains(KEY));
    set(&["cdn_customer", "C7", "--profile", "other"]).ok();
    // Unknown settings and bad values are usage errors; nothing changes.
    set(&["api_kye", "x"]).code(2);
    set(&["base_url", "ftp://api.example.com"]).code(2);

    let profiles = run_in(home.path(), &["config", "profiles", "-o", "json"], &[])
        .ok()
        .json();
    let names: Vec<(&str, bool)> = profiles
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["name"].as_str().unwrap(), p["default"].as_bool().unwrap()))
        .collect();
    assert_eq!(names, [("default", true), ("other", false)]);
    assert_eq!(profiles[0]["base_url"], "https://api.example.com");
    assert_eq!(profiles[0]["api_key_set"], true);
    let table = run_in(home.path(), &["config", "profiles", "-o", "table"], &[]).ok();
    no_secrets(&table);
    assert!(table.stdout.trim_start().starts_with("NAME"), "{table:?}");

    run_in(home.path(), &["config", "use", "other"], &[]).ok();
    let shown = run_in(home.path(), &["config", "show", "-o", "json"], &[])
        .ok()
        .json();
    assert_eq!(shown["profile"], "other");
    assert_eq!(shown["settings"]["cdn_customer"]["value"], "C7");
    let refused = run_in(home.path(), &["config", "use", "nope"], &[]).code(2);
    assert!(
        refused.stderr.contains("known profiles: default, other"),
        "{refused:?}"
    );
}

#[test]
fn a_config_file_with_secrets_readable_by_others_draws_a_warning() {
    let home = TempDir::new("readable");
    let path = config_path(home.path());
    run_in(
        home.path(),
        &["config", "init", "--base-url", "https://api.example.com"],
        &[("HOSTAPI_API_KEY", KEY)],
    )
    .ok();
    let show = || run_in(home.path(), &["config", "show", "-o", "json"], &[]).ok();
    let quiet = show();
    assert!(!quiet.stderr.contains("warning"), "{quiet:?}");
    assert_eq!(quiet.json()["config_file_readable_by_others"], false);

    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    let warned = show();
    assert!(
        warned
            .stderr
            .contains("holds secrets and others can read it")
            && warned.stderr.contains("chmod 600"),
        "{warned:?}"
    );
    assert_eq!(warned.json()["config_file_readable_by_others"], true);
    no_secrets(&warned);
    // Any command reading the file warns, not only `config show`.
    let any = run_in(home.path(), &["domains", "list"], &[]);
    assert!(any.stderr.contains("others can read it"), "{any:?}");

    // Without secrets, a readable file is fine.
    std::fs::write(
        &path,
        "[profiles.default]\nbase_url = \"https://a.example.com\"\n",
    )
    .unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    let fine = show();
    assert!(!fine.stderr.contains("warning"), "{fine:?}");
}

/// Checks, by interface, from `whoami -o json`.
fn checks(run: &Run) -> Vec<(String, bool)> {
    run.json()
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            assert!(c["detail"].as_str().is_some_and(|d| !d.is_empty()), "{c}");
            (
                c["interface"].as_str().unwrap().to_owned(),
                c["ok"].as_bool().unwrap(),
            )
        })
        .collect()
}

#[test]
fn whoami_makes_one_call_per_interface_and_says_what_works() {
    let live = LiveSim::start(SimConfig::default());
    let sim = &live.sim;
    let home = TempDir::new("whoami");
    let base_url = sim.base_url();
    let cdn_base_url = sim.cdn_base_url();
    let everything: [(&'static str, &str); 5] = [
        ("HOSTAPI_BASE_URL", &base_url),
        ("HOSTAPI_API_KEY", sim.api_key()),
        ("HOSTAPI_CDN_BASE_URL", &cdn_base_url),
        ("HOSTAPI_CDN_SECRET", sim.cdn_secret()),
        ("HOSTAPI_CDN_CUSTOMER", sim.cdn_customer()),
    ];
    let env = |pairs: &[(&'static str, &str)]| -> Vec<(&'static str, String)> {
        pairs.iter().map(|(k, v)| (*k, (*v).to_owned())).collect()
    };
    let whoami = |pairs: Vec<(&str, String)>| {
        let pairs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (*k, v.as_str())).collect();
        run_in(home.path(), &["whoami", "-o", "json"], &pairs)
    };
    let before = sim.stats().requests;
    let all = whoami(env(&everything)).ok();
    assert_eq!(
        checks(&all),
        [
            ("v1".into(), true),
            ("cloud".into(), true),
            ("cdn".into(), true)
        ]
    );
    assert!(sim.stats().requests - before >= 3);

    // A wrong API key: v1 and cloud refused (exit 3), the CDN still works.
    let mut wrong = env(&everything);
    wrong[1].1 = "wrong-key".into();
    let refused = whoami(wrong).code(3);
    assert_eq!(
        checks(&refused),
        [
            ("v1".into(), false),
            ("cloud".into(), false),
            ("cdn".into(), true)
        ]
    );
    assert!(!refused.stdout.contains("wrong-key") && !refused.stderr.contains("wrong-key"));

    // Only the CDN configured: the others are reported as such; the run succeeds.
    let cdn_only = whoami(env(&everything[2..])).ok();
    assert_eq!(
        checks(&cdn_only),
        [
            ("v1".into(), false),
            ("cloud".into(), false),
            ("cdn".into(), true)
        ]
    );
    assert!(cdn_only.stdout.contains("not configured"), "{cdn_only:?}");

    // For people: a table.
    let people = run_in(home.path(), &["whoami", "-o", "table"], &everything).ok();
    assert!(
        people.stdout.trim_start().starts_with("INTERFACE"),
        "{people:?}"
    );
    assert_eq!(people.stdout.matches("works").count(), 3, "{people:?}");
}
