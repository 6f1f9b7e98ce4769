//! octoDNS zone files, read and written as octoDNS's YAML provider does.
//!
//! ```yaml
//! '':                      # the apex
//!   - type: A
//!     values: [192.0.2.1, 192.0.2.2]
//!   - type: MX
//!     values:
//!       - exchange: mail.example.com.
//!         preference: 10
//! _sip._tcp:
//!   type: SRV              # one record, or a list of records
//!   value: {port: 5060, priority: 10, target: sip.example.com., weight: 20}
//! caa:
//!   type: CAA
//!   value: {flags: 0, tag: issue, value: ca.example.net}
//! txt:
//!   ttl: 300
//!   type: TXT
//!   value: v=DKIM1\;k=rsa\;p=…  # `;` escaped as `\;`, as octoDNS writes it
//! ```
//!
//! Names are keys, relative to the zone, `''` for the apex. A record has a `type`,
//! `value` or `values`, and may have a `ttl` (one TTL per domain: see the TTL rule)
//! and `octodns` settings (a record `ignored: true` is left out, as octoDNS leaves it
//! out; the other settings concern octoDNS's providers and are not read). MX values
//! are `exchange`/`preference` (or the older `value`/`priority`), SRV values
//! `port`/`priority`/`target`/`weight`, CAA values `flags`/`tag`/`value`. TXT and
//! SPF values escape `;` as `\;`; a value written as quoted chunks (`"abc" "def"`) is
//! their joined text. Records octoDNS answers by location (`geo`, `dynamic`) and
//! record types the service does not hold are listed as unsupported.
//!
//! A YAML file is read as octoDNS when its top-level keys are not only `domain`,
//! `ttl` and `records` (the keys of hostapi's own record list), or when
//! [`FileFormat::Octodns`] is named.

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use serde::de::{self, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};
use serde_yaml_ng::{Mapping, Value};

use super::dns::{
    DnsEntry, DnsZone, UnsupportedRecord, absolute_name, cname_conflict, content_rule, file_check,
    relative_name, service_holds,
};
use super::records_file::parse;
use super::{FileError, FileFormat};
use hostapi::{Error, domains::DnsRecordType, types::DomainName};

/// Whether a YAML text is an octoDNS zone rather than hostapi's record list: some
/// top-level key is not `domain`, `ttl` or `records`.
pub(crate) fn looks_like(text: &str) -> bool {
    top_level_keys(text)
        .iter()
        .any(|(_, key)| !matches!(key.as_str(), "domain" | "ttl" | "records"))
}

/// The top-level keys of a block-style YAML mapping, with their lines, in order
/// (one pass over the text).
fn top_level_keys(text: &str) -> Vec<(usize, String)> {
    let mut keys = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let Some(first) = line.chars().next() else {
            continue;
        };
        if first.is_whitespace() || matches!(first, '#' | '-' | '%' | '.' | ':' | '}' | ']') {
            continue;
        }
        let key = if let Some(rest) = line.strip_prefix("? ") {
            rest.trim()
        } else if let Some(colon) = key_end(line) {
            line[..colon].trim()
        } else {
            continue;
        };
        let key = key
            .strip_prefix('\'')
            .and_then(|k| k.strip_suffix('\''))
            .or_else(|| key.strip_prefix('"').and_then(|k| k.strip_suffix('"')))
            .unwrap_or(key);
        keys.push((number + 1, key.to_owned()));
    }
    keys
}

/// Where a mapping key of a line ends: its `: ` or final `:` outside quotes.
fn key_end(line: &str) -> Option<usize> {
    let mut quote = None;
    let bytes = line.as_bytes();
    for (at, &b) in bytes.iter().enumerate() {
        match (quote, b) {
            (Some(q), c) if c == q => quote = None,
            (None, b'\'' | b'"') if at == 0 => quote = Some(b),
            (None, b':') if bytes.get(at + 1).is_none_or(|n| n.is_ascii_whitespace()) => {
                return Some(at);
            }
            _ => {}
        }
    }
    None
}

/// One record of an octoDNS file, as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OctoRecord {
    #[serde(rename = "type")]
    record_type: String,
    #[serde(default)]
    ttl: Option<u32>,
    #[serde(default)]
    value: Option<Value>,
    #[serde(default)]
    values: Option<Vec<Value>>,
    #[serde(default)]
    octodns: Option<Value>,
    #[serde(default)]
    geo: Option<Value>,
    #[serde(default)]
    dynamic: Option<Value>,
}

