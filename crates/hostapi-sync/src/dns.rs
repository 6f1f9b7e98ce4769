//! DNS: a domain's desired records, the plan that reaches them, and its application.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::net::{Ipv4Addr, Ipv6Addr};
use std::path::Path;

use futures::StreamExt;
use schemars::JsonSchema;
use serde::Serialize;

use super::{
    Action, ApplyOptions, ApplyProgress, ApplyReport, Change, ChangeReport, DEFAULT_MAX_FILE_BYTES,
    FileError, FileFormat, Outcome, SyncError, octodns, read_text_file, records_file, zonefile,
};
use hostapi::bulk::bulk;
use hostapi::domains::{DnsRecord, DnsRecordType, DnsRecords, NewDnsRecord};
use hostapi::types::{DnsRecordId, DomainName};
use hostapi::{Client, Error};

/// One DNS record of a zone, as configuration: name, type, value and priority, and the
/// service's id when it came from the service.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[non_exhaustive]
pub struct DnsEntry {
    /// The service's id of the record (`None` for a record from a file).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<DnsRecordId>,
    /// The record's full name, without a final dot, as the service writes it
    /// (`www.example.com`; the domain itself for its apex).
    pub name: String,
    /// The record's type, known or not.
    #[serde(rename = "type")]
    pub record_type: DnsRecordType,
    /// The record's value, as the service writes it (MX: the exchange; SRV: `weight
    /// port target`; TXT: the text, unquoted).
    pub content: String,
    /// The priority of MX and SRV records.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub priority: Option<u16>,
}

impl DnsEntry {
    /// A record of `name` (a full name) with a value and no priority.
    pub fn new(
        name: impl Into<String>,
        record_type: DnsRecordType,
        content: impl Into<String>,
    ) -> Self {
        Self {
            id: None,
            name: name.into(),
            record_type,
            content: content.into(),
            priority: None,
        }
    }

    /// The same record with a priority (MX and SRV).
    pub fn priority(mut self, priority: u16) -> Self {
        self.priority = Some(priority);
        self
    }

    /// The record as the service listed it; `None` for a record without a type.
    pub fn from_record(record: &DnsRecord) -> Option<Self> {
        Some(Self {
            id: Some(record.id.clone()),
            name: record.name.trim_end_matches('.').to_owned(),
            record_type: record.record_type.clone()?,
            content: record.content.clone(),
            priority: record.priority,
        })
    }

    /// The record's name relative to `domain`: `@` for the apex, `www` for
    /// `www.example.com`, and the full name with a final dot for a name outside it.
    pub fn relative_name(&self, domain: &DomainName) -> String {
        relative_name(&self.name, domain)
    }

    /// The record in one line, its name relative to `domain`: `www A 192.0.2.1`,
    /// `@ MX 10 mail.example.com`.
    pub fn describe(&self, domain: &DomainName) -> String {
        let priority = self.priority.map(|p| format!("{p} ")).unwrap_or_default();
        format!(
            "{} {} {priority}{}",
            self.relative_name(domain),
            self.record_type.as_wire(),
            self.content
        )
    }

    fn as_new(&self) -> NewDnsRecord {
        let mut record = NewDnsRecord::new(
            self.name.clone(),
            self.record_type.clone(),
            self.content.clone(),
        );
        record.priority = self.priority;
        record
    }

    /// The key of the record's set: name (letter case and final dot aside) and type.
    fn set_key(&self) -> (String, String) {
        (
            host(&self.name),
            self.record_type.as_wire().to_ascii_uppercase(),
        )
    }

