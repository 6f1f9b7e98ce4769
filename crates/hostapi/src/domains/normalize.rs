//! Raw domain and DNS records → [`Domain`], [`DnsRecord`]; record changes → forms.

use hostapi_raw_infra::types as raw;

use super::model::{DnsRecord, DnsRecordType, DnsRecordUpdate, Domain, NewDnsRecord};
use crate::model::DnsRecordId;
use crate::transport::RecordList;
use crate::wire::{self, At, FieldError};

/// `{domains:[{domain:…}]}`: the domains.
pub(crate) const LIST: RecordList<raw::DomainWrapper, Domain> = RecordList::new("domains", single);

/// `{domain:…}` → the domain.
pub(crate) fn single(raw: raw::DomainWrapper) -> Result<Domain, FieldError> {
    domain(raw.domain).at("domain")
}

pub(crate) fn domain(raw: raw::Domain) -> Result<Domain, FieldError> {
    let name =
        wire::non_empty(Some(raw.domain)).ok_or_else(|| FieldError::missing().at("domain"))?;
    Ok(Domain {
        name,
        code: raw.code,
        status: wire::non_empty(raw.status),
        readable_status: wire::non_empty(raw.readable_status),
        ttl: raw.ttl.map(ttl).transpose().at("ttl")?,
        start_date: wire::optional(raw.start_date, wire::any_date).at("startDate")?,
        contract_term: raw
            .contract_term
            .map(contract_term)
            .transpose()
            .at("contractTerm")?
            .flatten(),
        monthly_price: raw
            .monthly_price
            .map(monthly_price)
            .transpose()
            .at("monthlyPrice")?
            .flatten(),
        editable: raw
            .is_editable
            .map(editable)
            .transpose()
            .at("isEditable")?
            .flatten(),
        extra: wire::extra(raw.extra),
    })
}

fn ttl(value: i64) -> Result<u32, FieldError> {
    u32::try_from(value)
        .map_err(|_| FieldError::new(format!("expected a TTL in seconds, found {value}")))
}

/// "1 year", "2 years", or an integer number of years; `""` is none.
fn contract_term(
    raw: raw::IntegerOrString,
) -> Result<Option<crate::model::ContractTerm>, FieldError> {
    match raw {
        raw::IntegerOrString::Int64(years) => wire::contract_term_years(years).map(Some),
        raw::IntegerOrString::String(text) => wire::optional(Some(text), wire::contract_term_text),
    }
}

/// A decimal string or a float, kept exact; `""` is none.
fn monthly_price(raw: raw::NumberOrString) -> Result<Option<rust_decimal::Decimal>, FieldError> {
    match raw {
        raw::NumberOrString::Double(value) => wire::decimal_from_f64(value).map(Some),
        raw::NumberOrString::String(text) => wire::optional(Some(text), wire::decimal),
    }
}

/// `true`/`false` or `"true"`/`"false"`; `""` is none.
fn editable(raw: raw::BooleanOrString) -> Result<Option<bool>, FieldError> {
    match raw {
        raw::BooleanOrString::Boolean(value) => Ok(Some(value)),
        raw::BooleanOrString::String(text) => wire::optional(Some(text), wire::boolean),
    }
}

/// `{dnsRecords:[{dnsRecord:…}]}`: the records.
pub(crate) const RECORDS: RecordList<raw::DnsRecordWrapper, DnsRecord> =
    RecordList::new("dnsRecords", single_record);

/// `{dnsRecord:…}` → the record.
pub(crate) fn single_record(raw: raw::DnsRecordWrapper) -> Result<DnsRecord, FieldError> {
    record(raw.dns_record).at("dnsRecord")
}

/// A record. The record view names the fields `host` and `content`; the update form
/// is documented with `name` and `data`, so a record using those names is read too.
pub(crate) fn record(mut raw: raw::DnsRecord) -> Result<DnsRecord, FieldError> {
    let id = match raw.id {
        raw::StringOrInteger::Int64(id) => id.to_string(),
        raw::StringOrInteger::String(id) => wire::non_empty(Some(id))
            .ok_or_else(|| FieldError::new("expected an id, found ``").at("id"))?,
    };
    let name = match raw.host {
        Some(host) => host,
        None => alternate_text(&mut raw.extra, "name")?
            .ok_or_else(|| FieldError::missing().at("host"))?,
    };
    let content = match raw.content {
        Some(content) => content,
        None => alternate_text(&mut raw.extra, "data")?
            .ok_or_else(|| FieldError::missing().at("content"))?,
    };
    let record_type = wire::non_empty(raw.type_)
        .map(|t| DnsRecordType::from_wire(&t))
        .ok_or_else(|| FieldError::missing().at("type"))?;
    let priority = raw
        .priority
        .map(|p| {
            u16::try_from(p).map_err(|_| {
                FieldError::new(format!("expected a priority from 0 to 65535, found {p}"))
            })
        })
        .transpose()
        .at("priority")?;
    Ok(DnsRecord {
        id: DnsRecordId::from_wire(id),
        name,
        record_type,
        content,
        priority,
        extra: wire::extra(raw.extra),
    })
}

/// A text field under a second spelling, taken out of the leftovers.
fn alternate_text(
    extra: &mut serde_json::Map<String, serde_json::Value>,
    key: &'static str,
) -> Result<Option<String>, FieldError> {
    match wire::take_extra(extra, key) {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(serde_json::Value::String(text)) => Ok(Some(text)),
        Some(other) => Err(FieldError::new(format!("expected text, found {other}")).at(key)),
    }
}

/// The create form: `host`, `type`, `content`, and `priority` when there is one.
pub(crate) fn create_form(record: &NewDnsRecord) -> raw::CreateDnsRecordForm {
    raw::CreateDnsRecordForm {
        host: record.name.clone(),
        type_: record.record_type.as_wire().to_owned(),
        content: record.content.clone(),
        priority: record.priority.map(i64::from),
    }
}

/// The update form. The docs name the fields `id, name, type, data, priority`; their
/// sample sends `id, host, type, content, priority`. Both spellings are sent with the
/// same values, so either reading of the server finds what it looks for.
pub(crate) fn update_form(id: i64, update: &DnsRecordUpdate) -> raw::UpdateDnsRecordForm {
    raw::UpdateDnsRecordForm {
        id,
        type_: update.record_type.as_wire().to_owned(),
        name: Some(update.name.clone()),
        host: Some(update.name.clone()),
        data: Some(update.content.clone()),
        content: Some(update.content.clone()),
        priority: update.priority.map(i64::from),
    }
}
