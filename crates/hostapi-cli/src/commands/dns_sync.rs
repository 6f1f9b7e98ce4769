//! `hostapi dns export|plan|apply`: a domain's DNS records as code (the SDK's
//! `hostapi-sync`). Also the helpers `cdn export|plan|apply` share.

use std::io::IsTerminal;
use std::path::PathBuf;

use clap::Args;
use hostapi::types::DomainName;
use hostapi_sync::{
    Action, ApplyOptions, ApplyReport, DnsPlanOptions, DnsZone, FileError, FileFormat, Outcome,
    SyncError,
};

use super::{Context, parse_id};
use crate::confirm::confirm;
use crate::failure::{API, Failure, OUTCOME_UNKNOWN};
use crate::output::Printer;
use crate::untrusted;

/// `dns export`.
#[derive(Debug, Args)]
pub(crate) struct ExportArgs {
    /// The domain name.
    #[arg(value_parser = parse_id::<DomainName>, add = clap_complete::ArgValueCandidates::new(crate::completion::domain_names))]
    domain: DomainName,
    /// The file format: bind (a zone file, the default), yaml or toml.
    #[arg(long, value_parser = parse_format)]
    format: Option<FileFormat>,
}

/// `dns plan`.
#[derive(Debug, Args)]
pub(crate) struct PlanArgs {
    /// The domain name.
    #[arg(value_parser = parse_id::<DomainName>, add = clap_complete::ArgValueCandidates::new(crate::completion::domain_names))]
    domain: DomainName,
    /// The desired records: a zone file (.zone) or a record list (.yaml, .yml, .toml).
    file: PathBuf,
    /// The file's format, whatever its extension: bind, yaml or toml.
    #[arg(long, value_parser = parse_format)]
    format: Option<FileFormat>,
    /// Also delete the records the file does not name (by default they are kept).
    #[arg(long)]
    prune: bool,
    /// The largest file read, in bytes (K, M, G: KiB, MiB, GiB); default 16M.
    #[arg(long, value_name = "SIZE", default_value = "16M", value_parser = parse_size)]
    max_file_size: u64,
}

/// `dns apply`.
#[derive(Debug, Args)]
pub(crate) struct ApplyArgs {
    #[command(flatten)]
    plan: PlanArgs,
    #[command(flatten)]
    apply: ApplyFlags,
}

/// The flags of every `apply`.
#[derive(Debug, Args)]
pub(crate) struct ApplyFlags {
    /// Show the plan and check that it still holds, but send no write.
    #[arg(long)]
    pub(crate) dry_run: bool,
    /// Apply even when the service changed between the plan and the apply (the plan
    /// is made again first).
    #[arg(long)]
    pub(crate) force: bool,
    /// Writes in flight at most (1-64).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub(crate) concurrency: u16,
}

/// Parses `--format`.
pub(crate) fn parse_format(value: &str) -> Result<FileFormat, String> {
    FileFormat::from_name(value).ok_or_else(|| format!("`{value}` is not bind, yaml or toml"))
}

/// Parses `--max-file-size`: bytes, or a number with K, M or G (KiB, MiB, GiB).
pub(crate) fn parse_size(value: &str) -> Result<u64, String> {
    let text = value.trim();
    let upper = text.to_ascii_uppercase();
    let digits = upper
        .trim_end_matches("IB")
        .trim_end_matches('B')
        .trim_end_matches(['K', 'M', 'G']);
    let unit = &upper[digits.len()..];
    let factor: u64 = match unit.chars().next() {
        None | Some('B') => 1,
        Some('K') => 1 << 10,
        Some('M') => 1 << 20,
        Some('G') => 1 << 30,
        _ => 0,
    };
    let number: u64 = digits.trim().parse().unwrap_or(0);
    match number.checked_mul(factor) {
        Some(bytes) if bytes > 0 => Ok(bytes),
        _ => Err(format!(
            "`{value}` is not a size: give bytes, or a number with K, M or G (e.g. 64M)"
        )),
    }
}

/// A bad file: a usage error naming the file, line and field; nothing was sent. The
/// configured secrets are taken out of the message (a file given by mistake may
/// hold them).
pub(crate) fn file_failure(client: &hostapi::Client, error: FileError) -> Failure {
    Failure::usage(client.scrub_secrets(&error.to_string())).hint("fix the file; nothing was sent")
}

