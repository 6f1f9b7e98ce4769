//! Raw bare metal records → the model: the server (list item and detail), switch
//! port, power status, installation status and passwords.

use hostapi_raw_infra::types as raw;
use rust_decimal::Decimal;
use serde_json::Value;

use super::model::{
    BareMetalHardware, BareMetalHostingPack, BareMetalLocation, BareMetalNetwork,
    BareMetalPasswords, BareMetalPowerState, BareMetalPowerStatus, BareMetalServer, BareMetalSla,
    DataPackExcess, ExcessKind, HardDisk, InstallationState, InstallationStatus, Ipmi, IpmiKind,
    SwitchPort, SwitchPortStatus,
};
use crate::Secret;
use crate::model::{BareMetalId, DataSize, Extra};
use crate::transport::RecordList;
use crate::wire::{self, At, FieldError};

/// `{bareMetals:[{bareMetal:item}]}`: the servers.
pub(crate) const LIST: RecordList<raw::BareMetalListItemWrapper, BareMetalServer> =
    RecordList::new("bareMetals", list_entry);

fn list_entry(wrapper: raw::BareMetalListItemWrapper) -> Result<BareMetalServer, FieldError> {
    let mut server = list_item(wrapper.bare_metal).at("bareMetal")?;
    server.extra.extend(wire::extra(wrapper.extra));
    Ok(server)
}

fn list_item(raw: raw::BareMetalListItem) -> Result<BareMetalServer, FieldError> {
    Ok(BareMetalServer {
        id: id(raw.bare_metal_id).at("bareMetalId")?,
        name: wire::non_empty(raw.server_name),
        server_type: wire::non_empty(raw.server_type),
        reference: wire::non_empty(raw.reference),
        location: None,
        hardware: None,
        network: None,
        hosting_pack: None,
        sla: None,
        extra: wire::extra(raw.extra),
    })
}

/// `{bareMetal:detail}` → the server.
pub(crate) fn detail(raw: raw::BareMetalWrapper) -> Result<BareMetalServer, FieldError> {
    let mut server = server(raw.bare_metal).at("bareMetal")?;
    server.extra.extend(wire::extra(raw.extra));
    Ok(server)
}

/// The detail. `extras`, `serverSpecifications` and `datacenterAccessCards` are
/// deprecated and meaningless: left out on purpose.
fn server(raw: raw::BareMetal) -> Result<BareMetalServer, FieldError> {
    Ok(BareMetalServer {
        id: id(raw.bare_metal_id).at("bareMetalId")?,
        name: wire::non_empty(raw.server_name),
        server_type: wire::non_empty(raw.server_type),
        reference: wire::non_empty(raw.reference),
        location: raw.location.map(location),
        hardware: raw.server.map(hardware).transpose().at("server")?,
        network: raw.network.map(network).transpose().at("network")?,
        hosting_pack: raw
            .server_hosting_pack
            .map(hosting_pack)
            .transpose()
            .at("serverHostingPack")?,
        sla: raw
            .service_level_agreement
            .map(sla)
            .transpose()
            .at("serviceLevelAgreement")?,
        extra: wire::extra(raw.extra),
    })
}

/// An id sent as a string or an integer. A blank id is not an id.
pub(crate) fn id(raw: raw::StringOrInteger) -> Result<BareMetalId, FieldError> {
    match raw {
        raw::StringOrInteger::Int64(n) => Ok(BareMetalId::from_wire(n.to_string())),
        raw::StringOrInteger::String(s) => wire::non_empty(Some(s))
            .map(BareMetalId::from_wire)
            .ok_or_else(|| FieldError::new("expected an id, found an empty string")),
    }
}

/// A server id the wire sends as an integer.
pub(crate) fn integer_id(raw: Option<i64>) -> Option<BareMetalId> {
    raw.map(|n| BareMetalId::from_wire(n.to_string()))
}

fn location(raw: raw::BareMetalLocation) -> BareMetalLocation {
    BareMetalLocation {
        site: wire::non_empty(raw.site),
        cabinet: wire::non_empty(raw.cabinet),
        rackspace: wire::non_empty(raw.rackspace),
        combination_lock: wire::non_empty(raw.combination_lock).map(Secret::new),
        extra: wire::extra(raw.extra),
    }
}

fn yes_no(value: Option<String>, key: &'static str) -> Result<Option<bool>, FieldError> {
    wire::non_empty(value)
        .map(|text| wire::boolean(&text))
        .transpose()
        .at(key)
}

