//! `cargo xtask api`: the facade's public API as a sorted list of items, one a line,
//! written to `docs/public-api.txt`; with `--check`, writes nothing and fails showing
//! the lines that changed. An accidental change to the public API then shows up in
//! review as a diff of that file, and in CI as a failure.
//!
//! The list is read from rustdoc's HTML (stable rustdoc has no JSON output): the
//! crate's `all.html` names every public item, and each type's page names its
//! variants, fields, inherent methods and the traits it implements. Blanket and
//! auto-trait implementations are left out: they follow from the rest and change with
//! the compiler.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

/// Where the list is committed.
pub(crate) const PATH: &str = "docs/public-api.txt";

/// The crate whose API is listed.
const CRATE: &str = "hostapi";

pub(crate) fn run(root: &Path, check: bool) -> Result<(), String> {
    build_docs(root)?;
    let doc_dir = target_dir(root).join("doc").join(CRATE);
    let listed = list(&doc_dir)?;
    let contents = format!(
        "# The public API of the `{CRATE}` crate, made by `cargo xtask api` from rustdoc's output.\n\
         # Review changes to this file as changes to the API.\n{}\n",
        listed.into_iter().collect::<Vec<_>>().join("\n")
    );
    let path = root.join(PATH);
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    if committed == contents {
        eprintln!("api: {PATH} is up to date");
        return Ok(());
    }
    if check {
        return Err(format!(
            "the public API differs from {PATH} (run `cargo xtask api` and review the diff):\n{}",
            difference(&committed, &contents)
        ));
    }
    std::fs::write(&path, contents).map_err(|e| format!("{}: {e}", path.display()))?;
    eprintln!("api: wrote {PATH}");
    Ok(())
}

/// `cargo doc` for the crate alone, refusing any rustdoc warning.
fn build_docs(root: &Path) -> Result<(), String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let status = Command::new(cargo)
        .current_dir(root)
        .args(["doc", "--no-deps", "--locked", "-p", CRATE])
        .env("RUSTDOCFLAGS", "-D warnings")
        .status()
        .map_err(|e| format!("cannot run cargo doc: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("cargo doc -p {CRATE} failed ({status})"))
    }
}

fn target_dir(root: &Path) -> std::path::PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| root.join("target"))
}

/// Every public item: `struct Foo`, `struct Foo::field bar`, `struct Foo::method get`,
/// `struct Foo::impl Clone`, `fn bulk`, …
fn list(doc_dir: &Path) -> Result<BTreeSet<String>, String> {
    let all = read(&doc_dir.join("all.html"))?;
    let mut items = BTreeSet::new();
    for page in attribute_values(&all, "href=\"") {
        let Some((kind, name)) = item_of(page) else {
            continue;
        };
        items.insert(format!("{kind} {name}"));
        if matches!(kind, "struct" | "enum" | "trait" | "union") {
            let text = read(&doc_dir.join(page))?;
            for member in members(&text) {
                items.insert(format!("{kind} {name}::{member}"));
            }
        }
    }
    if items.is_empty() {
        return Err(format!(
            "no items found in {}",
            doc_dir.join("all.html").display()
        ));
    }
    Ok(items)
}

/// The kind and path of the item a page documents (`struct.Foo.html` → `struct`,
/// `Foo`; `sub/fn.bar.html` → `fn`, `sub::bar`).
fn item_of(page: &str) -> Option<(&str, String)> {
    let page = page.strip_suffix(".html")?;
    let (dirs, file) = page.rsplit_once('/').map_or(("", page), |(d, f)| (d, f));
    let (kind, name) = file.split_once('.')?;
    let kind = match kind {
        "struct" => "struct",
        "enum" => "enum",
        "trait" => "trait",
        "union" => "union",
        "fn" => "fn",
        "type" => "type",
        "constant" => "const",
        "static" => "static",
        "macro" => "macro",
        "derive" => "derive",
        "attr" => "attr",
        _ => return None,
    };
    let path = if dirs.is_empty() {
        name.to_owned()
    } else {
        format!("{}::{name}", dirs.replace('/', "::"))
    };
    Some((kind, path))
}

/// A type page's variants, fields, inherent methods and associated items (before the
/// trait implementations), and the traits it implements itself (not blanket or auto
/// implementations).
fn members(page: &str) -> Vec<String> {
    let (own, rest) = match page.find("id=\"trait-implementations\"") {
        Some(at) => page.split_at(at),
        None => (page, ""),
    };
    let implemented = rest
        .split("id=\"synthetic-implementations\"")
        .next()
        .unwrap_or_default();
    let implemented = implemented
        .split("id=\"blanket-implementations\"")
        .next()
        .unwrap_or_default();
    let mut members = Vec::new();
    for id in attribute_values(own, "id=\"") {
        let (kind, name) = match id.split_once('.') {
            Some(parts) => parts,
            None => continue,
        };
        let kind = match kind {
            "variant" => "variant",
            "structfield" => "field",
            "method" | "tymethod" => "method",
            "associatedconstant" => "const",
            "associatedtype" => "type",
            _ => continue,
        };
        // A variant's fields are `variant.Name.field.x`: keep them whole.
        members.push(format!("{kind} {name}"));
    }
    for id in attribute_values(implemented, "id=\"impl-") {
        // `impl-Clone-for-BareMetalId`, `impl-From%3C%26str%3E-for-X`: the trait part.
        if let Some((trait_part, _)) = id.rsplit_once("-for-") {
            members.push(format!("impl {}", unescape(trait_part)));
        }
    }
    members.sort();
    members.dedup();
    members
}

/// The values of every attribute written `prefix…"` in `html` (prefix includes the
/// opening quote).
fn attribute_values<'h>(html: &'h str, prefix: &str) -> Vec<&'h str> {
    let mut values = Vec::new();
    let mut rest = html;
    while let Some(at) = rest.find(prefix) {
        rest = &rest[at + prefix.len()..];
        let Some(end) = rest.find('"') else { break };
        values.push(&rest[..end]);
        rest = &rest[end..];
    }
    values
}

/// The few escapes rustdoc puts in anchor ids.
fn unescape(id: &str) -> String {
    id.replace("%3C", "<")
        .replace("%3E", ">")
        .replace("%26", "&")
        .replace("%2C", ",")
        .replace("%20", " ")
}

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
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
    fn pages_name_their_items() {
        assert_eq!(
            item_of("struct.Client.html"),
            Some(("struct", "Client".to_owned()))
        );
        assert_eq!(item_of("fn.bulk.html"), Some(("fn", "bulk".to_owned())));
        assert_eq!(
            item_of("sub/enum.E.html"),
            Some(("enum", "sub::E".to_owned()))
        );
        assert_eq!(item_of("index.html"), None);
    }

    #[test]
    fn members_stop_at_blanket_implementations() {
        let page = r#"<section id="variant.A"></section><section id="method.get"></section>
            <h2 id="trait-implementations"></h2><section id="impl-Clone-for-X"></section>
            <h2 id="synthetic-implementations"></h2><section id="impl-Send-for-X"></section>
            <h2 id="blanket-implementations"></h2><section id="impl-From%3CT%3E-for-T"></section>"#;
        assert_eq!(members(page), ["impl Clone", "method get", "variant A"]);
    }
}
