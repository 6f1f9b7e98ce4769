//! Private racks: list, read, their IP addresses, and their network usage.
//!
//! The handle is [`PrivateRacks`], from [`Client::private_racks`]; its
//! [`ips`](PrivateRacks::ips) give [`AssignedIps`].

mod model;
pub(crate) mod read;

pub use model::*;

use chrono::NaiveDate;

use crate::handle::{Handle, retry_unsafe_option};
use crate::ips::{AssignedIps, IpOwner};
use crate::list::List;
use crate::model::PrivateRackId;
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
            let answer = handle.call(|| infra.list_private_racks()).await?;
            answer.list_at(read::RACKS, read::wrapped_rack)
        })
    }

    /// Reads one private rack.
    pub async fn get(&self, rack: &PrivateRackId) -> Result<PrivateRack, Error> {
        let infra = self.handle.infra();
        let answer = self
            .handle
            .call(|| infra.get_private_rack().private_rack_id(rack.as_str()))
            .await?;
        answer.one(read::wrapped_rack)
    }

    /// The IP addresses of one rack.
    pub fn ips(&self, rack: &PrivateRackId) -> AssignedIps {
        AssignedIps::new(self.handle.clone(), IpOwner::PrivateRack(rack.clone()))
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
            .call(|| {
                infra
                    .get_private_rack_network_usage()
                    .private_rack_id(rack.as_str())
                    .date_from(from.format("%d-%m-%Y").to_string())
                    .date_to(to.format("%d-%m-%Y").to_string())
            })
            .await?;
        answer.one(|_, json| Ok(RackNetworkUsage::new(json.into_value())))
    }
}