fn count(value: Option<i64>, key: &'static str) -> Result<Option<u64>, FieldError> {
    value.map(wire::count).transpose().at(key)
}

fn price(value: Option<f64>, key: &'static str) -> Result<Option<Decimal>, FieldError> {
    value.map(wire::decimal_from_f64).transpose().at(key)
}

fn hardware(raw: raw::BareMetalHardware) -> Result<BareMetalHardware, FieldError> {
    let text = wire::non_empty(raw.hard_disks);
    let hard_disks = if raw.hard_disk_list.is_empty() {
        // Without a list, the summary is the only source; text that cannot be read
        // stays available as text.
        text.as_deref()
            .and_then(disks_from_text)
            .unwrap_or_default()
    } else {
        wire::each(raw.hard_disk_list, disk_entry).at("hardDiskList")?
    };
    Ok(BareMetalHardware {
        ram: wire::optional(raw.ram, wire::data_size).at("ram")?,
        kvm: yes_no(raw.kvm, "kvm")?,
        hardware_raid: yes_no(raw.hardware_raid, "hardwareRaid")?,
        server_type: wire::non_empty(raw.server_type),
        processor_type: wire::non_empty(raw.processor_type),
        processor_speed: wire::non_empty(raw.processor_speed),
        cpu_count: count(raw.number_of_cpus, "numberOfCpus")?,
        cores_per_cpu: count(raw.number_of_cores, "numberOfCores")?,
        hard_disks,
        hard_disks_text: text,
        extra: wire::extra(raw.extra),
    })
}

/// The `hardDisks` summary ("2x2TB SATA, 2x480GB SSD") as disk groups; `None` when
/// any part of it cannot be read.
fn disks_from_text(text: &str) -> Option<Vec<HardDisk>> {
    text.split([',', ';'])
        .filter(|part| !part.trim().is_empty())
        .map(|part| disk_group(part).ok())
        .collect()
}

/// One `hardDiskList` entry: a text like "2x2TB SATA", or an object with the amount
/// (`amount`, `count`, `quantity` or `number`), the size (`size`, text with its unit,
/// or a number beside a `unit`) and the kind (`type`, `kind` or `interface`; else the
/// words after the size).
fn disk_entry(value: Value) -> Result<HardDisk, FieldError> {
    let mut map = match value {
        Value::String(text) => return disk_group(&text),
        Value::Object(map) => map,
        other => {
            return Err(FieldError::new(format!(
                "expected a disk (text or object), found {}",
                json_kind(&other)
            )));
        }
    };
    let mut take = |keys: &[&'static str]| {
        keys.iter()
            .find_map(|key| map.remove(*key).map(|value| (*key, value)))
    };
    let count = match take(&["amount", "count", "quantity", "number"]) {
        None | Some((_, Value::Null)) => 1,
        Some((key, value)) => disk_count(&value).at(key)?,
    };
    let unit = take(&["unit"]);
    let explicit_kind = take(&["type", "kind", "interface"]);
    let (size, size_kind) = match (take(&["size", "capacity"]), unit) {
        // A number beside its unit: `{size: 960, unit: "GB"}` or `{size: "960", …}`.
        (Some((key, Value::Number(n))), Some((_, Value::String(unit)))) => {
            let amount = wire::decimal(&n.to_string()).at(key)?;
            (Some(sized(amount, &unit)), None)
        }
        (Some((key, Value::String(text))), Some((_, Value::String(unit))))
            if wire::decimal(&text).is_ok() =>
        {
            let amount = wire::decimal(&text).at(key)?;
            (Some(sized(amount, &unit)), None)
        }
        (Some((key, Value::String(text))), unit) => {
            restore(&mut map, unit);
            let (size, kind) = size_and_kind(&text).at(key)?;
            (Some(size), kind)
        }
        (None | Some((_, Value::Null)), unit) => {
            restore(&mut map, unit);
            (None, None)
        }
        (Some((key, other)), _) => {
            return Err(FieldError::new(format!(
                "expected a size with a unit like 2TB, found {}",
                json_kind(&other)
            ))
            .at(key));
        }
    };
    let kind = match explicit_kind {
        None | Some((_, Value::Null)) => size_kind,
        Some((_, Value::String(kind))) => wire::non_empty(Some(kind)).or(size_kind),
        other => {
            restore(&mut map, other);
            size_kind
        }
    };
    Ok(HardDisk {
        count,
        size,
        kind,
        extra: wire::extra(map),
    })
}

