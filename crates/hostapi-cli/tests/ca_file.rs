//! `--ca-file` / `HOSTAPI_CA_FILE`: the CLI (through the SDK's
//! `ClientBuilder::ca_file`) trusts the certificate authority of a
//! simulator serving https, as in docker-compose with `hostapi-sim --tls`.

mod common;

use common::*;
use hostapi_sim::{Sim, SimConfig, TlsConfig};

fn https_sim(dir: &TempDir) -> Sim {
    Sim::start_blocking(SimConfig {
        tls: Some(TlsConfig {
            names: Vec::new(),
            dir: Some(dir.path().join("tls")),
        }),
        ..Default::default()
    })
    .expect("simulator")
}

fn domains(home: &TempDir, sim: &Sim, extra: &[&str]) -> std::process::Command {
    let mut c = command(home.path());
    c.args(["--base-url", &sim.base_url(), "--api-key", sim.api_key()])
        .args(extra)
        .args(["domains", "list", "-o", "json"]);
    c
}

#[test]
fn the_cli_trusts_the_simulators_authority_with_the_ca_option() {
    let home = TempDir::new("ca-file");
    let sim = https_sim(&home);
    assert!(sim.base_url().starts_with("https://"));
    let ca = sim.ca_file().unwrap().display().to_string();

    let run = finish(domains(&home, &sim, &["--ca-file", &ca])).ok();
    let list = run.json();
    assert!(list.as_array().is_some_and(|l| !l.is_empty()), "{list}");

    let mut by_env = domains(&home, &sim, &[]);
    by_env.env("HOSTAPI_CA_FILE", &ca);
    finish(by_env).ok();

    // Without it, the certificate is not trusted.
    let run = finish(domains(&home, &sim, &[]));
    assert_ne!(run.code, 0, "{}", run.stdout);
}

#[test]
fn an_unreadable_or_empty_ca_file_is_named() {
    let home = TempDir::new("ca-file-bad");
    let sim = https_sim(&home);
    let missing = home.path().join("missing.pem").display().to_string();
    let run = finish(domains(&home, &sim, &["--ca-file", &missing]));
    assert_ne!(run.code, 0);
    assert!(run.stderr.contains("invalid ca file"), "{}", run.stderr);
    assert!(run.stderr.contains("missing.pem"), "{}", run.stderr);
    let empty = home.path().join("empty.pem");
    std::fs::write(&empty, "not a certificate\n").unwrap();
    let run = finish(domains(
        &home,
        &sim,
        &["--ca-file", &empty.display().to_string()],
    ));
    assert_ne!(run.code, 0);
    assert!(run.stderr.contains("no certificate"), "{}", run.stderr);
}
