//! DHCP leases of a bare metal server (`/v1/bareMetals/{id}/leases`): PXE boot
//! settings handed to the server's network interfaces.

use std::net::IpAddr;

use hostapi_raw_infra::types as raw;
#[cfg(feature = "schema")]
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use futures::FutureExt;

use crate::handle::{Handle, retry_unsafe_option};
use crate::list::List;
use crate::model::values::mac;
use crate::model::{BareMetalId, Extra, MacAddress};
use crate::read::Records;
use crate::read::shapes::{list_metadata, list_under};
use crate::read::{Cursor, FieldError, Fields, Json};
use crate::{Error, validate};

/// A DHCP lease of a bare metal server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct DhcpLease {
    /// The leased IP address.
    pub ip: Option<IpAddr>,
    /// The MAC address it is leased to (what identifies a lease).
    pub mac: MacAddress,
    /// The DHCP scope.
    pub scope: Option<String>,
    /// The DHCP options handed out with the lease.
    pub options: Vec<DhcpOption>,
    /// Fields the model does not name.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

/// A DHCP option of a lease.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct DhcpOption {
    /// The option number (the wire's `optionId`, sent as text), e.g. 67 for the boot
    /// file name.
    pub id: Option<u16>,
    /// The option's name.
    pub name: Option<String>,
    /// The option's value, as sent.
    pub value: Option<String>,
    /// The value's type, as the service words it.
    pub value_type: Option<String>,
    /// The DHCP policy it belongs to; `None` when null or empty.
    pub policy_name: Option<String>,
    /// The DHCP user class.
    pub user_class: Option<String>,
    /// The DHCP vendor class.
    pub vendor_class: Option<String>,
    /// Fields the model does not name.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

/// A DHCP lease to create: all three settings are required.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct NewDhcpLease {
    /// The PXE boot file (a URL), sent as `bootFileName`. Must not be blank.
    pub boot_file_name: String,
    /// The TFTP server, sent as `bootServerHostName`.
    pub boot_server: IpAddr,
    /// The DNS server, sent as `domainNameServerIp`.
    pub dns_server: IpAddr,
}

impl NewDhcpLease {
    /// A lease booting `boot_file_name` from `boot_server`, with `dns_server`.
    pub fn new(boot_file_name: impl Into<String>, boot_server: IpAddr, dns_server: IpAddr) -> Self {
        Self {
            boot_file_name: boot_file_name.into(),
            boot_server,
            dns_server,
        }
    }
}

/// The DHCP leases of one bare metal server; from
/// [`BareMetals::leases`](super::BareMetals::leases).
#[derive(Debug, Clone)]
pub struct BareMetalLeases {
    handle: Handle,
    id: BareMetalId,
}

impl BareMetalLeases {
    retry_unsafe_option!();

    pub(crate) fn new(handle: Handle, id: BareMetalId) -> Self {
        Self { handle, id }
    }

    /// Lists the server's leases. The answer is `{_metadata, leases}`, which the
    /// documents' sample wraps in an array; both are read.
    ///
    /// The documents give the call no paging parameters, so the first request sends
    /// none; when the `_metadata.totalCount` says there are more leases than the
    /// answer carries, the rest are fetched with the `limit`/`offset` the `_metadata`
    /// mirrors, by the crate's pager (see [`List::page_size`]).
    pub fn list(&self) -> List<DhcpLease> {
        let handle = self.handle.clone();
        let id = self.id.clone();
        List::paged(
            &self.handle,
            move |offset, limit| {
                let handle = handle.clone();
                let id = id.clone();
                async move {
                    let infra = handle.infra();
                    let answer = handle
                        .call(|| {
                            let request = infra.list_bare_metal_leases().bare_metal_id(id.as_str());
                            if offset == 0 {
                                request
                            } else {
                                request.limit(limit).offset(offset)
                            }
                        })
                        .await?;
                    answer.page(leases, lease)
                }
                .boxed()
            },
            |lease| lease.mac.to_string(),
        )
    }

    /// Reads the lease of one of the server's MAC addresses (the documents' sample
    /// wraps it in an array; both are read).
    pub async fn get(&self, mac: &MacAddress) -> Result<DhcpLease, Error> {
        let infra = self.handle.infra();
        let answer = self
            .handle
            .call(|| {
                infra
                    .get_bare_metal_lease()
                    .bare_metal_id(self.id.as_str())
                    .macaddress(mac.as_str())
            })
            .await?;
        answer.one(single_lease)
    }