fn sized(amount: Decimal, unit: &str) -> DataSize {
    DataSize {
        amount,
        unit: wire::data_unit(unit),
    }
}

/// Puts a field taken out of a leftover map back, when it was there.
fn restore(map: &mut serde_json::Map<String, Value>, field: Option<(&'static str, Value)>) {
    if let Some((key, value)) = field {
        map.insert(key.to_owned(), value);
    }
}

fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn disk_count(value: &Value) -> Result<u32, FieldError> {
    let number = match value {
        Value::Number(n) => n.as_i64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    };
    number
        .and_then(|n| u32::try_from(n).ok())
        .ok_or_else(|| FieldError::new(format!("expected a number of disks, found {value}")))
}

/// "2x2TB SATA", "2 x 480 GB SSD", "1TB" (one disk).
fn disk_group(text: &str) -> Result<HardDisk, FieldError> {
    let text = text.trim();
    let (count, rest) = match split_count(text) {
        Some((count, rest)) => (count, rest),
        None => (1, text),
    };
    let (size, kind) = size_and_kind(rest)?;
    Ok(HardDisk {
        count,
        size: Some(size),
        kind,
        extra: Extra::new(),
    })
}

/// Splits "2x2TB SATA" into 2 and "2TB SATA"; `None` without an `Nx` prefix.
fn split_count(text: &str) -> Option<(u32, &str)> {
    let digits = text.find(|c: char| !c.is_ascii_digit())?;
    if digits == 0 {
        return None;
    }
    let (number, rest) = text.split_at(digits);
    let rest = rest.trim_start();
    let rest = rest
        .strip_prefix(['x', 'X', '×'])
        .filter(|after| after.starts_with(|c: char| c.is_ascii_digit() || c.is_whitespace()))?;
    Some((number.parse().ok()?, rest.trim_start()))
}

/// "2TB SATA" → 2 TB and "SATA"; "480 GB" → 480 GB and no kind.
fn size_and_kind(text: &str) -> Result<(DataSize, Option<String>), FieldError> {
    let text = text.trim();
    let error = || {
        FieldError::new(format!(
            "expected a size with a unit like 2TB (then the disk kind), found `{text}`"
        ))
    };
    let number_end = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == ','))
        .unwrap_or(text.len());
    let (number, rest) = text.split_at(number_end);
    let amount = wire::decimal(number).map_err(|_| error())?;
    let rest = rest.trim_start();
    let unit_end = rest
        .find(|c: char| !c.is_ascii_alphabetic())
        .unwrap_or(rest.len());
    let (unit, kind) = rest.split_at(unit_end);
    // A unit of bytes, known ("TB") or not ("TiB"); anything else is not a size.
    let data_unit = wire::data_unit(unit);
    if data_unit.is_unknown() && !unit.to_ascii_lowercase().ends_with('b') {
        return Err(error());
    }
    Ok((
        DataSize {
            amount,
            unit: data_unit,
        },
        wire::non_empty(Some(kind.to_owned())),
    ))
}

fn network(raw: raw::BareMetalNetwork) -> Result<BareMetalNetwork, FieldError> {
    let mut extra = raw.extra;
    Ok(BareMetalNetwork {
        data_pack: wire::non_empty(raw.data_pack),
        data_pack_excess: raw
            .data_pack_excess
            .map(data_pack_excess)
            .transpose()
            .at("dataPackExcess")?,
        monthly_price: price(raw.price_per_month, "pricePerMonth")?,
        ips_free_of_charge: count(raw.ips_free_of_charge, "ipsFreeOfCharge")?,
        ips_assigned: count(raw.ips_assigned, "ipsAssigned")?,
        excess_ip_price: price(raw.excess_ips_price, "excessIpsPrice")?,
        ipmi: raw.ipmi.map(ipmi).transpose().at("ipmi")?,
        mac_addresses: mac_addresses(raw.mac_addresses, &mut extra)?,
        extra: wire::extra(extra),
    })
}

fn data_pack_excess(raw: raw::DataPackExcess) -> Result<DataPackExcess, FieldError> {
    Ok(DataPackExcess {
        kind: wire::non_empty(raw.type_).map(|t| ExcessKind::from_wire(&t)),
        price_per_unit: price(raw.value, "value")?,
        unit: wire::non_empty(raw.unit),
        extra: wire::extra(raw.extra),
    })
}

