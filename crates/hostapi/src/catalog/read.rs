//! Catalogue answers → the catalogue model.

use super::model::{
    ControlPanel, OperatingSystem, Partition, PartitionSchema, PartitionSize, PartitionSuggestion,
    RescueImage,
};
use crate::read::shapes::{prefixed, texts_in, wrapped};
use crate::read::{Cursor, FieldError, Fields, Json};

/// `{rescueImages:[{rescueImage:{id,name}}]}`: the member the images are under.
pub(crate) const RESCUE_IMAGES: &str = "rescueImages";

pub(crate) fn rescue_image(cursor: &mut Cursor, json: Json<'_>) -> Result<RescueImage, FieldError> {
    wrapped(cursor, json, "rescueImage", |f| {
        Ok(RescueImage {
            id: f.id("id")?,
            name: f.text("name"),
            extra: f.unread(),
        })
    })
}

/// `{operatingSystems:[{operatingSystem:{id,name}}]}`: the member the systems are under.
pub(crate) const OPERATING_SYSTEMS: &str = "operatingSystems";

/// `{operatingSystem:{…}}` (also each item of the list).
pub(crate) fn operating_system(
    cursor: &mut Cursor,
    json: Json<'_>,
) -> Result<OperatingSystem, FieldError> {
    wrapped(cursor, json, "operatingSystem", |f| {
        Ok(OperatingSystem {
            id: f.id("id")?,
            name: f.text("name"),
            extra: f.unread(),
        })
    })
}

/// `{controlPanels:[{controlPanel:{id,name}}]}`: the member the panels are under.
pub(crate) const CONTROL_PANELS: &str = "controlPanels";

/// `{controlPanel:{…}}` (also each item of the list).
pub(crate) fn control_panel(
    cursor: &mut Cursor,
    json: Json<'_>,
) -> Result<ControlPanel, FieldError> {
    wrapped(cursor, json, "controlPanel", |f| {
        Ok(ControlPanel {
            id: f.id("id")?,
            name: f.text("name"),
            extra: f.unread(),
        })
    })
}

/// `{partitionSchema:{limit, disks:{disk:[…]}, suggestion, filesystemTypes:{type:[…]}}}`
/// → the schema.
pub(crate) fn partition_schema(
    cursor: &mut Cursor,
    body: Json<'_>,
) -> Result<PartitionSchema, FieldError> {
    cursor.object(body, |wrapper| {
        let schema = wrapper
            .object("partitionSchema", |f| {
                let (disks, disks_rest) = texts_in(f, "disks", "disk");
                let (filesystem_types, types_rest) = texts_in(f, "filesystemTypes", "type");
                let mut schema = PartitionSchema {
                    limit: f.integer("limit"),
                    disks,
                    suggestion: f.object("suggestion", suggestion),
                    filesystem_types,
                    extra: f.unread(),
                };
                schema.extra.extend(disks_rest);
                schema.extra.extend(types_rest);
                schema
            })
            .ok_or_else(|| {
                wrapper
                    .cursor()
                    .error("partitionSchema", "the schema is absent")
            })?;
        let mut schema = schema;
        schema.extra.extend(wrapper.unread());
        Ok(schema)
    })
}

fn suggestion(f: &mut Fields<'_, '_>) -> PartitionSuggestion {
    let hdd = f.object("hdd", |hdd| {
        (hdd.objects("partition", partition), hdd.unread())
    });
    let (partitions, hdd_rest) = hdd.unwrap_or_default();
    let mut suggestion = PartitionSuggestion {
        disk: f.text("disk"),
        bootable: f.integer("bootable"),
        partitions,
        extra: f.unread(),
    };
    suggestion.extra.extend(prefixed("hdd", hdd_rest));
    suggestion
}

/// A partition: its index identifies it; a size is megabytes or `*` (the rest);
/// swap's empty mountpoint is none.
fn partition(f: &mut Fields<'_, '_>) -> Result<Partition, FieldError> {
    let index: u32 = match f.integer("index") {
        Some(index) => index,
        None => {
            return Err(f
                .cursor()
                .error("index", "the partition's index is absent or unreadable"));
        }
    };
    Ok(Partition {
        index,
        size: f.parsed("size", partition_size),
        filesystem: f.text("type"),
        mountpoint: f.text("mountpoint"),
        extra: f.unread(),
    })
}

/// `"*"` (the rest of the disk) or a number of megabytes (`"10240"`, or a number).
fn partition_size(text: &str) -> Result<PartitionSize, String> {
    if text.trim() == "*" {
        return Ok(PartitionSize::Remainder);
    }
    crate::read::text::integer(text)
        .ok()
        .and_then(|mb| u64::try_from(mb).ok())
        .map(PartitionSize::Megabytes)
        .ok_or_else(|| {
            format!(
                "expected a size in MB or `*`, found {}",
                crate::read::text::found(text)
            )
        })
}