    /// What makes two values of a set the same: the value read by its type's rules
    /// (addresses by value, host names without letter case or final dot, white space
    /// runs as one) and the priority.
    fn value_key(&self) -> String {
        let content = self.content.trim();
        let value = match &self.record_type {
            DnsRecordType::A => content
                .parse::<Ipv4Addr>()
                .map_or_else(|_| content.to_owned(), |a| a.to_string()),
            DnsRecordType::Aaaa => content
                .parse::<Ipv6Addr>()
                .map_or_else(|_| content.to_owned(), |a| a.to_string()),
            DnsRecordType::Cname | DnsRecordType::Ns | DnsRecordType::Ptr | DnsRecordType::Mx => {
                host(content)
            }
            DnsRecordType::Srv => {
                let mut words: Vec<String> =
                    content.split_whitespace().map(str::to_owned).collect();
                if let Some(target) = words.last_mut() {
                    *target = host(target);
                }
                words.join(" ")
            }
            DnsRecordType::Txt | DnsRecordType::Spf => self.content.clone(),
            // Other types: white space runs as one, and letter case aside (hex digits,
            // names and keywords of presentation formats are written either way).
            _ => content
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .to_ascii_lowercase(),
        };
        format!("{:?}|{value}", self.priority)
    }
}

/// A name without letter case or final dot.
fn host(name: &str) -> String {
    name.trim().trim_end_matches('.').to_ascii_lowercase()
}

/// `name` relative to `domain` (`@` for the apex; a full name with a final dot when
/// outside it).
pub(crate) fn relative_name(name: &str, domain: &DomainName) -> String {
    let full = name.trim_end_matches('.');
    let lower = full.to_ascii_lowercase();
    let apex = domain.as_str().to_ascii_lowercase();
    if lower == apex {
        "@".to_owned()
    } else if lower.ends_with(&format!(".{apex}")) {
        full[..full.len() - apex.len() - 1].to_owned()
    } else {
        format!("{full}.")
    }
}

/// The full name of a file's `name` in `domain`: `@` or empty is the apex, a name with
/// a final dot is already full (and must be in the domain), any other is relative.
pub(crate) fn absolute_name(name: &str, domain: &DomainName) -> Result<String, String> {
    let name = name.trim();
    let apex = domain.as_str().trim_end_matches('.');
    if name.is_empty() || name == "@" {
        return Ok(apex.to_owned());
    }
    if name.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(format!("`{}` is not a record name", name.escape_debug()));
    }
    if let Some(full) = name.strip_suffix('.') {
        let lower = full.to_ascii_lowercase();
        let apex_lower = apex.to_ascii_lowercase();
        if lower == apex_lower || lower.ends_with(&format!(".{apex_lower}")) {
            Ok(full.to_owned())
        } else {
            Err(format!("`{name}` is not in the domain {apex}"))
        }
    } else {
        Ok(format!("{name}.{apex}"))
    }
}

/// A domain's DNS configuration: its TTL and records, from the service or a file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[non_exhaustive]
pub struct DnsZone {
    /// The domain.
    pub domain: DomainName,
    /// The domain's TTL in seconds (the service has one per domain, none per record);
    /// `None`: not known (from the service) or not managed (from a file).
    pub ttl: Option<u32>,
    /// The records.
    pub records: Vec<DnsEntry>,
    /// Records left out, each in words with the reason: `SOA` records (the service
    /// manages them), records without a type, records the service listed that could
    /// not be read.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<String>,
    /// Records of the file the service cannot hold (a type it does not take, or a
    /// value it refuses; see [`SERVICE_RECORD_TYPES`]): never among
    /// [`records`](Self::records). A plan refuses to run while there are any, unless
    /// [`DnsPlanOptions::skip_unsupported`].
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unsupported: Vec<UnsupportedRecord>,
    /// Things in the file that were read, but perhaps not as its author meant (an
    /// unquoted TXT text whose spaces BIND drops), each with its line.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

impl DnsZone {
    /// An empty zone of `domain` that leaves the TTL alone.
    pub fn new(domain: DomainName) -> Self {
        Self {
            domain,
            ttl: None,
            records: Vec::new(),
            skipped: Vec::new(),
            unsupported: Vec::new(),
            warnings: Vec::new(),
        }
    }

    /// Reads a zone from a file: a BIND zone file (`.zone`), a YAML/TOML record
    /// list (`.yaml`, `.yml`, `.toml`), or an octoDNS zone file (`.yaml`, told apart
    /// by its keys); `format` overrides the extension. Every record
    /// is checked as the service would (names in the domain, addresses of the right
    /// family, a priority exactly for MX and SRV, one TTL), and a bad file is a
    /// [`FileError`] naming the file, the line and the field.
    ///
    /// Only a regular file of at most [`DEFAULT_MAX_FILE_BYTES`] is read (see
    /// [`read_text_file`]; [`DnsZone::read_file_capped`] sets another cap).
    pub fn read_file(
        path: impl AsRef<Path>,
        domain: &DomainName,
        format: Option<FileFormat>,
    ) -> Result<Self, FileError> {
        Self::read_file_capped(path, domain, format, DEFAULT_MAX_FILE_BYTES)
    }

