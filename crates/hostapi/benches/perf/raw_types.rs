//! The generated raw types of `GET /v1/virtualServers`, as `hostapi-raw-infra` made
//! them before the raw crates stopped decoding answers (they now build requests only,
//! and hand every answer to the facade as bytes). Kept here, deserialisation only, as
//! a reference for the decode and one-call rows: what a plain serde decode into typed
//! structs costs on the same body. It is a frozen copy of types the product no longer
//! generates, so it informs; it does not justify code (a speed trick in the facade
//! stays only when taking it out costs its own row 3 % or more). Copied from the generated code (with the hand-written
//! `VirtualServerIpAddresses` shape the spec mapped onto); the `IndexMap` of the keyed
//! IP shape is a `HashMap` here (the benches have no `indexmap`), the serialisation
//! attributes are left out. Fields are read only by the decode. Numbers the spec now
//! allows as text (`dataTrafficLimit`, `type.id`) are the untagged enum typify makes of
//! such a `oneOf`.
#![allow(dead_code)]

use std::fmt;

use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

///`{virtualServers:[…]}`: items are not wrapped. Also the answer of the single-server read, where the array has one element.
#[derive(::serde::Deserialize, Debug)]
pub(crate) struct VirtualServerList {
    ///The virtual servers.
    #[serde(rename = "virtualServers")]
    pub(crate) virtual_servers: ::std::vec::Vec<VirtualServer>,
    #[serde(flatten)]
    pub(crate) extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}

///IP addresses as an array.
#[derive(::serde::Deserialize, Debug)]
#[serde(transparent)]
pub(crate) struct IpAddressList(pub(crate) ::std::vec::Vec<VirtualServerIpAddress>);

///IP addresses as an object keyed by IP address.
#[derive(::serde::Deserialize, Debug)]
#[serde(transparent)]
pub(crate) struct IpAddressMap(
    pub(crate) ::std::collections::HashMap<::std::string::String, VirtualServerIpAddressState>,
);

///A virtual server in its v1 shape.
#[derive(::serde::Deserialize, Debug)]
pub(crate) struct VirtualServer {
    #[serde(rename = "administrativeInfo")]
    pub(crate) administrative_info: ::std::option::Option<VirtualServerAdministrativeInfo>,
    ///Name of the attached ISO, or null.
    #[serde(rename = "attachedISO")]
    pub(crate) attached_iso: ::std::option::Option<::std::string::String>,
    ///Data traffic limit in GB.
    #[serde(rename = "dataTrafficLimit")]
    pub(crate) data_traffic_limit: ::std::option::Option<IntegerOrString>,
    ///Human-readable data traffic pack name.
    #[serde(rename = "dataTrafficPack")]
    pub(crate) data_traffic_pack: ::std::option::Option<::std::string::String>,
    ///Identifier.
    pub(crate) id: i64,
    #[serde(rename = "ipAddresses")]
    pub(crate) ip_addresses: ::std::option::Option<VirtualServerIpAddresses>,
    ///MAC address.
    #[serde(rename = "macAddress")]
    pub(crate) mac_address: ::std::option::Option<::std::string::String>,
    ///User reference, or null.
    pub(crate) reference: ::std::option::Option<::std::string::String>,
    ///Name.
    #[serde(rename = "serverName")]
    pub(crate) server_name: ::std::option::Option<::std::string::String>,
    ///Human-readable SLA name (the wire key is upper case).
    #[serde(rename = "SLA")]
    pub(crate) sla: ::std::option::Option<::std::string::String>,
    ///Power state. Observed values: Running, Stopped (an open set; transitions not documented).
    pub(crate) state: ::std::option::Option<::std::string::String>,
    ///Template name.
    pub(crate) template: ::std::option::Option<::std::string::String>,
    #[serde(rename = "type")]
    pub(crate) type_: ::std::option::Option<VirtualServerType>,
    #[serde(flatten)]
    pub(crate) extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}

