//! The cloud v2 interface: virtual servers (list, read, reference, power, reinstall,
//! credentials, datatraffic metrics, waiting for a power state) and private clouds.
//!
//! The handles are [`CloudServers`], from [`Client::cloud_servers`] (its
//! [`credentials`](CloudServers::credentials) give [`Credentials`], and
//! [`MetricsQuery`] asks for metrics), and [`PrivateClouds`], from
//! [`Client::private_clouds`].

pub(crate) mod metrics;
mod model;
mod private_clouds;
pub(crate) mod read;

pub use metrics::{
    Aggregation, Granularity, MetricsQuery, TrafficMetrics, TrafficSeries, TrafficValue,
};
pub use model::*;
pub use private_clouds::PrivateClouds;

use std::sync::atomic::{AtomicBool, Ordering};

use futures::FutureExt;
use hostapi_raw_cloud::types as raw;

use crate::handle::{Handle, retry_unsafe_option};
use crate::list::List;
use crate::model::{CloudServerId, Job, Username};
use crate::outcome::Confirmation;
use crate::wait::{Polled, WaitOptions, poll_until};
use crate::{Client, Error};

impl Client {
    /// The virtual servers of the cloud v2 interface (`/cloud/v2/virtualServers`).
    pub fn cloud_servers(&self) -> CloudServers {
        CloudServers {
            handle: Handle::new(self),
        }
    }
}

/// The virtual servers of the cloud v2 interface (`/cloud/v2/virtualServers`). The v1
/// interface has its own view of virtual servers: [`Client::virtual_servers`].
///
/// ```no_run
/// # async fn run() -> Result<(), hostapi::Error> {
/// use futures::TryStreamExt;
/// let client = hostapi::Client::from_env()?;
/// let mut servers = client.cloud_servers().list().page_size(50).stream();
/// while let Some(server) = servers.try_next().await? {
///     println!("{} {:?}", server.id, server.state);
/// }
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct CloudServers {
    pub(crate) handle: Handle,
}

impl CloudServers {
    retry_unsafe_option!();

    /// Lists the virtual servers, a page at a time (`limit`/`offset`, by the rules of
    /// the crate's pager: it follows a `totalCount` that changes and short pages, and
    /// stops with [`Error::Paging`] on a server that repeats records).
    pub fn list(&self) -> List<CloudServer> {
        let handle = self.handle.clone();
        List::paged(
            &self.handle,
            move |offset, limit| {
                let handle = handle.clone();
                async move {
                    let cloud = handle.cloud();
                    let answer = handle
                        .call(|| cloud.list_virtual_servers().limit(limit).offset(offset))
                        .await?;
                    answer.page(
                        |cursor, body, total| read::page(cursor, body, "virtualServers", total),
                        read::server,
                    )
                }
                .boxed()
            },
            |server| server.id.to_string(),
        )
    }

    /// Reads one virtual server.
    pub async fn get(&self, id: &CloudServerId) -> Result<CloudServer, Error> {
        let cloud = self.handle.cloud();
        let answer = self
            .handle
            .call(|| cloud.get_virtual_server().id(id.as_str()))
            .await?;
        answer.one(read::server)
    }

    /// Sets the customer's reference of a virtual server (`PUT` with the JSON body
    /// `{"reference": "…"}`) and answers the server as it now is. The reference is sent
    /// as given (an empty string too).
    pub async fn update(&self, id: &CloudServerId, reference: &str) -> Result<CloudServer, Error> {
        let cloud = self.handle.cloud();
        let answer = self
            .handle
            .call(|| {
                cloud.update_virtual_server().id(id.as_str()).body(
                    raw::UpdateVirtualServerRequest {
                        reference: reference.to_owned(),
                    },
                )
            })
            .await?;
        answer.one(read::server)
    }

    /// After [`update`](Self::update) failed with an unknown outcome: reads the server
    /// and says whether its reference is now `reference`.
    pub async fn confirm_update(
        &self,
        id: &CloudServerId,
        reference: &str,
    ) -> Result<Confirmation<CloudServer>, Error> {
        let server = self.get(id).await?;
        Ok(
            if server.reference.as_deref().unwrap_or("") == reference.trim() {
                Confirmation::Applied(server)
            } else {
                Confirmation::NotApplied
            },
        )
    }

