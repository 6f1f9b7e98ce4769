//! Configuration as code on top of the `hostapi` SDK, in its own crate so that the
//! SDK carries none of its file formats' dependencies: a desired state for a domain's DNS records and for the CDN's
//! origins and access control list, compared with what the service holds
//! ([`plan_dns`], [`plan_cdn`]), and applied with the fewest calls ([`DnsSync::apply`],
//! [`CdnSync::apply`]).
//!
//! ## DNS
//!
//! A domain's desired state is a [`DnsZone`]: its TTL and its records. Read it from a
//! file with [`DnsZone::read_file`] (a BIND zone file, `.zone`, read with the NLnet
//! Labs `domain` crate; a YAML/TOML record list, `.yaml`/`.yml`/`.toml`; or an
//! octoDNS zone file), or export the current one with [`DnsSync::export`] and
//! [`DnsZone::to_text`].
//!
//! - **TTL.** The service keeps one TTL per *domain*, not per record
//!   (`PUT /v1/domains/{domain}`, form `ttl`). A file's TTLs therefore must all agree:
//!   that one value is the domain's TTL ([`DnsZone::ttl`]); a file whose records carry
//!   different TTLs is refused, naming the line. A YAML/TOML file may give it once, at
//!   the top (`ttl:`), or on records; a zone file gives it with `$TTL` or per record.
//!   A zone without any TTL leaves the domain's TTL alone.
//! - **Matching.** Records are grouped into sets by name and type (names compared
//!   without regard to letter case or a final dot). A set named in the desired state is
//!   managed whole: values present on both sides are left alone, a changed value is an
//!   update of the record that held the old one (one call, not a delete and a create),
//!   and values beyond that are creates or deletes. Sets the desired state does not
//!   name are kept, unless pruning ([`DnsPlanOptions::prune`]). Values are compared by
//!   meaning: addresses by value, host names without letter case or final dot, TXT
//!   and SPF text exactly, other values with runs of white space as one and without
//!   letter case (hex digits and keywords are written either way).
//! - **Records the service manages itself.** `SOA` records are the service's (its
//!   serial, its name servers' timers): they are never exported, planned or written,
//!   and an `SOA` in a file is skipped. A record the service lists without a type
//!   cannot be written back as it is, so it is left out too ([`DnsZone::skipped`]).
//! - **Types.** A plan sends only the types the service holds
//!   ([`SERVICE_RECORD_TYPES`]) and values that pass its content rules
//!   ([`content_rule`]); a file's other records are listed in
//!   [`DnsZone::unsupported`] and refused at plan time, or left out with
//!   [`DnsPlanOptions::skip_unsupported`]. Records of any type on the service are
//!   kept and exported ([`DnsRecordType::Unknown`](hostapi::domains::DnsRecordType::Unknown)):
//!   a YAML or TOML file carries any type as text; a record whose type or value a
//!   format cannot express is written as a comment (zone files) or left out, and
//!   reported ([`ZoneText::not_expressible`]), and so kept on the service unless
//!   pruning.
//! - **Formats.** BIND zone files as BIND reads them, hostapi's YAML/TOML record
//!   lists, and octoDNS zone files ([`FileFormat::Octodns`]): see
//!   `docs/config-as-code.md`.
//!
//! ## CDN
//!
//! The desired state is a [`CdnConfig`]: origins (matched by their label) and, when
//! given, the whole ACL. Origins are created and updated; the API has no call that
//! deletes one, so origins only on the service are always kept (and listed as such).
//! Origin secrets (`basic_auth_password`, `headers_origin`) are never exported; give
//! them in the file to manage them.
//!
//! ## Applying
//!
//! [`DnsSync::apply`] and [`CdnSync::apply`] first read the service again and plan
//! anew: when the result differs from the plan given, the state changed under it and
//! the apply is refused with [`SyncError::Stale`] (unless
//! [`ApplyOptions::replan`], which applies the fresh plan). The plan to apply is then
//! held against the [`Thresholds`], as octoDNS does: when 10 or more records (or
//! origins) exist, a plan that updates or deletes more than 30 % of them is refused
//! with [`SyncError::TooManyChanges`] before any write (unless
//! [`ApplyOptions::force`]). Changes then run phase by
//! phase (deletes, updates, creates, then the TTL), each phase with at most
//! [`ApplyOptions::concurrency`] calls in flight (the facade's [`bulk`](hostapi::bulk::bulk)).
//! Each change is reported with the honest outcome of its write ([`Outcome`]): applied,
//! not applied, or unknown; an unknown outcome is read back with the group's
//! `confirm_*` call first, and stays unknown only when that read fails too.
//!
//! ```no_run
//! # async fn run(client: hostapi::Client) -> Result<(), hostapi_sync::SyncError> {
//! use hostapi_sync::{ApplyOptions, DnsPlanOptions, DnsSync, DnsZone};
//! let domain: hostapi::types::DomainName = "example.com".parse()?;
//! let desired = DnsZone::read_file("example.com.zone", &domain, None)?;
//! let sync = DnsSync::new(&client, &domain);
//! let plan = sync.plan(&desired, DnsPlanOptions::default()).await?;
//! println!("{} changes", plan.len());
//! let report = sync.apply(&plan, &ApplyOptions::default()).await?;
//! assert!(report.all_applied());
//! # Ok(())
//! # }
//! ```

