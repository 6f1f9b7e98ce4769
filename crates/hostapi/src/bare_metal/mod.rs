//! Bare metal servers (`/v1/bareMetals`): read, set a reference, switch port, power,
//! install, rescue mode, installation status and passwords, network usage, IPs and
//! DHCP leases. The provider labels this part of v1 deprecated; it names no successor.
//!
//! The handle is [`BareMetals`], from [`Client::bare_metals`]; its
//! [`ips`](BareMetals::ips) and [`leases`](BareMetals::leases) give [`AssignedIps`] and
//! [`BareMetalLeases`]. Installs are described by an [`InstallRequest`]. The server's id is
//! [`types::BareMetalId`](crate::types::BareMetalId), in [`types`](crate::types) with every
//! id.

mod install;
pub(crate) mod leases;
mod model;
pub(crate) mod read;
pub(crate) mod usage;

pub use install::{InstallPartition, InstallPartitionSize, InstallRequest, PartitionLayout};
pub use leases::{BareMetalLeases, DhcpLease, DhcpOption, NewDhcpLease};
pub use model::*;
pub use usage::{
    BandwidthUsage, BareMetalNetworkUsage, DataTrafficUsage, PortUsage, UsageInterval, UsageReport,
};

use crate::handle::{Handle, retry_unsafe_option};
use crate::ips::{AssignedIps, IpOwner};
use crate::list::List;
use crate::model::BareMetalId;
use crate::outcome::Confirmation;
use crate::wait::{Polled, WaitOptions, poll_until};
use crate::{Client, Error};

impl Client {
    /// The bare metal servers (`/v1/bareMetals`).
    pub fn bare_metals(&self) -> BareMetals {
        BareMetals {
            handle: Handle::new(self),
        }
    }
}

/// The bare metal servers (`/v1/bareMetals`).
///
/// The IPs and DHCP leases of a server have their own handles, [`ips`](Self::ips) and
/// [`leases`](Self::leases), which share this handle's options (so
/// `client.bare_metals().retry_unsafe().leases(&id)` retries lease writes too).
///
/// ```no_run
/// # async fn run(client: hostapi::Client) -> Result<(), hostapi::Error> {
/// let id: hostapi::types::BareMetalId = "20001".parse()?;
/// let server = client.bare_metals().get(&id).await?;
/// println!("{:?} at {:?}", server.name, server.location.and_then(|l| l.site));
/// for ip in client.bare_metals().ips(&id).list().await? {
///     println!("{} {:?}", ip.ip, ip.reverse_dns);
/// }
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct BareMetals {
    pub(crate) handle: Handle,
}

impl BareMetals {
    retry_unsafe_option!();

    /// The IP addresses of one server.
    pub fn ips(&self, id: &BareMetalId) -> AssignedIps {
        AssignedIps::new(self.handle.clone(), IpOwner::BareMetal(id.clone()))
    }

    /// The DHCP leases (PXE boot) of one server.
    pub fn leases(&self, id: &BareMetalId) -> BareMetalLeases {
        BareMetalLeases::new(self.handle.clone(), id.clone())
    }

    /// Lists every bare metal server. List entries carry the id, name, server type and
    /// reference only; [`get`](Self::get) gives the rest.
    pub fn list(&self) -> List<BareMetalServer> {
        let handle = self.handle.clone();
        List::once(async move {
            let infra = handle.infra();
            let answer = handle.call(|| infra.list_bare_metals()).await?;
            answer.list_at(read::SERVERS, read::wrapped_server)
        })
    }

    /// Reads one server in detail: location, hardware, network, hosting contract and
    /// SLA.
    pub async fn get(&self, id: &BareMetalId) -> Result<BareMetalServer, Error> {
        let infra = self.handle.infra();
        let answer = self
            .handle
            .call(|| infra.get_bare_metal().bare_metal_id(id.as_str()))
            .await?;
        answer.one(read::wrapped_server)
    }

    /// Sets the server's reference (your own label; `""` clears it) and answers the
    /// server as it now is. A reference with control characters (line breaks, tabs…) is
    /// refused before sending.
    pub async fn update(
        &self,
        id: &BareMetalId,
        reference: &str,
    ) -> Result<BareMetalServer, Error> {
        if let Some(bad) = reference.chars().find(|c| c.is_control()) {
            return Err(Error::invalid(
                "reference",
                format!("contains the control character {bad:?}"),
            ));
        }
        let infra = self.handle.infra();
        let answer = self
            .handle
            .call(|| {
                infra
                    .update_bare_metal_reference()
                    .bare_metal_id(id.as_str())
                    .body(hostapi_raw_infra::types::UpdateBareMetalReferenceForm {
                        reference: reference.to_owned(),
                    })
            })
            .await?;
        answer.one(read::wrapped_server)
    }

    /// After [`update`](Self::update) failed with an unknown outcome: reads the server
    /// and says whether its reference is now `reference`.
    pub async fn confirm_update(
        &self,
        id: &BareMetalId,
        reference: &str,
    ) -> Result<Confirmation<BareMetalServer>, Error> {
        let server = self.get(id).await?;
        Ok(
            if server.reference.as_deref().unwrap_or("") == reference.trim() {
                Confirmation::Applied(server)
            } else {
                Confirmation::NotApplied
            },
        )
    }