    /// [`DnsZone::read_file`], reading at most `max_bytes` of the file.
    pub fn read_file_capped(
        path: impl AsRef<Path>,
        domain: &DomainName,
        format: Option<FileFormat>,
        max_bytes: u64,
    ) -> Result<Self, FileError> {
        let path = path.as_ref();
        let format = FileFormat::of(path, format)?;
        let text = read_text_file(path, max_bytes)?;
        Self::from_text(&text, path, domain, format)
    }

    /// Reads a zone from text in `format`; `file` names it in errors.
    pub fn from_text(
        text: &str,
        file: impl AsRef<Path>,
        domain: &DomainName,
        format: FileFormat,
    ) -> Result<Self, FileError> {
        let file = file.as_ref();
        match format {
            FileFormat::Bind => zonefile::read(text, file, domain),
            FileFormat::Yaml if octodns::looks_like(text) => octodns::read(text, file, domain),
            FileFormat::Octodns => octodns::read(text, file, domain),
            FileFormat::Yaml | FileFormat::Toml => records_file::read(text, file, domain, format),
        }
    }

    /// The zone as text in `format`, with the records whose type or value the format
    /// cannot express (always none for YAML and TOML).
    pub fn to_text(&self, format: FileFormat) -> Result<ZoneText, Error> {
        match format {
            FileFormat::Bind => Ok(zonefile::write(self)),
            FileFormat::Yaml | FileFormat::Toml => Ok(ZoneText {
                text: records_file::write(self, format)?,
                not_expressible: Vec::new(),
            }),
            FileFormat::Octodns => {
                let (text, not_expressible) = octodns::write(self)?;
                Ok(ZoneText {
                    text,
                    not_expressible,
                })
            }
        }
    }

    /// Whether two records hold the same value (and priority), by their type's rules.
    pub(crate) fn same_value(a: &DnsEntry, b: &DnsEntry) -> bool {
        a.value_key() == b.value_key()
    }

    /// Checks one record as it will be sent; the reason when it cannot be.
    pub(crate) fn check(entry: &DnsEntry) -> Result<(), Error> {
        let mut record = NewDnsRecord::new(
            entry.name.clone(),
            entry.record_type.clone(),
            entry.content.clone(),
        );
        record.priority = entry.priority;
        record.validate()
    }
}

/// The record types the service is known to hold, and so the only ones a plan sends.
///
/// The service's documents name A, AAAA, CNAME, MX and SRV and call the list open;
/// the SDK knows five more that the service takes (TXT, SPF, CAA, NS and PTR: the
/// types `hostapi dns create` offers). Any other type (RP, NAPTR, DNAME, SSHFP,
/// HTTPS, TLSA, DS, …) is refused by the service at the first write, so a file
/// holding one is refused at plan time instead, before anything is sent. `SOA` is
/// the service's own and never planned.
pub const SERVICE_RECORD_TYPES: [DnsRecordType; 10] = [
    DnsRecordType::A,
    DnsRecordType::Aaaa,
    DnsRecordType::Cname,
    DnsRecordType::Mx,
    DnsRecordType::Srv,
    DnsRecordType::Txt,
    DnsRecordType::Spf,
    DnsRecordType::Caa,
    DnsRecordType::Ns,
    DnsRecordType::Ptr,
];

/// The longest TXT or SPF value the service holds, in bytes.
pub const MAX_TXT_BYTES: usize = 4096;

/// The longest value of the other types the service holds, in bytes.
pub const MAX_VALUE_BYTES: usize = 255;

/// Whether the service holds records of `record_type` ([`SERVICE_RECORD_TYPES`]).
pub fn service_holds(record_type: &DnsRecordType) -> bool {
    SERVICE_RECORD_TYPES.contains(record_type)
}

/// Whether a name is made of the characters the service takes in host names
/// (letters, digits, `-`, `_`, `*` and dots; at most 253 characters).
fn service_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 253
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '*' | '.'))
}

