//! Entry points for benchmarks, property tests and fuzzing: an answer body decoded and
//! normalised as one operation would, without HTTP. Not part of the API: hidden from
//! the docs and free to change.
//!
//! [`decode`] covers every operation whose answer the facade reads as JSON (the PNG
//! graphs and the answers it ignores are not here). Each entry decodes into the
//! generated type and runs the same normalisation as the facade's call; where the call
//! normalises inline, the entry repeats those few lines. Operations that need context
//! from the call get a fixed one: the ACL answers are read for customer
//! [`CDN_CUSTOMER`], a private network detail for network [`PRIVATE_NETWORK`], cloud
//! credentials as OPERATING_SYSTEM ones, and metrics for January 2024.

use hostapi_raw_cdn::types as cdn;
use hostapi_raw_cloud::types as cloud;
use hostapi_raw_infra::types as infra;
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::transport::RecordList;
use crate::transport::call::{decode_error, decode_json};
use crate::wire::{self, At, FieldError};
use crate::{
    CredentialType, Error, MetricsQuery, PrivateNetworkId, PurgeJobId, RackNetworkUsage,
    ServiceList, VirtualServer,
};

/// The customer number the ACL answers are read for.
pub const CDN_CUSTOMER: &str = "C123456";
/// The private network a detail answer is read for (an answer of one network is read
/// whatever its id).
pub const PRIVATE_NETWORK: &str = "501";

/// `GET /v1/virtualServers`: the body decoded into the generated type, then normalised.
pub fn virtual_server_list(body: &[u8]) -> Result<Vec<VirtualServer>, Error> {
    const OPERATION: &str = "listVirtualServers";
    crate::virtual_servers::normalize::LIST.decode(OPERATION, body)
}

/// Decodes `body` as the generated type `R` and normalises it with `normalize`; the
/// normalised value serialised as the CLI's `--output json` would (secrets redacted).
///
/// # Panics
///
/// When a normalised value does not serialise: every domain type must, and the CLI
/// relies on it, so a fuzzer should hear of it.
fn run<R: DeserializeOwned, T: Serialize>(
    operation: &'static str,
    body: &[u8],
    normalize: impl FnOnce(R) -> Result<T, FieldError>,
) -> Result<serde_json::Value, Error> {
    let raw: R = decode_json(operation, body)?;
    let value = normalize(raw).map_err(|e| decode_error(operation, &e, body))?;
    Ok(to_json(operation, &value))
}

/// Decodes and normalises `body` as `list`, record by record, as the facade's call does;
/// the records serialised as [`run`] does.
fn records<R: DeserializeOwned, T: Serialize>(
    operation: &'static str,
    body: &[u8],
    list: &RecordList<R, T>,
) -> Result<serde_json::Value, Error> {
    Ok(to_json(operation, &list.decode(operation, body)?))
}

/// The operation name after the interface prefix (`listDomains` of `infra.listDomains`).
const fn short(name: &'static str) -> &'static str {
    let bytes = name.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'.' {
            let (_, rest) = bytes.split_at(i + 1);
            return match std::str::from_utf8(rest) {
                Ok(rest) => rest,
                Err(_) => name,
            };
        }
        i += 1;
    }
    name
}

