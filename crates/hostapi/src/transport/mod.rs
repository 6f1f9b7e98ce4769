//! How a facade call reaches the wire and comes back. One call, end to end:
//!
//! ```text
//!  BareMetals::get(id)                      a resource group's method (e.g. bare_metal/mod.rs)
//!    │  checks its arguments: nothing is sent when they are wrong
//!    ▼
//!  Transport::call(operation, || request)   send.rs: one call, attempt after attempt
//!    │  each attempt:
//!    │    the generated code builds the request    hostapi-raw-* (path, query, form body)
//!    │    hooks.prepare adds the credentials      hooks.rs (X-Svc-Auth, or the CDN signature)
//!    │    reqwest sends it                         no redirect followed, no Referer sent
//!    │    the answer is read to its end, bounded   2XX: at most max_answer_bytes; else 64 KiB
//!    │  then: hand the answer on, retry (retry.rs: which failures, how long to wait), or
//!    │  stop with an Error that keeps the call (operation, method, path, attempts, time);
//!    │  a write whose request may have reached the service ends as Error::OutcomeUnknown
//!    ▼
//!  Answer::one(read) / Answer::list(…)       read/: the JSON read by the one wire policy
//!    ▼
//!  the domain value (BareMetalServer)
//! ```
//!
//! The generated calls hand every answer over as bytes (the code generator declares
//! them so; see `hostapi-codegen`), so nothing is decoded twice. Each finished call logs
//! one `hostapi: call` line at debug level (operation, method, path, status, attempts,
//! time, ok); retries log at info.

pub(crate) mod hooks;
pub(crate) mod retry;
pub(crate) mod send;

pub(crate) use send::{Answer, CallOptions, Transport, send_raw};
