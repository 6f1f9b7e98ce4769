//! Bare metal servers (`/v1/bareMetals`): read, set a reference, switch port, power,
//! install, rescue mode, installation status and passwords, network usage, IPs and
//! DHCP leases. The provider labels this part of v1 deprecated; it names no successor.

mod install;
pub(crate) mod ips;
pub(crate) mod leases;
mod model;
pub(crate) mod normalize;
pub(crate) mod usage;

pub use install::{InstallPartition, InstallPartitionSize, InstallRequest, PartitionLayout};
pub use ips::BareMetalIps;
pub use leases::{BareMetalLeases, DhcpLease, DhcpLeaseList, DhcpOption, NewDhcpLease};
pub use model::*;
pub use usage::{
    BandwidthUsage, BareMetalNetworkUsage, DataTrafficUsage, PortUsage, UsageInterval, UsageReport,
};

use install::checked_id;

use crate::handle::{Handle, retry_unsafe_option};
use crate::model::{BareMetalId, RescueImageId};
use crate::{Client, Error, validate};

impl Client {
    /// The bare metal servers (`/v1/bareMetals`).
    pub fn bare_metals(&self) -> BareMetals<'_> {
        BareMetals {
            handle: Handle::new(self),
        }
    }
}

/// The bare metal servers (`/v1/bareMetals`).
///
/// Every method takes the server's [`BareMetalId`] (checked as one URL path segment
/// before anything is sent). The IPs and DHCP leases of a server have their own
/// handles, [`ips`](Self::ips) and [`leases`](Self::leases), which share this handle's
/// options (so `client.bare_metals().retry_unsafe().leases(&id)` retries lease
/// writes too).
#[derive(Debug, Clone, Copy)]
pub struct BareMetals<'a> {
    pub(crate) handle: Handle<'a>,
}

impl<'a> BareMetals<'a> {
    retry_unsafe_option!();

