//! Installing an operating system: the install plan, its checks, its form encoding,
//! and the waiters that watch the installation (or rescue boot) finish.

use std::collections::HashSet;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};

use super::BareMetals;
use super::model::{BareMetalPasswords, InstallationState, InstallationStatus};
use crate::error::ApiError;
use crate::model::{BareMetalId, OperatingSystemId, RescueImageId};
use crate::wait::{Polled, WaitOptions, poll_until};
use crate::{Error, validate};

/// What to install on a bare metal server: an operating system, and optionally a
/// partition layout and software RAID.
///
/// ```
/// use hostapi::bare_metal::{InstallPartition, InstallRequest, PartitionLayout};
/// use hostapi::types::OperatingSystemId;
/// # fn main() -> Result<(), hostapi::Error> {
/// let plan = InstallRequest::new(OperatingSystemId::new("867")?)
///     .hdd(
///         PartitionLayout::new("/dev/sda")
///             .partition(InstallPartition::megabytes("ext2", 500).mountpoint("/boot"))
///             .partition(InstallPartition::megabytes("swap", 4096))
///             .partition(InstallPartition::rest("ext4").mountpoint("/"))
///             .bootable(0),
///     )
///     .raid(1, 2);
/// # let _ = plan;
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct InstallRequest {
    /// The operating system (see the catalogue of operating systems).
    pub os_id: OperatingSystemId,
    /// The partition layout; `None` lets the service choose.
    pub hdd: Option<PartitionLayout>,
    /// The software RAID level: 0, 1, 5, 6 or 10.
    pub raid_level: Option<u8>,
    /// The number of disks software RAID spans; required with (and only with) a RAID
    /// level: RAID 0 and 1 need at least 2, RAID 5 at least 3, RAID 6 at least 4, RAID
    /// 10 an even number of at least 4.
    pub number_disks: Option<u32>,
}

impl InstallRequest {
    /// Installs `os_id` with the service's default layout and no software RAID.
    pub fn new(os_id: OperatingSystemId) -> Self {
        Self {
            os_id,
            hdd: None,
            raid_level: None,
            number_disks: None,
        }
    }

    /// Uses this partition layout.
    pub fn hdd(mut self, layout: PartitionLayout) -> Self {
        self.hdd = Some(layout);
        self
    }

    /// Uses software RAID `level` over `disks` disks.
    pub fn raid(mut self, level: u8, disks: u32) -> Self {
        self.raid_level = Some(level);
        self.number_disks = Some(disks);
        self
    }
}

/// How to partition the disk an operating system is installed on.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct PartitionLayout {
    /// The disk's device path, e.g. `/dev/sda`.
    pub disk: String,
    /// The partitions, in order (the wire numbers them from 0).
    pub partitions: Vec<InstallPartition>,
    /// The index (from 0) of the bootable partition.
    pub bootable: usize,
}

impl PartitionLayout {
    /// An empty layout of `disk`, partition 0 bootable.
    pub fn new(disk: impl Into<String>) -> Self {
        Self {
            disk: disk.into(),
            partitions: Vec::new(),
            bootable: 0,
        }
    }

    /// Adds a partition after the others.
    pub fn partition(mut self, partition: InstallPartition) -> Self {
        self.partitions.push(partition);
        self
    }

    /// Makes partition `index` (from 0) the bootable one.
    pub fn bootable(mut self, index: usize) -> Self {
        self.bootable = index;
        self
    }
}

/// One partition of a [`PartitionLayout`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct InstallPartition {
    /// The filesystem type (`ext4`, `xfs`, `swap`…; the partition schema of an
    /// operating system lists those it takes).
    pub filesystem: String,
    /// The size.
    pub size: InstallPartitionSize,
    /// Where it is mounted: an absolute path, required for the root partition `/`;
    /// `None` for swap.
    pub mountpoint: Option<String>,
}

impl InstallPartition {
    /// A partition of `megabytes` MB.
    pub fn megabytes(filesystem: impl Into<String>, megabytes: u64) -> Self {
        Self {
            filesystem: filesystem.into(),
            size: InstallPartitionSize::Megabytes(megabytes),
            mountpoint: None,
        }
    }

