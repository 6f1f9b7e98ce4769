//! The cloud v2 interface: virtual servers (list, read, reference, power, reinstall,
//! credentials, datatraffic metrics, waiting for a power state) and private clouds.

pub(crate) mod metrics;
mod model;
pub(crate) mod normalize;

mod private_clouds;
mod wait;

pub use metrics::{
    Aggregation, Granularity, MetricsQuery, TrafficMetrics, TrafficSeries, TrafficValue,
};
pub use model::*;
pub use private_clouds::PrivateClouds;

use futures::{Stream, StreamExt, TryStreamExt};
use hostapi_raw_cloud::types as raw;

use crate::handle::{Handle, retry_unsafe_option};
use crate::model::{CloudServerId, Job};
use crate::paging::{self as pager, Page};
use crate::{Client, Error, validate};

impl Client {
    /// The virtual servers of the cloud v2 interface (`/cloud/v2/virtualServers`).
    pub fn cloud_servers(&self) -> CloudServers<'_> {
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
/// let mut servers = std::pin::pin!(client.cloud_servers().list().page_size(50).stream());
/// while let Some(server) = servers.try_next().await? {
///     println!("{} {:?}", server.id, server.state);
/// }
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, Copy)]
pub struct CloudServers<'a> {
    pub(crate) handle: Handle<'a>,
}

impl<'a> CloudServers<'a> {
    retry_unsafe_option!();

