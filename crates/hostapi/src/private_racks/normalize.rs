//! Raw private rack records → [`PrivateRack`].

use hostapi_raw_infra::types as raw;

use super::model::{PrivateRack, RackContract, RackLocation};
use crate::model::{Extra, PrivateRackId};
use crate::transport::RecordList;
use crate::wire::{self, At, FieldError};

/// `{privateRacks:[{privateRack:{privateRackId}}]}`: racks carrying only their id.
pub(crate) const LIST: RecordList<raw::PrivateRackListItemWrapper, PrivateRack> =
    RecordList::new("privateRacks", list_item);

fn list_item(item: raw::PrivateRackListItemWrapper) -> Result<PrivateRack, FieldError> {
    let mut extra = wire::extra(item.extra);
    let rack = item.private_rack;
    extra.extend(wire::extra(rack.extra));
    Ok(PrivateRack {
        id: rack_id(rack.private_rack_id)
            .at("privateRackId")
            .at("privateRack")?,
        name: None,
        location: None,
        contract: None,
        sla: None,
        extra,
    })
}

/// `{privateRack:…}` → the rack.
pub(crate) fn single(raw: raw::PrivateRackWrapper) -> Result<PrivateRack, FieldError> {
    let mut extra = wire::extra(raw.extra);
    let rack = raw.private_rack;
    let id = rack_id(rack.private_rack_id)
        .at("privateRackId")
        .at("privateRack")?;
    let name = wire::non_empty(rack.private_rack_name);
    let contract = rack
        .server_hosting_pack
        .map(|pack| contract(pack, &id, name.as_deref()))
        .transpose()
        .at("serverHostingPack")
        .at("privateRack")?;
    let mut sla = None;
    if let Some(agreement) = rack.service_level_agreement {
        sla = wire::non_empty(agreement.sla);
        let mut rest = wire::extra(agreement.extra);
        if let Some(price) = agreement.price_per_month {
            rest.insert("pricePerMonth".into(), serde_json::json!(price));
        }
        extra.extend(prefixed("serviceLevelAgreement", rest));
    }
    extra.extend(wire::extra(rack.extra));
    Ok(PrivateRack {
        id,
        name,
        location: rack.location.map(location),
        contract,
        sla,
        extra,
    })
}

/// A rack id, a string in lists and an integer in the detail.
pub(crate) fn rack_id(raw: raw::StringOrInteger) -> Result<PrivateRackId, FieldError> {
    match raw {
        raw::StringOrInteger::Int64(id) => Ok(PrivateRackId::from_wire(id.to_string())),
        raw::StringOrInteger::String(id) => wire::non_empty(Some(id))
            .map(PrivateRackId::from_wire)
            .ok_or_else(|| FieldError::new("expected an id, found ``")),
    }
}

fn location(raw: raw::PrivateRackLocation) -> RackLocation {
    RackLocation {
        site: wire::non_empty(raw.site),
        suite: wire::non_empty(raw.suite),
        cabinet: wire::non_empty(raw.cabinet),
        extra: wire::extra(raw.extra),
    }
}

fn contract(
    raw: raw::PrivateRackHostingPack,
    id: &PrivateRackId,
    name: Option<&str>,
) -> Result<RackContract, FieldError> {
    let mut extra = wire::extra(raw.extra);
    // The pack repeats the rack's id and name: keep them only when they say otherwise.
    if let Some(pack_id) = raw.private_rack_id
        && pack_id.to_string() != id.as_str()
    {
        extra.insert(
            "privateRackId".into(),
            serde_json::Value::String(pack_id.to_string()),
        );
    }
    if let Some(pack_name) = wire::non_empty(raw.private_rack_name)
        && Some(pack_name.as_str()) != name
    {
        extra.insert(
            "privateRackName".into(),
            serde_json::Value::String(pack_name),
        );
    }
    Ok(RackContract {
        reference: wire::non_empty(raw.reference),
        start_date: wire::optional(raw.start_date, wire::any_date).at("startDate")?,
        end_date: wire::optional(raw.end_date, wire::any_date).at("endDate")?,
        extra,
    })
}

/// Leftover fields of a nested object, named `<object>.<key>` in the parent's extra.
fn prefixed(object: &str, fields: Extra) -> impl Iterator<Item = (String, serde_json::Value)> {
    fields
        .into_iter()
        .map(move |(key, value)| (format!("{object}.{key}"), value))
}
