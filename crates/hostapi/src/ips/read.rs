//! IP records, in every view (see [`IpAddress`]), → the one model.

use std::borrow::Cow;
use std::net::IpAddr;

use crate::model::{AssignedServer, IpAddress, IpBilling, IpVisibility, ServerKind};
use crate::read::fields::integer_of;
use crate::read::shapes::wrapped;
use crate::read::text;
use crate::read::{Cursor, FieldError, Fields, Json};

/// `{ips:[{ip:…}]}`: the member the IPs are under.
pub(crate) const IPS: &str = "ips";

/// `{ip:…}` → the IP (also each item of the list).
pub(crate) fn wrapped_ip(cursor: &mut Cursor, json: Json<'_>) -> Result<IpAddress, FieldError> {
    wrapped(cursor, json, "ip", ip)
}

/// An IP record. Every view's spelling is read: `reverseLookup` or `reverseDNS`,
/// `nullRouted` or `isNulled`, `ipDetails.netmask` or `.mask`, the cloud's `type`
/// (PUBLIC/PRIVATE) and `version` (which the address itself says).
pub(crate) fn ip(f: &mut Fields<'_, '_>) -> Result<IpAddress, FieldError> {
    let address = address(f)?;
    Ok(ip_at(f, address))
}

/// The rest of an IP record, whose address is known (read from it, or the key it is
/// under).
fn ip_at(f: &mut Fields<'_, '_>, address: IpAddr) -> IpAddress {
    f.alias("reverseDNS", "reverseLookup");
    f.alias("isNulled", "nullRouted");
    // The address says its version: a `version` that agrees adds nothing, one that
    // does not is kept (with a warning).
    let version = if address.is_ipv4() { 4 } else { 6 };
    let _ = f.get("version", |json| match integer_of(json)? {
        Some(v) if v != version => Err(format!("expected {version} for {address}, found {v}")),
        _ => Ok(None::<()>),
    });
    let server_id = f.reference("serverId");
    let server_name = f.text("serverName");
    let server_kind = f.open_enum("serverType", ServerKind::from_wire);
    let server = (server_id.is_some() || server_name.is_some() || server_kind.is_some()).then_some(
        AssignedServer {
            id: server_id,
            name: server_name,
            kind: server_kind,
        },
    );
    let details = f.object("ipDetails", |d| {
        d.alias("mask", "netmask");
        (d.text("gateway"), d.text("netmask"), d.unread())
    });
    let mut record = IpAddress::bare(address);
    record.visibility = f.open_enum("type", IpVisibility::from_wire);
    record.reverse_dns = f.text("reverseLookup");
    record.null_routed = f.boolean("nullRouted");
    record.server = server;
    record.private_rack_id = f.reference("privateRackId");
    record.billing = f.object("billingInformation", billing);
    record.extra = f.unread();
    if let Some((gateway, netmask, rest)) = details {
        record.gateway = gateway;
        record.netmask = netmask;
        record
            .extra
            .extend(rest.into_iter().map(|(k, v)| (format!("ipDetails.{k}"), v)));
    }
    record
}

/// The address: the record's identity.
fn address(f: &mut Fields<'_, '_>) -> Result<IpAddr, FieldError> {
    f.identity("ip", |address| {
        address
            .parse()
            .map_err(|_| format!("expected an IP address, found {}", text::found(address)))
    })
}

fn billing(f: &mut Fields<'_, '_>) -> IpBilling {
    IpBilling {
        monthly_price: f.decimal("price"),
        start_date: f.parsed("startDate", text::any_date),
        end_date: f.parsed("endDate", text::any_date),
        extra: f.unread(),
    }
}

/// A v1 virtual server's `ipAddresses`: an array of `{ip, isNulled, reverseDNS}`, or an
/// object keyed by IP whose values are `{isNulled, reverseDNS}`. Both become one list.
pub(crate) fn assignments(f: &mut Fields<'_, '_>, key: &str) -> Vec<IpAddress> {
    let Some(value) = f.take(key) else {
        return Vec::new();
    };
    match value {
        Json::Object(members) => match addresses(&members) {
            Some(addresses) => f.cursor().within(key, |cursor| {
                let keyed = addresses.into_iter().zip(members);
                keyed
                    .enumerate()
                    .map(|(index, (address, (_, state)))| {
                        let state = state_members(state);
                        cursor
                            .at_index(index, |cursor| cursor.members(state, |f| ip_at(f, address)))
                    })
                    .collect()
            }),
            None => f.list_of(key, Json::Object(members), |cursor, item| {
                cursor.object(item, ip)
            }),
        },
        other => f.list_of(key, other, |cursor, item| cursor.object(item, ip)),
    }
}

/// The addresses an object is keyed by, when every key is one.
fn addresses(members: &[(Cow<'_, str>, Json<'_>)]) -> Option<Vec<IpAddr>> {
    members.iter().map(|(key, _)| key.parse().ok()).collect()
}

/// The members of the value under an address of the keyed shape: those of
/// `{isNulled, reverseDNS}`, none for nothing, and anything else kept as `state`.
fn state_members(state: Json<'_>) -> Vec<(Cow<'_, str>, Json<'_>)> {
    match state {
        Json::Object(members) => members,
        nothing if nothing.is_nothing() => Vec::new(),
        other => vec![(Cow::Borrowed("state"), other)],
    }
}
