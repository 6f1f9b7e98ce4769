//! How a facade call reaches the wire and comes back. One call, end to end:
//!
//! ```text
//!  BareMetals::get(id)                      a resource group's method (e.g. bare_metal/mod.rs)
//!    │  checks its arguments: nothing is sent when they are wrong
//!    ▼
//!  Handle::call(|| builder)                 handle.rs: the operation is the builder's
//!    ▼
//!  Transport::call(operation, || request)   send.rs: one call, attempt after attempt
//!    │  each attempt:
//!    │    a generated builder makes the request    hostapi-raw-*: `OperationBuilder::request()`
//!    │    route::check, against the operation      route.rs: method and path template
//!    │    credentials.prepare adds the credentials credentials.rs (X-Svc-Auth, or the CDN signature)
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
//! The generated code only builds requests (each builder's `request()`, which
//! `hostapi-codegen` makes from progenitor's `send()`), and names the operation each is
//! for (`OperationBuilder::OPERATION`, which the call takes as its own): the facade
//! prepares, sends and reads them itself, so it holds each request it sends (its method
//! and path go into the call's record) and each answer it reads, and nothing is decoded
//! twice. The two requests the builders make only in part (a nested install form, a
//! usage graph as PNG) are their builder's request changed, and go the same way. Each finished call logs one `hostapi: call` line at debug level
//! (operation, method, path, status, attempts, time, ok); retries log at info.

pub(crate) mod credentials;
#[cfg(test)]
pub(crate) mod hostile_ids_tests;
pub(crate) mod retry;
pub(crate) mod route;
pub(crate) mod send;

pub(crate) use send::{Answer, CallOptions, Transport};
