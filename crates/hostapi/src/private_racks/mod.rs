//! Private racks: list, read, their IP addresses, and their network usage.
//!
//! The handle is [`PrivateRacks`], from [`Client::private_racks`]; its
//! [`ips`](PrivateRacks::ips) give [`RackIps`].

mod model;
pub(crate) mod read;

pub use model::*;

use std::net::IpAddr;

use chrono::NaiveDate;

use crate::handle::{Handle, retry_unsafe_option};
use crate::ips;
use crate::list::List;
use crate::model::{IpAddress, IpUpdate, PrivateRackId};
use crate::outcome::Confirmation;
use crate::{Client, Error};

impl Client {
    /// The private racks of the account (`/v1/privateRacks`).
    pub fn private_racks(&self) -> PrivateRacks {
        PrivateRacks {
            handle: Handle::new(self),
        }
    }
}

/// Private racks (`/v1/privateRacks`). The IPs of one rack are reached with
/// [`PrivateRacks::ips`].
#[derive(Debug, Clone)]
pub struct PrivateRacks {
    pub(crate) handle: Handle,
}

impl PrivateRacks {
    retry_unsafe_option!();

    /// Lists the private racks. The list view carries only each rack's id, so the
    /// other fields are empty; [`get`](Self::get) reads the rest.
    pub fn list(&self) -> List<PrivateRack> {
        let handle = self.handle.clone();
        List::once(async move {
            let infra = handle.infra();
            let answer = handle
                .call("listPrivateRacks", || infra.list_private_racks().request())
                .await?;
            answer.list_at(read::RACKS, read::wrapped_rack)
        })
    }

    /// Reads one private rack.
    pub async fn get(&self, rack: &PrivateRackId) -> Result<PrivateRack, Error> {
        let infra = self.handle.infra();
        let answer = self
            .handle
            .call("getPrivateRack", || {
                infra
                    .get_private_rack()
                    .private_rack_id(rack.as_str())
                    .request()
            })
            .await?;
        answer.one(read::wrapped_rack)
    }

    /// The IP addresses of one rack.
    pub fn ips(&self, rack: &PrivateRackId) -> RackIps {
        RackIps {
            handle: self.handle.clone(),
            rack: rack.clone(),
        }
    }

    /// The rack's network usage from `from` to `to` (sent as `DD-MM-YYYY`).
    ///
    /// The documents do not describe the record's fields, so the answer is returned
    /// uninterpreted, as a [`RackNetworkUsage`] around the JSON the service sent.
    /// Refuses `from` after `to` before sending.
    pub async fn network_usage(
        &self,
        rack: &PrivateRackId,
        from: NaiveDate,
        to: NaiveDate,
    ) -> Result<RackNetworkUsage, Error> {
        if from > to {
            return Err(Error::invalid("from", format!("{from} is after to ({to})")));
        }
        let infra = self.handle.infra();
        let answer = self
            .handle
            .call("getPrivateRackNetworkUsage", || {
                infra
                    .get_private_rack_network_usage()
                    .private_rack_id(rack.as_str())
                    .date_from(from.format("%d-%m-%Y").to_string())
                    .date_to(to.format("%d-%m-%Y").to_string())
                    .request()
            })
            .await?;
        answer.one(|_, json| Ok(RackNetworkUsage::new(json.into_value())))
    }
}

/// The IP addresses of one private rack (`/v1/privateRacks/{rack}/ips`), from
/// [`PrivateRacks::ips`]: the same [`IpAddress`] model as every other view of an IP,
/// with `private_rack_id` set.
#[derive(Debug, Clone)]
pub struct RackIps {
    handle: Handle,
    rack: PrivateRackId,
}

impl RackIps {
    retry_unsafe_option!();

    /// The rack these IPs belong to.
    pub fn rack(&self) -> &PrivateRackId {
        &self.rack
    }

    /// Lists the rack's IP addresses. The list view has no reverse DNS name; read one
    /// IP with [`get`](Self::get) for it.
    pub fn list(&self) -> List<IpAddress> {
        let handle = self.handle.clone();
        let rack = self.rack.clone();
        List::once(async move {
            let infra = handle.infra();
            let answer = handle
                .call("listPrivateRackIps", || {
                    infra
                        .list_private_rack_ips()
                        .private_rack_id(rack.as_str())
                        .request()
                })
                .await?;
            answer.list_at(ips::read::IPS, ips::read::wrapped_ip)
        })
    }

    /// Reads one IP address of the rack, with its reverse DNS name.
    pub async fn get(&self, ip: IpAddr) -> Result<IpAddress, Error> {
        let infra = self.handle.infra();
        let answer = self
            .handle
            .call("getPrivateRackIp", || {
                infra
                    .get_private_rack_ip()
                    .private_rack_id(self.rack.as_str())
                    .ip_address(ip.to_string())
                    .request()
            })
            .await?;
        answer.one(ips::read::wrapped_ip)
    }

    /// Changes one setting of a rack IP, its reverse DNS name or whether it is
    /// null-routed (sent as `nullRouted=0|1`), and answers the IP as it now is. A
    /// reverse DNS name must be a host name (or empty, to clear it).
    pub async fn update(&self, ip: IpAddr, change: &IpUpdate) -> Result<IpAddress, Error> {
        ips::check_update(change)?;
        let form = ips::update_form(change)?;
        let infra = self.handle.infra();
        let answer = self
            .handle
            .call("updatePrivateRackIp", || {
                infra
                    .update_private_rack_ip()
                    .private_rack_id(self.rack.as_str())
                    .ip_address(ip.to_string())
                    .body(form.clone())
                    .request()
            })
            .await?;
        answer.one(ips::read::wrapped_ip)
    }

    /// After [`update`](Self::update) failed with an unknown outcome: reads the IP and
    /// says whether it shows the change.
    pub async fn confirm_update(
        &self,
        ip: IpAddr,
        change: &IpUpdate,
    ) -> Result<Confirmation<IpAddress>, Error> {
        Ok(ips::confirmation(self.get(ip).await?, change))
    }
}