    /// A partition taking the rest of the disk.
    pub fn rest(filesystem: impl Into<String>) -> Self {
        Self {
            filesystem: filesystem.into(),
            size: InstallPartitionSize::Remainder,
            mountpoint: None,
        }
    }

    /// Mounts it at `path`.
    pub fn mountpoint(mut self, path: impl Into<String>) -> Self {
        self.mountpoint = Some(path.into());
        self
    }
}

/// The size of a partition to install.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum InstallPartitionSize {
    /// This many megabytes (more than 0).
    Megabytes(u64),
    /// What is left of the disk (`*` on the wire); at most one partition.
    Remainder,
}

impl fmt::Display for InstallPartitionSize {
    /// The wire form: the number of MB, or `*`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Megabytes(mb) => write!(f, "{mb}"),
            Self::Remainder => f.write_str("*"),
        }
    }
}

/// The software RAID levels the service offers.
const RAID_LEVELS: [u8; 5] = [0, 1, 5, 6, 10];

/// Checks an install plan before it is sent. Returns the operating system id as the
/// integer the form takes.
pub(crate) fn validate_request(request: &InstallRequest) -> Result<i64, Error> {
    let os_id = validate::integer_id("os_id", request.os_id.as_str())?;
    if let Some(layout) = &request.hdd {
        validate_layout(layout)?;
    }
    match (request.raid_level, request.number_disks) {
        (None, None) => {}
        (None, Some(_)) => {
            return Err(Error::invalid(
                "number_disks",
                "is only meaningful with a raid_level",
            ));
        }
        (Some(level), None) => {
            validate_raid_level(level)?;
            return Err(Error::invalid(
                "number_disks",
                format!("is required with raid_level {level}: how many disks RAID spans"),
            ));
        }
        (Some(level), Some(disks)) => {
            validate_raid_level(level)?;
            let minimum = match level {
                0 | 1 => 2,
                5 => 3,
                _ => 4,
            };
            if disks < minimum {
                return Err(Error::invalid(
                    "number_disks",
                    format!("RAID {level} needs at least {minimum} disks, not {disks}"),
                ));
            }
            if level == 10 && disks % 2 != 0 {
                return Err(Error::invalid(
                    "number_disks",
                    format!("RAID 10 needs an even number of disks, not {disks}"),
                ));
            }
        }
    }
    Ok(os_id)
}

fn validate_raid_level(level: u8) -> Result<(), Error> {
    if RAID_LEVELS.contains(&level) {
        Ok(())
    } else {
        Err(Error::invalid(
            "raid_level",
            format!("{level} is not a software RAID level the service offers (0, 1, 5, 6, 10)"),
        ))
    }
}

/// A filesystem type is one word: letters, digits and `_`/`-`/`.`.
fn is_filesystem_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

