//! Bare metal answers → the model: the server (list item and detail), switch port,
//! power status, installation status and passwords.

use rust_decimal::Decimal;

use super::model::{
    BareMetalHardware, BareMetalLocation, BareMetalNetwork, BareMetalPasswords,
    BareMetalPowerState, BareMetalPowerStatus, BareMetalServer, DataPackExcess, ExcessKind,
    HardDisk, InstallationState, InstallationStatus, Ipmi, IpmiKind, SwitchPort, SwitchPortStatus,
};
use crate::model::values::mac;
use crate::model::{DataSize, MacAddress};
use crate::read::records::{hosting_contract, sla};
use crate::read::shapes::{prefixed, wrapped};
use crate::read::text::{self, Parsed};
use crate::read::{Cursor, FieldError, Fields, Json};

/// `{bareMetals:[{bareMetal:item}]}`: the member the servers are under.
pub(crate) const SERVERS: &str = "bareMetals";

/// `{bareMetal:…}` → the server (a list item or the detail: the same reader, each
/// view filling what it has).
pub(crate) fn wrapped_server(
    cursor: &mut Cursor,
    json: Json<'_>,
) -> Result<BareMetalServer, FieldError> {
    wrapped(cursor, json, "bareMetal", server)
}

/// The server. `extras`, `serverSpecifications` and `datacenterAccessCards` (deprecated
/// and without meaning, the documents say) are not modelled: they stay in `extra` as
/// sent, like every field the model does not name.
fn server(f: &mut Fields<'_, '_>) -> Result<BareMetalServer, FieldError> {
    let id: crate::BareMetalId = f.id("bareMetalId")?;
    let name = f.text("serverName");
    let server_type = f.text("serverType");
    let owner = [
        ("bareMetalId", Some(id.as_str())),
        ("serverName", name.as_deref()),
        ("serverType", server_type.as_deref()),
    ];
    Ok(BareMetalServer {
        reference: f.text("reference"),
        location: f.object("location", location),
        hardware: f.object("server", hardware),
        network: f.object("network", network),
        contract: f.object("serverHostingPack", |pack| hosting_contract(pack, &owner)),
        sla: f.object("serviceLevelAgreement", sla),
        id,
        name,
        server_type,
        extra: f.unread(),
    })
}

fn location(f: &mut Fields<'_, '_>) -> BareMetalLocation {
    BareMetalLocation {
        site: f.text("site"),
        cabinet: f.text("cabinet"),
        rackspace: f.text("rackspace"),
        combination_lock: f.secret("combinationLock"),
        extra: f.unread(),
    }
}