mod cdn;
mod dns;
mod file;
mod octodns;
mod records_file;
mod zonefile;

use std::fmt;
use std::path::Path;

use schemars::JsonSchema;
use serde::Serialize;

pub use cdn::*;
pub use dns::*;
pub use file::{DEFAULT_MAX_FILE_BYTES, read_text, read_text_file};

use hostapi::{Confirmation, Error};

/// The format of a configuration file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum FileFormat {
    /// A BIND zone file (RFC 1035 master file), DNS only.
    Bind,
    /// YAML.
    Yaml,
    /// TOML.
    Toml,
    /// An octoDNS zone file (YAML: names as keys, `''` for the apex), DNS only.
    Octodns,
}

impl FileFormat {
    /// The format a file's extension names: `.zone` (BIND), `.yaml`/`.yml`, `.toml`.
    pub fn from_path(path: impl AsRef<Path>) -> Option<Self> {
        let extension = path.as_ref().extension()?.to_str()?.to_ascii_lowercase();
        match extension.as_str() {
            "zone" => Some(Self::Bind),
            "yaml" | "yml" => Some(Self::Yaml),
            "toml" => Some(Self::Toml),
            _ => None,
        }
    }

    /// Reads a format's name: `bind` (or `zone`), `yaml` (or `yml`), `toml`, `octodns`.
    pub fn from_name(name: &str) -> Option<Self> {
        match name.trim().to_ascii_lowercase().as_str() {
            "bind" | "zone" => Some(Self::Bind),
            "yaml" | "yml" => Some(Self::Yaml),
            "toml" => Some(Self::Toml),
            "octodns" => Some(Self::Octodns),
            _ => None,
        }
    }

    /// The format's name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Bind => "bind",
            Self::Yaml => "yaml",
            Self::Toml => "toml",
            Self::Octodns => "octodns",
        }
    }

    /// The format of `path`: `format` when given, else its extension's.
    pub(crate) fn of(path: &Path, format: Option<Self>) -> Result<Self, FileError> {
        format.or_else(|| Self::from_path(path)).ok_or_else(|| {
            FileError::new(
                path,
                None,
                None,
                "cannot tell the format from the file's extension: use .zone, .yaml, .yml \
                 or .toml, or name the format",
            )
        })
    }
}

