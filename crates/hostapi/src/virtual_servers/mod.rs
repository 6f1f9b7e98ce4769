//! v1 virtual servers: list, read, power on/off, reboot, reinstall.

mod model;
pub(crate) mod normalize;

pub use model::*;

use crate::handle::{Handle, retry_unsafe_option};
use crate::model::Job;
use crate::{Client, Error, validate};

impl Client {
    /// The virtual servers of the v1 interface.
    pub fn virtual_servers(&self) -> VirtualServers<'_> {
        VirtualServers {
            handle: Handle::new(self),
        }
    }
}

/// The virtual servers of the v1 interface (`/v1/virtualServers`). The cloud v2
/// interface has its own view of virtual servers: [`Client::cloud_servers`].
#[derive(Debug, Clone, Copy)]
pub struct VirtualServers<'a> {
    pub(crate) handle: Handle<'a>,
}

impl VirtualServers<'_> {
    retry_unsafe_option!();

    /// Lists every virtual server.
    pub async fn list(&self) -> Result<Vec<VirtualServer>, Error> {
        let call = self.handle.infra().list_virtual_servers().send();
        self.handle
            .records("listVirtualServers", call, &normalize::LIST)
            .await
    }

    /// Reads one virtual server.
    pub async fn get(&self, id: &VirtualServerId) -> Result<VirtualServer, Error> {
        const OPERATION: &str = "getVirtualServer";
        let id = validate::integer_id("id", id.as_str())?;
        let call = self.handle.infra().get_virtual_server().id(id).send();
        let body = self.handle.body(OPERATION, call).await?;
        body.decoded(normalize::single(OPERATION, &body.bytes))
    }

    /// Powers a server on. The service works asynchronously and answers with a job.
    pub async fn power_on(&self, id: &VirtualServerId) -> Result<Job, Error> {
        let id = validate::integer_id("id", id.as_str())?;
        let call = self.handle.infra().power_on_virtual_server().id(id).send();
        self.handle
            .json("powerOnVirtualServer", call)
            .await?
            .normalize(normalize::job)
    }

    /// Powers a server off (asynchronously; answers with a job).
    pub async fn power_off(&self, id: &VirtualServerId) -> Result<Job, Error> {
        let id = validate::integer_id("id", id.as_str())?;
        let call = self.handle.infra().power_off_virtual_server().id(id).send();
        self.handle
            .json("powerOffVirtualServer", call)
            .await?
            .normalize(normalize::job)
    }

    /// Reboots a server (asynchronously; answers with a job).
    pub async fn reboot(&self, id: &VirtualServerId) -> Result<Job, Error> {
        let id = validate::integer_id("id", id.as_str())?;
        let call = self.handle.infra().reboot_virtual_server().id(id).send();
        self.handle
            .json("rebootVirtualServer", call)
            .await?
            .normalize(normalize::job)
    }

    /// Reinstalls a server with the operating system it has now (asynchronously;
    /// answers with a job). Everything on its disks is lost.
    pub async fn reinstall(&self, id: &VirtualServerId) -> Result<Job, Error> {
        let id = validate::integer_id("id", id.as_str())?;
        let call = self.handle.infra().reinstall_virtual_server().id(id).send();
        self.handle
            .json("reinstallVirtualServer", call)
            .await?
            .normalize(normalize::job)
    }
}