fn ipmi(raw: raw::Ipmi) -> Result<Ipmi, FieldError> {
    Ok(Ipmi {
        ip: wire::optional(raw.ip, wire::ip_address).at("ip")?,
        netmask: wire::non_empty(raw.netmask),
        network: wire::non_empty(raw.network),
        gateway: wire::non_empty(raw.gateway),
        kind: wire::non_empty(raw.type_).map(|t| IpmiKind::from_wire(&t)),
        extra: wire::extra(raw.extra),
    })
}

/// `macAddresses: {mac:[…]}` → normalised MACs, in order, each once. The inner key is
/// read in any letter case (`mac`, `MAC`…), as is the outer one when the spec's
/// spelling is absent; empty entries are skipped.
fn mac_addresses(
    raw: Option<raw::MacAddresses>,
    network_extra: &mut serde_json::Map<String, Value>,
) -> Result<Vec<String>, FieldError> {
    let raw = match raw {
        Some(raw) => Some(raw),
        None => {
            let key = network_extra
                .keys()
                .find(|k| k.eq_ignore_ascii_case("macAddresses"))
                .cloned();
            match key.and_then(|key| network_extra.remove(&key).map(|v| (key, v))) {
                Some((key, value)) => Some(
                    serde_json::from_value::<raw::MacAddresses>(value)
                        .map_err(|e| FieldError::new(e.to_string()).at(key.clone()))?,
                ),
                None => None,
            }
        }
    };
    let Some(mut raw) = raw else {
        return Ok(Vec::new());
    };
    let mut macs = Vec::new();
    for (index, text) in std::mem::take(&mut raw.mac).into_iter().enumerate() {
        if let Some(text) = wire::non_empty(Some(text)) {
            macs.push(
                mac_address(&text)
                    .at_index(index)
                    .at("mac")
                    .at("macAddresses")?,
            );
        }
    }
    let other_keys: Vec<String> = raw
        .extra
        .keys()
        .filter(|k| k.eq_ignore_ascii_case("mac"))
        .cloned()
        .collect();
    for key in other_keys {
        let value = raw.extra.remove(&key).unwrap_or(Value::Null);
        let texts: Vec<(Option<usize>, Value)> = match value {
            Value::Array(items) => items
                .into_iter()
                .enumerate()
                .map(|(i, v)| (Some(i), v))
                .collect(),
            other => vec![(None, other)],
        };
        for (index, value) in texts {
            let located = |e: FieldError| {
                let e = match index {
                    Some(i) => e.at_index(i),
                    None => e,
                };
                e.at(key.clone()).at("macAddresses")
            };
            match value {
                Value::Null => {}
                Value::String(text) => {
                    if let Some(text) = wire::non_empty(Some(text)) {
                        macs.push(mac_address(&text).map_err(located)?);
                    }
                }
                other => {
                    return Err(located(FieldError::new(format!(
                        "expected a MAC address, found {}",
                        json_kind(&other)
                    ))));
                }
            }
        }
    }
    // The same address under two spellings of the key is one address (a server has a
    // handful: a linear search beats hashing).
    let mut unique: Vec<String> = Vec::with_capacity(macs.len());
    for mac in macs {
        if !unique.contains(&mac) {
            unique.push(mac);
        }
    }
    let macs = unique;
    if !raw.extra.is_empty() {
        network_extra.extend(
            raw.extra
                .into_iter()
                .map(|(k, v)| (format!("macAddresses.{k}"), v)),
        );
    }
    Ok(macs)
}

/// A MAC address in any letter case, separated by `:`, `-` or `.` (or not at all) →
/// lower-case and colon-separated.
pub(crate) fn mac_address(text: &str) -> Result<String, FieldError> {
    let error = || {
        FieldError::new(format!(
            "expected a MAC address like 00:1a:2b:3c:4d:5e, found `{}`",
            text.chars().take(60).collect::<String>()
        ))
    };
    // Written byte by byte into its final form (a byte that is not ASCII is not a hex
    // digit either), then one allocation.
    let mut mac = [b':'; 17];
    let mut digits = 0;
    for &b in text
        .trim()
        .as_bytes()
        .iter()
        .filter(|b| !matches!(b, b':' | b'-' | b'.'))
    {
        if !b.is_ascii_hexdigit() || digits == 12 {
            return Err(error());
        }
        mac[digits / 2 * 3 + digits % 2] = b.to_ascii_lowercase();
        digits += 1;
    }
    match std::str::from_utf8(&mac) {
        Ok(mac) if digits == 12 => Ok(mac.to_owned()),
        _ => Err(error()),
    }
}

