//! IP addresses: [`IpAddress`] as every view shows it (of a bare metal server, a rack, a
//! virtual server), and [`Ips`], from [`Client::ips`], to change one (`PUT
//! /v1/ips/{ip}`, with an [`IpUpdate`]).

pub(crate) mod read;

use std::net::IpAddr;

use hostapi_raw_infra::types as raw;

use crate::handle::{Handle, retry_unsafe_option};
pub use crate::model::{AssignedServer, IpAddress, IpBilling, IpUpdate, IpVisibility, ServerKind};
use crate::outcome::Confirmation;
use crate::{Client, Error, validate};

impl Client {
    /// IP addresses of any server (`/v1/ips`). The IPs of one bare metal server or
    /// private rack are also reachable from [`Client::bare_metals`] and
    /// [`Client::private_racks`].
    pub fn ips(&self) -> Ips {
        Ips {
            handle: Handle::new(self),
        }
    }
}

/// IP addresses (`/v1/ips`).
#[derive(Debug, Clone)]
pub struct Ips {
    handle: Handle,
}

impl Ips {
    retry_unsafe_option!();

    /// Changes one setting of an IP address, its reverse DNS name or whether it is
    /// null-routed, and answers the IP as it now is.
    pub async fn update(&self, ip: IpAddr, change: &IpUpdate) -> Result<IpAddress, Error> {
        check_update(change)?;
        let form = update_form(change)?;
        let infra = self.handle.infra();
        let answer = self
            .handle
            .call("updateIp", || {
                infra
                    .update_ip()
                    .ip_address(ip.to_string())
                    .body(form.clone())
                    .request()
            })
            .await?;
        answer.one(read::wrapped_ip)
    }
}

/// Checks an IP update before it is sent: a reverse DNS name must be a host name (or
/// empty, to clear it).
pub(crate) fn check_update(change: &IpUpdate) -> Result<(), Error> {
    match change {
        IpUpdate::ReverseDns(name) if !name.is_empty() => {
            validate::domain_name("reverse_dns", name)
        }
        _ => Ok(()),
    }
}

/// The form of an IP update: exactly one field, booleans as 0/1 (the closed set the
/// spec gives `nullRouted`).
pub(crate) fn update_form(update: &IpUpdate) -> Result<raw::UpdateIpForm, Error> {
    Ok(match update {
        IpUpdate::ReverseDns(name) => raw::UpdateIpForm {
            reverse_lookup: Some(name.clone()),
            null_routed: None,
        },
        IpUpdate::NullRouted(on) => raw::UpdateIpForm {
            reverse_lookup: None,
            null_routed: Some(
                raw::UpdateIpFormNullRouted::try_from(i64::from(*on))
                    .map_err(|e| Error::invalid("null_routed", e))?,
            ),
        },
    })
}

/// Whether `ip` shows `change` applied (for the `confirm_update` of each IP handle).
pub(crate) fn confirmation(ip: IpAddress, change: &IpUpdate) -> Confirmation<IpAddress> {
    let applied = match change {
        IpUpdate::ReverseDns(name) => ip.reverse_dns.as_deref().unwrap_or("") == name,
        IpUpdate::NullRouted(on) => ip.null_routed == Some(*on),
    };
    if applied {
        Confirmation::Applied(ip)
    } else {
        Confirmation::NotApplied
    }
}
