//! The v1 interface apart from bare metal servers: virtual servers, domains and DNS
//! records, private racks and their IPs, the catalogues, private networks.

use hostapi::domains::{DnsRecordType, NewDnsRecord};
use hostapi::ips::IpUpdate;
use hostapi::private_networks::NetworkMemberStatus;
use hostapi::types::{DomainName, OperatingSystemId, PrivateNetworkId, PrivateRackId};
use hostapi::virtual_servers::VirtualServerState;
use hostapi_sim::{MEMBER_TRANSITION_SECS, V1_POWER_SECS, V1_REINSTALL_SECS};

use crate::support::{Env, day, service_error, waits};

/// v1 virtual servers: list and read; power off, on, reboot and reinstall, each read
/// back; reverse lookup and null routing of one of their IPs, through `/v1/ips`.
pub(crate) async fn v1_virtual_servers(env: &Env) {
    let servers = env.client.virtual_servers();
    let list = servers.list().await.expect("list");
    let ids: Vec<&str> = list.iter().map(|s| s.id.as_str()).collect();
    let expected: Vec<String> = (100_001..=100_020).map(|n: u32| n.to_string()).collect();
    assert_eq!(ids, expected);

    // A server with a name and IPs (at some seeds a server has none).
    let listed = list
        .iter()
        .find(|s| s.name.is_some() && !s.ips.is_empty())
        .expect("a server with a name and IPs");
    let id = listed.id.clone();
    let server = servers.get(&id).await.expect("get");
    assert_eq!(&server, listed, "the single view is the list's record");

    let job = servers.power_off(&id).await.expect("power off");
    assert!(!job.id.as_str().is_empty());
    // Power changes are asynchronous: done once the job's time has passed.
    env.sim.advance_clock(V1_POWER_SECS).expect("advance");
    let state = servers.get(&id).await.expect("get").state;
    assert_eq!(state, Some(VirtualServerState::Stopped));

    servers.power_on(&id).await.expect("power on");
    env.sim.advance_clock(V1_POWER_SECS).expect("advance");
    let state = servers.get(&id).await.expect("get").state;
    assert_eq!(state, Some(VirtualServerState::Running));

    // `/v1/ips/{ip}` reaches the server's IPs too.
    let address = server.ips[0].ip;
    let name = "vs-e2e.example.com";
    let answered = env
        .client
        .ips()
        .update(address, &IpUpdate::ReverseDns(name.into()))
        .await
        .expect("update ip");
    assert_eq!(answered.reverse_dns.as_deref(), Some(name));
    assert_eq!(
        answered.server.as_ref().and_then(|s| s.id.as_deref()),
        Some(id.as_str())
    );
    env.client
        .ips()
        .update(address, &IpUpdate::NullRouted(true))
        .await
        .expect("null route");
    let read = servers.get(&id).await.expect("get");
    let assignment = read
        .ips
        .iter()
        .find(|a| a.ip == address)
        .expect("the IP is still assigned");
    assert_eq!(assignment.reverse_dns.as_deref(), Some(name));
    assert_eq!(assignment.null_routed, Some(true));

    servers.reboot(&id).await.expect("reboot");
    servers.reinstall(&id).await.expect("reinstall");
    env.sim.advance_clock(V1_REINSTALL_SECS).expect("advance");
    let state = servers.get(&id).await.expect("get").state;
    assert_eq!(state, Some(VirtualServerState::Running));
}

