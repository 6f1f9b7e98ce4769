//! The CDN: origins (matched by label) and the access control list, as configuration.
//!
//! The file (YAML or TOML):
//!
//! ```yaml
//! origins:
//!   - label: www                        # the origin's name: how origins are matched
//!     url: https://www.example.com
//!     type: simple                      # or s3 (then s3_bucket_name)
//!     refresh_every_seconds: 3600
//!     ignore_cache_control: false
//!     proxy_header_host: www.example.com
//!     cache_key: default
//! acl:                                  # optional; when given, the whole ACL
//!   content: { post: true, get: true, delete: false }
//!   search: { get: true }
//!   stats: { get: true }
//!   logs: { get: false }
//!   origins: { put: true, post: true, get: true, delete: false }
//!   customers: { post: false, get: true, delete: false }
//!   zones: { post: false, get: true, delete: false }
//!   ftplog: { post: false, get: false, delete: false }
//! ```
//!
//! An origin field left out is not managed. A permission left out of a given ACL is
//! `false` (the service reads it so too). `basic_auth_user`, `basic_auth_password` and
//! `headers_origin` may be given; the two secrets are never exported.
//!
//! Labels name origins, so in a file two origins without an id never share a label; an
//! origin may carry the service's `id:`, and is then matched by its id (its label may
//! then change, and may be shared). The service itself does not keep labels unique: an export
//! writes the `id` of every origin whose label another origin shares, and a plan
//! refuses a file origin without an id whose label several origins on the service
//! carry, naming their ids.

use std::path::Path;

use futures::StreamExt;
use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize};

use super::records_file::{emit, parse};
use super::{
    Action, ApplyOptions, ApplyProgress, ApplyReport, Change, ChangeReport, DEFAULT_MAX_FILE_BYTES,
    FileError, FileFormat, Outcome, SyncError, read_text_file,
};
use hostapi::bulk::bulk;
use hostapi::cdn::{
    Acl, AclOriginsSection, AclReadSection, AclSection, NewOrigin, Origin, OriginType,
    OriginUpdate, Origins,
};
use hostapi::types::OriginId;
use hostapi::{Client, Confirmation, Error, Secret};

/// An origin as configuration. Fields left `None` are not managed (a plan leaves them
/// as the service has them).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[non_exhaustive]
pub struct OriginConfig {
    /// The service's id (`None` for an origin from a file).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<OriginId>,
    /// The origin's label: how origins are matched.
    pub label: String,
    /// The source URL.
    pub url: String,
    /// Simple or S3.
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub origin_type: Option<OriginType>,
    /// The bucket, for S3 origins.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub s3_bucket_name: Option<String>,
    /// How often the CDN refreshes from the origin, in seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refresh_every_seconds: Option<u64>,
    /// Whether the origin's cache-control values are ignored.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ignore_cache_control: Option<bool>,
    /// The `Host` header sent to the origin.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proxy_header_host: Option<String>,
    /// The cache key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache_key: Option<String>,
    /// The basic auth user.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub basic_auth_user: Option<String>,
    /// The basic auth password (never exported).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub basic_auth_password: Option<Secret>,
    /// Headers added to requests to the origin (never exported).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub headers_origin: Option<Secret>,
}

impl OriginConfig {
    /// An origin of `label` fetching from `url`, nothing else managed.
    pub fn new(label: impl Into<String>, url: impl Into<String>) -> Self {
        Self {
            id: None,
            label: label.into(),
            url: url.into(),
            origin_type: None,
            s3_bucket_name: None,
            refresh_every_seconds: None,
            ignore_cache_control: None,
            proxy_header_host: None,
            cache_key: None,
            basic_auth_user: None,
            basic_auth_password: None,
            headers_origin: None,
        }
    }

    /// The origin as the service holds it; `None` without a label or URL (it cannot
    /// be matched or written back).
    pub fn from_origin(origin: &Origin) -> Option<Self> {
        Some(Self {
            id: Some(origin.id.clone()),
            label: origin.label.clone()?,
            url: origin.url.clone()?,
            origin_type: origin.origin_type.clone(),
            s3_bucket_name: origin.s3_bucket_name.clone(),
            refresh_every_seconds: origin.refresh_every_seconds,
            ignore_cache_control: origin.ignore_cache_control,
            proxy_header_host: origin.proxy_header_host.clone(),
            cache_key: origin.cache_key.clone(),
            basic_auth_user: origin.basic_auth_user.clone(),
            basic_auth_password: origin.basic_auth_password.clone(),
            headers_origin: origin.headers_origin.clone(),
        })
    }

