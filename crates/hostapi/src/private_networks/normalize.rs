//! Raw private network records → [`PrivateNetwork`].

use hostapi_raw_infra::types as raw;
use rust_decimal::Decimal;

use super::model::{
    CreatedPrivateNetwork, NetworkMemberStatus, PrivateNetwork, PrivateNetworkMember,
};
use crate::model::{BareMetalId, BitRate, PrivateNetworkId, RateUnit};
use crate::wire::{self, At, FieldError};

pub(crate) fn list_item(raw: raw::PrivateNetworkListItem) -> Result<PrivateNetwork, FieldError> {
    Ok(PrivateNetwork {
        id: PrivateNetworkId::from_wire(raw.id.to_string()),
        name: wire::non_empty(raw.name),
        server_count: raw
            .server_count
            .map(wire::count)
            .transpose()
            .at("serverCount")?,
        customer_number: wire::non_empty(raw.customer_number),
        created_at: wire::optional(raw.created_at, wire::offset_date_time).at("createdAt")?,
        updated_at: wire::optional(raw.updated_at, wire::offset_date_time).at("updatedAt")?,
        members: None,
        extra: wire::extra(raw.extra),
    })
}

/// The array holding the detail → the network with the requested id. The docs say
/// the array holds the detail; should it hold several, the one asked for is taken.
pub(crate) fn single(
    raw: raw::PrivateNetworkArray,
    id: &PrivateNetworkId,
) -> Result<PrivateNetwork, FieldError> {
    let items = raw.0;
    let count = items.len();
    let position = if count == 1 {
        Some(0)
    } else {
        items.iter().position(|n| n.id.to_string() == id.as_str())
    };
    let Some(position) = position else {
        return Err(FieldError::new(format!(
            "expected the private network {id} in the array, found {count} other(s)"
        )));
    };
    match items.into_iter().nth(position) {
        Some(item) => detail(item).at_index(position),
        None => Err(FieldError::new(
            "the private network vanished from the array",
        )),
    }
}

fn detail(raw: raw::PrivateNetwork) -> Result<PrivateNetwork, FieldError> {
    Ok(PrivateNetwork {
        id: PrivateNetworkId::from_wire(raw.id.to_string()),
        name: wire::non_empty(raw.name),
        server_count: None,
        customer_number: None,
        created_at: None,
        updated_at: None,
        members: Some(wire::each(raw.bare_metals, member).at("bareMetals")?),
        extra: wire::extra(raw.extra),
    })
}

fn member(raw: raw::PrivateNetworkBareMetal) -> Result<PrivateNetworkMember, FieldError> {
    let id = match raw.id {
        Some(raw::StringOrInteger::Int64(id)) => Some(id.to_string()),
        Some(raw::StringOrInteger::String(id)) => wire::non_empty(Some(id)),
        None => None,
    }
    .ok_or_else(|| FieldError::missing().at("id"))?;
    Ok(PrivateNetworkMember {
        bare_metal_id: BareMetalId::from_wire(id),
        status: wire::non_empty(raw.status).map(|s| NetworkMemberStatus::from_wire(&s)),
        data_center: wire::non_empty(raw.data_center),
        cidr: wire::non_empty(raw.cidr),
        broadcast: wire::optional(raw.broadcast, wire::ip_address).at("broadcast")?,
        gateway: wire::optional(raw.gateway, wire::ip_address).at("gateway")?,
        netmask: wire::optional(raw.netmask, wire::ip_address).at("netmask")?,
        port_speed: wire::optional(raw.port_speed, port_speed).at("portSpeed")?,
        extra: wire::extra(raw.extra),
    })
}

/// A port speed: a bare number is in Mbps (`"1000"`); a number with a unit is read
/// with it (`"1 Gbps"`).
fn port_speed(text: &str) -> Result<BitRate, FieldError> {
    match wire::decimal(text) {
        Ok(amount) if amount >= Decimal::ZERO => Ok(BitRate {
            amount,
            unit: RateUnit::MegabitsPerSecond,
        }),
        _ => wire::bit_rate(text),
    }
}

/// `{id, message}` → the created network.
pub(crate) fn created(
    raw: raw::PrivateNetworkCreated,
) -> Result<CreatedPrivateNetwork, FieldError> {
    Ok(CreatedPrivateNetwork {
        id: PrivateNetworkId::from_wire(wire::required(raw.id, "id")?.to_string()),
        message: wire::non_empty(raw.message),
        extra: wire::extra(raw.extra),
    })
}
