//! `hostapi cdn export|plan|apply`: the CDN's origins and access control list as code
//! (the SDK's `hostapi-sync`), through the flow `dns plan|apply` shares.

use std::path::{Path, PathBuf};

use clap::Args;
use hostapi_sync::{
    ApplyOptions, ApplyReport, CdnConfig, CdnItem, CdnPlan, CdnSync, FileFormat, SyncError,
    Thresholds,
};

use super::Context;
use super::dns_sync::{
    ApplyFlags, CheckFlags, Planned, Target, apply_flow, file_failure, parse_format, parse_size,
    plan_flow,
};
use crate::failure::Failure;
use crate::untrusted;

/// `cdn export`.
#[derive(Debug, Args)]
pub(crate) struct ExportArgs {
    /// The file format: yaml (the default) or toml.
    #[arg(long, value_parser = parse_format)]
    format: Option<FileFormat>,
}

/// The file of `cdn plan` and `cdn apply`.
#[derive(Debug, Args)]
pub(crate) struct PlanArgs {
    /// The desired origins and ACL (.yaml, .yml or .toml).
    file: PathBuf,
    /// The file's format, whatever its extension: yaml or toml.
    #[arg(long, value_parser = parse_format)]
    format: Option<FileFormat>,
    /// The largest file read, in bytes (K, M, G: KiB, MiB, GiB); default 16M.
    #[arg(long, value_name = "SIZE", default_value = "16M", value_parser = parse_size)]
    max_file_size: u64,
}

/// `cdn plan`.
#[derive(Debug, Args)]
pub(crate) struct PlanCommand {
    #[command(flatten)]
    plan: PlanArgs,
    #[command(flatten)]
    check: CheckFlags,
}

/// `cdn apply`.
#[derive(Debug, Args)]
pub(crate) struct ApplyArgs {
    #[command(flatten)]
    plan: PlanArgs,
    #[command(flatten)]
    apply: ApplyFlags,
}

pub(crate) async fn export(context: &Context, args: ExportArgs) -> Result<(), Failure> {
    let config = CdnSync::new(&context.client)
        .current()
        .await
        .map_err(Failure::from)?;
    let text = config
        .to_text(args.format.unwrap_or(FileFormat::Yaml))
        .map_err(Failure::from)?;
    super::dns_sync::print_file(&text);
    for skipped in &config.skipped {
        eprintln!("left out: {}", untrusted::line(&skipped.to_string()));
    }
    Ok(())
}

/// The CDN's origins and ACL, made to match a file.
struct Cdn<'a> {
    sync: CdnSync,
    desired: CdnConfig,
    file: &'a Path,
}

impl<'a> Cdn<'a> {
    fn new(context: &Context, args: &'a PlanArgs) -> Result<Self, Failure> {
        let desired = CdnConfig::read_file_capped(&args.file, args.format, args.max_file_size)
            .map_err(|e| file_failure(&context.client, e))?;
        Ok(Self {
            sync: CdnSync::new(&context.client),
            desired,
            file: &args.file,
        })
    }
}

impl Target for Cdn<'_> {
    type Plan = CdnPlan;
    type Item = CdnItem;

    fn name(&self) -> String {
        "the CDN".to_owned()
    }

    fn file(&self) -> &Path {
        self.file
    }

    async fn plan(&self) -> Result<Planned<CdnPlan>, SyncError> {
        let current = self.sync.current().await?;
        let plan = hostapi_sync::plan_cdn(&current, &self.desired)?;
        Ok(Planned {
            plan,
            existing: current.origins.len(),
        })
    }

    async fn apply(
        &self,
        plan: &CdnPlan,
        options: &ApplyOptions,
    ) -> Result<ApplyReport<CdnItem>, SyncError> {
        self.sync.apply(plan, options).await
    }

    fn summary(plan: &CdnPlan) {
        if plan.is_empty() {
            eprintln!("the CDN is in sync: nothing to do");
        } else {
            eprintln!(
                "{} to create, {} to update",
                plan.create.len(),
                plan.update.len()
            );
        }
        if !plan.kept.is_empty() {
            eprintln!(
                "{} origin(s) only on the service are kept (the API cannot delete origins)",
                plan.kept.len()
            );
        }
    }

    fn check(planned: &Planned<CdnPlan>, thresholds: &Thresholds) -> Result<(), SyncError> {
        thresholds.check(
            planned.existing,
            planned.plan.origin_updates(),
            0,
            "origins",
        )
    }
}

pub(crate) async fn plan(context: &Context, args: PlanCommand) -> Result<(), Failure> {
    plan_flow(context, &Cdn::new(context, &args.plan)?, &args.check).await
}

pub(crate) async fn apply(context: &Context, args: ApplyArgs) -> Result<(), Failure> {
    apply_flow(context, &Cdn::new(context, &args.plan)?, &args.apply).await
}