/// The content rules of the service that can be checked locally: the name's
/// characters, the value's length (at most [`MAX_TXT_BYTES`] for TXT and SPF,
/// [`MAX_VALUE_BYTES`] for the others), and a host name where CNAME, MX, NS and PTR
/// records hold one. The reason when `entry` breaks one.
pub fn content_rule(entry: &DnsEntry) -> Result<(), String> {
    if !service_name(&entry.name) {
        return Err(format!(
            "the service takes names of letters, digits, `-`, `_`, `*` and dots only, not `{}`",
            entry.name.escape_debug()
        ));
    }
    let (max, what) = match entry.record_type {
        DnsRecordType::Txt | DnsRecordType::Spf => (MAX_TXT_BYTES, "TXT and SPF values"),
        _ => (MAX_VALUE_BYTES, "values of this type"),
    };
    if entry.content.len() > max {
        return Err(format!(
            "the value is {} bytes; the service holds at most {max} bytes for {what}",
            entry.content.len()
        ));
    }
    if matches!(
        entry.record_type,
        DnsRecordType::Cname | DnsRecordType::Mx | DnsRecordType::Ns | DnsRecordType::Ptr
    ) && !service_name(entry.content.trim().trim_end_matches('.'))
    {
        return Err(format!(
            "the service holds a host name in {} records, not `{}`",
            entry.record_type.as_wire(),
            entry.content.escape_debug()
        ));
    }
    Ok(())
}

/// A record of a file the service cannot hold, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[non_exhaustive]
pub struct UnsupportedRecord {
    /// The record's full name, without a final dot.
    pub name: String,
    /// The record's type, as written.
    #[serde(rename = "type")]
    pub record_type: String,
    /// The line of the file, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// Why the service cannot hold it.
    pub reason: String,
}

impl UnsupportedRecord {
    pub(crate) fn new(
        name: impl Into<String>,
        record_type: impl Into<String>,
        line: Option<usize>,
        reason: impl Into<String>,
    ) -> Self {
        Self {
            name: name.into(),
            record_type: record_type.into(),
            line,
            reason: reason.into(),
        }
    }

    /// The record in words, its name relative to `domain`: `line 12: rp RP: the
    /// service does not hold RP records`.
    pub fn describe(&self, domain: &DomainName) -> String {
        let line = self.line.map(|l| format!("line {l}: ")).unwrap_or_default();
        format!(
            "{line}{} {}: {}",
            relative_name(&self.name, domain),
            self.record_type,
            self.reason
        )
    }
}

/// Two records that break the CNAME rule (a CNAME is the only record of its name),
/// as indexes into `records`, the first before the second; `None` when none do.
pub(crate) fn cname_conflict(records: &[DnsEntry]) -> Option<(usize, usize)> {
    // For each name: its first record, and its first CNAME.
    let mut seen: HashMap<String, (usize, Option<usize>)> = HashMap::with_capacity(records.len());
    for (index, entry) in records.iter().enumerate() {
        let is_cname = entry.record_type == DnsRecordType::Cname;
        match seen.get_mut(&host(&entry.name)) {
            None => {
                seen.insert(host(&entry.name), (index, is_cname.then_some(index)));
            }
            Some((first, cname)) => {
                if let Some(cname) = cname {
                    return Some((*cname, index));
                }
                if is_cname {
                    return Some((*first, index));
                }
                let _ = first;
            }
        }
    }
    None
}

/// A zone written as text.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ZoneText {
    /// The file's text.
    pub text: String,
    /// Records written only as comments: a zone file cannot express their type or
    /// value. A plan from the file keeps them on the service (unless pruning).
    pub not_expressible: Vec<DnsEntry>,
}

/// How a DNS plan treats what the desired state does not name.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DnsPlanOptions {
    /// Delete the record sets (name and type) the desired state does not name. Without
    /// it they are kept.
    pub prune: bool,
    /// Plan without the desired records the service cannot hold
    /// ([`DnsZone::unsupported`]), listing them in [`DnsPlan::unsupported`]. Without it
    /// [`DnsSync::plan`] refuses a desired state that has any.
    pub skip_unsupported: bool,
}