    /// Reads the server's switch port: open (connected) or closed.
    pub async fn switch_port(&self, id: &BareMetalId) -> Result<SwitchPort, Error> {
        let infra = self.handle.infra();
        let answer = self
            .handle
            .call(|| {
                infra
                    .get_bare_metal_switch_port()
                    .bare_metal_id(id.as_str())
            })
            .await?;
        answer.one(read::switch_port)
    }

    /// Opens the server's switch port (connects it to the network) and answers the
    /// port, now open.
    pub async fn open_switch_port(&self, id: &BareMetalId) -> Result<SwitchPort, Error> {
        let infra = self.handle.infra();
        let answer = self
            .handle
            .call(|| {
                infra
                    .open_bare_metal_switch_port()
                    .bare_metal_id(id.as_str())
            })
            .await?;
        answer.one(read::switch_port)
    }

    /// Closes the server's switch port (cuts it off the network) and answers the port,
    /// now closed.
    pub async fn close_switch_port(&self, id: &BareMetalId) -> Result<SwitchPort, Error> {
        let infra = self.handle.infra();
        let answer = self
            .handle
            .call(|| {
                infra
                    .close_bare_metal_switch_port()
                    .bare_metal_id(id.as_str())
            })
            .await?;
        answer.one(read::switch_port)
    }

    /// Reads whether the server is powered on or off (blade servers are not supported
    /// by the service, which answers them with an error status).
    pub async fn power_status(&self, id: &BareMetalId) -> Result<BareMetalPowerStatus, Error> {
        let infra = self.handle.infra();
        let answer = self
            .handle
            .call(|| {
                infra
                    .get_bare_metal_power_status()
                    .bare_metal_id(id.as_str())
            })
            .await?;
        answer.one(read::power_status)
    }

    /// Power cycles (reboots) the server. Calls the documented path `/powerCycle` (not
    /// the `/reboot` alias the documents' snippets use); the service accepts it (202)
    /// and works on it asynchronously: see [`power_cycle_and_wait`](Self::power_cycle_and_wait).
    pub async fn power_cycle(&self, id: &BareMetalId) -> Result<(), Error> {
        let infra = self.handle.infra();
        self.handle
            .call(|| infra.power_cycle_bare_metal().bare_metal_id(id.as_str()))
            .await?;
        Ok(())
    }

    /// Power cycles the server and waits until it is on again. The cycle is proven: the
    /// wait first sees the power go off, then on (a server that never shows off ends
    /// the wait at the deadline, saying so).
    pub async fn power_cycle_and_wait(
        &self,
        id: &BareMetalId,
        options: &WaitOptions,
    ) -> Result<BareMetalPowerStatus, Error> {
        self.power_cycle(id).await?;
        let went_off = std::sync::atomic::AtomicBool::new(false);
        poll_until(format!("bare metal {id} to power cycle"), options, || {
            let went_off = &went_off;
            async move {
                use std::sync::atomic::Ordering;
                let status = self.power_status(id).await?;
                Ok(match &status.status {
                    Some(BareMetalPowerState::On) if went_off.load(Ordering::Relaxed) => {
                        Polled::Done(status)
                    }
                    Some(BareMetalPowerState::On) => {
                        Polled::Pending("on (the cycle has not begun)".to_owned())
                    }
                    Some(state) => {
                        went_off.store(true, Ordering::Relaxed);
                        Polled::Pending(state.to_string())
                    }
                    None => Polled::Unsure("no power status".to_owned()),
                })
            }
        })
        .await
    }

    /// Reads the installation status, which also reports a rescue boot. The status is
    /// answered whatever its code; [`InstallationStatus::is_error`] tells a code other
    /// than 1000 (the waiters turn that into [`Error::Api`]).
    pub async fn installation_status(&self, id: &BareMetalId) -> Result<InstallationStatus, Error> {
        self.installation_status_call(id)
            .await
            .map(|(status, _)| status)
    }

    /// The installation status, and the call that read it (for the waiters' errors).
    pub(crate) async fn installation_status_call(
        &self,
        id: &BareMetalId,
    ) -> Result<(InstallationStatus, crate::CallInfo), Error> {
        let infra = self.handle.infra();
        let answer = self
            .handle
            .call(|| {
                infra
                    .get_bare_metal_installation_status()
                    .bare_metal_id(id.as_str())
            })
            .await?;
        let status = answer.one(read::installation_status)?;
        Ok((status, answer.call))
    }

    /// Reads the initial root password and the rescue mode password (both
    /// [`Secret`](crate::Secret)s). The rescue password is set, or changed, once rescue
    /// mode has launched.
    pub async fn root_password(&self, id: &BareMetalId) -> Result<BareMetalPasswords, Error> {
        let infra = self.handle.infra();
        let answer = self
            .handle
            .call(|| {
                infra
                    .get_bare_metal_root_password()
                    .bare_metal_id(id.as_str())
            })
            .await?;
        answer.one(read::passwords)
    }
}