impl fmt::Display for FileFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A configuration file that cannot be read or holds something invalid: which file,
/// which line and column (from 1) and which field, when they are known.
///
/// The message says what was expected and quotes at most the start of the offending
/// token (never a whole line: a file given by mistake may hold credentials). It holds
/// no secret the SDK knows of; text of the file itself can still be in it, so a
/// program that knows more secrets scrubs it ([`Client::scrub_secrets`](hostapi::Client::scrub_secrets)).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct FileError {
    /// The file, as it was named.
    pub file: String,
    /// The line, from 1.
    pub line: Option<usize>,
    /// The column (in characters, from 1), when the parser tells it.
    pub column: Option<usize>,
    /// The field (`records[3].values[0]`, `ttl`, `acl.content.get`, …).
    pub field: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl FileError {
    pub(crate) fn new(
        file: impl AsRef<Path>,
        line: Option<usize>,
        field: Option<String>,
        message: impl Into<String>,
    ) -> Self {
        Self {
            file: file.as_ref().display().to_string(),
            line,
            column: None,
            field: field.filter(|f| !f.is_empty() && f != "."),
            message: message.into(),
        }
    }

    /// The same error at `column` of its line.
    pub(crate) fn at_column(mut self, column: Option<usize>) -> Self {
        self.column = column.filter(|_| self.line.is_some());
        self
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(column) = self.column {
                write!(f, ":{column}")?;
            }
        }
        if let Some(field) = &self.field {
            write!(f, ": {field}")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for FileError {}

/// Why a plan or an apply could not run.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SyncError {
    /// A configuration file cannot be read or is invalid.
    #[error(transparent)]
    File(#[from] FileError),
    /// A call to the service failed (reading the current state, or a read-back).
    #[error(transparent)]
    Api(#[from] Error),
    /// The service's state changed after the plan was made: the plan no longer holds,
    /// and nothing was written. Plan again, or apply with [`ApplyOptions::replan`].
    #[error(
        "the state changed since the plan was made ({now} change(s) needed now, {planned} planned): nothing was written; plan again"
    )]
    Stale {
        /// The changes the plan holds.
        planned: usize,
        /// The changes a plan made now holds.
        now: usize,
    },
    /// The desired state cannot be matched with the service's: an origin's id is not
    /// on the service, or its label is carried by several origins there. Nothing was
    /// written.
    #[error("{0}")]
    Match(String),
    /// The plan updates or deletes a larger share of what exists than the
    /// [`Thresholds`] allow: nothing was written. Check the plan, then apply with
    /// [`ApplyOptions::force`] or a higher threshold.
    #[error(
        "refused: the plan would {verb} {count} of the {existing} {what} ({percent:.1} %), more than the {max_percent} % allowed when {min_existing} or more exist: nothing was written",
        verb = if *action == Action::Delete { "delete" } else { "update" },
        percent = share(*count, *existing),
    )]
    TooManyChanges {
        /// [`Action::Update`] or [`Action::Delete`].
        action: Action,
        /// How many the plan updates (or deletes).
        count: usize,
        /// How many exist on the service.
        existing: usize,
        /// What they are: `records`, `origins`.
        what: &'static str,
        /// The share allowed, in percent.
        max_percent: f64,
        /// The number of existing items from which the threshold holds.
        min_existing: usize,
    },
}

/// `count` as a percentage of `existing`.
fn share(count: usize, existing: usize) -> f64 {
    if existing == 0 {
        0.0
    } else {
        count as f64 * 100.0 / existing as f64
    }
}

/// How large a share of a zone (or of the CDN's origins) one apply may update or
/// delete: octoDNS's safety thresholds (`update_pcent_threshold`,
/// `delete_pcent_threshold`, `MIN_EXISTING_RECORDS`), with its defaults.
///
/// The rule is octoDNS's: when at least [`min_existing`](Self::min_existing) items
/// exist, a plan whose updates, or whose deletes, are *more than* the percentage of
/// the existing items is refused (exactly 30 % passes). Creates never count. Where
/// it differs: octoDNS counts record *sets* (a name and a type), hostapi counts
/// records as the service holds them, one per value (the service has no sets); the
/// domain's TTL, one setting here, is not counted; and octoDNS's separate refusal of
/// a change to the apex `NS` records is not made (the service manages those).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Thresholds {
    /// The largest share of the existing items a plan may update, in percent
    /// (default 30).
    pub max_update_percent: f64,
    /// The largest share of the existing items a plan may delete, in percent
    /// (default 30).
    pub max_delete_percent: f64,
    /// The thresholds hold only when at least this many items exist (default 10).
    pub min_existing: usize,
}

impl Default for Thresholds {
    fn default() -> Self {
        Self {
            max_update_percent: Self::DEFAULT_PERCENT,
            max_delete_percent: Self::DEFAULT_PERCENT,
            min_existing: Self::DEFAULT_MIN_EXISTING,
        }
    }
}

