//! Raw cloud v2 records → the facade's model ([`CloudServer`], [`PrivateCloud`],
//! [`Credential`], [`Job`]).

use hostapi_raw_cloud::types as raw;
use rust_decimal::Decimal;

use super::model::{
    BillingFrequency, CloudContract, CloudHardware, CloudIp, CloudIso, CloudNetworkTraffic,
    CloudServer, CloudServerState, Credential, CredentialType, FirewallState, IpVisibility,
    PrivateCloud, ServiceOffering, TrafficType,
};
use crate::model::{CloudServerId, DataSize, Extra, Job, JobId, JobStatus, Money, PrivateCloudId};
use crate::wire::{self, At, FieldError};

/// One virtual server record (the list's items, the single view, the PUT answer).
pub(crate) fn server(raw: raw::VirtualServer) -> Result<CloudServer, FieldError> {
    Ok(CloudServer {
        id: CloudServerId::from_wire(raw.id),
        reference: wire::non_empty(raw.reference),
        customer_id: wire::non_empty(raw.customer_id),
        data_center: wire::non_empty(raw.data_center),
        cloud_server_id: wire::non_empty(raw.cloud_server_id),
        state: wire::non_empty(raw.state).map(|s| CloudServerState::from_wire(&s)),
        firewall_state: wire::non_empty(raw.firewall_state).map(|s| FirewallState::from_wire(&s)),
        template: wire::non_empty(raw.template),
        service_offering: wire::non_empty(raw.service_offering)
            .map(|s| ServiceOffering::from_wire(&s)),
        sla: wire::non_empty(raw.sla),
        contract: raw.contract.map(contract).transpose().at("contract")?,
        hardware: raw.hardware.map(hardware).transpose().at("hardware")?,
        iso: raw.iso.map(iso),
        ips: wire::each(raw.ips, ip).at("ips")?,
        network_traffic: raw
            .network_traffic
            .map(network_traffic)
            .transpose()
            .at("networkTraffic")?,
        extra: wire::extra(raw.extra),
    })
}

/// One private cloud record.
pub(crate) fn private_cloud(raw: raw::PrivateCloud) -> Result<PrivateCloud, FieldError> {
    Ok(PrivateCloud {
        id: PrivateCloudId::from_wire(raw.id),
        customer_id: wire::non_empty(raw.customer_id),
        data_center: wire::non_empty(raw.data_center),
        service_offering: wire::non_empty(raw.service_offering)
            .map(|s| ServiceOffering::from_wire(&s)),
        sla: wire::non_empty(raw.sla),
        contract: raw.contract.map(contract).transpose().at("contract")?,
        hardware: raw.hardware.map(hardware).transpose().at("hardware")?,
        ips: wire::each(raw.ips, ip).at("ips")?,
        network_traffic: raw
            .network_traffic
            .map(network_traffic)
            .transpose()
            .at("networkTraffic")?,
        extra: wire::extra(raw.extra),
    })
}

/// `pricePerFrequency` and `currency` become one [`Money`]; a currency without a price
/// stays in `extra`.
fn contract(raw: raw::Contract) -> Result<CloudContract, FieldError> {
    let mut extra = wire::extra(raw.extra);
    let price = match raw.price_per_frequency {
        None => None,
        Some(raw::NumberOrString::Double(value)) => Some(wire::decimal_from_f64(value)),
        Some(raw::NumberOrString::String(text)) => {
            wire::non_empty(Some(text)).as_deref().map(wire::decimal)
        }
    }
    .transpose()
    .at("pricePerFrequency")?;
    let currency = wire::non_empty(raw.currency);
    let price_per_frequency = match (price, currency) {
        (Some(amount), currency) => Some(Money { amount, currency }),
        (None, Some(currency)) => {
            extra.insert("currency".to_owned(), currency.into());
            None
        }
        (None, None) => None,
    };
    Ok(CloudContract {
        id: wire::non_empty(raw.id),
        starts_at: wire::optional(raw.starts_at, wire::offset_date_time).at("startsAt")?,
        ends_at: wire::optional(raw.ends_at, wire::offset_date_time).at("endsAt")?,
        billing_cycle: raw
            .billing_cycle
            .map(small_count)
            .transpose()
            .at("billingCycle")?,
        billing_frequency: wire::non_empty(raw.billing_frequency)
            .map(|s| BillingFrequency::from_wire(&s)),
        price_per_frequency,
        extra,
    })
}

