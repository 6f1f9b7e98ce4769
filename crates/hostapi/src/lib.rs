//! # hostapi
//!
//! One clean Rust client for the hosting provider's three HTTP interfaces: the v1
//! infrastructure API (virtual servers, domains and DNS, bare metal servers, private
//! racks, IPs, catalogues, private networks), the cloud v2 API (virtual servers, jobs,
//! credentials, metrics, private clouds) and the CDN API (purges, customers, ACLs,
//! origins).
//!
//! The interfaces are quirky — ids that are strings in one view and integers in
//! another, numbers sent as strings, five date formats, a misspelt `succes` key,
//! wrappers of every kind. This crate absorbs all of that: you get typed ids, enums that
//! keep values they do not know (`Unknown(String)`), real dates, exact decimals for
//! money, quantities with units, and one shape per concept. Fields the model does not
//! name are kept in each record's `extra` map, never dropped.
//!
//! ```no_run
//! # async fn run() -> Result<(), hostapi::Error> {
//! let client = hostapi::Client::from_env()?;
//! # let _ = client;
//! # Ok(())
//! # }
//! ```
//!
//! Errors are one [`Error`] enum that keeps the HTTP status and the body text, names
//! the operation, and — for answers that do not decode — the JSON path of the offending
//! field. Credentials never appear in `Debug` output, logs or errors; secrets the
//! service returns are [`Secret`]s, redacted unless you ask.

mod bare_metal;
mod bulk;
mod catalog;
mod cdn;
mod client;
mod cloud;
mod config;
mod domains;
mod error;
mod handle;
#[doc(hidden)]
pub mod internal;
mod ips;
mod model;
mod paging;
mod private_networks;
mod private_racks;
mod secret;
mod signing;
mod transport;
mod validate;
mod virtual_servers;
mod wait;
mod wire;

pub use bare_metal::*;
pub use bulk::{BulkItem, BulkOptions, bulk};
pub use catalog::*;
pub use cdn::*;
pub use client::{
    Client, ClientBuilder, ENV_API_KEY, ENV_BASE_URL, ENV_CDN_BASE_URL, ENV_CDN_CUSTOMER,
    ENV_CDN_SECRET, USER_AGENT,
};
pub use cloud::*;
pub use domains::*;
pub use error::{Error, ErrorBody, ErrorBodyKind, ServiceError};
pub use ips::*;
pub use model::*;
pub use private_networks::*;
pub use private_racks::*;
pub use secret::{REDACTED, Secret, expose_secrets};
pub use signing::{Clock, FixedClock, SystemClock, cdn_signature};
pub use transport::retry::RetryPolicy;
pub use virtual_servers::*;
pub use wait::{WaitOptions, WaitProgress};
