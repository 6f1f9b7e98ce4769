//! Domain and DNS record answers → [`Domain`], [`DnsRecord`].

use super::model::{DnsRecord, DnsRecordType, Domain};
use crate::read::shapes::wrapped;
use crate::read::text;
use crate::read::{Cursor, FieldError, Fields, Json};

/// `{domains:[{domain:…}]}`: the member the domains are under.
pub(crate) const DOMAINS: &str = "domains";

/// `{dnsRecords:[{dnsRecord:…}]}`: the member the records are under.
pub(crate) const RECORDS: &str = "dnsRecords";

/// `{domain:…}` → the domain (also each item of the list).
pub(crate) fn wrapped_domain(cursor: &mut Cursor, json: Json<'_>) -> Result<Domain, FieldError> {
    wrapped(cursor, json, "domain", domain)
}

/// `{dnsRecord:…}` → the record (also each item of the list).
pub(crate) fn wrapped_record(cursor: &mut Cursor, json: Json<'_>) -> Result<DnsRecord, FieldError> {
    wrapped(cursor, json, "dnsRecord", record)
}

/// A domain. `contractTerm` is "1 year", "2 years" or a number of years; `monthlyPrice`
/// a decimal in text or a number; `isEditable` a boolean in any spelling.
pub(crate) fn domain(f: &mut Fields<'_, '_>) -> Result<Domain, FieldError> {
    Ok(Domain {
        name: f.id("domain")?,
        code: f.integer("code"),
        status: f.text("status"),
        readable_status: f.text("readableStatus"),
        ttl: f.integer("ttl"),
        start_date: f.parsed("startDate", text::any_date),
        contract_term: f.parsed("contractTerm", text::contract_term),
        monthly_price: f.decimal("monthlyPrice"),
        editable: f.boolean("isEditable"),
        extra: f.unread(),
    })
}

/// A record. The record view names the fields `host` and `content`; the update form
/// is documented with `name` and `data`, so a record using those names is read too.
pub(crate) fn record(f: &mut Fields<'_, '_>) -> Result<DnsRecord, FieldError> {
    f.alias("name", "host");
    f.alias("data", "content");
    Ok(DnsRecord {
        id: f.id("id")?,
        name: f.text("host").unwrap_or_default(),
        record_type: f.open_enum("type", DnsRecordType::from_wire),
        content: f.text("content").unwrap_or_default(),
        priority: f.integer("priority"),
        extra: f.unread(),
    })
}
