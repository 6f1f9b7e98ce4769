//! `hostapi dns export|plan|apply`: a domain's DNS records as code (the SDK's
//! `hostapi-sync`). Also the flow `cdn plan|apply` shares ([`Target`], [`plan_flow`],
//! [`apply_flow`]) and the helpers of `cdn export`.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use clap::Args;
use hostapi::types::DomainName;
use hostapi_sync::{
    Action, ApplyOptions, ApplyReport, DnsPlan, DnsPlanOptions, DnsSync, DnsZone, FileError,
    FileFormat, Outcome, Plan, SyncError, Thresholds,
};

use super::{Context, parse_id};
use crate::confirm::confirm;
use crate::failure::{API, CHANGES, Failure, OUTCOME_UNKNOWN, PARTIAL, REFUSED};
use crate::output::Printer;
use crate::untrusted;

/// `dns export`.
#[derive(Debug, Args)]
pub(crate) struct ExportArgs {
    /// The domain name.
    #[arg(value_parser = parse_id::<DomainName>, add = clap_complete::ArgValueCandidates::new(crate::completion::domain_names))]
    domain: DomainName,
    /// The file format: bind (a zone file, the default), yaml, toml or octodns.
    #[arg(long, value_parser = parse_format)]
    format: Option<FileFormat>,
}

/// `dns plan`.
#[derive(Debug, Args)]
pub(crate) struct PlanArgs {
    /// The domain name.
    #[arg(value_parser = parse_id::<DomainName>, add = clap_complete::ArgValueCandidates::new(crate::completion::domain_names))]
    domain: DomainName,
    /// The desired records: a zone file (.zone), a record list (.yaml, .yml, .toml) or
    /// an octoDNS zone file (.yaml).
    file: PathBuf,
    /// The file's format, whatever its extension: bind, yaml, toml or octodns.
    #[arg(long, value_parser = parse_format)]
    format: Option<FileFormat>,
    /// Leave out the file's records the service cannot hold (their types or values),
    /// listing them, instead of refusing the file.
    #[arg(long)]
    skip_unsupported: bool,
    /// Also delete the records the file does not name (by default they are kept).
    #[arg(long)]
    prune: bool,
    /// The largest file read, in bytes (K, M, G: KiB, MiB, GiB); default 16M.
    #[arg(long, value_name = "SIZE", default_value = "16M", value_parser = parse_size)]
    max_file_size: u64,
}

/// `dns plan`: the file's flags and the drift check.
#[derive(Debug, Args)]
pub(crate) struct PlanCommand {
    #[command(flatten)]
    plan: PlanArgs,
    #[command(flatten)]
    check: CheckFlags,
}

/// The flags of every `plan` besides the file's.
#[derive(Debug, Args)]
pub(crate) struct CheckFlags {
    /// Exit 8 when the plan has changes, 0 when the service matches the file: a drift
    /// check for CI.
    #[arg(long)]
    pub(crate) expect_no_changes: bool,
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
    /// Show the plan and check that it still holds (and the safety thresholds), but
    /// send no write.
    #[arg(long)]
    pub(crate) dry_run: bool,
    /// Apply even when the plan updates or deletes more than --max-change-percent of
    /// what exists.
    #[arg(long)]
    pub(crate) force: bool,
    /// Apply a fresh plan when the service changed between the plan shown and the
    /// apply (by default that is refused, exit 9).
    #[arg(long)]
    pub(crate) replan: bool,
    /// The largest share of the existing records (or origins) one apply may update,
    /// and the largest it may delete, in percent, unless --force (as octoDNS).
    #[arg(long, value_name = "PERCENT", default_value_t = Thresholds::DEFAULT_PERCENT, value_parser = parse_percent)]
    pub(crate) max_change_percent: f64,
    /// The safety threshold holds only when at least this many records (or origins)
    /// exist.
    #[arg(long, value_name = "COUNT", default_value_t = Thresholds::DEFAULT_MIN_EXISTING)]
    pub(crate) min_existing: usize,
    /// Writes in flight at most (1-64).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub(crate) concurrency: u16,
}

impl ApplyFlags {
    fn thresholds(&self) -> Thresholds {
        Thresholds {
            max_update_percent: self.max_change_percent,
            max_delete_percent: self.max_change_percent,
            min_existing: self.min_existing,
        }
    }
}

/// Parses `--max-change-percent`: a number from 0 to 100.
fn parse_percent(value: &str) -> Result<f64, String> {
    match value.trim().trim_end_matches('%').parse::<f64>() {
        Ok(percent) if (0.0..=100.0).contains(&percent) => Ok(percent),
        _ => Err(format!("`{value}` is not a percentage from 0 to 100")),
    }
}

