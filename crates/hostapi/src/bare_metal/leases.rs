//! DHCP leases of a bare metal server (`/v1/bareMetals/{id}/leases`): PXE boot
//! settings handed to the server's network interfaces.

use std::net::IpAddr;

use hostapi_raw_infra::types as raw;
use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::install::checked_id;
use super::normalize::mac_address;
use crate::handle::Handle;
use crate::model::{BareMetalId, Extra};
use crate::transport::call::{decode_error, decode_json};
use crate::wire::{self, At, FieldError};
use crate::{Error, validate};

/// A DHCP lease of a bare metal server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct DhcpLease {
    /// The leased IP address.
    pub ip: Option<IpAddr>,
    /// The MAC address it is leased to, lower-case and colon-separated.
    pub mac: Option<String>,
    /// The DHCP scope.
    pub scope: Option<String>,
    /// The DHCP options handed out with the lease.
    pub options: Vec<DhcpOption>,
    /// Fields the model does not name.
    #[serde(skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

/// A DHCP option of a lease.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
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
    #[serde(skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

/// The DHCP leases of a server, with the list metadata the service sends.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct DhcpLeaseList {
    /// The leases.
    pub leases: Vec<DhcpLease>,
    /// How many leases there are in all (`_metadata.totalCount`).
    pub total_count: Option<u64>,
    /// The page size the service applied (`_metadata.limit`); paging parameters are
    /// not documented, so only the first page can be read.
    pub limit: Option<u64>,
    /// The offset of the first lease (`_metadata.offset`).
    pub offset: Option<u64>,
    /// Fields the model does not name.
    #[serde(skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

/// A DHCP lease to create: all three settings are required.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewDhcpLease {
    /// The PXE boot file (a URL), sent as `bootFileName`. Must not be blank.
    pub boot_file_name: String,
    /// The IP address of the TFTP server, sent as `bootServerHostName`.
    pub boot_server: String,
    /// The IP address of the DNS server, sent as `domainNameServerIp`.
    pub dns_server: String,
}

/// The DHCP leases of one bare metal server; from
/// [`BareMetals::leases`](super::BareMetals::leases).
#[derive(Debug, Clone)]
pub struct BareMetalLeases<'a> {
    handle: Handle<'a>,
    id: BareMetalId,
}

impl<'a> BareMetalLeases<'a> {
    pub(crate) fn new(handle: Handle<'a>, id: BareMetalId) -> Self {
        Self { handle, id }
    }

    /// Lists the server's leases.
    ///
    /// The docs describe the answer as an object with `_metadata` and `leases`, and
    /// their sample wraps it in an outer array; the spec describes the wrapped form.
    /// Both are read: the wrapped one through the generated client, the bare object
    /// from the same answer when the wrapped reading fails on the top-level shape.
    /// Several wrapped objects would have their leases joined.
    pub async fn list(&self) -> Result<DhcpLeaseList, Error> {
        let id = checked_id(&self.id)?;
        let call = self
            .handle
            .infra()
            .list_bare_metal_leases()
            .bare_metal_id(id)
            .send();
        let answer = self.handle.json("listBareMetalLeases", call).await;
        match answer {
            Ok(answer) => answer.normalize(|raw| lease_lists(raw.0)),
            Err(error) => or_unwrapped::<raw::LeaseList, _>(error, lease_list),
        }
    }

    /// Reads the lease of one MAC address (any letter case, `:` or `-` separated; sent
    /// lower-case and colon-separated).
    ///
    /// The docs' sample wraps the lease in a one-element array (the spec's form); a
    /// bare lease object is read too. An empty array, or more than one lease, is a
    /// decode error.
    pub async fn get(&self, mac: &str) -> Result<DhcpLease, Error> {
        let id = checked_id(&self.id)?;
        let mac = validate::mac_address("mac", mac)?;
        let call = self
            .handle
            .infra()
            .get_bare_metal_lease()
            .bare_metal_id(id)
            .macaddress(mac)
            .send();
        let answer = self.handle.json("getBareMetalLease", call).await;
        match answer {
            Ok(answer) => answer.normalize(|raw| {
                let count = raw.0.len();
                match <[raw::Lease; 1]>::try_from(raw.0) {
                    Ok([one]) => lease(one).at_index(0),
                    Err(_) => Err(FieldError::new(format!(
                        "expected exactly one lease, found {count}"
                    ))),
                }
            }),
            Err(error) => or_unwrapped::<raw::Lease, _>(error, lease),
        }
    }