///One IP address of a virtual server (array shape).
#[derive(::serde::Deserialize, Debug)]
pub(crate) struct VirtualServerIpAddress {
    ///IP address.
    pub(crate) ip: ::std::option::Option<::std::string::String>,
    ///Whether the IP is null-routed.
    #[serde(rename = "isNulled")]
    pub(crate) is_nulled: ::std::option::Option<bool>,
    ///Reverse DNS name.
    #[serde(rename = "reverseDNS")]
    pub(crate) reverse_dns: ::std::option::Option<::std::string::String>,
    #[serde(flatten)]
    pub(crate) extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}

///One IP address of a virtual server (object shape; the IP is the key).
#[derive(::serde::Deserialize, Debug)]
pub(crate) struct VirtualServerIpAddressState {
    ///Whether the IP is null-routed.
    #[serde(rename = "isNulled")]
    pub(crate) is_nulled: ::std::option::Option<bool>,
    ///Reverse DNS name.
    #[serde(rename = "reverseDNS")]
    pub(crate) reverse_dns: ::std::option::Option<::std::string::String>,
    #[serde(flatten)]
    pub(crate) extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}

///Contract and administrative data of a virtual server.
#[derive(::serde::Deserialize, Debug)]
pub(crate) struct VirtualServerAdministrativeInfo {
    ///Billing frequency (free text).
    #[serde(rename = "billingFrequency")]
    pub(crate) billing_frequency: ::std::option::Option<::std::string::String>,
    ///Contract term (free text).
    #[serde(rename = "contractTerm")]
    pub(crate) contract_term: ::std::option::Option<::std::string::String>,
    ///Creation time, ISO 8601 local time without offset, `YYYY-MM-DDThh:mm:ss`.
    #[serde(rename = "createdAt")]
    pub(crate) created_at: ::std::option::Option<::std::string::String>,
    ///Customer number.
    #[serde(rename = "customerNumber")]
    pub(crate) customer_number: ::std::option::Option<::std::string::String>,
    ///Contractual end date; null (or an empty string) when there is no end. Format not documented.
    #[serde(rename = "endDate")]
    pub(crate) end_date: ::std::option::Option<::std::string::String>,
    ///Order number.
    #[serde(rename = "orderNumber")]
    pub(crate) order_number: ::std::option::Option<::std::string::String>,
    ///Contractual start date; format not documented (assumed like createdAt).
    #[serde(rename = "startDate")]
    pub(crate) start_date: ::std::option::Option<::std::string::String>,
    #[serde(flatten)]
    pub(crate) extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}

///Platform type, present on some records only. The wire sends the id as `Id` on some records and `id` on others; only `id` is named here (an object naming both does not compile in the generated code), so an `Id` lands in the extra map, where the facade reads it.
#[derive(::serde::Deserialize, Debug)]
pub(crate) struct VirtualServerType {
    ///Platform type id (some records send it as `Id`).
    pub(crate) id: ::std::option::Option<IntegerOrString>,
    ///Platform name.
    #[serde(rename = "PlatformName")]
    pub(crate) platform_name: ::std::option::Option<::std::string::String>,
    #[serde(flatten)]
    pub(crate) extra: ::serde_json::Map<::std::string::String, ::serde_json::Value>,
}

/// The spec's `oneOf` of an integer and a string (a number the service may send as
/// text), as typify makes it: an untagged enum.
#[derive(::serde::Deserialize, Debug)]
#[serde(untagged)]
pub(crate) enum IntegerOrString {
    Integer(i64),
    String(::std::string::String),
}

/// The spec's `VirtualServerIpAddresses`: an array of `{ip, isNulled, reverseDNS}`, or
/// an object keyed by IP address.
#[derive(Debug)]
pub(crate) enum VirtualServerIpAddresses {
    /// The array shape.
    List(IpAddressList),
    /// The keyed shape.
    Map(IpAddressMap),
}

impl<'de> Deserialize<'de> for VirtualServerIpAddresses {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ArrayOrObject)
    }
}

struct ArrayOrObject;

impl<'de> Visitor<'de> for ArrayOrObject {
    type Value = VirtualServerIpAddresses;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of IP addresses or an object keyed by IP address")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        IpAddressList::deserialize(SeqAccessDeserializer::new(seq))
            .map(VirtualServerIpAddresses::List)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        IpAddressMap::deserialize(MapAccessDeserializer::new(map))
            .map(VirtualServerIpAddresses::Map)
    }
}
