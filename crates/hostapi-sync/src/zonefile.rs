//! BIND zone files, read and written with the NLnet Labs `domain` crate.
//!
//! Reading: the crate's scanner reads the file (directives, relative names,
//! parentheses, escapes); each record becomes a [`DnsEntry`] with its value written
//! as the service writes it (names without a final dot, MX and SRV priorities apart,
//! TXT text unquoted). Writing: each record is given to the same scanner as one line
//! and written back by the crate's zone-file formatter, so what is written is what the
//! crate read; a record it cannot read, or reads as another value, is written as a
//! comment and reported.

use std::path::Path;
use std::str::FromStr;

use bytes::Bytes;
use domain::base::iana::{Class, Rtype};
use domain::base::rdata::{ComposeRecordData, UnknownRecordData};
use domain::base::zonefile_fmt::{DisplayKind, ZonefileFmt};
use domain::base::{Name, Record, Ttl};
use domain::rdata::{Txt, ZoneRecordData};
use domain::zonefile::inplace::{Entry, ScannedRecord, Zonefile};

use super::dns::{DnsEntry, DnsZone, ZoneText, file_check, file_name};
use super::file::quiet_message;
use super::{FileError, line_of};
use hostapi::domains::DnsRecordType;
use hostapi::types::DomainName;

/// The TTL written when the service gives the domain none.
const DEFAULT_TTL: u32 = 3600;

/// Where a zone file is wrong: the line, the column when known, and why.
type ScanError = (usize, Option<usize>, String);

/// The records of a zone file's text, each with its line; or where the first error
/// is.
fn scan(text: &str, origin: &str) -> Result<Vec<(ScannedRecord, usize)>, ScanError> {
    let mut zone = Zonefile::with_capacity(text.len() + 1);
    zone.extend_from_slice(text.as_bytes());
    if !text.ends_with('\n') {
        zone.extend_from_slice(b"\n");
    }
    let origin =
        Name::<Bytes>::from_str(origin).map_err(|e| (1, None, format!("bad origin: {e}")))?;
    zone.set_origin(origin);
    let mut records = Vec::new();
    let mut previous = 0;
    loop {
        let entry = zone.next_entry();
        let end = zone.current_offset();
        match entry {
            Ok(None) => return Ok(records),
            Ok(Some(Entry::Record(record))) => {
                records.push((record, first_line(text, previous, end)));
            }
            Ok(Some(Entry::Include { .. })) => {
                return Err((
                    first_line(text, previous, end),
                    None,
                    "$INCLUDE is not supported: give the whole zone in one file".to_owned(),
                ));
            }
            Err(error) => {
                // The crate's error reads `line:column: message`.
                let shown = error.to_string();
                let mut parts = shown.splitn(3, ':');
                let line = parts.next().and_then(|l| l.trim().parse().ok());
                let column = parts.next().and_then(|c| c.trim().parse().ok());
                return Err(match (line, parts.next()) {
                    (Some(line), Some(message)) => (line, column, quiet_message(message.trim())),
                    _ => (line_of(text, end), None, quiet_message(&shown)),
                });
            }
        }
        previous = end;
    }
}

/// The line of the first record text between two offsets (skipping blank lines,
/// comments and directives).
fn first_line(text: &str, from: usize, to: usize) -> usize {
    let from = from.min(text.len());
    let to = to.clamp(from, text.len());
    let mut offset = from;
    for line in text[from..to].split_inclusive('\n') {
        let content = line.trim();
        if !(content.is_empty() || content.starts_with(';') || content.starts_with('$')) {
            return line_of(text, offset);
        }
        offset += line.len();
    }
    line_of(text, from)
}

fn dotless(name: impl std::fmt::Display) -> String {
    name.to_string().trim_end_matches('.').to_owned()
}

fn txt_text(txt: &Txt<Bytes>) -> Result<String, String> {
    String::from_utf8(txt.text::<Vec<u8>>()).map_err(|_| "the text is not UTF-8".to_owned())
}