/// Parses `--format`.
pub(crate) fn parse_format(value: &str) -> Result<FileFormat, String> {
    FileFormat::from_name(value)
        .ok_or_else(|| format!("`{value}` is not bind, yaml, toml or octodns"))
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
        SyncError::Match(message) => {
            Failure::usage(message).hint("fix the file; nothing was written")
        }
        stale @ SyncError::Stale { .. } => Failure::new(REFUSED, stale.to_string())
            .hint("run `plan` again to see the changes now needed, or apply with --replan"),
        large @ SyncError::TooManyChanges { .. } => Failure::new(REFUSED, large.to_string()).hint(
            "check the plan above; if it is meant, apply with --force (or a higher \
                 --max-change-percent)",
        ),
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
        .replan(flags.replan)
        .thresholds(flags.thresholds())
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

/// A plan made against the service, with the number of items on it (the records or
/// origins the safety thresholds weigh changes against).
pub(crate) struct Planned<P> {
    pub(crate) plan: P,
    pub(crate) existing: usize,
}

/// What `plan` and `apply` need of a kind of configuration (DNS records, the CDN):
/// one flow ([`plan_flow`], [`apply_flow`]) serves both.
pub(crate) trait Target {
    /// The kind's plan.
    type Plan: Plan;
    /// What the kind's apply reports on.
    type Item: serde::Serialize;

    /// What is changed, for messages: `acme-1.com`, `the CDN`.
    fn name(&self) -> String;
    /// The file the service is made to match.
    fn file(&self) -> &Path;
    /// Reads the service and plans.
    async fn plan(&self) -> Result<Planned<Self::Plan>, SyncError>;
    /// Applies a plan.
    async fn apply(
        &self,
        plan: &Self::Plan,
        options: &ApplyOptions,
    ) -> Result<ApplyReport<Self::Item>, SyncError>;
    /// Tells on stderr what the plan does and what it leaves.
    fn summary(plan: &Self::Plan);
    /// The plan against the safety thresholds (as the apply checks it again).
    fn check(planned: &Planned<Self::Plan>, thresholds: &Thresholds) -> Result<(), SyncError>;
}

/// `plan`: the plan as a diff (or JSON) and a summary; with --expect-no-changes, exit 8
/// when there is anything to do.
pub(crate) async fn plan_flow<T: Target>(
    context: &Context,
    target: &T,
    check: &CheckFlags,
) -> Result<(), Failure> {
    let Planned { plan, .. } = target.plan().await.map_err(sync_failure)?;
    let out = &context.printer;
    if out.is_json() {
        println!("{}", untrusted::json_text(out.to_json(&plan)?.to_string()));
    } else {
        print_diff(out, &plan.diff_lines(), false);
    }
    T::summary(&plan);
    let changes = plan.len();
    if check.expect_no_changes && changes > 0 {
        return Err(Failure::new(
            CHANGES,
            format!(
                "{} does not match {}: {changes} change(s) needed",
                target.name(),
                target.file().display()
            ),
        )
        .hint("--expect-no-changes found drift: apply the file, or change it to match"));
    }
    Ok(())
}

/// `apply`: shows the plan, refuses one over the safety thresholds (unless --force),
/// asks, applies reporting each change's outcome, then plans again and refuses to
/// call it done unless nothing is left.
pub(crate) async fn apply_flow<T: Target>(
    context: &Context,
    target: &T,
    flags: &ApplyFlags,
) -> Result<(), Failure> {
    let out = &context.printer;
    let planned = target.plan().await.map_err(sync_failure)?;
    print_diff(out, &planned.plan.diff_lines(), out.is_json());
    T::summary(&planned.plan);
    let changes = planned.plan.len();
    let name = target.name();
    let file = target.file().display();
    if changes == 0 {
        if out.is_json() {
            println!("{}", serde_json::json!({ "changes": [] }));
        }
        return Ok(());
    }
    // Refused before asking; the apply checks its fresh plan again.
    if !flags.force {
        T::check(&planned, &flags.thresholds()).map_err(sync_failure)?;
    }
    if !flags.dry_run {
        confirm(&format!("apply {changes} change(s) to {name}"), context.yes)?;
    }
    let report = target
        .apply(&planned.plan, &apply_options(flags))
        .await
        .map_err(sync_failure)?;
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
    let Planned { plan: check, .. } = target.plan().await.map_err(sync_failure)?;
    let left = check.len();
    if left > 0 {
        print_diff(out, &check.diff_lines(), true);
        return Err(Failure::new(
            PARTIAL,
            format!("{name} does not match {file} after the apply: {left} change(s) still needed"),
        )
        .hint(format!(
            "the changes were applied, but another client may be changing {name}: plan again"
        )));
    }
    eprintln!("verified: {name} now matches {file}");
    Ok(())
}

/// The exit of an apply: 0 when everything was applied, 6 when an outcome is unknown,
/// 7 when some changes were applied and others not, 1 when none was applied.
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
    // Applying again repeats only what is left, and a change the service refused (its
    // reason is above) is refused again until the file or the service changes: the
    // hint says so rather than promise that a retry succeeds.
    let why = "each reason is above: a change the service refused fails again until the file \
               changes; one lost to a server error or the network may pass when applied again";
    if not_applied > 0 && applied > 0 {
        return Err(Failure::new(
            PARTIAL,
            format!("{applied} change(s) applied, {not_applied} not applied"),
        )
        .hint(format!("`plan` shows what is left; {why}")));
    }
    if not_applied > 0 {
        return Err(Failure::new(
            API,
            format!("none of the {not_applied} change(s) was applied"),
        )
        .hint(format!("nothing changed; {why}")));
    }
    Ok(())
}