    /// What must be sent to make `current` hold this configuration (only the fields
    /// this one manages and that differ).
    fn update_from(&self, current: &Self) -> OriginUpdate {
        fn differs<T: PartialEq + Clone>(wanted: &Option<T>, have: &Option<T>) -> Option<T> {
            wanted
                .as_ref()
                .filter(|w| Some(*w) != have.as_ref())
                .cloned()
        }
        let mut update = OriginUpdate::new();
        if self.label.trim() != current.label.trim() {
            update.label = Some(self.label.trim().to_owned());
        }
        if self.url.trim() != current.url.trim() {
            update.url = Some(self.url.trim().to_owned());
        }
        update.origin_type = differs(&self.origin_type, &current.origin_type);
        update.s3_bucket_name = differs(&self.s3_bucket_name, &current.s3_bucket_name);
        update.refresh_every_seconds =
            differs(&self.refresh_every_seconds, &current.refresh_every_seconds);
        update.ignore_cache_control =
            differs(&self.ignore_cache_control, &current.ignore_cache_control);
        update.proxy_header_host = differs(&self.proxy_header_host, &current.proxy_header_host);
        update.cache_key = differs(&self.cache_key, &current.cache_key);
        update.basic_auth_user = differs(&self.basic_auth_user, &current.basic_auth_user);
        update.basic_auth_password =
            differs(&self.basic_auth_password, &current.basic_auth_password);
        update.headers_origin = differs(&self.headers_origin, &current.headers_origin);
        update
    }

    fn as_new(&self) -> NewOrigin {
        let mut new = NewOrigin::new(self.label.clone(), self.url.trim());
        new.origin_type.clone_from(&self.origin_type);
        new.s3_bucket_name.clone_from(&self.s3_bucket_name);
        new.refresh_every_seconds = self.refresh_every_seconds;
        new.ignore_cache_control = self.ignore_cache_control;
        new.proxy_header_host.clone_from(&self.proxy_header_host);
        new.cache_key.clone_from(&self.cache_key);
        new.basic_auth_user.clone_from(&self.basic_auth_user);
        new.basic_auth_password
            .clone_from(&self.basic_auth_password);
        new.headers_origin.clone_from(&self.headers_origin);
        new
    }
}

/// An ACL's permissions, without the sections and permissions the docs do not name
/// (those are kept as the service has them).
fn acl_permissions(acl: &Acl) -> Acl {
    let mut plain = acl.clone();
    plain.extra.clear();
    for section in [
        &mut plain.content,
        &mut plain.customers,
        &mut plain.zones,
        &mut plain.ftplog,
    ] {
        section.extra.clear();
    }
    for section in [&mut plain.search, &mut plain.stats, &mut plain.logs] {
        section.extra.clear();
    }
    plain.origins.extra.clear();
    plain
}

/// One thing a CDN plan changes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CdnItem {
    /// An origin.
    Origin(OriginConfig),
    /// The access control list.
    Acl(Acl),
}

impl CdnItem {
    /// The item in words: `origin www https://…`, `acl allows [content.get …]`.
    pub fn describe(&self) -> String {
        match self {
            Self::Origin(origin) => format!("origin {} {}", origin.label, origin.url),
            Self::Acl(acl) => format!("acl allows [{}]", allowed(acl).join(" ")),
        }
    }

    /// A change from `self` to `after` in words, naming only what changes:
    /// `origin api: refresh_every_seconds 86400 -> 3600` (the file's field names;
    /// secrets are said to change, never shown), `acl: + content.delete, - customers.get`.
    pub fn describe_change(&self, after: &Self) -> String {
        match (self, after) {
            (Self::Origin(before), Self::Origin(after)) => {
                let fields = origin_changes(before, after);
                if fields.is_empty() {
                    format!("origin {}: no change", before.label)
                } else {
                    format!("origin {}: {}", before.label, fields.join(", "))
                }
            }
            (Self::Acl(before), Self::Acl(after)) => {
                let before = allowed(before);
                let after = allowed(after);
                let mut changes: Vec<String> = after
                    .iter()
                    .filter(|p| !before.contains(p))
                    .map(|p| format!("+ {p}"))
                    .collect();
                changes.extend(
                    before
                        .iter()
                        .filter(|p| !after.contains(p))
                        .map(|p| format!("- {p}")),
                );
                if changes.is_empty() {
                    "acl: no permission changes".to_owned()
                } else {
                    format!("acl: {}", changes.join(", "))
                }
            }
            (before, after) => format!("{} -> {}", before.describe(), after.describe()),
        }
    }
}

/// The permissions an ACL allows, `section.permission`, in the documents' order.
fn allowed(acl: &Acl) -> Vec<String> {
    let mut allowed = Vec::new();
    let acl = serde_json::to_value(acl_permissions(acl)).unwrap_or_default();
    if let Some(sections) = acl.as_object() {
        for (section, permissions) in sections {
            for (permission, on) in permissions.as_object().into_iter().flatten() {
                if on.as_bool() == Some(true) {
                    allowed.push(format!("{section}.{permission}"));
                }
            }
        }
    }
    allowed
}

