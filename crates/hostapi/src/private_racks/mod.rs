//! Private racks: list, read, their IP addresses, and their network usage.

mod model;
pub(crate) mod normalize;

pub use model::*;

use chrono::NaiveDate;

use crate::handle::{Handle, retry_unsafe_option};
use crate::ips::{self, IpAddress, IpUpdate};
use crate::model::PrivateRackId;
use crate::wire::At;
use crate::{Client, Error, validate};

impl Client {
    /// The private racks of the account.
    pub fn private_racks(&self) -> PrivateRacks<'_> {
        PrivateRacks {
            handle: Handle::new(self),
        }
    }
}

/// Private racks (`/v1/privateRacks`). The IPs of one rack are reached with
/// [`PrivateRacks::ips`].
#[derive(Debug, Clone, Copy)]
pub struct PrivateRacks<'a> {
    pub(crate) handle: Handle<'a>,
}

impl<'a> PrivateRacks<'a> {
    retry_unsafe_option!();

    /// Lists the private racks. The list view carries only each rack's id, so the
    /// other fields are empty; [`PrivateRacks::get`] reads the rest.
    pub async fn list(&self) -> Result<Vec<PrivateRack>, Error> {
        let call = self.handle.infra().list_private_racks().send();
        self.handle
            .records("listPrivateRacks", call, &normalize::LIST)
            .await
    }

    /// Reads one private rack.
    pub async fn get(&self, rack: &PrivateRackId) -> Result<PrivateRack, Error> {
        validate::path_segment("rack", rack.as_str())?;
        let call = self
            .handle
            .infra()
            .get_private_rack()
            .private_rack_id(rack.as_str())
            .send();
        self.handle
            .json("getPrivateRack", call)
            .await?
            .normalize(normalize::single)
    }

    /// The IP addresses of one rack. Nothing is sent until a method of the returned
    /// handle is called.
    pub fn ips(&self, rack: &PrivateRackId) -> RackIps<'a> {
        RackIps {
            handle: self.handle,
            rack: rack.clone(),
        }
    }

    /// The rack's network usage from `from` to `to` (sent as `DD-MM-YYYY`).
    ///
    /// The API does not document the record's fields, so the answer is returned
    /// uninterpreted, as a [`RackNetworkUsage`] around the JSON the service sent.
    /// Refuses `from` after `to` before sending.
    pub async fn network_usage(
        &self,
        rack: &PrivateRackId,
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<RackNetworkUsage, Error> {
        validate::path_segment("rack", rack.as_str())?;
        if from > to {
            return Err(Error::invalid("from", format!("{from} is after to ({to})")));
        }
        let call = self
            .handle
            .infra()
            .get_private_rack_network_usage()
            .private_rack_id(rack.as_str())
            .date_from(from.format("%d-%m-%Y").to_string())
            .date_to(to.format("%d-%m-%Y").to_string())
            .send();
        self.handle
            .json("getPrivateRackNetworkUsage", call)
            .await?
            .normalize(|raw| Ok(RackNetworkUsage::new(raw.0)))
    }
}

/// The IP addresses of one private rack (`/v1/privateRacks/{rack}/ips`), from
/// [`PrivateRacks::ips`]. Answers the same [`IpAddress`] model as every other view of
/// an IP, with `private_rack_id` set.
#[derive(Debug, Clone)]
pub struct RackIps<'a> {
    handle: Handle<'a>,
    rack: PrivateRackId,
}

impl RackIps<'_> {
    /// The same handle, with calls that are not idempotent retried like reads when
    /// they fail in a way that may pass (this handle's calls are reads and a PUT,
    /// which are retried anyway; kept for symmetry with the other handles).
    pub fn retry_unsafe(self) -> Self {
        Self {
            handle: self.handle.retrying_unsafe(),
            rack: self.rack,
        }
    }

    /// The rack these IPs belong to.
    pub fn rack(&self) -> &PrivateRackId {
        &self.rack
    }

    /// Lists the rack's IP addresses. The list view has no reverse lookup name; read
    /// one IP with [`RackIps::get`] for it.
    pub async fn list(&self) -> Result<Vec<IpAddress>, Error> {
        validate::path_segment("rack", self.rack.as_str())?;
        let call = self
            .handle
            .infra()
            .list_private_rack_ips()
            .private_rack_id(self.rack.as_str())
            .send();
        self.handle
            .json("listPrivateRackIps", call)
            .await?
            .normalize(|raw| {
                crate::wire::each(raw.ips, |item| ips::normalize::rack_ip(item.ip).at("ip"))
                    .at("ips")
            })
    }

    /// Reads one IP address of the rack, with its reverse lookup name.
    pub async fn get(&self, ip: &str) -> Result<IpAddress, Error> {
        validate::path_segment("rack", self.rack.as_str())?;
        let ip = validate::ip_address("ip", ip)?;
        let call = self
            .handle
            .infra()
            .get_private_rack_ip()
            .private_rack_id(self.rack.as_str())
            .ip_address(ip.to_string())
            .send();
        self.handle
            .json("getPrivateRackIp", call)
            .await?
            .normalize(|raw| ips::normalize::rack_ip(raw.ip).at("ip"))
    }

    /// Changes one setting of a rack IP — its reverse lookup name, or whether it is
    /// null-routed (sent as `nullRouted=0|1`) — and answers the IP as it now is.
    /// Validates the address and a reverse lookup name (a host name, or empty to
    /// clear it) before sending.
    pub async fn update(&self, ip: &str, change: &IpUpdate) -> Result<IpAddress, Error> {
        validate::path_segment("rack", self.rack.as_str())?;
        let ip = validate::ip_address("ip", ip)?;
        ips::validate_update(change)?;
        let call = self
            .handle
            .infra()
            .update_private_rack_ip()
            .private_rack_id(self.rack.as_str())
            .ip_address(ip.to_string())
            .body(ips::normalize::form(change))
            .send();
        self.handle
            .json("updatePrivateRackIp", call)
            .await?
            .normalize(|raw| ips::normalize::rack_ip(raw.ip).at("ip"))
    }
}