/// A plan or apply that could not run.
pub(crate) fn sync_failure(error: SyncError) -> Failure {
    match error {
        SyncError::File(error) => Failure::usage(error.to_string()),
        SyncError::Api(error) => error.into(),
        stale @ SyncError::Stale { .. } => Failure::new(API, stale.to_string())
            .hint("run `plan` again to see the changes now needed, or apply with --force"),
        other => Failure::new(API, other.to_string()),
    }
}

/// Prints a plan's diff lines (`+`, `~`, `-`), coloured when the printer may. The
/// lines show names and contents from the service and the file: escaped.
pub(crate) fn print_diff(printer: &Printer, lines: &[(Action, String)], to_stderr: bool) {
    for (action, text) in lines {
        let text = untrusted::line(text);
        let line = if printer.colour() && !to_stderr {
            let colour = match action {
                Action::Create => "32",
                Action::Update => "33",
                Action::Delete => "31",
            };
            format!("\x1b[{colour}m{} {text}\x1b[0m", action.sign())
        } else {
            format!("{} {text}", action.sign())
        };
        if to_stderr {
            eprintln!("{line}");
        } else {
            println!("{line}");
        }
    }
}

/// Prints an exported file on stdout: exactly through a pipe or into a file; on a
/// terminal with the server's control characters shown escaped.
pub(crate) fn print_file(text: &str) {
    if std::io::stdout().is_terminal() {
        print!("{}", untrusted::file_for_terminal(text));
    } else {
        print!("{text}");
    }
}

/// Apply options that report each write on stderr.
pub(crate) fn apply_options(flags: &ApplyFlags) -> ApplyOptions {
    ApplyOptions::new()
        .concurrency(usize::from(flags.concurrency))
        .force(flags.force)
        .dry_run(flags.dry_run)
        .on_progress(|p| {
            let outcome = match &p.outcome {
                Outcome::Applied => "applied".to_owned(),
                Outcome::NotApplied { error } => format!("NOT applied: {error}"),
                Outcome::Unknown { error } => format!("outcome UNKNOWN: {error}"),
                Outcome::Skipped => "skipped".to_owned(),
            };
            let line = format!("[{}/{}] {} ({outcome})", p.done, p.total, p.change);
            eprintln!("{}", untrusted::line(&line));
        })
}

/// What an apply is about, for its messages.
pub(crate) struct Applying<'a> {
    /// What is changed, e.g. `acme-1.com` or `the CDN`.
    pub(crate) target: &'a str,
    /// The file it is made to match.
    pub(crate) file: &'a std::path::Path,
    pub(crate) flags: &'a ApplyFlags,
    /// How many changes the plan shown holds.
    pub(crate) changes: usize,
}

/// The part of `dns apply` and `cdn apply` after the plan is shown: ask, apply, report
/// each change's outcome, then plan again (`replan`: the changes still needed and their
/// diff) and refuse to call it done unless nothing is left.
pub(crate) async fn apply_then_verify<T: serde::Serialize>(
    context: &Context,
    applying: Applying<'_>,
    apply: impl Future<Output = Result<ApplyReport<T>, SyncError>>,
    replan: impl Future<Output = Result<(usize, Vec<(Action, String)>), SyncError>>,
) -> Result<(), Failure> {
    let Applying {
        target,
        file,
        flags,
        changes,
    } = applying;
    let out = &context.printer;
    if changes == 0 {
        if out.is_json() {
            println!("{}", serde_json::json!({ "changes": [] }));
        }
        return Ok(());
    }
    if !flags.dry_run {
        confirm(
            &format!("apply {changes} change(s) to {target}"),
            context.yes,
        )?;
    }
    let report = apply.await.map_err(sync_failure)?;
    if out.is_json() {
        println!(
            "{}",
            untrusted::json_text(out.to_json(&report)?.to_string())
        );
    }
    if flags.dry_run {
        eprintln!("dry run: {changes} change(s), none sent");
        return Ok(());
    }
    report_outcome(&report)?;
    let (left, diff) = replan.await.map_err(sync_failure)?;
    if left > 0 {
        print_diff(out, &diff, true);
        return Err(Failure::new(
            API,
            format!(
                "{target} does not match {} after the apply: {left} change(s) still needed",
                file.display()
            ),
        )
        .hint(format!(
            "another client may be changing {target}; plan again"
        )));
    }
    eprintln!("verified: {target} now matches {}", file.display());
    Ok(())
}