fn hosting_pack(raw: raw::BareMetalHostingPack) -> Result<BareMetalHostingPack, FieldError> {
    Ok(BareMetalHostingPack {
        bare_metal_id: raw.bare_metal_id.map(id).transpose().at("bareMetalId")?,
        reference: wire::non_empty(raw.reference),
        server_name: wire::non_empty(raw.server_name),
        server_type: wire::non_empty(raw.server_type),
        monthly_price: price(raw.server_price, "serverPrice")?,
        start_date: wire::optional(raw.start_date, wire::any_date).at("startDate")?,
        end_date: wire::optional(raw.end_date, wire::any_date).at("endDate")?,
        contract_term: wire::optional(raw.contract_term, wire::contract_term_text)
            .at("contractTerm")?,
        extra: wire::extra(raw.extra),
    })
}

fn sla(raw: raw::ServiceLevelAgreement) -> Result<BareMetalSla, FieldError> {
    Ok(BareMetalSla {
        name: wire::non_empty(raw.sla),
        monthly_price: price(raw.price_per_month, "pricePerMonth")?,
        extra: wire::extra(raw.extra),
    })
}

/// `{switchPort:{…}}` → the switch port.
pub(crate) fn switch_port(raw: raw::SwitchPortWrapper) -> Result<SwitchPort, FieldError> {
    let port = raw.switch_port;
    let mut extra = wire::extra(port.extra);
    extra.extend(wire::extra(raw.extra));
    Ok(SwitchPort {
        status: wire::non_empty(port.status).map(|s| SwitchPortStatus::from_wire(&s)),
        server_id: integer_id(port.server_id),
        server_name: wire::non_empty(port.server_name),
        switch_node: port.switch_node,
        extra,
    })
}

/// `{powerStatus:{…}}` → the power status.
pub(crate) fn power_status(
    raw: raw::PowerStatusWrapper,
) -> Result<BareMetalPowerStatus, FieldError> {
    let status = raw.power_status;
    let mut extra = wire::extra(status.extra);
    extra.extend(wire::extra(raw.extra));
    Ok(BareMetalPowerStatus {
        status: wire::non_empty(status.status).map(|s| BareMetalPowerState::from_wire(&s)),
        server_id: integer_id(status.server_id),
        server_name: wire::non_empty(status.server_name),
        extra,
    })
}

/// `{installationStatus:{…}}` → the status. The name is read as sent (`serverName`)
/// or as documented (`serverPackName`).
pub(crate) fn installation_status(
    raw: raw::InstallationStatusWrapper,
) -> Result<InstallationStatus, FieldError> {
    let status = raw.installation_status;
    let mut extra = wire::extra(status.extra);
    extra.extend(wire::extra(raw.extra));
    Ok(InstallationStatus {
        code: status.code,
        description: wire::non_empty(status.description).map(|d| InstallationState::from_wire(&d)),
        server_id: status
            .server_pack_id
            .map(id)
            .transpose()
            .at("serverPackId")
            .at("installationStatus")?,
        server_name: wire::non_empty(status.server_name)
            .or_else(|| wire::non_empty(status.server_pack_name)),
        extra,
    })
}

