//! Every command's `--help` shows an example, and every example works as printed, as
//! the README promises: the command tree is walked through `--help`, and each example
//! line is run in a shell, word for word, in a fresh HOME (no config file, no HOSTAPI_*
//! variables) with the built `hostapi` first on the PATH. Examples that call the API
//! carry `--sandbox` (ids in examples are the sandbox's); those of `config`, `sandbox`
//! and `completions` work on local files only, the `config` ones in the order shown.

mod common;

use std::collections::BTreeMap;
use std::sync::OnceLock;

use common::{BIN, TempDir, command, finish, par_map, shell};

/// The subcommand names listed under `Commands:` in a help text.
fn subcommands(help: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut inside = false;
    for line in help.lines() {
        if line == "Commands:" {
            inside = true;
            continue;
        }
        if inside {
            if line.trim().is_empty() || !line.starts_with("  ") {
                break;
            }
            // Continuation lines of a description are indented further.
            if line.starts_with("   ") {
                continue;
            }
            let name = line.split_whitespace().next().unwrap_or_default();
            if name != "help" {
                names.push(name.to_owned());
            }
        }
    }
    names
}

/// The example lines of a help text (continuation lines ending in `\` joined).
fn examples(help: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut inside = false;
    let mut pending = String::new();
    for line in help.lines() {
        if line == "Example:" || line == "Examples:" {
            inside = true;
            continue;
        }
        if !inside {
            continue;
        }
        if !line.starts_with("  ") {
            inside = false;
            continue;
        }
        let text = line.trim();
        if let Some(head) = text.strip_suffix('\\') {
            pending.push_str(head);
            continue;
        }
        pending.push_str(text);
        found.push(std::mem::take(&mut pending));
    }
    found
}

/// Every command (its words after `hostapi`; the top level is empty) with its help
/// text; walked once for all the tests of this file.
fn commands() -> &'static BTreeMap<Vec<String>, String> {
    static COMMANDS: OnceLock<BTreeMap<Vec<String>, String>> = OnceLock::new();
    COMMANDS.get_or_init(|| {
        let home = TempDir::new("help");
        let mut all = BTreeMap::new();
        let mut level: Vec<Vec<String>> = vec![Vec::new()];
        while !level.is_empty() {
            let helps = par_map(level, |path| {
                let mut help = command(home.path());
                help.args(&path).arg("--help");
                (path, finish(help).ok().stdout)
            });
            level = Vec::new();
            for (path, help) in helps {
                let children = subcommands(&help);
                for child in &children {
                    let mut next = path.clone();
                    next.push(child.clone());
                    level.push(next);
                }
                all.insert(path, help);
            }
        }
        all
    })
}

/// The commands that do something (no subcommands of their own).
fn leaves() -> impl Iterator<Item = (&'static Vec<String>, &'static String)> {
    commands()
        .iter()
        .filter(|(_, help)| subcommands(help).is_empty())
}

#[test]
fn every_command_shows_an_example_of_itself() {
    // One leaf per facade operation, and then some: a floor that fails if groups
    // go missing from the tree.
    let count = leaves().count();
    assert!(count >= 80, "only {count} commands");
    // Groups show examples of their commands too.
    for (path, help) in commands() {
        let found = examples(help);
        assert!(
            !found.is_empty(),
            "`hostapi {}` shows no example",
            path.join(" ")
        );
        let prefix = format!("hostapi {}", path.join(" "));
        // An example may make a folder first (`mkdir -p … && hostapi …`) and start
        // with variables (`HOSTAPI_API_KEY=… hostapi …`).
        let command = |example: &str| {
            example
                .rsplit("&& ")
                .next()
                .unwrap_or(example)
                .split_whitespace()
                .skip_while(|word| word.contains('=') && !word.starts_with('-'))
                .collect::<Vec<_>>()
                .join(" ")
                .replace(" --sandbox", "")
        };
        assert!(
            found.iter().any(|e| command(e).starts_with(&prefix)),
            "no example of `{prefix}` itself: {found:?}"
        );
    }
}

/// Whether an example works on local files only (the config file, the sandbox's
/// state, a completion script): the groups whose examples need no `--sandbox`.
fn is_local(words: &str) -> bool {
    ["config", "sandbox", "completions"]
        .iter()
        .any(|group| words == *group || words.starts_with(&format!("{group} ")))
}