fn validate_layout(layout: &PartitionLayout) -> Result<(), Error> {
    let disk = layout.disk.trim();
    if disk.is_empty() {
        return Err(Error::invalid("hdd.disk", "is empty"));
    }
    if !disk.starts_with('/') || disk.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(Error::invalid(
            "hdd.disk",
            format!(
                "`{}` is not a device path like /dev/sda",
                layout.disk.escape_debug()
            ),
        ));
    }
    if layout.partitions.is_empty() {
        return Err(Error::invalid(
            "hdd.partitions",
            "has no partitions; a root partition (/) is required",
        ));
    }
    let mut mountpoints = HashSet::new();
    let mut remainder: Option<usize> = None;
    for (index, partition) in layout.partitions.iter().enumerate() {
        let argument = |field: &str| format!("hdd.partitions[{index}].{field}");
        let filesystem = partition.filesystem.trim();
        if !is_filesystem_name(filesystem) {
            return Err(Error::invalid(
                argument("filesystem"),
                format!(
                    "`{}` is not a filesystem type like ext4 or swap",
                    partition.filesystem.escape_debug()
                ),
            ));
        }
        match partition.size {
            InstallPartitionSize::Megabytes(0) => {
                return Err(Error::invalid(argument("size"), "must be more than 0 MB"));
            }
            InstallPartitionSize::Megabytes(_) => {}
            InstallPartitionSize::Remainder => {
                if let Some(first) = remainder {
                    return Err(Error::invalid(
                        argument("size"),
                        format!(
                            "only one partition can take the rest of the disk; partition {first} already does"
                        ),
                    ));
                }
                remainder = Some(index);
            }
        }
        let swap = filesystem.eq_ignore_ascii_case("swap");
        match partition.mountpoint.as_deref().map(str::trim) {
            None | Some("") => {}
            Some(_) if swap => {
                return Err(Error::invalid(
                    argument("mountpoint"),
                    "a swap partition has no mountpoint",
                ));
            }
            Some(path) => {
                if !path.starts_with('/')
                    || path.chars().any(|c| c.is_whitespace() || c.is_control())
                {
                    return Err(Error::invalid(
                        argument("mountpoint"),
                        format!("`{}` is not an absolute path", path.escape_debug()),
                    ));
                }
                let normalised = match path.trim_end_matches('/') {
                    "" => "/",
                    trimmed => trimmed,
                };
                if !mountpoints.insert(normalised.to_owned()) {
                    return Err(Error::invalid(
                        argument("mountpoint"),
                        format!("`{normalised}` is the mountpoint of an earlier partition too"),
                    ));
                }
            }
        }
    }
    if !mountpoints.contains("/") {
        return Err(Error::invalid(
            "hdd.partitions",
            "no partition is mounted at / (the root partition must have its mountpoint)",
        ));
    }
    let count = layout.partitions.len();
    match layout.partitions.get(layout.bootable) {
        None => Err(Error::invalid(
            "hdd.bootable",
            format!(
                "is {}, but the partitions are numbered 0 to {}",
                layout.bootable,
                count - 1
            ),
        )),
        Some(partition) if partition.filesystem.trim().eq_ignore_ascii_case("swap") => {
            Err(Error::invalid(
                "hdd.bootable",
                "a swap partition cannot be the bootable one",
            ))
        }
        Some(_) => Ok(()),
    }
}

/// The form of an install with a partition layout, in bracketed keys (quirk 10: the
/// docs do not show how `hdd` is encoded; this is the encoding OpenAPI calls
/// `deepObject` and PHP-style servers read): `osId`, `hdd[disk]`, `hdd[bootable]`,
/// `hdd[params][N][type]`, `hdd[params][N][size]`, `hdd[params][N][mountpoint]` (empty
/// for none), `raidLevel`, `numberDisks`. Keys and values are form-encoded, so the
/// brackets travel as `%5B`/`%5D`, as any form encoder sends them.
pub(crate) fn form_body(os_id: i64, request: &InstallRequest) -> String {
    let mut form = url::form_urlencoded::Serializer::new(String::new());
    form.append_pair("osId", &os_id.to_string());
    if let Some(layout) = &request.hdd {
        form.append_pair("hdd[disk]", layout.disk.trim());
        form.append_pair("hdd[bootable]", &layout.bootable.to_string());
        for (index, partition) in layout.partitions.iter().enumerate() {
            let key = |field: &str| format!("hdd[params][{index}][{field}]");
            form.append_pair(&key("type"), partition.filesystem.trim());
            form.append_pair(&key("size"), &partition.size.to_string());
            form.append_pair(
                &key("mountpoint"),
                partition.mountpoint.as_deref().map_or("", str::trim),
            );
        }
    }
    if let Some(level) = request.raid_level {
        form.append_pair("raidLevel", &level.to_string());
    }
    if let Some(disks) = request.number_disks {
        form.append_pair("numberDisks", &disks.to_string());
    }
    form.finish()
}

