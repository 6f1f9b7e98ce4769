//! # hostapi
//!
//! (crate guide: see the end of the rewrite)

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
mod list;
mod model;
mod outcome;
mod paging;
mod private_networks;
mod private_racks;
mod read;
mod scrub;
mod secret;
mod signing;
mod transport;
mod validate;
mod virtual_servers;
mod wait;

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
pub use error::{
    ApiError, CallInfo, DecodeError, Error, ErrorBody, ErrorBodyKind, OutcomeUnknown, PagingError,
    RedirectError, ServiceError, StatusError, TooLargeError, TransportCause, TransportError,
    WaitError,
};
pub use ips::Ips;
pub use list::{List, Listing, Unreadable};
pub use model::*;
pub use outcome::Confirmation;
pub use private_networks::*;
pub use private_racks::*;
pub use secret::{REDACTED, Secret, expose_secrets};
pub use signing::{Clock, FixedClock, SystemClock, cdn_signature};
pub use transport::retry::RetryPolicy;
pub use virtual_servers::*;
pub use wait::{WaitOptions, WaitProgress, human_duration};
