//! Entry points for benchmarks, the mutation suite, property tests and fuzzing: an
//! answer body read as one operation's answer would be, without HTTP. Not part of the
//! API: hidden from the docs and free to change.
//!
//! [`decode`] covers every operation whose answer the facade reads as JSON (the PNG
//! graphs and the answers it ignores are not here), with the same readers as the
//! facade's calls. Operations that need context from the call get a fixed one: the ACL
//! answers are read for customer [`CDN_CUSTOMER`], a private network detail for network
//! [`PRIVATE_NETWORK`], a sub-customer answer for [`SUB_CUSTOMER`], cloud credentials as
//! OPERATING_SYSTEM ones, and metrics for January 2024.

pub mod unmodelled;

use std::time::Duration;

use serde::Serialize;

use crate::error::CallInfo;
use crate::read::Records;
use crate::read::{Cursor, FieldError, Json, ReadMode, Reading};
use crate::scrub::Scrubber;
use crate::{
    CredentialType, CustomerNumber, Error, MetricsQuery, PrivateNetworkId, PurgeJobId,
    VirtualServer, ZoneId,
};

/// The customer number the ACL answers are read for.
pub const CDN_CUSTOMER: &str = "C123456";
/// The private network a detail answer is read for (an answer of one network is read
/// whatever its id).
pub const PRIVATE_NETWORK: &str = "501";
/// The sub-customer a sub-customer answer is read for (an answer of one is read
/// whatever its number).
pub const SUB_CUSTOMER: &str = "7001";
/// The zone a purge answer is read for.
pub const ZONE: &str = "1001";
/// The job a purge status answer is read for.
pub const JOB: &str = "5002";

/// How [`decode`] reads: leniently, as a client does by default, or strictly (a
/// field the wire policy had to forgive is an error).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// As a default client reads.
    Lenient,
    /// As a strict client reads.
    Strict,
}

/// `GET /v1/virtualServers` read as the list call does (for the decode benchmark).
pub fn virtual_server_list(body: &[u8]) -> Result<Vec<VirtualServer>, Error> {
    let call = call("listVirtualServers");
    let scrub = Scrubber::default();
    Reading::new(&call, ReadMode::default(), &scrub)
        .list_at(
            body,
            crate::virtual_servers::read::SERVERS,
            crate::virtual_servers::read::server,
        )?
        .into_result()
}

fn call(operation: &'static str) -> CallInfo {
    CallInfo {
        operation,
        method: "",
        path: String::new(),
        attempts: 1,
        elapsed: Duration::ZERO,
    }
}

/// A reader of one record or value of the answer.
type One<T> = for<'a> fn(&mut Cursor, Json<'a>) -> Result<T, FieldError>;
/// Where a list's records are in the answer.
type Items = for<'a> fn(&mut Cursor, Json<'a>) -> Result<Records<'a>, FieldError>;

fn one<T: Serialize>(
    reading: &Reading<'_>,
    body: &[u8],
    read: One<T>,
) -> Result<serde_json::Value, Error> {
    let value = reading.one(body, read)?;
    Ok(to_json(&value))
}

/// A list's records and, when the answer had members beside them, those under
/// `{"records": […], "extra": {…}}`.
fn list<T: Serialize>(
    reading: &Reading<'_>,
    body: &[u8],
    items: Items,
    read: One<T>,
) -> Result<serde_json::Value, Error> {
    listing_json(reading.list(body, items, read)?)
}

/// A listing's records, and its `extra` when it has one (see [`list`]).
fn listing_json<T: Serialize>(listing: crate::Listing<T>) -> Result<serde_json::Value, Error> {
    let extra = to_json(listing.extra());
    let records = to_json(&listing.into_result()?);
    Ok(if extra.as_object().is_some_and(|e| !e.is_empty()) {
        serde_json::json!({"records": records, "extra": extra})
    } else {
        records
    })
}

/// [`list`] of the records under the member `key` of the answer (see
/// [`Reading::list_at`]).
fn list_at<T: Serialize>(
    reading: &Reading<'_>,
    body: &[u8],
    key: &'static str,
    read: One<T>,
) -> Result<serde_json::Value, Error> {
    listing_json(reading.list_at(body, key, read)?)
}

/// The value serialised as the CLI's `--output json` would, secrets included (a mutation
/// must read the same secret).
///
/// # Panics
///
/// When a value does not serialise: every domain type must, and the CLI relies on it,
/// so a fuzzer should hear of it.
fn to_json<T: Serialize>(value: &T) -> serde_json::Value {
    crate::expose_secrets(|| serde_json::to_value(value)).expect("domain values serialise")
}

