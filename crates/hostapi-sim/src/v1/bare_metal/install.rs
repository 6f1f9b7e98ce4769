//! Bare metal installation and rescue mode: the install form's validation,
//! the tasks they start, installation status and root password.

use super::*;
use crate::v1::catalogue::{BSD_FS, LINUX_FS, RESCUE_IMAGES, os_entry};

// ------------------------------------------------------------------ data

/// A parsed partition.
#[derive(Default, Clone)]
pub(crate) struct Part {
    pub(crate) fs: Option<String>,
    pub(crate) size: Option<String>,
    pub(crate) mountpoint: Option<String>,
}

/// Validate the install form as a real service would.
pub(crate) fn validate_install(form: &Form, bm: &Bm) -> Result<u64, ApiError> {
    let os_s = form.required("osId")?;
    let os_id =
        parse_u64(os_s.trim()).ok_or_else(|| ApiError::bad_field("osId", "must be an integer"))?;
    let os = os_entry(os_id)
        .ok_or_else(|| ApiError::bad_field("osId", "is not a known operating system"))?;
    let fs_types = if os.2 { BSD_FS } else { LINUX_FS };

    let mut disk: Option<String> = None;
    let mut bootable: Option<String> = None;
    let mut parts: BTreeMap<usize, Part> = BTreeMap::new();
    let mut any_hdd = false;
    for (k, v) in &form.0 {
        let Some(rest) = k.strip_prefix("hdd") else {
            continue;
        };
        any_hdd = true;
        match rest {
            "[disk]" => disk = Some(v.clone()),
            "[bootable]" => bootable = Some(v.clone()),
            _ => {
                let Some(p) = rest.strip_prefix("[params][") else {
                    return Err(ApiError::bad_field(k, "unknown hdd field"));
                };
                let Some((idx, field)) = p.split_once("][") else {
                    return Err(ApiError::bad_field(k, "unknown hdd field"));
                };
                let idx: usize = parse_u64(idx)
                    .filter(|n| *n < 64)
                    .ok_or_else(|| ApiError::bad_field(k, "partition index must be 0–63"))?
                    as usize;
                let part = parts.entry(idx).or_default();
                match field {
                    "type]" => part.fs = Some(v.clone()),
                    "size]" => part.size = Some(v.clone()),
                    "mountpoint]" => part.mountpoint = Some(v.clone()),
                    _ => return Err(ApiError::bad_field(k, "unknown partition field")),
                }
            }
        }
    }
    let disk_names: Vec<String> = (0..bm.disk_count())
        .map(|d| format!("/dev/sd{}", (b'a' + d as u8) as char))
        .collect();
    if any_hdd {
        let disk = disk.ok_or_else(|| ApiError::bad_field("hdd[disk]", "is required"))?;
        if !disk_names.contains(&disk) {
            return Err(ApiError::bad_field(
                "hdd[disk]",
                &format!("must be one of {}", disk_names.join(", ")),
            ));
        }
        if parts.is_empty() {
            return Err(ApiError::bad_field(
                "hdd[params]",
                "at least one partition is required",
            ));
        }
        let count = parts.len();
        if parts.keys().copied().ne(0..count) {
            return Err(ApiError::bad_field(
                "hdd[params]",
                "partitions must be indexed from 0 without gaps",
            ));
        }
        let mut stars = 0;
        let mut root = false;
        let mut mounts: Vec<String> = Vec::new();
        for (idx, p) in &parts {
            let f = |n: &str| format!("hdd[params][{idx}][{n}]");
            let fs =
                p.fs.as_deref()
                    .ok_or_else(|| ApiError::bad_field(&f("type"), "is required"))?;
            if !fs_types.contains(&fs) {
                return Err(ApiError::bad_field(
                    &f("type"),
                    &format!("must be one of {}", fs_types.join(", ")),
                ));
            }
            let size = p
                .size
                .as_deref()
                .ok_or_else(|| ApiError::bad_field(&f("size"), "is required"))?;
            if size == "*" {
                stars += 1;
                if stars > 1 {
                    return Err(ApiError::bad_field(
                        &f("size"),
                        "only one partition may take the rest of the disk (*)",
                    ));
                }
            } else if parse_u64(size).filter(|n| *n > 0).is_none() {
                return Err(ApiError::bad_field(
                    &f("size"),
                    "must be a positive integer (MB) or *",
                ));
            }
            let mp = p.mountpoint.as_deref().unwrap_or("");
            if fs == "swap" {
                if !mp.is_empty() {
                    return Err(ApiError::bad_field(
                        &f("mountpoint"),
                        "must be empty for swap",
                    ));
                }
            } else {
                if !mp.starts_with('/') {
                    return Err(ApiError::bad_field(
                        &f("mountpoint"),
                        "is required and must start with /",
                    ));
                }
                if mounts.iter().any(|m| m == mp) {
                    return Err(ApiError::bad_field(&f("mountpoint"), "is used twice"));
                }
                if mp == "/" {
                    root = true;
                }
                mounts.push(mp.to_string());
            }
        }
        if !root {
            return Err(ApiError::bad_field(
                "hdd[params]",
                "a partition with mountpoint / (root) is required",
            ));
        }
        let b = bootable.ok_or_else(|| ApiError::bad_field("hdd[bootable]", "is required"))?;
        let b = parse_u64(&b)
            .ok_or_else(|| ApiError::bad_field("hdd[bootable]", "must be an integer"))?;
        if b as usize >= count {
            return Err(ApiError::bad_field(
                "hdd[bootable]",
                &format!("must be a partition index (0–{})", count - 1),
            ));
        }
        if parts.get(&(b as usize)).and_then(|p| p.fs.as_deref()) == Some("swap") {
            return Err(ApiError::bad_field(
                "hdd[bootable]",
                "a swap partition cannot boot",
            ));
        }
    }
    let raid = form.opt_int("raidLevel")?;
    let disks = form.opt_int("numberDisks")?;
    match (raid, disks) {
        (None, None) => {}
        (None, Some(_)) => {
            return Err(ApiError::bad_field(
                "raidLevel",
                "is required with numberDisks",
            ));
        }
        (Some(_), None) => {
            return Err(ApiError::bad_field(
                "numberDisks",
                "is required with raidLevel",
            ));
        }
        (Some(level), Some(n)) => {
            let min = match level {
                0 | 1 => 2,
                5 => 3,
                6 | 10 => 4,
                _ => {
                    return Err(ApiError::bad_field(
                        "raidLevel",
                        "must be one of 0, 1, 5, 6, 10",
                    ));
                }
            };
            if n < min {
                return Err(ApiError::bad_field(
                    "numberDisks",
                    &format!("RAID {level} needs at least {min} disks"),
                ));
            }
            if level == 10 && n % 2 != 0 {
                return Err(ApiError::bad_field(
                    "numberDisks",
                    "RAID 10 needs an even number of disks",
                ));
            }
            if n as u64 > bm.disk_count() {
                return Err(ApiError::bad_field(
                    "numberDisks",
                    &format!("the server has {} disks", bm.disk_count()),
                ));
            }
        }
    }
    Ok(os_id)
}

