//! Value types shared by every resource: quantities with units, money, contract terms,
//! and the map that keeps fields the model does not name.

use std::collections::BTreeMap;

use rust_decimal::Decimal;
use schemars::JsonSchema;
use serde::Serialize;

use super::macros::open_enum;

/// Fields the server sent that the model does not name, kept as sent (so nothing the
/// service adds tomorrow is lost). Empty maps are left out of serialised output.
pub type Extra = BTreeMap<String, serde_json::Value>;

/// An amount of money. The currency is given where the service gives one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Money {
    /// The amount, exact.
    #[schemars(with = "String")]
    #[serde(with = "rust_decimal::serde::str")]
    pub amount: Decimal,
    /// ISO 4217 code, when the service says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub currency: Option<String>,
}

open_enum! {
    /// A unit of data size. The service's units are decimal (1 KB = 1000 bytes).
    DataUnit {
        /// Bytes.
        Bytes = "B" => "B",
        /// Kilobytes (10³ bytes).
        Kilobytes = "KB" => "KB",
        /// Megabytes (10⁶ bytes).
        Megabytes = "MB" => "MB",
        /// Gigabytes (10⁹ bytes).
        Gigabytes = "GB" => "GB",
        /// Terabytes (10¹² bytes).
        Terabytes = "TB" => "TB",
        /// Petabytes (10¹⁵ bytes).
        Petabytes = "PB" => "PB",
    }
}

impl DataUnit {
    /// Bytes in one of this unit, when the unit is known.
    pub fn bytes(&self) -> Option<u64> {
        Some(match self {
            Self::Bytes => 1,
            Self::Kilobytes => 1_000,
            Self::Megabytes => 1_000_000,
            Self::Gigabytes => 1_000_000_000,
            Self::Terabytes => 1_000_000_000_000,
            Self::Petabytes => 1_000_000_000_000_000,
            Self::Unknown(_) => return None,
        })
    }
}

/// An amount of data with its unit, as the service states it ("1100.50 GB", "64GB",
/// `{unit: "GB", amount: 64}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct DataSize {
    /// The amount in `unit`, exact.
    #[schemars(with = "String")]
    #[serde(with = "rust_decimal::serde::str")]
    pub amount: Decimal,
    /// The unit.
    pub unit: DataUnit,
}

impl DataSize {
    /// The size in bytes (decimal units), when the unit is known.
    pub fn bytes(&self) -> Option<Decimal> {
        self.amount.checked_mul(Decimal::from(self.unit.bytes()?))
    }
}

open_enum! {
    /// A unit of bit rate (decimal: 1 Kbps = 1000 bit/s).
    RateUnit {
        /// Bits per second.
        BitsPerSecond = "bps" => "bps",
        /// Kilobits per second.
        KilobitsPerSecond = "Kbps" => "kbps",
        /// Megabits per second.
        MegabitsPerSecond = "Mbps" => "mbps",
        /// Gigabits per second.
        GigabitsPerSecond = "Gbps" => "gbps",
    }
}

impl RateUnit {
    /// Bits per second in one of this unit, when the unit is known.
    pub fn bits_per_second(&self) -> Option<u64> {
        Some(match self {
            Self::BitsPerSecond => 1,
            Self::KilobitsPerSecond => 1_000,
            Self::MegabitsPerSecond => 1_000_000,
            Self::GigabitsPerSecond => 1_000_000_000,
            Self::Unknown(_) => return None,
        })
    }
}

/// A bit rate with its unit ("11 Mbps").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct BitRate {
    /// The amount in `unit`, exact.
    #[schemars(with = "String")]
    #[serde(with = "rust_decimal::serde::str")]
    pub amount: Decimal,
    /// The unit.
    pub unit: RateUnit,
}

impl BitRate {
    /// The rate in bits per second, when the unit is known.
    pub fn bits_per_second(&self) -> Option<Decimal> {
        self.amount
            .checked_mul(Decimal::from(self.unit.bits_per_second()?))
    }
}

open_enum! {
    /// The unit of a contract term.
    TermUnit {
        /// Months.
        Months = "month" => "months",
        /// Years.
        Years = "year" => "years",
    }
}

/// A contract term: "1 year", "2 years", "12 months", or an integer number of years.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ContractTerm {
    /// How many units.
    pub amount: u32,
    /// Months or years.
    pub unit: TermUnit,
}

impl ContractTerm {
    /// The term in months, when the unit is known.
    pub fn months(&self) -> Option<u32> {
        match self.unit {
            TermUnit::Months => Some(self.amount),
            TermUnit::Years => self.amount.checked_mul(12),
            TermUnit::Unknown(_) => None,
        }
    }
}
