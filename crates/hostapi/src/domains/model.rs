//! Domains and DNS records as the facade presents them.

use std::net::{Ipv4Addr, Ipv6Addr};

use chrono::NaiveDate;
use rust_decimal::Decimal;
#[cfg(feature = "schema")]
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::Error;
use crate::model::macros::{constructor, open_enum};
use crate::model::{ContractTerm, DnsRecordId, DomainName, Extra};
use crate::validate;

/// The domain `code` that means "normal"; any other value is an error state.
pub const DOMAIN_CODE_NORMAL: i64 = 1000;

/// A domain name registered with the service.
///
/// The wire's loose shapes are normalised: `contractTerm` ("1 year", "2 years" or an
/// integer number of years) becomes a [`ContractTerm`], `monthlyPrice` (a decimal
/// string or a float) an exact decimal, `isEditable` ("true"/"false" or a boolean) a
/// `bool`, and `startDate` (`Mon d, yyyy`) a date.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct Domain {
    /// The domain name, e.g. `example.com`.
    pub name: DomainName,
    /// The service's status code: 1000 ([`DOMAIN_CODE_NORMAL`]) is normal, anything
    /// else an error state (see [`Domain::is_normal`]). `None` when the record gives
    /// none.
    pub code: Option<i64>,
    /// The status, as the service words it (values not documented).
    pub status: Option<String>,
    /// The long, readable status.
    pub readable_status: Option<String>,
    /// The TTL of the domain's records, in seconds (records have no TTL of their own).
    pub ttl: Option<u32>,
    /// Contract start.
    pub start_date: Option<NaiveDate>,
    /// The contract term.
    pub contract_term: Option<ContractTerm>,
    /// The monthly price (no currency given).
    #[cfg_attr(feature = "schema", schemars(with = "Option<String>"))]
    #[serde(with = "rust_decimal::serde::str_option")]
    pub monthly_price: Option<Decimal>,
    /// Whether the domain (its TTL and records) may be changed.
    pub editable: Option<bool>,
    /// Fields the model does not name.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

constructor! {
    /// A domain known by its name only (set the other fields as needed).
    Domain(name: DomainName) { code, status, readable_status, ttl, start_date, contract_term, monthly_price, editable, extra }
}

impl Domain {
    /// Whether the domain is in its normal state: `code` is 1000, or absent (the
    /// service flags error states with a code, so no code is taken as no error).
    pub fn is_normal(&self) -> bool {
        self.code.is_none_or(|code| code == DOMAIN_CODE_NORMAL)
    }
}

open_enum! {
    /// The type of a DNS record. The API's list is open-ended: a type not named here is
    /// kept as [`DnsRecordType::Unknown`] and can be created and updated all the same.
    /// Known types serialise in upper case, as DNS writes them (`A`, `MX`); a type not
    /// named here keeps the letter case the service or the caller gave it.
    DnsRecordType (upper) {
        /// IPv4 address.
        A = "A" => "A",
        /// IPv6 address.
        Aaaa = "AAAA" => "AAAA",
        /// Canonical name (alias).
        Cname = "CNAME" => "CNAME",
        /// Mail exchanger (has a priority).
        Mx = "MX" => "MX",
        /// Service locator (has a priority).
        Srv = "SRV" => "SRV",
        /// Text.
        Txt = "TXT" => "TXT",
        /// Name server.
        Ns = "NS" => "NS",
        /// Certification authority authorisation.
        Caa = "CAA" => "CAA",
        /// Pointer (reverse DNS).
        Ptr = "PTR" => "PTR",
        /// Sender policy framework (legacy type).
        Spf = "SPF" => "SPF",
        /// Start of authority.
        Soa = "SOA" => "SOA",
    }
}

impl DnsRecordType {
    /// Whether records of this type carry a priority (MX and SRV).
    pub fn has_priority(&self) -> bool {
        matches!(self, Self::Mx | Self::Srv)
    }
}

/// A DNS record of a domain.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct DnsRecord {
    /// The record's id (an integer sent as a string or as a number).
    pub id: DnsRecordId,
    /// The record's name (the wire's `host`; `name` is read too). Empty when the
    /// service gives none.
    pub name: String,
    /// The record's type; `None` when the service gives none (such a record cannot be
    /// changed as it is).
    #[serde(rename = "type")]
    pub record_type: Option<DnsRecordType>,
    /// The record's value (the wire's `content`; `data` is read too). Empty when the
    /// service gives none.
    pub content: String,
    /// The priority, for MX and SRV records; `None` otherwise.
    pub priority: Option<u16>,
    /// Fields the model does not name.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