impl DnsPlanOptions {
    /// Deletes what the desired state does not name.
    pub fn prune(mut self, prune: bool) -> Self {
        self.prune = prune;
        self
    }

    /// Leaves out the records the service cannot hold, instead of refusing the plan.
    pub fn skip_unsupported(mut self, skip: bool) -> Self {
        self.skip_unsupported = skip;
        self
    }
}

/// The changes that turn a domain's records into a desired state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[non_exhaustive]
pub struct DnsPlan {
    /// Records to create.
    pub create: Vec<Change<DnsEntry>>,
    /// Records to change in place (the record keeps its id).
    pub update: Vec<Change<DnsEntry>>,
    /// Records to delete.
    pub delete: Vec<Change<DnsEntry>>,
    /// The domain's TTL, when it changes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ttl: Option<Change<u32>>,
    /// Records only on the service, kept (not pruning).
    #[serde(skip)]
    pub kept: Vec<DnsEntry>,
    /// Desired records left out because the service cannot hold them
    /// ([`DnsPlanOptions::skip_unsupported`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unsupported: Vec<UnsupportedRecord>,
    #[serde(skip)]
    desired: DnsZone,
    #[serde(skip)]
    options: DnsPlanOptions,
}

impl DnsPlan {
    /// The number of writes the plan makes.
    pub fn len(&self) -> usize {
        self.create.len() + self.update.len() + self.delete.len() + usize::from(self.ttl.is_some())
    }

    /// Whether the service already holds the desired state.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The domain.
    pub fn domain(&self) -> &DomainName {
        &self.desired.domain
    }

    /// The changes as a diff, one line each: `+ www A 192.0.2.1`,
    /// `~ @ MX 10 mx1 -> @ MX 10 mx2`, `- old CNAME example.com`, and
    /// `~ TTL 300 -> 3600`.
    pub fn diff_lines(&self) -> Vec<(Action, String)> {
        let domain = self.domain();
        let mut lines = Vec::new();
        let mut push = |action: Action, change: &Change<DnsEntry>| {
            let text = match (&change.before, &change.after) {
                (Some(before), Some(after)) => {
                    format!("{} -> {}", before.describe(domain), after.describe(domain))
                }
                (Some(one), None) | (None, Some(one)) => one.describe(domain),
                (None, None) => String::new(),
            };
            lines.push((action, text));
        };
        for change in &self.delete {
            push(Action::Delete, change);
        }
        for change in &self.update {
            push(Action::Update, change);
        }
        for change in &self.create {
            push(Action::Create, change);
        }
        if let Some(ttl) = &self.ttl {
            let before = ttl.before.map_or("(unknown)".to_owned(), |t| t.to_string());
            let after = ttl.after.map_or(String::new(), |t| t.to_string());
            lines.push((Action::Update, format!("TTL {before} -> {after}")));
        }
        lines
    }

    fn same_changes(&self, other: &Self) -> bool {
        self.create == other.create
            && self.update == other.update
            && self.delete == other.delete
            && self.ttl == other.ttl
    }
}