/// A name's records: one record, or a list of them.
struct Records(Vec<OctoRecord>);

impl<'de> Deserialize<'de> for Records {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct RecordsVisitor;

        impl<'de> Visitor<'de> for RecordsVisitor {
            type Value = Records;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a record (a map with `type`) or a list of records")
            }

            fn visit_map<M: MapAccess<'de>>(self, map: M) -> Result<Records, M::Error> {
                let record = OctoRecord::deserialize(de::value::MapAccessDeserializer::new(map))?;
                Ok(Records(vec![record]))
            }

            fn visit_seq<S: SeqAccess<'de>>(self, mut seq: S) -> Result<Records, S::Error> {
                let mut records = Vec::new();
                while let Some(record) = seq.next_element()? {
                    records.push(record);
                }
                Ok(Records(records))
            }
        }

        deserializer.deserialize_any(RecordsVisitor)
    }
}

/// The whole file: names and their records, in the file's order.
struct OctoZone(Vec<(String, Records)>);

impl<'de> Deserialize<'de> for OctoZone {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct ZoneVisitor;

        impl<'de> Visitor<'de> for ZoneVisitor {
            type Value = OctoZone;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map of record names to records")
            }

            fn visit_unit<E: de::Error>(self) -> Result<OctoZone, E> {
                Ok(OctoZone(Vec::new()))
            }

            fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<OctoZone, M::Error> {
                let mut names = Vec::new();
                while let Some(name) = map.next_key::<String>()? {
                    let records = map.next_value::<Records>()?;
                    names.push((name, records));
                }
                Ok(OctoZone(names))
            }
        }

        deserializer.deserialize_any(ZoneVisitor)
    }
}

