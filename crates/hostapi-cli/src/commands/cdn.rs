//! `hostapi cdn`: purges (with `--wait`), the customer and its sub-customers, the
//! access control list, origins.

use std::path::PathBuf;

use clap::{Args, Subcommand, ValueEnum};
use hostapi::Secret;
use hostapi::cdn::{Acl, NewOrigin, OriginType, OriginUpdate, PurgeJob, SubCustomerUpdate};
use hostapi::types::{CustomerNumber, Extra, OriginId, PurgeJobId, ZoneId};
use serde_json::Value;

use super::{Context, WaitArgs, parse_bool, parse_id};
use crate::confirm::confirm;
use crate::failure::Failure;
use crate::outcome::settle;
use crate::output::{Column, col};
use crate::progress::{Resume, wait_with_progress};
use crate::untrusted;

#[derive(Debug, Subcommand)]
pub(crate) enum CdnCommand {
    /// Purge files of a zone from the cache (or, with --everything, the whole zone).
    #[command(
        after_help = "Examples:\n  hostapi --sandbox cdn purge 1001 /index.html /css/site.css --wait\n  hostapi --sandbox cdn purge 1001 --everything --yes"
    )]
    Purge {
        /// The zone's id.
        #[arg(value_parser = parse_id::<ZoneId>)]
        zone: ZoneId,
        /// The paths of the files to purge.
        #[arg(required_unless_present = "everything", conflicts_with = "everything")]
        paths: Vec<String>,
        /// Purge every cached file of the zone: the origins then serve everything
        /// again, which can load them hard (asks first; --yes when not on a terminal).
        #[arg(long)]
        everything: bool,
        #[command(flatten)]
        wait: WaitArgs,
    },
    /// Show where a purge job is, file by file (--wait: until none is queued).
    #[command(after_help = "Example:\n  hostapi --sandbox cdn purge-status 1001 5001")]
    PurgeStatus {
        /// The zone's id.
        #[arg(value_parser = parse_id::<ZoneId>)]
        zone: ZoneId,
        /// The purge job's id (what `cdn purge` printed).
        #[arg(value_parser = parse_id::<PurgeJobId>)]
        job: PurgeJobId,
        #[command(flatten)]
        wait: WaitArgs,
    },
    /// The customer record (its API secret is [REDACTED] unless --show-secrets).
    #[command(
        subcommand,
        after_help = "Example:\n  hostapi --sandbox cdn customers get"
    )]
    Customers(CustomersCommand),
    /// Sub-customers of a reseller customer.
    #[command(
        subcommand,
        after_help = "Example:\n  hostapi --sandbox cdn sub-customers get 46242701"
    )]
    SubCustomers(SubCustomersCommand),
    /// The customer's access control list.
    #[command(subcommand, after_help = "Example:\n  hostapi --sandbox cdn acl get")]
    Acl(AclCommand),
    /// Origins: the sources the CDN fetches content from.
    #[command(
        subcommand,
        after_help = "Example:\n  hostapi --sandbox cdn origins list"
    )]
    Origins(OriginsCommand),
    /// Print the origins and the ACL as YAML (or --format toml).
    #[command(after_help = "Example:\n  hostapi --sandbox cdn export > cdn.yaml")]
    Export(super::cdn_sync::ExportArgs),
    /// Show what applying FILE would change: + create, ~ update.
    #[command(after_help = "Example:\n  hostapi --sandbox cdn plan cdn.yaml")]
    Plan(super::cdn_sync::PlanCommand),
    /// Make the origins and the ACL match FILE (asks first; --yes when not on a terminal).
    #[command(after_help = "Example:\n  hostapi --sandbox cdn apply cdn.yaml --yes")]
    Apply(super::cdn_sync::ApplyArgs),
}

#[derive(Debug, Subcommand)]
pub(crate) enum CustomersCommand {
    /// Show the customer the CDN settings act for.
    #[command(after_help = "Example:\n  hostapi --sandbox cdn customers get")]
    Get,
}

