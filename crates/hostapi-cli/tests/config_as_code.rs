//! `dns export|plan|apply` and `cdn export|plan|apply` through the built binary: in
//! the sandbox, and against a simulator at several seeds that keeps its state between
//! runs (export → unchanged plan is empty → edit → plan shows the edit → apply → the
//! second plan is empty).

mod common;

use std::path::Path;

use common::{LiveSim, Run, TempDir, run_in, sandbox};
use hostapi_sim::{Sim, SimConfig};

/// `hostapi <args>` against `sim`, answering yes.
fn against(home: &Path, sim: &Sim, args: &[&str]) -> Run {
    let mut all = vec![
        "--base-url",
        &sim.base_url(),
        "--api-key",
        sim.api_key(),
        "--cdn-base-url",
        &sim.cdn_base_url(),
        "--cdn-secret",
        sim.cdn_secret(),
        "--cdn-customer",
        sim.cdn_customer(),
        "--yes",
    ]
    .into_iter()
    .map(str::to_owned)
    .collect::<Vec<_>>();
    all.extend(args.iter().map(|a| (*a).to_owned()));
    let all: Vec<&str> = all.iter().map(String::as_str).collect();
    run_in(home, &all, &[])
}

fn write(home: &Path, name: &str, text: &str) -> String {
    let path = home.join(name);
    std::fs::write(&path, text).expect("write");
    path.display().to_string()
}

fn plan_json(run: Run) -> (usize, usize, usize) {
    let json = run.ok().json();
    let len = |key: &str| json[key].as_array().map_or(usize::MAX, Vec::len);
    (len("create"), len("update"), len("delete"))
}

#[test]
fn sandbox_export_then_plan_is_in_sync_and_an_edit_is_planned_exactly() {
    let home = TempDir::new("cac");
    for format in ["bind", "yaml"] {
        let exported = sandbox(&["dns", "export", "acme-1.com", "--format", format]).ok();
        let file = write(
            home.path(),
            &format!("acme.{}", if format == "bind" { "zone" } else { "yaml" }),
            &exported.stdout,
        );
        let run = sandbox(&["-o", "json", "dns", "plan", "acme-1.com", &file]);
        assert_eq!(
            run.stdout.trim(),
            r#"{"create":[],"delete":[],"update":[]}"#
        );
        assert!(run.stderr.contains("in sync"), "{}", run.stderr);
        // An edit: one new record.
        let edited = if format == "bind" {
            format!("{}api IN A 192.0.2.20\n", exported.stdout)
        } else {
            format!(
                "{}- name: api\n  type: A\n  values: [192.0.2.20]\n",
                exported.stdout
            )
        };
        let file = write(
            home.path(),
            &format!("edited.{}", if format == "bind" { "zone" } else { "yml" }),
            &edited,
        );
        let run = sandbox(&["-o", "table", "dns", "plan", "acme-1.com", &file]).ok();
        assert_eq!(run.stdout, "+ api A 192.0.2.20\n");
        // Apply in the sandbox: applied and verified within the run.
        let run = sandbox(&["--yes", "-o", "table", "dns", "apply", "acme-1.com", &file]).ok();
        assert!(
            run.stderr.contains("verified: acme-1.com now matches"),
            "{}",
            run.stderr
        );
    }
    let cdn = sandbox(&["cdn", "export"]).ok();
    let file = write(home.path(), "cdn.yaml", &cdn.stdout);
    assert_eq!(
        plan_json(sandbox(&["-o", "json", "cdn", "plan", &file])),
        (0, 0, 0)
    );
}

