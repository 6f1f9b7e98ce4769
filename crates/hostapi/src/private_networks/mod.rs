//! Private networks between bare metal servers: list, create, read, delete, add and
//! remove members, and wait for a member to be configured or removed.
//!
//! The handle is [`PrivateNetworks`], from [`Client::private_networks`].

mod model;
pub(crate) mod read;

pub use model::*;

use futures::FutureExt;

use crate::handle::{Handle, retry_unsafe_option};
use crate::list::List;
use crate::model::{BareMetalId, PrivateNetworkId};
use crate::wait::{Polled, WaitOptions, poll_until};
use crate::{Client, Error, validate};

impl Client {
    /// The private networks of the account (`/v1/privateNetworks`).
    pub fn private_networks(&self) -> PrivateNetworks {
        PrivateNetworks {
            handle: Handle::new(self),
        }
    }
}

/// Private networks between bare metal servers (`/v1/privateNetworks`).
///
/// Adding and removing a member take about a minute each: a member shows
/// [`NetworkMemberStatus::Configuring`], then [`NetworkMemberStatus::Configured`]; a
/// removed member shows [`NetworkMemberStatus::Removing`], then disappears.
/// [`wait_member_configured`](Self::wait_member_configured) and
/// [`wait_member_removed`](Self::wait_member_removed) wait for the end of each.
///
/// ```no_run
/// # async fn add(client: &hostapi::Client) -> Result<(), hostapi::Error> {
/// use std::time::Duration;
/// let network = hostapi::types::PrivateNetworkId::from(501u32);
/// let server = hostapi::types::BareMetalId::from(20001u32);
/// let networks = client.private_networks();
/// networks.add_member(&network, &server).await?;
/// let options = hostapi::WaitOptions::new()
///     .interval(Duration::from_secs(10))
///     .timeout(Duration::from_secs(300));
/// let member = networks.wait_member_configured(&network, &server, &options).await?;
/// println!("configured: {:?}", member.cidr);
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct PrivateNetworks {
    handle: Handle,
}

impl PrivateNetworks {
    retry_unsafe_option!();

    /// Lists every private network. The list view gives no members; read one network
    /// with [`get`](Self::get) for them.
    ///
    /// The answer carries `_metadata {totalCount, limit, offset}` but the documents give
    /// the call no paging parameters, so the first request sends none; when its
    /// `totalCount` says there are more networks than it carries, the rest are fetched
    /// with the `limit`/`offset` the `_metadata` mirrors, by the crate's pager (see
    /// [`List::page_size`]).
    pub fn list(&self) -> List<PrivateNetwork> {
        let handle = self.handle.clone();
        List::paged(
            &self.handle,
            move |offset, limit| {
                let handle = handle.clone();
                async move {
                    let infra = handle.infra();
                    let answer = handle
                        .call(|| {
                            let request = infra.list_private_networks();
                            if offset == 0 {
                                request
                            } else {
                                request.limit(limit).offset(offset)
                            }
                        })
                        .await?;
                    answer.page(read::networks, read::list_item)
                }
                .boxed()
            },
            |network| network.id.to_string(),
        )
    }

    /// Creates a private network (the call takes no parameters, so no name can be
    /// given) and answers its id and the service's message. Not retried once it may
    /// have reached the service, unless [`retry_unsafe`](Self::retry_unsafe).
    pub async fn create(&self) -> Result<CreatedPrivateNetwork, Error> {
        let infra = self.handle.infra();
        let answer = self.handle.call(|| infra.create_private_network()).await?;
        answer.one(read::created)
    }

    /// Reads one private network with its members. The service answers an array
    /// holding the network; it is unwrapped. The id must be numeric.
    pub async fn get(&self, network: &PrivateNetworkId) -> Result<PrivateNetwork, Error> {
        let numeric = validate::integer_id("network", network.as_str())?;
        let infra = self.handle.infra();
        let answer = self
            .handle
            .call(|| infra.get_private_network().id(numeric))
            .await?;
        answer.one(read::detail_in_array(network))
    }

    /// Deletes a private network and answers what the service said (its message, when
    /// it sends one). The id must be numeric.
    pub async fn delete(&self, network: &PrivateNetworkId) -> Result<DeletedPrivateNetwork, Error> {
        let numeric = validate::integer_id("network", network.as_str())?;
        let infra = self.handle.infra();
        let answer = self
            .handle
            .call(|| infra.delete_private_network().id(numeric))
            .await?;
        if answer.is_empty() {
            return Ok(DeletedPrivateNetwork::default());
        }
        answer.one(read::deleted)
    }