/// Plans the changes that turn `current` into `desired` (see the module docs for how
/// records are matched). `current` is usually [`DnsSync::current`].
pub fn plan_dns(current: &DnsZone, desired: &DnsZone, options: DnsPlanOptions) -> DnsPlan {
    // The current sets, in the service's order.
    let mut current_sets: BTreeMap<(String, String), Vec<DnsEntry>> = BTreeMap::new();
    let mut current_order = Vec::new();
    for entry in &current.records {
        let key = entry.set_key();
        let set = current_sets.entry(key).or_insert_with_key(|key| {
            current_order.push(key.clone());
            Vec::new()
        });
        set.push(entry.clone());
    }
    // The desired sets, in the file's order, each value once (a value's key is
    // computed once: sets of thousands of values stay linear).
    let mut desired_sets: HashMap<(String, String), (Vec<DnsEntry>, HashSet<String>)> =
        HashMap::new();
    let mut desired_order = Vec::new();
    for entry in &desired.records {
        let key = entry.set_key();
        let (set, values) = desired_sets.entry(key).or_insert_with_key(|key| {
            desired_order.push(key.clone());
            (Vec::new(), HashSet::new())
        });
        if values.insert(entry.value_key()) {
            set.push(entry.clone());
        }
    }
    let mut plan = DnsPlan {
        create: Vec::new(),
        update: Vec::new(),
        delete: Vec::new(),
        ttl: None,
        kept: Vec::new(),
        unsupported: if options.skip_unsupported {
            desired.unsupported.clone()
        } else {
            Vec::new()
        },
        desired: desired.clone(),
        options,
    };
    for key in &desired_order {
        let (wanted, _) = &desired_sets[key];
        let have = current_sets.remove(key).unwrap_or_default();
        // The current records of the set by value, each value's records in order.
        let mut have_by_value: HashMap<String, Vec<usize>> = HashMap::new();
        for (index, entry) in have.iter().enumerate().rev() {
            have_by_value
                .entry(entry.value_key())
                .or_default()
                .push(index);
        }
        let mut matched = vec![false; have.len()];
        let mut missing = Vec::new();
        for entry in wanted {
            match have_by_value.get_mut(&entry.value_key()).and_then(Vec::pop) {
                Some(index) => matched[index] = true,
                None => missing.push(entry.clone()),
            }
        }
        // Changed values: an update of a record that held an old value (one call).
        let mut have = have
            .into_iter()
            .zip(matched)
            .filter_map(|(entry, matched)| (!matched).then_some(entry));
        for mut after in missing {
            match have.next() {
                Some(before) => {
                    after.id.clone_from(&before.id);
                    plan.update.push(Change {
                        before: Some(before),
                        after: Some(after),
                    });
                }
                None => {
                    after.id = None;
                    plan.create.push(Change {
                        before: None,
                        after: Some(after),
                    });
                }
            }
        }
        for before in have {
            plan.delete.push(Change {
                before: Some(before),
                after: None,
            });
        }
    }
    // Sets the desired state names but the service cannot hold: never pruned (what the
    // service holds of them, it got some other way).
    let unheld: HashSet<(String, String)> = desired
        .unsupported
        .iter()
        .map(|u| (host(&u.name), u.record_type.to_ascii_uppercase()))
        .collect();
    for key in current_order {
        let Some(set) = current_sets.remove(&key) else {
            continue;
        };
        let prune = options.prune && !unheld.contains(&key);
        for entry in set {
            if prune {
                plan.delete.push(Change {
                    before: Some(entry),
                    after: None,
                });
            } else {
                plan.kept.push(entry);
            }
        }
    }
    if let Some(ttl) = desired.ttl
        && current.ttl != Some(ttl)
    {
        plan.ttl = Some(Change {
            before: current.ttl,
            after: Some(ttl),
        });
    }
    plan
}

/// Configuration as code for one domain's DNS, from [`DnsSync::new`].
#[derive(Debug, Clone)]
pub struct DnsSync {
    client: Client,
    domain: DomainName,
}

impl DnsSync {
    /// Configuration as code for the DNS of `domain` through `client`: export, plan,
    /// apply.
    pub fn new(client: &Client, domain: &DomainName) -> Self {
        Self {
            client: client.clone(),
            domain: domain.clone(),
        }
    }

    fn records(&self) -> DnsRecords {
        self.client.domains().records(&self.domain)
    }

    /// The domain's state on the service: its TTL and records (two reads). `SOA`
    /// records and records without a type are left out, in
    /// [`skipped`](DnsZone::skipped).
    pub async fn current(&self) -> Result<DnsZone, Error> {
        let domain = self.client.domains().get(&self.domain).await?;
        let listing = self.records().list().await?;
        let mut zone = DnsZone::new(self.domain.clone());
        zone.ttl = domain.ttl;
        for unreadable in listing.unreadable() {
            zone.skipped.push(format!(
                "record {} of the list could not be read: {}",
                unreadable.index, unreadable.error
            ));
        }
        for record in listing.iter() {
            match DnsEntry::from_record(record) {
                Some(entry) if entry.record_type == DnsRecordType::Soa => zone
                    .skipped
                    .push(format!("{} SOA (managed by the service)", entry.name)),
                Some(entry) => zone.records.push(entry),
                None => zone.skipped.push(format!(
                    "{} {} (record {} has no type)",
                    record.name, record.content, record.id
                )),
            }
        }
        Ok(zone)
    }

