//! Bare metal servers: reads, reference, switch port, power, passwords, IPs, DHCP
//! leases, installation and rescue mode (with their waiters), network usage.
//!
//! Each scenario works on its own servers (by dataset index), so scenarios can share a
//! simulator in any order.

use std::net::IpAddr;

use hostapi::bare_metal::{
    BareMetalPowerState, InstallPartition, InstallRequest, NewDhcpLease, PartitionLayout,
    SwitchPortStatus,
};
use hostapi::ips::{IpUpdate, ServerKind};
use hostapi::types::{BareMetalId, MacAddress, OperatingSystemId, RescueImageId};
use hostapi_sim::{INSTALL_SECS, RESCUE_SECS};

use crate::support::{Env, day, service_error, waits};

/// The first bytes of every PNG file.
const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

fn server(id: u32) -> BareMetalId {
    BareMetalId::from(id)
}

/// List and read; set the reference; close and open the switch port; power status and
/// power cycle; the passwords, as secrets.
pub(crate) async fn bare_metal_servers(env: &Env) {
    let bare_metals = env.client.bare_metals();
    let list = bare_metals.list().await.expect("list");
    let ids: Vec<&str> = list.iter().map(|s| s.id.as_str()).collect();
    let expected: Vec<String> = (20_001..=20_020).map(|n: u32| n.to_string()).collect();
    assert_eq!(ids, expected);

    // Index 1: `bareMetalId` a string in the detail.
    let id = server(20_002);
    let detail = bare_metals.get(&id).await.expect("get");
    assert_eq!(detail.id, id);
    assert_eq!(detail.name, list[1].name);
    assert_eq!(detail.server_type, list[1].server_type);
    assert!(
        detail.location.is_some()
            && detail.hardware.is_some()
            && detail.network.is_some()
            && detail.contract.is_some()
            && detail.sla.is_some(),
        "{detail:?}"
    );

    let answered = bare_metals
        .update(&id, "e2e reference")
        .await
        .expect("set reference");
    assert_eq!(answered.reference.as_deref(), Some("e2e reference"));
    let read = bare_metals.get(&id).await.expect("get");
    assert_eq!(read.reference.as_deref(), Some("e2e reference"));
    let relisted = bare_metals.list().await.expect("list");
    assert_eq!(relisted[1].reference.as_deref(), Some("e2e reference"));
    // An empty reference clears it.
    let cleared = bare_metals.update(&id, "").await.expect("clear");
    assert_eq!(cleared.reference, None);
    assert_eq!(bare_metals.get(&id).await.expect("get").reference, None);
    bare_metals
        .update(&id, "e2e reference")
        .await
        .expect("set reference");

    // Index 10 starts with its switch port closed.
    let closed = server(20_011);
    let port = bare_metals.switch_port(&closed).await.expect("switch port");
    assert_eq!(port.status, Some(SwitchPortStatus::Closed));
    let opened = bare_metals
        .open_switch_port(&closed)
        .await
        .expect("open port");
    assert_eq!(opened.status, Some(SwitchPortStatus::Open));
    let port = bare_metals.switch_port(&closed).await.expect("switch port");
    assert_eq!(port.status, Some(SwitchPortStatus::Open));
    let shut = bare_metals
        .close_switch_port(&closed)
        .await
        .expect("close port");
    assert_eq!(shut.status, Some(SwitchPortStatus::Closed));
    let port = bare_metals.switch_port(&closed).await.expect("switch port");
    assert_eq!(port.status, Some(SwitchPortStatus::Closed));
    assert_eq!(port.server_id.as_ref(), Some(&closed));

    // Index 16 is powered off, the others on.
    let off = bare_metals
        .power_status(&server(20_017))
        .await
        .expect("power status");
    assert_eq!(off.status, Some(BareMetalPowerState::Off));
    let on = bare_metals.power_status(&id).await.expect("power status");
    assert_eq!(on.status, Some(BareMetalPowerState::On));
    bare_metals.power_cycle(&id).await.expect("power cycle");
    // Off while it cycles, then on again.
    env.sim
        .advance_clock(hostapi_sim::POWER_CYCLE_SECS)
        .expect("advance");
    let on = bare_metals.power_status(&id).await.expect("power status");
    assert_eq!(on.status, Some(BareMetalPowerState::On));

    let passwords = bare_metals.root_password(&id).await.expect("passwords");
    let root = passwords.root_password.as_ref().expect("a root password");
    assert!(!root.expose().is_empty());
    let shown = format!("{passwords:?}");
    assert!(
        !shown.contains(root.expose()),
        "Debug shows the password: {shown}"
    );
}