fn hardware(f: &mut Fields<'_, '_>) -> BareMetalHardware {
    let text = f.text("hardDisks");
    let listed = f.list("hardDiskList", disk_entry);
    let hard_disks = if listed.is_empty() {
        // Without a list, the summary is the only source; text that cannot be read
        // stays available as text.
        text.as_deref()
            .and_then(disks_from_text)
            .unwrap_or_default()
    } else {
        listed
    };
    BareMetalHardware {
        ram: f.parsed("ram", text::data_size),
        kvm: f.boolean("kvm"),
        hardware_raid: f.boolean("hardwareRaid"),
        server_type: f.text("serverType"),
        processor_type: f.text("processorType"),
        processor_speed: f.text("processorSpeed"),
        cpu_count: f.integer("numberOfCpus"),
        cores_per_cpu: f.integer("numberOfCores"),
        hard_disks,
        hard_disks_text: text,
        extra: f.unread(),
    }
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
/// (`amount`, or `count`, `quantity`, `number`), the size (`size` or `capacity`: text
/// with its unit, or a number beside a `unit`) and the kind (`type`, `kind` or
/// `interface`; else the words after the size).
fn disk_entry(cursor: &mut Cursor, json: Json<'_>) -> Result<HardDisk, FieldError> {
    if let Json::String(text) = &json {
        return disk_group(text).map_err(|message| cursor.error("", message));
    }
    cursor.object(json, |f| {
        for (from, to) in [
            ("count", "amount"),
            ("quantity", "amount"),
            ("number", "amount"),
            ("capacity", "size"),
            ("kind", "type"),
            ("interface", "type"),
        ] {
            f.alias(from, to);
        }
        let count = if f.has("amount") {
            f.integer("amount")
        } else {
            Some(1)
        };
        let unit = f.text("unit");
        let explicit_kind = f.text("type");
        let (size, size_kind) = match unit {
            // A number beside its unit: `{size: 960, unit: "GB"}`.
            Some(unit) => (
                f.decimal("size")
                    .map(|amount| DataSize::new(amount, text::data_unit(&unit))),
                None,
            ),
            None => match f.parsed("size", size_and_kind) {
                Some((size, kind)) => (Some(size), kind),
                None => (None, None),
            },
        };
        Ok(HardDisk {
            count,
            size,
            kind: explicit_kind.or(size_kind),
            extra: f.unread(),
        })
    })
}

/// "2x2TB SATA", "2 x 480 GB SSD", "1TB" (one disk).
fn disk_group(text: &str) -> Parsed<HardDisk> {
    let text = text.trim();
    let (count, rest) = split_count(text).unwrap_or((1, text));
    let (size, kind) = size_and_kind(rest)?;
    Ok(HardDisk {
        count: Some(count),
        size: Some(size),
        kind,
        extra: crate::Extra::new(),
    })
}

/// Splits "2x2TB SATA" into 2 and "2TB SATA"; `None` without an `Nx` prefix.
fn split_count(text: &str) -> Option<(u32, &str)> {
    let digits = text.find(|c: char| !c.is_ascii_digit())?;
    if digits == 0 {
        return None;
    }
    let (number, rest) = text.split_at(digits);
    let rest = rest
        .trim_start()
        .strip_prefix(['x', 'X', '×'])
        .filter(|after| after.starts_with(|c: char| c.is_ascii_digit() || c.is_whitespace()))?;
    Some((number.parse().ok()?, rest.trim_start()))
}

/// "2TB SATA" → 2 TB and "SATA"; "480 GB" → 480 GB and no kind.
fn size_and_kind(text: &str) -> Parsed<(DataSize, Option<String>)> {
    let text = text.trim();
    let error = || {
        format!(
            "expected a size with a unit like 2TB (then the disk kind), found {}",
            text::found(text)
        )
    };
    let number_end = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let (number, rest) = text.split_at(number_end);
    let amount: Decimal = text::decimal(number).map_err(|_| error())?;
    let rest = rest.trim_start();
    let unit_end = rest
        .find(|c: char| !c.is_ascii_alphabetic())
        .unwrap_or(rest.len());
    let (unit, kind) = rest.split_at(unit_end);
    // A unit of data, known ("TB") or not; anything else is not a size.
    let data_unit = text::data_unit(unit);
    if data_unit.is_unknown() && !unit.to_ascii_lowercase().ends_with('b') {
        return Err(error());
    }
    let kind = kind.trim();
    Ok((
        DataSize::new(amount, data_unit),
        (!kind.is_empty()).then(|| kind.to_owned()),
    ))
}

fn network(f: &mut Fields<'_, '_>) -> BareMetalNetwork {
    let macs = mac_addresses(f);
    BareMetalNetwork {
        data_pack: f.text("dataPack"),
        data_pack_excess: f.object("dataPackExcess", |e| DataPackExcess {
            kind: e.open_enum("type", ExcessKind::from_wire),
            price_per_unit: e.decimal("value"),
            unit: e.text("unit"),
            extra: e.unread(),
        }),
        monthly_price: f.decimal("pricePerMonth"),
        ips_free_of_charge: f.integer("ipsFreeOfCharge"),
        ips_assigned: f.integer("ipsAssigned"),
        excess_ip_price: f.decimal("excessIpsPrice"),
        ipmi: f.object("ipmi", |i| Ipmi {
            ip: i.parsed("ip", |t| {
                t.parse()
                    .map_err(|_| format!("expected an IP address, found {}", text::found(t)))
            }),
            netmask: i.text("netmask"),
            network: i.text("network"),
            gateway: i.text("gateway"),
            kind: i.open_enum("type", IpmiKind::from_wire),
            extra: i.unread(),
        }),
        mac_addresses: macs.0,
        extra: {
            let mut extra = f.unread();
            extra.extend(macs.1);
            extra
        },
    }
}

/// `macAddresses: {mac:[…]}`, keys in any letter case → the MACs, in order, each once,
/// and what else the object held (as `macAddresses.<key>`). An address that cannot
/// be read is kept there too, with a warning.
fn mac_addresses(f: &mut Fields<'_, '_>) -> (Vec<MacAddress>, crate::Extra) {
    f.alias_any_case("macAddresses");
    let found = f.object("macAddresses", |m| {
        let mut macs: Vec<MacAddress> = Vec::new();
        // Each spelling once: a value that is not a list is put back under its key
        // (to be kept in `extra`), so looking the key up again would find it forever.
        for key in m.keys_any_case("mac") {
            // An empty entry (`""` or null) is no address, as everywhere on the wire.
            let texts = m.list(&key, |cursor, item| {
                match crate::read::fields::text_of(&item) {
                    Ok(Some(text)) => mac(&text)
                        .map(Some)
                        .map_err(|message| cursor.error("", message)),
                    Ok(None) => Ok(None),
                    Err(message) => Err(cursor.error("", message)),
                }
            });
            for mac in texts.into_iter().flatten() {
                if !macs.contains(&mac) {
                    macs.push(mac);
                }
            }
        }
        (macs, m.unread())
    });
    match found {
        Some((macs, rest)) => (macs, prefixed("macAddresses", rest).collect()),
        None => (Vec::new(), crate::Extra::new()),
    }
}

/// `{switchPort:{…}}` → the switch port.
pub(crate) fn switch_port(cursor: &mut Cursor, json: Json<'_>) -> Result<SwitchPort, FieldError> {
    wrapped(cursor, json, "switchPort", |f| {
        Ok(SwitchPort {
            status: f.open_enum("status", SwitchPortStatus::from_wire),
            server_id: f.reference("serverId"),
            server_name: f.text("serverName"),
            switch_node: f.integer("switchNode"),
            extra: f.unread(),
        })
    })
}

/// `{powerStatus:{…}}` → the power status.
pub(crate) fn power_status(
    cursor: &mut Cursor,
    json: Json<'_>,
) -> Result<BareMetalPowerStatus, FieldError> {
    wrapped(cursor, json, "powerStatus", |f| {
        Ok(BareMetalPowerStatus {
            status: f.open_enum("status", BareMetalPowerState::from_wire),
            server_id: f.reference("serverId"),
            server_name: f.text("serverName"),
            extra: f.unread(),
        })
    })
}

/// `{installationStatus:{…}}` → the status. The name is read as sent (`serverName`) or
/// as documented (`serverPackName`).
pub(crate) fn installation_status(
    cursor: &mut Cursor,
    json: Json<'_>,
) -> Result<InstallationStatus, FieldError> {
    wrapped(cursor, json, "installationStatus", |f| {
        f.alias("serverPackName", "serverName");
        Ok(InstallationStatus {
            code: f.integer("code"),
            description: f.open_enum("description", InstallationState::from_wire),
            server_id: f.reference("serverPackId"),
            server_name: f.text("serverName"),
            extra: f.unread(),
        })
    })
}

/// The passwords, `rootPassword` as sent or `rootpassword` as documented. An empty
/// password is no password.
pub(crate) fn passwords(
    cursor: &mut Cursor,
    json: Json<'_>,
) -> Result<BareMetalPasswords, FieldError> {
    cursor.object(json, |f| {
        f.alias("rootpassword", "rootPassword");
        Ok(BareMetalPasswords {
            root_password: f.secret("rootPassword"),
            rescue_mode_password: f.secret("rescueModePassword"),
            extra: f.unread(),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::DataUnit;

    fn group(text: &str) -> (Option<u32>, String, Option<String>) {
        let disk = disk_group(text).unwrap();
        let size = disk.size.unwrap();
        (
            disk.count,
            format!("{} {}", size.amount, size.unit.as_wire()),
            disk.kind,
        )
    }

    #[test]
    fn a_mac_member_that_is_no_list_is_kept_not_read_forever() {
        let body = br#"{"bareMetal":{"bareMetalId":"1","network":{"macAddresses":{"mac":{"x":1},"MAC":["00:25:90:AA:BB:CC"]}}}}"#;
        let json = crate::read::json::parse(body).unwrap();
        let mut cursor = Cursor::default();
        let server = wrapped_server(&mut cursor, json).unwrap();
        assert_eq!(
            server.network.as_ref().map(|n| n.mac_addresses.len()),
            Some(1)
        );
        assert!(
            !cursor.take_warnings().is_empty(),
            "the object under `mac` is reported"
        );
    }

    #[test]
    fn disk_groups_in_their_spellings() {
        assert_eq!(
            group("2x2TB SATA"),
            (Some(2), "2 TB".into(), Some("SATA".into()))
        );
        assert_eq!(
            group(" 4 x 480 GB SSD "),
            (Some(4), "480 GB".into(), Some("SSD".into()))
        );
        assert_eq!(group("1TB"), (Some(1), "1 TB".into(), None));
        assert_eq!(
            group("2×1.92TB NVMe"),
            (Some(2), "1.92 TB".into(), Some("NVMe".into()))
        );
        assert!(disk_group("SATA").is_err());
        assert!(disk_group("2x").is_err());
        assert_eq!(disks_from_text("2x2TB SATA, 2x480GB SSD").unwrap().len(), 2);
        assert_eq!(disks_from_text("two big disks"), None);
    }

    fn entry(
        json: &str,
    ) -> (
        Result<HardDisk, FieldError>,
        Vec<crate::read::fields::Warning>,
    ) {
        let mut cursor = Cursor::default();
        let disk = disk_entry(
            &mut cursor,
            crate::read::json::parse(json.as_bytes()).unwrap(),
        );
        (disk, cursor.take_warnings())
    }

    #[test]
    fn disk_list_entries_as_objects() {
        let (disk, _) = entry(r#"{"amount": 2, "size": "4TB SATA", "rpm": 7200}"#);
        let disk = disk.unwrap();
        assert_eq!(disk.count, Some(2));
        assert_eq!(disk.kind.as_deref(), Some("SATA"));
        assert_eq!(disk.size.unwrap().unit, DataUnit::Terabytes);
        assert_eq!(disk.extra["rpm"], 7200);
        let (disk, _) = entry(r#"{"count": "3", "size": 960, "unit": "GB", "type": "SSD"}"#);
        let disk = disk.unwrap();
        assert_eq!((disk.count, disk.kind.as_deref()), (Some(3), Some("SSD")));
        assert_eq!(disk.size.unwrap().amount.to_string(), "960");
        let (disk, warnings) = entry(r#"{"amount": 2, "size": 960}"#);
        assert_eq!(disk.unwrap().size, None);
        assert_eq!(warnings[0].path, "size");
        let (disk, warnings) = entry(r#"{"amount": -1}"#);
        assert_eq!(disk.unwrap().count, None);
        assert_eq!(warnings[0].path, "amount");
        assert!(entry("5").0.is_err());
    }
}