    /// The current state, to write to a file (the same as [`current`](Self::current)).
    pub async fn export(&self) -> Result<DnsZone, Error> {
        self.current().await
    }

    /// Plans the changes that turn the domain into `desired`.
    pub async fn plan(
        &self,
        desired: &DnsZone,
        options: DnsPlanOptions,
    ) -> Result<DnsPlan, SyncError> {
        self.check_domain(desired)?;
        check_desired(desired, options)?;
        let current = self.current().await?;
        Ok(plan_dns(&current, desired, options))
    }

    fn check_domain(&self, desired: &DnsZone) -> Result<(), Error> {
        if desired.domain != self.domain {
            return Err(Error::invalid(
                "domain",
                format!(
                    "the desired state is of {}, not {}",
                    desired.domain, self.domain
                ),
            ));
        }
        Ok(())
    }

    /// Applies a plan: reads the domain again and refuses with
    /// [`SyncError::Stale`] when the plan no longer holds (unless
    /// [`ApplyOptions::replan`]), and with [`SyncError::TooManyChanges`] when it
    /// updates or deletes more of the records than the [`Thresholds`](crate::Thresholds)
    /// allow (unless [`ApplyOptions::force`]; a dry run is checked too); then writes
    /// the changes (deletes, updates, creates, then the TTL) with at most
    /// [`ApplyOptions::concurrency`] in flight, each reported with its outcome. A dry
    /// run writes nothing.
    pub async fn apply(
        &self,
        plan: &DnsPlan,
        options: &ApplyOptions,
    ) -> Result<ApplyReport<DnsEntry>, SyncError> {
        self.check_domain(&plan.desired)?;
        let current = self.current().await?;
        let fresh = plan_dns(&current, &plan.desired, plan.options);
        if !fresh.same_changes(plan) && !options.replan {
            return Err(SyncError::Stale {
                planned: plan.len(),
                now: fresh.len(),
            });
        }
        let plan = fresh;
        if !options.force {
            let existing = current.records.len();
            let (updates, deletes) = (plan.update.len(), plan.delete.len());
            options
                .thresholds
                .check(existing, updates, deletes, "records")?;
        }
        let mut report = ApplyReport {
            changes: Vec::new(),
            ttl: None,
        };
        if options.dry_run {
            let skipped = |action: Action, changes: &[Change<DnsEntry>]| {
                changes
                    .iter()
                    .map(|change| ChangeReport {
                        action,
                        change: change.clone(),
                        outcome: Outcome::Skipped,
                    })
                    .collect::<Vec<_>>()
            };
            report.changes.extend(skipped(Action::Delete, &plan.delete));
            report.changes.extend(skipped(Action::Update, &plan.update));
            report.changes.extend(skipped(Action::Create, &plan.create));
            report.ttl = plan.ttl.clone().map(|change| ChangeReport {
                action: Action::Update,
                change,
                outcome: Outcome::Skipped,
            });
            return Ok(report);
        }
        let total = plan.len();
        let mut done = 0;
        for (action, changes) in [
            (Action::Delete, &plan.delete),
            (Action::Update, &plan.update),
            (Action::Create, &plan.create),
        ] {
            let records = self.records();
            let mut writes = std::pin::pin!(bulk(
                futures::stream::iter(changes.iter().cloned()),
                options.bulk(),
                |change: Change<DnsEntry>| {
                    let records = records.clone();
                    async move { Ok::<_, Error>(write(&records, action, &change).await) }
                },
            ));
            while let Some(item) = writes.next().await {
                let outcome = item.result.unwrap_or_else(|error| Outcome::NotApplied {
                    error: error.to_string(),
                });
                done += 1;
                options.report(&ApplyProgress {
                    done,
                    total,
                    change: describe(action, &item.input, &self.domain),
                    outcome: outcome.clone(),
                });
                report.changes.push(ChangeReport {
                    action,
                    change: item.input,
                    outcome,
                });
            }
        }
        if let Some(change) = plan.ttl.clone() {
            let ttl = change.after.unwrap_or_default();
            let domains = self.client.domains();
            let outcome = Outcome::settle(domains.set_ttl(&self.domain, ttl).await, || {
                domains.confirm_ttl(&self.domain, ttl)
            })
            .await;
            done += 1;
            options.report(&ApplyProgress {
                done,
                total,
                change: format!("~ TTL {ttl}"),
                outcome: outcome.clone(),
            });
            report.ttl = Some(ChangeReport {
                action: Action::Update,
                change,
                outcome,
            });
        }
        Ok(report)
    }
}