/// The table: each name with how its answer is read.
macro_rules! operations {
    ($($name:literal => $decode:expr,)*) => {
        /// Every operation [`decode`] knows, as `interface.operationId`
        /// (`infra.listDomains`, `cloud.getVirtualServer`, `cdn.getOrigin`).
        pub const OPERATIONS: &[&str] = &[$($name),*];

        /// Reads `body` as the answer of `operation` (one of [`OPERATIONS`]) as the
        /// facade's call would, and answers the value serialised to JSON. A body that is
        /// not the answer, or a list with a record that cannot be read, is
        /// [`Error::Decode`]; an unknown operation is [`Error::InvalidInput`].
        pub fn decode(operation: &str, body: &[u8], mode: Mode) -> Result<serde_json::Value, Error> {
            let scrub = Scrubber::default();
            let mode = ReadMode { strict: mode == Mode::Strict };
            match operation {
                $($name => {
                    let info = call($name);
                    let reading = Reading::new(&info, mode, &scrub);
                    let decode: fn(&Reading<'_>, &[u8]) -> Result<serde_json::Value, Error> = $decode;
                    decode(&reading, body)
                })*
                other => Err(Error::invalid(
                    "operation",
                    format!("`{}` is not an operation with a JSON answer", other.escape_debug()),
                )),
            }
        }
    };
}

fn credentials_page<'a>(cursor: &mut Cursor, body: Json<'a>) -> Result<Records<'a>, FieldError> {
    crate::cloud::read::page(cursor, body, "credentials", &mut None)
}

fn servers_page<'a>(cursor: &mut Cursor, body: Json<'a>) -> Result<Records<'a>, FieldError> {
    crate::cloud::read::page(cursor, body, "virtualServers", &mut None)
}

fn private_clouds_page<'a>(cursor: &mut Cursor, body: Json<'a>) -> Result<Records<'a>, FieldError> {
    crate::cloud::read::page(cursor, body, "privateClouds", &mut None)
}

fn leases_page<'a>(cursor: &mut Cursor, body: Json<'a>) -> Result<Records<'a>, FieldError> {
    crate::bare_metal::leases::leases(cursor, body, &mut None)
}

fn private_networks_page<'a>(
    cursor: &mut Cursor,
    body: Json<'a>,
) -> Result<Records<'a>, FieldError> {
    crate::private_networks::read::networks(cursor, body, &mut None)
}

fn os_credential(cursor: &mut Cursor, json: Json<'_>) -> Result<crate::Credential, FieldError> {
    crate::cloud::read::credential(&CredentialType::OperatingSystem)(cursor, json)
}

fn january_metrics(
    cursor: &mut Cursor,
    body: Json<'_>,
) -> Result<crate::TrafficMetrics, FieldError> {
    use chrono::TimeZone;
    let query = MetricsQuery::new(
        chrono::Utc
            .with_ymd_and_hms(2024, 1, 1, 0, 0, 0)
            .single()
            .unwrap_or_default(),
        chrono::Utc
            .with_ymd_and_hms(2024, 2, 1, 0, 0, 0)
            .single()
            .unwrap_or_default(),
    );
    crate::cloud::metrics::metrics(&query)(cursor, body)
}

fn network_501(cursor: &mut Cursor, body: Json<'_>) -> Result<crate::PrivateNetwork, FieldError> {
    let network = known(cursor, PrivateNetworkId::new(PRIVATE_NETWORK))?;
    crate::private_networks::read::detail_in_array(&network)(cursor, body)
}

fn acl_of_customer(cursor: &mut Cursor, body: Json<'_>) -> Result<crate::Acl, FieldError> {
    crate::cdn::payload(cursor, body, |cursor, json| {
        crate::cdn::acl::of_customer(cursor, json, CDN_CUSTOMER)
    })
}

fn sub_customer(cursor: &mut Cursor, body: Json<'_>) -> Result<crate::SubCustomer, FieldError> {
    let number = known(cursor, CustomerNumber::new(SUB_CUSTOMER))?;
    crate::cdn::payload(cursor, body, |cursor, json| {
        crate::cdn::customers::the_one(cursor, json, &number)
    })
}

fn origin_answer(cursor: &mut Cursor, body: Json<'_>) -> Result<crate::Origin, FieldError> {
    crate::cdn::payload(cursor, body, crate::cdn::origins::origin)
}

fn purge_entries(cursor: &mut Cursor, body: Json<'_>) -> Result<crate::PurgeJob, FieldError> {
    let zone = known(cursor, ZoneId::new(ZONE))?;
    let job = known(cursor, PurgeJobId::new(JOB))?;
    crate::cdn::purge::status_answer(cursor, body, &zone, &job)
}

fn purge_job(cursor: &mut Cursor, body: Json<'_>) -> Result<crate::PurgeJob, FieldError> {
    let zone = known(cursor, ZoneId::new(ZONE))?;
    crate::cdn::purge::purge_answer(cursor, body, &zone, &["/index.html".to_owned()])
}