#[derive(Debug, Subcommand)]
pub(crate) enum SubCustomersCommand {
    /// Show a sub-customer.
    #[command(after_help = "Example:\n  hostapi --sandbox cdn sub-customers get 46242701")]
    Get {
        /// The sub-customer's customer number.
        #[arg(value_parser = parse_id::<CustomerNumber>)]
        number: CustomerNumber,
    },
    /// Create a sub-customer, or change one, with the settings given.
    #[command(
        after_help = "Example:\n  hostapi --sandbox cdn sub-customers set 46242704 --active true --ftp-quota 500"
    )]
    Set {
        /// The sub-customer's customer number.
        #[arg(value_parser = parse_id::<CustomerNumber>)]
        number: CustomerNumber,
        /// Whether the sub-customer is active.
        #[arg(long, value_parser = parse_bool)]
        active: Option<bool>,
        /// The FTP quota.
        #[arg(long)]
        ftp_quota: Option<u64>,
        /// Whether the sub-customer is a reseller.
        #[arg(long, value_parser = parse_bool)]
        reseller: Option<bool>,
        /// The company name.
        #[arg(long)]
        company_name: Option<String>,
        /// Notes.
        #[arg(long)]
        notes: Option<String>,
    },
}

#[derive(Debug, Subcommand)]
pub(crate) enum AclCommand {
    /// Show the access control list.
    #[command(after_help = "Example:\n  hostapi --sandbox cdn acl get")]
    Get,
    /// Replace the access control list: from a JSON file (the shape `acl get
    /// --output json` prints) or by naming what is allowed (everything else is not);
    /// asks first, --yes when not on a terminal.
    #[command(
        after_help = "Examples:\n  hostapi --sandbox cdn acl set --allow content.post --allow content.get --allow origins.get --yes\n  hostapi --sandbox cdn acl get --output json > acl.json\n  hostapi --sandbox cdn acl set --file acl.json --yes"
    )]
    Set {
        /// A JSON file holding the list (`-`: standard input).
        #[arg(
            long,
            value_name = "FILE",
            conflicts_with = "allow",
            required_unless_present = "allow"
        )]
        file: Option<PathBuf>,
        /// A permission to allow, SECTION.METHOD (e.g. content.post); repeat it.
        #[arg(long, value_name = "SECTION.METHOD")]
        allow: Vec<String>,
    },
    /// Delete the access control list: every permission becomes false (asks first;
    /// --yes when not on a terminal).
    #[command(after_help = "Example:\n  hostapi --sandbox cdn acl delete --yes")]
    Delete,
}

#[derive(Debug, Subcommand)]
pub(crate) enum OriginsCommand {
    /// List origins.
    #[command(after_help = "Example:\n  hostapi --sandbox cdn origins list")]
    List,
    /// Show one origin (its basic auth password is [REDACTED] unless --show-secrets).
    #[command(after_help = "Example:\n  hostapi --sandbox cdn origins get 101")]
    Get {
        /// The origin's id.
        #[arg(value_parser = parse_id::<OriginId>, add = clap_complete::ArgValueCandidates::new(crate::completion::origin_ids))]
        id: OriginId,
    },
    /// Create an origin. Labels name origins in `cdn plan` files: a label another
    /// origin has is warned of.
    #[command(
        after_help = "Example:\n  hostapi --sandbox cdn origins create --label downloads --url https://downloads.example.com \\\n    --refresh-every 3600"
    )]
    Create {
        /// The origin's own name.
        #[arg(long)]
        label: String,
        /// The HTTP(S) URL of the source, on domain level.
        #[arg(long)]
        url: String,
        #[command(flatten)]
        settings: OriginSettings,
    },
    /// Change an origin (only the settings given), then show it as it now is.
    #[command(
        after_help = "Example:\n  hostapi --sandbox cdn origins update 101 --label static-assets"
    )]
    Update {
        /// The origin's id.
        #[arg(value_parser = parse_id::<OriginId>, add = clap_complete::ArgValueCandidates::new(crate::completion::origin_ids))]
        id: OriginId,
        /// The origin's own name.
        #[arg(long)]
        label: Option<String>,
        /// The HTTP(S) URL of the source, on domain level.
        #[arg(long)]
        url: Option<String>,
        #[command(flatten)]
        settings: OriginSettings,
    },
}