/// The fields an update from `before` to `after` sends, each as
/// `name old -> new` (the file's names; `(unset)` for no value; secrets hidden).
fn origin_changes(before: &OriginConfig, after: &OriginConfig) -> Vec<String> {
    fn shown<T: ToString + ?Sized>(value: Option<&T>) -> String {
        value.map_or_else(|| "(unset)".to_owned(), ToString::to_string)
    }
    let update = after.update_from(before);
    let mut fields = Vec::new();
    let mut field = |name: &str, changed: bool, old: String, new: String| {
        if changed {
            fields.push(format!("{name} {old} -> {new}"));
        }
    };
    field(
        "label",
        update.label.is_some(),
        before.label.clone(),
        after.label.clone(),
    );
    field(
        "url",
        update.url.is_some(),
        before.url.clone(),
        after.url.clone(),
    );
    field(
        "type",
        update.origin_type.is_some(),
        shown(before.origin_type.as_ref().map(OriginType::as_wire)),
        shown(after.origin_type.as_ref().map(OriginType::as_wire)),
    );
    // The optional fields, each shown by its file name (the struct's field name).
    macro_rules! optional_fields {
        ($($name:ident),*) => {$(
            field(
                stringify!($name),
                update.$name.is_some(),
                shown(before.$name.as_ref()),
                shown(after.$name.as_ref()),
            );
        )*};
    }
    optional_fields!(
        s3_bucket_name,
        refresh_every_seconds,
        ignore_cache_control,
        proxy_header_host,
        cache_key,
        basic_auth_user
    );
    if update.basic_auth_password.is_some() {
        fields.push("basic_auth_password (secret) changes".to_owned());
    }
    if update.headers_origin.is_some() {
        fields.push("headers_origin (secret) changes".to_owned());
    }
    fields
}

/// The CDN's configuration: origins and, when managed, the ACL.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, JsonSchema)]
#[non_exhaustive]
pub struct CdnConfig {
    /// The origins.
    pub origins: Vec<OriginConfig>,
    /// The whole ACL; `None`: not managed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub acl: Option<Acl>,
    /// Origins of the service left out (no label or no URL), in words.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<String>,
}

impl CdnConfig {
    /// Reads a CDN file (`.yaml`, `.yml`, `.toml`; `format` overrides the extension):
    /// only a regular file of at most [`DEFAULT_MAX_FILE_BYTES`] (see
    /// [`read_text_file`]; [`CdnConfig::read_file_capped`] sets another cap).
    pub fn read_file(
        path: impl AsRef<Path>,
        format: Option<FileFormat>,
    ) -> Result<Self, FileError> {
        Self::read_file_capped(path, format, DEFAULT_MAX_FILE_BYTES)
    }

    /// [`CdnConfig::read_file`], reading at most `max_bytes` of the file.
    pub fn read_file_capped(
        path: impl AsRef<Path>,
        format: Option<FileFormat>,
        max_bytes: u64,
    ) -> Result<Self, FileError> {
        let path = path.as_ref();
        let format = FileFormat::of(path, format)?;
        let text = read_text_file(path, max_bytes)?;
        Self::from_text(&text, path, format)
    }

    /// Reads a CDN file's text; `file` names it in errors.
    pub fn from_text(
        text: &str,
        file: impl AsRef<Path>,
        format: FileFormat,
    ) -> Result<Self, FileError> {
        let doc: FileCdn = parse(text, file.as_ref(), format)?;
        Ok(Self {
            origins: doc.origins.into_iter().map(|o| o.0).collect(),
            acl: doc.acl.map(FileAcl::into_acl),
            skipped: Vec::new(),
        })
    }

    /// The configuration as YAML or TOML (origin secrets left out).
    pub fn to_text(&self, format: FileFormat) -> Result<String, Error> {
        let doc = OutCdn {
            origins: self
                .origins
                .iter()
                .map(|o| OutOrigin {
                    id: o
                        .id
                        .as_ref()
                        .filter(|_| {
                            self.origins
                                .iter()
                                .filter(|other| other.label.trim() == o.label.trim())
                                .count()
                                > 1
                        })
                        .map(ToString::to_string),
                    label: o.label.clone(),
                    url: o.url.clone(),
                    origin_type: o.origin_type.as_ref().map(|t| t.as_wire().to_owned()),
                    s3_bucket_name: o.s3_bucket_name.clone(),
                    refresh_every_seconds: o.refresh_every_seconds,
                    ignore_cache_control: o.ignore_cache_control,
                    proxy_header_host: o.proxy_header_host.clone(),
                    cache_key: o.cache_key.clone(),
                    basic_auth_user: o.basic_auth_user.clone(),
                })
                .collect(),
            acl: self.acl.as_ref().map(FileAcl::from_acl),
        };
        emit(
            &doc,
            "CDN origins and access control list, exported by hostapi.\n\
             Origins are matched by label (by id where one is given: labels several\n\
             origins share); a field left out is not managed. Secrets\n\
             (basic_auth_password, headers_origin) are not exported: add them to manage them.",
            format,
        )
    }
}

