//! Read-only catalogues: rescue images, operating systems, control panels, partition
//! schemas, services.

mod model;
pub(crate) mod normalize;

pub use model::*;

use crate::handle::{Handle, retry_unsafe_option};
use crate::model::{BareMetalId, ControlPanelId, OperatingSystemId};
use crate::{Client, Error, validate};

impl Client {
    /// The read-only catalogues: rescue images, operating systems, control panels,
    /// partition schemas and services.
    pub fn catalog(&self) -> Catalog<'_> {
        Catalog {
            handle: Handle::new(self),
        }
    }
}

/// The read-only catalogues of the v1 interface.
#[derive(Debug, Clone, Copy)]
pub struct Catalog<'a> {
    handle: Handle<'a>,
}

impl Catalog<'_> {
    retry_unsafe_option!();

    /// Lists the rescue images (`/v1/rescueImages`).
    pub async fn list_rescue_images(&self) -> Result<Vec<RescueImage>, Error> {
        let call = self.handle.infra().list_rescue_images().send();
        self.handle
            .json("listRescueImages", call)
            .await?
            .normalize(normalize::rescue_images)
    }

    /// Lists the operating systems (`/v1/operatingSystems`).
    pub async fn list_operating_systems(&self) -> Result<Vec<OperatingSystem>, Error> {
        let call = self.handle.infra().list_operating_systems().send();
        self.handle
            .json("listOperatingSystems", call)
            .await?
            .normalize(normalize::operating_systems)
    }

    /// Reads one operating system. The id must be numeric (the API's ids are
    /// integers).
    pub async fn get_operating_system(
        &self,
        os: &OperatingSystemId,
    ) -> Result<OperatingSystem, Error> {
        let os = validate::integer_id("os", os.as_str())?;
        let call = self
            .handle
            .infra()
            .get_operating_system()
            .operating_system_id(os)
            .send();
        self.handle
            .json("getOperatingSystem", call)
            .await?
            .normalize(normalize::operating_system_answer)
    }

    /// Lists the control panels available for an operating system. The id must be
    /// numeric.
    pub async fn list_control_panels(
        &self,
        os: &OperatingSystemId,
    ) -> Result<Vec<ControlPanel>, Error> {
        let os = validate::integer_id("os", os.as_str())?;
        let call = self
            .handle
            .infra()
            .list_control_panels()
            .operating_system_id(os)
            .send();
        self.handle
            .json("listControlPanels", call)
            .await?
            .normalize(normalize::control_panels)
    }

    /// Reads one control panel of an operating system. Both ids must be numeric.
    pub async fn get_control_panel(
        &self,
        os: &OperatingSystemId,
        panel: &ControlPanelId,
    ) -> Result<ControlPanel, Error> {
        let os = validate::integer_id("os", os.as_str())?;
        let panel = validate::integer_id("panel", panel.as_str())?;
        let call = self
            .handle
            .infra()
            .get_control_panel()
            .operating_system_id(os)
            .control_panel_id(panel)
            .send();
        self.handle
            .json("getControlPanel", call)
            .await?
            .normalize(normalize::control_panel_answer)
    }

    /// The partitioning the service suggests for installing `os` on the bare metal
    /// server `server` (sent as the query parameter `serverPackId`), with the
    /// server's disks and the filesystem types to choose from. Partition sizes become
    /// [`PartitionSize`]s (megabytes, or the rest of the disk for the wire's `*`);
    /// swap's empty mountpoint becomes `None`. The operating system id must be
    /// numeric.
    pub async fn get_partition_schema(
        &self,
        os: &OperatingSystemId,
        server: &BareMetalId,
    ) -> Result<PartitionSchema, Error> {
        let os = validate::integer_id("os", os.as_str())?;
        validate::path_segment("server", server.as_str())?;
        let call = self
            .handle
            .infra()
            .get_partition_schema()
            .operating_system_id(os)
            .server_pack_id(server.as_str())
            .send();
        self.handle
            .json("getPartitionSchema", call)
            .await?
            .normalize(normalize::partition_schema)
    }

    /// Lists the account's services (`/v1/services`). The API does not document the
    /// answer's fields, so it is returned uninterpreted, as a [`ServiceList`] around
    /// the JSON the service sent.
    pub async fn list_services(&self) -> Result<ServiceList, Error> {
        let call = self.handle.infra().list_services().send();
        self.handle
            .json("listServices", call)
            .await?
            .normalize(|raw| Ok(ServiceList::new(raw.0)))
    }
}
