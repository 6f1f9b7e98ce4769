//! Every record the simulator serves reads back from the JSON the SDK writes for it: a
//! value serialised (secrets exposed) and deserialised is equal to the value read from
//! the service. Written redacted, it still reads back, with placeholders for its
//! secrets, and writes the same JSON again.

use std::fmt::Debug;

use chrono::NaiveDate;
use hostapi::{
    Client, cloud::CredentialType, cloud::MetricsQuery, types::CustomerNumber, types::ZoneId,
    types::expose_secrets,
};
use hostapi_sim::{Sim, SimConfig};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// How many records of each list are also read in detail (and their parts).
const DETAILED: usize = 3;

/// A simulator (a fixed seed: the same data every run) and a strict client for it.
async fn sandbox() -> (Sim, Client) {
    let sim = Sim::start(SimConfig::default().with_seed(11))
        .await
        .expect("the simulator starts");
    let client = Client::builder()
        .base_url(sim.base_url())
        .api_key(sim.api_key())
        .cdn_base_url(sim.cdn_base_url())
        .cdn_secret(sim.cdn_secret())
        .cdn_customer(sim.cdn_customer())
        .strict(true)
        .build()
        .expect("a client");
    (sim, client)
}

/// The values checked, by kind, so that the test proves it saw each kind.
#[derive(Default)]
struct Checked {
    kinds: Vec<(&'static str, usize)>,
    secrets: usize,
}

impl Checked {
    /// Checks that `value` reads back from its own JSON.
    fn value<T>(&mut self, kind: &'static str, value: &T)
    where
        T: Serialize + DeserializeOwned + PartialEq + Debug,
    {
        let exposed = expose_secrets(|| serde_json::to_string(value)).expect("serialises");
        let back: T = serde_json::from_str(&exposed)
            .unwrap_or_else(|e| panic!("{kind} does not read back: {e}\n{exposed}"));
        assert_eq!(&back, value, "{kind} reads back different from\n{exposed}");

        let redacted = serde_json::to_string(value).expect("serialises");
        let placeholder: T = serde_json::from_str(&redacted)
            .unwrap_or_else(|e| panic!("{kind} written redacted does not read back: {e}"));
        let again = expose_secrets(|| serde_json::to_string(&placeholder)).expect("serialises");
        assert_eq!(again, redacted, "{kind}: a placeholder passes for a secret");
        if redacted != exposed {
            self.secrets += 1;
            assert_ne!(
                &placeholder, value,
                "{kind}: a placeholder equals the secret"
            );
        }

        match self.kinds.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, count)) => *count += 1,
            None => self.kinds.push((kind, 1)),
        }
    }

    fn all<T>(&mut self, kind: &'static str, values: &[T])
    where
        T: Serialize + DeserializeOwned + PartialEq + Debug,
    {
        assert!(!values.is_empty(), "the simulator has no {kind}");
        for value in values {
            self.value(kind, value);
        }
    }
}

fn day(year: i32, month: u32, day: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(year, month, day).expect("a date")
}