/// The settings of an origin besides its label and URL.
#[derive(Debug, Clone, Args)]
pub(crate) struct OriginSettings {
    /// Simple (an HTTP server) or s3 (a bucket).
    #[arg(long = "type", value_enum)]
    origin_type: Option<OriginKind>,
    /// The bucket name (S3 origins).
    #[arg(long)]
    s3_bucket: Option<String>,
    /// How often the CDN refreshes from the origin, in seconds.
    #[arg(long, value_name = "SECONDS")]
    refresh_every: Option<u64>,
    /// Ignore the origin's cache-control headers in favour of the CDN's.
    #[arg(long, value_parser = parse_bool)]
    ignore_cache_control: Option<bool>,
    /// The Host header sent to the origin.
    #[arg(long)]
    proxy_header_host: Option<String>,
    /// The key that defines the caching.
    #[arg(long)]
    cache_key: Option<String>,
    /// The basic auth user (S3: the access key id).
    #[arg(long)]
    basic_auth_user: Option<String>,
    /// The basic auth password (S3: the access key secret). Prefer the environment
    /// variable: flags end up in shell history.
    #[arg(long, env = "HOSTAPI_ORIGIN_PASSWORD", hide_env_values = true)]
    basic_auth_password: Option<String>,
    /// HTTP headers added to requests to the origin.
    #[arg(long)]
    headers_origin: Option<String>,
}

/// Origin types.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum OriginKind {
    /// A plain HTTP(S) server.
    Simple,
    /// An S3 bucket.
    S3,
}

/// The columns of an origin list.
const ORIGIN_COLUMNS: &[Column] = &[
    col("ID", "id"),
    col("LABEL", "label"),
    col("TYPE", "origin_type"),
    col("URL", "url"),
    col("REFRESH (S)", "refresh_every_seconds"),
    col("S3 BUCKET", "s3_bucket_name"),
];

/// The columns of a purge status.
const PURGE_COLUMNS: &[Column] = &[col("URL", "url"), col("STATUS", "status")];

pub(crate) async fn run(context: &Context, command: CdnCommand) -> Result<(), Failure> {
    let cdn = context.client.cdn();
    let out = &context.printer;
    match command {
        CdnCommand::Export(args) => super::cdn_sync::export(context, args).await,
        CdnCommand::Plan(args) => super::cdn_sync::plan(context, args).await,
        CdnCommand::Apply(args) => super::cdn_sync::apply(context, args).await,
        CdnCommand::Purge {
            zone,
            paths,
            everything,
            wait,
        } => {
            let job = if everything {
                confirm(
                    &format!(
                        "purge every cached file of zone {zone} (the origins then serve everything again)"
                    ),
                    context.yes,
                )?;
                cdn.purge_everything(&zone).await?
            } else if paths.iter().any(|p| p.trim() == "*") {
                return Err(Failure::usage(
                    "`*` purges every cached file of the zone, not one path",
                )
                .hint(format!(
                    "to do that, run `hostapi cdn purge {zone} --everything`"
                )));
            } else {
                cdn.purge(&zone, &paths).await?
            };
            if wait.wait {
                let done = wait_purged(context, &zone, &job.id, &wait).await?;
                if out.is_json() {
                    return out.one(&done);
                }
                return out.items(&done.entries, PURGE_COLUMNS);
            }
            if out.is_json() {
                return out.one(&job);
            }
            let id = &job.id;
            out.text(&format!(
                "purge job {id} of zone {zone} queued; `hostapi cdn purge-status {zone} {id} --wait` follows it"
            ))
        }
        CdnCommand::PurgeStatus { zone, job, wait } => {
            let status = if wait.wait {
                wait_purged(context, &zone, &job, &wait).await?
            } else {
                cdn.purge_status(&zone, &job).await?
            };
            if out.is_json() {
                return out.one(&status);
            }
            out.items(&status.entries, PURGE_COLUMNS)
        }
        CdnCommand::Customers(CustomersCommand::Get) => out.one(&cdn.customers().get().await?),
        CdnCommand::SubCustomers(SubCustomersCommand::Get { number }) => {
            out.one(&cdn.sub_customers().get(&number).await?)
        }
        CdnCommand::SubCustomers(SubCustomersCommand::Set {
            number,
            active,
            ftp_quota,
            reseller,
            company_name,
            notes,
        }) => {
            let mut update = SubCustomerUpdate::new();
            update.active = active;
            update.ftp_quota = ftp_quota;
            update.reseller = reseller;
            update.company_name = company_name;
            update.notes = notes;
            if update == SubCustomerUpdate::new() {
                return Err(Failure::usage("nothing to set").hint(
                    "give at least one of --active, --ftp-quota, --reseller, --company-name, --notes",
                ));
            }
            out.one(&cdn.sub_customers().update(&number, &update).await?)
        }
        CdnCommand::Acl(AclCommand::Get) => out.one(&cdn.acl().get().await?),
        CdnCommand::Acl(AclCommand::Set { file, allow }) => {
            let acl = match file {
                Some(path) => acl_from_json(&read_json(&context.client, &path)?)?,
                None => acl_allowing(&allow)?,
            };
            confirm(
                "replace the whole CDN access control list (what is not allowed becomes false)",
                context.yes,
            )?;
            let acls = cdn.acl();
            let stored = settle(acls.update(&acl).await, || acls.confirm_update(&acl)).await?;
            out.one(&stored)
        }
        CdnCommand::Acl(AclCommand::Delete) => {
            confirm(
                "delete the CDN access control list (every permission becomes false)",
                context.yes,
            )?;
            out.one(&cdn.acl().delete().await?)
        }
        CdnCommand::Origins(command) => origins(context, command).await,
    }
}