// -------------------------------------------------------------- handlers

pub(crate) fn install(cx: &Cx<'_>, req: &Req, id: &str) -> Result<Response, ApiError> {
    let i = bm_index(cx, id)?;
    let bm = bm_facts(cx.ds(), i);
    let form = req.form()?;
    let os_id = validate_install(&form, &bm)?;
    let mut st = cx.state();
    busy(&st, i, cx.now)?;
    let o = st.bare_metals.entry(i).or_default();
    o.task = Some(BmTask {
        rescue: false,
        until: cx.now + crate::INSTALL_SECS,
    });
    o.installs += 1;
    o.os_id = Some(os_id);
    o.in_rescue = false;
    cx.log(&mut st, format!("bareMetal {} install os {os_id}", bm.id));
    Ok(empty(StatusCode::OK))
}

pub(crate) fn rescue(cx: &Cx<'_>, req: &Req, id: &str) -> Result<Response, ApiError> {
    let i = bm_index(cx, id)?;
    let form = req.form()?;
    let os_s = form.required("osId")?;
    let os_id =
        parse_u64(os_s.trim()).ok_or_else(|| ApiError::bad_field("osId", "must be an integer"))?;
    if !RESCUE_IMAGES.iter().any(|r| r.0 == os_id) {
        return Err(ApiError::bad_field("osId", "is not a rescue image"));
    }
    let mut st = cx.state();
    busy(&st, i, cx.now)?;
    let o = st.bare_metals.entry(i).or_default();
    o.task = Some(BmTask {
        rescue: true,
        until: cx.now + crate::RESCUE_SECS,
    });
    o.rescues += 1;
    o.in_rescue = true;
    cx.log(&mut st, format!("bareMetal {id} rescueMode {os_id}"));
    Ok(empty(StatusCode::OK))
}

pub(crate) fn installation_status(cx: &Cx<'_>, id: &str) -> Result<Response, ApiError> {
    let i = bm_index(cx, id)?;
    let bm = bm_facts(cx.ds(), i);
    let st = cx.state();
    let var = cx.var();
    let o = st.bare_metals.get(&i);
    // A server may start in an error state (code other than 1000, which the
    // docs say means an error); the next install or rescue clears it.
    let never_tasked = o.and_then(|o| o.task.as_ref()).is_none();
    let (code, desc) = match task_running(o, cx.now) {
        Some(t) if t.rescue => (1000, "Rescue mode booting"),
        Some(_) => (1000, "Installing"),
        None if never_tasked && var.is(&q::BM_STATUS_CODE, i as u64, "error") => {
            (INSTALL_ERROR_CODE, "Installation failed")
        }
        None => (1000, "Normal"),
    };
    // The name as sent (`serverName`) or as documented (`serverPackName`).
    let name_key = var.name(&q::BM_STATUS_NAME, i as u64);
    Ok(ok(&json!({"installationStatus": {
        "code": code,
        "description": desc,
        "serverPackId": id_spelt(var, &q::BM_PACK_ID_STATUS, i, bm.id),
        name_key: bm.name,
    }})))
}

pub(crate) fn root_password(cx: &Cx<'_>, id: &str) -> Result<Response, ApiError> {
    let i = bm_index(cx, id)?;
    let st = cx.state();
    let o = st.bare_metals.get(&i);
    let installs = o.map(|o| o.installs).unwrap_or(0);
    let running = task_running(o, cx.now).cloned();
    let rescues_done = o.map(|o| o.rescues).unwrap_or(0)
        - u32::from(running.as_ref().map(|t| t.rescue).unwrap_or(false));
    let mut r = rng(
        cx.seed(),
        kind::PASSWORD,
        (i as u64) << 20 | u64::from(installs),
    );
    let root = util::password(&mut r, 14);
    let rescue_pw = if rescues_done == 0 {
        String::new()
    } else {
        let mut r = rng(
            cx.seed(),
            kind::PASSWORD,
            (i as u64) << 20 | 1 << 19 | u64::from(rescues_done),
        );
        util::password(&mut r, 12)
    };
    // The key as sent (`rootPassword`) or as documented (`rootpassword`).
    let key = cx.var().name(&q::BM_ROOT_PASSWORD_KEY, i as u64);
    Ok(ok(&json!({key: root, "rescueModePassword": rescue_pw})))
}
