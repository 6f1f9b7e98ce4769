//! The CDN customer record, and a reseller's sub-customers.

use chrono::{DateTime, Utc};
use hostapi_raw_cdn::types as raw;
#[cfg(feature = "schema")]
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{payload, segment, signing};
use crate::handle::{Handle, retry_unsafe_option};
use crate::model::macros::id_type;
use crate::model::{CustomerNumber, Extra};
use crate::read::fields::integer_of;
use crate::read::{Cursor, FieldError, Fields, Json};
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
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
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
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

/// A reseller's sub-customer.
///
/// The service answers sub-customers as `{<key>: {"0": …, "1": …}}`; the facade makes
/// that a list, ordered by the numeric index within each outer key, and keeps the
/// outer key in [`SubCustomer::group`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct SubCustomer {
    /// The sub-customer's customer number (what identifies it).
    pub customer_number: CustomerNumber,
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
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

/// What [`SubCustomers::update`] sets on a sub-customer. Fields left `None` are
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

/// The customer the client acts for ([`Cdn::customers`](super::Cdn::customers)).
#[derive(Debug, Clone)]
pub struct CdnCustomers {
    pub(crate) handle: Handle,
}

impl CdnCustomers {
    retry_unsafe_option!();

    /// Reads the configured customer. The path carries `limit` and `offset` segments
    /// (the documents' samples: 20 and 0) whose meaning the documents do not give; these
    /// are sent.
    pub async fn get(&self) -> Result<CdnCustomer, Error> {
        let signed = signing(&self.handle)?;
        let cdn = self.handle.cdn();
        let answer = self
            .handle
            .call_cdn(|| {
                cdn.get_customer()
                    .customer_number(signed.customer)
                    .limit(20)
                    .offset(0)
                    .timestamp(signed.timestamp())
                    .signature(signed.signature())
            })
            .await?;
        answer.one(customer_answer)
    }
}

/// The sub-customers of a reseller ([`Cdn::sub_customers`](super::Cdn::sub_customers)).
#[derive(Debug, Clone)]
pub struct SubCustomers {
    pub(crate) handle: Handle,
}

impl SubCustomers {
    retry_unsafe_option!();

    /// Reads one sub-customer of the configured reseller.
    pub async fn get(&self, number: &CustomerNumber) -> Result<SubCustomer, Error> {
        segment("number", number.as_str())?;
        let signed = signing(&self.handle)?;
        let cdn = self.handle.cdn();
        let answer = self
            .handle
            .call_cdn(|| {
                cdn.get_sub_customer()
                    .customer_number(signed.customer)
                    .sub_customer_number(number.as_str())
                    .timestamp(signed.timestamp())
                    .signature(signed.signature())
            })
            .await?;
        answer
            .one(|cursor, body| payload(cursor, body, |cursor, json| the_one(cursor, json, number)))
    }

    /// Creates or updates a sub-customer (the API has one call for both) and answers it
    /// as it now is. An update must set something.
    pub async fn update(
        &self,
        number: &CustomerNumber,
        update: &SubCustomerUpdate,
    ) -> Result<SubCustomer, Error> {
        segment("number", number.as_str())?;
        let form = sub_customer_form(update)?;
        let signed = signing(&self.handle)?;
        let cdn = self.handle.cdn();
        let answer = self
            .handle
            .call_cdn(|| {
                cdn.upsert_sub_customer()
                    .customer_number(signed.customer)
                    .sub_customer_number(number.as_str())
                    .timestamp(signed.timestamp())
                    .signature(signed.signature())
                    .body(form.clone())
            })
            .await?;
        answer
            .one(|cursor, body| payload(cursor, body, |cursor, json| the_one(cursor, json, number)))
    }
}

/// `{success: customer}` → the customer.
pub(crate) fn customer_answer(
    cursor: &mut Cursor,
    body: Json<'_>,
) -> Result<CdnCustomer, FieldError> {
    payload(cursor, body, |cursor, json| cursor.object(json, customer))
}