    /// Lists the virtual servers, paging for you: see [`ListCloudServers`] for the page
    /// size, a [`Stream`] of servers and a collect-all.
    pub fn list(&self) -> ListCloudServers<'a> {
        ListCloudServers {
            handle: self.handle,
            page_size: ListCloudServers::DEFAULT_PAGE_SIZE,
        }
    }

    /// Reads one virtual server. Fails with [`Error::InvalidInput`] (nothing sent) when
    /// the id cannot be one URL path segment.
    pub async fn get(&self, id: &CloudServerId) -> Result<CloudServer, Error> {
        validate::path_segment("id", id.as_str())?;
        let call = self
            .handle
            .cloud()
            .get_virtual_server()
            .id(id.as_str())
            .send();
        self.handle
            .json("getVirtualServer", call)
            .await?
            .normalize(normalize::server)
    }

    /// Sets the customer's reference of a virtual server (`PUT` with the JSON body
    /// `{"reference": "…"}`) and answers the server as it now is. The reference is sent
    /// as given; the docs state no limits on it (an empty string is sent as such).
    pub async fn set_reference(
        &self,
        id: &CloudServerId,
        reference: &str,
    ) -> Result<CloudServer, Error> {
        validate::path_segment("id", id.as_str())?;
        let body = raw::UpdateVirtualServerRequest {
            reference: reference.to_owned(),
        };
        let call = self
            .handle
            .cloud()
            .update_virtual_server()
            .id(id.as_str())
            .body(body)
            .send();
        self.handle
            .json("updateVirtualServer", call)
            .await?
            .normalize(normalize::server)
    }

    /// Starts powering a server on (`POST …/powerOn`, no body). The service works
    /// asynchronously and answers 202 with a [`Job`]; there is no call to follow a job,
    /// so use [`CloudServers::wait_for_state`] (or [`CloudServers::power_on_and_wait`])
    /// to wait for the server to run.
    pub async fn power_on(&self, id: &CloudServerId) -> Result<Job, Error> {
        validate::path_segment("id", id.as_str())?;
        let call = self
            .handle
            .cloud()
            .power_on_virtual_server()
            .id(id.as_str())
            .send();
        self.handle
            .json("powerOnVirtualServer", call)
            .await?
            .normalize(normalize::job)
    }

    /// Starts powering a server off (`POST …/powerOff`, no body); answers the [`Job`].
    pub async fn power_off(&self, id: &CloudServerId) -> Result<Job, Error> {
        validate::path_segment("id", id.as_str())?;
        let call = self
            .handle
            .cloud()
            .power_off_virtual_server()
            .id(id.as_str())
            .send();
        self.handle
            .json("powerOffVirtualServer", call)
            .await?
            .normalize(normalize::job)
    }

    /// Starts a reboot (`POST …/reboot`, no body); answers the [`Job`].
    pub async fn reboot(&self, id: &CloudServerId) -> Result<Job, Error> {
        validate::path_segment("id", id.as_str())?;
        let call = self
            .handle
            .cloud()
            .reboot_virtual_server()
            .id(id.as_str())
            .send();
        self.handle
            .json("rebootVirtualServer", call)
            .await?
            .normalize(normalize::job)
    }

    /// Starts reinstalling a server with the operating system it has now (`POST
    /// …/reinstall`, no body; no other template can be chosen); answers the [`Job`].
    /// Everything on its disks is lost.
    pub async fn reinstall(&self, id: &CloudServerId) -> Result<Job, Error> {
        validate::path_segment("id", id.as_str())?;
        let call = self
            .handle
            .cloud()
            .reinstall_virtual_server()
            .id(id.as_str())
            .send();
        self.handle
            .json("reinstallVirtualServer", call)
            .await?
            .normalize(normalize::job)
    }

    /// Lists every credential of one type on a server — user names only, no passwords
    /// (read one with [`CloudServers::credential`] for its password). Pages through
    /// the whole list ([`ListCloudServers::DEFAULT_PAGE_SIZE`] at a time, by the same
    /// rules as [`ListCloudServers`]).
    ///
    /// Fails with [`Error::InvalidInput`] (nothing sent) for an id that cannot be one
    /// path segment or a type other than OPERATING_SYSTEM or CONTROL_PANEL.
    pub async fn credentials(
        &self,
        id: &CloudServerId,
        credential_type: CredentialType,
    ) -> Result<Vec<Credential>, Error> {
        validate::path_segment("id", id.as_str())?;
        check_credential_type(&credential_type)?;
        let handle = self.handle;
        let id = id.as_str().to_owned();
        let fetch = move |offset: u64, limit: u32| {
            let id = id.clone();
            let asked = credential_type.clone();
            async move {
                let call = handle
                    .cloud()
                    .list_virtual_server_credentials()
                    .id(id)
                    .credential_type(asked.as_wire())
                    .limit(limit)
                    .offset(offset)
                    .send();
                let mut answer = handle.json("listVirtualServerCredentials", call).await?;
                let total_count = answer.value.metadata.as_ref().and_then(|m| m.total_count);
                let raw = std::mem::take(&mut answer.value.credentials);
                Ok(Page::from_answer(
                    &answer,
                    "credentials",
                    raw,
                    total_count,
                    |item| normalize::credential_summary(item, &asked),
                ))
            }
        };
        pager::paginate(ListCloudServers::DEFAULT_PAGE_SIZE, fetch)
            .try_collect()
            .await
    }

    /// Reads one credential with its password (a [`Secret`](crate::Secret)). Only the
    /// last password the service configured is known: if the customer changed it
    /// since, the value returned no longer works.
    ///
    /// Fails with [`Error::InvalidInput`] (nothing sent) for an id or user name that
    /// cannot be one path segment, or a type other than OPERATING_SYSTEM or
    /// CONTROL_PANEL.
    pub async fn credential(
        &self,
        id: &CloudServerId,
        credential_type: CredentialType,
        username: &str,
    ) -> Result<Credential, Error> {
        validate::path_segment("id", id.as_str())?;
        check_credential_type(&credential_type)?;
        validate::path_segment("username", username)?;
        let call = self
            .handle
            .cloud()
            .get_virtual_server_credential()
            .id(id.as_str())
            .credential_type(credential_type.as_wire())
            .username(username)
            .send();
        self.handle
            .json("getVirtualServerCredential", call)
            .await?
            .normalize(|raw| normalize::credential(raw, &credential_type))
    }

    /// Reads the datatraffic of a server over `[query.from, query.to)`: outgoing
    /// (`DATATRAFFIC_UP`) and incoming (`DATATRAFFIC_DOWN`) bytes per bucket.
    ///
    /// Fails with [`Error::InvalidInput`] (nothing sent) when `from` is not before `to`,
    /// or the granularity or aggregation is not one the docs allow.
    pub async fn datatraffic(
        &self,
        id: &CloudServerId,
        query: &MetricsQuery,
    ) -> Result<TrafficMetrics, Error> {
        validate::path_segment("id", id.as_str())?;
        let wire = metrics::check(query)?;
        let mut call = self
            .handle
            .cloud()
            .get_virtual_server_datatraffic_metrics()
            .id(id.as_str())
            .from(wire.from)
            .to(wire.to)
            .aggregation(wire.aggregation);
        if let Some(granularity) = wire.granularity {
            call = call.granularity(granularity);
        }
        self.handle
            .json("getVirtualServerDatatrafficMetrics", call.send())
            .await?
            .normalize(|raw| metrics::metrics(raw, query))
    }
}