/// Waits until none of a purge job's files is queued, with progress on stderr.
pub(crate) async fn wait_purged(
    context: &Context,
    zone: &ZoneId,
    job: &PurgeJobId,
    wait: &WaitArgs,
) -> Result<PurgeJob, Failure> {
    let cdn = context.client.cdn();
    let settings = context.wait_settings(wait);
    wait_with_progress(
        &format!("purge job {job} of zone {zone}"),
        &settings,
        &format!("purge job {job} of zone {zone}: nothing queued"),
        Resume::Wait(format!("cdn purge-status {zone} {job} --wait")),
        async |options| cdn.wait_purged(zone, job, &options).await,
    )
    .await
}

async fn origins(context: &Context, command: OriginsCommand) -> Result<(), Failure> {
    let origins = context.client.cdn().origins();
    let out = &context.printer;
    match command {
        OriginsCommand::List => out.list(&out.limited(origins.list()).await?, ORIGIN_COLUMNS),
        OriginsCommand::Get { id } => out.one(&origins.get(&id).await?),
        OriginsCommand::Create {
            label,
            url,
            settings,
        } => {
            // The service takes a second origin of a label; files matched by label
            // then need ids to tell the two apart: say so before creating it.
            let listed = origins.list().await?;
            for same in listed
                .iter()
                .filter(|o| o.label.as_deref().map(str::trim) == Some(label.trim()))
            {
                eprintln!(
                    "{}",
                    untrusted::line(&format!(
                        "warning: origin {} is labelled `{label}` too: `cdn export` will write \
                         the id of both, and a plan file must give them to tell them apart",
                        same.id
                    ))
                );
            }
            let mut origin = NewOrigin::new(label, url);
            origin.origin_type = settings.origin_type.map(OriginKind::as_sdk);
            origin.s3_bucket_name = settings.s3_bucket;
            origin.refresh_every_seconds = settings.refresh_every;
            origin.ignore_cache_control = settings.ignore_cache_control;
            origin.proxy_header_host = settings.proxy_header_host;
            origin.cache_key = settings.cache_key;
            origin.basic_auth_user = settings.basic_auth_user;
            origin.basic_auth_password = settings.basic_auth_password.map(Secret::new);
            origin.headers_origin = settings.headers_origin.map(Secret::new);
            let created = settle(origins.create(&origin).await, || {
                origins.confirm_create(&origin)
            })
            .await?;
            out.one(&created)
        }
        OriginsCommand::Update {
            id,
            label,
            url,
            settings,
        } => {
            let mut update = OriginUpdate::new();
            update.label = label;
            update.url = url;
            update.origin_type = settings.origin_type.map(OriginKind::as_sdk);
            update.s3_bucket_name = settings.s3_bucket;
            update.refresh_every_seconds = settings.refresh_every;
            update.ignore_cache_control = settings.ignore_cache_control;
            update.proxy_header_host = settings.proxy_header_host;
            update.cache_key = settings.cache_key;
            update.basic_auth_user = settings.basic_auth_user;
            update.basic_auth_password = settings.basic_auth_password.map(Secret::new);
            update.headers_origin = settings.headers_origin.map(Secret::new);
            if update == OriginUpdate::new() {
                return Err(Failure::usage("nothing to change")
                    .hint("give at least one setting, e.g. --label or --url"));
            }
            origins.update(&id, &update).await?;
            // The service answers nothing about the origin: show it as it now is.
            out.one(&origins.get(&id).await?)
        }
    }
}