/// The IPs of a server: list and read; reverse lookup and null routing set through the
/// server's IP handle and through `/v1/ips`, each read back.
pub(crate) async fn bare_metal_ips(env: &Env) {
    // Index 3 has four IPs.
    let id = server(20_004);
    let ips = env.client.bare_metals().ips(&id);
    let list = ips.list().await.expect("list ips");
    assert_eq!(list.len(), 4, "{list:?}");
    for ip in &list {
        let one = ips.get(ip.ip).await.expect("get ip");
        assert_eq!(&one, ip, "the single view is the list's record");
        let owner = one.server.as_ref().expect("the server it is assigned to");
        assert_eq!(owner.id.as_deref(), Some("20004"));
    }

    let address = list[1].ip;
    let name = "bm-e2e.example.com";
    let answered = ips
        .update(address, &IpUpdate::ReverseDns(name.into()))
        .await
        .expect("set reverse lookup");
    assert_eq!(answered.reverse_dns.as_deref(), Some(name));
    let read = ips.get(address).await.expect("get");
    assert_eq!(read.reverse_dns.as_deref(), Some(name));

    for routed in [true, false] {
        let answered = ips
            .update(address, &IpUpdate::NullRouted(routed))
            .await
            .expect("null routing");
        assert_eq!(answered.null_routed, Some(routed));
        let read = ips.get(address).await.expect("get");
        assert_eq!(read.null_routed, Some(routed));
        assert_eq!(read.reverse_dns.as_deref(), Some(name), "kept");
    }

    // `/v1/ips/{ip}` reaches the same IP.
    let other = list[2].ip;
    let name = "ips-e2e.example.com";
    let answered = env
        .client
        .ips()
        .update(other, &IpUpdate::ReverseDns(name.into()))
        .await
        .expect("update ip");
    assert_eq!(answered.reverse_dns.as_deref(), Some(name));
    let owner = answered
        .server
        .as_ref()
        .expect("the server it is assigned to");
    assert_eq!(owner.id.as_deref(), Some("20004"));
    assert_eq!(owner.kind, Some(ServerKind::BareMetal));
    let read = ips.get(other).await.expect("get");
    assert_eq!(read.reverse_dns.as_deref(), Some(name));
    // Both views describe the same IP alike.
    assert_eq!(
        (&answered.billing, &answered.gateway, &answered.netmask),
        (&read.billing, &read.gateway, &read.netmask)
    );
    env.client
        .ips()
        .update(other, &IpUpdate::NullRouted(true))
        .await
        .expect("null route");
    assert_eq!(ips.get(other).await.expect("get").null_routed, Some(true));
}