/// Reads the file, prints its warnings, and refuses it when it holds records the
/// service cannot hold (each listed), unless `--skip-unsupported` (then each is
/// listed as skipped).
fn read(context: &Context, args: &PlanArgs) -> Result<DnsZone, Failure> {
    let zone = DnsZone::read_file_capped(&args.file, &args.domain, args.format, args.max_file_size)
        .map_err(|e| file_failure(&context.client, e))?;
    for warning in &zone.warnings {
        eprintln!(
            "warning: {}: {}",
            args.file.display(),
            untrusted::line(warning)
        );
    }
    if zone.unsupported.is_empty() {
        return Ok(zone);
    }
    let listed = |prefix: &str| {
        for record in &zone.unsupported {
            eprintln!(
                "{prefix}{}: {}",
                args.file.display(),
                untrusted::line(&record.describe(&args.domain))
            );
        }
    };
    if args.skip_unsupported {
        listed("skipped: ");
        return Ok(zone);
    }
    listed("cannot hold: ");
    Err(Failure::usage(format!(
        "{} holds {} record(s) the service cannot hold (listed above); nothing was sent",
        args.file.display(),
        zone.unsupported.len()
    ))
    .hint("remove them from the file, or plan with --skip-unsupported to leave them out"))
}

fn options(args: &PlanArgs) -> DnsPlanOptions {
    DnsPlanOptions::default()
        .prune(args.prune)
        .skip_unsupported(args.skip_unsupported)
}

pub(crate) async fn export(context: &Context, args: ExportArgs) -> Result<(), Failure> {
    let zone = DnsSync::new(&context.client, &args.domain)
        .export()
        .await
        .map_err(Failure::from)?;
    let format = args.format.unwrap_or(FileFormat::Bind);
    let text = zone.to_text(format).map_err(Failure::from)?;
    print_file(&text.text);
    for skipped in &zone.skipped {
        eprintln!("left out: {}", untrusted::line(&skipped.to_string()));
    }
    for entry in &text.not_expressible {
        eprintln!(
            "warning: the {format} format cannot express {}: left out (use --format yaml to keep it)",
            untrusted::line(&entry.describe(&args.domain))
        );
    }
    Ok(())
}

/// A domain's records, made to match a file.
struct Dns<'a> {
    sync: DnsSync,
    desired: DnsZone,
    args: &'a PlanArgs,
}

impl<'a> Dns<'a> {
    fn new(context: &Context, args: &'a PlanArgs) -> Result<Self, Failure> {
        Ok(Self {
            sync: DnsSync::new(&context.client, &args.domain),
            desired: read(context, args)?,
            args,
        })
    }
}

impl Target for Dns<'_> {
    type Plan = DnsPlan;
    type Item = hostapi_sync::DnsEntry;

    fn name(&self) -> String {
        self.args.domain.to_string()
    }

    fn file(&self) -> &Path {
        &self.args.file
    }

    async fn plan(&self) -> Result<Planned<DnsPlan>, SyncError> {
        // The desired zone was read for this domain: plan against one read of it.
        let current = self.sync.current().await?;
        let plan = hostapi_sync::plan_dns(&current, &self.desired, options(self.args));
        Ok(Planned {
            plan,
            existing: current.records.len(),
        })
    }

    async fn apply(
        &self,
        plan: &DnsPlan,
        options: &ApplyOptions,
    ) -> Result<ApplyReport<Self::Item>, SyncError> {
        self.sync.apply(plan, options).await
    }

    fn summary(plan: &DnsPlan) {
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

    fn check(planned: &Planned<DnsPlan>, thresholds: &Thresholds) -> Result<(), SyncError> {
        let plan = &planned.plan;
        thresholds.check(
            planned.existing,
            plan.update.len(),
            plan.delete.len(),
            "records",
        )
    }
}

pub(crate) async fn plan(context: &Context, args: PlanCommand) -> Result<(), Failure> {
    plan_flow(context, &Dns::new(context, &args.plan)?, &args.check).await
}

pub(crate) async fn apply(context: &Context, args: ApplyArgs) -> Result<(), Failure> {
    apply_flow(context, &Dns::new(context, &args.plan)?, &args.apply).await
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