#[test]
fn every_example_runs_as_printed() {
    let home = TempDir::new("examples");
    // The built binary as `hostapi`, first on the PATH; nothing else is prepared: no
    // config file, no folder an example writes into.
    let bin_dir = home.path().join(".test-bin");
    std::fs::create_dir_all(&bin_dir).unwrap();
    std::os::unix::fs::symlink(BIN, bin_dir.join("hostapi")).unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    // Each example once (groups repeat some of their commands' examples), in the
    // order of the command tree.
    let mut seen = std::collections::BTreeSet::new();
    let examples: Vec<(String, String)> = commands()
        .iter()
        .flat_map(|(words, help)| {
            examples(help)
                .into_iter()
                .map(move |example| (words.join(" "), example))
        })
        .filter(|(_, example)| seen.insert(example.clone()))
        .collect();
    assert!(examples.len() >= 100, "only {} examples", examples.len());
    // Every example that calls the API says so: run as printed, it must not reach
    // the configured service.
    let unmarked: Vec<&String> = examples
        .iter()
        .filter(|(words, example)| !is_local(words) && !example.contains("hostapi --sandbox "))
        .map(|(_, example)| example)
        .collect();
    assert!(
        unmarked.is_empty(),
        "examples that call the API without --sandbox: {unmarked:#?}"
    );
    let run = |(words, example): (String, String)| {
        let mut run = shell(home.path(), &example);
        // Ten times the sandbox's own pace rather than the tests' usual 100,000: a
        // five-minute installation then spans several polls, so a wait sees it run
        // even on a loaded machine (at 100,000 it can end before the first poll,
        // and the wait then never sees it begin).
        run.env("PATH", &path).env(common::TIME_SCALE_VAR, "600");
        let run = finish(run);
        (run.code != 0).then(|| {
            format!(
                "example of `hostapi {words}` failed (exit {}): {example}\n--- stdout\n{}\n--- stderr\n{}",
                run.code, run.stdout, run.stderr
            )
        })
    };
    // The `config` examples share one config file: one after the other, as shown
    // (`config use staging` after `config init --profile staging`). `acl set --file
    // acl.json` reads what `acl get > acl.json` writes: the writers go first.
    let (config, others): (Vec<_>, Vec<_>) = examples
        .into_iter()
        .partition(|(words, _)| words == "config" || words.starts_with("config "));
    let (writers, others): (Vec<_>, Vec<_>) = others
        .into_iter()
        .partition(|(_, example)| example.contains(" > "));
    let mut failures: Vec<String> = config.into_iter().filter_map(run).collect();
    for batch in [writers, others] {
        failures.extend(par_map(batch, run).into_iter().flatten());
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_list_command_prints_json_and_nothing_else() {
    let lists: Vec<(String, String)> = leaves()
        .filter(|(words, _)| words.last().is_some_and(|w| w == "list"))
        .map(|(words, help)| {
            let example = examples(help)
                .into_iter()
                .next()
                .unwrap_or_else(|| panic!("`{}` has no example", words.join(" ")));
            (words.join(" "), example)
        })
        .collect();
    assert!(lists.len() >= 18, "only {} list commands", lists.len());
    let failures: Vec<String> = par_map(lists, |(words, example)| {
        let args: Vec<&str> = example
            .split_whitespace()
            .skip(1)
            .filter(|word| *word != "--sandbox")
            .chain(["--output", "json"])
            .collect();
        let run = common::sandbox(&args);
        let problem = if run.code != 0 {
            Some(format!("exit {}", run.code))
        } else {
            match serde_json::from_str::<serde_json::Value>(&run.stdout) {
                Err(e) => Some(format!("stdout is not one JSON document: {e}")),
                // A list, or (DHCP leases) a record holding one.
                Ok(serde_json::Value::Array(items)) if items.is_empty() => {
                    Some("the sandbox list is empty".to_owned())
                }
                Ok(serde_json::Value::Array(_)) => None,
                Ok(serde_json::Value::Object(record)) if record.values().any(|v| v.is_array()) => {
                    None
                }
                Ok(other) => Some(format!("not a list: {other}")),
            }
        };
        problem.map(|p| {
            format!(
                "`hostapi {words}`: {p}\n--- stdout\n{}\n--- stderr\n{}",
                run.stdout, run.stderr
            )
        })
    })
    .into_iter()
    .flatten()
    .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