impl Thresholds {
    /// octoDNS's `MAX_SAFE_UPDATE_PCENT` and `MAX_SAFE_DELETE_PCENT`, in percent.
    pub const DEFAULT_PERCENT: f64 = 30.0;
    /// octoDNS's `MIN_EXISTING_RECORDS`.
    pub const DEFAULT_MIN_EXISTING: usize = 10;

    /// Checks a plan of `updates` and `deletes` against `existing` items (`what`
    /// names them in the error: `records`, `origins`). Updates are checked first, as
    /// octoDNS does. A percentage that is not a number refuses every update or delete.
    pub fn check(
        &self,
        existing: usize,
        updates: usize,
        deletes: usize,
        what: &'static str,
    ) -> Result<(), SyncError> {
        if existing < self.min_existing || existing == 0 {
            return Ok(());
        }
        for (action, count, max_percent) in [
            (Action::Update, updates, self.max_update_percent),
            (Action::Delete, deletes, self.max_delete_percent),
        ] {
            // `count / existing > max / 100`, without dividing.
            let over = max_percent.is_nan() || count as f64 * 100.0 > max_percent * existing as f64;
            if count > 0 && over {
                return Err(SyncError::TooManyChanges {
                    action,
                    count,
                    existing,
                    what,
                    max_percent,
                    min_existing: self.min_existing,
                });
            }
        }
        Ok(())
    }
}

/// One change of a plan: what is there before, what is wanted after (`None` before a
/// create, `None` after a delete).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Change<T> {
    /// The item as the service holds it now; `None` for a create.
    pub before: Option<T>,
    /// The item as it is wanted; `None` for a delete.
    pub after: Option<T>,
}

/// What every plan answers, DNS or CDN: a program that shows or checks plans of both
/// kinds handles them through this.
pub trait Plan: Serialize {
    /// The number of writes the plan makes.
    fn len(&self) -> usize;

    /// Whether the service already holds the desired state.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The changes as a diff, one line each, with their kind.
    fn diff_lines(&self) -> Vec<(Action, String)>;
}

impl Plan for DnsPlan {
    fn len(&self) -> usize {
        DnsPlan::len(self)
    }

    fn diff_lines(&self) -> Vec<(Action, String)> {
        DnsPlan::diff_lines(self)
    }
}

impl Plan for CdnPlan {
    fn len(&self) -> usize {
        CdnPlan::len(self)
    }

    fn diff_lines(&self) -> Vec<(Action, String)> {
        CdnPlan::diff_lines(self)
    }
}

/// What became of one write.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Outcome {
    /// The change is there (the call succeeded, or a read-back found it after an
    /// unknown outcome).
    Applied,
    /// The change is not there: the call failed without reaching the service, or a
    /// read-back after an unknown outcome did not find it.
    NotApplied {
        /// Why.
        error: String,
    },
    /// The change may or may not have happened: the answer was lost and reading back
    /// failed too. Check before applying again.
    Unknown {
        /// Why.
        error: String,
    },
    /// Not sent: a dry run.
    Skipped,
}

impl Outcome {
    /// Whether the change is there.
    pub fn is_applied(&self) -> bool {
        matches!(self, Self::Applied)
    }

    /// The outcome of a write and, after an unknown outcome, of its read-back.
    pub(crate) async fn settle<T, R, Fut>(written: Result<T, Error>, read_back: R) -> Self
    where
        R: FnOnce() -> Fut,
        Fut: Future<Output = Result<Confirmation<T>, Error>>,
    {
        match written {
            Ok(_) => Self::Applied,
            Err(error) if error.is_outcome_unknown() => match read_back().await {
                Ok(Confirmation::Applied(_)) => Self::Applied,
                Ok(Confirmation::NotApplied) => Self::NotApplied {
                    error: format!("{error}; read back: not applied"),
                },
                Ok(_) => Self::Unknown {
                    error: format!("{error}; read back: still unknown"),
                },
                Err(read) => Self::Unknown {
                    error: format!("{error}; reading back failed too: {read}"),
                },
            },
            Err(error) => Self::NotApplied {
                error: error.to_string(),
            },
        }
    }
}

