//! The exit codes as documented: the README's table and `hostapi --help` say the same
//! thing, word for word, and for every code the table lists a command exits with it.
//! The table is read from the README itself, so the two cannot drift apart.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::{
    LiveSim, Run, TempDir, interrupt_a_wait, line_scaled, run_in, sandbox, sandbox_at, write_file,
};
use hostapi_sim::{FaultConfig, FaultKind, FaultRule, FaultWeights, Sim, SimConfig};

/// The rows of the README's exit-code table: code and meaning.
fn readme_table() -> BTreeMap<i32, String> {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md"))
            .expect("README.md");
    let start = readme
        .find("\nExit codes")
        .expect("the README has an exit-code section");
    let mut rows = BTreeMap::new();
    for line in readme[start..]
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
    {
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        if let [code, meaning] = cells[..]
            && let Ok(code) = code.parse::<i32>()
        {
            assert!(
                rows.insert(code, meaning.to_owned()).is_none(),
                "code {code} twice in the README"
            );
        }
    }
    assert!(rows.len() > 5, "the README's table was not found: {rows:?}");
    rows
}

/// The exit codes `hostapi --help` lists: code and meaning (continuation lines joined).
fn help_table() -> BTreeMap<i32, String> {
    let run = run_in(TempDir::new("help").path(), &["--help"], &[]).ok();
    let section = run
        .stdout
        .split_once("Exit codes:")
        .expect("--help lists the exit codes")
        .1;
    let mut rows: BTreeMap<i32, String> = BTreeMap::new();
    let mut last = None;
    for line in section.lines().filter(|l| !l.trim().is_empty()) {
        let text = line.trim();
        let (first, rest) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
        match first.parse::<i32>() {
            Ok(code) => {
                rows.insert(code, rest.trim().to_owned());
                last = Some(code);
            }
            Err(_) => {
                let code = last.expect("a continuation line follows a code");
                let meaning = rows.get_mut(&code).expect("the code's row");
                meaning.push(' ');
                meaning.push_str(text);
            }
        }
    }
    rows
}

#[test]
fn the_readme_and_the_help_give_the_same_table() {
    assert_eq!(readme_table(), help_table());
}

/// `hostapi <args>` against `sim` with its credentials (or `key` for the API key).
fn against(home: &Path, sim: &Sim, key: &str, args: &[&str]) -> Run {
    let base = sim.base_url();
    let mut all = vec!["--base-url", &base, "--api-key", key];
    all.extend_from_slice(args);
    run_in(home, &all, &[])
}

fn failing(kind: FaultKind) -> LiveSim {
    LiveSim::start(SimConfig::default().with_faults(FaultConfig {
        rate: 1.0,
        weights: FaultWeights::only(kind),
        ..FaultConfig::default()
    }))
}

/// 7: one of two creates refused by the service, the other applied.
fn partial_apply() -> Run {
    let live = LiveSim::start(SimConfig::default());
    live.sim
        .add_faults(vec![FaultRule {
            operation: "createDnsRecord".into(),
            fault: "status".into(),
            status: Some(400),
            times: Some(1),
            ..FaultRule::default()
        }])
        .expect("fault rule");
    let home = TempDir::new("partial");
    let file = write_file(
        home.path(),
        "two.yaml",
        "records:\n- name: one\n  type: A\n  value: 192.0.2.1\n\
         - name: two\n  type: A\n  value: 192.0.2.2\n",
    );
    let key = live.sim.api_key().to_owned();
    let run = against(
        home.path(),
        &live.sim,
        &key,
        &[
            "--yes",
            "dns",
            "apply",
            "acme-1.com",
            &file,
            "--concurrency",
            "1",
        ],
    );
    assert!(
        run.stderr.contains("1 change(s) applied, 1 not applied"),
        "{}",
        run.stderr
    );
    // The hint promises no retry that the service would refuse again.
    assert!(!run.stderr.contains("retry the rest"), "{}", run.stderr);
    assert!(
        run.stderr.contains("`plan` shows what is left"),
        "{}",
        run.stderr
    );
    run
}