impl BareMetals {
    /// Installs an operating system (`POST /v1/bareMetals/{id}/install`). Everything on
    /// the server's disks is lost. The service answers at once; follow the installation
    /// with [`wait_installed`](Self::wait_installed), or use
    /// [`install_and_wait`](Self::install_and_wait).
    ///
    /// Checked before anything is sent ([`Error::InvalidInput`] naming the field, e.g.
    /// `hdd.partitions[2].size`): the operating system id is numeric; a layout has a
    /// device path, at least one partition, a partition mounted at `/`, sizes above 0
    /// MB, at most one partition taking the rest of the disk, absolute and distinct
    /// mountpoints (none for swap), and a bootable index that names a partition other
    /// than swap; `raid_level` is 0, 1, 5, 6 or 10, and `number_disks` comes with it and
    /// suits it (0 and 1: at least 2; 5: at least 3; 6: at least 4; 10: an even number,
    /// at least 4).
    ///
    /// Without a layout the generated client's flat form is sent (`osId`, `raidLevel`,
    /// `numberDisks`). With one, the body is written by hand, because the generated
    /// client cannot encode a nested form: `hdd` travels as bracketed keys,
    /// `hdd[disk]`, `hdd[bootable]`, `hdd[params][0][type]`, `hdd[params][0][size]` (MB,
    /// or `*` for the rest), `hdd[params][0][mountpoint]`: the documents do not show the
    /// encoding (quirk 10).
    pub async fn install(&self, id: &BareMetalId, request: &InstallRequest) -> Result<(), Error> {
        let os_id = validate_request(request)?;
        // Checked above: a level outside the spec's closed set never gets here.
        let raid_level = request
            .raid_level
            .map(|level| {
                hostapi_raw_infra::types::InstallBareMetalFormRaidLevel::try_from(i64::from(level))
                    .map_err(|e| Error::invalid("raid_level", e))
            })
            .transpose()?;
        let infra = self.handle.infra();
        let install = || {
            infra.install_bare_metal().bare_metal_id(id.as_str()).body(
                hostapi_raw_infra::types::InstallBareMetalForm {
                    os_id,
                    hdd: None,
                    raid_level: raid_level.clone(),
                    number_disks: request.number_disks.map(i64::from),
                },
            )
        };
        match &request.hdd {
            None => self.handle.call(install).await?,
            Some(_) => {
                let body = form_body(os_id, request);
                let nested_form = |request: &mut reqwest::Request| {
                    *request.body_mut() = Some(body.clone().into());
                };
                self.handle.call_changed(install, nested_form).await?
            }
        };
        Ok(())
    }

    /// Reads the installation status, installs, and waits for the installation to end
    /// (see [`wait_installed`](Self::wait_installed)).
    pub async fn install_and_wait(
        &self,
        id: &BareMetalId,
        request: &InstallRequest,
        options: &WaitOptions,
    ) -> Result<InstallationStatus, Error> {
        validate_request(request)?;
        let before = self.installation_status(id).await?;
        self.install(id, request).await?;
        self.wait_installed(id, &before, options).await
    }

    /// Waits for the installation started after `before` was read to end, and answers
    /// the status then.
    ///
    /// The installation is proven: the wait first sees the status leave `before`'s
    /// description (the service reports the installation), then accepts `Normal` (no
    /// installation running). A status that stays as it was, because the installation
    /// never began, ends the wait at the deadline, saying so. The status endpoint holds
    /// nothing else to prove an installation by, so one that begins and ends between
    /// two polls is not seen either: choose an interval shorter than an installation. A status code other than
    /// 1000 ends it with [`Error::Api`].
    pub async fn wait_installed(
        &self,
        id: &BareMetalId,
        before: &InstallationStatus,
        options: &WaitOptions,
    ) -> Result<InstallationStatus, Error> {
        let left = AtomicBool::new(!before.is_idle());
        poll_until(format!("installation of bare metal {id}"), options, || {
            let left = &left;
            async move {
                let (status, call) = self.installation_status_call(id).await?;
                check_code(&status, call)?;
                if status.description != before.description {
                    left.store(true, Ordering::Relaxed);
                }
                Ok(match (&status.description, left.load(Ordering::Relaxed)) {
                    (Some(InstallationState::Normal), true) => Polled::Done(status),
                    (Some(InstallationState::Normal), false) => {
                        Polled::Pending("normal (the installation has not begun)".to_owned())
                    }
                    (Some(state), _) => Polled::Pending(state.to_string()),
                    (None, _) => Polled::Unsure("no description".to_owned()),
                })
            }
        })
        .await
    }