/// The changes that turn the CDN into a desired configuration. `delete` is always
/// empty: the API cannot delete an origin, and an ACL is replaced, not deleted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[non_exhaustive]
pub struct CdnPlan {
    /// Origins to create.
    pub create: Vec<Change<CdnItem>>,
    /// Origins to change, and the ACL.
    pub update: Vec<Change<CdnItem>>,
    /// Always empty (see above).
    pub delete: Vec<Change<CdnItem>>,
    /// Origins only on the service, kept.
    #[serde(skip)]
    pub kept: Vec<OriginConfig>,
    #[serde(skip)]
    desired: CdnConfig,
}

impl CdnPlan {
    /// The number of writes the plan makes.
    pub fn len(&self) -> usize {
        self.create.len() + self.update.len() + self.delete.len()
    }

    /// Whether the service already holds the desired configuration.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The number of origins the plan updates (the ACL not counted): what the
    /// [`Thresholds`](crate::Thresholds) weigh against the origins on the service.
    pub fn origin_updates(&self) -> usize {
        self.update
            .iter()
            .filter(|c| matches!(c.after, Some(CdnItem::Origin(_))))
            .count()
    }

    /// The changes as a diff, one line each: `+ origin www https://…`, and for an
    /// update only what changes: `~ origin api: refresh_every_seconds 86400 -> 3600`,
    /// `~ acl: + content.delete, - customers.get`.
    pub fn diff_lines(&self) -> Vec<(Action, String)> {
        let mut lines = Vec::new();
        for (action, changes) in [
            (Action::Update, &self.update),
            (Action::Create, &self.create),
        ] {
            for change in changes {
                let text = match (&change.before, &change.after) {
                    (Some(before), Some(after)) => before.describe_change(after),
                    (Some(one), None) | (None, Some(one)) => one.describe(),
                    (None, None) => String::new(),
                };
                lines.push((action, text));
            }
        }
        lines
    }

    fn same_changes(&self, other: &Self) -> bool {
        self.create == other.create && self.update == other.update && self.delete == other.delete
    }
}

/// Plans the changes that turn `current` into `desired`: origins with an `id` are
/// matched by it, the others by label. Refused ([`SyncError::Match`]) when a desired
/// origin's id is not on the service, or when its label (without an id) is carried by
/// more than one origin on the service not matched by id.
pub fn plan_cdn(current: &CdnConfig, desired: &CdnConfig) -> Result<CdnPlan, SyncError> {
    let mut plan = CdnPlan {
        create: Vec::new(),
        update: Vec::new(),
        delete: Vec::new(),
        kept: Vec::new(),
        desired: desired.clone(),
    };
    let mut matched = vec![false; current.origins.len()];
    let mut found_for = vec![None; desired.origins.len()];
    for (at, wanted) in desired.origins.iter().enumerate() {
        let Some(id) = &wanted.id else { continue };
        let index = current
            .origins
            .iter()
            .position(|o| o.id.as_ref() == Some(id))
            .ok_or_else(|| {
                SyncError::Match(format!(
                    "origin `{}` names id {id}, which is not an origin on the service",
                    wanted.label
                ))
            })?;
        matched[index] = true;
        found_for[at] = Some(index);
    }
    for (at, wanted) in desired.origins.iter().enumerate() {
        if wanted.id.is_some() {
            continue;
        }
        let candidates: Vec<usize> = (0..current.origins.len())
            .filter(|i| !matched[*i] && current.origins[*i].label.trim() == wanted.label.trim())
            .collect();
        if candidates.len() > 1 {
            let ids: Vec<String> = candidates
                .iter()
                .filter_map(|i| current.origins[*i].id.as_ref().map(ToString::to_string))
                .collect();
            return Err(SyncError::Match(format!(
                "origin `{}` matches {} origins on the service (ids {}): add `id:` to the \
                 origin in the file to say which (`cdn export` writes them)",
                wanted.label,
                candidates.len(),
                ids.join(", ")
            )));
        }
        if let Some(index) = candidates.first() {
            matched[*index] = true;
            found_for[at] = Some(*index);
        }
    }
    for (wanted, found) in desired.origins.iter().zip(&found_for) {
        let found = found.map(|index| (index, &current.origins[index]));
        match found {
            Some((_, have)) => {
                if !wanted.update_from(have).is_empty() {
                    let mut after = wanted.clone();
                    after.id.clone_from(&have.id);
                    plan.update.push(Change {
                        before: Some(CdnItem::Origin(have.clone())),
                        after: Some(CdnItem::Origin(after)),
                    });
                }
            }
            None => {
                let mut after = wanted.clone();
                after.id = None;
                plan.create.push(Change {
                    before: None,
                    after: Some(CdnItem::Origin(after)),
                });
            }
        }
    }
    plan.kept = current
        .origins
        .iter()
        .zip(&matched)
        .filter(|(_, m)| !**m)
        .map(|(o, _)| o.clone())
        .collect();
    if let Some(wanted) = &desired.acl {
        let have = current.acl.clone().unwrap_or_default();
        if acl_permissions(wanted) != acl_permissions(&have) {
            // The sections and permissions the docs do not name stay as they are.
            let mut after = acl_permissions(wanted);
            after.extra.clone_from(&have.extra);
            after.content.extra.clone_from(&have.content.extra);
            after.search.extra.clone_from(&have.search.extra);
            after.stats.extra.clone_from(&have.stats.extra);
            after.logs.extra.clone_from(&have.logs.extra);
            after.origins.extra.clone_from(&have.origins.extra);
            after.customers.extra.clone_from(&have.customers.extra);
            after.zones.extra.clone_from(&have.zones.extra);
            after.ftplog.extra.clone_from(&have.ftplog.extra);
            plan.update.push(Change {
                before: Some(CdnItem::Acl(have)),
                after: Some(CdnItem::Acl(after)),
            });
        }
    }
    Ok(plan)
}