/// What [`ApplyOptions::on_progress`] calls.
type ProgressCallback = std::sync::Arc<dyn Fn(&ApplyProgress) + Send + Sync>;

/// How an apply runs.
#[derive(Clone)]
pub struct ApplyOptions {
    /// At most this many writes in flight (1 to
    /// [`BulkOptions::MAX_CONCURRENCY`](hostapi::bulk::BulkOptions::MAX_CONCURRENCY); default
    /// 8).
    pub concurrency: usize,
    /// Apply a plan that updates or deletes more than the [`thresholds`](Self::thresholds)
    /// allow.
    pub force: bool,
    /// Apply a fresh plan even when the state changed since the plan was made.
    pub replan: bool,
    /// How much of what exists one apply may update or delete without
    /// [`force`](Self::force).
    pub thresholds: Thresholds,
    /// Send no write: check that the plan still holds and report every change as
    /// [`Outcome::Skipped`].
    pub dry_run: bool,
    progress: Option<ProgressCallback>,
}

impl fmt::Debug for ApplyOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ApplyOptions")
            .field("concurrency", &self.concurrency)
            .field("force", &self.force)
            .field("replan", &self.replan)
            .field("thresholds", &self.thresholds)
            .field("dry_run", &self.dry_run)
            .field("progress", &self.progress.is_some())
            .finish()
    }
}

impl Default for ApplyOptions {
    fn default() -> Self {
        Self {
            concurrency: hostapi::bulk::BulkOptions::DEFAULT_CONCURRENCY,
            force: false,
            replan: false,
            thresholds: Thresholds::default(),
            dry_run: false,
            progress: None,
        }
    }
}

impl ApplyOptions {
    /// The defaults: 8 writes at once, octoDNS's thresholds, not forced, not a dry run.
    pub fn new() -> Self {
        Self::default()
    }

    /// At most `concurrency` writes in flight.
    pub fn concurrency(mut self, concurrency: usize) -> Self {
        self.concurrency = concurrency;
        self
    }

    /// Applies a plan even when it updates or deletes more than the thresholds allow.
    pub fn force(mut self, force: bool) -> Self {
        self.force = force;
        self
    }

    /// Applies a fresh plan even when the state changed since the plan was made.
    pub fn replan(mut self, replan: bool) -> Self {
        self.replan = replan;
        self
    }

    /// How much of what exists one apply may update or delete.
    pub fn thresholds(mut self, thresholds: Thresholds) -> Self {
        self.thresholds = thresholds;
        self
    }

    /// Sends no write.
    pub fn dry_run(mut self, dry_run: bool) -> Self {
        self.dry_run = dry_run;
        self
    }

    /// Calls `progress` after each write ends.
    pub fn on_progress(
        mut self,
        progress: impl Fn(&ApplyProgress) + Send + Sync + 'static,
    ) -> Self {
        self.progress = Some(std::sync::Arc::new(progress));
        self
    }

    pub(crate) fn report(&self, progress: &ApplyProgress) {
        if let Some(callback) = &self.progress {
            callback(progress);
        }
    }

    pub(crate) fn bulk(&self) -> hostapi::bulk::BulkOptions {
        hostapi::bulk::BulkOptions::new(self.concurrency).as_completed()
    }
}

/// How far an apply is: reported after each write.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ApplyProgress {
    /// Writes ended so far.
    pub done: usize,
    /// Writes in all.
    pub total: usize,
    /// The change that just ended, in words (`+ www A 192.0.2.1`).
    pub change: String,
    /// Its outcome.
    pub outcome: Outcome,
}

/// What an apply did, change by change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ApplyReport<T> {
    /// Each change of the plan applied, with its outcome, in the order they ended.
    pub changes: Vec<ChangeReport<T>>,
    /// The domain's TTL, when it changed (DNS only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ttl: Option<ChangeReport<u32>>,
}

/// One change and its outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct ChangeReport<T> {
    /// `create`, `update` or `delete`.
    pub action: Action,
    /// The change.
    pub change: Change<T>,
    /// What became of it.
    #[serde(flatten)]
    pub outcome: Outcome,
}

