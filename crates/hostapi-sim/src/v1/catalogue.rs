//! Catalogues: operating systems, control panels, rescue images,
//! partition schemas and services.

use super::*;
use crate::v1::bare_metal::{bm_facts, bm_index};
use crate::v1::domains::domain_name;
use crate::v1::racks::rack_facts;
use crate::v1::virtual_servers::vs_name;

// ------------------------------------------------------------------ data

/// Operating systems: (id, name, BSD family).
pub(crate) const OPERATING_SYSTEMS: &[(u64, &str, bool)] = &[
    (9, "CentOS 7 (x86_64)", false),
    (135, "Debian 10 (amd64)", false),
    (178, "Debian 11 (amd64)", false),
    (205, "Debian 12 (amd64)", false),
    (180, "Ubuntu 20.04 LTS (amd64)", false),
    (201, "Ubuntu 22.04 LTS (amd64)", false),
    (230, "Ubuntu 24.04 LTS (amd64)", false),
    (190, "AlmaLinux 8 (x86_64)", false),
    (210, "AlmaLinux 9 (x86_64)", false),
    (211, "Rocky Linux 9 (x86_64)", false),
    (176, "FreeBSD 13 (amd64)", true),
    (231, "FreeBSD 14 (amd64)", true),
];

pub(crate) const CONTROL_PANELS: &[(u64, &str)] = &[
    (1, "cPanel"),
    (2, "Plesk Obsidian"),
    (3, "DirectAdmin"),
    (4, "Webmin"),
];

pub(crate) const RESCUE_IMAGES: &[(u64, &str)] = &[
    (121, "GRML Linux Rescue (amd64)"),
    (122, "FreeBSD Rescue (amd64)"),
    (123, "GRML Linux Rescue (x86)"),
    (124, "Debian Live Rescue (amd64)"),
];

pub(crate) const LINUX_FS: &[&str] = &["ext2", "ext3", "ext4", "xfs", "swap"];

pub(crate) const BSD_FS: &[&str] = &["ufs", "zfs", "swap"];

pub(crate) fn control_panels_of(os: u64) -> &'static [(u64, &'static str)] {
    match os {
        176 | 231 => &[],
        9 | 190 | 210 | 211 => CONTROL_PANELS,
        _ => &CONTROL_PANELS[1..],
    }
}

pub(crate) fn os_entry(id: u64) -> Option<&'static (u64, &'static str, bool)> {
    OPERATING_SYSTEMS.iter().find(|o| o.0 == id)
}

pub(crate) fn os_or_404(os: &str) -> Result<&'static (u64, &'static str, bool), ApiError> {
    parse_u64(os)
        .and_then(os_entry)
        .ok_or_else(|| ApiError::not_found(format!("operating system {os} not found")))
}

// -------------------------------------------------------------- handlers

pub(crate) fn rescue_images() -> Response {
    let v: Vec<Value> = RESCUE_IMAGES
        .iter()
        .map(|(id, n)| json!({"rescueImage": {"id": id, "name": n}}))
        .collect();
    ok(&json!({"rescueImages": v}))
}

pub(crate) fn operating_systems() -> Response {
    let v: Vec<Value> = OPERATING_SYSTEMS
        .iter()
        .map(|(id, n, _)| json!({"operatingSystem": {"id": id, "name": n}}))
        .collect();
    ok(&json!({"operatingSystems": v}))
}

pub(crate) fn operating_system(os: &str) -> Result<Response, ApiError> {
    let o = os_or_404(os)?;
    Ok(ok(&json!({"operatingSystem": {"id": o.0, "name": o.1}})))
}

pub(crate) fn control_panels(os: &str, cp: Option<&str>) -> Result<Response, ApiError> {
    let o = os_or_404(os)?;
    let panels = control_panels_of(o.0);
    match cp {
        None => {
            let v: Vec<Value> = panels
                .iter()
                .map(|(id, n)| json!({"controlPanel": {"id": id, "name": n}}))
                .collect();
            Ok(ok(&json!({"controlPanels": v})))
        }
        Some(cp) => parse_u64(cp)
            .and_then(|c| panels.iter().find(|p| p.0 == c))
            .map(|(id, n)| ok(&json!({"controlPanel": {"id": id, "name": n}})))
            .ok_or_else(|| {
                ApiError::not_found(format!("control panel {cp} not found for {}", o.1))
            }),
    }
}

pub(crate) fn partition_schema(cx: &Cx<'_>, req: &Req, os: &str) -> Result<Response, ApiError> {
    let o = os_or_404(os)?;
    let pack = match req.q("serverPackId") {
        None | Some("") => return Err(ApiError::bad_field("serverPackId", "is required")),
        Some(p) => p,
    };
    if parse_u64(pack).is_none() {
        return Err(ApiError::bad_field("serverPackId", "must be an integer"));
    }
    let i = bm_index(cx, pack)?;
    let bm = bm_facts(cx.ds(), i);
    let disks: Vec<String> = (0..bm.disk_count())
        .map(|d| format!("/dev/sd{}", (b'a' + d as u8) as char))
        .collect();
    let (fs, root_fs) = if o.2 {
        (BSD_FS, "ufs")
    } else {
        (LINUX_FS, "ext4")
    };
    let boot_fs = if o.2 { "ufs" } else { "ext2" };
    Ok(ok(&json!({"partitionSchema": {
        "limit": 4,
        "disks": {"disk": disks},
        "suggestion": {
            "disk": "/dev/sda",
            "bootable": 0,
            "hdd": {"partition": [
                {"index": 0, "size": "500", "type": boot_fs, "mountpoint": "/boot"},
                {"index": 1, "size": "4096", "type": "swap", "mountpoint": ""},
                {"index": 2, "size": "*", "type": root_fs, "mountpoint": "/"},
            ]},
        },
        "filesystemTypes": {"type": fs},
    }})))
}

pub(crate) fn services(cx: &Cx<'_>) -> Result<Response, ApiError> {
    let seed = cx.seed();
    let ds = cx.ds();
    let bms = (0..ds.bare_metals).map(move |i| {
        let b = bm_facts(ds, i);
        json!({
            "id": b.id.to_string(), "type": "BARE_METAL", "name": b.name,
            "status": "ACTIVE", "monthlyPrice": format!("{}.{:02}", b.price_cents / 100, b.price_cents % 100),
            "startDate": fmt_local(b.start),
        })
    });
    let racks = (0..ds.racks).map(move |i| {
        let k = rack_facts(seed, i);
        json!({
            "id": k.id.to_string(), "type": "PRIVATE_RACK", "name": k.name,
            "status": "ACTIVE", "startDate": fmt_local(k.start),
        })
    });
    let domains = (0..ds.domains).map(|i| {
        json!({
            "id": domain_name(i), "type": "DOMAIN", "name": domain_name(i),
            "status": if i % 13 == 12 { "PENDING" } else { "ACTIVE" },
        })
    });
    let vss = (0..ds.v1_vs).map(|i| {
        json!({
            "id": (VS_BASE + 1 + i as u64).to_string(), "type": "VIRTUAL_SERVER",
            "name": vs_name(i), "status": "ACTIVE",
        })
    });
    let total = ds.bare_metals + ds.racks + ds.domains + ds.v1_vs;
    Ok(util::ok_list(
        r#"{"services":["#,
        bms.chain(racks).chain(domains).chain(vss),
        &format!(r#"],"totalCount":{total}}}"#),
    ))
}