/// Configuration as code for the CDN, from [`CdnSync::new`].
#[derive(Debug, Clone)]
pub struct CdnSync {
    client: Client,
}

impl CdnSync {
    /// Configuration as code for the CDN through `client`: export, plan, apply.
    pub fn new(client: &Client) -> Self {
        Self {
            client: client.clone(),
        }
    }

    /// The CDN's configuration on the service: origins and ACL (two reads).
    pub async fn current(&self) -> Result<CdnConfig, Error> {
        let cdn = self.client.cdn();
        let listing = cdn.origins().list().await?;
        let acl = cdn.acl().get().await?;
        let mut config = CdnConfig {
            origins: Vec::new(),
            acl: Some(acl),
            skipped: Vec::new(),
        };
        for origin in listing.iter() {
            match OriginConfig::from_origin(origin) {
                Some(found) => config.origins.push(found),
                None => config
                    .skipped
                    .push(format!("origin {} (no label or no URL)", origin.id)),
            }
        }
        Ok(config)
    }

    /// Plans the changes that turn the CDN into `desired`.
    pub async fn plan(&self, desired: &CdnConfig) -> Result<CdnPlan, SyncError> {
        plan_cdn(&self.current().await?, desired)
    }

    /// Applies a plan: reads the CDN again and refuses with [`SyncError::Stale`] when
    /// the plan no longer holds (unless [`ApplyOptions::replan`]), and with
    /// [`SyncError::TooManyChanges`] when it updates more of the origins than the
    /// [`Thresholds`](crate::Thresholds) allow (unless [`ApplyOptions::force`]; the
    /// API deletes no origin, so only updates count); then creates and updates origins
    /// with at most [`ApplyOptions::concurrency`] in flight, and replaces the ACL; each
    /// change is reported with its outcome. A dry run writes nothing.
    pub async fn apply(
        &self,
        plan: &CdnPlan,
        options: &ApplyOptions,
    ) -> Result<ApplyReport<CdnItem>, SyncError> {
        let current = self.current().await?;
        let fresh = plan_cdn(&current, &plan.desired)?;
        if !fresh.same_changes(plan) && !options.replan {
            return Err(SyncError::Stale {
                planned: plan.len(),
                now: fresh.len(),
            });
        }
        let plan = fresh;
        if !options.force {
            let existing = current.origins.len();
            let updates = plan.origin_updates();
            options.thresholds.check(existing, updates, 0, "origins")?;
        }
        let mut report = ApplyReport {
            changes: Vec::new(),
            ttl: None,
        };
        let changes: Vec<(Action, Change<CdnItem>)> = plan
            .update
            .iter()
            .map(|c| (Action::Update, c.clone()))
            .chain(plan.create.iter().map(|c| (Action::Create, c.clone())))
            .collect();
        if options.dry_run {
            report.changes = changes
                .into_iter()
                .map(|(action, change)| ChangeReport {
                    action,
                    change,
                    outcome: Outcome::Skipped,
                })
                .collect();
            return Ok(report);
        }
        let total = changes.len();
        let cdn = self.client.cdn();
        let origins = cdn.origins();
        let acls = cdn.acl();
        let mut writes = std::pin::pin!(bulk(
            futures::stream::iter(changes),
            options.bulk(),
            |(_, change): (Action, Change<CdnItem>)| {
                let origins = origins.clone();
                let acls = acls.clone();
                async move { Ok::<_, Error>(write(&origins, &acls, &change).await) }
            },
        ));
        let mut done = 0;
        while let Some(item) = writes.next().await {
            let (action, change) = item.input;
            let outcome = item.result.unwrap_or_else(|error| Outcome::NotApplied {
                error: error.to_string(),
            });
            done += 1;
            let what = change
                .after
                .as_ref()
                .map(CdnItem::describe)
                .unwrap_or_default();
            options.report(&ApplyProgress {
                done,
                total,
                change: format!("{} {what}", action.sign()),
                outcome: outcome.clone(),
            });
            report.changes.push(ChangeReport {
                action,
                change,
                outcome,
            });
        }
        Ok(report)
    }
}