impl OriginKind {
    fn as_sdk(self) -> OriginType {
        match self {
            Self::Simple => OriginType::Simple,
            Self::S3 => OriginType::S3,
        }
    }
}

/// Reads a JSON file, or standard input for `-`: a regular file (or the input) of at
/// most [`hostapi_sync::DEFAULT_MAX_FILE_BYTES`].
fn read_json(client: &hostapi::Client, path: &std::path::Path) -> Result<Value, Failure> {
    let max = hostapi_sync::DEFAULT_MAX_FILE_BYTES;
    let text = if path == std::path::Path::new("-") {
        hostapi_sync::read_text(std::io::stdin().lock(), "standard input", max)
    } else {
        hostapi_sync::read_text_file(path, max)
    }
    .map_err(|e| Failure::usage(client.scrub_secrets(&e.to_string())))?;
    // serde_json's message names the line and column, and quotes nothing of the text.
    serde_json::from_str(&text).map_err(|e| {
        Failure::usage(format!("{} is not JSON: {e}", path.display()))
            .hint("`hostapi cdn acl get --output json` prints the expected shape")
    })
}

/// The sections of an ACL and the methods each has.
const ACL_SECTIONS: &[(&str, &[&str])] = &[
    ("content", &["post", "get", "delete"]),
    ("search", &["get"]),
    ("stats", &["get"]),
    ("logs", &["get"]),
    ("origins", &["put", "post", "get", "delete"]),
    ("customers", &["post", "get", "delete"]),
    ("zones", &["post", "get", "delete"]),
    ("ftplog", &["post", "get", "delete"]),
];

/// An ACL allowing exactly the `SECTION.METHOD` permissions listed.
fn acl_allowing(allow: &[String]) -> Result<Acl, Failure> {
    let mut json = serde_json::Map::new();
    for permission in allow {
        let known = permission.split_once('.').and_then(|(section, method)| {
            let section = section.trim().to_ascii_lowercase();
            let method = method.trim().to_ascii_lowercase();
            ACL_SECTIONS
                .iter()
                .any(|(s, methods)| *s == section && methods.contains(&method.as_str()))
                .then_some((section, method))
        });
        let Some((section, method)) = known else {
            let valid: Vec<String> = ACL_SECTIONS
                .iter()
                .flat_map(|(s, methods)| methods.iter().map(move |m| format!("{s}.{m}")))
                .collect();
            return Err(Failure::usage(format!(
                "`{permission}` is not a permission of the access control list"
            ))
            .hint(format!("permissions: {}", valid.join(", "))));
        };
        let entry = json
            .entry(section)
            .or_insert_with(|| Value::Object(serde_json::Map::new()));
        if let Value::Object(methods) = entry {
            methods.insert(method, Value::Bool(true));
        }
    }
    acl_from_json(&Value::Object(json))
}