    /// Sets a DHCP lease for PXE booting (the service answers 204; it applies to the
    /// server's first MAC address). The boot file name must not be blank.
    pub async fn create(&self, lease: &NewDhcpLease) -> Result<(), Error> {
        validate::not_blank("boot_file_name", &lease.boot_file_name)?;
        if let Some(bad) = lease.boot_file_name.chars().find(|c| c.is_control()) {
            return Err(Error::invalid(
                "boot_file_name",
                format!("contains the control character {bad:?}"),
            ));
        }
        let infra = self.handle.infra();
        self.handle
            .call(|| {
                infra
                    .create_bare_metal_lease()
                    .bare_metal_id(self.id.as_str())
                    .body(raw::CreateLeaseForm {
                        boot_file_name: lease.boot_file_name.trim().to_owned(),
                        boot_server_host_name: lease.boot_server.to_string(),
                        domain_name_server_ip: lease.dns_server.to_string(),
                    })
            })
            .await?;
        Ok(())
    }

    /// Deletes every lease of the server (the service answers 204).
    pub async fn delete_all(&self) -> Result<(), Error> {
        let infra = self.handle.infra();
        self.handle
            .call(|| {
                infra
                    .delete_bare_metal_leases()
                    .bare_metal_id(self.id.as_str())
            })
            .await?;
        Ok(())
    }

    /// Deletes the lease of one MAC address (the service answers 204).
    pub async fn delete(&self, mac: &MacAddress) -> Result<(), Error> {
        let infra = self.handle.infra();
        self.handle
            .call(|| {
                infra
                    .delete_bare_metal_lease()
                    .bare_metal_id(self.id.as_str())
                    .macaddress(mac.as_str())
            })
            .await?;
        Ok(())
    }
}

/// `[{_metadata, leases}]` or `{_metadata, leases}`: where the leases are (joined,
/// should the array hold several lists), and the `totalCount` (into `total`; the sum,
/// should several lists carry one) the pager follows.
pub(crate) fn leases<'a>(
    cursor: &mut Cursor,
    body: Json<'a>,
    total: &mut Option<u64>,
) -> Result<Records<'a>, FieldError> {
    let (lists, prefix) = match body {
        Json::Array(lists) => (lists, "[0]."),
        object => (vec![object], ""),
    };
    let mut all = Vec::new();
    let mut extra = Extra::new();
    for list in lists {
        let (found, rest) = cursor.object(list, |f| {
            let (count, metadata) = list_metadata(f);
            if let Some(count) = count {
                *total = Some(total.unwrap_or(0).saturating_add(count));
            }
            let items = list_under(f, "leases")?;
            let mut rest = f.unread();
            rest.extend(metadata);
            Ok((items, rest))
        })?;
        all.extend(found);
        extra.extend(rest);
    }
    Ok(Records {
        path: format!("{prefix}leases"),
        items: all,
        extra,
    })
}

/// One lease, in the array the documents' sample wraps it in, or bare.
pub(crate) fn single_lease(cursor: &mut Cursor, body: Json<'_>) -> Result<DhcpLease, FieldError> {
    match body {
        Json::Array(mut items) if items.len() == 1 => {
            let item = items.remove(0);
            cursor.within("[0]", |cursor| lease(cursor, item))
        }
        Json::Array(items) => {
            Err(cursor.error("", format!("expected one lease, found {}", items.len())))
        }
        other => lease(cursor, other),
    }
}

/// A lease: its MAC identifies it.
pub(crate) fn lease(cursor: &mut Cursor, json: Json<'_>) -> Result<DhcpLease, FieldError> {
    cursor.object(json, |f| {
        let address = match f.take("mac") {
            Some(value) => match crate::read::fields::text_of(&value) {
                Ok(Some(text)) => mac(&text).map_err(|m| f.cursor().error("mac", m))?,
                _ => {
                    return Err(f
                        .cursor()
                        .error("mac", "the lease's MAC address is absent or unreadable"));
                }
            },
            None => return Err(f.cursor().error("mac", "the lease's MAC address is absent")),
        };
        Ok(DhcpLease {
            ip: f.parsed("ip", |t| {
                t.parse().map_err(|_| {
                    format!(
                        "expected an IP address, found {}",
                        crate::read::text::found(t)
                    )
                })
            }),
            mac: address,
            scope: f.text("scope"),
            options: f.objects("options", option),
            extra: f.unread(),
        })
    })
}

fn option(f: &mut Fields<'_, '_>) -> Result<DhcpOption, FieldError> {
    Ok(DhcpOption {
        id: f.integer("optionId"),
        name: f.text("name"),
        value: f.text("value"),
        value_type: f.text("type"),
        policy_name: f.text("policyName"),
        user_class: f.text("userClass"),
        vendor_class: f.text("vendorClass"),
        extra: f.unread(),
    })
}
