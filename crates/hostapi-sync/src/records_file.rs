//! The YAML and TOML record list, in the spirit of octoDNS: one entry per record set
//! (name and type) with its values.
//!
//! ```yaml
//! domain: example.com     # optional; must be the domain applied to
//! ttl: 3600               # the domain's TTL (the service has one per domain)
//! records:
//!   - name: "@"           # the apex; other names are relative, or full with a final dot
//!     type: A
//!     values: [192.0.2.1, 192.0.2.2]
//!   - name: "@"
//!     type: MX            # MX and SRV values carry a priority
//!     values:
//!       - { priority: 10, value: mail.example.com }
//!   - name: www
//!     type: CNAME
//!     value: example.com  # `value` for one value, `values` for several
//! ```
//!
//! Values are written as the service writes them: host names are full (a final dot is
//! optional), SRV values are `weight port target`, TXT values are the text unquoted.
//! A record may carry a `ttl`; every TTL of the file must then be the same.
//!
//! Each record is checked while it is read, so an error names the line and the field.

use std::cell::RefCell;
use std::fmt;
use std::path::Path;

use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};

use super::dns::{
    DnsEntry, DnsZone, UnsupportedRecord, absolute_name, cname_conflict, content_rule,
    relative_name, service_holds,
};
use super::file::{quiet_message, yaml_anchor};
use super::{FileError, FileFormat, column_of, line_of};
use hostapi::Error;
use hostapi::domains::DnsRecordType;
use hostapi::types::DomainName;

/// What a record needs to be checked as it is read: the domain, and the TTL seen
/// first. Set for the length of one [`read`].
struct Context {
    domain: DomainName,
    ttl: Option<u32>,
}

thread_local! {
    static CONTEXT: RefCell<Option<Context>> = const { RefCell::new(None) };
}

/// Clears the context when a read ends, however it ends.
struct ContextGuard;

impl Drop for ContextGuard {
    fn drop(&mut self) {
        CONTEXT.with(|c| c.borrow_mut().take());
    }
}

/// Notes a TTL; an error when it differs from one seen before.
fn note_ttl(ttl: u32) -> Result<(), String> {
    CONTEXT.with(|c| {
        let mut context = c.borrow_mut();
        let Some(context) = context.as_mut() else {
            return Ok(());
        };
        match context.ttl {
            Some(first) if first != ttl => Err(format!(
                "{ttl} differs from the TTL {first} given before: the service keeps one TTL \
                 per domain, so every TTL of the file must be the same"
            )),
            _ => {
                context.ttl = Some(ttl);
                Ok(())
            }
        }
    })
}

