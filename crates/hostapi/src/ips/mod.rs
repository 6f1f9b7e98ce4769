//! IP addresses: `PUT /v1/ips/{ip}`, the IPs of one bare metal server or private rack
//! ([`AssignedIps`]), and what every view of an IP shares (the reader and the update
//! form; the model is [`IpAddress`]).

pub(crate) mod read;

use std::net::IpAddr;

use hostapi_raw_infra::types as raw;
use hostapi_raw_operation::OperationBuilder;

use crate::handle::{Handle, retry_unsafe_option};
use crate::list::List;
pub use crate::model::{AssignedServer, IpAddress, IpBilling, IpUpdate, IpVisibility, ServerKind};
use crate::model::{BareMetalId, PrivateRackId};
use crate::outcome::Confirmation;
use crate::transport::Answer;
use crate::{Client, Error, validate};

impl Client {
    /// IP addresses of any server (`/v1/ips`). The IPs of one bare metal server or
    /// private rack are also reachable from [`Client::bare_metals`] and
    /// [`Client::private_racks`].
    pub fn ips(&self) -> Ips {
        Ips {
            handle: Handle::new(self),
        }
    }
}

/// IP addresses (`/v1/ips`).
#[derive(Debug, Clone)]
pub struct Ips {
    handle: Handle,
}

impl Ips {
    retry_unsafe_option!();

    /// Changes one setting of an IP address, its reverse DNS name or whether it is
    /// null-routed, and answers the IP as it now is.
    pub async fn update(&self, ip: IpAddr, change: &IpUpdate) -> Result<IpAddress, Error> {
        check_update(change)?;
        let form = update_form(change)?;
        let infra = self.handle.infra();
        let answer = self
            .handle
            .call(|| {
                infra
                    .update_ip()
                    .ip_address(ip.to_string())
                    .body(form.clone())
            })
            .await?;
        answer.one(read::wrapped_ip)
    }
}

/// Whose IP addresses an [`AssignedIps`] handle reaches.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum IpOwner {
    /// A bare metal server (`/v1/bareMetals/{id}/ips`).
    BareMetal(BareMetalId),
    /// A private rack (`/v1/privateRacks/{id}/ips`).
    PrivateRack(PrivateRackId),
}

/// The IP addresses of one bare metal server or one private rack, from
/// [`BareMetals::ips`](crate::BareMetals::ips) or
/// [`PrivateRacks::ips`](crate::PrivateRacks::ips): the same [`IpAddress`] model as every
/// other view of an IP (with `private_rack_id` set for a rack's).
#[derive(Debug, Clone)]
pub struct AssignedIps {
    handle: Handle,
    owner: IpOwner,
}

impl AssignedIps {
    retry_unsafe_option!();

    pub(crate) fn new(handle: Handle, owner: IpOwner) -> Self {
        Self { handle, owner }
    }

    /// The server or rack these IPs belong to.
    pub fn owner(&self) -> &IpOwner {
        &self.owner
    }

    /// Lists the IP addresses, with their null routing and billing (and, for a server,
    /// gateway, netmask and reverse DNS name; a rack's list view has no reverse DNS
    /// name: read one IP with [`get`](Self::get) for it).
    pub fn list(&self) -> List<IpAddress> {
        let handle = self.handle.clone();
        let owner = self.owner.clone();
        List::once(async move {
            let answer = call_for(
                &handle,
                &owner,
                |infra, id| infra.list_bare_metal_ips().bare_metal_id(id),
                |infra, id| infra.list_private_rack_ips().private_rack_id(id),
            )
            .await?;
            answer.list_at(read::IPS, read::wrapped_ip)
        })
    }

    /// Reads one of the IP addresses, with its reverse DNS name.
    pub async fn get(&self, ip: IpAddr) -> Result<IpAddress, Error> {
        let ip = ip.to_string();
        let answer = call_for(
            &self.handle,
            &self.owner,
            |infra, id| {
                infra
                    .get_bare_metal_ip()
                    .bare_metal_id(id)
                    .ip_address(ip.as_str())
            },
            |infra, id| {
                infra
                    .get_private_rack_ip()
                    .private_rack_id(id)
                    .ip_address(ip.as_str())
            },
        )
        .await?;
        answer.one(read::wrapped_ip)
    }

