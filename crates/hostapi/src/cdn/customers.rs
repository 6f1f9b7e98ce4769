//! The CDN customer record, and a reseller's sub-customers.

use chrono::{DateTime, Utc};
use hostapi_raw_cdn::types as raw;
use schemars::JsonSchema;
use serde::Serialize;

use super::{Cdn, segment};
use crate::model::macros::id_type;
use crate::model::{CustomerNumber, Extra};
use crate::wire::{self, At, FieldError};
use crate::{Error, Secret};

id_type! {
    /// The numeric id of a CDN customer record (distinct from its
    /// [`CustomerNumber`], which is what the CDN paths name).
    CdnCustomerId
}

/// The CDN customer the client acts for.
///
/// Integer booleans (`active`, `reseller`) are `bool`s; `created_at` and `updated_at`,
/// Unix seconds on the wire, are UTC timestamps. Every field is optional because the
/// docs do not say which are always sent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct CdnCustomer {
    /// The record's numeric id.
    pub id: Option<CdnCustomerId>,
    /// The customer number.
    pub customer_number: Option<CustomerNumber>,
    /// The company name.
    pub company_name: Option<String>,
    /// The parent customer's number, when there is one (`""` on the wire means none).
    pub parent: Option<CustomerNumber>,
    /// Whether the customer is a reseller (and so has sub-customers).
    pub reseller: Option<bool>,
    /// Whether the customer is active.
    pub active: Option<bool>,
    /// The FTP quota, as sent (the docs give no unit).
    pub ftp_quota: Option<i64>,
    /// The customer secret that signs CDN calls: redacted unless exposed.
    pub api_secret: Option<Secret>,
    /// Notes.
    pub notes: Option<String>,
    /// When the record was created (`0` on the wire means not given).
    pub created_at: Option<DateTime<Utc>>,
    /// When the record was last updated (`0` on the wire means not given).
    pub updated_at: Option<DateTime<Utc>>,
    /// Fields the model does not name.
    #[serde(skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

/// A reseller's sub-customer.
///
/// The service answers sub-customers as `{<key>: {"0": …, "1": …}}`; the facade makes
/// that a list, ordered by the numeric index within each outer key, and keeps the
/// outer key in [`SubCustomer::group`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct SubCustomer {
    /// The sub-customer's customer number.
    pub customer_number: Option<CustomerNumber>,
    /// The outer key the answer files this sub-customer under. The docs do not say
    /// what it is (it is usually the reseller's customer number).
    pub group: String,
    /// The company name.
    pub company_name: Option<String>,
    /// Whether the sub-customer is itself a reseller.
    pub reseller: Option<bool>,
    /// Whether the sub-customer is active.
    pub active: Option<bool>,
    /// The FTP quota, as sent (the docs give no unit).
    pub ftp_quota: Option<i64>,
    /// The sub-customer's secret: redacted unless exposed.
    pub api_secret: Option<Secret>,
    /// Notes.
    pub notes: Option<String>,
    /// Fields the model does not name.
    #[serde(skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

/// What [`Cdn::upsert_sub_customer`] sets on a sub-customer. Fields left `None` are
/// not sent. The docs' samples send `active` and `ftp_quota`; the other fields of the
/// record are accepted too. The sub-customer's number is the call's argument, and its
/// secret is the service's to issue, so neither is here.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct SubCustomerUpdate {
    /// Whether the sub-customer is active (sent as 1 or 0).
    pub active: Option<bool>,
    /// The FTP quota (the docs give no unit).
    pub ftp_quota: Option<u64>,
    /// Whether the sub-customer is a reseller (sent as 1 or 0).
    pub reseller: Option<bool>,
    /// The company name.
    pub company_name: Option<String>,
    /// Notes.
    pub notes: Option<String>,
}

impl SubCustomerUpdate {
    /// An update that sets nothing yet; set the fields to change.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets whether the sub-customer is active.
    pub fn active(mut self, active: bool) -> Self {
        self.active = Some(active);
        self
    }

    /// Sets the FTP quota.
    pub fn ftp_quota(mut self, quota: u64) -> Self {
        self.ftp_quota = Some(quota);
        self
    }

    /// Sets whether the sub-customer is a reseller.
    pub fn reseller(mut self, reseller: bool) -> Self {
        self.reseller = Some(reseller);
        self
    }

    /// Sets the company name.
    pub fn company_name(mut self, name: impl Into<String>) -> Self {
        self.company_name = Some(name.into());
        self
    }

