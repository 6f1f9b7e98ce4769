//! Raw v1 virtual server records → [`VirtualServer`].

use hostapi_raw_infra::shapes::VirtualServerIpAddresses;
use hostapi_raw_infra::types as raw;
use rust_decimal::Decimal;

use super::model::{
    AdministrativeInfo, IpAssignment, Platform, VirtualServer, VirtualServerId, VirtualServerState,
};
use crate::model::{DataSize, DataUnit, Job, JobId};
use crate::transport::RecordList;
use crate::transport::call::decode_error;
use crate::wire::{self, At, FieldError};

/// `{virtualServers:[…]}`: the servers.
pub(crate) const LIST: RecordList<raw::VirtualServer, VirtualServer> =
    RecordList::new("virtualServers", server);

/// `{virtualServers:[one]}` → that server. An empty list, or more than one, is not the
/// documented answer.
pub(crate) fn single(operation: &'static str, body: &[u8]) -> Result<VirtualServer, crate::Error> {
    let mut servers = LIST.decode(operation, body)?;
    if servers.len() == 1
        && let Some(server) = servers.pop()
    {
        return Ok(server);
    }
    let error = FieldError::new(format!(
        "expected exactly one server, found {}",
        servers.len()
    ));
    Err(decode_error(operation, &error.at("virtualServers"), body))
}

pub(crate) fn server(raw: raw::VirtualServer) -> Result<VirtualServer, FieldError> {
    Ok(VirtualServer {
        id: VirtualServerId::from_wire(raw.id.to_string()),
        name: wire::non_empty(raw.server_name),
        reference: wire::non_empty(raw.reference),
        state: wire::non_empty(raw.state).map(|s| VirtualServerState::from_wire(&s)),
        template: wire::non_empty(raw.template),
        platform: raw.type_.map(platform),
        attached_iso: wire::non_empty(raw.attached_iso),
        mac_address: wire::non_empty(raw.mac_address),
        sla: wire::non_empty(raw.sla),
        data_traffic_pack: wire::non_empty(raw.data_traffic_pack),
        data_traffic_limit: raw.data_traffic_limit.map(|gb| DataSize {
            amount: Decimal::from(gb),
            unit: DataUnit::Gigabytes,
        }),
        ip_addresses: raw
            .ip_addresses
            .map(ip_addresses)
            .transpose()
            .at("ipAddresses")?
            .unwrap_or_default(),
        administrative: raw
            .administrative_info
            .map(administrative)
            .transpose()
            .at("administrativeInfo")?,
        extra: wire::extra(raw.extra),
    })
}

/// `type` names its id `id` on some records and `Id` on others; the spec names `id`,
/// so `Id` arrives among the leftovers.
fn platform(mut raw: raw::VirtualServerType) -> Platform {
    let upper_id = wire::take_extra(&mut raw.extra, "Id").and_then(wire::into_scalar_text);
    Platform {
        id: raw.id.map(|id| id.to_string()).or(upper_id),
        name: wire::non_empty(raw.platform_name),
        extra: wire::extra(raw.extra),
    }
}

/// Both shapes of `ipAddresses` become one list: an array of `{ip, isNulled,
/// reverseDNS}`, or an object keyed by IP whose values are `{isNulled, reverseDNS}`.
fn ip_addresses(raw: VirtualServerIpAddresses) -> Result<Vec<IpAssignment>, FieldError> {
    match raw {
        VirtualServerIpAddresses::List(list) => wire::each(list.0, |entry| {
            let ip = wire::required(entry.ip, "ip")?;
            Ok(IpAssignment {
                ip: wire::ip_address(&ip).at("ip")?,
                null_routed: entry.is_nulled.unwrap_or(false),
                reverse_dns: wire::non_empty(entry.reverse_dns),
            })
        }),
        VirtualServerIpAddresses::Map(map) => map
            .0
            .into_iter()
            .map(|(ip, state)| {
                Ok(IpAssignment {
                    ip: wire::ip_address(&ip).map_err(|e| e.at(ip.clone()))?,
                    null_routed: state.is_nulled.unwrap_or(false),
                    reverse_dns: wire::non_empty(state.reverse_dns),
                })
            })
            .collect(),
    }
}

fn administrative(
    raw: raw::VirtualServerAdministrativeInfo,
) -> Result<AdministrativeInfo, FieldError> {
    Ok(AdministrativeInfo {
        customer_number: wire::non_empty(raw.customer_number),
        created_at: wire::optional(raw.created_at, wire::local_date_time).at("createdAt")?,
        start_date: wire::optional(raw.start_date, wire::any_date).at("startDate")?,
        end_date: wire::optional(raw.end_date, wire::any_date).at("endDate")?,
        billing_frequency: wire::non_empty(raw.billing_frequency),
        contract_term: wire::optional(raw.contract_term, wire::contract_term_text)
            .at("contractTerm")?,
        order_number: wire::non_empty(raw.order_number),
        extra: wire::extra(raw.extra),
    })
}

/// `{asyncjob:{jobid}}` → the job.
pub(crate) fn job(raw: raw::AsyncJobResponse) -> Result<Job, FieldError> {
    let id = wire::non_empty(raw.asyncjob.jobid)
        .ok_or_else(|| FieldError::missing().at("jobid").at("asyncjob"))?;
    let mut extra = wire::extra(raw.extra);
    extra.extend(wire::extra(raw.asyncjob.extra));
    Ok(Job {
        id: JobId::from_wire(id),
        name: None,
        status: None,
        created_at: None,
        extra,
    })
}
