//! `cargo xtask spec-check`: every spec is strict OpenAPI 3.0.3 (see
//! `hostapi_codegen::strict_check`); fails naming each problem's file and JSON pointer.

use std::path::Path;

use hostapi_codegen::{INTERFACES, OPENAPI_VERSION, Spec, strict_check};

pub(crate) fn run(root: &Path) -> Result<(), String> {
    let mut problems = Vec::new();
    for interface in INTERFACES {
        match Spec::load(&root.join(interface.spec)) {
            Ok(spec) => problems.extend(strict_check(&spec).iter().map(ToString::to_string)),
            Err(error) => problems.push(error.to_string()),
        }
    }
    if problems.is_empty() {
        eprintln!(
            "spec-check: {} specs are strict OpenAPI {OPENAPI_VERSION}",
            INTERFACES.len()
        );
        Ok(())
    } else {
        Err(format!(
            "{} problems:\n  {}",
            problems.len(),
            problems.join("\n  ")
        ))
    }
}