/// The passwords, `rootPassword` as sent or `rootpassword` as documented. An empty
/// password is no password.
pub(crate) fn passwords(raw: raw::RootPassword) -> Result<BareMetalPasswords, FieldError> {
    Ok(BareMetalPasswords {
        root_password: wire::non_empty(raw.root_password)
            .or_else(|| wire::non_empty(raw.rootpassword))
            .map(Secret::new),
        rescue_mode_password: wire::non_empty(raw.rescue_mode_password).map(Secret::new),
        extra: wire::extra(raw.extra),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::DataUnit;

    fn group(text: &str) -> (u32, String, Option<String>) {
        let disk = disk_group(text).unwrap();
        let size = disk.size.unwrap();
        (
            disk.count,
            format!("{} {}", size.amount, size.unit.as_wire()),
            disk.kind,
        )
    }

    #[test]
    fn disk_groups_in_their_spellings() {
        assert_eq!(group("2x2TB SATA"), (2, "2 TB".into(), Some("SATA".into())));
        assert_eq!(
            group(" 4 x 480 GB SSD "),
            (4, "480 GB".into(), Some("SSD".into()))
        );
        assert_eq!(group("1TB"), (1, "1 TB".into(), None));
        assert_eq!(
            group("2×1.92TB NVMe"),
            (2, "1.92 TB".into(), Some("NVMe".into()))
        );
        assert!(disk_group("SATA").is_err());
        assert!(disk_group("2x").is_err());
        assert_eq!(disks_from_text("2x2TB SATA, 2x480GB SSD").unwrap().len(), 2);
        assert_eq!(disks_from_text("two big disks"), None);
    }

    #[test]
    fn disk_list_entries_as_objects() {
        let disk =
            disk_entry(serde_json::json!({"amount": 2, "size": "4TB SATA", "rpm": 7200})).unwrap();
        assert_eq!(disk.count, 2);
        assert_eq!(disk.kind.as_deref(), Some("SATA"));
        assert_eq!(disk.size.unwrap().unit, DataUnit::Terabytes);
        assert_eq!(disk.extra["rpm"], 7200);
        let disk =
            disk_entry(serde_json::json!({"count": "3", "size": 960, "unit": "GB", "type": "SSD"}))
                .unwrap();
        assert_eq!((disk.count, disk.kind.as_deref()), (3, Some("SSD")));
        assert_eq!(disk.size.unwrap().amount.to_string(), "960");
        let error = disk_entry(serde_json::json!({"amount": 2, "size": 960})).unwrap_err();
        assert_eq!(error.path(), "size");
        let error = disk_entry(serde_json::json!({"amount": -1})).unwrap_err();
        assert_eq!(error.path(), "amount");
        assert!(disk_entry(serde_json::json!(5)).is_err());
    }

    #[test]
    fn mac_addresses_in_any_spelling() {
        for text in [
            "00:1A:2B:3C:4D:5E",
            "00-1a-2b-3c-4d-5e",
            "001a2b3c4d5e",
            "001A.2B3C.4D5E",
        ] {
            assert_eq!(mac_address(text).unwrap(), "00:1a:2b:3c:4d:5e", "{text}");
        }
        assert!(mac_address("00:1a:2b:3c:4d").is_err());
        assert!(mac_address("00:1a:2b:3c:4d:zz").is_err());
        assert!(mac_address("00:1a:2b:3c:4d:5e:6f").is_err());
    }

    proptest::proptest! {
        /// The one-allocation reader agrees with the reader it replaced (filter, check,
        /// lower-case, split in pairs, join) on any text.
        #[test]
        fn mac_addresses_read_as_before(text in "[ 0-9a-fA-FgZ:.-]{0,20}|[0-9a-f]{12}") {
            let hex: String = text.trim().chars().filter(|c| !matches!(c, ':' | '-' | '.')).collect();
            let expected = (hex.len() == 12 && hex.chars().all(|c| c.is_ascii_hexdigit())).then(|| {
                hex.to_ascii_lowercase()
                    .as_bytes()
                    .chunks(2)
                    .map(|pair| String::from_utf8_lossy(pair).into_owned())
                    .collect::<Vec<_>>()
                    .join(":")
            });
            proptest::prop_assert_eq!(mac_address(&text).ok(), expected);
        }
    }

    #[test]
    fn mac_lists_under_any_key_spelling_each_once() {
        let raw: raw::MacAddresses = serde_json::from_value(serde_json::json!({
            "mac": ["00:1A:2B:3C:4D:5E"],
            "Mac": ["00-1a-2b-3c-4d-5e", "00:1a:2b:3c:4d:5f"],
            "vendor": "Intel"
        }))
        .unwrap();
        let mut extra = serde_json::Map::new();
        let macs = mac_addresses(Some(raw), &mut extra).unwrap();
        assert_eq!(macs, ["00:1a:2b:3c:4d:5e", "00:1a:2b:3c:4d:5f"]);
        assert_eq!(extra["macAddresses.vendor"], "Intel");

        let mut extra = serde_json::Map::new();
        extra.insert(
            "MACAddresses".into(),
            serde_json::json!({"MAC": "AA:BB:CC:DD:EE:FF"}),
        );
        let macs = mac_addresses(None, &mut extra).unwrap();
        assert_eq!(macs, ["aa:bb:cc:dd:ee:ff"]);
        assert!(extra.is_empty());

        let mut extra = serde_json::Map::new();
        let raw: raw::MacAddresses =
            serde_json::from_value(serde_json::json!({"MAC": [7]})).unwrap();
        let error = mac_addresses(Some(raw), &mut extra).unwrap_err();
        assert_eq!(error.path(), "macAddresses.MAC[0]");
    }
}