/// DHCP leases: list and read the lease a server starts with; delete it; create one;
/// delete them all; each read back.
pub(crate) async fn bare_metal_leases(env: &Env) {
    // Index 2 (even) starts with one lease, for its first MAC.
    let id = server(20_003);
    let detail = env.client.bare_metals().get(&id).await.expect("get");
    let mac = detail
        .network
        .as_ref()
        .and_then(|n| n.mac_addresses.first())
        .cloned()
        .expect("a MAC address");
    let leases = env.client.bare_metals().leases(&id);

    let list = leases.list().await.expect("list leases");
    assert_eq!(list.len(), 1, "{list:?}");
    assert!(list.is_complete(), "{list:?}");
    assert_eq!(list[0].mac, mac);
    let one = leases.get(&mac).await.expect("get lease");
    assert_eq!(one, list[0]);
    // MACs are matched whatever their letter case.
    let shouted = MacAddress::new(mac.as_str().to_uppercase()).expect("a MAC address");
    let shouted = leases.get(&shouted).await.expect("get lease");
    assert_eq!(shouted, one);

    leases.delete(&mac).await.expect("delete lease");
    service_error(leases.get(&mac).await, "getBareMetalLease", 404);
    assert!(leases.list().await.expect("list").is_empty());

    let new = NewDhcpLease::new(
        "http://boot.example.net/e2e.ipxe",
        IpAddr::from([10, 0, 0, 5]),
        IpAddr::from([10, 0, 0, 53]),
    );
    leases.create(&new).await.expect("create lease");
    let created = leases.get(&mac).await.expect("get lease");
    assert_eq!(created.mac, mac);
    let values: Vec<&str> = created
        .options
        .iter()
        .filter_map(|o| o.value.as_deref())
        .collect();
    for wanted in [
        new.boot_file_name.clone(),
        new.boot_server.to_string(),
        new.dns_server.to_string(),
    ] {
        assert!(values.contains(&wanted.as_str()), "{wanted} in {values:?}");
    }
    let list = leases.list().await.expect("list");
    assert_eq!(list.items(), [created]);

    leases.delete_all().await.expect("delete all leases");
    let list = leases.list().await.expect("list");
    assert!(list.is_empty() && list.is_complete(), "{list:?}");
}

/// Installation: one server with a partition layout and software RAID (the form the
/// facade writes by hand), one with software RAID only and one with the service's
/// defaults (the generated call); all waited for until the installation is over.
pub(crate) async fn bare_metal_install(env: &Env) {
    let bare_metals = env.client.bare_metals();
    let os = OperatingSystemId::from(205u32);
    // Index 4: two disks; index 5 and 9: four disks.
    let laid_out = server(20_005);
    let raid_only = server(20_006);
    let plain = server(20_010);

    let schema = env
        .client
        .catalog()
        .operating_systems()
        .partition_schema(&os, &laid_out)
        .await
        .expect("partition schema");
    assert_eq!(schema.disks.len(), 2, "{schema:?}");
    let filesystem = schema
        .filesystem_types
        .iter()
        .find(|t| *t != "swap")
        .expect("a filesystem")
        .clone();
    let layout = PartitionLayout::new(schema.disks[0].clone())
        .partition(InstallPartition::megabytes(filesystem.clone(), 512).mountpoint("/boot"))
        .partition(InstallPartition::megabytes("swap", 4096))
        .partition(InstallPartition::rest(filesystem).mountpoint("/"))
        .bootable(0);
    let with_layout = InstallRequest::new(os.clone()).hdd(layout).raid(1, 2);

    // The status before each installation: the waiters prove the installation from it.
    // No installation is running; at some seeds a server's last one failed (code 1003),
    // and a new installation is allowed all the same.
    let mut before = Vec::new();
    for id in [&laid_out, &raid_only, &plain] {
        let status = bare_metals
            .installation_status(id)
            .await
            .expect("installation status");
        let failed_before = status.code == Some(1003);
        assert!(status.is_idle() || failed_before, "{status:?}");
        before.push(status);
    }

    let started = env.sim.sim_time();
    bare_metals
        .install(&laid_out, &with_layout)
        .await
        .expect("install with a layout");
    bare_metals
        .install(&raid_only, &InstallRequest::new(os.clone()).raid(5, 3))
        .await
        .expect("install with software RAID");
    bare_metals
        .install(&plain, &InstallRequest::new(os))
        .await
        .expect("install");
    let options = waits();
    let (first, second, third) = tokio::join!(
        bare_metals.wait_installed(&laid_out, &before[0], &options),
        bare_metals.wait_installed(&raid_only, &before[1], &options),
        bare_metals.wait_installed(&plain, &before[2], &options),
    );
    let finished = env.sim.sim_time();
    for status in [first, second, third] {
        let status = status.expect("installed");
        assert!(status.is_idle() && !status.is_error(), "{status:?}");
    }
    assert!(
        finished - started >= INSTALL_SECS,
        "the waiters returned {}s (simulated) after the installs began",
        finished - started
    );
    for id in [&laid_out, &raid_only, &plain] {
        let status = bare_metals
            .installation_status(id)
            .await
            .expect("installation status");
        assert!(status.is_idle(), "{status:?}");
        assert_eq!(status.code, Some(1000));
        assert_eq!(status.server_id.as_ref(), Some(id));
    }
}