#[test]
fn the_round_trip_holds_against_the_simulator_at_several_seeds() {
    for seed in [1, 7, 42] {
        let home = TempDir::new("cac-live");
        let live = LiveSim::start(SimConfig::default().with_seed(seed));
        let sim = &live.sim;
        let exported = against(home.path(), sim, &["dns", "export", "acme-1.com"]).ok();
        let file = write(home.path(), "acme.zone", &exported.stdout);
        let before = sim.write_log().len();
        let run = against(home.path(), sim, &["dns", "apply", "acme-1.com", &file]).ok();
        assert!(run.stderr.contains("in sync"), "{}", run.stderr);
        assert_eq!(
            sim.write_log().len(),
            before,
            "an unchanged file writes nothing"
        );

        // Edit: change the apex address, add a second MX.
        let edited = exported
            .stdout
            .lines()
            .map(|l| {
                if l.starts_with("acme-1.com. ") && l.contains(" IN A ") {
                    l.rsplit_once(' ')
                        .map(|(head, _)| format!("{head} 192.0.2.99"))
                        .unwrap()
                } else {
                    l.to_owned()
                }
            })
            .collect::<Vec<_>>()
            .join("\n")
            + "\n@ IN MX 20 backup-mx.example.net.\n";
        let file = write(home.path(), "edited.zone", &edited);
        assert_eq!(
            plan_json(against(
                home.path(),
                sim,
                &["-o", "json", "dns", "plan", "acme-1.com", &file]
            )),
            (1, 1, 0)
        );
        let before = sim.write_log().len();
        let run = against(
            home.path(),
            sim,
            &["-o", "table", "dns", "apply", "acme-1.com", &file],
        )
        .ok();
        assert!(
            run.stderr.contains("[2/2]"),
            "progress is reported: {}",
            run.stderr
        );
        assert!(run.stderr.contains("verified"), "{}", run.stderr);
        assert_eq!(sim.write_log().len() - before, 2);
        assert_eq!(
            plan_json(against(
                home.path(),
                sim,
                &["-o", "json", "dns", "plan", "acme-1.com", &file]
            )),
            (0, 0, 0)
        );

        // The CDN: export, edit one origin, apply, plan again.
        let cdn = against(home.path(), sim, &["cdn", "export", "--format", "toml"]).ok();
        let file = write(home.path(), "cdn.toml", &cdn.stdout);
        assert_eq!(
            plan_json(against(
                home.path(),
                sim,
                &["-o", "json", "cdn", "plan", &file]
            )),
            (0, 0, 0)
        );
        let edited =
            cdn.stdout
                .replacen("refresh_every_seconds = ", "refresh_every_seconds = 1", 1);
        let file = write(home.path(), "cdn-edited.toml", &edited);
        assert_eq!(
            plan_json(against(
                home.path(),
                sim,
                &["-o", "json", "cdn", "plan", &file]
            )),
            (0, 1, 0)
        );
        against(home.path(), sim, &["cdn", "apply", &file]).ok();
        assert_eq!(
            plan_json(against(
                home.path(),
                sim,
                &["-o", "json", "cdn", "plan", &file]
            )),
            (0, 0, 0)
        );
    }
}

#[test]
fn prune_deletes_what_the_file_does_not_name_and_dry_run_sends_nothing() {
    let home = TempDir::new("cac-prune");
    let live = LiveSim::start(SimConfig::default().with_seed(3));
    let sim = &live.sim;
    let file = write(
        home.path(),
        "only.yaml",
        "records:\n  - name: www\n    type: A\n    value: 192.0.2.1\n",
    );
    // Without --prune the other records are kept.
    let (create, update, delete) = plan_json(against(
        home.path(),
        sim,
        &["-o", "json", "dns", "plan", "acme-1.com", &file],
    ));
    assert_eq!((create, update, delete), (1, 0, 0));
    let (_, _, delete) = plan_json(against(
        home.path(),
        sim,
        &["-o", "json", "dns", "plan", "acme-1.com", &file, "--prune"],
    ));
    assert_eq!(delete, 5, "every record of acme-1.com but www");
    // --dry-run: no write at all.
    let before = sim.write_log().len();
    let run = against(
        home.path(),
        sim,
        &["dns", "apply", "acme-1.com", &file, "--prune", "--dry-run"],
    )
    .ok();
    assert!(run.stderr.contains("none sent"), "{}", run.stderr);
    assert_eq!(sim.write_log().len(), before);
    // The real apply, then nothing left to do.
    against(
        home.path(),
        sim,
        &["dns", "apply", "acme-1.com", &file, "--prune"],
    )
    .ok();
    assert_eq!(sim.write_log().len() - before, 6);
    let listed = against(
        home.path(),
        sim,
        &["-o", "json", "dns", "list", "acme-1.com"],
    )
    .ok();
    assert_eq!(listed.json().as_array().map(Vec::len), Some(1));
}