    /// Sets the notes.
    pub fn notes(mut self, notes: impl Into<String>) -> Self {
        self.notes = Some(notes.into());
        self
    }
}

impl Cdn<'_> {
    /// Reads the customer record. `limit` and `offset` go into the path as the docs
    /// require (their samples use 20 and 0); the docs do not say what they page over.
    pub async fn customer(&self, limit: u32, offset: u32) -> Result<CdnCustomer, Error> {
        let signed = self.signed()?;
        let call = self
            .handle
            .cdn()
            .get_customer()
            .customer_number(signed.customer)
            .limit(i64::from(limit))
            .offset(i64::from(offset))
            .timestamp(signed.timestamp)
            .signature(signed.signature)
            .send();
        self.handle
            .json("getCustomer", call)
            .await?
            .normalize(|raw| customer(raw.success).at("success"))
    }

    /// Reads a sub-customer of the (reseller) customer. The service answers an indexed
    /// collection rather than one record, so this answers a list (usually of one).
    pub async fn sub_customer(&self, number: &CustomerNumber) -> Result<Vec<SubCustomer>, Error> {
        segment("number", number.as_str())?;
        let signed = self.signed()?;
        let call = self
            .handle
            .cdn()
            .get_sub_customer()
            .customer_number(signed.customer)
            .sub_customer_number(number.as_str())
            .timestamp(signed.timestamp)
            .signature(signed.signature)
            .send();
        self.handle
            .json("getSubCustomer", call)
            .await?
            .normalize(sub_customers)
    }

    /// Creates the sub-customer `number` of the (reseller) customer, or updates it
    /// when it exists, with the fields `update` sets (form-encoded; booleans as 1 or
    /// 0). Answers the sub-customer(s) as the service then has them.
    ///
    /// Refused before sending: an update that sets nothing, an FTP quota beyond what
    /// the wire's integer holds.
    pub async fn upsert_sub_customer(
        &self,
        number: &CustomerNumber,
        update: &SubCustomerUpdate,
    ) -> Result<Vec<SubCustomer>, Error> {
        segment("number", number.as_str())?;
        let form = sub_customer_form(update)?;
        let signed = self.signed()?;
        let call = self
            .handle
            .cdn()
            .upsert_sub_customer()
            .customer_number(signed.customer)
            .sub_customer_number(number.as_str())
            .timestamp(signed.timestamp)
            .signature(signed.signature)
            .body(form)
            .send();
        self.handle
            .json("upsertSubCustomer", call)
            .await?
            .normalize(sub_customers)
    }
}

/// Unix seconds → a UTC timestamp; `0` (and absence) means not given.
pub(super) fn unix_time(value: Option<i64>) -> Result<Option<DateTime<Utc>>, FieldError> {
    match value {
        None | Some(0) => Ok(None),
        Some(seconds) if seconds < 0 => Err(FieldError::new(format!(
            "expected Unix seconds (a positive integer), found {seconds}"
        ))),
        Some(seconds) => DateTime::from_timestamp(seconds, 0)
            .map(Some)
            .ok_or_else(|| {
                FieldError::new(format!("{seconds} is out of range for a Unix timestamp"))
            }),
    }
}

pub(crate) fn customer(raw: raw::Customer) -> Result<CdnCustomer, FieldError> {
    Ok(CdnCustomer {
        id: raw.id.map(|id| CdnCustomerId::from_wire(id.to_string())),
        customer_number: wire::non_empty(raw.customer_number).map(CustomerNumber::from_wire),
        company_name: wire::non_empty(raw.company_name),
        parent: wire::non_empty(raw.parent).map(CustomerNumber::from_wire),
        reseller: raw.reseller.map(wire::boolean_from_integer),
        active: raw.active.map(wire::boolean_from_integer),
        ftp_quota: raw.ftp_quota,
        api_secret: wire::non_empty(raw.api_secret).map(Secret::new),
        notes: wire::non_empty(raw.notes),
        created_at: unix_time(raw.created_at).at("created_at")?,
        updated_at: unix_time(raw.updated_at).at("updated_at")?,
        extra: wire::extra(raw.extra),
    })
}

