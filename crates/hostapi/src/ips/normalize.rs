//! Raw IP records → [`IpAddress`], and [`IpUpdate`] → the form the API takes.

use hostapi_raw_infra::types as raw;

use super::model::{AssignedServer, IpAddress, IpBilling, IpUpdate, ServerKind};
use crate::model::PrivateRackId;
use crate::wire::{self, At, FieldError};

/// An IP record of a bare metal server or of `PUT /v1/ips/{ip}`.
pub(crate) fn ip(raw: raw::Ip) -> Result<IpAddress, FieldError> {
    let details = raw.ip_details;
    let server = (raw.server_id.is_some()
        || raw.server_name.is_some()
        || raw.server_type.is_some())
    .then(|| AssignedServer {
        id: raw.server_id.map(|id| id.to_string()),
        name: wire::non_empty(raw.server_name),
        kind: wire::non_empty(raw.server_type).map(|t| ServerKind::from_wire(&t)),
    });
    let mut extra = wire::extra(raw.extra);
    let (gateway, netmask) = match details {
        Some(details) => {
            extra.extend(
                wire::extra(details.extra)
                    .into_iter()
                    .map(|(k, v)| (format!("ipDetails.{k}"), v)),
            );
            (
                wire::non_empty(details.gateway),
                wire::non_empty(details.netmask).or(wire::non_empty(details.mask)),
            )
        }
        None => (None, None),
    };
    Ok(IpAddress {
        ip: wire::ip_address(&raw.ip).at("ip")?,
        reverse_lookup: wire::non_empty(raw.reverse_lookup),
        null_routed: raw.null_routed,
        server,
        private_rack_id: None,
        gateway,
        netmask,
        billing: raw
            .billing_information
            .map(billing)
            .transpose()
            .at("billingInformation")?,
        extra,
    })
}

/// An IP record of a private rack.
pub(crate) fn rack_ip(raw: raw::PrivateRackIp) -> Result<IpAddress, FieldError> {
    Ok(IpAddress {
        ip: wire::ip_address(&raw.ip).at("ip")?,
        reverse_lookup: wire::non_empty(raw.reverse_lookup),
        null_routed: raw.null_routed,
        server: None,
        private_rack_id: raw
            .private_rack_id
            .map(|id| PrivateRackId::from_wire(id.to_string())),
        gateway: None,
        netmask: None,
        billing: raw
            .billing_information
            .map(billing)
            .transpose()
            .at("billingInformation")?,
        extra: wire::extra(raw.extra),
    })
}

fn billing(raw: raw::IpBillingInformation) -> Result<IpBilling, FieldError> {
    Ok(IpBilling {
        monthly_price: wire::optional(raw.price, wire::decimal).at("price")?,
        start_date: wire::optional(raw.start_date, wire::any_date).at("startDate")?,
        end_date: wire::optional(raw.end_date, wire::any_date).at("endDate")?,
        extra: wire::extra(raw.extra),
    })
}

/// The form of an IP update: exactly one field, booleans as 0/1.
pub(crate) fn form(update: &IpUpdate) -> raw::UpdateIpForm {
    match update {
        IpUpdate::ReverseLookup(name) => raw::UpdateIpForm {
            reverse_lookup: Some(name.clone()),
            null_routed: None,
        },
        IpUpdate::NullRouted(on) => raw::UpdateIpForm {
            reverse_lookup: None,
            null_routed: Some(i64::from(*on)),
        },
    }
}
