//! Shared helpers for hostapi's integration tests: clients pointed at a mock server or
//! at the simulator, and the fixtures in `tests/fixtures/`. The tests themselves live in `tests/tests/`.

use std::path::PathBuf;

use hostapi::client::RetryPolicy;
use hostapi::{Client, ClientBuilder};
use hostapi_sim::Sim;
use httpmock::MockServer;

/// The API key the mock-server clients send.
pub const API_KEY: &str = "test-api-key-5e1f";
/// The CDN secret the mock-server clients sign with.
pub const CDN_SECRET: &str = "test-cdn-secret-9a7c";
/// The CDN customer number the mock-server clients act for.
pub const CDN_CUSTOMER: &str = "C123456";
/// The path of the CDN base URL on the mock server.
pub const CDN_BASE_PATH: &str = "/cdn";
/// The fixed clock CDN signatures are made with.
pub const CDN_TIMESTAMP: i64 = 1_700_000_000;

/// A client of all three interfaces pointed at `server`, retries off (so a test sees
/// each request once), CDN signatures made at [`CDN_TIMESTAMP`].
pub fn client(server: &MockServer) -> Client {
    Client::builder()
        .base_url(server.base_url())
        .api_key(API_KEY)
        .cdn_base_url(format!("{}{CDN_BASE_PATH}", server.base_url()))
        .cdn_secret(CDN_SECRET)
        .cdn_customer(CDN_CUSTOMER)
        .clock(hostapi::signing::FixedClock(CDN_TIMESTAMP))
        .retry_policy(RetryPolicy::never())
        .build()
        .expect("test client builds")
}

/// The settings of [`client`], not yet built, for a test that adds one.
pub fn client_builder(server: &MockServer) -> ClientBuilder {
    Client::builder()
        .base_url(server.base_url())
        .api_key(API_KEY)
        .cdn_base_url(format!("{}{CDN_BASE_PATH}", server.base_url()))
        .cdn_secret(CDN_SECRET)
        .cdn_customer(CDN_CUSTOMER)
        .clock(hostapi::signing::FixedClock(CDN_TIMESTAMP))
        .retry_policy(RetryPolicy::never())
}

/// The operation, JSON path and message of a decode error (also one inside an unknown
/// outcome); `None` for any other error.
pub fn decode_parts(error: &hostapi::Error) -> Option<(&'static str, &str, &str)> {
    match error {
        hostapi::Error::Decode(e) => Some((
            e.call.as_ref().map_or("", |c| c.operation),
            e.path.as_str(),
            e.message.as_str(),
        )),
        hostapi::Error::OutcomeUnknown(e) => decode_parts(&e.cause),
        _ => None,
    }
}

/// A client builder pointed at the simulator's three interfaces, acting for its CDN
/// customer with the given credentials (the simulator's own, or wrong ones a test
/// wants refused); each test adds its retry policy and timeout.
pub fn sim_client_builder(sim: &Sim, api_key: &str, cdn_secret: &str) -> ClientBuilder {
    Client::builder()
        .base_url(sim.base_url())
        .api_key(api_key)
        .cdn_base_url(sim.cdn_base_url())
        .cdn_secret(cdn_secret)
        .cdn_customer(sim.cdn_customer())
}