/// `{success: {<key>: {"0": …, "1": …}}}` → one list: outer keys in wire order, each
/// group ordered by its numeric index (so "10" comes after "2").
pub(crate) fn sub_customers(raw: raw::SubCustomerWrapper) -> Result<Vec<SubCustomer>, FieldError> {
    let mut out = Vec::new();
    for (group, indexed) in raw.success.0 {
        let mut entries = Vec::with_capacity(indexed.0.len());
        for (key, record) in indexed.0 {
            let index: u64 = key.trim().parse().map_err(|_| {
                FieldError::new(format!(
                    "expected an index key like \"0\", found `{}`",
                    key.escape_debug()
                ))
                .at(key.clone())
                .at(group.clone())
                .at("success")
            })?;
            entries.push((index, key, record));
        }
        // Stable: equal indexes ("1" and "01") keep their wire order.
        entries.sort_by_key(|(index, _, _)| *index);
        for (_, key, record) in entries {
            let sub = sub_customer(record, &group)
                .at(key)
                .at(group.clone())
                .at("success")?;
            out.push(sub);
        }
    }
    Ok(out)
}

fn sub_customer(raw: raw::SubCustomer, group: &str) -> Result<SubCustomer, FieldError> {
    Ok(SubCustomer {
        customer_number: wire::non_empty(raw.customer_number).map(CustomerNumber::from_wire),
        group: group.to_owned(),
        company_name: wire::non_empty(raw.company_name),
        reseller: raw.reseller.map(wire::boolean_from_integer),
        active: raw.active.map(wire::boolean_from_integer),
        ftp_quota: raw.ftp_quota,
        api_secret: wire::non_empty(raw.api_secret).map(Secret::new),
        notes: wire::non_empty(raw.notes),
        extra: wire::extra(raw.extra),
    })
}

/// The form of a sub-customer write: only the fields the update sets, booleans as 0/1.
fn sub_customer_form(update: &SubCustomerUpdate) -> Result<raw::SubCustomerForm, Error> {
    let SubCustomerUpdate {
        active,
        ftp_quota,
        reseller,
        company_name,
        notes,
    } = update;
    if active.is_none()
        && ftp_quota.is_none()
        && reseller.is_none()
        && company_name.is_none()
        && notes.is_none()
    {
        return Err(Error::invalid("update", "sets nothing"));
    }
    let ftp_quota = ftp_quota
        .map(|quota| {
            i64::try_from(quota).map_err(|_| {
                Error::invalid("ftp_quota", format!("{quota} is larger than {}", i64::MAX))
            })
        })
        .transpose()?;
    Ok(raw::SubCustomerForm {
        active: active.map(i64::from),
        api_secret: None,
        company_name: company_name.clone(),
        customer_number: None,
        ftp_quota,
        notes: notes.clone(),
        reseller: reseller.map(i64::from),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unix_seconds_become_utc_timestamps() {
        assert_eq!(
            unix_time(Some(1_700_000_000))
                .unwrap()
                .unwrap()
                .to_rfc3339(),
            "2023-11-14T22:13:20+00:00"
        );
        assert_eq!(unix_time(Some(0)), Ok(None));
        assert_eq!(unix_time(None), Ok(None));
        assert!(unix_time(Some(-5)).is_err());
        assert!(unix_time(Some(i64::MAX)).is_err());
    }

    #[test]
    fn groups_keep_wire_order_and_each_is_ordered_by_index() {
        // From text: a `serde_json::Value` would sort the keys.
        let raw: raw::SubCustomerWrapper = serde_json::from_str(
            r#"{"success": {
                "R2": {"2": {"customer_number": "b2"}, "01": {"customer_number": "b1"}},
                "R1": {"10": {"customer_number": "a10"}, "9": {"customer_number": "a9"},
                       "1": {"customer_number": "a1"}}
            }}"#,
        )
        .unwrap();
        let subs = sub_customers(raw).unwrap();
        let seen: Vec<(String, String)> = subs
            .iter()
            .map(|s| {
                let number = s.customer_number.as_ref().unwrap().to_string();
                (s.group.clone(), number)
            })
            .collect();
        let expected = [
            ("R2", "b1"),
            ("R2", "b2"),
            ("R1", "a1"),
            ("R1", "a9"),
            ("R1", "a10"),
        ];
        assert_eq!(seen, expected.map(|(g, n)| (g.to_owned(), n.to_owned())));
    }

    #[test]
    fn an_update_must_set_something() {
        let err = sub_customer_form(&SubCustomerUpdate::new()).unwrap_err();
        assert!(matches!(&err, Error::InvalidInput { argument, .. } if argument == "update"));
        let err = sub_customer_form(&SubCustomerUpdate::new().ftp_quota(u64::MAX)).unwrap_err();
        assert!(matches!(&err, Error::InvalidInput { argument, .. } if argument == "ftp_quota"));
    }
}