#[test]
fn a_bad_file_is_a_usage_error_naming_file_line_and_field() {
    let home = TempDir::new("cac-bad");
    let file = write(
        home.path(),
        "bad.toml",
        "[[records]]\nname = \"www\"\ntype = \"A\"\nvalue = \"192.0.2.1\"\n\n[[records]]\nname = \"mail\"\ntype = \"MX\"\nvalue = \"mail.acme-1.com\"\n",
    );
    let run = sandbox(&["dns", "plan", "acme-1.com", &file]).code(2);
    assert!(
        run.stderr
            .contains("bad.toml:6: records[1].value.priority: is required for MX records"),
        "{}",
        run.stderr
    );
    let file = write(home.path(), "records.txt", "");
    let run = sandbox(&["dns", "plan", "acme-1.com", &file]).code(2);
    assert!(
        run.stderr.contains("cannot tell the format"),
        "{}",
        run.stderr
    );
    let run = sandbox(&[
        "dns",
        "plan",
        "acme-1.com",
        &file,
        "--format",
        "yaml",
        "-o",
        "json",
    ])
    .ok();
    assert_eq!(run.json()["create"].as_array().map(Vec::len), Some(0));
}

#[test]
fn records_the_service_cannot_hold_are_refused_or_skipped_and_listed() {
    let home = TempDir::new("cac-unsupported");
    let file = write(
        home.path(),
        "legacy.zone",
        "$TTL 300\n@ SOA ns hostmaster ( 1 8H 30M 1W 1D )\nwww A 192.0.2.10\n\
         server1 RP admin.example.net. counter\nenum NAPTR 100 50 \"u\" \"e2u+sip\" \"\" x.\n",
    );
    let run = sandbox(&["dns", "plan", "acme-1.com", &file]).code(2);
    assert!(
        run.stderr
            .contains("line 4: server1 RP: the service does not hold RP records"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("line 5: enum NAPTR"), "{}", run.stderr);
    assert!(
        run.stderr.contains("2 record(s) the service cannot hold"),
        "{}",
        run.stderr
    );
    let run = sandbox(&[
        "-o",
        "json",
        "dns",
        "plan",
        "acme-1.com",
        &file,
        "--skip-unsupported",
    ])
    .ok();
    assert!(run.stderr.contains("skipped: "), "{}", run.stderr);
    let json = run.json();
    assert_eq!(json["create"].as_array().map(Vec::len), Some(1), "{json}");
    assert_eq!(
        json["unsupported"].as_array().map(Vec::len),
        Some(2),
        "{json}"
    );
    // The same for apply: nothing is sent without the flag.
    sandbox(&["--yes", "dns", "apply", "acme-1.com", &file]).code(2);
}

#[test]
fn octodns_files_plan_and_export() {
    let home = TempDir::new("cac-octodns");
    let exported = sandbox(&["dns", "export", "acme-1.com", "--format", "octodns"]).ok();
    assert!(exported.stdout.contains("'':"), "{}", exported.stdout);
    let file = write(home.path(), "acme-1.com.yaml", &exported.stdout);
    let run = sandbox(&["-o", "json", "dns", "plan", "acme-1.com", &file]).ok();
    assert_eq!(plan_json(run), (0, 0, 0));
    let edited = write(
        home.path(),
        "edited.yaml",
        &format!("{}api:\n  type: A\n  value: 192.0.2.20\n", exported.stdout),
    );
    let run = sandbox(&[
        "-o",
        "json",
        "dns",
        "plan",
        "acme-1.com",
        &edited,
        "--format",
        "octodns",
    ]);
    assert_eq!(plan_json(run), (1, 0, 0));
    let cname = write(
        home.path(),
        "cname.yaml",
        "www:\n  - type: CNAME\n    value: acme-1.com.\n  - type: A\n    value: 192.0.2.1\n",
    );
    let run = sandbox(&["dns", "plan", "acme-1.com", &cname]).code(2);
    assert!(
        run.stderr.contains("CNAME must be the only record"),
        "{}",
        run.stderr
    );
}
