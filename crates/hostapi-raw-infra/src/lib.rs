//! Raw client for the v1 infrastructure API, generated at build time by progenitor from
//! `spec/infra-v1.yaml` (see `build.rs`). A formatted copy of the generated code is
//! committed in `generated/client.rs` for review; `cargo xtask codegen --check` keeps
//! it in step.
//!
//! Nothing here is hand-written but this file. The generated calls build requests and
//! hand back each answer as bytes, for the `hostapi` facade to read: use the facade, not
//! this crate.

// Generated code: documented from the spec where the spec says something.
#![allow(missing_docs, unreachable_pub, rust_2018_idioms, clippy::all)]

include!(concat!(env!("OUT_DIR"), "/generated.rs"));

hostapi_hooks::impl_client_hooks!(Client);
