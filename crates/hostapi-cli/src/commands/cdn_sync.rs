//! `hostapi cdn export|plan|apply`: the CDN's origins and access control list as code
//! (the SDK's `hostapi::sync`).

use std::path::PathBuf;

use clap::Args;
use hostapi::{CdnConfig, FileFormat};

use super::Context;
use super::dns_sync::{
    ApplyFlags, apply_options, file_failure, parse_format, print_diff, report_outcome, sync_failure,
};
use crate::confirm::confirm;
use crate::failure::{API, Failure};

/// `cdn export`.
#[derive(Debug, Args)]
pub(crate) struct ExportArgs {
    /// The file format: yaml (the default) or toml.
    #[arg(long, value_parser = parse_format)]
    format: Option<FileFormat>,
}

/// `cdn plan`.
#[derive(Debug, Args)]
pub(crate) struct PlanArgs {
    /// The desired origins and ACL (.yaml, .yml or .toml).
    file: PathBuf,
    /// The file's format, whatever its extension: yaml or toml.
    #[arg(long, value_parser = parse_format)]
    format: Option<FileFormat>,
}

/// `cdn apply`.
#[derive(Debug, Args)]
pub(crate) struct ApplyArgs {
    #[command(flatten)]
    plan: PlanArgs,
    #[command(flatten)]
    apply: ApplyFlags,
}

fn read(args: &PlanArgs) -> Result<CdnConfig, Failure> {
    CdnConfig::read_file(&args.file, args.format).map_err(file_failure)
}

fn summary(plan: &hostapi::CdnPlan) {
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

pub(crate) async fn export(context: &Context, args: ExportArgs) -> Result<(), Failure> {
    let config = context
        .client
        .cdn_sync()
        .current()
        .await
        .map_err(Failure::from)?;
    let text = config
        .to_text(args.format.unwrap_or(FileFormat::Yaml))
        .map_err(Failure::from)?;
    print!("{text}");
    for skipped in &config.skipped {
        eprintln!("left out: {skipped}");
    }
    Ok(())
}

pub(crate) async fn plan(context: &Context, args: PlanArgs) -> Result<(), Failure> {
    let desired = read(&args)?;
    let plan = context
        .client
        .cdn_sync()
        .plan(&desired)
        .await
        .map_err(sync_failure)?;
    let out = &context.printer;
    if out.is_json() {
        println!("{}", out.to_json(&plan)?);
    } else {
        print_diff(out, &plan.diff_lines(), false);
    }
    summary(&plan);
    Ok(())
}

pub(crate) async fn apply(context: &Context, args: ApplyArgs) -> Result<(), Failure> {
    let ApplyArgs { plan: args, apply } = args;
    let desired = read(&args)?;
    let sync = context.client.cdn_sync();
    let plan = sync.plan(&desired).await.map_err(sync_failure)?;
    let out = &context.printer;
    print_diff(out, &plan.diff_lines(), out.is_json());
    summary(&plan);
    if plan.is_empty() {
        if out.is_json() {
            println!("{}", serde_json::json!({ "changes": [] }));
        }
        return Ok(());
    }
    if !apply.dry_run {
        confirm(
            &format!("apply {} change(s) to the CDN", plan.len()),
            context.yes,
        )?;
    }
    let report = sync
        .apply(&plan, &apply_options(&apply))
        .await
        .map_err(sync_failure)?;
    if out.is_json() {
        println!("{}", out.to_json(&report)?);
    }
    if apply.dry_run {
        eprintln!("dry run: {} change(s), none sent", plan.len());
        return Ok(());
    }
    report_outcome(&report)?;
    let check = sync.plan(&desired).await.map_err(sync_failure)?;
    if !check.is_empty() {
        print_diff(out, &check.diff_lines(), true);
        return Err(Failure::new(
            API,
            format!(
                "the CDN does not match {} after the apply: {} change(s) still needed",
                args.file.display(),
                check.len()
            ),
        )
        .hint("another client may be changing the CDN; plan again"));
    }
    eprintln!("verified: the CDN now matches {}", args.file.display());
    Ok(())
}