/// An ACL from its JSON shape (as `acl get --output json` prints it). A section or
/// method left out is not allowed; sections and methods the SDK does not name are
/// kept in its `extra` maps and written back as they are.
fn acl_from_json(json: &Value) -> Result<Acl, Failure> {
    let object = json.as_object().ok_or_else(|| {
        Failure::usage("the access control list must be a JSON object of sections")
    })?;
    let mut acl = Acl::default();
    for (key, value) in object {
        let section = key.as_str();
        let read = |method: &str| -> Result<bool, Failure> {
            match value.get(method) {
                None | Some(Value::Null) => Ok(false),
                Some(Value::Bool(b)) => Ok(*b),
                Some(other) => Err(Failure::usage(format!(
                    "{section}.{method} is {other}, not true or false"
                ))),
            }
        };
        let known = ACL_SECTIONS.iter().find(|(s, _)| *s == section);
        let Some((_, methods)) = known else {
            if section == "extra" {
                if let Value::Object(extra) = value {
                    acl.extra
                        .extend(extra.iter().map(|(k, v)| (k.clone(), v.clone())));
                }
            } else {
                acl.extra.insert(section.to_owned(), value.clone());
            }
            continue;
        };
        if !value.is_object() {
            return Err(Failure::usage(format!(
                "section {section} must be an object of methods"
            )));
        }
        let extra = section_extra(value, methods);
        match section {
            "content" | "customers" | "zones" | "ftplog" => {
                let target = match section {
                    "content" => &mut acl.content,
                    "customers" => &mut acl.customers,
                    "zones" => &mut acl.zones,
                    _ => &mut acl.ftplog,
                };
                target.post = read("post")?;
                target.get = read("get")?;
                target.delete = read("delete")?;
                target.extra = extra;
            }
            "search" | "stats" | "logs" => {
                let target = match section {
                    "search" => &mut acl.search,
                    "stats" => &mut acl.stats,
                    _ => &mut acl.logs,
                };
                target.get = read("get")?;
                target.extra = extra;
            }
            _ => {
                acl.origins.put = read("put")?;
                acl.origins.post = read("post")?;
                acl.origins.get = read("get")?;
                acl.origins.delete = read("delete")?;
                acl.origins.extra = extra;
            }
        }
    }
    Ok(acl)
}

/// The methods of a section the SDK does not name (and the section's own `extra`).
fn section_extra(section: &Value, known: &[&str]) -> Extra {
    let mut extra = Extra::new();
    if let Some(object) = section.as_object() {
        for (key, value) in object {
            if key == "extra" {
                if let Value::Object(inner) = value {
                    extra.extend(inner.iter().map(|(k, v)| (k.clone(), v.clone())));
                }
            } else if !known.contains(&key.as_str()) {
                extra.insert(key.clone(), value.clone());
            }
        }
    }
    extra
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allow_lists_set_exactly_what_they_name() {
        let acl = acl_allowing(&["content.post".into(), "Origins.PUT".into()]).unwrap();
        assert!(acl.content.post && !acl.content.get && acl.origins.put);
        assert!(!acl.stats.get);
        let failure = acl_allowing(&["stats.post".into()]).unwrap_err();
        assert_eq!(failure.code, crate::failure::USAGE);
        assert!(failure.hint.unwrap().contains("stats.get"));
    }

    #[test]
    fn the_printed_shape_reads_back_with_unknown_parts_kept() {
        let json = serde_json::json!({
            "content": {"post": true, "get": false, "delete": true, "purge_all": true},
            "logs": {"get": true},
            "billing": {"get": true},
        });
        let acl = acl_from_json(&json).unwrap();
        assert!(acl.content.post && acl.content.delete && acl.logs.get);
        assert_eq!(acl.content.extra["purge_all"], Value::Bool(true));
        assert_eq!(acl.extra["billing"], serde_json::json!({"get": true}));
        let round = serde_json::to_value(&acl).unwrap();
        assert_eq!(acl_from_json(&round).unwrap(), acl);
        assert!(acl_from_json(&serde_json::json!({"content": {"get": "yes"}})).is_err());
        assert!(acl_from_json(&serde_json::json!([])).is_err());
    }
}