async fn write(origins: &Origins, acls: &hostapi::cdn::Acls, change: &Change<CdnItem>) -> Outcome {
    match (&change.before, &change.after) {
        (None, Some(CdnItem::Origin(after))) => {
            let new = after.as_new();
            Outcome::settle(origins.create(&new).await, || origins.confirm_create(&new)).await
        }
        (Some(CdnItem::Origin(before)), Some(CdnItem::Origin(after))) => {
            let Some(id) = before.id.clone() else {
                return Outcome::NotApplied {
                    error: "the origin has no id".to_owned(),
                };
            };
            let update = after.update_from(before);
            Outcome::settle(origins.update(&id, &update).await, || async {
                let now = origins.get(&id).await?;
                let holds = OriginConfig::from_origin(&now)
                    .is_some_and(|now| after.update_from(&now).is_empty());
                Ok(if holds {
                    Confirmation::Applied(())
                } else {
                    Confirmation::NotApplied
                })
            })
            .await
        }
        (_, Some(CdnItem::Acl(acl))) => {
            Outcome::settle(acls.update(acl).await, || acls.confirm_update(acl)).await
        }
        _ => Outcome::NotApplied {
            error: "nothing to write".to_owned(),
        },
    }
}

// The file's shapes.

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileCdn {
    #[serde(default, deserialize_with = "unique_origins")]
    origins: Vec<FileOrigin>,
    #[serde(default)]
    acl: Option<FileAcl>,
}

/// The origins, each checked against those before it as it is read, so that an error
/// names the later origin (its line and index), not the list.
fn unique_origins<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<FileOrigin>, D::Error> {
    struct Origins;
    impl<'de> serde::de::Visitor<'de> for Origins {
        type Value = Vec<FileOrigin>;

        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a list of origins")
        }

        fn visit_seq<A: serde::de::SeqAccess<'de>>(
            self,
            mut seq: A,
        ) -> Result<Self::Value, A::Error> {
            let mut origins = Vec::new();
            while let Some(origin) = seq.next_element_seed(Unique(&origins))? {
                origins.push(origin);
            }
            Ok(origins)
        }
    }
    deserializer.deserialize_seq(Origins)
}

/// One origin, refused when an earlier one has its id, or its label when neither
/// carries an id.
struct Unique<'a>(&'a [FileOrigin]);

impl<'de> serde::de::DeserializeSeed<'de> for Unique<'_> {
    type Value = FileOrigin;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<FileOrigin, D::Error> {
        let origin = FileOrigin::deserialize(deserializer)?;
        let new = &origin.0;
        for (first, earlier) in self.0.iter().enumerate() {
            let earlier = &earlier.0;
            if new.id.is_some() && new.id == earlier.id {
                return Err(serde::de::Error::custom(format!(
                    "id: {} is the id of origins[{first}] too",
                    new.id.as_ref().map(ToString::to_string).unwrap_or_default()
                )));
            }
            let neither_has_id = new.id.is_none() && earlier.id.is_none();
            if neither_has_id && earlier.label.trim() == new.label.trim() {
                return Err(serde::de::Error::custom(format!(
                    "label: `{}` is the label of origins[{first}] too: labels name origins, so \
                     two origins without an id cannot share one (give each its id, as cdn \
                     export does for labels the service holds twice)",
                    new.label
                )));
            }
        }
        Ok(origin)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOrigin {
    #[serde(default)]
    id: Option<String>,
    label: String,
    url: String,
    #[serde(rename = "type", default)]
    origin_type: Option<String>,
    #[serde(default)]
    s3_bucket_name: Option<String>,
    #[serde(default)]
    refresh_every_seconds: Option<u64>,
    #[serde(default)]
    ignore_cache_control: Option<bool>,
    #[serde(default)]
    proxy_header_host: Option<String>,
    #[serde(default)]
    cache_key: Option<String>,
    #[serde(default)]
    basic_auth_user: Option<String>,
    #[serde(default)]
    basic_auth_password: Option<String>,
    #[serde(default)]
    headers_origin: Option<String>,
}

#[derive(Deserialize)]
#[serde(try_from = "RawOrigin")]
struct FileOrigin(OriginConfig);

impl TryFrom<RawOrigin> for FileOrigin {
    type Error = String;

    fn try_from(raw: RawOrigin) -> Result<Self, String> {
        if raw.label.trim().is_empty() {
            return Err("label: is empty".to_owned());
        }
        let url = url::Url::parse(raw.url.trim()).map_err(|e| format!("url: not a URL: {e}"))?;
        if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none_or(str::is_empty) {
            return Err(format!(
                "url: `{}` is not an http:// or https:// URL with a host",
                raw.url
            ));
        }
        let origin_type = match raw.origin_type.as_deref().map(str::trim) {
            None => None,
            Some(text) if text.eq_ignore_ascii_case("simple") => Some(OriginType::Simple),
            Some(text) if text.eq_ignore_ascii_case("s3") => Some(OriginType::S3),
            Some(text) => return Err(format!("type: `{text}` is not simple or s3")),
        };
        if origin_type == Some(OriginType::S3)
            && raw
                .s3_bucket_name
                .as_deref()
                .is_none_or(|b| b.trim().is_empty())
        {
            return Err("s3_bucket_name: is required for s3 origins".to_owned());
        }
        let mut origin = OriginConfig::new(raw.label, raw.url);
        origin.id = match raw.id.as_deref().map(str::trim) {
            None => None,
            Some(text) => Some(
                text.parse::<OriginId>()
                    .map_err(|e| format!("id: `{text}` is not an origin id: {e}"))?,
            ),
        };
        origin.origin_type = origin_type;
        origin.s3_bucket_name = raw.s3_bucket_name;
        origin.refresh_every_seconds = raw.refresh_every_seconds;
        origin.ignore_cache_control = raw.ignore_cache_control;
        origin.proxy_header_host = raw.proxy_header_host;
        origin.cache_key = raw.cache_key;
        origin.basic_auth_user = raw.basic_auth_user;
        origin.basic_auth_password = raw.basic_auth_password.map(Secret::new);
        origin.headers_origin = raw.headers_origin.map(Secret::new);
        Ok(Self(origin))
    }
}

#[derive(Serialize)]
struct OutCdn {
    origins: Vec<OutOrigin>,
    #[serde(skip_serializing_if = "Option::is_none")]
    acl: Option<FileAcl>,
}

#[derive(Serialize)]
struct OutOrigin {
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<String>,
    label: String,
    url: String,
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    origin_type: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    s3_bucket_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    refresh_every_seconds: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ignore_cache_control: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    proxy_header_host: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cache_key: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    basic_auth_user: Option<String>,
}

#[derive(Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct PostGetDelete {
    #[serde(default)]
    post: bool,
    #[serde(default)]
    get: bool,
    #[serde(default)]
    delete: bool,
}