/// The exit of an apply: 0 when everything was applied, 6 when an outcome is unknown,
/// 1 when a change was not applied.
pub(crate) fn report_outcome<T>(report: &ApplyReport<T>) -> Result<(), Failure> {
    let (applied, not_applied, unknown, _) = report.counts();
    eprintln!("{applied} applied, {not_applied} not applied, {unknown} unknown");
    if unknown > 0 {
        return Err(Failure::new(
            OUTCOME_UNKNOWN,
            format!("{unknown} change(s) may or may not have been applied"),
        )
        .hint("run `plan` again: it shows what is still to do"));
    }
    if not_applied > 0 {
        return Err(
            Failure::new(API, format!("{not_applied} change(s) were not applied"))
                .hint("the other changes were applied; apply again to retry the rest"),
        );
    }
    Ok(())
}

fn read(context: &Context, args: &PlanArgs) -> Result<DnsZone, Failure> {
    DnsZone::read_file_capped(&args.file, &args.domain, args.format, args.max_file_size)
        .map_err(|e| file_failure(&context.client, e))
}

fn options(args: &PlanArgs) -> DnsPlanOptions {
    DnsPlanOptions::default().prune(args.prune)
}

pub(crate) async fn export(context: &Context, args: ExportArgs) -> Result<(), Failure> {
    let zone = hostapi_sync::DnsSync::new(&context.client, &args.domain)
        .export()
        .await
        .map_err(Failure::from)?;
    let text = zone
        .to_text(args.format.unwrap_or(FileFormat::Bind))
        .map_err(Failure::from)?;
    print_file(&text.text);
    for skipped in &zone.skipped {
        eprintln!("left out: {}", untrusted::line(&skipped.to_string()));
    }
    for entry in &text.not_expressible {
        eprintln!(
            "warning: a zone file cannot express {}: written as a comment (use --format yaml to keep it)",
            untrusted::line(&entry.describe(&args.domain))
        );
    }
    Ok(())
}

pub(crate) async fn plan(context: &Context, args: PlanArgs) -> Result<(), Failure> {
    let desired = read(context, &args)?;
    let plan = hostapi_sync::DnsSync::new(&context.client, &args.domain)
        .plan(&desired, options(&args))
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

fn summary(plan: &hostapi_sync::DnsPlan) {
    if plan.is_empty() {
        eprintln!("{} is in sync: nothing to do", plan.domain());
    } else {
        eprintln!(
            "{} to create, {} to update, {} to delete{}",
            plan.create.len(),
            plan.update.len(),
            plan.delete.len(),
            if plan.ttl.is_some() {
                ", and the TTL"
            } else {
                ""
            }
        );
    }
    if !plan.kept.is_empty() {
        eprintln!(
            "{} record(s) only on the service are kept (--prune deletes them)",
            plan.kept.len()
        );
    }
}

pub(crate) async fn apply(context: &Context, args: ApplyArgs) -> Result<(), Failure> {
    let ApplyArgs { plan: args, apply } = args;
    let desired = read(context, &args)?;
    let sync = hostapi_sync::DnsSync::new(&context.client, &args.domain);
    let plan = sync
        .plan(&desired, options(&args))
        .await
        .map_err(sync_failure)?;
    print_diff(
        &context.printer,
        &plan.diff_lines(),
        context.printer.is_json(),
    );
    summary(&plan);
    let target = args.domain.to_string();
    apply_then_verify(
        context,
        Applying {
            target: &target,
            file: &args.file,
            flags: &apply,
            changes: plan.len(),
        },
        sync.apply(&plan, &apply_options(&apply)),
        async {
            let check = sync.plan(&desired, options(&args)).await?;
            Ok((check.len(), check.diff_lines()))
        },
    )
    .await
}

#[cfg(test)]
mod tests {
    use super::parse_size;

    #[test]
    fn sizes_read_with_binary_units() {
        for (text, bytes) in [
            ("1024", 1024),
            ("1K", 1024),
            ("16M", 16 << 20),
            ("16MiB", 16 << 20),
            ("2g", 2 << 30),
            ("512b", 512),
        ] {
            assert_eq!(parse_size(text), Ok(bytes), "{text}");
        }
        for text in ["", "0", "-1", "1T", "M", "1.5M", "99999999999999999999G"] {
            assert!(parse_size(text).is_err(), "{text}");
        }
    }
}
