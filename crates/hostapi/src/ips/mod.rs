//! IP addresses: the model shared by every view of an IP, and `PUT /v1/ips/{ip}`.

mod model;
pub(crate) mod normalize;

pub use model::*;

use crate::handle::{Handle, retry_unsafe_option};
use crate::{Client, Error, validate};

impl Client {
    /// IP addresses of any server (`/v1/ips`). The IPs of one bare metal server or
    /// private rack are also reachable from [`Client::bare_metals`] and
    /// [`Client::private_racks`].
    pub fn ips(&self) -> Ips<'_> {
        Ips {
            handle: Handle::new(self),
        }
    }
}

/// IP addresses (`/v1/ips`).
#[derive(Debug, Clone, Copy)]
pub struct Ips<'a> {
    handle: Handle<'a>,
}

impl Ips<'_> {
    retry_unsafe_option!();

    /// Changes one setting of an IP address: its reverse DNS name, or whether it is
    /// null-routed. Answers the IP as it now is.
    pub async fn update(&self, ip: &str, change: &IpUpdate) -> Result<IpAddress, Error> {
        let ip = validate::ip_address("ip", ip)?;
        validate_update(change)?;
        let call = self
            .handle
            .infra()
            .update_ip()
            .ip_address(ip.to_string())
            .body(normalize::form(change))
            .send();
        self.handle
            .json("updateIp", call)
            .await?
            .normalize(|raw| normalize::ip(raw.ip).map_err(|e| e.at("ip")))
    }
}

/// Checks an IP update before it is sent: a reverse DNS name must be a host name (or
/// empty, to clear it).
pub(crate) fn validate_update(change: &IpUpdate) -> Result<(), Error> {
    match change {
        IpUpdate::ReverseLookup(name) if !name.is_empty() => {
            validate::domain_name("reverse_lookup", name)
        }
        _ => Ok(()),
    }
}