#[derive(Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct GetOnly {
    #[serde(default)]
    get: bool,
}

#[derive(Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct PutPostGetDelete {
    #[serde(default)]
    put: bool,
    #[serde(default)]
    post: bool,
    #[serde(default)]
    get: bool,
    #[serde(default)]
    delete: bool,
}

#[derive(Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct FileAcl {
    #[serde(default)]
    content: PostGetDelete,
    #[serde(default)]
    search: GetOnly,
    #[serde(default)]
    stats: GetOnly,
    #[serde(default)]
    logs: GetOnly,
    #[serde(default)]
    origins: PutPostGetDelete,
    #[serde(default)]
    customers: PostGetDelete,
    #[serde(default)]
    zones: PostGetDelete,
    #[serde(default)]
    ftplog: PostGetDelete,
}

impl FileAcl {
    fn into_acl(self) -> Acl {
        // The facade's ACL types are `#[non_exhaustive]`: built from their defaults.
        let pgd = |s: PostGetDelete| {
            let mut section = AclSection::default();
            section.post = s.post;
            section.get = s.get;
            section.delete = s.delete;
            section
        };
        let read = |s: GetOnly| {
            let mut section = AclReadSection::default();
            section.get = s.get;
            section
        };
        let mut origins = AclOriginsSection::default();
        origins.put = self.origins.put;
        origins.post = self.origins.post;
        origins.get = self.origins.get;
        origins.delete = self.origins.delete;
        let mut acl = Acl::default();
        acl.content = pgd(self.content);
        acl.search = read(self.search);
        acl.stats = read(self.stats);
        acl.logs = read(self.logs);
        acl.origins = origins;
        acl.customers = pgd(self.customers);
        acl.zones = pgd(self.zones);
        acl.ftplog = pgd(self.ftplog);
        acl
    }

