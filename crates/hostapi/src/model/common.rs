//! Value types shared by every resource: quantities with units, money, contract terms,
//! and the map that keeps fields the model does not name.

use std::collections::BTreeMap;

use rust_decimal::Decimal;
#[cfg(feature = "schema")]
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::macros::open_enum;

/// Fields the server sent that the model does not name, kept as sent (so nothing the
/// service adds tomorrow is lost), and values that could not be read, kept under their
/// own key (see the wire policy in the crate docs).
///
/// It dereferences to a map from key to JSON value. `Debug` and serialisation redact
/// the values of keys that look secret (containing `password`, `secret`, `token`,
/// `auth`, `key`, … in any letter case), unless serialised inside
/// [`expose_secrets`](crate::expose_secrets); the map itself holds them as sent.
/// Empty maps are left out of serialised output.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Extra(BTreeMap<String, serde_json::Value>);

impl Extra {
    /// An empty map.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether nothing is kept.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The map, as held (secrets included).
    pub fn into_inner(self) -> BTreeMap<String, serde_json::Value> {
        self.0
    }

    /// The map with secret-looking values replaced by [`REDACTED`](crate::REDACTED).
    fn redacted(&self) -> BTreeMap<&str, serde_json::Value> {
        self.0
            .iter()
            .map(|(key, value)| (key.as_str(), redact(key, value)))
            .collect()
    }
}

/// `value`, redacted when `key` looks secret, and its nested members likewise.
fn redact(key: &str, value: &serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    if crate::scrub::is_secret_key(key) && !value.is_null() {
        return Value::String(crate::REDACTED.to_owned());
    }
    match value {
        Value::Object(members) => Value::Object(
            members
                .iter()
                .map(|(k, v)| (k.clone(), redact(k, v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(|v| redact("", v)).collect()),
        other => other.clone(),
    }
}

impl std::ops::Deref for Extra {
    type Target = BTreeMap<String, serde_json::Value>;

    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl std::ops::DerefMut for Extra {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0
    }
}

impl FromIterator<(String, serde_json::Value)> for Extra {
    fn from_iter<I: IntoIterator<Item = (String, serde_json::Value)>>(iter: I) -> Self {
        Self(iter.into_iter().collect())
    }
}

impl IntoIterator for Extra {
    type Item = (String, serde_json::Value);
    type IntoIter = std::collections::btree_map::IntoIter<String, serde_json::Value>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl std::fmt::Debug for Extra {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.redacted().fmt(f)
    }
}

impl Serialize for Extra {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if crate::secret::exposed() {
            self.0.serialize(serializer)
        } else {
            self.redacted().serialize(serializer)
        }
    }
}

/// Reads the map as serialised. A value serialised redacted reads back as the text
/// [`REDACTED`](crate::REDACTED), not as the secret: serialise inside
/// [`expose_secrets`](crate::expose_secrets) to keep secret-looking values.
impl<'de> Deserialize<'de> for Extra {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        BTreeMap::deserialize(deserializer).map(Self)
    }
}

#[cfg(feature = "schema")]
impl JsonSchema for Extra {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Extra".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "object",
            "description": "Fields the model does not name, and values that could not be read, as sent; secret-looking keys are redacted unless secrets are exposed.",
            "additionalProperties": true
        })
    }
}

/// An amount of money. The currency is given where the service gives one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct Money {
    /// The amount, exact.
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    #[serde(with = "rust_decimal::serde::str")]
    pub amount: Decimal,
    /// ISO 4217 code, when the service says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub currency: Option<String>,
}

impl Money {
    /// An amount, in `currency` when one is known.
    pub fn new(amount: Decimal, currency: Option<String>) -> Self {
        Self { amount, currency }
    }
}

open_enum! {
    /// A unit of data size: bytes (decimal `B`, `KB`, `MB`, `GB`, `TB`, `PB`; binary
    /// `KiB` … `TiB`) or bits (`b`, `Kb`, `Mb`, `Gb`, `Tb`; `Mbit`…), told apart by the
    /// letter case the wire uses (`GB` ≠ `Gb`).
    DataUnit (exact) {
        /// Bytes.
        Bytes = "B" => "bytes",
        /// Kilobytes (10³ bytes).
        Kilobytes = "KB" => "kilobytes",
        /// Megabytes (10⁶ bytes).
        Megabytes = "MB" => "megabytes",
        /// Gigabytes (10⁹ bytes).
        Gigabytes = "GB" => "gigabytes",
        /// Terabytes (10¹² bytes).
        Terabytes = "TB" => "terabytes",
        /// Petabytes (10¹⁵ bytes).
        Petabytes = "PB" => "petabytes",
        /// Kibibytes (2¹⁰ bytes).
        Kibibytes = "KiB" => "kibibytes",
        /// Mebibytes (2²⁰ bytes).
        Mebibytes = "MiB" => "mebibytes",
        /// Gibibytes (2³⁰ bytes).
        Gibibytes = "GiB" => "gibibytes",
        /// Tebibytes (2⁴⁰ bytes).
        Tebibytes = "TiB" => "tebibytes",
        /// Bits.
        Bits = "b" => "bits",
        /// Kilobits (10³ bits).
        Kilobits = "Kb" => "kilobits",
        /// Megabits (10⁶ bits).
        Megabits = "Mb" => "megabits",
        /// Gigabits (10⁹ bits).
        Gigabits = "Gb" => "gigabits",
        /// Terabits (10¹² bits).
        Terabits = "Tb" => "terabits",
    }
}