fn small_count(value: i64) -> Result<u32, FieldError> {
    u32::try_from(value)
        .map_err(|_| FieldError::new(format!("expected a count (0 or more), found {value}")))
}

/// `cpu.cores` becomes `cpu_cores`; memory and storage `{unit, amount}` become
/// [`DataSize`]s. The leftovers of the three sub-objects are kept in the hardware's
/// `extra` under `cpu.<name>`, `memory.<name>`, `storage.<name>`.
fn hardware(raw: raw::Hardware) -> Result<CloudHardware, FieldError> {
    let mut extra = wire::extra(raw.extra);
    let cpu_cores = match raw.cpu {
        None => None,
        Some(cpu) => {
            keep_prefixed(&mut extra, "cpu", cpu.extra);
            cpu.cores
                .map(small_count)
                .transpose()
                .at("cores")
                .at("cpu")?
        }
    };
    let memory = raw
        .memory
        .map(|size| size_quantity(size, &mut extra, "memory"))
        .transpose()
        .at("memory")?
        .flatten();
    let storage = raw
        .storage
        .map(|size| size_quantity(size, &mut extra, "storage"))
        .transpose()
        .at("storage")?
        .flatten();
    Ok(CloudHardware {
        cpu_cores,
        memory,
        storage,
        extra,
    })
}

fn keep_prefixed(
    extra: &mut Extra,
    prefix: &str,
    leftovers: serde_json::Map<String, serde_json::Value>,
) {
    extra.extend(
        leftovers
            .into_iter()
            .map(|(key, value)| (format!("{prefix}.{key}"), value)),
    );
}

/// `{unit, amount}` → a [`DataSize`]; an empty object is no size; an amount without a
/// unit (or the reverse) cannot be read.
fn size_quantity(
    raw: raw::SizeQuantity,
    extra: &mut Extra,
    name: &str,
) -> Result<Option<DataSize>, FieldError> {
    keep_prefixed(extra, name, raw.extra);
    let unit = wire::non_empty(raw.unit);
    match (raw.amount, unit) {
        (None, None) => Ok(None),
        (Some(amount), Some(unit)) => Ok(Some(DataSize {
            amount: Decimal::from(amount),
            unit: wire::data_unit(&unit),
        })),
        (Some(_), None) => Err(FieldError::missing().at("unit")),
        (None, Some(_)) => Err(FieldError::missing().at("amount")),
    }
}

/// `iso` is null (no ISO, handled by the caller's `Option`) or an object.
fn iso(raw: raw::Iso) -> CloudIso {
    CloudIso {
        id: wire::non_empty(raw.id),
        name: wire::non_empty(raw.name),
        display_name: wire::non_empty(raw.display_name),
        extra: wire::extra(raw.extra),
    }
}

/// `{ip, version, type}`: the address is required; `version` must agree with it.
fn ip(raw: raw::Ip) -> Result<CloudIp, FieldError> {
    let text = wire::non_empty(raw.ip).ok_or_else(|| FieldError::missing().at("ip"))?;
    let ip = wire::ip_address(&text).at("ip")?;
    match raw.version {
        None => {}
        Some(4) if ip.is_ipv4() => {}
        Some(6) if ip.is_ipv6() => {}
        Some(version) => {
            return Err(FieldError::new(format!(
                "version {version} does not match the address {ip}"
            ))
            .at("version"));
        }
    }
    Ok(CloudIp {
        ip,
        visibility: wire::non_empty(raw.type_).map(|t| IpVisibility::from_wire(&t)),
        extra: wire::extra(raw.extra),
    })
}

/// `datatrafficLimit` in `datatrafficUnit` → a [`DataSize`]. A limit without a unit
/// cannot be read; a unit without a limit stays in `extra`.
fn network_traffic(raw: raw::NetworkTraffic) -> Result<CloudNetworkTraffic, FieldError> {
    let mut extra = wire::extra(raw.extra);
    let unit = wire::non_empty(raw.datatraffic_unit);
    let datatraffic_limit = match (raw.datatraffic_limit, unit) {
        (Some(amount), Some(unit)) => Some(DataSize {
            amount: Decimal::from(amount),
            unit: wire::data_unit(&unit),
        }),
        (Some(_), None) => return Err(FieldError::missing().at("datatrafficUnit")),
        (None, Some(unit)) => {
            extra.insert("datatrafficUnit".to_owned(), unit.into());
            None
        }
        (None, None) => None,
    };
    Ok(CloudNetworkTraffic {
        kind: wire::non_empty(raw.type_),
        traffic_type: wire::non_empty(raw.traffic_type).map(|t| TrafficType::from_wire(&t)),
        datatraffic_limit,
        extra,
    })
}