/// The table: each name with the function that decodes and normalises its answer.
macro_rules! operations {
    ($($name:literal => $decode:expr,)*) => {
        /// Every operation [`decode`] knows, as `interface.operationId`
        /// (`infra.listDomains`, `cloud.getVirtualServer`, `cdn.getOrigin`).
        pub const OPERATIONS: &[&str] = &[$($name),*];

        /// Decodes `body` as the answer of `operation` (one of [`OPERATIONS`]) and
        /// normalises it, as the facade's call would; answers the normalised value
        /// serialised to JSON. A body that is not the answer is [`Error::Decode`], as
        /// in a call; an unknown operation is [`Error::InvalidInput`].
        pub fn decode(operation: &str, body: &[u8]) -> Result<serde_json::Value, Error> {
            match operation {
                $($name => {
                    const OPERATION: &str = short($name);
                    let decode: fn(&'static str, &[u8]) -> Result<serde_json::Value, Error> =
                        $decode;
                    decode(OPERATION, body)
                })*
                other => Err(Error::invalid(
                    "operation",
                    format!("`{}` is not an operation with a JSON answer", other.escape_debug()),
                )),
            }
        }
    };
}

operations! {
    // v1: bare metal.
    "infra.listBareMetals" => |op, body| records(op, body, &crate::bare_metal::normalize::LIST),
    "infra.getBareMetal" => |op, body| run::<infra::BareMetalWrapper, _>(op, body, crate::bare_metal::normalize::detail),
    "infra.updateBareMetalReference" => |op, body| run::<infra::BareMetalWrapper, _>(op, body, crate::bare_metal::normalize::detail),
    "infra.getBareMetalInstallationStatus" => |op, body| run::<infra::InstallationStatusWrapper, _>(op, body, crate::bare_metal::normalize::installation_status),
    "infra.listBareMetalIps" => |op, body| run::<infra::IpList, _>(op, body, crate::bare_metal::ips::list_answer),
    "infra.getBareMetalIp" => |op, body| run::<infra::IpWrapper, _>(op, body, crate::bare_metal::ips::single),
    "infra.updateBareMetalIp" => |op, body| run::<infra::IpWrapper, _>(op, body, crate::bare_metal::ips::single),
    "infra.listBareMetalLeases" => |op, body| leases(op, body),
    "infra.getBareMetalLease" => |op, body| lease(op, body),
    "infra.getBareMetalNetworkUsage" => |op, body| run::<infra::NetworkUsage, _>(op, body, crate::bare_metal::usage::combined),
    "infra.getBareMetalBandwidthUsage" => |op, body| run::<infra::BandwidthUsage, _>(op, body, crate::bare_metal::usage::bandwidth_answer),
    "infra.getBareMetalDataTrafficUsage" => |op, body| run::<infra::DataTrafficUsage, _>(op, body, crate::bare_metal::usage::data_traffic_answer),
    "infra.getBareMetalPowerStatus" => |op, body| run::<infra::PowerStatusWrapper, _>(op, body, crate::bare_metal::normalize::power_status),
    "infra.getBareMetalRootPassword" => |op, body| run::<infra::RootPassword, _>(op, body, crate::bare_metal::normalize::passwords),
    "infra.getBareMetalSwitchPort" => |op, body| run::<infra::SwitchPortWrapper, _>(op, body, crate::bare_metal::normalize::switch_port),
    "infra.openBareMetalSwitchPort" => |op, body| run::<infra::SwitchPortWrapper, _>(op, body, crate::bare_metal::normalize::switch_port),
    "infra.closeBareMetalSwitchPort" => |op, body| run::<infra::SwitchPortWrapper, _>(op, body, crate::bare_metal::normalize::switch_port),
    // v1: domains and DNS.
    "infra.listDomains" => |op, body| records(op, body, &crate::domains::normalize::LIST),
    "infra.getDomain" => |op, body| run::<infra::DomainWrapper, _>(op, body, crate::domains::normalize::single),
    "infra.updateDomainTtl" => |op, body| run::<infra::DomainWrapper, _>(op, body, crate::domains::normalize::single),
    "infra.listDnsRecords" => |op, body| records(op, body, &crate::domains::normalize::RECORDS),
    "infra.getDnsRecord" => |op, body| run::<infra::DnsRecordWrapper, _>(op, body, crate::domains::normalize::single_record),
    "infra.createDnsRecord" => |op, body| run::<infra::DnsRecordWrapper, _>(op, body, crate::domains::normalize::single_record),
    "infra.updateDnsRecord" => |op, body| run::<infra::DnsRecordWrapper, _>(op, body, crate::domains::normalize::single_record),
    // v1: IPs and catalogues.
    "infra.updateIp" => |op, body| run::<infra::IpWrapper, _>(op, body, |raw| crate::ips::normalize::ip(raw.ip).map_err(|e| e.at("ip"))),
    "infra.listOperatingSystems" => |op, body| run::<infra::OperatingSystemList, _>(op, body, crate::catalog::normalize::operating_systems),
    "infra.getOperatingSystem" => |op, body| run::<infra::OperatingSystemWrapper, _>(op, body, crate::catalog::normalize::operating_system_answer),
    "infra.listControlPanels" => |op, body| run::<infra::ControlPanelList, _>(op, body, crate::catalog::normalize::control_panels),
    "infra.getControlPanel" => |op, body| run::<infra::ControlPanelWrapper, _>(op, body, crate::catalog::normalize::control_panel_answer),
    "infra.getPartitionSchema" => |op, body| run::<infra::PartitionSchemaWrapper, _>(op, body, crate::catalog::normalize::partition_schema),
    "infra.listRescueImages" => |op, body| run::<infra::RescueImageList, _>(op, body, crate::catalog::normalize::rescue_images),
    "infra.listServices" => |op, body| run::<infra::ServiceList, _>(op, body, |raw| Ok(ServiceList::new(raw.0))),
    // v1: private networks and racks.
    "infra.listPrivateNetworks" => |op, body| run::<infra::PrivateNetworkList, _>(op, body, |raw| {
        wire::each(raw.private_networks, crate::private_networks::normalize::list_item).at("privateNetworks")
    }),
    "infra.createPrivateNetwork" => |op, body| run::<infra::PrivateNetworkCreated, _>(op, body, crate::private_networks::normalize::created),
    "infra.getPrivateNetwork" => |op, body| run::<infra::PrivateNetworkArray, _>(op, body, |raw| {
        crate::private_networks::normalize::single(raw, &PrivateNetworkId::from_wire(PRIVATE_NETWORK))
    }),
    "infra.deletePrivateNetwork" => |op, body| run::<infra::PrivateNetworkMessage, _>(op, body, |raw| Ok(wire::non_empty(raw.message))),
    "infra.listPrivateRacks" => |op, body| records(op, body, &crate::private_racks::normalize::LIST),
    "infra.getPrivateRack" => |op, body| run::<infra::PrivateRackWrapper, _>(op, body, crate::private_racks::normalize::single),
    "infra.listPrivateRackIps" => |op, body| run::<infra::PrivateRackIpList, _>(op, body, |raw| {
        wire::each(raw.ips, |item| crate::ips::normalize::rack_ip(item.ip).at("ip")).at("ips")
    }),
    "infra.getPrivateRackIp" => |op, body| run::<infra::PrivateRackIpWrapper, _>(op, body, |raw| crate::ips::normalize::rack_ip(raw.ip).at("ip")),
    "infra.updatePrivateRackIp" => |op, body| run::<infra::PrivateRackIpWrapper, _>(op, body, |raw| crate::ips::normalize::rack_ip(raw.ip).at("ip")),
    "infra.getPrivateRackNetworkUsage" => |op, body| run::<infra::PrivateRackNetworkUsage, _>(op, body, |raw| Ok(RackNetworkUsage::new(raw.0))),
    // v1: virtual servers.
    "infra.listVirtualServers" => |op, body| records(op, body, &crate::virtual_servers::normalize::LIST),
    "infra.getVirtualServer" => |op, body| Ok(to_json(op, &crate::virtual_servers::normalize::single(op, body)?)),
    "infra.powerOnVirtualServer" => |op, body| run::<infra::AsyncJobResponse, _>(op, body, crate::virtual_servers::normalize::job),
    "infra.powerOffVirtualServer" => |op, body| run::<infra::AsyncJobResponse, _>(op, body, crate::virtual_servers::normalize::job),
    "infra.rebootVirtualServer" => |op, body| run::<infra::AsyncJobResponse, _>(op, body, crate::virtual_servers::normalize::job),
    "infra.reinstallVirtualServer" => |op, body| run::<infra::AsyncJobResponse, _>(op, body, crate::virtual_servers::normalize::job),
    // Cloud v2.
    "cloud.listVirtualServers" => |op, body| run::<cloud::VirtualServerList, _>(op, body, |raw| {
        wire::each(raw.virtual_servers, crate::cloud::normalize::server).at("virtualServers")
    }),
    "cloud.getVirtualServer" => |op, body| run::<cloud::VirtualServer, _>(op, body, crate::cloud::normalize::server),
    "cloud.updateVirtualServer" => |op, body| run::<cloud::VirtualServer, _>(op, body, crate::cloud::normalize::server),
    "cloud.listPrivateClouds" => |op, body| run::<cloud::PrivateCloudList, _>(op, body, |raw| {
        wire::each(raw.private_clouds, crate::cloud::normalize::private_cloud).at("privateClouds")
    }),
    "cloud.listVirtualServerCredentials" => |op, body| run::<cloud::CredentialList, _>(op, body, |raw| {
        wire::each(raw.credentials, |item| {
            crate::cloud::normalize::credential_summary(item, &CredentialType::OperatingSystem)
        })
        .at("credentials")
    }),
    "cloud.getVirtualServerCredential" => |op, body| run::<cloud::Credential, _>(op, body, |raw| {
        crate::cloud::normalize::credential(raw, &CredentialType::OperatingSystem)
    }),
    "cloud.getVirtualServerDatatrafficMetrics" => |op, body| run::<cloud::DatatrafficMetrics, _>(op, body, |raw| {
        crate::cloud::metrics::metrics(raw, &metrics_query())
    }),
    "cloud.powerOnVirtualServer" => |op, body| run::<cloud::Job, _>(op, body, crate::cloud::normalize::job),
    "cloud.powerOffVirtualServer" => |op, body| run::<cloud::Job, _>(op, body, crate::cloud::normalize::job),
    "cloud.rebootVirtualServer" => |op, body| run::<cloud::Job, _>(op, body, crate::cloud::normalize::job),
    "cloud.reinstallVirtualServer" => |op, body| run::<cloud::Job, _>(op, body, crate::cloud::normalize::job),
    // CDN.
    "cdn.getPurgeJob" => |op, body| run::<cdn::PurgeJobStatus, _>(op, body, crate::cdn::purge::entries),
    "cdn.purgeZoneContent" => |op, body| run::<cdn::PurgeJobCreated, _>(op, body, |raw| Ok(PurgeJobId::from_wire(raw.success.to_string()))),
    "cdn.getAcl" => |op, body| run::<cdn::AclWrapper, _>(op, body, |raw| crate::cdn::acl::acl_answer(raw, CDN_CUSTOMER)),
    "cdn.replaceAcl" => |op, body| run::<cdn::AclWrapper, _>(op, body, |raw| crate::cdn::acl::acl_answer(raw, CDN_CUSTOMER)),
    "cdn.deleteAcl" => |op, body| run::<cdn::AclWrapper, _>(op, body, |raw| crate::cdn::acl::acl_answer(raw, CDN_CUSTOMER)),
    "cdn.getCustomer" => |op, body| run::<cdn::CustomerWrapper, _>(op, body, |raw| crate::cdn::customers::customer(raw.success).at("success")),
    "cdn.getSubCustomer" => |op, body| run::<cdn::SubCustomerWrapper, _>(op, body, crate::cdn::customers::sub_customers),
    "cdn.upsertSubCustomer" => |op, body| run::<cdn::SubCustomerWrapper, _>(op, body, crate::cdn::customers::sub_customers),
    "cdn.listOrigins" => |op, body| run::<cdn::OriginListWrapper, _>(op, body, crate::cdn::origins::origin_list),
    "cdn.getOrigin" => |op, body| run::<cdn::OriginWrapper, _>(op, body, |raw| crate::cdn::origins::one_origin(raw.success, raw.succes)),
    "cdn.createOrigin" => |op, body| run::<cdn::OriginWrapper, _>(op, body, |raw| crate::cdn::origins::one_origin(raw.success, raw.succes)),
}

/// The lease list, wrapped as documented or bare, as `BareMetalLeases::list` reads it:
/// the bare shape is tried when the wrapped one does not decode.
fn leases(operation: &'static str, body: &[u8]) -> Result<serde_json::Value, Error> {
    use crate::bare_metal::leases::{lease_list, lease_lists, or_unwrapped};
    let list = match decode_json::<infra::LeaseListArray>(operation, body) {
        Ok(raw) => lease_lists(raw.0).map_err(|e| decode_error(operation, &e, body))?,
        Err(error) => or_unwrapped::<infra::LeaseList, _>(error, lease_list)?,
    };
    Ok(to_json(operation, &list))
}

/// One lease, in a one-element array or bare, as `BareMetalLeases::get` reads it.
fn lease(operation: &'static str, body: &[u8]) -> Result<serde_json::Value, Error> {
    use crate::bare_metal::leases::{lease, or_unwrapped};
    let one = match decode_json::<infra::LeaseArray>(operation, body) {
        Ok(raw) => {
            let count = raw.0.len();
            match <[infra::Lease; 1]>::try_from(raw.0) {
                Ok([one]) => lease(one).at_index(0),
                Err(_) => Err(FieldError::new(format!(
                    "expected exactly one lease, found {count}"
                ))),
            }
            .map_err(|e| decode_error(operation, &e, body))?
        }
        Err(error) => or_unwrapped::<infra::Lease, _>(error, lease)?,
    };
    Ok(to_json(operation, &one))
}

fn to_json(operation: &str, value: &impl Serialize) -> serde_json::Value {
    serde_json::to_value(value)
        .unwrap_or_else(|e| panic!("{operation}: a normalised value does not serialise: {e}"))
}

/// The metrics query the metrics answers are read for: January 2024, summed.
fn metrics_query() -> MetricsQuery {
    let day = |d: u32| {
        chrono::NaiveDate::from_ymd_opt(2024, 1, d)
            .and_then(|date| date.and_hms_opt(0, 0, 0))
            .map(|time| time.and_utc())
            .unwrap_or_default()
    };
    MetricsQuery::new(day(1), day(31))
}

#[cfg(test)]
mod tests;
