//! Read-only catalogues: operating systems (with their control panels and partition
//! schemas), rescue images, services.
//!
//! The handle is [`Catalog`], from [`Client::catalog`]: [`Catalog::operating_systems`],
//! [`Catalog::rescue_images`] and [`Catalog::services`].

mod model;
pub(crate) mod read;

pub use model::*;

use crate::handle::{Handle, retry_unsafe_option};
use crate::list::List;
use crate::model::{BareMetalId, ControlPanelId, OperatingSystemId};
use crate::{Client, Error, validate};

impl Client {
    /// The read-only catalogues of the v1 interface.
    pub fn catalog(&self) -> Catalog {
        Catalog {
            handle: Handle::new(self),
        }
    }
}

/// The read-only catalogues of the v1 interface: [`operating_systems`](Self::operating_systems),
/// [`rescue_images`](Self::rescue_images), [`services`](Self::services).
///
/// ```no_run
/// # async fn run(client: hostapi::Client) -> Result<(), hostapi::Error> {
/// for os in client.catalog().operating_systems().list().await? {
///     println!("{} {:?}", os.id, os.name);
/// }
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct Catalog {
    handle: Handle,
}

impl Catalog {
    retry_unsafe_option!();

    /// The operating systems (`/v1/operatingSystems`).
    pub fn operating_systems(&self) -> OperatingSystems {
        OperatingSystems {
            handle: self.handle.clone(),
        }
    }

    /// The rescue images (`/v1/rescueImages`).
    pub fn rescue_images(&self) -> RescueImages {
        RescueImages {
            handle: self.handle.clone(),
        }
    }

    /// The account's services (`/v1/services`).
    pub fn services(&self) -> Services {
        Services {
            handle: self.handle.clone(),
        }
    }
}

/// The operating systems that can be installed (`/v1/operatingSystems`).
#[derive(Debug, Clone)]
pub struct OperatingSystems {
    handle: Handle,
}

impl OperatingSystems {
    retry_unsafe_option!();

    /// Lists the operating systems.
    pub fn list(&self) -> List<OperatingSystem> {
        let handle = self.handle.clone();
        List::once(async move {
            let infra = handle.infra();
            let answer = handle.call(|| infra.list_operating_systems()).await?;
            answer.list_at(read::OPERATING_SYSTEMS, read::operating_system)
        })
    }

    /// Reads one operating system. The id must be numeric (the API's ids are
    /// integers).
    pub async fn get(&self, os: &OperatingSystemId) -> Result<OperatingSystem, Error> {
        let numeric = validate::integer_id("os", os.as_str())?;
        let infra = self.handle.infra();
        let answer = self
            .handle
            .call(|| infra.get_operating_system().operating_system_id(numeric))
            .await?;
        answer.one(read::operating_system)
    }

    /// The control panels available for an operating system.
    pub fn control_panels(&self, os: &OperatingSystemId) -> ControlPanels {
        ControlPanels {
            handle: self.handle.clone(),
            os: os.clone(),
        }
    }

    /// The partitioning the service suggests for installing `os` on the bare metal
    /// server `server` (sent as the query parameter `serverPackId`), with the server's
    /// disks and the filesystem types to choose from. Partition sizes become
    /// [`PartitionSize`]s (megabytes, or the rest of the disk for the wire's `*`);
    /// swap's empty mountpoint becomes `None`. The operating system id must be numeric.
    pub async fn partition_schema(
        &self,
        os: &OperatingSystemId,
        server: &BareMetalId,
    ) -> Result<PartitionSchema, Error> {
        let numeric = validate::integer_id("os", os.as_str())?;
        let infra = self.handle.infra();
        let answer = self
            .handle
            .call(|| {
                infra
                    .get_partition_schema()
                    .operating_system_id(numeric)
                    .server_pack_id(server.as_str())
            })
            .await?;
        answer.one(read::partition_schema)
    }
}

/// The control panels of one operating system, from
/// [`OperatingSystems::control_panels`].
#[derive(Debug, Clone)]
pub struct ControlPanels {
    handle: Handle,
    os: OperatingSystemId,
}

impl ControlPanels {
    retry_unsafe_option!();

    /// Lists the control panels. The operating system id must be numeric.
    pub fn list(&self) -> List<ControlPanel> {
        let handle = self.handle.clone();
        let os = self.os.clone();
        List::once(async move {
            let numeric = validate::integer_id("os", os.as_str())?;
            let infra = handle.infra();
            let answer = handle
                .call(|| infra.list_control_panels().operating_system_id(numeric))
                .await?;
            answer.list_at(read::CONTROL_PANELS, read::control_panel)
        })
    }

    /// Reads one control panel. Both ids must be numeric.
    pub async fn get(&self, panel: &ControlPanelId) -> Result<ControlPanel, Error> {
        let os = validate::integer_id("os", self.os.as_str())?;
        let panel = validate::integer_id("panel", panel.as_str())?;
        let infra = self.handle.infra();
        let answer = self
            .handle
            .call(|| {
                infra
                    .get_control_panel()
                    .operating_system_id(os)
                    .control_panel_id(panel)
            })
            .await?;
        answer.one(read::control_panel)
    }
}

/// The rescue images (`/v1/rescueImages`), to boot a bare metal server into rescue
/// mode.
#[derive(Debug, Clone)]
pub struct RescueImages {
    handle: Handle,
}

impl RescueImages {
    retry_unsafe_option!();

    /// Lists the rescue images.
    pub fn list(&self) -> List<RescueImage> {
        let handle = self.handle.clone();
        List::once(async move {
            let infra = handle.infra();
            let answer = handle.call(|| infra.list_rescue_images()).await?;
            answer.list_at(read::RESCUE_IMAGES, read::rescue_image)
        })
    }
}

/// The account's services (`/v1/services`).
#[derive(Debug, Clone)]
pub struct Services {
    handle: Handle,
}

impl Services {
    retry_unsafe_option!();

    /// Reads the services. The documents do not describe the answer, so it is returned
    /// uninterpreted, as a [`ServiceList`] around the JSON the service sent.
    pub async fn get(&self) -> Result<ServiceList, Error> {
        let infra = self.handle.infra();
        let answer = self.handle.call(|| infra.list_services()).await?;
        answer.one(|_, json| Ok(ServiceList::new(json.into_value())))
    }
}