    /// Starts powering a server on (`POST …/powerOn`, no body). The service works
    /// asynchronously and answers 202 with a [`Job`]; there is no call to follow a job,
    /// so use [`wait_state`](Self::wait_state) to wait for the server to run.
    pub async fn power_on(&self, id: &CloudServerId) -> Result<Job, Error> {
        let cloud = self.handle.cloud();
        let answer = self
            .handle
            .call(|| cloud.power_on_virtual_server().id(id.as_str()))
            .await?;
        answer.one(read::job)
    }

    /// Starts powering a server off (`POST …/powerOff`, no body); answers the [`Job`].
    pub async fn power_off(&self, id: &CloudServerId) -> Result<Job, Error> {
        let cloud = self.handle.cloud();
        let answer = self
            .handle
            .call(|| cloud.power_off_virtual_server().id(id.as_str()))
            .await?;
        answer.one(read::job)
    }

    /// Starts a reboot (`POST …/reboot`, no body); answers the [`Job`]. See
    /// [`reboot_and_wait`](Self::reboot_and_wait).
    pub async fn reboot(&self, id: &CloudServerId) -> Result<Job, Error> {
        let cloud = self.handle.cloud();
        let answer = self
            .handle
            .call(|| cloud.reboot_virtual_server().id(id.as_str()))
            .await?;
        answer.one(read::job)
    }

    /// Starts reinstalling a server with the operating system it has now (`POST
    /// …/reinstall`, no body; no other template can be chosen); answers the [`Job`].
    /// Everything on its disks is lost.
    pub async fn reinstall(&self, id: &CloudServerId) -> Result<Job, Error> {
        let cloud = self.handle.cloud();
        let answer = self
            .handle
            .call(|| cloud.reinstall_virtual_server().id(id.as_str()))
            .await?;
        answer.one(read::job)
    }

    /// Polls the server until its state is `target` (RUNNING or STOPPED) and answers
    /// the server as last read.
    ///
    /// The transitional states (STARTING, STOPPING) and the opposite state keep the
    /// wait going. The service's UNKNOWN is tolerated for a few polls in a row (it may
    /// pass), then ends the wait with [`Error::WaitFailed`]; so does a state the
    /// documents do not name (e.g. MAINTENANCE). Fails with [`Error::InvalidInput`]
    /// naming `state` when `target` is neither RUNNING nor STOPPED (nothing is sent).
    pub async fn wait_state(
        &self,
        id: &CloudServerId,
        target: CloudServerState,
        options: &WaitOptions,
    ) -> Result<CloudServer, Error> {
        check_target(&target)?;
        let what = format!("cloud server {id} to be {target}");
        poll_until(what, options, || async {
            let server = self.get(id).await?;
            Ok(classify(&target, server))
        })
        .await
    }

    /// Reboots a server and waits until it is RUNNING again. The reboot is proven: the
    /// wait first sees the server leave RUNNING (or the job come back COMPLETED), then
    /// accepts RUNNING. A server that never leaves RUNNING ends the wait at the
    /// deadline, saying so.
    pub async fn reboot_and_wait(
        &self,
        id: &CloudServerId,
        options: &WaitOptions,
    ) -> Result<CloudServer, Error> {
        let job = self.reboot(id).await?;
        let left_running = AtomicBool::new(job.status == Some(crate::JobStatus::Completed));
        poll_until(format!("cloud server {id} to reboot"), options, || {
            let left_running = &left_running;
            async move {
                let server = self.get(id).await?;
                if !matches!(server.state, Some(CloudServerState::Running)) {
                    left_running.store(true, Ordering::Relaxed);
                } else if !left_running.load(Ordering::Relaxed) {
                    return Ok(Polled::Pending(
                        "running (the reboot has not begun)".to_owned(),
                    ));
                }
                Ok(classify(&CloudServerState::Running, server))
            }
        })
        .await
    }

    /// The credentials of one server.
    pub fn credentials(&self, id: &CloudServerId) -> Credentials {
        Credentials {
            handle: self.handle.clone(),
            server: id.clone(),
        }
    }