    /// Creates a lease (PXE boot) for the server: form `bootFileName`,
    /// `bootServerHostName`, `domainNameServerIp`. Checked before sending: the boot
    /// file is not blank, the two servers are IP addresses. The service answers 204.
    pub async fn create(&self, lease: &NewDhcpLease) -> Result<(), Error> {
        let id = checked_id(&self.id)?;
        validate::not_blank("boot_file_name", &lease.boot_file_name)?;
        if let Some(bad) = lease.boot_file_name.chars().find(|c| c.is_control()) {
            return Err(Error::invalid(
                "boot_file_name",
                format!("contains the control character {bad:?}"),
            ));
        }
        let boot_server = validate::ip_address("boot_server", lease.boot_server.trim())?;
        let dns_server = validate::ip_address("dns_server", lease.dns_server.trim())?;
        let call = self
            .handle
            .infra()
            .create_bare_metal_lease()
            .bare_metal_id(id)
            .body(raw::CreateLeaseForm {
                boot_file_name: lease.boot_file_name.trim().to_owned(),
                boot_server_host_name: boot_server.to_string(),
                domain_name_server_ip: dns_server.to_string(),
            })
            .send();
        self.handle.empty("createBareMetalLease", call).await
    }

    /// Removes every lease of the server (204).
    pub async fn delete_all(&self) -> Result<(), Error> {
        let id = checked_id(&self.id)?;
        let call = self
            .handle
            .infra()
            .delete_bare_metal_leases()
            .bare_metal_id(id)
            .send();
        self.handle.empty("deleteBareMetalLeases", call).await
    }

    /// Removes the lease of one MAC address (checked; sent lower-case and
    /// colon-separated) (204).
    pub async fn delete(&self, mac: &str) -> Result<(), Error> {
        let id = checked_id(&self.id)?;
        let mac = validate::mac_address("mac", mac)?;
        let call = self
            .handle
            .infra()
            .delete_bare_metal_lease()
            .bare_metal_id(id)
            .macaddress(mac)
            .send();
        self.handle.empty("deleteBareMetalLease", call).await
    }
}

/// When the documented wrapped shape failed at the top level, reads the body as the
/// bare shape `R`; any other error, or a body that is not `R` either, stays as it was.
pub(crate) fn or_unwrapped<R: DeserializeOwned, T>(
    error: Error,
    normalize: impl FnOnce(R) -> Result<T, FieldError>,
) -> Result<T, Error> {
    match error {
        Error::Decode {
            operation,
            ref path,
            ref body,
            ..
        } if path.is_empty() && body.trim_start().starts_with('{') => {
            let raw: R = decode_json(operation, body.as_bytes())?;
            normalize(raw).map_err(|e| decode_error(operation, &e, body.as_bytes()))
        }
        other => Err(other),
    }
}

/// `[{_metadata, leases}]` → the leases (joined, should there be several objects).
pub(crate) fn lease_lists(raw: Vec<raw::LeaseList>) -> Result<DhcpLeaseList, FieldError> {
    let mut lists = wire::each(raw, lease_list)?.into_iter();
    let Some(mut first) = lists.next() else {
        return Ok(DhcpLeaseList {
            leases: Vec::new(),
            total_count: None,
            limit: None,
            offset: None,
            extra: Extra::new(),
        });
    };
    for list in lists {
        first.leases.extend(list.leases);
    }
    Ok(first)
}

/// `{_metadata, leases}` → the leases.
pub(crate) fn lease_list(raw: raw::LeaseList) -> Result<DhcpLeaseList, FieldError> {
    let mut extra = wire::extra(raw.extra);
    let (total_count, limit, offset) = match raw.metadata {
        Some(metadata) => {
            let count = |value: Option<i64>, key: &'static str| {
                value.map(wire::count).transpose().at(key).at("_metadata")
            };
            extra.extend(
                wire::extra(metadata.extra)
                    .into_iter()
                    .map(|(k, v)| (format!("_metadata.{k}"), v)),
            );
            (
                count(metadata.total_count, "totalCount")?,
                count(metadata.limit, "limit")?,
                count(metadata.offset, "offset")?,
            )
        }
        None => (None, None, None),
    };
    Ok(DhcpLeaseList {
        leases: wire::each(raw.leases, lease).at("leases")?,
        total_count,
        limit,
        offset,
        extra,
    })
}

pub(crate) fn lease(raw: raw::Lease) -> Result<DhcpLease, FieldError> {
    Ok(DhcpLease {
        ip: wire::optional(raw.ip, wire::ip_address).at("ip")?,
        mac: wire::optional(raw.mac, mac_address).at("mac")?,
        scope: wire::non_empty(raw.scope),
        options: wire::each(raw.options, option).at("options")?,
        extra: wire::extra(raw.extra),
    })
}

fn option(raw: raw::LeaseOption) -> Result<DhcpOption, FieldError> {
    let id = wire::optional(raw.option_id, |text| {
        text.trim()
            .parse::<u16>()
            .map_err(|_| FieldError::new(format!("expected a DHCP option number, found `{text}`")))
    })
    .at("optionId")?;
    Ok(DhcpOption {
        id,
        name: wire::non_empty(raw.name),
        value: raw.value,
        value_type: wire::non_empty(raw.type_),
        policy_name: wire::non_empty(raw.policy_name),
        user_class: wire::non_empty(raw.user_class),
        vendor_class: wire::non_empty(raw.vendor_class),
        extra: wire::extra(raw.extra),
    })
}