/// 8 on drift, 0 without: `dns plan --expect-no-changes`.
fn drift() -> Run {
    let home = TempDir::new("drift");
    let exported = sandbox_at(home.path(), &["dns", "export", "acme-1.com"]).ok();
    let file = write_file(home.path(), "acme.zone", &exported.stdout);
    let plan = ["dns", "plan", "acme-1.com", &file, "--expect-no-changes"];
    sandbox_at(home.path(), &plan).ok();
    write_file(
        home.path(),
        "acme.zone",
        &format!("{}extra.acme-1.com. 300 IN A 192.0.2.9\n", exported.stdout),
    );
    let run = sandbox_at(
        home.path(),
        &["-o", "table"].into_iter().chain(plan).collect::<Vec<_>>(),
    );
    assert!(run.stdout.contains("+ extra A 192.0.2.9"), "{}", run.stdout);
    run
}

/// 9: a prune of most of a zone, refused before any write; `--force` applies it.
fn refused_prune() -> Run {
    let home = TempDir::new("prune");
    let file = write_file(
        home.path(),
        "www.yaml",
        "records:\n- name: www\n  type: CNAME\n  value: acme-1.com\n",
    );
    let count = |home: &Path| {
        sandbox_at(home, &["-o", "json", "dns", "list", "acme-1.com"])
            .ok()
            .json()
            .as_array()
            .map(Vec::len)
            .expect("a list")
    };
    let before = count(home.path());
    // The sandbox's acme-1.com holds fewer than octoDNS's 10 records: a lower minimum.
    let apply = [
        "--yes",
        "dns",
        "apply",
        "acme-1.com",
        &file,
        "--prune",
        "--min-existing",
        "3",
    ];
    let run = sandbox_at(home.path(), &apply);
    assert!(
        run.stderr.contains("refused: the plan would delete"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("--force"), "{}", run.stderr);
    assert_eq!(count(home.path()), before, "nothing was deleted");
    let forced = [&apply[..], &["--force"]].concat();
    let forced = sandbox_at(home.path(), &forced).ok();
    assert_eq!(count(home.path()), 1, "only www is left: {}", forced.stderr);
    run
}

#[test]
fn every_code_in_the_table_is_what_a_command_exits_with() {
    let table = readme_table();
    let home = TempDir::new("codes");
    let mut produced: BTreeMap<i32, &str> = BTreeMap::new();
    let mut check = |expected: i32, what: &'static str, code: i32, run: Option<&Run>| {
        assert_eq!(code, expected, "{what}: {run:?}");
        produced.insert(code, what);
    };

    let run = sandbox(&["vps", "list"]);
    check(0, "a list", run.code, Some(&run));

    let live = failing(FaultKind::Malformed);
    let key = live.sim.api_key().to_owned();
    let run = against(home.path(), &live.sim, &key, &["vps", "get", "100001"]);
    check(1, "a garbled answer", run.code, Some(&run));

    let run = sandbox(&["vps", "list", "--no-such-flag"]);
    check(2, "an unknown flag", run.code, Some(&run));

    let live = LiveSim::start(SimConfig::default());
    let run = against(home.path(), &live.sim, "not-the-key", &["vps", "list"]);
    check(3, "a refused API key", run.code, Some(&run));

    let run = sandbox(&["vps", "get", "999999"]);
    check(4, "an id that does not exist", run.code, Some(&run));

    let run = line_scaled(
        home.path(),
        "1",
        "--sandbox bare-metal install 20001 --os 9 --yes --wait \
         --wait-timeout 300ms --wait-interval 100ms",
    );
    check(5, "a wait out of time", run.code, Some(&run));

    let live = failing(FaultKind::InternalServerError);
    let key = live.sim.api_key().to_owned();
    let run = against(home.path(), &live.sim, &key, &["networks", "create"]);
    check(6, "a create answered 500", run.code, Some(&run));

    let run = partial_apply();
    check(7, "a partial apply", run.code, Some(&run));

    let run = drift();
    check(8, "plan --expect-no-changes on drift", run.code, Some(&run));

    let run = refused_prune();
    check(9, "a prune over the threshold", run.code, Some(&run));

    check(130, "Ctrl-C", interrupt_a_wait(home.path()).0, None);

    let documented: Vec<i32> = table.keys().copied().collect();
    let seen: Vec<i32> = produced.keys().copied().collect();
    assert_eq!(
        documented, seen,
        "every documented code is produced, and no other: {produced:?}"
    );
}