fn context_domain() -> Option<DomainName> {
    CONTEXT.with(|c| c.borrow().as_ref().map(|c| c.domain.clone()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileDoc {
    #[serde(default, deserialize_with = "file_domain")]
    #[allow(dead_code)]
    domain: Option<String>,
    #[serde(default, deserialize_with = "file_ttl")]
    ttl: Option<u32>,
    #[serde(default)]
    records: Vec<FileRecord>,
}

fn file_domain<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<String>, D::Error> {
    let name = String::deserialize(deserializer)?;
    if let Some(domain) = context_domain() {
        let given: DomainName = name.parse().map_err(|e: Error| de::Error::custom(e))?;
        if given != domain {
            return Err(de::Error::custom(format!(
                "the file is for {given}, not {domain}"
            )));
        }
    }
    Ok(Some(name))
}

fn file_ttl<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<u32>, D::Error> {
    let ttl = u32::deserialize(deserializer)?;
    note_ttl(ttl).map_err(de::Error::custom)?;
    Ok(Some(ttl))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRecord {
    name: String,
    #[serde(rename = "type")]
    record_type: String,
    #[serde(default)]
    ttl: Option<u32>,
    #[serde(default)]
    value: Option<FileValue>,
    #[serde(default)]
    values: Vec<FileValue>,
}

/// A record set read and checked: its records.
#[derive(Deserialize)]
#[serde(try_from = "RawRecord")]
struct FileRecord {
    entries: Vec<DnsEntry>,
}

impl TryFrom<RawRecord> for FileRecord {
    type Error = String;

    fn try_from(raw: RawRecord) -> Result<Self, String> {
        let domain = context_domain().ok_or("no domain to read the record for")?;
        let name = absolute_name(&raw.name, &domain).map_err(|m| format!("name: {m}"))?;
        let type_text = raw.record_type.trim();
        if type_text.is_empty() {
            return Err("type: is empty".to_owned());
        }
        let record_type = DnsRecordType::from_wire(type_text);
        if let Some(ttl) = raw.ttl {
            note_ttl(ttl).map_err(|m| format!("ttl: {m}"))?;
        }
        let (field, values) = match (raw.value, raw.values.is_empty()) {
            (Some(_), false) => return Err("value: give `value` or `values`, not both".to_owned()),
            (Some(value), true) => ("value", vec![value]),
            (None, false) => ("values", raw.values),
            (None, true) => return Err("values: the record has no value".to_owned()),
        };
        let mut entries = Vec::with_capacity(values.len());
        for (index, value) in values.into_iter().enumerate() {
            let at = if field == "value" {
                field.to_owned()
            } else {
                format!("{field}[{index}]")
            };
            let mut entry = DnsEntry::new(name.clone(), record_type.clone(), value.value);
            entry.priority = value.priority;
            DnsZone::check(&entry).map_err(|error| match error {
                Error::InvalidInput { argument, reason } if argument == "priority" => {
                    format!("{at}.priority: {reason}")
                }
                Error::InvalidInput { argument, reason } if argument == "name" => {
                    format!("name: {reason}")
                }
                Error::InvalidInput { reason, .. } => format!("{at}: {reason}"),
                other => format!("{at}: {other}"),
            })?;
            entries.push(entry);
        }
        Ok(Self { entries })
    }
}

/// One value: text, or `{priority, value}` (MX, SRV).
struct FileValue {
    value: String,
    priority: Option<u16>,
}

impl<'de> Deserialize<'de> for FileValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ValueVisitor;

        impl<'de> Visitor<'de> for ValueVisitor {
            type Value = FileValue;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a value (text), or a map with `value` and `priority`")
            }

            fn visit_str<E: de::Error>(self, text: &str) -> Result<FileValue, E> {
                Ok(FileValue {
                    value: text.to_owned(),
                    priority: None,
                })
            }

            fn visit_u64<E: de::Error>(self, number: u64) -> Result<FileValue, E> {
                self.visit_str(&number.to_string())
            }

            fn visit_i64<E: de::Error>(self, number: i64) -> Result<FileValue, E> {
                self.visit_str(&number.to_string())
            }

            fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<FileValue, M::Error> {
                let mut value = None;
                let mut priority = None;
                while let Some(key) = map.next_key::<String>()? {
                    match key.as_str() {
                        "value" => value = Some(map.next_value::<String>()?),
                        "priority" => priority = Some(map.next_value::<u16>()?),
                        other => {
                            return Err(de::Error::unknown_field(other, &["value", "priority"]));
                        }
                    }
                }
                Ok(FileValue {
                    value: value.ok_or_else(|| de::Error::missing_field("value"))?,
                    priority,
                })
            }
        }

        deserializer.deserialize_any(ValueVisitor)
    }
}

/// Splits `field: reason` messages of the record checks into the field and reason.
fn split_message(path: String, message: &str) -> (Option<String>, String) {
    if let Some((field, reason)) = message.split_once(": ")
        && !field.is_empty()
        && !field.contains(char::is_whitespace)
        && !field.contains('`')
    {
        let field = if path.is_empty() || path == "." {
            field.to_owned()
        } else {
            format!("{path}.{field}")
        };
        return (Some(field), reason.to_owned());
    }
    (Some(path), message.to_owned())
}

/// Reads a YAML or TOML record list of `domain`.
pub(crate) fn read(
    text: &str,
    file: &Path,
    domain: &DomainName,
    format: FileFormat,
) -> Result<DnsZone, FileError> {
    CONTEXT.with(|c| {
        *c.borrow_mut() = Some(Context {
            domain: domain.clone(),
            ttl: None,
        });
    });
    let _guard = ContextGuard;
    let doc: FileDoc = parse(text, file, format)?;
    let mut zone = DnsZone::new(domain.clone());
    zone.ttl = CONTEXT
        .with(|c| c.borrow().as_ref().and_then(|c| c.ttl))
        .or(doc.ttl);
    // The line of each item of `records`, found once when one is needed.
    let mut item_lines: Option<Vec<usize>> = None;
    let mut line_of_item = |index: usize| {
        item_lines
            .get_or_insert_with(|| all_item_lines(text, "records", format))
            .get(index)
            .copied()
    };
    let mut items = Vec::new();
    for (index, record) in doc.records.into_iter().enumerate() {
        let mut unsupported_set = false;
        for entry in record.entries {
            let reason = if service_holds(&entry.record_type) {
                content_rule(&entry).err()
            } else if unsupported_set {
                continue;
            } else {
                unsupported_set = true;
                Some(format!(
                    "the service does not hold {} records",
                    entry.record_type.as_wire()
                ))
            };
            match reason {
                Some(reason) => zone.unsupported.push(UnsupportedRecord::new(
                    entry.name.clone(),
                    entry.record_type.as_wire(),
                    line_of_item(index),
                    reason,
                )),
                None => {
                    items.push(index);
                    zone.records.push(entry);
                }
            }
        }
    }
    if let Some((first, second)) = cname_conflict(&zone.records) {
        let (first_line, second_line) = (line_of_item(items[first]), line_of_item(items[second]));
        let place = |at: usize, line: Option<usize>| match line {
            Some(line) => format!("line {line}"),
            None => format!("records[{}]", items[at]),
        };
        return Err(FileError::new(
            file,
            second_line,
            Some(format!("records[{}].type", items[second])),
            format!(
                "`{}` ({}) and `{}` ({}) share a name, and one is a CNAME: a CNAME must be \
                 the only record of its name",
                zone.records[first].describe(domain),
                place(first, first_line),
                zone.records[second].describe(domain),
                place(second, second_line)
            ),
        ));
    }
    Ok(zone)
}

/// The line of every item of the top-level list `key` (one pass): the `- ` of each
/// item of a YAML block list, or each `[[key]]` header of TOML. Empty when the list
/// is written otherwise.
fn all_item_lines(text: &str, key: &str, format: FileFormat) -> Vec<usize> {
    let mut out = Vec::new();
    if format == FileFormat::Toml {
        let header = format!("[[{key}]]");
        for (number, line) in text.lines().enumerate() {
            if line.trim() == header {
                out.push(number + 1);
            }
        }
        return out;
    }
    let mut lines = text.lines().enumerate();
    if lines
        .find(|(_, l)| l.trim_end() == format!("{key}:"))
        .is_none()
    {
        return out;
    }
    let mut indent = None;
    for (number, line) in lines {
        let content = line.trim_start();
        if content.is_empty() || content.starts_with('#') {
            continue;
        }
        let at = line.len() - content.len();
        if at == 0 && !content.starts_with('-') {
            break;
        }
        if (content.starts_with("- ") || content == "-") && *indent.get_or_insert(at) == at {
            out.push(number + 1);
        }
    }
    out
}

/// Deserialises YAML or TOML text, an error naming the line and the field.
pub(crate) fn parse<T: serde::de::DeserializeOwned>(
    text: &str,
    file: &Path,
    format: FileFormat,
) -> Result<T, FileError> {
    match format {
        FileFormat::Yaml | FileFormat::Octodns => {
            if let Some((line, column)) = yaml_anchor(text) {
                return Err(FileError::new(
                    file,
                    Some(line),
                    None,
                    "YAML anchors and aliases (`&name`, `*name`) are not accepted: write \
                     the value out (a value starting with `*`, such as a wildcard name, is \
                     quoted: \"*.example.com\")",
                )
                .at_column(Some(column)));
            }
            let deserializer = serde_yaml_ng::Deserializer::from_str(text);
            serde_path_to_error::deserialize(deserializer).map_err(|e| {
                let path = e.path().to_string();
                let location = e.inner().location();
                let mut line = location.as_ref().map(|l| l.line());
                let mut column = location.as_ref().map(|l| l.column());
                let mut message = e.inner().to_string();
                // serde_yaml_ng appends " at line L column C": the line is given apart.
                if let Some(at) = message.rfind(" at line ")
                    && line.is_some()
                {
                    message.truncate(at);
                }
                // … and puts its own path (without indexes) first.
                if let Some((prefix, rest)) = message.split_once(": ")
                    && !prefix.is_empty()
                    && !prefix.contains(char::is_whitespace)
                    && path.starts_with(prefix)
                {
                    message = rest.to_owned();
                }
                // A check of a whole list item is placed at the list: find the item.
                if let Some(item) = yaml_item_line(text, &path)
                    && line.is_none_or(|l| l < item)
                {
                    line = Some(item);
                    column = None;
                }
                let (field, message) = split_message(path, &quiet_message(&message));
                FileError::new(file, line, field, message).at_column(column)
            })
        }
        FileFormat::Toml => {
            let deserializer = toml::de::Deserializer::parse(text).map_err(|e| {
                let line = e.span().map(|s| line_of(text, s.start));
                let column = e.span().map(|s| column_of(text, s.start));
                FileError::new(file, line, None, quiet_message(e.message().trim()))
                    .at_column(column)
            })?;
            serde_path_to_error::deserialize(deserializer).map_err(|e| {
                let path = e.path().to_string();
                let mut line = e.inner().span().map(|s| line_of(text, s.start));
                let mut column = e.inner().span().map(|s| column_of(text, s.start));
                // A check of a whole `[[key]]` table is placed at the array: find it.
                if let Some(item) = toml_item_line(text, &path)
                    && line.is_none_or(|l| l < item)
                {
                    line = Some(item);
                    column = None;
                }
                let (field, message) =
                    split_message(path, &quiet_message(e.inner().message().trim()));
                FileError::new(file, line, field, message).at_column(column)
            })
        }
        FileFormat::Bind => Err(FileError::new(
            file,
            None,
            None,
            "a zone file holds DNS records only: use YAML or TOML",
        )),
    }
}

/// The line of item `i` of a top-level block sequence, for a path `key[i]…` (a
/// YAML document's `records:` or `origins:` list written in block style, one `- ` per
/// item); `None` when the text is not so written.
fn yaml_item_line(text: &str, path: &str) -> Option<usize> {
    let (key, rest) = path.split_once('[')?;
    let index: usize = rest.split_once(']')?.0.parse().ok()?;
    let mut lines = text.lines().enumerate();
    lines.find(|(_, l)| l.trim_end() == format!("{key}:"))?;
    let mut indent = None;
    let mut seen = 0;
    for (number, line) in lines {
        let content = line.trim_start();
        if content.is_empty() || content.starts_with('#') {
            continue;
        }
        let at = line.len() - content.len();
        if at == 0 && !content.starts_with('-') {
            return None;
        }
        if content.starts_with("- ") || content == "-" {
            let first = *indent.get_or_insert(at);
            if at == first {
                if seen == index {
                    return Some(number + 1);
                }
                seen += 1;
            }
        }
    }
    None
}

/// The line of the `[[key]]` header of table `i`, for a path `key[i]…`; `None`
/// when the array is not written as such tables.
fn toml_item_line(text: &str, path: &str) -> Option<usize> {
    let (key, rest) = path.split_once('[')?;
    let index: usize = rest.split_once(']')?.0.parse().ok()?;
    let header = format!("[[{key}]]");
    text.lines()
        .enumerate()
        .filter(|(_, l)| l.trim() == header)
        .nth(index)
        .map(|(number, _)| number + 1)
}

/// Writes a serialisable document as YAML or TOML, after a comment header.
pub(crate) fn emit<T: Serialize>(
    value: &T,
    header: &str,
    format: FileFormat,
) -> Result<String, Error> {
    let body = match format {
        FileFormat::Yaml => serde_yaml_ng::to_string(value).map_err(|e| e.to_string()),
        FileFormat::Toml => toml::to_string(value).map_err(|e| e.to_string()),
        FileFormat::Bind => Err("a zone file holds DNS records only".to_owned()),
        FileFormat::Octodns => Err("an octoDNS file holds DNS records only".to_owned()),
    }
    .map_err(|reason| Error::invalid("format", reason))?;
    let mut text = String::new();
    for line in header.lines() {
        text.push_str("# ");
        text.push_str(line);
        text.push('\n');
    }
    text.push_str(&body);
    Ok(text)
}

#[derive(Serialize)]
struct OutDoc {
    domain: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    ttl: Option<u32>,
    records: Vec<OutRecord>,
}

#[derive(Serialize)]
struct OutRecord {
    name: String,
    #[serde(rename = "type")]
    record_type: String,
    values: Vec<OutValue>,
}

#[derive(Serialize)]
#[serde(untagged)]
enum OutValue {
    Text(String),
    WithPriority { priority: u16, value: String },
}

/// Writes a zone as a YAML or TOML record list, one entry per record set.
pub(crate) fn write(zone: &DnsZone, format: FileFormat) -> Result<String, Error> {
    let mut records: Vec<OutRecord> = Vec::new();
    // The index of each set (name in lower case, type) in `records`.
    let mut sets: std::collections::HashMap<(String, String), usize> =
        std::collections::HashMap::new();
    for entry in &zone.records {
        let name = relative_name(&entry.name, &zone.domain);
        let record_type = entry.record_type.as_wire().to_owned();
        let value = match entry.priority {
            Some(priority) => OutValue::WithPriority {
                priority,
                value: entry.content.clone(),
            },
            None => OutValue::Text(entry.content.clone()),
        };
        match sets.entry((name.to_ascii_lowercase(), record_type.clone())) {
            std::collections::hash_map::Entry::Occupied(set) => {
                records[*set.get()].values.push(value);
            }
            std::collections::hash_map::Entry::Vacant(set) => {
                set.insert(records.len());
                records.push(OutRecord {
                    name,
                    record_type,
                    values: vec![value],
                });
            }
        }
    }
    let doc = OutDoc {
        domain: zone.domain.to_string(),
        ttl: zone.ttl,
        records,
    };
    emit(
        &doc,
        &format!(
            "{}: DNS records, exported by hostapi.\n\
             ttl is the domain's TTL: the service keeps one per domain, not per record.\n\
             Names are relative to the domain (@ is the domain itself); values are full.",
            zone.domain
        ),
        format,
    )
}