/// The kind of a change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Something new.
    Create,
    /// Something changed.
    Update,
    /// Something removed.
    Delete,
}

impl Action {
    /// The diff sign: `+`, `~` or `-`.
    pub fn sign(self) -> char {
        match self {
            Self::Create => '+',
            Self::Update => '~',
            Self::Delete => '-',
        }
    }
}

impl<T> ApplyReport<T> {
    /// Whether every change was applied (true for an empty plan; false for a dry run
    /// that had changes).
    pub fn all_applied(&self) -> bool {
        self.outcomes().all(Outcome::is_applied)
    }

    fn outcomes(&self) -> impl Iterator<Item = &Outcome> {
        self.changes
            .iter()
            .map(|c| &c.outcome)
            .chain(self.ttl.as_ref().map(|t| &t.outcome))
    }

    /// The number of changes with each outcome: (applied, not applied, unknown,
    /// skipped).
    pub fn counts(&self) -> (usize, usize, usize, usize) {
        let mut counts = (0, 0, 0, 0);
        for outcome in self.outcomes() {
            match outcome {
                Outcome::Applied => counts.0 += 1,
                Outcome::NotApplied { .. } => counts.1 += 1,
                Outcome::Unknown { .. } => counts.2 += 1,
                Outcome::Skipped => counts.3 += 1,
            }
        }
        counts
    }
}

/// The line (from 1) of a byte offset in `text`.
pub(crate) fn line_of(text: &str, offset: usize) -> usize {
    let end = offset.min(text.len());
    text.as_bytes()[..end]
        .iter()
        .filter(|b| **b == b'\n')
        .count()
        + 1
}

/// The column (in characters, from 1) of a byte offset in `text`.
pub(crate) fn column_of(text: &str, offset: usize) -> usize {
    let mut end = offset.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let start = text[..end].rfind('\n').map_or(0, |at| at + 1);
    text[start..end].chars().count() + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(result: Result<(), SyncError>) -> Option<(Action, usize)> {
        match result {
            Ok(()) => None,
            Err(SyncError::TooManyChanges { action, count, .. }) => Some((action, count)),
            Err(other) => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn thresholds_refuse_more_than_the_share_as_octodns_does() {
        let defaults = Thresholds::default();
        // Exactly 30 % passes (octoDNS compares with `>`), one more is refused.
        assert_eq!(refused(defaults.check(10, 3, 3, "records")), None);
        assert_eq!(
            refused(defaults.check(10, 0, 4, "records")),
            Some((Action::Delete, 4))
        );
        assert_eq!(
            refused(defaults.check(10, 4, 0, "records")),
            Some((Action::Update, 4))
        );
        // Updates are checked first, as octoDNS does.
        assert_eq!(
            refused(defaults.check(30, 26, 26, "records")),
            Some((Action::Update, 26))
        );
        // Below the minimum, anything goes; at it, the rule holds.
        assert_eq!(refused(defaults.check(9, 9, 9, "records")), None);
        assert_eq!(refused(defaults.check(0, 0, 0, "records")), None);
        // Configurable: a lower minimum and a higher share.
        let loose = Thresholds {
            max_update_percent: 90.0,
            max_delete_percent: 50.0,
            min_existing: 2,
        };
        assert_eq!(refused(loose.check(4, 3, 2, "origins")), None);
        assert_eq!(
            refused(loose.check(4, 0, 3, "origins")),
            Some((Action::Delete, 3))
        );
        // A percentage that is no number refuses rather than lets everything through.
        let broken = Thresholds {
            max_update_percent: f64::NAN,
            ..Thresholds::default()
        };
        assert_eq!(
            refused(broken.check(10, 1, 0, "records")),
            Some((Action::Update, 1))
        );
    }

    #[test]
    fn a_refusal_names_the_counts() {
        let error = Thresholds::default()
            .check(30, 0, 26, "records")
            .unwrap_err()
            .to_string();
        assert_eq!(
            error,
            "refused: the plan would delete 26 of the 30 records (86.7 %), more than the 30 % \
             allowed when 10 or more exist: nothing was written"
        );
    }
}
