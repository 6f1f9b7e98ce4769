//! Raw client for the v1 infrastructure API, generated at build time by progenitor from
//! `spec/infra-v1.yaml` (see `build.rs`). A formatted copy of the generated code is
//! committed in `generated/client.rs` for review; `cargo xtask codegen --check` keeps
//! it in step.
//!
//! Nothing here is hand-written but this file. Each generated builder is an
//! [`OperationBuilder`] (which `hostapi-codegen` implements): it names its operation
//! (`OPERATION`) and makes its request unsent (`request()`); the `hostapi` facade adds
//! the credentials, sends it and reads the answer. (`send()`, progenitor's, sends it as
//! built, with no credentials, and hands the answer back as bytes.) Use the facade, not
//! this crate.

// Generated code: documented from the spec where the spec says something.
#![allow(missing_docs, unreachable_pub, rust_2018_idioms, clippy::all)]

include!(concat!(env!("OUT_DIR"), "/generated.rs"));