impl DnsRecord {
    /// A record without a priority (set [`priority`](Self::priority) for MX and SRV
    /// records) and with nothing kept in `extra`.
    pub fn new(
        id: DnsRecordId,
        name: impl Into<String>,
        record_type: DnsRecordType,
        content: impl Into<String>,
    ) -> Self {
        Self {
            id,
            name: name.into(),
            record_type: Some(record_type),
            content: content.into(),
            priority: None,
            extra: Extra::new(),
        }
    }
}

/// A DNS record to create, or the new content of one to update (an update replaces
/// the name, type, value and priority together).
///
/// ```
/// use hostapi::domains::{DnsRecordType, NewDnsRecord};
/// let mx = NewDnsRecord::new("example.com", DnsRecordType::Mx, "mail.example.com").priority(10);
/// let www = NewDnsRecord::new("www.example.com", DnsRecordType::A, "192.0.2.10");
/// # let _ = (mx, www);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct NewDnsRecord {
    /// The record's name; not blank.
    pub name: String,
    /// The record's type.
    pub record_type: DnsRecordType,
    /// The record's value; not blank, and an IPv4 (A) or IPv6 (AAAA) address for
    /// address records.
    pub content: String,
    /// The priority: required for MX and SRV records, refused for every other type.
    pub priority: Option<u16>,
}

impl NewDnsRecord {
    /// Checks the record as it would be sent (the rules of
    /// [`DnsRecords::create`](crate::DnsRecords::create)), without sending it.
    pub fn validate(&self) -> Result<(), Error> {
        validate_record(&self.name, &self.record_type, &self.content, self.priority)
    }

    /// A record without a priority (add one with [`NewDnsRecord::priority`] for MX and
    /// SRV records).
    pub fn new(
        name: impl Into<String>,
        record_type: DnsRecordType,
        content: impl Into<String>,
    ) -> Self {
        Self {
            name: name.into(),
            record_type,
            content: content.into(),
            priority: None,
        }
    }

    /// The same record with a priority (MX and SRV only).
    pub fn priority(mut self, priority: u16) -> Self {
        self.priority = Some(priority);
        self
    }
}

impl NewDnsRecord {
    /// The record as it is now, to change into an update; `None` for a record without a
    /// type.
    pub fn from_record(record: &DnsRecord) -> Option<Self> {
        Some(Self {
            name: record.name.clone(),
            record_type: record.record_type.clone()?,
            content: record.content.clone(),
            priority: record.priority,
        })
    }

    /// Whether `record` holds exactly this name, type, value and priority (names and
    /// types compared without regard to letter case, and a final dot ignored).
    pub fn matches(&self, record: &DnsRecord) -> bool {
        let name = |n: &str| n.trim_end_matches('.').to_ascii_lowercase();
        name(&self.name) == name(&record.name)
            && record.record_type.as_ref() == Some(&self.record_type)
            && self.content == record.content
            && self.priority == record.priority
    }
}

/// Checks a record's fields before they are sent: the name and value are not blank,
/// the type is a single word, address records hold an address of their family, and a
/// priority is given exactly for MX and SRV records (whose priority the service
/// needs; the docs say it is absent for other types).
pub(crate) fn validate_record(
    name: &str,
    record_type: &DnsRecordType,
    content: &str,
    priority: Option<u16>,
) -> Result<(), Error> {
    validate::not_blank("name", name)?;
    if name.chars().any(char::is_control) {
        return Err(Error::invalid("name", "contains a control character"));
    }
    let wire_type = record_type.as_wire();
    if wire_type.is_empty() || !wire_type.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err(Error::invalid(
            "record_type",
            format!(
                "`{}` is not a record type (letters and digits, like MX)",
                wire_type.escape_debug()
            ),
        ));
    }
    validate::not_blank("content", content)?;
    match record_type {
        DnsRecordType::A if content.trim().parse::<Ipv4Addr>().is_err() => {
            return Err(Error::invalid(
                "content",
                format!(
                    "`{}` is not an IPv4 address (an A record holds one)",
                    content.escape_debug()
                ),
            ));
        }
        DnsRecordType::Aaaa if content.trim().parse::<Ipv6Addr>().is_err() => {
            return Err(Error::invalid(
                "content",
                format!(
                    "`{}` is not an IPv6 address (an AAAA record holds one)",
                    content.escape_debug()
                ),
            ));
        }
        _ => {}
    }
    match (record_type.has_priority(), priority) {
        (true, None) => Err(Error::invalid(
            "priority",
            format!("is required for {wire_type} records"),
        )),
        (false, Some(_)) => Err(Error::invalid(
            "priority",
            format!("only MX and SRV records have one, not {wire_type} records"),
        )),
        _ => Ok(()),
    }
}

crate::read::shapes::has_extra!(Domain, DnsRecord);
