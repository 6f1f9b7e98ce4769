//! The one function that turns a hostapi OpenAPI spec into formatted Rust.
//!
//! Both the raw crates' `build.rs` and `cargo xtask codegen` call [`generate`], so the
//! code compiled into `hostapi-raw-*` and the reviewable copy committed under
//! `crates/hostapi-raw-*/generated/` are the same text by construction.
//!
//! Every error names the spec file and, where there is one, the JSON pointer of the
//! problem inside it (for example `/paths/~1v1~1domains/get/operationId`).

mod error;
mod generate;
pub mod inventory;
mod load;
mod operations;
mod request_builders;
mod requests_only;
mod strict;
mod validate;

pub use error::CodegenError;
pub use generate::generate;
pub use load::Spec;
pub use strict::{VERSION as OPENAPI_VERSION, strict_check};
pub use validate::validate;

/// The three interfaces, each with its spec file and the raw crate generated from it.
pub const INTERFACES: [Interface; 3] = [
    Interface {
        spec: "spec/infra-v1.yaml",
        crate_dir: "crates/hostapi-raw-infra",
    },
    Interface {
        spec: "spec/cloud-v2.yaml",
        crate_dir: "crates/hostapi-raw-cloud",
    },
    Interface {
        spec: "spec/cdn.yaml",
        crate_dir: "crates/hostapi-raw-cdn",
    },
];

/// One interface: where its spec lives and which crate is generated from it, both
/// relative to the workspace root.
#[derive(Debug, Clone, Copy)]
pub struct Interface {
    /// The spec file, e.g. `spec/infra-v1.yaml`.
    pub spec: &'static str,
    /// The raw crate's directory, e.g. `crates/hostapi-raw-infra`.
    pub crate_dir: &'static str,
}

impl Interface {
    /// Where the reviewable copy of the generated client is committed, relative to
    /// the workspace root.
    pub fn generated_copy(&self) -> String {
        format!("{}/generated/client.rs", self.crate_dir)
    }

    /// Where the inventory of documented answer fields is committed (see
    /// [`inventory`]), relative to the workspace root.
    pub fn answers_inventory(&self) -> String {
        format!("{}/generated/answers.txt", self.crate_dir)
    }

    /// The spec's name without directory and extension (`infra-v1`).
    pub fn spec_name(&self) -> &'static str {
        let file = self.spec.rsplit('/').next().unwrap_or(self.spec);
        file.strip_suffix(".yaml").unwrap_or(file)
    }
}

/// The whole `build.rs` of a raw crate: generates the client for `spec/<spec_file>`
/// (relative to the workspace root) into `$OUT_DIR/generated.rs`, and asks Cargo to run
/// again when the spec changes. On failure it prints the error (file and JSON pointer)
/// and exits non-zero, which fails the build with that message.
pub fn build_script(spec_file: &str) {
    let manifest_dir =
        std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let out_dir = std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR");
    let spec = std::path::Path::new(&manifest_dir)
        .join("../../spec")
        .join(spec_file);
    println!("cargo::rerun-if-changed={}", spec.display());
    let outcome = generate(&spec).and_then(|source| {
        let out = std::path::Path::new(&out_dir).join("generated.rs");
        std::fs::write(&out, source).map_err(|source| CodegenError::Read { spec: out, source })
    });
    if let Err(error) = outcome {
        println!("cargo::error={error}");
        std::process::exit(1);
    }
}