/// All the sub-customers of an answer, with its other members.
fn all_sub_customers(cursor: &mut Cursor, body: Json<'_>) -> Result<serde_json::Value, FieldError> {
    let (records, extra) =
        crate::cdn::payload_parts(cursor, body, crate::cdn::customers::sub_customers)?;
    Ok(serde_json::json!({"records": to_json(&records), "extra": to_json(&extra)}))
}

fn single_v1_server(cursor: &mut Cursor, body: Json<'_>) -> Result<VirtualServer, FieldError> {
    let Records {
        path,
        mut items,
        extra,
    } = crate::read::shapes::items(cursor, body, crate::virtual_servers::read::SERVERS)?;
    match (items.pop(), items.is_empty()) {
        (Some(item), true) => {
            let mut server = cursor.within(&format!("{path}[0]"), |cursor| {
                crate::virtual_servers::read::server(cursor, item)
            })?;
            server.extra.extend(extra);
            Ok(server)
        }
        _ => Err(cursor.error(&path, "expected exactly one server")),
    }
}

fn services(_: &mut Cursor, body: Json<'_>) -> Result<serde_json::Value, FieldError> {
    Ok(body.into_value())
}

fn message(
    cursor: &mut Cursor,
    body: Json<'_>,
) -> Result<crate::DeletedPrivateNetwork, FieldError> {
    crate::private_networks::read::deleted(cursor, body)
}

use crate::bare_metal::read as bare_metal;
use crate::catalog::read as catalog;
use crate::cloud::read as cloud;
use crate::domains::read as domains;
use crate::ips::read as ips;
use crate::private_networks::read as networks;
use crate::private_racks::read as racks;
use crate::virtual_servers::read as vps;