#[tokio::test]
async fn every_record_of_the_simulator_reads_back_from_its_json() {
    let (sim, client) = sandbox().await;
    let mut checked = Checked::default();

    // Bare metal servers, in the list and in detail, with their parts.
    let bare_metals = client.bare_metals();
    let servers = bare_metals.list().await.expect("bare metals");
    checked.all("BareMetalServer", &servers);
    for server in servers.iter().take(DETAILED) {
        let id = &server.id;
        checked.value("BareMetalServer", &bare_metals.get(id).await.expect("get"));
        checked.value(
            "SwitchPort",
            &bare_metals.switch_port(id).await.expect("port"),
        );
        let power = bare_metals.power_status(id).await.expect("power");
        checked.value("BareMetalPowerStatus", &power);
        let install = bare_metals.installation_status(id).await.expect("install");
        checked.value("InstallationStatus", &install);
        let passwords = bare_metals.root_password(id).await.expect("passwords");
        checked.value("BareMetalPasswords", &passwords);
        let ips = bare_metals.ips(id).list().await.expect("ips");
        checked.all("IpAddress", &ips);
        let leases = bare_metals.leases(id).list().await.expect("leases");
        for lease in leases.iter() {
            checked.value("DhcpLease", lease);
        }
        let usage = bare_metals
            .network_usage(id, day(2024, 3, 1), day(2024, 3, 31))
            .await
            .expect("usage");
        checked.value("BareMetalNetworkUsage", &usage);
    }

    // v1 virtual servers.
    let virtual_servers = client.virtual_servers();
    let servers = virtual_servers.list().await.expect("virtual servers");
    checked.all("VirtualServer", &servers);
    for server in servers.iter().take(DETAILED) {
        let detail = virtual_servers.get(&server.id).await.expect("get");
        checked.value("VirtualServer", &detail);
    }

    // Cloud servers, their credentials (passwords are secrets) and traffic.
    let cloud = client.cloud_servers();
    let servers = cloud.list().await.expect("cloud servers");
    checked.all("CloudServer", &servers);
    for server in servers.iter().take(DETAILED) {
        checked.value("CloudServer", &cloud.get(&server.id).await.expect("get"));
        let credentials = cloud.credentials(&server.id);
        for kind in [
            CredentialType::OperatingSystem,
            CredentialType::ControlPanel,
        ] {
            let listed = credentials.list(kind.clone()).await.expect("credentials");
            for credential in listed.iter() {
                checked.value("Credential", credential);
                let one = credentials
                    .get(kind.clone(), &credential.username)
                    .await
                    .expect("a credential");
                checked.value("Credential", &one);
            }
        }
        let query =
            MetricsQuery::parse("2024-01-01T00:00:00Z", "2024-01-04T00:00:00Z").expect("a query");
        let traffic = cloud
            .datatraffic(&server.id, &query)
            .await
            .expect("traffic");
        checked.value("TrafficMetrics", &traffic);
    }
    let clouds = client
        .private_clouds()
        .list()
        .await
        .expect("private clouds");
    checked.all("PrivateCloud", &clouds);

    // Domains and their DNS records.
    let domains = client.domains();
    let listed = domains.list().await.expect("domains");
    checked.all("Domain", &listed);
    for domain in listed.iter().take(DETAILED) {
        checked.value("Domain", &domains.get(&domain.name).await.expect("get"));
        let records = domains.records(&domain.name).list().await.expect("records");
        checked.all("DnsRecord", &records);
    }

    // Private racks and networks.
    let racks = client.private_racks();
    let listed = racks.list().await.expect("racks");
    checked.all("PrivateRack", &listed);
    for rack in listed.iter().take(DETAILED) {
        checked.value("PrivateRack", &racks.get(&rack.id).await.expect("get"));
        let ips = racks.ips(&rack.id).list().await.expect("rack ips");
        for ip in ips.iter() {
            checked.value("IpAddress", ip);
        }
        let usage = racks
            .network_usage(&rack.id, day(2024, 3, 1), day(2024, 3, 31))
            .await
            .expect("usage");
        checked.value("RackNetworkUsage", &usage);
    }
    let networks = client.private_networks();
    let listed = networks.list().await.expect("networks");
    checked.all("PrivateNetwork", &listed);
    for network in listed.iter().take(DETAILED) {
        checked.value(
            "PrivateNetwork",
            &networks.get(&network.id).await.expect("get"),
        );
    }

    // The catalogues.
    let catalog = client.catalog();
    let systems = catalog.operating_systems().list().await.expect("systems");
    checked.all("OperatingSystem", &systems);
    for os in systems.iter().take(DETAILED) {
        let panels = catalog
            .operating_systems()
            .control_panels(&os.id)
            .list()
            .await
            .expect("panels");
        for panel in panels.iter() {
            checked.value("ControlPanel", panel);
        }
    }
    let images = catalog.rescue_images().list().await.expect("rescue images");
    checked.all("RescueImage", &images);
    checked.value(
        "ServiceList",
        &catalog.services().get().await.expect("services"),
    );

    // The CDN: the customer (its secret), sub-customers, ACL, origins, a purge.
    let cdn = client.cdn();
    let customer = cdn.customers().get().await.expect("the customer");
    checked.value("CdnCustomer", &customer);
    let own = customer.customer_number.clone().expect("a number");
    for n in 1..=3 {
        let number = CustomerNumber::new(format!("{own}{n:02}")).expect("a number");
        let sub = cdn
            .sub_customers()
            .get(&number)
            .await
            .expect("sub-customer");
        checked.value("SubCustomer", &sub);
    }
    checked.value("Acl", &cdn.acl().get().await.expect("acl"));
    let origins = cdn.origins().list().await.expect("origins");
    checked.all("Origin", &origins);
    for origin in origins.iter().take(DETAILED) {
        checked.value("Origin", &cdn.origins().get(&origin.id).await.expect("get"));
    }
    let zone = ZoneId::new("1001").expect("a zone");
    let job = cdn.purge(&zone, &["/a.css"]).await.expect("purge");
    checked.value("PurgeJob", &job);
    let status = cdn.purge_status(&zone, &job.id).await.expect("status");
    checked.value("PurgeJob", &status);

    sim.shutdown().await;

    let kinds: Vec<&str> = checked.kinds.iter().map(|(kind, _)| *kind).collect();
    for kind in [
        "BareMetalServer",
        "BareMetalPasswords",
        "VirtualServer",
        "CloudServer",
        "Credential",
        "Domain",
        "DnsRecord",
        "PrivateRack",
        "PrivateNetwork",
        "Origin",
        "CdnCustomer",
        "PurgeJob",
    ] {
        assert!(kinds.contains(&kind), "no {kind} was checked: {kinds:?}");
    }
    assert!(
        checked.secrets > 0,
        "no value with a secret was checked: {:?}",
        checked.kinds
    );
}
