//! `cargo xtask api`: the public API of the library crates, one item a line with its
//! full signature, written to `docs/public-api.txt` (the SDK) and
//! `docs/public-api-sync.txt` (config as code); with `--check`, writes nothing and
//! fails showing the lines that changed. A change to an argument, a return type, a
//! field, a variant or an implemented trait then shows up in review as a diff of those
//! files, and in CI as a failure.
//!
//! The items are read from rustdoc's JSON output (unstable on a stable toolchain, so
//! requested with `RUSTC_BOOTSTRAP=1`) by the `public-api` crate. Blanket and
//! auto-trait implementations are left out: they follow from the rest and change with
//! the compiler. Methods a type only reaches through `Deref` (a `Listing`'s slice
//! methods) are not its own and are not listed; its `Deref` implementation is.
//!
//! Every feature of a crate is on, except `internal` (entry points for the
//! workspace's own tests, unstable by design).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A crate whose API is recorded, and where.
struct Record {
    krate: &'static str,
    path: &'static str,
}

/// The recorded crates.
const RECORDS: &[Record] = &[
    Record {
        krate: "hostapi",
        path: "docs/public-api.txt",
    },
    Record {
        krate: "hostapi-sync",
        path: "docs/public-api-sync.txt",
    },
];

/// Features never recorded: not part of any API.
const UNSTABLE_FEATURES: &[&str] = &["internal"];

pub(crate) fn run(root: &Path, check: bool) -> Result<(), String> {
    let mut stale = Vec::new();
    for record in RECORDS {
        let json = rustdoc_json(root, record.krate)?;
        let contents = format!(
            "# The public API of the `{}` crate, made by `cargo xtask api` from rustdoc's JSON.\n\
             # Review changes to this file as changes to the API.\n{}\n",
            record.krate,
            list(&json)?.join("\n")
        );
        let path = root.join(record.path);
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        if committed == contents {
            eprintln!("api: {} is up to date", record.path);
        } else if check {
            stale.push(format!(
                "the public API of {} differs from {} (run `cargo xtask api` and review the diff):\n{}",
                record.krate,
                record.path,
                difference(&committed, &contents)
            ));
        } else {
            std::fs::write(&path, contents).map_err(|e| format!("{}: {e}", path.display()))?;
            eprintln!("api: wrote {}", record.path);
        }
    }
    if stale.is_empty() {
        Ok(())
    } else {
        Err(stale.join("\n\n"))
    }
}

/// `cargo rustdoc` for the crate's library alone, as JSON, refusing any rustdoc
/// warning; answers the JSON file's path.
fn rustdoc_json(root: &Path, krate: &str) -> Result<PathBuf, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let features = features(root, &cargo, krate)?;
    let mut command = Command::new(&cargo);
    command
        .current_dir(root)
        .args(["rustdoc", "--lib", "--locked", "-p", krate]);
    if !features.is_empty() {
        command.args(["--features", &features.join(",")]);
    }
    let status = command
        .args(["--", "-Z", "unstable-options", "--output-format", "json"])
        .args(["-D", "warnings"])
        // rustdoc's JSON output is unstable; the pinned toolchain's format is the one
        // the pinned `public-api` crate reads.
        .env("RUSTC_BOOTSTRAP", "1")
        .status()
        .map_err(|e| format!("cannot run cargo rustdoc: {e}"))?;
    if !status.success() {
        return Err(format!("cargo rustdoc -p {krate} failed ({status})"));
    }
    Ok(target_dir(root)
        .join("doc")
        .join(format!("{}.json", krate.replace('-', "_"))))
}

/// The crate's features that are recorded: all but [`UNSTABLE_FEATURES`].
fn features(root: &Path, cargo: &str, krate: &str) -> Result<Vec<String>, String> {
    let output = Command::new(cargo)
        .current_dir(root)
        .args(["metadata", "--no-deps", "--locked", "--format-version", "1"])
        .output()
        .map_err(|e| format!("cannot run cargo metadata: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "cargo metadata failed: {}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout)
        .map_err(|e| format!("cargo metadata's output: {e}"))?;
    let package = metadata["packages"]
        .as_array()
        .and_then(|packages| packages.iter().find(|p| p["name"] == krate))
        .ok_or_else(|| format!("no package {krate} in the workspace"))?;
    Ok(recorded_features(&package["features"]))
}

/// The names of `features` (cargo metadata's map of a package's features) that are
/// recorded: not `default` (the others are all on anyway) nor an unstable one.
fn recorded_features(features: &serde_json::Value) -> Vec<String> {
    features
        .as_object()
        .map(|features| {
            features
                .keys()
                .filter(|name| *name != "default" && !UNSTABLE_FEATURES.contains(&name.as_str()))
                .cloned()
                .collect()
        })
        .unwrap_or_default()
}

fn target_dir(root: &Path) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"))
}

/// Every public item with its signature, in `public-api`'s order (by path, then
/// kind): `pub fn hostapi::Client::from_env() -> …`, `pub hostapi::bulk::BulkItem::index:
/// usize`, `impl core::clone::Clone for hostapi::Client`, …
fn list(json: &Path) -> Result<Vec<String>, String> {
    let api = public_api::Builder::from_rustdoc_json(json)
        .omit_blanket_impls(true)
        .omit_auto_trait_impls(true)
        .build()
        .map_err(|e| format!("{}: {e}", json.display()))?;
    let items: Vec<String> = api.items().map(ToString::to_string).collect();
    if items.is_empty() {
        return Err(format!("no items found in {}", json.display()));
    }
    Ok(items)
}

/// The lines only in `old` (`-`) and only in `new` (`+`).
fn difference(old: &str, new: &str) -> String {
    let old_lines: BTreeSet<&str> = old.lines().collect();
    let new_lines: BTreeSet<&str> = new.lines().collect();
    let mut out = Vec::new();
    out.extend(old_lines.difference(&new_lines).map(|l| format!("- {l}")));
    out.extend(new_lines.difference(&old_lines).map(|l| format!("+ {l}")));
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_difference_names_lines_gone_and_added() {
        let old = "pub fn a::f(x: u8)\npub struct a::S\n";
        let new = "pub fn a::f(x: u16)\npub struct a::S\n";
        assert_eq!(
            difference(old, new),
            "- pub fn a::f(x: u8)\n+ pub fn a::f(x: u16)"
        );
    }

    #[test]
    fn every_feature_but_the_unstable_ones_is_recorded() {
        let features =
            serde_json::json!({"default": [], "internal": [], "schema": ["dep:schemars"]});
        assert_eq!(recorded_features(&features), ["schema"]);
    }
}