    /// Changes one setting of one of the IPs, its reverse DNS name or whether it is
    /// null-routed (sent as `nullRouted=0|1`), and answers the IP as it now is. A
    /// reverse DNS name must be a host name (or empty, to clear it).
    pub async fn update(&self, ip: IpAddr, change: &IpUpdate) -> Result<IpAddress, Error> {
        check_update(change)?;
        let form = update_form(change)?;
        let ip = ip.to_string();
        let answer = call_for(
            &self.handle,
            &self.owner,
            |infra, id| {
                infra
                    .update_bare_metal_ip()
                    .bare_metal_id(id)
                    .ip_address(ip.as_str())
                    .body(form.clone())
            },
            |infra, id| {
                infra
                    .update_private_rack_ip()
                    .private_rack_id(id)
                    .ip_address(ip.as_str())
                    .body(form.clone())
            },
        )
        .await?;
        answer.one(read::wrapped_ip)
    }

    /// After [`update`](Self::update) failed with an unknown outcome: reads the IP and
    /// says whether it shows the change.
    pub async fn confirm_update(
        &self,
        ip: IpAddr,
        change: &IpUpdate,
    ) -> Result<Confirmation<IpAddress>, Error> {
        Ok(confirmation(self.get(ip).await?, change))
    }
}

/// Makes the call on `owner`'s path: `bare_metal` or `rack` sets up the generated
/// builder, given the owner's id.
async fn call_for<'c, ServerCall, RackCall>(
    handle: &'c Handle,
    owner: &IpOwner,
    bare_metal: impl Fn(&'c hostapi_raw_infra::Client, &str) -> ServerCall,
    rack: impl Fn(&'c hostapi_raw_infra::Client, &str) -> RackCall,
) -> Result<Answer, Error>
where
    ServerCall: OperationBuilder,
    RackCall: OperationBuilder,
{
    let infra = handle.infra();
    match owner {
        IpOwner::BareMetal(id) => handle.call(|| bare_metal(infra, id.as_str())).await,
        IpOwner::PrivateRack(id) => handle.call(|| rack(infra, id.as_str())).await,
    }
}

/// Checks an IP update before it is sent: a reverse DNS name must be a host name (or
/// empty, to clear it).
pub(crate) fn check_update(change: &IpUpdate) -> Result<(), Error> {
    match change {
        IpUpdate::ReverseDns(name) if !name.is_empty() => {
            validate::domain_name("reverse_dns", name)
        }
        _ => Ok(()),
    }
}

/// The form of an IP update: exactly one field, booleans as 0/1 (the closed set the
/// spec gives `nullRouted`).
pub(crate) fn update_form(update: &IpUpdate) -> Result<raw::UpdateIpForm, Error> {
    Ok(match update {
        IpUpdate::ReverseDns(name) => raw::UpdateIpForm {
            reverse_lookup: Some(name.clone()),
            null_routed: None,
        },
        IpUpdate::NullRouted(on) => raw::UpdateIpForm {
            reverse_lookup: None,
            null_routed: Some(
                raw::UpdateIpFormNullRouted::try_from(i64::from(*on))
                    .map_err(|e| Error::invalid("null_routed", e))?,
            ),
        },
    })
}

/// Whether `ip` shows `change` applied (for the `confirm_update` of each IP handle).
pub(crate) fn confirmation(ip: IpAddress, change: &IpUpdate) -> Confirmation<IpAddress> {
    let applied = match change {
        IpUpdate::ReverseDns(name) => ip.reverse_dns.as_deref().unwrap_or("") == name,
        IpUpdate::NullRouted(on) => ip.null_routed == Some(*on),
    };
    if applied {
        Confirmation::Applied(ip)
    } else {
        Confirmation::NotApplied
    }
}
