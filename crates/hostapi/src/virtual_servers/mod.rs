//! v1 virtual servers: list, read, power on/off, reboot, reinstall, and wait for a
//! power state.
//!
//! The handle is [`VirtualServers`], from [`Client::virtual_servers`]. (Cloud v2 servers
//! are in [`cloud`](crate::cloud).)

pub(crate) mod model;
pub(crate) mod read;

use model::VirtualServerId;
pub use model::{AdministrativeInfo, Platform, VirtualServer, VirtualServerState};

use std::sync::atomic::{AtomicBool, Ordering};

use hostapi_raw_operation::OperationBuilder;

use crate::handle::{Handle, retry_unsafe_option};
use crate::list::List;
use crate::model::Job;
use crate::wait::{Polled, WaitOptions, poll_until};
use crate::{Client, Error, validate};

impl Client {
    /// The virtual servers of the v1 interface (`/v1/virtualServers`).
    pub fn virtual_servers(&self) -> VirtualServers {
        VirtualServers {
            handle: Handle::new(self),
        }
    }
}

/// The virtual servers of the v1 interface (`/v1/virtualServers`). The cloud v2
/// interface has its own view of virtual servers: [`Client::cloud_servers`].
///
/// Power calls are asynchronous: they answer a [`Job`] (its id only) and the server
/// changes state later; [`wait_state`](Self::wait_state) follows it.
///
/// ```no_run
/// # async fn run(client: hostapi::Client) -> Result<(), hostapi::Error> {
/// let id: hostapi::types::VirtualServerId = "100001".parse()?;
/// client.virtual_servers().power_off(&id).await?;
/// let server = client
///     .virtual_servers()
///     .wait_state(&id, hostapi::virtual_servers::VirtualServerState::Stopped, &hostapi::WaitOptions::new())
///     .await?;
/// # let _ = server;
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct VirtualServers {
    pub(crate) handle: Handle,
}

impl VirtualServers {
    retry_unsafe_option!();

    /// Lists every virtual server.
    pub fn list(&self) -> List<VirtualServer> {
        let handle = self.handle.clone();
        List::once(async move {
            let infra = handle.infra();
            let answer = handle.call(|| infra.list_virtual_servers()).await?;
            answer.list_at(read::SERVERS, read::server)
        })
    }

    /// Reads one virtual server (the service answers a list of one).
    pub async fn get(&self, id: &VirtualServerId) -> Result<VirtualServer, Error> {
        let numeric = validate::integer_id("id", id.as_str())?;
        let infra = self.handle.infra();
        let answer = self
            .handle
            .call(|| infra.get_virtual_server().id(numeric))
            .await?;
        let listing = answer.list_at(read::SERVERS, read::server)?;
        let siblings = listing.extra().clone();
        let mut servers = listing.into_result()?;
        match (servers.pop(), servers.is_empty()) {
            (Some(mut server), true) => {
                server.extra.extend(siblings);
                Ok(server)
            }
            (found, _) => Err(crate::read::decode_error(
                Some(&answer.call),
                "virtualServers".to_owned(),
                format!(
                    "expected exactly one server, found {}",
                    servers.len() + usize::from(found.is_some())
                ),
                String::new(),
                None,
            )),
        }
    }

    /// Powers a server on. The service works asynchronously and answers with a job.
    pub async fn power_on(&self, id: &VirtualServerId) -> Result<Job, Error> {
        self.power(id, |infra, n| infra.power_on_virtual_server().id(n))
            .await
    }

    /// Powers a server off (asynchronously; answers with a job).
    pub async fn power_off(&self, id: &VirtualServerId) -> Result<Job, Error> {
        self.power(id, |infra, n| infra.power_off_virtual_server().id(n))
            .await
    }

    /// Reboots a server (asynchronously; answers with a job).
    pub async fn reboot(&self, id: &VirtualServerId) -> Result<Job, Error> {
        self.power(id, |infra, n| infra.reboot_virtual_server().id(n))
            .await
    }

    /// Reinstalls a server with the operating system it has now (asynchronously;
    /// answers with a job). Everything on its disks is lost.
    pub async fn reinstall(&self, id: &VirtualServerId) -> Result<Job, Error> {
        self.power(id, |infra, n| infra.reinstall_virtual_server().id(n))
            .await
    }

    /// One of the power calls: `builder` makes the generated builder for a numeric id.
    async fn power<'c, B: OperationBuilder>(
        &'c self,
        id: &VirtualServerId,
        builder: impl Fn(&'c hostapi_raw_infra::Client, i64) -> B,
    ) -> Result<Job, Error> {
        let numeric = validate::integer_id("id", id.as_str())?;
        let infra = self.handle.infra();
        let answer = self.handle.call(|| builder(infra, numeric)).await?;
        answer.one(read::job)
    }

    /// Polls the server until it is in `target` (Running or Stopped) and answers it
    /// as last read. Any other state (the documents name only these two; a server
    /// between them may show another) keeps the wait going.
    pub async fn wait_state(
        &self,
        id: &VirtualServerId,
        target: VirtualServerState,
        options: &WaitOptions,
    ) -> Result<VirtualServer, Error> {
        let what = format!("virtual server {id} to be {target}");
        poll_until(what, options, || async {
            let server = self.get(id).await?;
            Ok(match &server.state {
                Some(state) if *state == target => Polled::Done(server),
                Some(state) => Polled::Pending(state.to_string()),
                None => Polled::Unsure("no state reported".to_owned()),
            })
        })
        .await
    }

    /// Reboots a server and waits until it is Running again. A reboot is proven: the
    /// wait first sees the server leave Running, then come back to it (a server that
    /// never leaves Running ends the wait at the deadline, naming that).
    pub async fn reboot_and_wait(
        &self,
        id: &VirtualServerId,
        options: &WaitOptions,
    ) -> Result<VirtualServer, Error> {
        self.reboot(id).await?;
        let what = format!("virtual server {id} to reboot");
        let left_running = AtomicBool::new(false);
        poll_until(what, options, || {
            let left_running = &left_running;
            async move {
                let server = self.get(id).await?;
                Ok(match &server.state {
                    Some(VirtualServerState::Running) if left_running.load(Ordering::Relaxed) => {
                        Polled::Done(server)
                    }
                    Some(VirtualServerState::Running) => {
                        Polled::Pending("running (the reboot has not begun)".to_owned())
                    }
                    Some(state) => {
                        left_running.store(true, Ordering::Relaxed);
                        Polled::Pending(state.to_string())
                    }
                    None => Polled::Unsure("no state reported".to_owned()),
                })
            }
        })
        .await
    }
}