fn check_credential_type(credential_type: &CredentialType) -> Result<(), Error> {
    match credential_type {
        CredentialType::Unknown(value) => Err(Error::invalid(
            "credential_type",
            format!(
                "`{}` is not OPERATING_SYSTEM or CONTROL_PANEL",
                value.escape_debug()
            ),
        )),
        _ => Ok(()),
    }
}

/// A listing of the cloud virtual servers: choose the page size, then take them as a
/// [`Stream`] ([`stream`](Self::stream)) or all at once
/// ([`collect_all`](Self::collect_all)).
///
/// The pager asks for `limit` = the page size and `offset` = the number of servers
/// received so far, and reads `_metadata.totalCount`. When the count and the pages
/// disagree:
///
/// - it stops after an empty page, whatever the count says;
/// - it stops when the servers received reach the **latest** `totalCount` (a count that
///   changes between pages is followed);
/// - a page shorter than asked for does not stop it while the count says there is more
///   (servers cap `limit` at their own maximum);
/// - a page without `_metadata` (or without `totalCount`) is the only, last page.
///
/// The stream holds one page at a time and does not de-duplicate: servers created or
/// deleted while it runs may make it yield a server twice or miss one, as with any
/// offset paging. A request that fails ends the stream with its error; a server record
/// that cannot be read is yielded as an [`Error::Decode`] (its path indexes that page,
/// e.g. `virtualServers[3].contract.startsAt`) and the stream goes on.
#[derive(Debug, Clone, Copy)]
#[must_use = "a listing does nothing until streamed or collected"]
pub struct ListCloudServers<'a> {
    handle: Handle<'a>,
    page_size: u32,
}

impl<'a> ListCloudServers<'a> {
    /// The page size unless you choose one.
    pub const DEFAULT_PAGE_SIZE: u32 = 100;
    /// The largest page size accepted. The docs state no maximum; a server that caps
    /// pages lower is followed (short pages do not end the listing).
    pub const MAX_PAGE_SIZE: u32 = 1000;

    /// How many servers to ask for per request, `1..=`[`MAX_PAGE_SIZE`](Self::MAX_PAGE_SIZE)
    /// (default [`DEFAULT_PAGE_SIZE`](Self::DEFAULT_PAGE_SIZE)). Checked when the
    /// listing starts: out of range, the stream's only item is
    /// [`Error::InvalidInput`] naming `page_size`, and nothing is sent.
    pub fn page_size(mut self, page_size: u32) -> Self {
        self.page_size = page_size;
        self
    }

    /// The servers, one by one, fetched a page at a time as you consume them.
    pub fn stream(self) -> impl Stream<Item = Result<CloudServer, Error>> + Send + 'a {
        if !(1..=Self::MAX_PAGE_SIZE).contains(&self.page_size) {
            let error = Error::invalid(
                "page_size",
                format!(
                    "{} is not within 1..={}",
                    self.page_size,
                    Self::MAX_PAGE_SIZE
                ),
            );
            return futures::stream::once(async move { Err(error) }).left_stream();
        }
        let handle = self.handle;
        let fetch = move |offset: u64, limit: u32| async move {
            let call = handle
                .cloud()
                .list_virtual_servers()
                .limit(limit)
                .offset(offset)
                .send();
            let mut answer = handle.json("listVirtualServers", call).await?;
            let total_count = answer.value.metadata.as_ref().and_then(|m| m.total_count);
            let raw = std::mem::take(&mut answer.value.virtual_servers);
            Ok(Page::from_answer(
                &answer,
                "virtualServers",
                raw,
                total_count,
                normalize::server,
            ))
        };
        pager::paginate(self.page_size, fetch).right_stream()
    }

    /// Every server, in one `Vec`. Stops at the first error.
    pub async fn collect_all(self) -> Result<Vec<CloudServer>, Error> {
        self.stream().try_collect().await
    }
}