/// Refuses a desired state the service cannot hold: records it cannot hold (unless
/// skipping them), or a CNAME beside other records of its name.
fn check_desired(desired: &DnsZone, options: DnsPlanOptions) -> Result<(), Error> {
    if !desired.unsupported.is_empty() && !options.skip_unsupported {
        let listed: Vec<String> = desired
            .unsupported
            .iter()
            .map(|u| u.describe(&desired.domain))
            .collect();
        return Err(Error::invalid(
            "records",
            format!(
                "{} record(s) the service cannot hold, nothing sent: {}",
                listed.len(),
                listed.join("; ")
            ),
        ));
    }
    if let Some((first, second)) = cname_conflict(&desired.records) {
        return Err(Error::invalid(
            "records",
            format!(
                "`{}` and `{}` share a name, and one is a CNAME: a CNAME must be the only \
                 record of its name",
                desired.records[first].describe(&desired.domain),
                desired.records[second].describe(&desired.domain)
            ),
        ));
    }
    Ok(())
}

fn describe(action: Action, change: &Change<DnsEntry>, domain: &DomainName) -> String {
    let entry = change.after.as_ref().or(change.before.as_ref());
    format!(
        "{} {}",
        action.sign(),
        entry.map(|e| e.describe(domain)).unwrap_or_default()
    )
}

/// One write, settled to an outcome (an unknown outcome read back).
async fn write(records: &DnsRecords, action: Action, change: &Change<DnsEntry>) -> Outcome {
    let id = change.before.as_ref().and_then(|b| b.id.clone());
    match (action, id, &change.after) {
        (Action::Create, _, Some(after)) => {
            let new = after.as_new();
            Outcome::settle(records.create(&new).await, || records.confirm_create(&new)).await
        }
        (Action::Update, Some(id), Some(after)) => {
            let new = after.as_new();
            Outcome::settle(records.update(&id, &new).await, || {
                records.confirm_update(&id, &new)
            })
            .await
        }
        (Action::Delete, Some(id), None) => {
            Outcome::settle(records.delete(&id).await, || records.confirm_delete(&id)).await
        }
        _ => Outcome::NotApplied {
            error: "the change names no record id".to_owned(),
        },
    }
}

/// A name check shared by the file readers: the full name of `name`, or a
/// [`FileError`].
pub(crate) fn file_name(
    name: &str,
    domain: &DomainName,
    file: &Path,
    line: Option<usize>,
    field: &str,
) -> Result<String, FileError> {
    absolute_name(name, domain).map_err(|m| FileError::new(file, line, Some(field.to_owned()), m))
}

/// Checks an entry read from a file as the service would take it.
pub(crate) fn file_check(
    entry: &DnsEntry,
    file: &Path,
    line: Option<usize>,
    field: &str,
) -> Result<(), FileError> {
    DnsZone::check(entry).map_err(|error| {
        let (argument, reason) = match &error {
            Error::InvalidInput { argument, reason } => (argument.clone(), reason.clone()),
            other => (String::new(), other.to_string()),
        };
        let argument = match argument.as_str() {
            "content" => "value",
            "record_type" => "type",
            other => other,
        };
        let field = if field.is_empty() {
            argument.to_owned()
        } else if argument.is_empty() {
            field.to_owned()
        } else {
            format!("{field}.{argument}")
        };
        FileError::new(file, line, Some(field), reason)
    })
}
