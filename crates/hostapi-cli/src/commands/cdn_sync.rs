//! `hostapi cdn export|plan|apply`: the CDN's origins and access control list as code
//! (the SDK's `hostapi-sync`).

use std::path::PathBuf;

use clap::Args;
use hostapi_sync::{CdnConfig, FileFormat};

use super::Context;
use super::dns_sync::{
    ApplyFlags, Applying, apply_options, apply_then_verify, file_failure, parse_format, parse_size,
    print_diff, sync_failure,
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

/// `cdn plan`.
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

/// `cdn apply`.
#[derive(Debug, Args)]
pub(crate) struct ApplyArgs {
    #[command(flatten)]
    plan: PlanArgs,
    #[command(flatten)]
    apply: ApplyFlags,
}

fn read(context: &Context, args: &PlanArgs) -> Result<CdnConfig, Failure> {
    CdnConfig::read_file_capped(&args.file, args.format, args.max_file_size)
        .map_err(|e| file_failure(&context.client, e))
}

fn summary(plan: &hostapi_sync::CdnPlan) {
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
    let config = hostapi_sync::CdnSync::new(&context.client)
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

pub(crate) async fn plan(context: &Context, args: PlanArgs) -> Result<(), Failure> {
    let desired = read(context, &args)?;
    let plan = hostapi_sync::CdnSync::new(&context.client)
        .plan(&desired)
        .await
        .map_err(sync_failure)?;
    let out = &context.printer;
    if out.is_json() {
        println!("{}", untrusted::json_text(out.to_json(&plan)?.to_string()));
    } else {
        print_diff(out, &plan.diff_lines(), false);
    }
    summary(&plan);
    Ok(())
}

pub(crate) async fn apply(context: &Context, args: ApplyArgs) -> Result<(), Failure> {
    let ApplyArgs { plan: args, apply } = args;
    let desired = read(context, &args)?;
    let sync = hostapi_sync::CdnSync::new(&context.client);
    let plan = sync.plan(&desired).await.map_err(sync_failure)?;
    print_diff(
        &context.printer,
        &plan.diff_lines(),
        context.printer.is_json(),
    );
    summary(&plan);
    apply_then_verify(
        context,
        Applying {
            target: "the CDN",
            file: &args.file,
            flags: &apply,
            changes: plan.len(),
        },
        sync.apply(&plan, &apply_options(&apply)),
        async {
            let check = sync.plan(&desired).await?;
            Ok((check.len(), check.diff_lines()))
        },
    )
    .await
}