    /// The IP addresses of one server.
    pub fn ips(&self, id: &BareMetalId) -> BareMetalIps<'a> {
        BareMetalIps::new(self.handle, id.clone())
    }

    /// The DHCP leases (PXE boot) of one server.
    pub fn leases(&self, id: &BareMetalId) -> BareMetalLeases<'a> {
        BareMetalLeases::new(self.handle, id.clone())
    }

    /// Lists every bare metal server. List entries carry the id, name, server type
    /// and reference only; [`get`](Self::get) gives the rest.
    pub async fn list(&self) -> Result<Vec<BareMetalServer>, Error> {
        let call = self.handle.infra().list_bare_metals().send();
        self.handle
            .records("listBareMetals", call, &normalize::LIST)
            .await
    }

    /// Reads one server in detail: location, hardware, network, hosting contract and
    /// SLA.
    pub async fn get(&self, id: &BareMetalId) -> Result<BareMetalServer, Error> {
        let id = checked_id(id)?;
        let call = self
            .handle
            .infra()
            .get_bare_metal()
            .bare_metal_id(id)
            .send();
        self.handle
            .json("getBareMetal", call)
            .await?
            .normalize(normalize::detail)
    }

    /// Sets the server's reference (your own label; `""` clears it) and answers the
    /// server as it now is. A reference with control characters (line breaks, tabs…)
    /// is refused before sending.
    pub async fn set_reference(
        &self,
        id: &BareMetalId,
        reference: &str,
    ) -> Result<BareMetalServer, Error> {
        let id = checked_id(id)?;
        if let Some(bad) = reference.chars().find(|c| c.is_control()) {
            return Err(Error::invalid(
                "reference",
                format!("contains the control character {bad:?}"),
            ));
        }
        let call = self
            .handle
            .infra()
            .update_bare_metal_reference()
            .bare_metal_id(id)
            .body(hostapi_raw_infra::types::UpdateBareMetalReferenceForm {
                reference: reference.to_owned(),
            })
            .send();
        self.handle
            .json("updateBareMetalReference", call)
            .await?
            .normalize(normalize::detail)
    }

    /// Reads the server's switch port: open (connected) or closed.
    pub async fn switch_port(&self, id: &BareMetalId) -> Result<SwitchPort, Error> {
        let id = checked_id(id)?;
        let call = self
            .handle
            .infra()
            .get_bare_metal_switch_port()
            .bare_metal_id(id)
            .send();
        self.handle
            .json("getBareMetalSwitchPort", call)
            .await?
            .normalize(normalize::switch_port)
    }

    /// Opens the server's switch port (connects it to the network) and answers the
    /// port, now open.
    pub async fn open_switch_port(&self, id: &BareMetalId) -> Result<SwitchPort, Error> {
        let id = checked_id(id)?;
        let call = self
            .handle
            .infra()
            .open_bare_metal_switch_port()
            .bare_metal_id(id)
            .send();
        self.handle
            .json("openBareMetalSwitchPort", call)
            .await?
            .normalize(normalize::switch_port)
    }

    /// Closes the server's switch port (cuts it off the network) and answers the
    /// port, now closed.
    pub async fn close_switch_port(&self, id: &BareMetalId) -> Result<SwitchPort, Error> {
        let id = checked_id(id)?;
        let call = self
            .handle
            .infra()
            .close_bare_metal_switch_port()
            .bare_metal_id(id)
            .send();
        self.handle
            .json("closeBareMetalSwitchPort", call)
            .await?
            .normalize(normalize::switch_port)
    }

    /// Reads whether the server is powered on or off (blade servers are not
    /// supported by the service, which answers them with an error status).
    pub async fn power_status(&self, id: &BareMetalId) -> Result<BareMetalPowerStatus, Error> {
        let id = checked_id(id)?;
        let call = self
            .handle
            .infra()
            .get_bare_metal_power_status()
            .bare_metal_id(id)
            .send();
        self.handle
            .json("getBareMetalPowerStatus", call)
            .await?
            .normalize(normalize::power_status)
    }

    /// Power cycles (reboots) the server. Calls the documented path `/powerCycle`
    /// (not the `/reboot` alias the docs' snippets use); the service accepts it (202)
    /// and works on it asynchronously.
    pub async fn power_cycle(&self, id: &BareMetalId) -> Result<(), Error> {
        let id = checked_id(id)?;
        let call = self
            .handle
            .infra()
            .power_cycle_bare_metal()
            .bare_metal_id(id)
            .send();
        self.handle.empty("powerCycleBareMetal", call).await
    }

    /// Boots the server into rescue mode with a rescue image (see the catalogue of
    /// rescue images). Calls the documented path `/rescueMode` (not the `/rescue`
    /// alias) with the form `osId=<image id>`; the image id must be numeric. Follow
    /// the boot with [`wait_rescue_ready`](Self::wait_rescue_ready), which answers the
    /// rescue password.
    pub async fn rescue(
        &self,
        id: &BareMetalId,
        rescue_image_id: &RescueImageId,
    ) -> Result<(), Error> {
        let id = checked_id(id)?;
        let os_id = validate::integer_id("rescue_image_id", rescue_image_id.as_str())?;
        let call = self
            .handle
            .infra()
            .launch_bare_metal_rescue_mode()
            .bare_metal_id(id)
            .body(hostapi_raw_infra::types::LaunchRescueModeForm { os_id })
            .send();
        self.handle.empty("launchBareMetalRescueMode", call).await
    }

    /// Reads the installation status, which also reports a rescue boot. The status is
    /// answered whatever its code; [`InstallationStatus::is_error`] tells a code other
    /// than 1000 (the waiters turn that into [`Error::Api`]).
    pub async fn installation_status(&self, id: &BareMetalId) -> Result<InstallationStatus, Error> {
        let id = checked_id(id)?;
        let call = self
            .handle
            .infra()
            .get_bare_metal_installation_status()
            .bare_metal_id(id)
            .send();
        self.handle
            .json("getBareMetalInstallationStatus", call)
            .await?
            .normalize(normalize::installation_status)
    }

    /// Reads the initial root password and the rescue mode password (both
    /// [`Secret`](crate::Secret)s). The rescue password is set, or changed, once rescue
    /// mode has launched.
    pub async fn root_password(&self, id: &BareMetalId) -> Result<BareMetalPasswords, Error> {
        let id = checked_id(id)?;
        let call = self
            .handle
            .infra()
            .get_bare_metal_root_password()
            .bare_metal_id(id)
            .send();
        self.handle
            .json("getBareMetalRootPassword", call)
            .await?
            .normalize(normalize::passwords)
    }
}