/// Domains: list, read, change the TTL (and see a non-editable domain refuse it); DNS
/// records: list, create, read, update, delete, each read back.
pub(crate) async fn domains_and_dns_records(env: &Env) {
    let domains = env.client.domains();
    let list = domains.list().await.expect("list domains");
    assert_eq!(list.len(), 20);
    assert_eq!(list[0].name.as_str(), "acme-1.com");

    let name = &DomainName::new("acme-1.com").expect("a domain name");
    let domain = domains.get(name).await.expect("get domain");
    assert_eq!(domain, list[0]);
    assert_eq!(domain.editable, Some(true));
    let ttl = if domain.ttl == Some(7200) { 3600 } else { 7200 };
    let answered = domains.set_ttl(name, ttl).await.expect("set ttl");
    assert_eq!(answered.ttl, Some(ttl));
    assert_eq!(domains.get(name).await.expect("get").ttl, Some(ttl));

    // The third domain is not editable: its TTL cannot change.
    let locked = &list[2];
    assert_eq!(locked.editable, Some(false), "{locked:?}");
    let refused = domains.set_ttl(&locked.name, 600).await;
    service_error(refused, "updateDomainTtl", 403);
    let after = domains.get(&locked.name).await.expect("get");
    assert_eq!(after.ttl, locked.ttl);

    // A domain in an error state (code 1001) still takes the change, and comes back
    // in that state: the code is the domain's, not the call's.
    let pending = list
        .iter()
        .find(|d| !d.is_normal())
        .expect("a domain with a code other than 1000");
    let ttl = if pending.ttl == Some(900) { 1800 } else { 900 };
    let answered = domains.set_ttl(&pending.name, ttl).await.expect("set ttl");
    assert_eq!((answered.ttl, answered.is_normal()), (Some(ttl), false));
    assert_eq!(
        domains.get(&pending.name).await.expect("get").ttl,
        Some(ttl)
    );

    let records = domains.records(name);
    let before = records.list().await.expect("list records");
    assert_eq!(before.len(), 5);
    for record in &before {
        let one = records.get(&record.id).await.expect("get record");
        assert_eq!(&one, record, "the single view is the list's record");
    }

    let new =
        NewDnsRecord::new("mail2.acme-1.com", DnsRecordType::Mx, "mx.example.net").priority(10);
    let created = records.create(&new).await.expect("create record");
    assert_eq!(
        (
            &created.name,
            created.record_type.as_ref(),
            &created.content,
            created.priority
        ),
        (
            &new.name,
            Some(&new.record_type),
            &new.content,
            new.priority
        )
    );
    assert_eq!(records.get(&created.id).await.expect("get"), created);
    let listed = records.list().await.expect("list");
    assert_eq!(listed.len(), before.len() + 1);
    assert!(listed.contains(&created), "{listed:?}");

    let update =
        NewDnsRecord::new("mail3.acme-1.com", DnsRecordType::Mx, "mx2.example.net").priority(20);
    let updated = records
        .update(&created.id, &update)
        .await
        .expect("update record");
    assert_eq!(updated.id, created.id);
    assert_eq!(
        (
            &updated.name,
            updated.record_type.as_ref(),
            &updated.content,
            updated.priority
        ),
        (
            &update.name,
            Some(&update.record_type),
            &update.content,
            update.priority
        )
    );
    assert_eq!(records.get(&created.id).await.expect("get"), updated);

    records.delete(&created.id).await.expect("delete record");
    let gone = records.get(&created.id).await;
    assert!(matches!(&gone, Err(e) if e.is_not_found()), "{gone:?}");
    service_error(gone, "getDnsRecord", 404);
    assert_eq!(records.list().await.expect("list").items(), before.items());
}

/// Private racks: list, read, their IPs (list, read, reverse lookup and null routing
/// read back) and their network usage.
pub(crate) async fn private_racks(env: &Env) {
    let racks = env.client.private_racks();
    let list = racks.list().await.expect("list racks");
    let ids: Vec<&str> = list.iter().map(|r| r.id.as_str()).collect();
    let expected: Vec<String> = (7001..=7010).map(|n: u32| n.to_string()).collect();
    assert_eq!(ids, expected);

    let rack = PrivateRackId::from(7002u32);
    let detail = racks.get(&rack).await.expect("get rack");
    assert_eq!(detail.id, rack);
    assert!(
        detail.name.is_some() && detail.location.is_some(),
        "{detail:?}"
    );

    let ips = racks.ips(&rack);
    let listed = ips.list().await.expect("list rack ips");
    assert!(listed.len() >= 2, "{listed:?}");
    let ip = listed[1].ip;
    let one = ips.get(ip).await.expect("get rack ip");
    assert_eq!(one.ip, listed[1].ip);
    assert_eq!(one.private_rack_id.as_ref(), Some(&rack));

    let name = "rack-e2e.example.com";
    let answered = ips
        .update(ip, &IpUpdate::ReverseDns(name.into()))
        .await
        .expect("set reverse lookup");
    assert_eq!(answered.reverse_dns.as_deref(), Some(name));
    let read = ips.get(ip).await.expect("get");
    assert_eq!(read.reverse_dns.as_deref(), Some(name));

    let routed = !one.null_routed.unwrap_or(false);
    ips.update(ip, &IpUpdate::NullRouted(routed))
        .await
        .expect("null route");
    assert_eq!(ips.get(ip).await.expect("get").null_routed, Some(routed));
    let relisted = ips.list().await.expect("list");
    assert_eq!(relisted[1].null_routed, Some(routed));

    let usage = racks
        .network_usage(&rack, day(2024, 3, 1), day(2024, 3, 31))
        .await
        .expect("rack usage");
    let record = usage.as_json();
    let rack_id = record
        .pointer("/networkUsage/privateRackId")
        .or_else(|| record.pointer("/privateRackId"));
    assert_eq!(rack_id.and_then(|v| v.as_str()), Some("7002"), "{record}");
}

