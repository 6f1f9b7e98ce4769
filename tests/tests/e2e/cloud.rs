//! The cloud v2 interface: the paged server list, server details, reference,
//! credentials and metrics, power calls and their waiters, private clouds.

use futures::TryStreamExt;
use hostapi::cloud::{CloudServer, CloudServerState, CredentialType, Granularity, MetricsQuery};
use hostapi::types::{CloudServerId, JobStatus};
use hostapi_sim::{CLOUD_POWER_SECS, CLOUD_REINSTALL_SECS};

use crate::support::{Env, waits};

/// The simulator's operation name of the list call.
const LIST: &str = "GET /cloud/v2/virtualServers";

/// Every server of the list, in one page; every record readable.
async fn all_servers(env: &Env) -> Vec<CloudServer> {
    let listing = env.client.cloud_servers().list().await.expect("list");
    assert!(listing.is_complete(), "{:?}", listing.unreadable());
    listing.into_items()
}

/// The list collected at once, and streamed seven servers a page: the same servers in
/// the same order, the stream having asked for every page.
pub(crate) async fn cloud_server_list(env: &Env) {
    let before = env.operation_count(LIST);
    let all = all_servers(env).await;
    assert_eq!(all.len(), 40);
    assert_eq!(env.operation_count(LIST) - before, 1, "one page of 100");

    let before = env.operation_count(LIST);
    let stream = env.client.cloud_servers().list().page_size(7).stream();
    let streamed: Vec<CloudServer> = stream.try_collect().await.expect("stream");
    assert_eq!(
        env.operation_count(LIST) - before,
        6,
        "40 servers in pages of 7"
    );
    assert_eq!(streamed, all);

    let ids: std::collections::BTreeSet<&str> = all.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids.len(), all.len(), "no server twice");
}

/// One server: read (as listed), reference set and read back, credentials (the
/// password a secret), datatraffic metrics.
pub(crate) async fn cloud_server_details(env: &Env) {
    let servers = env.client.cloud_servers();
    let all = all_servers(env).await;
    let listed = &all[5];
    let id = listed.id.clone();
    let server = servers.get(&id).await.expect("get");
    assert_eq!(&server, listed, "the single view is the list's record");

    let answered = servers
        .update(&id, "e2e cloud reference")
        .await
        .expect("set reference");
    assert_eq!(answered.reference.as_deref(), Some("e2e cloud reference"));
    let read = servers.get(&id).await.expect("get");
    assert_eq!(read.reference.as_deref(), Some("e2e cloud reference"));
    assert_eq!(read.state, server.state, "nothing else changed");

    let credentials = servers.credentials(&id);
    let listed = credentials
        .list(CredentialType::OperatingSystem)
        .await
        .expect("credentials");
    assert!(!listed.is_empty());
    for credential in &listed {
        assert_eq!(credential.credential_type, CredentialType::OperatingSystem);
        assert!(credential.password.is_none(), "lists carry no password");
        let one = credentials
            .get(CredentialType::OperatingSystem, &credential.username)
            .await
            .expect("credential");
        assert_eq!(one.username, credential.username);
        let password = one.password.as_ref().expect("the single view's password");
        assert!(!password.expose().is_empty());
        let shown = format!("{one:?}");
        assert!(
            !shown.contains(password.expose()),
            "Debug shows it: {shown}"
        );
    }

    let query = MetricsQuery::parse("2024-01-01T00:00:00Z", "2024-01-04T00:00:00Z")
        .expect("query")
        .granularity(Granularity::Day);
    let metrics = servers.datatraffic(&id, &query).await.expect("metrics");
    assert_eq!(metrics.from, query.from);
    assert_eq!(metrics.to, query.to);
    assert_eq!(metrics.granularity, Some(Granularity::Day));
    assert_eq!(metrics.outgoing.values.len(), 3, "{metrics:?}");
    assert_eq!(metrics.incoming.values.len(), 3, "{metrics:?}");
}

/// Power off (waited until STOPPED), on (until RUNNING), reboot (through STOPPING and
/// STARTING back to RUNNING) and reinstall (a new operating system password), each
/// read back.
pub(crate) async fn cloud_server_power(env: &Env) {
    let servers = env.client.cloud_servers();
    let all = all_servers(env).await;
    let id: CloudServerId = all
        .iter()
        .skip(10)
        .find(|s| s.state == Some(CloudServerState::Running))
        .expect("a running server")
        .id
        .clone();

    let started = env.sim.sim_time();
    let job = servers.power_off(&id).await.expect("power off");
    assert_eq!(
        job.name.as_deref(),
        Some("virtualServers.powerOff"),
        "{job:?}"
    );
    let stopped = servers
        .wait_state(&id, CloudServerState::Stopped, &waits())
        .await
        .expect("stopped");
    assert!(env.sim.sim_time() - started >= CLOUD_POWER_SECS);
    assert_eq!(stopped.state, Some(CloudServerState::Stopped));
    let read = servers.get(&id).await.expect("get");
    assert_eq!(read.state, Some(CloudServerState::Stopped));

    let started = env.sim.sim_time();
    servers.power_on(&id).await.expect("power on");
    let running = servers
        .wait_state(&id, CloudServerState::Running, &waits())
        .await
        .expect("running");
    assert!(env.sim.sim_time() - started >= CLOUD_POWER_SECS);
    assert_eq!(running.state, Some(CloudServerState::Running));
    let read = servers.get(&id).await.expect("get");
    assert_eq!(read.state, Some(CloudServerState::Running));

    let started = env.sim.sim_time();
    let rebooted = servers
        .reboot_and_wait(&id, &waits())
        .await
        .expect("reboot");
    assert!(env.sim.sim_time() - started >= 2.0 * CLOUD_POWER_SECS);
    assert_eq!(rebooted.state, Some(CloudServerState::Running));

    let credentials = servers.credentials(&id);
    let username = credentials
        .list(CredentialType::OperatingSystem)
        .await
        .expect("credentials")
        .first()
        .expect("an operating system credential")
        .username
        .clone();
    let password = |c: hostapi::cloud::Credential| c.password.expect("a password");
    let before = password(
        credentials
            .get(CredentialType::OperatingSystem, &username)
            .await
            .expect("credential"),
    );
    let started = env.sim.sim_time();
    let job = servers.reinstall(&id).await.expect("reinstall");
    assert_eq!(job.name.as_deref(), Some("virtualServers.reinstall"));
    assert!(
        matches!(job.status, Some(JobStatus::Pending | JobStatus::Completed)),
        "{job:?}"
    );
    let reinstalled = servers
        .wait_state(&id, CloudServerState::Running, &waits())
        .await
        .expect("running again");
    assert!(env.sim.sim_time() - started >= CLOUD_POWER_SECS + CLOUD_REINSTALL_SECS);
    assert_eq!(reinstalled.state, Some(CloudServerState::Running));
    let after = password(
        credentials
            .get(CredentialType::OperatingSystem, &username)
            .await
            .expect("credential"),
    );
    assert_ne!(after, before, "a reinstall sets a new password");
}

/// The private clouds.
pub(crate) async fn private_clouds(env: &Env) {
    let clouds = env.client.private_clouds().list().await.expect("list");
    let ids: Vec<&str> = clouds.iter().map(|c| c.id.as_str()).collect();
    let expected: Vec<String> = (300_001..=300_010).map(|n: u32| n.to_string()).collect();
    assert_eq!(ids, expected);
    assert!(
        clouds
            .iter()
            .all(|c| c.contract.is_some() && c.hardware.is_some())
    );
}