impl DataUnit {
    /// Bytes in one of this unit (an eighth per bit), when the unit is known.
    pub fn bytes(&self) -> Option<Decimal> {
        let (bytes, bits): (u64, u64) = match self {
            Self::Bytes => (1, 0),
            Self::Kilobytes => (1_000, 0),
            Self::Megabytes => (1_000_000, 0),
            Self::Gigabytes => (1_000_000_000, 0),
            Self::Terabytes => (1_000_000_000_000, 0),
            Self::Petabytes => (1_000_000_000_000_000, 0),
            Self::Kibibytes => (1 << 10, 0),
            Self::Mebibytes => (1 << 20, 0),
            Self::Gibibytes => (1 << 30, 0),
            Self::Tebibytes => (1 << 40, 0),
            Self::Bits => (0, 1),
            Self::Kilobits => (0, 1_000),
            Self::Megabits => (0, 1_000_000),
            Self::Gigabits => (0, 1_000_000_000),
            Self::Terabits => (0, 1_000_000_000_000),
            Self::Unknown(_) => return None,
        };
        if bits == 0 {
            Some(Decimal::from(bytes))
        } else {
            Decimal::from(bits).checked_div(Decimal::from(8))
        }
    }
}

/// An amount of data with its unit, as the service states it ("1100.50 GB", "64GB",
/// `{unit: "GB", amount: 64}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct DataSize {
    /// The amount in `unit`, exact.
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    #[serde(with = "rust_decimal::serde::str")]
    pub amount: Decimal,
    /// The unit.
    pub unit: DataUnit,
}

impl DataSize {
    /// A size.
    pub fn new(amount: Decimal, unit: DataUnit) -> Self {
        Self { amount, unit }
    }

    /// The size in bytes, when the unit is known (and the product fits).
    pub fn bytes(&self) -> Option<Decimal> {
        self.amount
            .checked_mul(self.unit.bytes()?)
            .map(|d| d.normalize())
    }
}

open_enum! {
    /// A unit of rate: bits per second (`bps`, `Kbps`, `Mbps`, `Gbps`, `Mbit/s`…) or
    /// bytes per second (`Bps`, `MBps`, `MB/s`…), told apart by letter case.
    RateUnit (exact) {
        /// Bits per second.
        BitsPerSecond = "bps" => "bits_per_second",
        /// Kilobits per second.
        KilobitsPerSecond = "Kbps" => "kilobits_per_second",
        /// Megabits per second.
        MegabitsPerSecond = "Mbps" => "megabits_per_second",
        /// Gigabits per second.
        GigabitsPerSecond = "Gbps" => "gigabits_per_second",
        /// Terabits per second.
        TerabitsPerSecond = "Tbps" => "terabits_per_second",
        /// Bytes per second.
        BytesPerSecond = "Bps" => "bytes_per_second",
        /// Kilobytes per second.
        KilobytesPerSecond = "KBps" => "kilobytes_per_second",
        /// Megabytes per second.
        MegabytesPerSecond = "MBps" => "megabytes_per_second",
        /// Gigabytes per second.
        GigabytesPerSecond = "GBps" => "gigabytes_per_second",
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
            Self::TerabitsPerSecond => 1_000_000_000_000,
            Self::BytesPerSecond => 8,
            Self::KilobytesPerSecond => 8_000,
            Self::MegabytesPerSecond => 8_000_000,
            Self::GigabytesPerSecond => 8_000_000_000,
            Self::Unknown(_) => return None,
        })
    }
}

/// A rate with its unit ("11 Mbps").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct BitRate {
    /// The amount in `unit`, exact.
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    #[serde(with = "rust_decimal::serde::str")]
    pub amount: Decimal,
    /// The unit.
    pub unit: RateUnit,
}

impl BitRate {
    /// A rate.
    pub fn new(amount: Decimal, unit: RateUnit) -> Self {
        Self { amount, unit }
    }

    /// The rate in bits per second, when the unit is known (and the product fits).
    pub fn bits_per_second(&self) -> Option<Decimal> {
        self.amount
            .checked_mul(Decimal::from(self.unit.bits_per_second()?))
            .map(|d| d.normalize())
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

/// A contract term: "1 year", "2 years", "3 year(s)", "12 months", or an integer number
/// of years, each read as an amount and a unit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct ContractTerm {
    /// How many units.
    pub amount: u32,
    /// Months or years.
    pub unit: TermUnit,
}

impl ContractTerm {
    /// A term of `amount` units.
    pub fn new(amount: u32, unit: TermUnit) -> Self {
        Self { amount, unit }
    }

    /// The term in months, when the unit is known.
    pub fn months(&self) -> Option<u32> {
        match self.unit {
            TermUnit::Months => Some(self.amount),
            TermUnit::Years => self.amount.checked_mul(12),
            TermUnit::Unknown(_) => None,
        }
    }
}