    fn from_acl(acl: &Acl) -> Self {
        let pgd = |s: &AclSection| PostGetDelete {
            post: s.post,
            get: s.get,
            delete: s.delete,
        };
        let read = |s: &AclReadSection| GetOnly { get: s.get };
        Self {
            content: pgd(&acl.content),
            search: read(&acl.search),
            stats: read(&acl.stats),
            logs: read(&acl.logs),
            origins: PutPostGetDelete {
                put: acl.origins.put,
                post: acl.origins.post,
                get: acl.origins.get,
                delete: acl.origins.delete,
            },
            customers: pgd(&acl.customers),
            zones: pgd(&acl.zones),
            ftplog: pgd(&acl.ftplog),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origin(id: &str, label: &str, refresh: u64) -> OriginConfig {
        let mut origin = OriginConfig::new(label, format!("https://{label}.example"));
        origin.id = Some(id.parse().unwrap());
        origin.refresh_every_seconds = Some(refresh);
        origin
    }

    fn service(origins: Vec<OriginConfig>) -> CdnConfig {
        CdnConfig {
            origins,
            acl: None,
            skipped: Vec::new(),
        }
    }

    fn yaml(text: &str) -> Result<CdnConfig, FileError> {
        CdnConfig::from_text(text, "cdn.yaml", FileFormat::Yaml)
    }

    #[test]
    fn an_update_names_only_the_fields_that_change() {
        let current = service(vec![origin("101", "api", 86400)]);
        let mut wanted = OriginConfig::new("api", "https://api.example");
        wanted.refresh_every_seconds = Some(3600);
        wanted.cache_key = Some("$uri".to_owned());
        wanted.basic_auth_password = Some(Secret::new("hunter2".to_owned()));
        let plan = plan_cdn(&current, &service(vec![wanted])).unwrap();
        let lines = plan.diff_lines();
        assert_eq!(
            lines,
            vec![(
                Action::Update,
                "origin api: refresh_every_seconds 86400 -> 3600, cache_key (unset) -> $uri, \
                 basic_auth_password (secret) changes"
                    .to_owned()
            )]
        );
        assert!(!format!("{lines:?}").contains("hunter2"));
    }

    #[test]
    fn an_acl_change_lists_the_permissions_added_and_taken_away() {
        let mut have = Acl::default();
        have.customers.get = true;
        have.content.get = true;
        let mut wanted = Acl::default();
        wanted.content.get = true;
        wanted.content.delete = true;
        let plan = plan_cdn(
            &CdnConfig {
                acl: Some(have),
                ..service(Vec::new())
            },
            &CdnConfig {
                acl: Some(wanted),
                ..service(Vec::new())
            },
        )
        .unwrap();
        assert_eq!(
            plan.diff_lines(),
            vec![(
                Action::Update,
                "acl: + content.delete, - customers.get".to_owned()
            )]
        );
    }

    #[test]
    fn repeated_labels_are_told_apart_by_id() {
        let current = service(vec![
            origin("101", "assets", 60),
            origin("102", "assets", 60),
        ]);
        // An export writes the ids of the two, and reads back into an empty plan.
        let text = current.to_text(FileFormat::Yaml).unwrap();
        assert!(
            text.contains("id: '101'") && text.contains("id: '102'"),
            "{text}"
        );
        let back = yaml(&text).unwrap();
        assert!(plan_cdn(&current, &back).unwrap().is_empty());
        // By id, the second one changes (and may be renamed).
        let wanted = yaml(
            "origins:\n- id: '102'\n  label: static\n  url: https://assets.example\n  \
             refresh_every_seconds: 30\n",
        )
        .unwrap();
        let lines = plan_cdn(&current, &wanted).unwrap().diff_lines();
        assert_eq!(
            lines[0].1,
            "origin assets: label assets -> static, refresh_every_seconds 60 -> 30"
        );
        // Without an id the label is ambiguous: refused, naming both ids.
        let bare = yaml("origins:\n- label: assets\n  url: https://assets.example\n").unwrap();
        let error = plan_cdn(&current, &bare).unwrap_err().to_string();
        assert!(error.contains("ids 101, 102"), "{error}");
        // An id the service does not have is refused.
        let stray = yaml("origins:\n- id: '9'\n  label: x\n  url: https://x.example\n").unwrap();
        let error = plan_cdn(&current, &stray).unwrap_err().to_string();
        assert!(error.contains("id 9"), "{error}");
    }

    #[test]
    fn a_repeated_label_is_refused_at_its_own_line() {
        let mut text = String::from("origins:\n");
        for label in ["www", "assets", "media", "api", "assets"] {
            text.push_str(&format!(
                "- label: {label}\n  url: https://{label}.example\n  refresh_every_seconds: 60\n"
            ));
        }
        let error = yaml(&text).unwrap_err();
        assert_eq!(error.line, Some(14), "{error}");
        assert_eq!(error.field.as_deref(), Some("origins[4].label"), "{error}");
        assert!(error.message.contains("origins[1]"), "{error}");

        let mut toml = String::new();
        for label in ["www", "assets", "assets"] {
            toml.push_str(&format!(
                "[[origins]]\nlabel = \"{label}\"\nurl = \"https://{label}.example\"\n\n"
            ));
        }
        let error = CdnConfig::from_text(&toml, "cdn.toml", FileFormat::Toml).unwrap_err();
        assert_eq!(error.line, Some(9), "{error}");
        // With ids, two origins may share a label.
        let with_ids = "origins:\n- id: '1'\n  label: a\n  url: https://a.example\n\
                        - id: '2'\n  label: a\n  url: https://b.example\n";
        assert_eq!(yaml(with_ids).unwrap().origins.len(), 2);
        let same_id = "origins:\n- id: '1'\n  label: a\n  url: https://a.example\n\
                       - id: '1'\n  label: b\n  url: https://b.example\n";
        assert!(yaml(same_id).unwrap_err().to_string().contains("id: 1"));
    }
}
