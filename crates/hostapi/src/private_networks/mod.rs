//! Private networks between bare metal servers: list, create, read, delete, add and
//! remove members, and wait for a member to be configured or removed.

mod model;
pub(crate) mod normalize;

pub use model::*;

use futures::TryStreamExt;

use crate::handle::{Handle, retry_unsafe_option};
use crate::model::{BareMetalId, PrivateNetworkId};
use crate::paging::{self, Page};
use crate::wait::{self, Poll, WaitOptions};
use crate::{Client, Error, validate};

impl Client {
    /// The private networks of the account.
    pub fn private_networks(&self) -> PrivateNetworks<'_> {
        PrivateNetworks {
            handle: Handle::new(self),
        }
    }
}

/// Private networks between bare metal servers (`/v1/privateNetworks`).
///
/// Adding and removing a member take about a minute each: a member shows
/// [`NetworkMemberStatus::Configuring`], then [`NetworkMemberStatus::Configured`];
/// a removed member shows [`NetworkMemberStatus::Removing`], then disappears.
/// [`PrivateNetworks::wait_member_configured`] and
/// [`PrivateNetworks::wait_member_removed`] wait for the end of each.
#[derive(Debug, Clone, Copy)]
pub struct PrivateNetworks<'a> {
    handle: Handle<'a>,
}

/// How many networks each further page asks for.
const LIST_PAGE_SIZE: u32 = 100;