/// A scanned record as an entry: `Ok(None)` for a record the service manages (SOA).
fn entry_of(record: &ScannedRecord) -> Result<Option<DnsEntry>, (String, String)> {
    let name = dotless(record.owner());
    let record_type = DnsRecordType::from_wire(&record.rtype().to_string());
    let value_error = |m: String| ("value".to_owned(), m);
    let (content, priority) = match record.data() {
        ZoneRecordData::Soa(_) => return Ok(None),
        ZoneRecordData::Mx(mx) => (dotless(mx.exchange()), Some(mx.preference())),
        ZoneRecordData::Srv(srv) => (
            format!("{} {} {}", srv.weight(), srv.port(), dotless(srv.target())),
            Some(srv.priority()),
        ),
        ZoneRecordData::Txt(txt) => (txt_text(txt).map_err(value_error)?, None),
        ZoneRecordData::Unknown(unknown) if unknown.rtype() == Rtype::SPF => {
            let txt = Txt::from_octets(unknown.data().clone())
                .map_err(|e| value_error(format!("not SPF text: {e}")))?;
            (txt_text(&txt).map_err(value_error)?, None)
        }
        ZoneRecordData::Cname(_) | ZoneRecordData::Ns(_) | ZoneRecordData::Ptr(_) => (
            dotless(record.data().display_zonefile(DisplayKind::Simple)),
            None,
        ),
        data => (data.display_zonefile(DisplayKind::Simple).to_string(), None),
    };
    let mut entry = DnsEntry::new(name, record_type, content);
    entry.priority = priority;
    Ok(Some(entry))
}

/// Reads a zone file of `domain` (its names relative to the domain unless they end
/// with a dot).
pub(crate) fn read(text: &str, file: &Path, domain: &DomainName) -> Result<DnsZone, FileError> {
    let origin = format!("{}.", domain.as_str().trim_end_matches('.'));
    let records = scan(text, &origin).map_err(|(line, column, message)| {
        FileError::new(file, Some(line), None, message).at_column(column)
    })?;
    let mut zone = DnsZone::new(domain.clone());
    let mut ttl: Option<(u32, usize)> = None;
    for (record, line) in records {
        if record.class() != Class::IN {
            return Err(FileError::new(
                file,
                Some(line),
                Some("class".to_owned()),
                format!("only class IN is served, not {}", record.class()),
            ));
        }
        let entry = entry_of(&record)
            .map_err(|(field, message)| FileError::new(file, Some(line), Some(field), message))?;
        let Some(mut entry) = entry else {
            zone.skipped
                .push(format!("line {line}: SOA (managed by the service)"));
            continue;
        };
        entry.name = file_name(
            &format!("{}.", entry.name),
            domain,
            file,
            Some(line),
            "name",
        )?;
        file_check(&entry, file, Some(line), "")?;
        let record_ttl = record.ttl().as_secs();
        match ttl {
            None => ttl = Some((record_ttl, line)),
            Some((first, first_line)) if first != record_ttl => {
                return Err(FileError::new(
                    file,
                    Some(line),
                    Some("ttl".to_owned()),
                    format!(
                        "{record_ttl} differs from the TTL {first} of line {first_line}: the \
                         service keeps one TTL per domain, so every record must carry the same"
                    ),
                ));
            }
            Some(_) => {}
        }
        zone.records.push(entry);
    }
    zone.ttl = ttl.map(|(ttl, _)| ttl);
    Ok(zone)
}

/// A name with a final dot (so a zone file does not read it as relative).
fn dotted(name: &str) -> String {
    format!("{}.", name.trim().trim_end_matches('.'))
}

