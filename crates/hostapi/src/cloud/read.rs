//! Cloud v2 answers → the model ([`CloudServer`], [`PrivateCloud`], [`Credential`],
//! [`Job`]).

use super::model::{
    BillingFrequency, CloudContract, CloudHardware, CloudIso, CloudNetworkTraffic, CloudServer,
    CloudServerState, Credential, CredentialType, FirewallState, PrivateCloud, ServiceOffering,
    TrafficType,
};
use crate::ips::read::ip;
use crate::model::{DataSize, Job, JobStatus, Money, Sla};
use crate::read::Records;
use crate::read::shapes::prefixed;
use crate::read::shapes::{list_metadata, list_under};
use crate::read::text;
use crate::read::{Cursor, FieldError, Fields, Json};

/// The list under `key` of a page, and its `_metadata.totalCount`.
pub(crate) fn page<'a>(
    cursor: &mut Cursor,
    body: Json<'a>,
    key: &'static str,
    total: &mut Option<u64>,
) -> Result<Records<'a>, FieldError> {
    cursor.object(body, |f| {
        let (count, metadata) = list_metadata(f);
        *total = count;
        let items = list_under(f, key)?;
        let mut extra = f.unread();
        extra.extend(metadata);
        Ok(Records {
            path: key.to_owned(),
            items,
            extra,
        })
    })
}

/// A virtual server (an item of the list, or the single view, which is unwrapped).
pub(crate) fn server(cursor: &mut Cursor, json: Json<'_>) -> Result<CloudServer, FieldError> {
    cursor.object(json, |f| {
        Ok(CloudServer {
            id: f.id("id")?,
            reference: f.text("reference"),
            customer_id: f.text("customerId"),
            data_center: f.text("dataCenter"),
            cloud_server_id: f.text("cloudServerId"),
            state: f.open_enum("state", CloudServerState::from_wire),
            firewall_state: f.open_enum("firewallState", FirewallState::from_wire),
            template: f.text("template"),
            service_offering: f.open_enum("serviceOffering", ServiceOffering::from_wire),
            sla: Sla::named(f.text("sla")),
            contract: f.object("contract", contract),
            hardware: f.object("hardware", hardware),
            iso: f.object("iso", iso),
            ips: f.objects("ips", ip),
            network_traffic: f.object("networkTraffic", network_traffic),
            extra: f.unread(),
        })
    })
}

/// A private cloud.
pub(crate) fn private_cloud(
    cursor: &mut Cursor,
    json: Json<'_>,
) -> Result<PrivateCloud, FieldError> {
    cursor.object(json, |f| {
        Ok(PrivateCloud {
            id: f.id("id")?,
            customer_id: f.text("customerId"),
            data_center: f.text("dataCenter"),
            service_offering: f.open_enum("serviceOffering", ServiceOffering::from_wire),
            sla: Sla::named(f.text("sla")),
            contract: f.object("contract", contract),
            hardware: f.object("hardware", hardware),
            ips: f.objects("ips", ip),
            network_traffic: f.object("networkTraffic", network_traffic),
            extra: f.unread(),
        })
    })
}

fn contract(f: &mut Fields<'_, '_>) -> CloudContract {
    let amount = f.decimal("pricePerFrequency");
    let currency = f.text("currency");
    let price_per_frequency = match (amount, currency) {
        (Some(amount), currency) => Some(Money { amount, currency }),
        (None, Some(currency)) => {
            f.put("currency", Json::String(currency.into()));
            None
        }
        (None, None) => None,
    };
    CloudContract {
        id: f.text("id"),
        starts_at: f.parsed("startsAt", text::offset_date_time),
        ends_at: f.parsed("endsAt", text::offset_date_time),
        billing_cycle: f.integer("billingCycle"),
        billing_frequency: f.open_enum("billingFrequency", BillingFrequency::from_wire),
        price_per_frequency,
        extra: f.unread(),
    }
}

fn hardware(f: &mut Fields<'_, '_>) -> CloudHardware {
    let cpu = f.object("cpu", |cpu| (cpu.integer("cores"), cpu.unread()));
    let memory = f.object("memory", |m| (sized(m, "amount", "unit"), m.unread()));
    let storage = f.object("storage", |s| (sized(s, "amount", "unit"), s.unread()));
    let mut hardware = CloudHardware {
        cpu_cores: None,
        memory: None,
        storage: None,
        extra: f.unread(),
    };
    if let Some((cores, rest)) = cpu {
        hardware.cpu_cores = cores;
        hardware.extra.extend(prefixed("cpu", rest));
    }
    if let Some((size, rest)) = memory {
        hardware.memory = size;
        hardware.extra.extend(prefixed("memory", rest));
    }
    if let Some((size, rest)) = storage {
        hardware.storage = size;
        hardware.extra.extend(prefixed("storage", rest));
    }
    hardware
}

/// An amount beside its unit (`{unit: "GB", amount: 64}`). An amount without a unit is
/// no size (the unit is not guessed): it stays in `extra` with a warning.
pub(crate) fn sized(f: &mut Fields<'_, '_>, amount_key: &str, unit_key: &str) -> Option<DataSize> {
    let unit = f.text(unit_key);
    match (unit, f.has(amount_key)) {
        (Some(unit), _) => f
            .decimal(amount_key)
            .map(|amount| DataSize::new(amount, text::data_unit(&unit))),
        (None, true) => {
            if let Some(amount) = f.take(amount_key)
                && !amount.is_nothing()
            {
                f.unreadable(
                    amount_key,
                    amount,
                    format!("a size without a unit (no `{unit_key}`)"),
                );
            }
            None
        }
        (None, false) => None,
    }
}

fn iso(f: &mut Fields<'_, '_>) -> CloudIso {
    CloudIso {
        id: f.text("id"),
        name: f.text("name"),
        display_name: f.text("displayName"),
        extra: f.unread(),
    }
}

fn network_traffic(f: &mut Fields<'_, '_>) -> CloudNetworkTraffic {
    CloudNetworkTraffic {
        datatraffic_limit: sized(f, "datatrafficLimit", "datatrafficUnit"),
        kind: f.text("type"),
        traffic_type: f.open_enum("trafficType", TrafficType::from_wire),
        extra: f.unread(),
    }
}

/// A job (what power and reinstall calls answer).
pub(crate) fn job(cursor: &mut Cursor, body: Json<'_>) -> Result<Job, FieldError> {
    cursor.object(body, |f| {
        Ok(Job {
            id: f.id("id")?,
            name: f.text("name"),
            status: f.open_enum("status", JobStatus::from_wire),
            created_at: f.parsed("createdAt", text::offset_date_time),
            extra: f.unread(),
        })
    })
}

/// A credential: the list gives the type and user name, the single view the password
/// too. The user name identifies it; a missing type is the one asked for.
pub(crate) fn credential(
    asked: &CredentialType,
) -> impl Fn(&mut Cursor, Json<'_>) -> Result<Credential, FieldError> + '_ {
    move |cursor, json| {
        cursor.object(json, |f| {
            Ok(Credential {
                username: f.id("username")?,
                credential_type: f
                    .open_enum("type", CredentialType::from_wire)
                    .unwrap_or_else(|| asked.clone()),
                password: f.secret("password"),
                extra: f.unread(),
            })
        })
    }
}
