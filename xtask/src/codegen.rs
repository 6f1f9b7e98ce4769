//! `cargo xtask codegen`: writes the reviewable copies of what derives from the specs
//! (the generated clients and the inventories of documented answer fields), and the JSON
//! Schema of the domain model; with `--check`, writes nothing and fails
//! naming every stale file.

use std::path::Path;

use hostapi_codegen::{INTERFACES, Spec, generate, inventory};

/// One derived file: where it goes and what it must contain.
struct Derived {
    path: String,
    contents: String,
}

pub(crate) fn run(root: &Path, check: bool) -> Result<(), String> {
    let mut derived = Vec::new();
    let mut failures = Vec::new();
    for interface in INTERFACES {
        match generate(&root.join(interface.spec)) {
            Ok(contents) => derived.push(Derived {
                path: interface.generated_copy(),
                contents,
            }),
            Err(error) => failures.push(error.to_string()),
        }
        match Spec::load(&root.join(interface.spec)) {
            Ok(spec) => derived.push(Derived {
                path: interface.answers_inventory(),
                contents: inventory::render(interface.spec, &inventory::inventory(&spec)),
            }),
            Err(error) => failures.push(error.to_string()),
        }
    }
    if !failures.is_empty() {
        return Err(failures.join("\n"));
    }
    derived.push(Derived {
        path: crate::schema::PATH.to_owned(),
        contents: crate::schema::generate(),
    });

    let stale: Vec<&Derived> = derived
        .iter()
        .filter(|file| {
            std::fs::read_to_string(root.join(&file.path))
                .ok()
                .as_deref()
                != Some(file.contents.as_str())
        })
        .collect();
    if check {
        if stale.is_empty() {
            eprintln!("codegen: {} derived files are up to date", derived.len());
            return Ok(());
        }
        let names: Vec<&str> = stale.iter().map(|file| file.path.as_str()).collect();
        return Err(format!(
            "stale derived files (run `cargo xtask codegen`):\n  {}",
            names.join("\n  ")
        ));
    }
    for file in &stale {
        let path = root.join(&file.path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        std::fs::write(&path, &file.contents).map_err(|e| format!("{}: {e}", path.display()))?;
        eprintln!("codegen: wrote {}", file.path);
    }
    eprintln!(
        "codegen: {} derived files, {} rewritten",
        derived.len(),
        stale.len()
    );
    Ok(())
}