/// Rescue mode: boot a rescue image, wait until it is ready, and read the rescue
/// password it set.
pub(crate) async fn bare_metal_rescue(env: &Env) {
    let bare_metals = env.client.bare_metals();
    let id = server(20_007);
    let before = bare_metals.root_password(&id).await.expect("passwords");

    let started = env.sim.sim_time();
    bare_metals
        .rescue(&id, &RescueImageId::from(121u32))
        .await
        .expect("rescue");
    let ready = bare_metals
        .wait_rescue_ready(&id, &before, &waits())
        .await
        .expect("rescue ready");
    assert!(env.sim.sim_time() - started >= RESCUE_SECS);
    let rescue = ready
        .rescue_mode_password
        .as_ref()
        .expect("a rescue password once rescue mode has launched");
    assert!(!rescue.expose().is_empty());
    assert_ne!(before.rescue_mode_password.as_ref(), Some(rescue));
    assert_eq!(ready.root_password, before.root_password);
    assert_eq!(
        bare_metals.root_password(&id).await.expect("passwords"),
        ready
    );
    let status = bare_metals.installation_status(&id).await.expect("status");
    assert!(status.is_idle(), "{status:?}");
}

/// Network usage: the combined view, bandwidth and data traffic as figures and as PNG
/// graphs.
pub(crate) async fn bare_metal_usage(env: &Env) {
    let bare_metals = env.client.bare_metals();
    let id = server(20_008);
    let (from, to) = (day(2024, 3, 1), day(2024, 3, 31));

    let usage = bare_metals
        .network_usage(&id, from, to)
        .await
        .expect("network usage");
    let bandwidth = usage.bandwidth.as_ref().expect("bandwidth");
    let traffic = usage.data_traffic.as_ref().expect("data traffic");
    for interval in [bandwidth.interval, traffic.interval] {
        let interval = interval.expect("an interval");
        assert_eq!((interval.from, interval.to), (Some(from), Some(to)));
    }
    assert_eq!(bandwidth.server_id.as_ref(), Some(&id));
    assert!(bandwidth.total.is_some() && bandwidth.average.is_some());
    assert!(traffic.total.is_some());

    let alone = bare_metals
        .bandwidth(&id, from, to)
        .await
        .expect("bandwidth");
    assert_eq!(alone.total, bandwidth.total);
    assert_eq!(alone.average, bandwidth.average);
    let alone = bare_metals
        .data_traffic(&id, from, to)
        .await
        .expect("data traffic");
    assert_eq!(alone.total, traffic.total);

    let png = bare_metals
        .bandwidth_png(&id, from, to)
        .await
        .expect("bandwidth graph");
    assert!(
        png.starts_with(PNG_SIGNATURE),
        "{:?}",
        &png[..png.len().min(8)]
    );
    let png = bare_metals
        .data_traffic_png(&id, from, to)
        .await
        .expect("data traffic graph");
    assert!(
        png.starts_with(PNG_SIGNATURE),
        "{:?}",
        &png[..png.len().min(8)]
    );
}