/// The job a power or reinstall call answers.
pub(crate) fn job(raw: raw::Job) -> Result<Job, FieldError> {
    let id = wire::non_empty(Some(raw.id)).ok_or_else(|| FieldError::missing().at("id"))?;
    Ok(Job {
        id: JobId::from_wire(id),
        name: wire::non_empty(raw.name),
        status: wire::non_empty(raw.status).map(|s| JobStatus::from_wire(&s)),
        created_at: wire::optional(raw.created_at, wire::offset_date_time).at("createdAt")?,
        extra: wire::extra(raw.extra),
    })
}

/// A credential as listed (no password). The type asked for stands in when the item
/// leaves its own out.
pub(crate) fn credential_summary(
    raw: raw::CredentialSummary,
    asked: &CredentialType,
) -> Result<Credential, FieldError> {
    Ok(Credential {
        credential_type: wire::non_empty(raw.type_)
            .map_or_else(|| asked.clone(), |t| CredentialType::from_wire(&t)),
        username: wire::non_empty(raw.username)
            .ok_or_else(|| FieldError::missing().at("username"))?,
        password: None,
        extra: wire::extra(raw.extra),
    })
}

/// One credential with its password. The password is taken exactly as sent (never
/// trimmed); an empty one is none.
pub(crate) fn credential(
    raw: raw::Credential,
    asked: &CredentialType,
) -> Result<Credential, FieldError> {
    Ok(Credential {
        credential_type: wire::non_empty(raw.type_)
            .map_or_else(|| asked.clone(), |t| CredentialType::from_wire(&t)),
        username: wire::non_empty(raw.username)
            .ok_or_else(|| FieldError::missing().at("username"))?,
        password: raw
            .password
            .filter(|p| !p.is_empty())
            .map(crate::Secret::new),
        extra: wire::extra(raw.extra),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw_server(value: serde_json::Value) -> raw::VirtualServer {
        serde_json::from_value(value).expect("raw record decodes")
    }

    #[test]
    fn a_string_price_and_a_number_price_are_the_same_money() {
        for price in [serde_json::json!(12.99), serde_json::json!("12.99")] {
            let server = server(raw_server(serde_json::json!({
                "id": "a",
                "contract": {"pricePerFrequency": price, "currency": "EUR"},
            })))
            .unwrap();
            let money = server.contract.unwrap().price_per_frequency.unwrap();
            assert_eq!(money.amount.to_string(), "12.99");
            assert_eq!(money.currency.as_deref(), Some("EUR"));
        }
    }

    #[test]
    fn unreadable_values_name_their_path() {
        let err = server(raw_server(serde_json::json!({
            "id": "a",
            "contract": {"startsAt": "yesterday"},
        })))
        .unwrap_err();
        assert_eq!(err.path(), "contract.startsAt");
        let err = server(raw_server(serde_json::json!({
            "id": "a",
            "ips": [{"ip": "192.0.2.1", "version": 4}, {"ip": "192.0.2.2", "version": 6}],
        })))
        .unwrap_err();
        assert_eq!(err.path(), "ips[1].version");
        let err = server(raw_server(serde_json::json!({
            "id": "a",
            "hardware": {"memory": {"amount": 4}},
        })))
        .unwrap_err();
        assert_eq!(err.path(), "hardware.memory.unit");
        let err = server(raw_server(serde_json::json!({
            "id": "a",
            "contract": {"pricePerFrequency": "cheap"},
        })))
        .unwrap_err();
        assert_eq!(err.path(), "contract.pricePerFrequency");
    }

    #[test]
    fn the_service_unknown_state_is_not_an_unknown_value() {
        let state = |s: &str| CloudServerState::from_wire(s);
        assert_eq!(state("UNKNOWN"), CloudServerState::Indeterminate);
        assert_eq!(
            state("MAINTENANCE"),
            CloudServerState::Unknown("MAINTENANCE".into())
        );
        assert_eq!(state("running"), CloudServerState::Running);
    }
}
