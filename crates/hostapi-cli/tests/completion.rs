//! Dynamic completion, as a shell asks for it on Tab (`COMPLETE=fish hostapi -- <line>`,
//! fish's protocol: one candidate a line, a tab before its description): ids from the
//! configured account, profile names from the config file, values of open sets, and no
//! hidden flag.

mod common;

use common::{LiveSim, Run, TempDir, command, finish};
use hostapi_sim::SimConfig;

/// The candidates for the last word of `line`, with `env` set.
fn complete(home: &std::path::Path, line: &[&str], env: &[(&str, &str)]) -> Vec<String> {
    let mut run = command(home);
    run.env("COMPLETE", "fish")
        .arg("--")
        .arg("hostapi")
        .args(line);
    for (key, value) in env {
        run.env(key, value);
    }
    let Run {
        code,
        stdout,
        stderr,
    } = finish(run);
    assert_eq!(code, 0, "{stderr}");
    stdout
        .lines()
        .map(|line| line.split('\t').next().unwrap_or_default().to_owned())
        .collect()
}

#[test]
fn ids_come_from_the_configured_account() {
    let home = TempDir::new("complete-ids");
    let live = LiveSim::start(SimConfig::default().with_seed(4));
    let env = [
        ("HOSTAPI_BASE_URL", live.sim.base_url()),
        ("HOSTAPI_API_KEY", live.sim.api_key().to_owned()),
    ];
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();

    let bare_metals = complete(home.path(), &["bare-metal", "get", ""], &env);
    assert!(bare_metals.contains(&"20001".to_owned()), "{bare_metals:?}");
    let vps = complete(home.path(), &["vps", "get", ""], &env);
    assert!(vps.contains(&"100001".to_owned()), "{vps:?}");
    let domains = complete(home.path(), &["dns", "list", ""], &env);
    assert!(domains.contains(&"acme-1.com".to_owned()), "{domains:?}");
    let cloud = complete(home.path(), &["cloud", "get", ""], &env);
    assert!(!cloud.is_empty(), "cloud server ids");

    // Without an account there are no ids to offer (the shell is offered the flags),
    // and nothing fails.
    let offline = complete(home.path(), &["bare-metal", "get", ""], &[]);
    assert!(offline.iter().all(|c| c.starts_with('-')), "{offline:?}");
}

/// Every id the CLI takes completes: DNS record ids of the domain named on the line,
/// CDN origins, private networks, racks, clouds, operating systems, rescue images.
#[test]
fn every_id_type_completes() {
    let home = TempDir::new("complete-every-id");
    let live = LiveSim::start(SimConfig::default().with_seed(4));
    let env = [
        ("HOSTAPI_BASE_URL", live.sim.base_url()),
        ("HOSTAPI_API_KEY", live.sim.api_key().to_owned()),
        ("HOSTAPI_CDN_BASE_URL", live.sim.cdn_base_url()),
        ("HOSTAPI_CDN_SECRET", live.sim.cdn_secret().to_owned()),
        ("HOSTAPI_CDN_CUSTOMER", live.sim.cdn_customer().to_owned()),
    ];
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let ids = |line: &[&str]| {
        complete(home.path(), line, &env)
            .into_iter()
            .filter(|c| !c.starts_with('-'))
            .collect::<Vec<_>>()
    };

    let records = ids(&["dns", "get", "acme-1.com", ""]);
    assert!(records.contains(&"1000003".to_owned()), "{records:?}");
    let records = ids(&["dns", "delete", "--yes", "acme-1.com", ""]);
    assert!(records.contains(&"1000003".to_owned()), "{records:?}");
    // Another domain's records are its own.
    let other = ids(&["dns", "get", "bluebird-2.net", ""]);
    assert!(
        !other.is_empty() && !other.contains(&"1000003".to_owned()),
        "{other:?}"
    );
    for line in [
        &["cdn", "origins", "get", ""][..],
        &["networks", "get", ""],
        &["racks", "get", ""],
        &["cloud", "private-clouds", "get", ""],
        &["catalog", "operating-systems", "get", ""],
        &["bare-metal", "install", "20001", "--os", ""],
        &["bare-metal", "rescue", "20001", "--image", ""],
    ] {
        let found = ids(line);
        assert!(!found.is_empty(), "{line:?}: no ids");
        assert!(
            found
                .iter()
                .all(|id| id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')),
            "{line:?}: {found:?}"
        );
    }
}

#[test]
fn profiles_and_record_types_complete() {
    let home = TempDir::new("complete-profiles");
    let file = home.path().join("config.toml");
    std::fs::write(
        &file,
        "[profiles.work]\napi_key = \"k1\"\n\n[profiles.staging]\napi_key = \"k2\"\n",
    )
    .expect("config written");
    let config = file.to_string_lossy().into_owned();
    let env = [("HOSTAPI_CONFIG", config.as_str())];
    let mut profiles = complete(home.path(), &["--profile", ""], &env);
    profiles.sort();
    assert_eq!(profiles, ["staging", "work"]);
    let used = complete(home.path(), &["config", "use", ""], &env);
    assert!(used.contains(&"work".to_owned()), "{used:?}");

    let types = complete(
        home.path(),
        &["dns", "create", "acme-1.com", "--type", ""],
        &[],
    );
    for wanted in ["A", "AAAA", "MX", "SRV", "TXT"] {
        assert!(types.contains(&wanted.to_owned()), "{wanted} in {types:?}");
    }
}

#[test]
fn flags_complete_without_hidden_ones() {
    let home = TempDir::new("complete-flags");
    let flags = complete(home.path(), &["--"], &[]);
    assert!(flags.contains(&"--sandbox".to_owned()), "{flags:?}");
    assert!(flags.iter().all(|f| !f.contains("time-scale")), "{flags:?}");
}