/// The text of `tests/fixtures/<name>`.
pub fn fixture(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A value serialised as the CLI's `--output json` would print it.
pub fn to_json<T: serde::Serialize>(value: &T) -> serde_json::Value {
    serde_json::to_value(value).expect("domain values serialise")
}

/// The same client as [`client`], reading answers strictly
/// ([`ClientBuilder::strict`]): a field the wire policy would forgive fails its record
/// (or the call) instead of reading as `None` with a warning.
pub fn strict_client(server: &MockServer) -> Client {
    Client::builder()
        .base_url(server.base_url())
        .api_key(API_KEY)
        .cdn_base_url(format!("{}{CDN_BASE_PATH}", server.base_url()))
        .cdn_secret(CDN_SECRET)
        .cdn_customer(CDN_CUSTOMER)
        .clock(hostapi::signing::FixedClock(CDN_TIMESTAMP))
        .retry_policy(RetryPolicy::never())
        .strict(true)
        .build()
        .expect("test client builds")
}

/// The documented sample answers in `tests/fixtures/` and the operation each is the
/// answer of (read by the mutation suite and the answer-field test).
pub const SAMPLE_ANSWERS: &[(&str, &str)] = &[
    (
        "bare-metal/bandwidth.json",
        "infra.getBareMetalBandwidthUsage",
    ),
    (
        "bare-metal/datatraffic.json",
        "infra.getBareMetalDataTrafficUsage",
    ),
    ("bare-metal/detail.json", "infra.getBareMetal"),
    ("bare-metal/detail_string_id.json", "infra.getBareMetal"),
    (
        "bare-metal/installation_status.json",
        "infra.getBareMetalInstallationStatus",
    ),
    ("bare-metal/ip.json", "infra.getBareMetalIp"),
    ("bare-metal/ips.json", "infra.listBareMetalIps"),
    ("bare-metal/lease.json", "infra.getBareMetalLease"),
    ("bare-metal/leases.json", "infra.listBareMetalLeases"),
    ("bare-metal/leases_bare.json", "infra.listBareMetalLeases"),
    ("bare-metal/list.json", "infra.listBareMetals"),
    (
        "bare-metal/network_usage.json",
        "infra.getBareMetalNetworkUsage",
    ),
    (
        "bare-metal/power_status.json",
        "infra.getBareMetalPowerStatus",
    ),
    (
        "bare-metal/root_password.json",
        "infra.getBareMetalRootPassword",
    ),
    (
        "bare-metal/switch_port.json",
        "infra.getBareMetalSwitchPort",
    ),
    ("cdn/acl.json", "cdn.getAcl"),
    ("cdn/customer.json", "cdn.getCustomer"),
    ("cdn/origin_succes.json", "cdn.getOrigin"),
    ("cdn/origin_success.json", "cdn.getOrigin"),
    ("cdn/origins.json", "cdn.listOrigins"),
    ("cdn/purge_status.json", "cdn.getPurgeJob"),
    ("cdn/sub_customers.json", "cdn.getSubCustomer"),
    ("cloud/credential.json", "cloud.getVirtualServerCredential"),
    (
        "cloud/credentials.json",
        "cloud.listVirtualServerCredentials",
    ),
    (
        "cloud/datatraffic.json",
        "cloud.getVirtualServerDatatrafficMetrics",
    ),
    ("cloud/job.json", "cloud.powerOnVirtualServer"),
    ("cloud/private_clouds.json", "cloud.listPrivateClouds"),
    ("cloud/virtual_server.json", "cloud.getVirtualServer"),
    ("cloud/virtual_servers.json", "cloud.listVirtualServers"),
    ("infra-rest/control_panels.json", "infra.listControlPanels"),
    ("infra-rest/dns_records.json", "infra.listDnsRecords"),
    ("infra-rest/domains.json", "infra.listDomains"),
    (
        "infra-rest/operating_systems.json",
        "infra.listOperatingSystems",
    ),
    (
        "infra-rest/partition_schema.json",
        "infra.getPartitionSchema",
    ),
    ("infra-rest/private_network.json", "infra.getPrivateNetwork"),
    (
        "infra-rest/private_networks.json",
        "infra.listPrivateNetworks",
    ),
    ("infra-rest/private_rack.json", "infra.getPrivateRack"),
    ("infra-rest/private_rack_ip.json", "infra.getPrivateRackIp"),
    (
        "infra-rest/private_rack_ips.json",
        "infra.listPrivateRackIps",
    ),
    ("infra-rest/private_racks.json", "infra.listPrivateRacks"),
    ("infra-rest/rescue_images.json", "infra.listRescueImages"),
    ("infra-rest/services.json", "infra.listServices"),
    (
        "infra-rest/private_rack_network_usage.json",
        "infra.getPrivateRackNetworkUsage",
    ),
    ("infra/virtual_servers.json", "infra.listVirtualServers"),
    ("docs/v1_virtual_server.json", "infra.getVirtualServer"),
    ("docs/v1_async_job.json", "infra.powerOnVirtualServer"),
    ("docs/domain.json", "infra.getDomain"),
    ("docs/dns_record.json", "infra.getDnsRecord"),
    ("docs/operating_system.json", "infra.getOperatingSystem"),
    ("docs/control_panel.json", "infra.getControlPanel"),
    (
        "docs/private_network_created.json",
        "infra.createPrivateNetwork",
    ),
    (
        "docs/private_network_deleted.json",
        "infra.deletePrivateNetwork",
    ),
    ("docs/purge_job.json", "cdn.purgeZoneContent"),
];