impl PrivateNetworks<'_> {
    retry_unsafe_option!();

    /// Lists every private network. The list view gives no members; read one network
    /// with [`PrivateNetworks::get`] for them.
    ///
    /// The answer carries `_metadata {totalCount, limit, offset}` although the docs
    /// give the call no paging parameters: the first request sends none, and when
    /// `totalCount` says there are more networks than it carried, the rest is fetched
    /// with `limit`/`offset` (the cloud interface's parameters, which the metadata
    /// mirrors), by the rules of [`ListCloudServers`](crate::ListCloudServers).
    pub async fn list(&self) -> Result<Vec<PrivateNetwork>, Error> {
        const OPERATION: &str = "listPrivateNetworks";
        let handle = self.handle;
        let fetch = move |offset: u64, limit: u32| async move {
            let mut call = handle.infra().list_private_networks();
            if offset > 0 {
                call = call
                    .limit(i64::from(limit))
                    .offset(i64::try_from(offset).unwrap_or(i64::MAX));
            }
            let mut answer = handle.json(OPERATION, call.send()).await?;
            let total_count = answer.value.metadata.as_ref().and_then(|m| m.total_count);
            let raw = std::mem::take(&mut answer.value.private_networks);
            Ok(Page::from_answer(
                &answer,
                "privateNetworks",
                raw,
                total_count,
                normalize::list_item,
            ))
        };
        paging::paginate(LIST_PAGE_SIZE, fetch).try_collect().await
    }

    /// Creates a private network (the API takes no parameters: no name can be given)
    /// and answers its id and the service's message.
    pub async fn create(&self) -> Result<CreatedPrivateNetwork, Error> {
        let call = self.handle.infra().create_private_network().send();
        self.handle
            .json("createPrivateNetwork", call)
            .await?
            .normalize(normalize::created)
    }

    /// Reads one private network with its members. The service answers an array
    /// holding the network; the facade unwraps it. The id must be numeric.
    pub async fn get(&self, network: &PrivateNetworkId) -> Result<PrivateNetwork, Error> {
        let numeric = validate::integer_id("network", network.as_str())?;
        let call = self.handle.infra().get_private_network().id(numeric).send();
        self.handle
            .json("getPrivateNetwork", call)
            .await?
            .normalize(|raw| normalize::single(raw, network))
    }

    /// Deletes a private network and answers the service's message, when it sends
    /// one. The id must be numeric.
    pub async fn delete(&self, network: &PrivateNetworkId) -> Result<Option<String>, Error> {
        let numeric = validate::integer_id("network", network.as_str())?;
        let call = self
            .handle
            .infra()
            .delete_private_network()
            .id(numeric)
            .send();
        self.handle
            .json("deletePrivateNetwork", call)
            .await?
            .normalize(|raw| Ok(crate::wire::non_empty(raw.message)))
    }

    /// Adds a bare metal server to a private network (form `bareMetalId`, an
    /// integer; the service answers 204). The server then shows
    /// [`NetworkMemberStatus::Configuring`] for about a minute; see
    /// [`PrivateNetworks::wait_member_configured`]. Both ids must be numeric.
    pub async fn add_member(
        &self,
        network: &PrivateNetworkId,
        server: &BareMetalId,
    ) -> Result<(), Error> {
        let network = validate::integer_id("network", network.as_str())?;
        let server = validate::integer_id("server", server.as_str())?;
        let form = hostapi_raw_infra::types::AddPrivateNetworkBareMetalForm {
            bare_metal_id: server,
        };
        let call = self
            .handle
            .infra()
            .add_private_network_bare_metal()
            .private_network_id(network)
            .body(form)
            .send();
        self.handle.empty("addPrivateNetworkBareMetal", call).await
    }

    /// Removes a bare metal server from a private network (the service answers 204).
    /// The server then shows [`NetworkMemberStatus::Removing`] for about a minute
    /// and disappears; see [`PrivateNetworks::wait_member_removed`]. The network id
    /// must be numeric.
    pub async fn remove_member(
        &self,
        network: &PrivateNetworkId,
        server: &BareMetalId,
    ) -> Result<(), Error> {
        let network = validate::integer_id("network", network.as_str())?;
        validate::path_segment("server", server.as_str())?;
        let call = self
            .handle
            .infra()
            .remove_private_network_bare_metal()
            .private_network_id(network)
            .bare_metal_id(server.as_str())
            .send();
        self.handle
            .empty("removePrivateNetworkBareMetal", call)
            .await
    }

    /// Polls the network until `server` is a configured member, and answers the
    /// member as last read.
    ///
    /// While the member is [`Configuring`](NetworkMemberStatus::Configuring) the
    /// wait goes on (the progress callback sees `CONFIGURING`). It ends with
    /// [`Error::WaitFailed`] when the awaited state cannot follow from what is seen:
    /// the server is not a member (never added, or already gone — the service lists a
    /// member from the moment it is added), it is being removed (`REMOVING`), or its
    /// status is one the docs do not name (or absent), which this waiter cannot
    /// interpret. It ends with [`Error::WaitTimeout`] at the deadline, and with the
    /// error of a poll that fails.
    ///
    /// ```no_run
    /// # async fn add(client: &hostapi::Client) -> Result<(), hostapi::Error> {
    /// use std::time::Duration;
    /// let network = hostapi::PrivateNetworkId::from(7u32);
    /// let server = hostapi::BareMetalId::from(12345u32);
    /// let networks = client.private_networks();
    /// networks.add_member(&network, &server).await?;
    /// let options = hostapi::WaitOptions::new()
    ///     .interval(Duration::from_secs(10))
    ///     .timeout(Duration::from_secs(300))
    ///     .on_progress(|p| eprintln!("{}: {}", p.what, p.state));
    /// let member = networks
    ///     .wait_member_configured(&network, &server, &options)
    ///     .await?;
    /// println!("configured: {:?}", member.cidr);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn wait_member_configured(
        &self,
        network: &PrivateNetworkId,
        server: &BareMetalId,
        options: &WaitOptions,
    ) -> Result<PrivateNetworkMember, Error> {
        validate::integer_id("network", network.as_str())?;
        validate::path_segment("server", server.as_str())?;
        let what = format!("bare metal {server} to be configured in private network {network}");
        wait::poll_until(what, options, || async {
            let current = self.get(network).await?;
            Ok(match current.member(server) {
                None => Poll::Failed(NOT_A_MEMBER.to_owned()),
                Some(member) => match &member.status {
                    Some(NetworkMemberStatus::Configured) => Poll::Done(member.clone()),
                    Some(NetworkMemberStatus::Configuring) => {
                        Poll::Pending(NetworkMemberStatus::Configuring.as_wire().to_owned())
                    }
                    Some(other) => Poll::Failed(other.as_wire().to_owned()),
                    None => Poll::Failed(NO_STATUS.to_owned()),
                },
            })
        })
        .await
    }

    /// Polls the network until `server` is no longer a member.
    ///
    /// While the member is [`Removing`](NetworkMemberStatus::Removing) the wait
    /// goes on (the progress callback sees `REMOVING`); once the member is gone the
    /// wait ends successfully (also when it was gone at the first poll). It ends with
    /// [`Error::WaitFailed`] when the member shows a status from which it will not go
    /// away on its own — `CONFIGURED` or `CONFIGURING` (no removal under way: call
    /// [`PrivateNetworks::remove_member`] first), a status the docs do not name, or
    /// none — with [`Error::WaitTimeout`] at the deadline, and with the error of a
    /// poll that fails.
    pub async fn wait_member_removed(
        &self,
        network: &PrivateNetworkId,
        server: &BareMetalId,
        options: &WaitOptions,
    ) -> Result<(), Error> {
        validate::integer_id("network", network.as_str())?;
        validate::path_segment("server", server.as_str())?;
        let what = format!("bare metal {server} to be removed from private network {network}");
        wait::poll_until(what, options, || async {
            let current = self.get(network).await?;
            Ok(match current.member(server) {
                None => Poll::Done(()),
                Some(member) => match &member.status {
                    Some(NetworkMemberStatus::Removing) => {
                        Poll::Pending(NetworkMemberStatus::Removing.as_wire().to_owned())
                    }
                    Some(other) => Poll::Failed(other.as_wire().to_owned()),
                    None => Poll::Failed(NO_STATUS.to_owned()),
                },
            })
        })
        .await
    }
}

/// The state a waiter reports for a server that is not listed among the members.
const NOT_A_MEMBER: &str = "not a member";
/// The state a waiter reports for a member listed without a status.
const NO_STATUS: &str = "no status";