/// A value as text: a string or a number.
fn scalar(value: &Value) -> Option<String> {
    match value {
        Value::String(text) => Some(text.clone()),
        Value::Number(number) => Some(number.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// Field `key` of a value's map.
fn field<'v>(value: &'v Value, key: &str) -> Option<&'v Value> {
    value.as_mapping()?.get(key)
}

fn text_field(value: &Value, key: &str) -> Result<String, String> {
    field(value, key)
        .and_then(scalar)
        .ok_or_else(|| format!("needs `{key}` (text)"))
}

fn number_field(value: &Value, key: &str) -> Result<u16, String> {
    field(value, key)
        .and_then(|v| match v {
            Value::Number(n) => n.as_u64(),
            Value::String(s) => s.trim().parse().ok(),
            _ => None,
        })
        .and_then(|n| u16::try_from(n).ok())
        .ok_or_else(|| format!("needs `{key}` (a number from 0 to 65535)"))
}

/// The keys a map value may have, for a type; an error naming an unknown one.
fn only_keys(value: &Value, keys: &[&str]) -> Result<(), String> {
    if let Some(map) = value.as_mapping() {
        for key in map.keys() {
            let key = scalar(key).unwrap_or_default();
            if !keys.contains(&key.as_str()) {
                return Err(format!(
                    "unknown field `{key}`, expected {}",
                    keys.iter()
                        .map(|k| format!("`{k}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
        }
    }
    Ok(())
}

/// TXT or SPF text from its octoDNS form: quoted chunks joined, `\;` read as `;`.
fn txt_from_octodns(text: &str) -> String {
    let text = match text.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
        Some(chunks) => chunks.replace("\" \"", ""),
        None => text.to_owned(),
    };
    text.replace("\\;", ";")
}

/// TXT or SPF text in octoDNS's form: `;` escaped as `\;`.
fn txt_to_octodns(text: &str) -> String {
    text.replace(';', "\\;")
}

/// One value of a record as an entry's content and priority.
fn read_value(record_type: &DnsRecordType, value: &Value) -> Result<(String, Option<u16>), String> {
    match record_type {
        DnsRecordType::Mx => {
            if field(value, "exchange").is_some() {
                only_keys(value, &["exchange", "preference"])?;
                Ok((
                    host(&text_field(value, "exchange")?),
                    Some(number_field(value, "preference")?),
                ))
            } else {
                only_keys(value, &["priority", "value"])?;
                Ok((
                    host(&text_field(value, "value")?),
                    Some(number_field(value, "priority")?),
                ))
            }
        }
        DnsRecordType::Srv => {
            only_keys(value, &["port", "priority", "target", "weight"])?;
            let weight = number_field(value, "weight")?;
            let port = number_field(value, "port")?;
            let target = host(&text_field(value, "target")?);
            Ok((
                format!("{weight} {port} {target}"),
                Some(number_field(value, "priority")?),
            ))
        }
        DnsRecordType::Caa => {
            only_keys(value, &["flags", "tag", "value"])?;
            let flags = match field(value, "flags") {
                None => 0,
                Some(_) => number_field(value, "flags")?,
            };
            let tag = text_field(value, "tag")?;
            let text = text_field(value, "value")?;
            Ok((
                format!(
                    "{flags} {tag} \"{}\"",
                    text.replace('\\', "\\\\").replace('"', "\\\"")
                ),
                None,
            ))
        }
        DnsRecordType::Txt | DnsRecordType::Spf => {
            let text = scalar(value).ok_or("a TXT value is text")?;
            Ok((txt_from_octodns(&text), None))
        }
        DnsRecordType::Cname | DnsRecordType::Ns | DnsRecordType::Ptr => {
            let text = scalar(value).ok_or("the value is a host name")?;
            Ok((host(&text), None))
        }
        _ => Ok((
            scalar(value).ok_or("the value is text for this type")?,
            None,
        )),
    }
}

/// A host name without its final dot (`.`, the root, stays).
fn host(name: &str) -> String {
    let name = name.trim();
    if name == "." {
        return name.to_owned();
    }
    name.trim_end_matches('.').to_owned()
}

/// Reads an octoDNS zone file of `domain`.
pub(crate) fn read(text: &str, file: &Path, domain: &DomainName) -> Result<DnsZone, FileError> {
    let OctoZone(names) = parse(text, file, FileFormat::Yaml)?;
    let key_lines = top_level_keys(text);
    let line_of_key = |index: usize| {
        (key_lines.len() == names.len())
            .then(|| key_lines.get(index).map(|(line, _)| *line))
            .flatten()
    };
    let mut zone = DnsZone::new(domain.clone());
    let mut ttl: Option<(u32, String)> = None;
    let mut places = Vec::new();
    for (index, (name, Records(records))) in names.iter().enumerate() {
        let line = line_of_key(index);
        let error =
            |field: String, message: String| FileError::new(file, line, Some(field), message);
        let shown = if name.is_empty() { "''" } else { name.as_str() };
        let full = if name.is_empty() {
            Ok(domain.as_str().trim_end_matches('.').to_owned())
        } else {
            absolute_name(name, domain)
        }
        .map_err(|m| error(shown.to_owned(), m))?;
        let many = records.len() > 1;
        for (position, record) in records.iter().enumerate() {
            let at = if many {
                format!("{shown}[{position}]")
            } else {
                shown.to_owned()
            };
            let type_text = record.record_type.trim();
            if type_text.is_empty() {
                return Err(error(format!("{at}.type"), "is empty".to_owned()));
            }
            let record_type = DnsRecordType::from_wire(type_text);
            if record
                .octodns
                .as_ref()
                .and_then(|o| field(o, "ignored"))
                .and_then(Value::as_bool)
                == Some(true)
            {
                zone.skipped
                    .push(format!("{at} {type_text} (octodns: ignored)"));
                continue;
            }
            let unsupported = |reason: String| {
                UnsupportedRecord::new(full.clone(), record_type.as_wire(), line, reason)
            };
            if !service_holds(&record_type) {
                zone.unsupported.push(unsupported(format!(
                    "the service does not hold {} records",
                    record_type.as_wire()
                )));
                continue;
            }
            if record.geo.is_some() || record.dynamic.is_some() {
                zone.unsupported.push(unsupported(
                    "octoDNS answers by location (geo, dynamic): the service holds one \
                     answer for every client"
                        .to_owned(),
                ));
                continue;
            }
            if let Some(record_ttl) = record.ttl {
                match &ttl {
                    Some((first, first_at)) if *first != record_ttl => {
                        return Err(error(
                            format!("{at}.ttl"),
                            format!(
                                "{record_ttl} differs from the TTL {first} of {first_at}: the \
                                 service keeps one TTL per domain, so every record must \
                                 carry the same"
                            ),
                        ));
                    }
                    Some(_) => {}
                    None => ttl = Some((record_ttl, at.clone())),
                }
            }
            let values: Vec<(String, &Value)> = match (&record.value, &record.values) {
                (Some(_), Some(_)) => {
                    return Err(error(
                        at.clone(),
                        "give `value` or `values`, not both".to_owned(),
                    ));
                }
                (Some(value), None) => vec![(format!("{at}.value"), value)],
                (None, Some(values)) if !values.is_empty() => values
                    .iter()
                    .enumerate()
                    .map(|(i, v)| (format!("{at}.values[{i}]"), v))
                    .collect(),
                _ => return Err(error(at.clone(), "the record has no value".to_owned())),
            };
            for (value_at, value) in values {
                let (content, priority) =
                    read_value(&record_type, value).map_err(|m| error(value_at.clone(), m))?;
                let mut entry = DnsEntry::new(full.clone(), record_type.clone(), content);
                entry.priority = priority;
                if let Err(reason) = content_rule(&entry) {
                    zone.unsupported.push(unsupported(reason));
                    continue;
                }
                file_check(&entry, file, line, &value_at)?;
                places.push(value_at);
                zone.records.push(entry);
            }
        }
    }
    if let Some((first, second)) = cname_conflict(&zone.records) {
        return Err(FileError::new(
            file,
            None,
            Some(places[second].clone()),
            format!(
                "`{}` ({}) and `{}` ({}) share a name, and one is a CNAME: a CNAME must be \
                 the only record of its name",
                zone.records[first].describe(domain),
                places[first],
                zone.records[second].describe(domain),
                places[second]
            ),
        ));
    }
    zone.ttl = ttl.map(|(ttl, _)| ttl);
    Ok(zone)
}

/// Natural order, as octoDNS sorts its keys (`a2` before `a10`).
fn natural(a: &str, b: &str) -> Ordering {
    fn runs(text: &str) -> Vec<(bool, &str)> {
        let mut out = Vec::new();
        let mut start = 0;
        let bytes = text.as_bytes();
        for at in 1..=bytes.len() {
            if at == bytes.len() || bytes[at].is_ascii_digit() != bytes[start].is_ascii_digit() {
                out.push((bytes[start].is_ascii_digit(), &text[start..at]));
                start = at;
            }
        }
        out
    }
    let (left, right) = (runs(a), runs(b));
    for ((digits_a, a), (digits_b, b)) in left.iter().zip(&right) {
        let order = if *digits_a && *digits_b {
            let (x, y) = (a.trim_start_matches('0'), b.trim_start_matches('0'));
            x.len().cmp(&y.len()).then_with(|| x.cmp(y))
        } else {
            a.cmp(b)
        };
        if order != Ordering::Equal {
            return order;
        }
    }
    left.len().cmp(&right.len()).then_with(|| a.cmp(b))
}

/// A CAA value `flags tag "value"` as its three parts.
fn caa_parts(content: &str) -> Option<(u8, String, String)> {
    let mut words = content.trim().splitn(3, char::is_whitespace);
    let flags = words.next()?.parse().ok()?;
    let tag = words.next()?.to_owned();
    let value = words.next()?.trim();
    let value = match value.strip_prefix('"').and_then(|v| v.strip_suffix('"')) {
        Some(quoted) => {
            let mut out = String::new();
            let mut chars = quoted.chars();
            while let Some(c) = chars.next() {
                if c == '\\' {
                    out.push(chars.next()?);
                } else {
                    out.push(c);
                }
            }
            out
        }
        None => value.to_owned(),
    };
    Some((flags, tag, value))
}

fn map(pairs: Vec<(&str, Value)>) -> Value {
    let mut mapping = Mapping::new();
    for (key, value) in pairs {
        mapping.insert(Value::String(key.to_owned()), value);
    }
    Value::Mapping(mapping)
}

fn dotted(name: &str) -> String {
    format!("{}.", name.trim().trim_end_matches('.'))
}

/// One value in octoDNS's form; `None` when octoDNS has no form for it.
fn write_value(entry: &DnsEntry) -> Option<Value> {
    let text = |t: String| Some(Value::String(t));
    match entry.record_type {
        DnsRecordType::A | DnsRecordType::Aaaa => text(entry.content.trim().to_owned()),
        DnsRecordType::Cname | DnsRecordType::Ns | DnsRecordType::Ptr => {
            text(dotted(&entry.content))
        }
        DnsRecordType::Txt | DnsRecordType::Spf => text(txt_to_octodns(&entry.content)),
        DnsRecordType::Mx => Some(map(vec![
            ("exchange", Value::String(dotted(&entry.content))),
            ("preference", Value::from(entry.priority?)),
        ])),
        DnsRecordType::Srv => {
            let words: Vec<&str> = entry.content.split_whitespace().collect();
            let [weight, port, target] = words.as_slice() else {
                return None;
            };
            let weight: u16 = weight.parse().ok()?;
            let port: u16 = port.parse().ok()?;
            Some(map(vec![
                ("port", Value::from(port)),
                ("priority", Value::from(entry.priority?)),
                ("target", Value::String(dotted(target))),
                ("weight", Value::from(weight)),
            ]))
        }
        DnsRecordType::Caa => {
            let (flags, tag, value) = caa_parts(&entry.content)?;
            Some(map(vec![
                ("flags", Value::from(flags)),
                ("tag", Value::String(tag)),
                ("value", Value::String(value)),
            ]))
        }
        _ => None,
    }
}

/// Writes a zone as an octoDNS zone file: names sorted as octoDNS sorts them, each
/// name's records by type, the domain's TTL on every record. Records octoDNS has no
/// form for are returned apart.
pub(crate) fn write(zone: &DnsZone) -> Result<(String, Vec<DnsEntry>), Error> {
    let mut names: BTreeMap<String, BTreeMap<String, Vec<Value>>> = BTreeMap::new();
    let mut not_expressible = Vec::new();
    for entry in &zone.records {
        let Some(value) = write_value(entry) else {
            not_expressible.push(entry.clone());
            continue;
        };
        let name = match relative_name(&entry.name, &zone.domain).as_str() {
            "@" => String::new(),
            name if name.ends_with('.') => {
                not_expressible.push(entry.clone());
                continue;
            }
            name => name.to_ascii_lowercase(),
        };
        names
            .entry(name)
            .or_default()
            .entry(entry.record_type.as_wire().to_ascii_uppercase())
            .or_default()
            .push(value);
    }
    let mut sorted: Vec<_> = names.into_iter().collect();
    sorted.sort_by(|(a, _), (b, _)| natural(a, b));
    let mut doc = Mapping::new();
    for (name, types) in sorted {
        let mut records: Vec<Value> = types
            .into_iter()
            .map(|(record_type, values)| {
                let mut pairs = Vec::new();
                if let Some(ttl) = zone.ttl {
                    pairs.push(("ttl", Value::from(ttl)));
                }
                pairs.push(("type", Value::String(record_type)));
                if values.len() == 1 {
                    pairs.push(("value", values.into_iter().next().unwrap_or(Value::Null)));
                } else {
                    pairs.push(("values", Value::Sequence(values)));
                }
                map(pairs)
            })
            .collect();
        let records = if records.len() == 1 {
            records.pop().unwrap_or(Value::Null)
        } else {
            Value::Sequence(records)
        };
        doc.insert(Value::String(name), records);
    }
    let body = serde_yaml_ng::to_string(&Value::Mapping(doc))
        .map_err(|e| Error::invalid("format", e.to_string()))?;
    let text = format!(
        "---\n# {}: DNS records, exported by hostapi as an octoDNS zone file.\n\
         # ttl is the domain's TTL: the service keeps one per domain, not per record.\n{body}",
        zone.domain
    );
    Ok((text, not_expressible))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_sort_naturally() {
        let mut keys = vec!["a10", "a2", "", "_srv._tcp", "*", "www", "a1"];
        keys.sort_by(|a, b| natural(a, b));
        assert_eq!(keys, ["", "*", "_srv._tcp", "a1", "a2", "a10", "www"]);
    }

    #[test]
    fn txt_escaping_reads_and_writes() {
        assert_eq!(txt_from_octodns("v=DKIM1\\;k=rsa"), "v=DKIM1;k=rsa");
        assert_eq!(txt_from_octodns("\"abc\" \"def\""), "abcdef");
        assert_eq!(txt_to_octodns("v=DKIM1;k=rsa"), "v=DKIM1\\;k=rsa");
    }

    #[test]
    fn caa_values_split_into_their_parts() {
        assert_eq!(
            caa_parts("0 issue \"ca.example.net\""),
            Some((0, "issue".to_owned(), "ca.example.net".to_owned()))
        );
        assert_eq!(
            caa_parts("128 iodef \"mailto:a\\\"b@example.com\""),
            Some((
                128,
                "iodef".to_owned(),
                "mailto:a\"b@example.com".to_owned()
            ))
        );
    }

    #[test]
    fn octodns_files_are_told_from_record_lists() {
        assert!(looks_like("---\n'':\n  type: A\n  value: 192.0.2.1\n"));
        assert!(looks_like("? ''\n: - type: A\n"));
        assert!(looks_like("www:\n  type: A\n"));
        assert!(!looks_like("domain: example.com\nttl: 300\nrecords: []\n"));
        assert!(!looks_like("# comment\nrecords:\n  - name: www\n"));
    }
}