/// The record's value as zone-file text for the scanner (names made absolute).
fn rdata_text(entry: &DnsEntry) -> String {
    let content = entry.content.trim();
    let priority = entry.priority.map(|p| format!("{p} ")).unwrap_or_default();
    match entry.record_type {
        DnsRecordType::Cname | DnsRecordType::Ns | DnsRecordType::Ptr | DnsRecordType::Mx => {
            format!("{priority}{}", dotted(content))
        }
        DnsRecordType::Srv => {
            let mut words: Vec<String> = content.split_whitespace().map(str::to_owned).collect();
            if let Some(target) = words.last_mut() {
                *target = dotted(target);
            }
            format!("{priority}{}", words.join(" "))
        }
        _ => format!("{priority}{content}"),
    }
}

/// One record as a zone-file line, or `None` when a zone file cannot express it
/// faithfully.
fn record_line(entry: &DnsEntry, ttl: u32, origin: &str) -> Option<String> {
    let owner = Name::<Bytes>::from_str(&dotted(&entry.name)).ok()?;
    let line = match entry.record_type {
        DnsRecordType::Txt | DnsRecordType::Spf => {
            let txt = Txt::<Bytes>::build_from_slice(entry.content.as_bytes()).ok()?;
            if entry.record_type == DnsRecordType::Txt {
                let record = Record::new(owner, Class::IN, Ttl::from_secs(ttl), txt);
                record.display_zonefile(DisplayKind::Simple).to_string()
            } else {
                let mut wire = Vec::new();
                txt.compose_rdata(&mut wire).ok()?;
                let data = UnknownRecordData::from_octets(Rtype::SPF, Bytes::from(wire)).ok()?;
                let record = Record::new(owner, Class::IN, Ttl::from_secs(ttl), data);
                record.display_zonefile(DisplayKind::Simple).to_string()
            }
        }
        _ => {
            let text = format!(
                "{} {ttl} IN {} {}\n",
                dotted(&entry.name),
                entry.record_type.as_wire(),
                rdata_text(entry)
            );
            if text.trim_end().contains(['\n', '\r']) {
                return None;
            }
            let mut records = scan(&text, origin).ok()?;
            if records.len() != 1 {
                return None;
            }
            let (record, _) = records.pop()?;
            record.display_zonefile(DisplayKind::Simple).to_string()
        }
    };
    // What the crate reads back must be the same record.
    let (again, _) = scan(&line, origin).ok()?.into_iter().next()?;
    let read = entry_of(&again).ok()??;
    let same = read
        .name
        .eq_ignore_ascii_case(entry.name.trim_end_matches('.'))
        && read.record_type == entry.record_type
        && DnsZone::same_value(&read, entry);
    same.then_some(line)
}

/// Writes a zone as a zone file: `$ORIGIN`, `$TTL` (the domain's TTL, which every
/// record carries), then one record a line.
pub(crate) fn write(zone: &DnsZone) -> ZoneText {
    let apex = zone.domain.as_str().trim_end_matches('.');
    let origin = format!("{apex}.");
    let ttl = zone.ttl.unwrap_or(DEFAULT_TTL);
    let mut text = format!(
        "; {apex}: DNS records, exported by hostapi.\n\
         ; The service keeps one TTL per domain, not per record: $TTL is the domain's TTL,\n\
         ; and every record carries it. SOA records are the service's own: not listed.\n\
         $ORIGIN {origin}\n$TTL {ttl}\n"
    );
    let mut not_expressible = Vec::new();
    for entry in &zone.records {
        match record_line(entry, ttl, &origin) {
            Some(line) => {
                text.push_str(&line);
                text.push('\n');
            }
            None => {
                let priority = entry.priority.map(|p| format!("{p} ")).unwrap_or_default();
                text.push_str(&format!(
                    "; not expressible in a zone file, kept on the service: {} {} {priority}{}\n",
                    entry.name.escape_debug(),
                    entry.record_type.as_wire().escape_debug(),
                    entry.content.escape_debug()
                ));
                not_expressible.push(entry.clone());
            }
        }
    }
    ZoneText {
        text,
        not_expressible,
    }
}
