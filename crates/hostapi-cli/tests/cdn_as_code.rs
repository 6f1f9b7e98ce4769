//! `cdn plan|apply` as an operator meets them: a plan names the fields and permissions
//! that change, `--expect-no-changes` fails on drift, an apply over the safety threshold
//! is refused before any write, and origins that share a label are told apart by id.

mod common;

use std::path::Path;

use common::{Run, TempDir, run_in, sandbox_at, write_file};

/// `hostapi --sandbox --yes -o table <args>` in `home`, whose sandbox remembers.
fn sandbox_in(home: &Path, args: &[&str]) -> Run {
    sandbox_at(home, &[&["--yes", "-o", "table"][..], args].concat())
}

/// The exported file with every `refresh_every_seconds: 86400` of the first `count`
/// origins set to 3600.
fn refreshed(exported: &str, count: usize) -> String {
    exported.replacen(
        "refresh_every_seconds: 86400",
        "refresh_every_seconds: 3600",
        count,
    )
}

#[test]
fn a_cdn_plan_names_what_changes_and_drift_fails_the_check() {
    let home = TempDir::new("cdn-drift");
    let exported = sandbox_in(home.path(), &["cdn", "export"]).ok().stdout;
    let file = write_file(home.path(), "cdn.yaml", &exported);
    sandbox_in(home.path(), &["cdn", "plan", &file, "--expect-no-changes"]).ok();

    let edited = refreshed(&exported, 1).replacen("    delete: true", "    delete: false", 1);
    write_file(home.path(), "cdn.yaml", &edited);
    let run = sandbox_in(home.path(), &["cdn", "plan", &file, "--expect-no-changes"]).code(8);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(
        lines,
        [
            "~ origin www: refresh_every_seconds 86400 -> 3600",
            "~ acl: - content.delete",
        ],
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("2 change(s) needed"), "{}", run.stderr);
    // Without the flag a plan with changes is not a failure.
    sandbox_in(home.path(), &["cdn", "plan", &file]).ok();
}

#[test]
fn updating_most_origins_is_refused_unless_forced() {
    let home = TempDir::new("cdn-threshold");
    let exported = sandbox_in(home.path(), &["cdn", "export"]).ok().stdout;
    let origins = exported.matches("- label:").count();
    let changed = refreshed(&exported, origins);
    assert!(origins >= 3, "{exported}");
    let file = write_file(home.path(), "cdn.yaml", &changed);
    let apply = ["cdn", "apply", &file, "--min-existing", "2"];
    let run = sandbox_in(home.path(), &apply).code(9);
    assert!(
        run.stderr
            .contains(&format!("would update {origins} of the {origins} origins")),
        "{}",
        run.stderr
    );
    // Nothing was written: the plan still holds every change.
    let plan = sandbox_in(home.path(), &["cdn", "plan", &file]).ok();
    assert_eq!(plan.stdout.lines().count(), origins, "{}", plan.stdout);
    // A higher share lets it through; so does --force.
    sandbox_in(
        home.path(),
        &[&apply[..], &["--max-change-percent", "100"]].concat(),
    )
    .ok();
    sandbox_in(home.path(), &["cdn", "plan", &file, "--expect-no-changes"]).ok();
}

#[test]
fn origins_that_share_a_label_are_told_apart_by_id() {
    let home = TempDir::new("cdn-labels");
    // The help's example makes no duplicate.
    let example = sandbox_in(
        home.path(),
        &[
            "cdn",
            "origins",
            "create",
            "--label",
            "downloads",
            "--url",
            "https://downloads.example.com",
            "--refresh-every",
            "3600",
        ],
    )
    .ok();
    assert!(!example.stderr.contains("warning"), "{}", example.stderr);
    let help = run_in(home.path(), &["cdn", "origins", "create", "--help"], &[]).ok();
    assert!(help.stdout.contains("--label downloads"), "{}", help.stdout);

    let twice = sandbox_in(
        home.path(),
        &[
            "cdn",
            "origins",
            "create",
            "--label",
            "assets",
            "--url",
            "https://assets.example.com",
        ],
    )
    .ok();
    assert!(
        twice
            .stderr
            .contains("warning: origin 102 is labelled `assets` too"),
        "{}",
        twice.stderr
    );
    let exported = sandbox_in(home.path(), &["cdn", "export"]).ok().stdout;
    assert_eq!(exported.matches("label: assets").count(), 2, "{exported}");
    assert_eq!(exported.matches("- id: ").count(), 2, "{exported}");
    let file = write_file(home.path(), "cdn.yaml", &exported);
    sandbox_in(home.path(), &["cdn", "plan", &file, "--expect-no-changes"]).ok();

    // Without the ids the file is refused at the second origin's own line.
    let mut bare = String::new();
    let mut item_starts = false;
    for line in exported.lines() {
        if line.starts_with("- id: ") {
            item_starts = true;
            continue;
        }
        match line.strip_prefix("  ").filter(|_| item_starts) {
            Some(rest) => bare.push_str(&format!("- {rest}\n")),
            None => bare.push_str(&format!("{line}\n")),
        }
        item_starts = false;
    }
    let second = bare
        .lines()
        .enumerate()
        .filter(|(_, l)| *l == "- label: assets")
        .nth(1)
        .map(|(at, _)| at + 1)
        .expect("two assets");
    let file = write_file(home.path(), "bare.yaml", &bare);
    let run = sandbox_in(home.path(), &["cdn", "plan", &file]).code(2);
    assert!(
        run.stderr.contains(&format!("bare.yaml:{second}:")),
        "line {second}: {}",
        run.stderr
    );
}