/// `<seconds>` → a time; 0 is none.
fn unix_time(f: &mut Fields<'_, '_>, key: &str) -> Option<DateTime<Utc>> {
    f.get(key, |json| match integer_of(json)? {
        None | Some(0) => Ok(None),
        Some(seconds) => i64::try_from(seconds)
            .map_err(|_| format!("expected Unix seconds, found {seconds} (out of range)"))
            .and_then(crate::read::text::unix_seconds)
            .map(|time| Some(time.to_utc())),
    })
}

fn customer(f: &mut Fields<'_, '_>) -> Result<CdnCustomer, FieldError> {
    Ok(CdnCustomer {
        id: f.reference("id"),
        customer_number: f.reference("customer_number"),
        company_name: f.text("companyName"),
        parent: f.reference("parent"),
        reseller: f.boolean("reseller"),
        active: f.boolean("active"),
        ftp_quota: f.integer("ftp_quota"),
        api_secret: f.secret("api_secret"),
        notes: f.text("notes"),
        created_at: unix_time(f, "created_at"),
        updated_at: unix_time(f, "updated_at"),
        extra: f.unread(),
    })
}

/// `{<group>: {"0": sub-customer, "1": …}}` → the sub-customers, in group order and by
/// index within each group.
pub(crate) fn sub_customers(
    cursor: &mut Cursor,
    json: Json<'_>,
) -> Result<Vec<SubCustomer>, FieldError> {
    let Json::Object(groups) = json else {
        return Err(cursor.error(
            "",
            format!("expected sub-customers by group, found {}", json.shown()),
        ));
    };
    let mut out = Vec::new();
    for (group, indexed) in groups {
        let group_name = group.to_string();
        let mut fields = cursor.within(&group_name, |cursor| {
            cursor.object(Json::Object(vec![("items".into(), indexed)]), |f| {
                Ok(f.objects("items", |s| sub_customer(s, &group_name)))
            })
        })?;
        out.append(&mut fields);
    }
    Ok(out)
}

/// The sub-customer numbered `number` of an answer (or its only one).
pub(crate) fn the_one(
    cursor: &mut Cursor,
    json: Json<'_>,
    number: &CustomerNumber,
) -> Result<SubCustomer, FieldError> {
    let mut all = sub_customers(cursor, json)?;
    let count = all.len();
    let position = all
        .iter()
        .position(|s| &s.customer_number == number)
        .or((count == 1).then_some(0));
    position.map(|p| all.swap_remove(p)).ok_or_else(|| {
        cursor.error(
            "",
            format!("expected sub-customer {number}, found {count} other(s)"),
        )
    })
}

fn sub_customer(f: &mut Fields<'_, '_>, group: &str) -> Result<SubCustomer, FieldError> {
    Ok(SubCustomer {
        customer_number: f.id("customer_number")?,
        group: group.to_owned(),
        company_name: f.text("companyName"),
        reseller: f.boolean("reseller"),
        active: f.boolean("active"),
        ftp_quota: f.integer("ftp_quota"),
        api_secret: f.secret("api_secret"),
        notes: f.text("notes"),
        extra: f.unread(),
    })
}

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

crate::read::shapes::has_extra!(CdnCustomer, SubCustomer);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_keep_wire_order_and_each_is_ordered_by_index() {
        let body = br#"{
            "R2": {"2": {"customer_number": "b2"}, "01": {"customer_number": "b1"}},
            "R1": {"10": {"customer_number": "a10"}, "9": {"customer_number": "a9"}, "1": {"customer_number": "a1"}}
        }"#;
        let subs = sub_customers(
            &mut Cursor::default(),
            crate::read::json::parse(body).unwrap(),
        )
        .unwrap();
        let seen: Vec<(String, String)> = subs
            .iter()
            .map(|s| (s.group.clone(), s.customer_number.to_string()))
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