/// The catalogues: rescue images, operating systems, control panels, a partition
/// schema and the service list.
pub(crate) async fn catalogue(env: &Env) {
    let catalog = env.client.catalog();
    let images = catalog.rescue_images().list().await.expect("rescue images");
    let ids: Vec<&str> = images.iter().map(|i| i.id.as_str()).collect();
    assert_eq!(ids, ["121", "122", "123", "124"]);

    let operating_systems = catalog.operating_systems();
    let systems = operating_systems.list().await.expect("systems");
    let mut ids: Vec<u32> = systems
        .iter()
        .map(|os| os.id.as_str().parse().expect("numeric id"))
        .collect();
    ids.sort_unstable();
    assert_eq!(
        ids,
        [9, 135, 176, 178, 180, 190, 201, 205, 210, 211, 230, 231]
    );
    for os in &systems {
        let one = operating_systems.get(&os.id).await.expect("get system");
        assert_eq!(&one, os);
        let name = os.name.as_deref().expect("a name");
        let control_panels = operating_systems.control_panels(&os.id);
        let panels = control_panels.list().await.expect("panels");
        if name.contains("FreeBSD") {
            assert!(panels.is_empty(), "{name}: {panels:?}");
        }
        for panel in &panels {
            let one = control_panels.get(&panel.id).await.expect("get panel");
            assert_eq!(&one, panel);
        }
    }
    let with_panels = operating_systems
        .control_panels(&OperatingSystemId::from(205u32))
        .list()
        .await
        .expect("panels");
    assert!(!with_panels.is_empty());

    let schema = operating_systems
        .partition_schema(&OperatingSystemId::from(205u32), &20_001u32.into())
        .await
        .expect("partition schema");
    assert!(!schema.disks.is_empty(), "{schema:?}");
    assert!(
        schema.filesystem_types.iter().any(|t| t == "swap"),
        "{schema:?}"
    );
    let suggestion = schema.suggestion.expect("a suggestion");
    assert!(
        suggestion
            .partitions
            .iter()
            .any(|p| p.mountpoint.as_deref() == Some("/")),
        "{suggestion:?}"
    );

    let services = catalog.services().get().await.expect("services");
    assert!(
        services.as_json().is_object() || services.as_json().is_array(),
        "{:?}",
        services.as_json()
    );
}

/// Private networks: list and read; create one, add a member and wait until it is
/// configured, remove it and wait until it is gone, delete the network; each step read
/// back. Then a list longer than one page.
pub(crate) async fn private_networks(env: &Env) {
    let networks = env.client.private_networks();
    let list = networks.list().await.expect("list networks");
    let ids: Vec<&str> = list.iter().map(|n| n.id.as_str()).collect();
    assert!(ids.contains(&"501") && ids.contains(&"502"), "{ids:?}");
    let two = networks
        .get(&PrivateNetworkId::from(501u32))
        .await
        .expect("get 501");
    assert_eq!(two.members.as_ref().map(Vec::len), Some(2), "{two:?}");

    let created = networks.create().await.expect("create network");
    let network = created.id.clone();
    let fresh = networks.get(&network).await.expect("get new network");
    assert_eq!(fresh.id, network);
    assert!(
        fresh.members.as_ref().is_none_or(Vec::is_empty),
        "{fresh:?}"
    );
    let listed = networks.list().await.expect("list");
    assert!(listed.iter().any(|n| n.id == network), "{listed:?}");

    let server = hostapi::types::BareMetalId::from(20_009u32);
    let added_at = env.sim.sim_time();
    networks
        .add_member(&network, &server)
        .await
        .expect("add member");
    let member = networks
        .get(&network)
        .await
        .expect("get")
        .member(&server)
        .cloned()
        .expect("listed as a member once added");
    assert!(
        matches!(
            member.status,
            Some(NetworkMemberStatus::Configuring | NetworkMemberStatus::Configured)
        ),
        "{member:?}"
    );
    let configured = networks
        .wait_member_configured(&network, &server, &waits())
        .await
        .expect("member configured");
    assert!(env.sim.sim_time() - added_at >= MEMBER_TRANSITION_SECS);
    assert_eq!(configured.status, Some(NetworkMemberStatus::Configured));
    let read = networks.get(&network).await.expect("get");
    assert_eq!(read.member(&server), Some(&configured));

    let removed_at = env.sim.sim_time();
    networks
        .remove_member(&network, &server)
        .await
        .expect("remove member");
    networks
        .wait_member_removed(&network, &server, &waits())
        .await
        .expect("member removed");
    assert!(env.sim.sim_time() - removed_at >= MEMBER_TRANSITION_SECS);
    let read = networks.get(&network).await.expect("get");
    assert_eq!(read.member(&server), None, "{read:?}");

    networks.delete(&network).await.expect("delete network");
    let gone = networks.get(&network).await;
    service_error(gone, "getPrivateNetwork", 404);
    let listed = networks.list().await.expect("list");
    assert!(!listed.iter().any(|n| n.id == network), "{listed:?}");

    // More networks than the service's first page holds (10): the list follows
    // `totalCount` with a second request.
    let mut extra = Vec::new();
    for _ in 0..10 {
        extra.push(networks.create().await.expect("create network").id);
    }
    let before = env.operation_count(LIST_NETWORKS);
    let listed = networks.list().await.expect("list");
    assert_eq!(env.operation_count(LIST_NETWORKS) - before, 2);
    assert_eq!(listed.len(), list.len() + extra.len(), "{listed:?}");
    for id in &extra {
        assert!(listed.iter().any(|n| &n.id == id), "{id} in {listed:?}");
        networks.delete(id).await.expect("delete network");
    }
    assert_eq!(networks.list().await.expect("list").items(), list.items());
}

/// The simulator's operation name of the private network list.
const LIST_NETWORKS: &str = "GET /v1/privateNetworks";
