//! What the v1 records share: a hosting contract (the wire's `serverHostingPack`, on
//! bare metal servers and private racks) and a service level agreement.

use chrono::NaiveDate;
use rust_decimal::Decimal;
#[cfg(feature = "schema")]
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{ContractTerm, Extra};

/// The hosting contract of a bare metal server or a private rack (the wire's
/// `serverHostingPack`). The wire repeats the server's or rack's id and name there;
/// they are left out when they match the record's, and kept in `extra` when they do
/// not.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct HostingContract {
    /// The customer's own reference.
    pub reference: Option<String>,
    /// The monthly price (bare metal's `serverPrice`; no currency given).
    #[cfg_attr(feature = "schema", schemars(with = "Option<String>"))]
    #[serde(with = "rust_decimal::serde::str_option")]
    pub monthly_price: Option<Decimal>,
    /// Contract start.
    pub start_date: Option<NaiveDate>,
    /// Contract end; `None` while the contract runs on.
    pub end_date: Option<NaiveDate>,
    /// The contract term ("1 year", "3 year(s)", "12 months").
    pub term: Option<ContractTerm>,
    /// Fields the model does not name.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

/// A service level agreement: its name, and its monthly price where the view gives
/// one.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct Sla {
    /// The agreement's name (e.g. `Basic - 24x7x24`).
    pub name: Option<String>,
    /// Its monthly price (no currency given).
    #[cfg_attr(feature = "schema", schemars(with = "Option<String>"))]
    #[serde(with = "rust_decimal::serde::str_option")]
    pub monthly_price: Option<Decimal>,
    /// Fields the model does not name.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

impl Sla {
    /// An agreement known by its name only.
    pub(crate) fn named(name: Option<String>) -> Option<Self> {
        name.map(|name| Self {
            name: Some(name),
            monthly_price: None,
            extra: Extra::new(),
        })
    }
}
