//! What every resource group shares: typed ids and their rules, values with units,
//! money, contract terms, jobs, the `extra` map, and the third-party crates whose types
//! appear in the API.
//!
//! # Ids
//!
//! Every id is its own type ([`BareMetalId`], [`CloudServerId`], [`DnsRecordId`], …),
//! made with `new` or [`str::parse`] and checked against its rule in [`ID_RULES`]
//! before anything is sent; [`TypedId`] is what they have in common. [`DomainName`],
//! [`MacAddress`] and [`Username`] are checked the same way.
//!
//! ```
//! use hostapi::types::{BareMetalId, DomainName, TypedId};
//! let id: BareMetalId = "20001".parse()?;
//! assert_eq!(id.as_str(), "20001");
//! assert!("../admin".parse::<BareMetalId>().is_err());
//! let domain: DomainName = "example.com".parse()?;
//! # let _ = domain;
//! # Ok::<(), hostapi::Error>(())
//! ```
//!
//! # Values
//!
//! Quantities keep their unit ([`DataSize`], [`BitRate`]), money is an exact decimal
//! with its currency ([`Money`]), enum-like values keep a value they do not know as
//! `Unknown` ([`Unrecognized`]), and every field a model does not name is kept in its
//! record's [`Extra`] map.
//!
//! # Third-party crates
//!
//! Dates are [`chrono`] types, amounts [`rust_decimal`] decimals, and the `extra` map
//! holds [`serde_json`] values. They are re-exported here, so code that names them
//! uses the versions this crate was built with; list streams are [`Stream`]s (bring
//! `futures::StreamExt` into scope to consume one).

pub use chrono;
pub use futures::Stream;
pub use rust_decimal;
pub use serde_json;

pub use crate::cdn::customers::CdnCustomerId;
pub use crate::model::{
    BareMetalId, BitRate, CloudServerId, ContractTerm, ControlPanelId, CustomerNumber, DataSize,
    DataUnit, DnsRecordId, DomainName, Extra, HostingContract, ID_RULES, IdRule, IdRuleRow, Job,
    JobId, JobStatus, MAX_ID_LEN, MacAddress, Money, OperatingSystemId, OriginId, PrivateCloudId,
    PrivateNetworkId, PrivateRackId, PurgeJobId, RateUnit, RescueImageId, Sla, TermUnit, TypedId,
    Unrecognized, Username, ZoneId,
};
pub use crate::secret::{REDACTED, expose_secrets};
pub use crate::virtual_servers::model::VirtualServerId;
