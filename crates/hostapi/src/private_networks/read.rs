//! Private network answers → [`PrivateNetwork`].

use super::model::{
    CreatedPrivateNetwork, DeletedPrivateNetwork, NetworkMemberStatus, PrivateNetwork,
    PrivateNetworkMember,
};
use crate::model::{BitRate, PrivateNetworkId, RateUnit};
use crate::read::Records;
use crate::read::shapes::{list_metadata, list_under};
use crate::read::text::{self, Parsed};
use crate::read::{Cursor, FieldError, Fields, Json};

/// `{_metadata:{totalCount,…}, privateNetworks:[…]}`: where the networks are, and
/// the `totalCount` (into `total`) the pager follows.
pub(crate) fn networks<'a>(
    cursor: &mut Cursor,
    body: Json<'a>,
    total: &mut Option<u64>,
) -> Result<Records<'a>, FieldError> {
    cursor.object(body, |f| {
        let (count, metadata) = list_metadata(f);
        *total = count;
        let records = list_under(f, "privateNetworks")?;
        let mut extra = f.unread();
        extra.extend(metadata);
        Ok(Records {
            path: "privateNetworks".to_owned(),
            items: records,
            extra,
        })
    })
}

/// A list item: no members (the list view has none).
pub(crate) fn list_item(cursor: &mut Cursor, json: Json<'_>) -> Result<PrivateNetwork, FieldError> {
    cursor.object(json, |f| {
        Ok(PrivateNetwork {
            id: f.id("id")?,
            name: f.text("name"),
            server_count: f.integer("serverCount"),
            customer_number: f.text("customerNumber"),
            created_at: f.parsed("createdAt", text::offset_date_time),
            updated_at: f.parsed("updatedAt", text::offset_date_time),
            members: None,
            extra: f.unread(),
        })
    })
}

/// The array holding the detail → the network with the requested id (the documents
/// say the array holds the detail; should it hold several, the one asked for).
pub(crate) fn detail_in_array(
    id: &PrivateNetworkId,
) -> impl for<'a> FnOnce(&mut Cursor, Json<'a>) -> Result<PrivateNetwork, FieldError> + '_ {
    move |cursor, body| {
        let items = match body {
            Json::Array(items) => items,
            // A detail not wrapped in an array is read all the same.
            object @ Json::Object(_) => vec![object],
            other => {
                return Err(cursor.error(
                    "",
                    format!(
                        "expected an array holding the network, found {}",
                        other.shown()
                    ),
                ));
            }
        };
        let count = items.len();
        let mut networks = Vec::with_capacity(count);
        for (index, item) in items.into_iter().enumerate() {
            networks.push(cursor.within(&format!("[{index}]"), |cursor| detail(cursor, item))?);
        }
        let position = if count == 1 {
            Some(0)
        } else {
            networks.iter().position(|n| &n.id == id)
        };
        position.map(|p| networks.swap_remove(p)).ok_or_else(|| {
            cursor.error(
                "",
                format!("expected the private network {id} in the array, found {count} other(s)"),
            )
        })
    }
}

fn detail(cursor: &mut Cursor, json: Json<'_>) -> Result<PrivateNetwork, FieldError> {
    cursor.object(json, |f| {
        Ok(PrivateNetwork {
            id: f.id("id")?,
            name: f.text("name"),
            server_count: f.integer("serverCount"),
            customer_number: f.text("customerNumber"),
            created_at: f.parsed("createdAt", text::offset_date_time),
            updated_at: f.parsed("updatedAt", text::offset_date_time),
            members: Some(f.objects("bareMetals", member)),
            extra: f.unread(),
        })
    })
}

fn member(f: &mut Fields<'_, '_>) -> Result<PrivateNetworkMember, FieldError> {
    Ok(PrivateNetworkMember {
        bare_metal_id: f.id("id")?,
        status: f.open_enum("status", NetworkMemberStatus::from_wire),
        data_center: f.text("dataCenter"),
        cidr: f.text("CIDR"),
        broadcast: f.parsed("broadcast", ip),
        gateway: f.parsed("gateway", ip),
        netmask: f.parsed("netmask", ip),
        port_speed: f.parsed("portSpeed", port_speed),
        extra: f.unread(),
    })
}

fn ip(text: &str) -> Parsed<std::net::IpAddr> {
    text.trim()
        .parse()
        .map_err(|_| format!("expected an IP address, found {}", text::found(text)))
}

/// A port speed: a number with its unit (`"1 Gbps"`), or a bare number, which is in
/// Mbps (the unit switch ports are rated in: the samples send `"1000"`).
fn port_speed(value: &str) -> Parsed<BitRate> {
    match text::decimal(value) {
        Ok(amount) if !amount.is_sign_negative() => Ok(BitRate {
            amount,
            unit: RateUnit::MegabitsPerSecond,
        }),
        _ => text::bit_rate(value),
    }
}

/// `{id, message}` → the created network.
pub(crate) fn created(
    cursor: &mut Cursor,
    body: Json<'_>,
) -> Result<CreatedPrivateNetwork, FieldError> {
    cursor.object(body, |f| {
        Ok(CreatedPrivateNetwork {
            id: f.id("id")?,
            message: f.text("message"),
            extra: f.unread(),
        })
    })
}

/// `{message}` → the deletion's message, if any.
pub(crate) fn deleted(
    cursor: &mut Cursor,
    body: Json<'_>,
) -> Result<DeletedPrivateNetwork, FieldError> {
    match body {
        Json::Null => Ok(DeletedPrivateNetwork::default()),
        body => cursor.object(body, |f| {
            Ok(DeletedPrivateNetwork {
                message: f.text("message"),
                extra: f.unread(),
            })
        }),
    }
}