operations! {
    // v1: bare metal.
    "infra.listBareMetals" => |r, b| list_at(r, b, bare_metal::SERVERS, bare_metal::wrapped_server),
    "infra.getBareMetal" => |r, b| one(r, b, bare_metal::wrapped_server),
    "infra.updateBareMetalReference" => |r, b| one(r, b, bare_metal::wrapped_server),
    "infra.getBareMetalInstallationStatus" => |r, b| one(r, b, bare_metal::installation_status),
    "infra.listBareMetalIps" => |r, b| list_at(r, b, ips::IPS, ips::wrapped_ip),
    "infra.getBareMetalIp" => |r, b| one(r, b, ips::wrapped_ip),
    "infra.updateBareMetalIp" => |r, b| one(r, b, ips::wrapped_ip),
    "infra.listBareMetalLeases" => |r, b| list(r, b, leases_page, crate::bare_metal::leases::lease),
    "infra.getBareMetalLease" => |r, b| one(r, b, crate::bare_metal::leases::single_lease),
    "infra.getBareMetalNetworkUsage" => |r, b| one(r, b, crate::bare_metal::usage::combined),
    "infra.getBareMetalBandwidthUsage" => |r, b| one(r, b, crate::bare_metal::usage::bandwidth_answer),
    "infra.getBareMetalDataTrafficUsage" => |r, b| one(r, b, crate::bare_metal::usage::data_traffic_answer),
    "infra.getBareMetalPowerStatus" => |r, b| one(r, b, bare_metal::power_status),
    "infra.getBareMetalRootPassword" => |r, b| one(r, b, bare_metal::passwords),
    "infra.getBareMetalSwitchPort" => |r, b| one(r, b, bare_metal::switch_port),
    "infra.openBareMetalSwitchPort" => |r, b| one(r, b, bare_metal::switch_port),
    "infra.closeBareMetalSwitchPort" => |r, b| one(r, b, bare_metal::switch_port),
    // v1: domains and DNS.
    "infra.listDomains" => |r, b| list_at(r, b, domains::DOMAINS, domains::wrapped_domain),
    "infra.getDomain" => |r, b| one(r, b, domains::wrapped_domain),
    "infra.updateDomainTtl" => |r, b| one(r, b, domains::wrapped_domain),
    "infra.listDnsRecords" => |r, b| list_at(r, b, domains::RECORDS, domains::wrapped_record),
    "infra.getDnsRecord" => |r, b| one(r, b, domains::wrapped_record),
    "infra.createDnsRecord" => |r, b| one(r, b, domains::wrapped_record),
    "infra.updateDnsRecord" => |r, b| one(r, b, domains::wrapped_record),
    // v1: IPs and catalogues.
    "infra.updateIp" => |r, b| one(r, b, ips::wrapped_ip),
    "infra.listOperatingSystems" => |r, b| list_at(r, b, catalog::OPERATING_SYSTEMS, catalog::operating_system),
    "infra.getOperatingSystem" => |r, b| one(r, b, catalog::operating_system),
    "infra.listControlPanels" => |r, b| list_at(r, b, catalog::CONTROL_PANELS, catalog::control_panel),
    "infra.getControlPanel" => |r, b| one(r, b, catalog::control_panel),
    "infra.getPartitionSchema" => |r, b| one(r, b, catalog::partition_schema),
    "infra.listRescueImages" => |r, b| list_at(r, b, catalog::RESCUE_IMAGES, catalog::rescue_image),
    "infra.listServices" => |r, b| one(r, b, services),
    // v1: private networks and racks.
    "infra.listPrivateNetworks" => |r, b| list(r, b, private_networks_page, networks::list_item),
    "infra.createPrivateNetwork" => |r, b| one(r, b, networks::created),
    "infra.getPrivateNetwork" => |r, b| one(r, b, network_501),
    "infra.deletePrivateNetwork" => |r, b| one(r, b, message),
    "infra.listPrivateRacks" => |r, b| list_at(r, b, racks::RACKS, racks::wrapped_rack),
    "infra.getPrivateRack" => |r, b| one(r, b, racks::wrapped_rack),
    "infra.listPrivateRackIps" => |r, b| list_at(r, b, ips::IPS, ips::wrapped_ip),
    "infra.getPrivateRackIp" => |r, b| one(r, b, ips::wrapped_ip),
    "infra.updatePrivateRackIp" => |r, b| one(r, b, ips::wrapped_ip),
    "infra.getPrivateRackNetworkUsage" => |r, b| one(r, b, services),
    // v1: virtual servers.
    "infra.listVirtualServers" => |r, b| list_at(r, b, vps::SERVERS, vps::server),
    "infra.getVirtualServer" => |r, b| one(r, b, single_v1_server),
    "infra.powerOnVirtualServer" => |r, b| one(r, b, vps::job),
    "infra.powerOffVirtualServer" => |r, b| one(r, b, vps::job),
    "infra.rebootVirtualServer" => |r, b| one(r, b, vps::job),
    "infra.reinstallVirtualServer" => |r, b| one(r, b, vps::job),
    // cloud v2.
    "cloud.listVirtualServers" => |r, b| list(r, b, servers_page, cloud::server),
    "cloud.getVirtualServer" => |r, b| one(r, b, cloud::server),
    "cloud.updateVirtualServer" => |r, b| one(r, b, cloud::server),
    "cloud.powerOnVirtualServer" => |r, b| one(r, b, cloud::job),
    "cloud.powerOffVirtualServer" => |r, b| one(r, b, cloud::job),
    "cloud.rebootVirtualServer" => |r, b| one(r, b, cloud::job),
    "cloud.reinstallVirtualServer" => |r, b| one(r, b, cloud::job),
    "cloud.listVirtualServerCredentials" => |r, b| list(r, b, credentials_page, os_credential),
    "cloud.getVirtualServerCredential" => |r, b| one(r, b, os_credential),
    "cloud.getVirtualServerDatatrafficMetrics" => |r, b| one(r, b, january_metrics),
    "cloud.listPrivateClouds" => |r, b| list(r, b, private_clouds_page, cloud::private_cloud),
    // CDN.
    "cdn.purgeZoneContent" => |r, b| one(r, b, purge_job),
    "cdn.getPurgeJob" => |r, b| one(r, b, purge_entries),
    "cdn.getCustomer" => |r, b| one(r, b, crate::cdn::customers::customer_answer),
    "cdn.getSubCustomer" => |r, b| one(r, b, all_sub_customers),
    "cdn.upsertSubCustomer" => |r, b| one(r, b, sub_customer),
    "cdn.getAcl" => |r, b| one(r, b, acl_of_customer),
    "cdn.replaceAcl" => |r, b| one(r, b, acl_of_customer),
    "cdn.deleteAcl" => |r, b| one(r, b, acl_of_customer),
    "cdn.listOrigins" => |r, b| list(r, b, crate::cdn::origins::origin_items, crate::cdn::origins::origin),
    "cdn.getOrigin" => |r, b| one(r, b, origin_answer),
    "cdn.createOrigin" => |r, b| one(r, b, origin_answer),
}

/// One of the ids above, made by its rule (which they pass).
fn known<T>(cursor: &Cursor, id: Result<T, crate::Error>) -> Result<T, FieldError> {
    id.map_err(|error| cursor.error("", error.to_string()))
}

/// `id`, as a server could send it for any id, read as every typed id is read from the
/// wire; each id that passes its rule is put into every operation's path as the
/// generated builders do, and checked against the operation's template. Answers how
/// many requests were built, or what went wrong (an id that passed its rule and made a
/// request off its template, or one the transport's check would have let through).
/// For the `request_paths` fuzz target.
pub fn wire_id_requests(id: &str) -> Result<usize, String> {
    crate::transport::route::wire_id_requests(id)
}