    /// Reads the datatraffic of a server over `[query.from, query.to)`: outgoing
    /// (`DATATRAFFIC_UP`) and incoming (`DATATRAFFIC_DOWN`) bytes per bucket.
    ///
    /// Fails with [`Error::InvalidInput`] (nothing sent) when `from` is not before `to`,
    /// or the granularity or aggregation is not one the documents allow.
    pub async fn datatraffic(
        &self,
        id: &CloudServerId,
        query: &MetricsQuery,
    ) -> Result<TrafficMetrics, Error> {
        let wire = metrics::check(query)?;
        let cloud = self.handle.cloud();
        let answer = self
            .handle
            .call(|| {
                let mut call = cloud
                    .get_virtual_server_datatraffic_metrics()
                    .id(id.as_str())
                    .from(wire.from.clone())
                    .to(wire.to.clone())
                    .aggregation(wire.aggregation.clone());
                if let Some(granularity) = &wire.granularity {
                    call = call.granularity(granularity.clone());
                }
                call
            })
            .await?;
        answer.one(metrics::metrics(query))
    }
}

fn check_target(target: &CloudServerState) -> Result<(), Error> {
    if matches!(
        target,
        CloudServerState::Running | CloudServerState::Stopped
    ) {
        Ok(())
    } else {
        Err(Error::invalid(
            "state",
            format!(
                "can only wait for RUNNING or STOPPED, not {}",
                target.as_wire()
            ),
        ))
    }
}

/// What one poll means for a wait for `target` (RUNNING or STOPPED).
fn classify(target: &CloudServerState, server: CloudServer) -> Polled<CloudServer> {
    match &server.state {
        Some(state) if state == target => Polled::Done(server),
        Some(
            state @ (CloudServerState::Running
            | CloudServerState::Stopped
            | CloudServerState::Starting
            | CloudServerState::Stopping),
        ) => Polled::Pending(state.to_string()),
        Some(state @ CloudServerState::Indeterminate) => Polled::Unsure(state.to_string()),
        Some(state) => Polled::Failed(state.to_string()),
        None => Polled::Unsure("no state reported".to_owned()),
    }
}

/// The credentials of one cloud server (`…/credentials/{type}`), from
/// [`CloudServers::credentials`].
#[derive(Debug, Clone)]
pub struct Credentials {
    handle: Handle,
    server: CloudServerId,
}

impl Credentials {
    retry_unsafe_option!();

    /// Lists the credentials of one type: user names only, no passwords (read one with
    /// [`get`](Self::get) for its password). Paged like [`CloudServers::list`]. A type
    /// other than OPERATING_SYSTEM or CONTROL_PANEL is refused before anything is sent.
    pub fn list(&self, credential_type: CredentialType) -> List<Credential> {
        let handle = self.handle.clone();
        let server = self.server.clone();
        List::paged(
            &self.handle,
            move |offset, limit| {
                let handle = handle.clone();
                let server = server.clone();
                let asked = credential_type.clone();
                async move {
                    check_credential_type(&asked)?;
                    let cloud = handle.cloud();
                    let answer = handle
                        .call(|| {
                            cloud
                                .list_virtual_server_credentials()
                                .id(server.as_str())
                                .credential_type(asked.as_wire())
                                .limit(limit)
                                .offset(offset)
                        })
                        .await?;
                    answer.page(
                        |cursor, body, total| read::page(cursor, body, "credentials", total),
                        read::credential(&asked),
                    )
                }
                .boxed()
            },
            |credential| credential.username.to_string(),
        )
    }

    /// Reads one credential with its password (a [`Secret`](crate::Secret)). Only the
    /// last password the service configured is known: if the customer changed it since,
    /// the value returned no longer works.
    pub async fn get(
        &self,
        credential_type: CredentialType,
        username: &Username,
    ) -> Result<Credential, Error> {
        check_credential_type(&credential_type)?;
        let cloud = self.handle.cloud();
        let answer = self
            .handle
            .call(|| {
                cloud
                    .get_virtual_server_credential()
                    .id(self.server.as_str())
                    .credential_type(credential_type.as_wire())
                    .username(username.as_str())
            })
            .await?;
        answer.one(read::credential(&credential_type))
    }
}

/// Only the two documented types can go into the path.
fn check_credential_type(credential_type: &CredentialType) -> Result<(), Error> {
    match credential_type {
        CredentialType::Unknown(value) => Err(Error::invalid(
            "credential_type",
            format!("`{value}` is not OPERATING_SYSTEM or CONTROL_PANEL"),
        )),
        _ => Ok(()),
    }
}
