//! The IP addresses of one bare metal server (`/v1/bareMetals/{id}/ips`), in the IP
//! model every view of an IP shares.

use super::install::checked_id;
use crate::handle::Handle;
use crate::ips::{self, IpAddress, IpUpdate, normalize};
use crate::model::BareMetalId;
use crate::wire::{self, At};
use crate::{Error, validate};

/// The IP addresses of one bare metal server; from [`BareMetals::ips`](super::BareMetals::ips).
#[derive(Debug, Clone)]
pub struct BareMetalIps<'a> {
    handle: Handle<'a>,
    id: BareMetalId,
}

impl<'a> BareMetalIps<'a> {
    pub(crate) fn new(handle: Handle<'a>, id: BareMetalId) -> Self {
        Self { handle, id }
    }

    /// Lists the server's IP addresses, with their reverse DNS name, null routing,
    /// gateway and netmask (sent as `mask`, documented `netmask`: both read) and billing.
    pub async fn list(&self) -> Result<Vec<IpAddress>, Error> {
        let id = checked_id(&self.id)?;
        let call = self
            .handle
            .infra()
            .list_bare_metal_ips()
            .bare_metal_id(id)
            .send();
        self.handle
            .json("listBareMetalIps", call)
            .await?
            .normalize(list_answer)
    }

    /// Reads one of the server's IP addresses. `ip` must be an IPv4 or IPv6 address.
    pub async fn get(&self, ip: &str) -> Result<IpAddress, Error> {
        let id = checked_id(&self.id)?;
        let ip = validate::ip_address("ip", ip)?;
        let call = self
            .handle
            .infra()
            .get_bare_metal_ip()
            .bare_metal_id(id)
            .ip_address(ip.to_string())
            .send();
        self.handle
            .json("getBareMetalIp", call)
            .await?
            .normalize(single)
    }

    /// Changes one setting of one of the server's IPs — its reverse DNS name, or
    /// whether it is null-routed (sent as `nullRouted=0|1`) — and answers the IP as it
    /// now is. `ip` must be an IP address and a reverse DNS name a host name (or empty,
    /// to clear it).
    pub async fn update(&self, ip: &str, change: &IpUpdate) -> Result<IpAddress, Error> {
        let id = checked_id(&self.id)?;
        let ip = validate::ip_address("ip", ip)?;
        ips::validate_update(change)?;
        let call = self
            .handle
            .infra()
            .update_bare_metal_ip()
            .bare_metal_id(id)
            .ip_address(ip.to_string())
            .body(normalize::form(change))
            .send();
        self.handle
            .json("updateBareMetalIp", call)
            .await?
            .normalize(single)
    }
}

/// `{ips:[{ip:{…}}, …]}` → the IPs.
pub(crate) fn list_answer(
    raw: hostapi_raw_infra::types::IpList,
) -> Result<Vec<IpAddress>, crate::wire::FieldError> {
    wire::each(raw.ips, single).at("ips")
}

/// `{ip:{…}}` → the IP.
pub(crate) fn single(
    raw: hostapi_raw_infra::types::IpWrapper,
) -> Result<IpAddress, crate::wire::FieldError> {
    let mut ip = normalize::ip(raw.ip).at("ip")?;
    ip.extra.extend(wire::extra(raw.extra));
    Ok(ip)
}