    /// Adds a bare metal server to a private network (form `bareMetalId`, an integer;
    /// the service answers 204). The server then shows
    /// [`NetworkMemberStatus::Configuring`] for about a minute; see
    /// [`wait_member_configured`](Self::wait_member_configured). Both ids must be
    /// numeric.
    pub async fn add_member(
        &self,
        network: &PrivateNetworkId,
        server: &BareMetalId,
    ) -> Result<(), Error> {
        let network = validate::integer_id("network", network.as_str())?;
        let server = validate::integer_id("server", server.as_str())?;
        let infra = self.handle.infra();
        self.handle
            .call(|| {
                infra
                    .add_private_network_bare_metal()
                    .private_network_id(network)
                    .body(hostapi_raw_infra::types::AddPrivateNetworkBareMetalForm {
                        bare_metal_id: server,
                    })
            })
            .await?;
        Ok(())
    }

    /// Removes a bare metal server from a private network (the service answers 204).
    /// The server then shows [`NetworkMemberStatus::Removing`] for about a minute and
    /// disappears; see [`wait_member_removed`](Self::wait_member_removed). The network
    /// id must be numeric.
    pub async fn remove_member(
        &self,
        network: &PrivateNetworkId,
        server: &BareMetalId,
    ) -> Result<(), Error> {
        let network = validate::integer_id("network", network.as_str())?;
        let infra = self.handle.infra();
        self.handle
            .call(|| {
                infra
                    .remove_private_network_bare_metal()
                    .private_network_id(network)
                    .bare_metal_id(server.as_str())
            })
            .await?;
        Ok(())
    }

    /// Polls the network until `server` is a configured member, and answers the member
    /// as last read.
    ///
    /// While the member is [`Configuring`](NetworkMemberStatus::Configuring) the wait
    /// goes on. A server not (yet) listed, or listed without a status, is tolerated for
    /// a few polls (the service may list a new member late), then ends the wait with
    /// [`Error::WaitFailed`]; so do `REMOVING` and a status the documents do not name.
    /// The deadline ends it with [`Error::WaitTimeout`].
    pub async fn wait_member_configured(
        &self,
        network: &PrivateNetworkId,
        server: &BareMetalId,
        options: &WaitOptions,
    ) -> Result<PrivateNetworkMember, Error> {
        validate::integer_id("network", network.as_str())?;
        let what = format!("bare metal {server} to be configured in private network {network}");
        poll_until(what, options, || async {
            let current = self.get(network).await?;
            Ok(match current.member(server) {
                None => Polled::Unsure(NOT_A_MEMBER.to_owned()),
                Some(member) => match &member.status {
                    Some(NetworkMemberStatus::Configured) => Polled::Done(member.clone()),
                    Some(state @ NetworkMemberStatus::Configuring) => {
                        Polled::Pending(state.to_string())
                    }
                    Some(other) => Polled::Failed(other.to_string()),
                    None => Polled::Unsure(NO_STATUS.to_owned()),
                },
            })
        })
        .await
    }

    /// Polls the network until `server` is no longer a member.
    ///
    /// While the member is [`Removing`](NetworkMemberStatus::Removing) the wait goes
    /// on; once it is gone the wait ends successfully (also when it was gone at the
    /// first poll). A member still `CONFIGURED` or `CONFIGURING`, or listed without a
    /// status, is tolerated for a few polls (the removal may not show yet), then ends
    /// the wait with [`Error::WaitFailed`]; so does a status the documents do not name.
    pub async fn wait_member_removed(
        &self,
        network: &PrivateNetworkId,
        server: &BareMetalId,
        options: &WaitOptions,
    ) -> Result<(), Error> {
        validate::integer_id("network", network.as_str())?;
        let what = format!("bare metal {server} to be removed from private network {network}");
        poll_until(what, options, || async {
            let current = self.get(network).await?;
            Ok(match current.member(server) {
                None => Polled::Done(()),
                Some(member) => match &member.status {
                    Some(state @ NetworkMemberStatus::Removing) => {
                        Polled::Pending(state.to_string())
                    }
                    Some(
                        state
                        @ (NetworkMemberStatus::Configured | NetworkMemberStatus::Configuring),
                    ) => Polled::Unsure(state.to_string()),
                    Some(other) => Polled::Failed(other.to_string()),
                    None => Polled::Unsure(NO_STATUS.to_owned()),
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