    /// Boots the server into rescue mode with a rescue image (see the catalogue of
    /// rescue images). Calls the documented path `/rescueMode` (not the `/rescue` alias)
    /// with the form `osId=<image id>`; the image id must be numeric. Follow the boot
    /// with [`wait_rescue_ready`](Self::wait_rescue_ready), or use
    /// [`rescue_and_wait`](Self::rescue_and_wait).
    pub async fn rescue(&self, id: &BareMetalId, image: &RescueImageId) -> Result<(), Error> {
        let os_id = validate::integer_id("rescue_image_id", image.as_str())?;
        let infra = self.handle.infra();
        self.handle
            .call(|| {
                infra
                    .launch_bare_metal_rescue_mode()
                    .bare_metal_id(id.as_str())
                    .body(hostapi_raw_infra::types::LaunchRescueModeForm { os_id })
            })
            .await?;
        Ok(())
    }

    /// Reads the passwords, boots the rescue image, and waits for the new rescue mode
    /// password (see [`wait_rescue_ready`](Self::wait_rescue_ready)).
    pub async fn rescue_and_wait(
        &self,
        id: &BareMetalId,
        image: &RescueImageId,
        options: &WaitOptions,
    ) -> Result<BareMetalPasswords, Error> {
        validate::integer_id("rescue_image_id", image.as_str())?;
        let before = self.root_password(id).await?;
        self.rescue(id, image).await?;
        self.wait_rescue_ready(id, &before, options).await
    }

    /// Waits for the rescue boot started after `before` was read, and answers the
    /// passwords of that boot.
    ///
    /// The documents say the rescue password "is available or updated once rescue mode
    /// has launched": the wait accepts a rescue mode password that differs from
    /// `before`'s, so a previous boot's password is never taken for this one. Each poll
    /// also reads the installation status (which reports the rescue boot): a code other
    /// than 1000 ends the wait with [`Error::Api`].
    pub async fn wait_rescue_ready(
        &self,
        id: &BareMetalId,
        before: &BareMetalPasswords,
        options: &WaitOptions,
    ) -> Result<BareMetalPasswords, Error> {
        let previous = before.rescue_mode_password.clone();
        poll_until(format!("rescue mode of bare metal {id}"), options, || {
            let previous = &previous;
            async move {
                let (status, call) = self.installation_status_call(id).await?;
                check_code(&status, call)?;
                let passwords = self.root_password(id).await?;
                let fresh = passwords
                    .rescue_mode_password
                    .as_ref()
                    .is_some_and(|p| Some(p) != previous.as_ref());
                let state = status
                    .description
                    .as_ref()
                    .map_or_else(|| "no description".to_owned(), ToString::to_string);
                Ok(if fresh {
                    Polled::Done(passwords)
                } else {
                    Polled::Pending(format!("{state} (no new rescue password yet)"))
                })
            }
        })
        .await
    }
}

