//! `dns apply`'s safety thresholds with their defaults (octoDNS's: more than 30 % of a
//! zone of at least 10 records): a prune of most of a zone is refused before any
//! write, a dry run too, a change within the share goes through, and `--force` lets
//! the refused one through.

mod common;

use std::path::Path;

use common::{Run, TempDir, sandbox_at, write_file};

/// `hostapi --sandbox --yes -o table <args>` in `home`, whose sandbox remembers.
fn sandbox_in(home: &Path, args: &[&str]) -> Run {
    sandbox_at(home, &[&["--yes", "-o", "table"][..], args].concat())
}

fn records(home: &Path) -> usize {
    sandbox_at(home, &["-o", "json", "dns", "list", "acme-1.com"])
        .ok()
        .json()
        .as_array()
        .map(Vec::len)
        .expect("a list")
}

/// A record file of `www` and hosts `h0`…`h{count-1}`.
fn hosts(home: &Path, count: usize) -> String {
    let mut text = String::from("records:\n- name: www\n  type: CNAME\n  value: acme-1.com\n");
    for i in 0..count {
        text.push_str(&format!("- name: h{i}\n  type: A\n  value: 192.0.2.{i}\n"));
    }
    write_file(home, &format!("hosts-{count}.yaml"), &text)
}

#[test]
fn a_prune_of_most_of_a_zone_is_refused_unless_forced() {
    let home = TempDir::new("dns-safety");
    let home = home.path();
    // Creates never count: 10 new records on a zone of 5.
    let ten = hosts(home, 10);
    sandbox_in(home, &["dns", "apply", "acme-1.com", &ten]).ok();
    let before = records(home);
    assert_eq!(before, 15);

    // The zone's own 4 records besides www go: 4 of 15 (26.7 %) is within 30 %.
    sandbox_in(home, &["dns", "apply", "acme-1.com", &ten, "--prune"]).ok();
    assert_eq!(records(home), 11);

    // Only www kept: 10 of 11 deleted (90.9 %), refused, a dry run too.
    let www = hosts(home, 0);
    let prune = ["dns", "apply", "acme-1.com", &www, "--prune"];
    for extra in [&[][..], &["--dry-run"]] {
        let run = sandbox_in(home, &[&prune[..], extra].concat()).code(9);
        assert!(
            run.stderr.contains(
                "refused: the plan would delete 10 of the 11 records (90.9 %), more than the \
                 30 % allowed when 10 or more exist: nothing was written"
            ),
            "{}",
            run.stderr
        );
    }
    assert_eq!(records(home), 11, "nothing was deleted");
    sandbox_in(home, &[&prune[..], &["--force"]].concat()).ok();
    assert_eq!(records(home), 1);
}
