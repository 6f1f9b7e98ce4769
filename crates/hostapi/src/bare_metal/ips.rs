//! The IP addresses of one bare metal server (`/v1/bareMetals/{id}/ips`), in the IP
//! model every view of an IP shares.

use std::net::IpAddr;

use crate::Error;
use crate::handle::{Handle, retry_unsafe_option};
use crate::ips;
use crate::list::List;
use crate::model::{BareMetalId, IpAddress, IpUpdate};
use crate::outcome::Confirmation;

/// The IP addresses of one bare metal server; from
/// [`BareMetals::ips`](super::BareMetals::ips).
#[derive(Debug, Clone)]
pub struct BareMetalIps {
    handle: Handle,
    id: BareMetalId,
}

impl BareMetalIps {
    retry_unsafe_option!();

    pub(crate) fn new(handle: Handle, id: BareMetalId) -> Self {
        Self { handle, id }
    }

    /// Lists the server's IP addresses, with their reverse DNS name, null routing,
    /// gateway and netmask, and billing.
    pub fn list(&self) -> List<IpAddress> {
        let handle = self.handle.clone();
        let id = self.id.clone();
        List::once(async move {
            let infra = handle.infra();
            let answer = handle
                .call(|| infra.list_bare_metal_ips().bare_metal_id(id.as_str()))
                .await?;
            answer.list_at(ips::read::IPS, ips::read::wrapped_ip)
        })
    }

    /// Reads one of the server's IP addresses.
    pub async fn get(&self, ip: IpAddr) -> Result<IpAddress, Error> {
        let infra = self.handle.infra();
        let answer = self
            .handle
            .call(|| {
                infra
                    .get_bare_metal_ip()
                    .bare_metal_id(self.id.as_str())
                    .ip_address(ip.to_string())
            })
            .await?;
        answer.one(ips::read::wrapped_ip)
    }

    /// Changes one setting of one of the server's IPs, its reverse DNS name or whether
    /// it is null-routed (sent as `nullRouted=0|1`), and answers the IP as it now is. A
    /// reverse DNS name must be a host name (or empty, to clear it).
    pub async fn update(&self, ip: IpAddr, change: &IpUpdate) -> Result<IpAddress, Error> {
        ips::check_update(change)?;
        let form = ips::update_form(change)?;
        let infra = self.handle.infra();
        let answer = self
            .handle
            .call(|| {
                infra
                    .update_bare_metal_ip()
                    .bare_metal_id(self.id.as_str())
                    .ip_address(ip.to_string())
                    .body(form.clone())
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