/// A status code other than the normal 1000 is the service's error.
fn check_code(status: &InstallationStatus, call: crate::CallInfo) -> Result<(), Error> {
    if status.is_error() {
        return Err(Error::Api(Box::new(ApiError {
            call: Some(call),
            code: status.code.unwrap_or_default(),
            detail: status.description.as_ref().map(ToString::to_string),
        })));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan() -> InstallRequest {
        InstallRequest::new(OperatingSystemId::new("867").unwrap()).hdd(
            PartitionLayout::new("/dev/sda")
                .partition(InstallPartition::megabytes("ext2", 500).mountpoint("/boot"))
                .partition(InstallPartition::megabytes("swap", 4096))
                .partition(InstallPartition::rest("ext4").mountpoint("/")),
        )
    }

    fn refused(request: &InstallRequest) -> (String, String) {
        match validate_request(request).unwrap_err() {
            Error::InvalidInput { argument, reason } => (argument, reason),
            other => panic!("{other}"),
        }
    }

    #[test]
    fn a_sound_plan_passes_and_encodes_in_bracketed_keys() {
        let request = plan().raid(1, 2);
        assert_eq!(validate_request(&request).unwrap(), 867);
        let body = form_body(867, &request);
        let pairs: Vec<(String, String)> = url::form_urlencoded::parse(body.as_bytes())
            .map(|(k, v)| (k.into_owned(), v.into_owned()))
            .collect();
        let expected = [
            ("osId", "867"),
            ("hdd[disk]", "/dev/sda"),
            ("hdd[bootable]", "0"),
            ("hdd[params][0][type]", "ext2"),
            ("hdd[params][0][size]", "500"),
            ("hdd[params][0][mountpoint]", "/boot"),
            ("hdd[params][1][type]", "swap"),
            ("hdd[params][1][size]", "4096"),
            ("hdd[params][1][mountpoint]", ""),
            ("hdd[params][2][type]", "ext4"),
            ("hdd[params][2][size]", "*"),
            ("hdd[params][2][mountpoint]", "/"),
            ("raidLevel", "1"),
            ("numberDisks", "2"),
        ];
        let expected: Vec<(String, String)> = expected
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        assert_eq!(pairs, expected);
    }

    #[test]
    fn each_rule_names_its_argument() {
        let mut no_root = plan();
        no_root.hdd.as_mut().unwrap().partitions[2].mountpoint = Some("/srv".into());
        assert_eq!(refused(&no_root).0, "hdd.partitions");

        let mut zero = plan();
        zero.hdd.as_mut().unwrap().partitions[0].size = InstallPartitionSize::Megabytes(0);
        assert_eq!(refused(&zero).0, "hdd.partitions[0].size");

        let mut two_rests = plan();
        two_rests.hdd.as_mut().unwrap().partitions[0].size = InstallPartitionSize::Remainder;
        assert_eq!(refused(&two_rests).0, "hdd.partitions[2].size");

        let mut relative = plan();
        relative.hdd.as_mut().unwrap().partitions[0].mountpoint = Some("boot".into());
        assert_eq!(refused(&relative).0, "hdd.partitions[0].mountpoint");

        let mut twice = plan();
        twice.hdd.as_mut().unwrap().partitions[0].mountpoint = Some("/".into());
        assert_eq!(refused(&twice).0, "hdd.partitions[2].mountpoint");

        let mut mounted_swap = plan();
        mounted_swap.hdd.as_mut().unwrap().partitions[1].mountpoint = Some("/swap".into());
        assert_eq!(refused(&mounted_swap).0, "hdd.partitions[1].mountpoint");

        let mut bad_fs = plan();
        bad_fs.hdd.as_mut().unwrap().partitions[1].filesystem = " ".into();
        assert_eq!(refused(&bad_fs).0, "hdd.partitions[1].filesystem");

        let mut out_of_range = plan();
        out_of_range.hdd.as_mut().unwrap().bootable = 3;
        assert_eq!(refused(&out_of_range).0, "hdd.bootable");

        let mut swap_boot = plan();
        swap_boot.hdd.as_mut().unwrap().bootable = 1;
        assert_eq!(refused(&swap_boot).0, "hdd.bootable");

        let mut no_disk = plan();
        no_disk.hdd.as_mut().unwrap().disk = "sda".into();
        assert_eq!(refused(&no_disk).0, "hdd.disk");

        let mut empty = plan();
        empty.hdd.as_mut().unwrap().partitions.clear();
        assert_eq!(refused(&empty).0, "hdd.partitions");

        // An operating system id is a number by its rule: one that is not cannot be
        // made.
        assert!(OperatingSystemId::new("ubuntu").is_err());
    }

    #[test]
    fn raid_levels_and_disk_counts() {
        let base = InstallRequest::new(OperatingSystemId::new("1").unwrap());
        for (level, disks) in [(0, 2), (1, 2), (5, 3), (6, 4), (10, 4), (10, 6)] {
            assert!(
                validate_request(&base.clone().raid(level, disks)).is_ok(),
                "{level}/{disks}"
            );
        }
        for (level, disks, argument) in [
            (2, 2, "raid_level"),
            (0, 1, "number_disks"),
            (1, 1, "number_disks"),
            (5, 2, "number_disks"),
            (6, 3, "number_disks"),
            (10, 5, "number_disks"),
            (10, 2, "number_disks"),
        ] {
            assert_eq!(
                refused(&base.clone().raid(level, disks)).0,
                argument,
                "{level}/{disks}"
            );
        }
        let mut disks_only = base.clone();
        disks_only.number_disks = Some(2);
        assert_eq!(refused(&disks_only).0, "number_disks");
        let mut level_only = base;
        level_only.raid_level = Some(1);
        assert_eq!(refused(&level_only).0, "number_disks");
    }
}
