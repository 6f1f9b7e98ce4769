//! Raw catalogue records → the catalogue model.

use hostapi_raw_infra::types as raw;

use super::model::{
    ControlPanel, OperatingSystem, Partition, PartitionSchema, PartitionSize, PartitionSuggestion,
    RescueImage,
};
use crate::model::{ControlPanelId, Extra, OperatingSystemId, RescueImageId};
use crate::wire::{self, At, FieldError};

/// A catalogue entry's name: required, not blank.
fn name(value: Option<String>) -> Result<String, FieldError> {
    wire::non_empty(value).ok_or_else(|| FieldError::missing().at("name"))
}

/// `{rescueImages:[{rescueImage:{id,name}}]}` → the images.
pub(crate) fn rescue_images(raw: raw::RescueImageList) -> Result<Vec<RescueImage>, FieldError> {
    wire::each(raw.rescue_images, |item| {
        let image = item.rescue_image;
        let mut extra = wire::extra(item.extra);
        extra.extend(wire::extra(image.extra));
        Ok(RescueImage {
            id: RescueImageId::from_wire(image.id.to_string()),
            name: name(image.name).at("rescueImage")?,
            extra,
        })
    })
    .at("rescueImages")
}

/// `{operatingSystem:{…}}` → the operating system.
pub(crate) fn operating_system_answer(
    raw: raw::OperatingSystemWrapper,
) -> Result<OperatingSystem, FieldError> {
    let mut item = operating_system(raw.operating_system).at("operatingSystem")?;
    item.extra.extend(wire::extra(raw.extra));
    Ok(item)
}

/// `{controlPanel:{…}}` → the control panel.
pub(crate) fn control_panel_answer(
    raw: raw::ControlPanelWrapper,
) -> Result<ControlPanel, FieldError> {
    let mut item = control_panel(raw.control_panel).at("controlPanel")?;
    item.extra.extend(wire::extra(raw.extra));
    Ok(item)
}

pub(crate) fn operating_system(raw: raw::OperatingSystem) -> Result<OperatingSystem, FieldError> {
    Ok(OperatingSystem {
        id: OperatingSystemId::from_wire(raw.id.to_string()),
        name: name(raw.name)?,
        extra: wire::extra(raw.extra),
    })
}

/// `{operatingSystems:[{operatingSystem:{id,name}}]}` → the operating systems.
pub(crate) fn operating_systems(
    raw: raw::OperatingSystemList,
) -> Result<Vec<OperatingSystem>, FieldError> {
    wire::each(raw.operating_systems, |item| {
        let mut os = operating_system(item.operating_system).at("operatingSystem")?;
        os.extra.extend(wire::extra(item.extra));
        Ok(os)
    })
    .at("operatingSystems")
}

pub(crate) fn control_panel(raw: raw::ControlPanel) -> Result<ControlPanel, FieldError> {
    Ok(ControlPanel {
        id: ControlPanelId::from_wire(raw.id.to_string()),
        name: name(raw.name)?,
        extra: wire::extra(raw.extra),
    })
}

/// `{controlPanels:[{controlPanel:{id,name}}]}` → the control panels.
pub(crate) fn control_panels(raw: raw::ControlPanelList) -> Result<Vec<ControlPanel>, FieldError> {
    wire::each(raw.control_panels, |item| {
        let mut panel = control_panel(item.control_panel).at("controlPanel")?;
        panel.extra.extend(wire::extra(item.extra));
        Ok(panel)
    })
    .at("controlPanels")
}

/// `{partitionSchema:{limit, disks:{disk:[…]}, suggestion, filesystemTypes:{type:[…]}}}`
/// → the schema.
pub(crate) fn partition_schema(
    raw: raw::PartitionSchemaWrapper,
) -> Result<PartitionSchema, FieldError> {
    let schema = raw.partition_schema;
    let mut extra = wire::extra(raw.extra);
    let disks = match schema.disks {
        Some(disks) => {
            extra.extend(prefixed("disks", wire::extra(disks.extra)));
            disks.disk
        }
        None => Vec::new(),
    };
    let filesystem_types = match schema.filesystem_types {
        Some(types) => {
            extra.extend(prefixed("filesystemTypes", wire::extra(types.extra)));
            types.type_
        }
        None => Vec::new(),
    };
    extra.extend(wire::extra(schema.extra));
    Ok(PartitionSchema {
        limit: schema.limit,
        disks,
        suggestion: schema
            .suggestion
            .map(suggestion)
            .transpose()
            .at("suggestion")
            .at("partitionSchema")?,
        filesystem_types,
        extra,
    })
}

fn suggestion(raw: raw::PartitionSchemaSuggestion) -> Result<PartitionSuggestion, FieldError> {
    let mut extra = wire::extra(raw.extra);
    let partitions = match raw.hdd {
        Some(hdd) => {
            extra.extend(prefixed("hdd", wire::extra(hdd.extra)));
            wire::each(hdd.partition, partition)
                .at("partition")
                .at("hdd")?
        }
        None => Vec::new(),
    };
    Ok(PartitionSuggestion {
        disk: wire::non_empty(raw.disk),
        bootable: raw.bootable.map(index).transpose().at("bootable")?,
        partitions,
        extra,
    })
}

fn partition(raw: raw::PartitionSchemaPartition) -> Result<Partition, FieldError> {
    Ok(Partition {
        index: index(wire::required(raw.index, "index")?).at("index")?,
        size: partition_size(&wire::required(raw.size, "size")?).at("size")?,
        filesystem: wire::non_empty(raw.type_).ok_or_else(|| FieldError::missing().at("type"))?,
        mountpoint: wire::non_empty(raw.mountpoint),
        extra: wire::extra(raw.extra),
    })
}

fn index(value: i64) -> Result<u32, FieldError> {
    u32::try_from(value)
        .map_err(|_| FieldError::new(format!("expected an index (0 or more), found {value}")))
}

/// `"500"` (MB), `"500 MB"`, or `"*"` for the rest of the disk.
pub(crate) fn partition_size(text: &str) -> Result<PartitionSize, FieldError> {
    let trimmed = text.trim();
    if trimmed == "*" {
        return Ok(PartitionSize::Remainder);
    }
    let number = trimmed
        .strip_suffix("MB")
        .or_else(|| trimmed.strip_suffix("mb"))
        .or_else(|| trimmed.strip_suffix("Mb"))
        .unwrap_or(trimmed)
        .trim_end();
    number.parse().map(PartitionSize::Megabytes).map_err(|_| {
        let shown: String = text.chars().take(60).collect();
        FieldError::new(format!(
            "expected a size in MB or `*` for the rest of the disk, found `{shown}`"
        ))
    })
}

/// Leftover fields of a nested object, named `<object>.<key>` in the parent's extra.
fn prefixed(object: &str, fields: Extra) -> impl Iterator<Item = (String, serde_json::Value)> {
    fields
        .into_iter()
        .map(move |(key, value)| (format!("{object}.{key}"), value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partition_sizes() {
        assert_eq!(partition_size("500"), Ok(PartitionSize::Megabytes(500)));
        assert_eq!(
            partition_size(" 4096 MB"),
            Ok(PartitionSize::Megabytes(4096))
        );
        assert_eq!(partition_size("*"), Ok(PartitionSize::Remainder));
        for bad in ["", "big", "-1", "1.5", "2 GB"] {
            assert!(partition_size(bad).is_err(), "{bad:?}");
        }
    }
}
