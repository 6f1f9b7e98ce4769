//! BIND zone files, read and written with the NLnet Labs `domain` crate and a small
//! pre-pass of our own.
//!
//! **Reading.** Zone files as people write them use more of the format than the crate's
//! scanner takes, so a pre-pass reads the file's structure first and hands the crate
//! only what it reads well:
//!
//! - *The pre-pass* splits the file into records (comments, parentheses across lines,
//!   quoted strings), and resolves what the crate's scanner refuses or reads otherwise
//!   than BIND: `$ORIGIN` (relative to the origin before it), `$TTL` and record TTLs
//!   with units (`1h`, `1d`, `1W`, `1h30m`), blank owners (the previous record's
//!   name), the class in either place or absent, and the type. `SOA` records (any
//!   class, any timers) are read and left out: the service manages its own. TXT and
//!   SPF values are read by the pre-pass too: each string, quoted or not, with `\X`
//!   and `\DDD` escapes, UTF-8 as it is, any length (a string over 255 bytes is split
//!   into 255-byte strings by BIND and octoDNS; the value is the joined text). An
//!   unquoted TXT value of several words is read as BIND reads it, as separate
//!   strings joined without the spaces, with a warning. Generic data (RFC 3597,
//!   `TYPE257 \# 22 0005…`) is decoded from its wire form: TXT and SPF by the
//!   pre-pass, other types by the crate's wire parser, then written in their
//!   presentation form; a type neither knows is refused, named.
//! - *The crate* reads every other record's value from one normalised line each
//!   (absolute owner, `IN`, the type, the value's tokens, under the same `$ORIGIN`),
//!   so names, addresses, MX, SRV and CAA values are read by its rules.
//!
//! Each record becomes a [`DnsEntry`] with its value written as the service writes it
//! (names without a final dot, MX and SRV priorities apart, TXT text unquoted).
//! Records of types the service does not hold are not read further: they are listed
//! in [`DnsZone::unsupported`]. Every step is linear in the file's size.
//!
//! **Writing.** Each record is given to the crate's scanner as one line and written
//! back by the crate's zone-file formatter, so what is written is what the crate read;
//! a record it cannot read, or reads as another value, is written as a comment and
//! reported.

use std::path::Path;
use std::str::FromStr;

use bytes::Bytes;
use domain::base::iana::{Class, Rtype};
use domain::base::rdata::{ComposeRecordData, ParseRecordData, UnknownRecordData};
use domain::base::zonefile_fmt::{DisplayKind, ZonefileFmt};
use domain::base::{Name, Record, Ttl};
use domain::rdata::{Txt, ZoneRecordData};
use domain::zonefile::inplace::{Entry, ScannedRecord, Zonefile};

use super::dns::{
    DnsEntry, DnsZone, UnsupportedRecord, ZoneText, cname_conflict, content_rule, file_check,
    file_name, service_holds,
};
use super::file::quiet_message;
use super::{FileError, line_of};
use hostapi::domains::DnsRecordType;
use hostapi::types::DomainName;

/// The TTL written when the service gives the domain none.
const DEFAULT_TTL: u32 = 3600;

/// The largest TTL (RFC 2181: 2^31 - 1 seconds).
const MAX_TTL: u64 = 2_147_483_647;

/// Where a zone file is wrong: the line, the column when known, and why.
type ScanError = (usize, Option<usize>, String);

/// The records of a zone file's text as the crate reads them; or where the first
/// error is (its line in `text`).
fn scan(text: &str, origin: &str) -> Result<Vec<ScannedRecord>, ScanError> {
    let mut zone = Zonefile::with_capacity(text.len() + 1);
    zone.extend_from_slice(text.as_bytes());
    if !text.ends_with('\n') {
        zone.extend_from_slice(b"\n");
    }
    let origin =
        Name::<Bytes>::from_str(origin).map_err(|e| (1, None, format!("bad origin: {e}")))?;
    zone.set_origin(origin);
    let mut records = Vec::new();
    loop {
        let entry = zone.next_entry();
        match entry {
            Ok(None) => return Ok(records),
            Ok(Some(Entry::Record(record))) => records.push(record),
            Ok(Some(Entry::Include { .. })) => {
                return Err((
                    line_of(text, zone.current_offset()),
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
                    _ => (
                        line_of(text, zone.current_offset()),
                        None,
                        quiet_message(&shown),
                    ),
                });
            }
        }
    }
}

/// One token of a zone file: its text as written (escapes kept), and whether it
/// was quoted (the quotes are not in `text`).
#[derive(Debug)]
struct Token {
    text: String,
    quoted: bool,
}

/// One record or directive of a zone file: the line it starts on, whether its line
/// starts with white space (a blank owner), and its tokens (parentheses and comments
/// taken out).
#[derive(Debug)]
struct Logical {
    line: usize,
    blank_owner: bool,
    tokens: Vec<Token>,
}

/// Splits a zone file into records: one pass over the text.
fn lex(text: &str) -> Result<Vec<Logical>, ScanError> {
    let mut out = Vec::new();
    let mut current: Option<Logical> = None;
    let mut line = 1;
    let mut line_starts_blank = false;
    let mut at_line_start = true;
    // The line of each open parenthesis.
    let mut open: Vec<usize> = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if at_line_start {
            line_starts_blank = c == ' ' || c == '\t';
            at_line_start = false;
        }
        match c {
            '\n' => {
                line += 1;
                at_line_start = true;
                if open.is_empty()
                    && let Some(done) = current.take()
                {
                    out.push(done);
                }
            }
            ' ' | '\t' | '\r' => {}
            ';' => {
                while chars.peek().is_some_and(|&n| n != '\n') {
                    chars.next();
                }
            }
            '(' => open.push(line),
            ')' => {
                if open.pop().is_none() {
                    return Err((line, None, "`)` without `(`".to_owned()));
                }
            }
            _ => {
                let record = current.get_or_insert_with(|| Logical {
                    line,
                    blank_owner: line_starts_blank,
                    tokens: Vec::new(),
                });
                let mut token = String::new();
                let quoted = c == '"';
                if quoted {
                    let start = line;
                    loop {
                        match chars.next() {
                            None => {
                                return Err((start, None, "a quote `\"` is not closed".to_owned()));
                            }
                            Some('"') => break,
                            Some('\\') => {
                                token.push('\\');
                                if let Some(next) = chars.next() {
                                    line += usize::from(next == '\n');
                                    token.push(next);
                                }
                            }
                            Some(other) => {
                                line += usize::from(other == '\n');
                                token.push(other);
                            }
                        }
                    }
                } else {
                    let mut c = c;
                    loop {
                        token.push(c);
                        if c == '\\'
                            && let Some(next) = chars.next()
                        {
                            line += usize::from(next == '\n');
                            token.push(next);
                        }
                        match chars.peek() {
                            Some(&n) if !(n.is_whitespace() || "();\"".contains(n)) => {
                                c = n;
                                chars.next();
                            }
                            _ => break,
                        }
                    }
                }
                record.tokens.push(Token {
                    text: token,
                    quoted,
                });
            }
        }
    }
    if let Some(first) = open.first() {
        return Err((*first, None, "`(` is not closed".to_owned()));
    }
    out.extend(current);
    Ok(out)
}

/// A TTL as BIND reads it: seconds (`3600`), or numbers with units (`1h`, `1d`,
/// `1W`, `1h30m`; `s`, `m`, `h`, `d`, `w` in either case).
pub(crate) fn parse_ttl(text: &str) -> Option<u32> {
    if text.is_empty() || !text.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    if let Ok(seconds) = text.parse::<u64>() {
        return (seconds <= MAX_TTL).then_some(seconds as u32);
    }
    let mut total: u64 = 0;
    let mut number: Option<u64> = None;
    for c in text.chars() {
        if let Some(digit) = c.to_digit(10) {
            number = Some(
                number
                    .unwrap_or(0)
                    .checked_mul(10)?
                    .checked_add(digit.into())?,
            );
            continue;
        }
        let unit: u64 = match c.to_ascii_lowercase() {
            's' => 1,
            'm' => 60,
            'h' => 3600,
            'd' => 86_400,
            'w' => 604_800,
            _ => return None,
        };
        total = total.checked_add(number.take()?.checked_mul(unit)?)?;
    }
    if number.is_some() {
        return None;
    }
    (total <= MAX_TTL).then_some(total as u32)
}

/// Whether a name as written ends with a dot that is not escaped (an absolute name).
fn is_absolute(name: &str) -> bool {
    let Some(body) = name.strip_suffix('.') else {
        return false;
    };
    body.chars()
        .rev()
        .take_while(|&c| c == '\\')
        .count()
        .is_multiple_of(2)
}

/// A name as written, made absolute under `origin` (which ends with a dot).
fn absolute(name: &str, origin: &str) -> String {
    if name == "@" {
        origin.to_owned()
    } else if is_absolute(name) {
        name.to_owned()
    } else if origin == "." {
        format!("{name}.")
    } else {
        format!("{name}.{origin}")
    }
}

/// The bytes of a character string as written: `\DDD` is the byte DDD, `\X` is X.
fn unescape(text: &str) -> Result<Vec<u8>, String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] != b'\\' {
            out.push(bytes[at]);
            at += 1;
            continue;
        }
        let digits = bytes
            .get(at + 1..at + 4)
            .filter(|d| d.iter().all(u8::is_ascii_digit));
        if let Some(digits) = digits {
            let value = digits
                .iter()
                .fold(0u32, |v, d| v * 10 + u32::from(d - b'0'));
            let byte = u8::try_from(value)
                .map_err(|_| format!("`\\{value}` is not a byte (at most \\255)"))?;
            out.push(byte);
            at += 4;
        } else if let Some(&next) = bytes.get(at + 1) {
            out.push(next);
            at += 2;
        } else {
            return Err("a `\\` ends the text".to_owned());
        }
    }
    Ok(out)
}

/// The data of generic syntax (`\# 4 c0000201`): the tokens after `\#`.
fn generic_data(tokens: &[&Token]) -> Result<Vec<u8>, String> {
    let (length, hex) = tokens
        .split_first()
        .ok_or("generic data (`\\#`) needs a length")?;
    let length: usize = length
        .text
        .parse()
        .map_err(|_| "generic data (`\\#`) needs a length in bytes after `\\#`".to_owned())?;
    let hex: String = hex.iter().map(|t| t.text.as_str()).collect();
    if !hex.len().is_multiple_of(2) || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err("generic data (`\\#`) is not hexadecimal pairs".to_owned());
    }
    let data: Vec<u8> = (0..hex.len())
        .step_by(2)
        .map(|at| u8::from_str_radix(&hex[at..at + 2], 16).unwrap_or(0))
        .collect();
    if data.len() != length {
        return Err(format!(
            "generic data (`\\#`) says {length} bytes but holds {}",
            data.len()
        ));
    }
    Ok(data)
}

/// TXT or SPF wire data: length-prefixed strings, joined.
fn txt_wire_text(data: &[u8]) -> Result<Vec<u8>, String> {
    let mut text = Vec::with_capacity(data.len());
    let mut rest = data;
    while let Some((&length, tail)) = rest.split_first() {
        let length = usize::from(length);
        if tail.len() < length {
            return Err("TXT data in generic syntax ends inside a string".to_owned());
        }
        text.extend_from_slice(&tail[..length]);
        rest = &tail[length..];
    }
    Ok(text)
}

/// Generic data of a type other than TXT and SPF in its presentation form, by the
/// crate's wire parser; `None` for a type the crate does not know.
fn generic_presentation(rtype: Rtype, data: Vec<u8>) -> Result<Option<String>, String> {
    let bytes = Bytes::from(data);
    let mut parser = domain::dep::octseq::Parser::from_ref(&bytes);
    let parsed = ZoneRecordData::parse_rdata(rtype, &mut parser)
        .map_err(|e| format!("generic data (`\\#`) is not {rtype} data: {e}"))?;
    if parser.remaining() != 0 {
        return Err(format!(
            "generic data (`\\#`) holds {} bytes more than {rtype} data",
            parser.remaining()
        ));
    }
    match parsed {
        Some(ZoneRecordData::Unknown(_)) | None => Ok(None),
        Some(data) => Ok(Some(data.display_zonefile(DisplayKind::Simple).to_string())),
    }
}

fn dotless(name: impl std::fmt::Display) -> String {
    let name = name.to_string();
    if name == "." {
        return name;
    }
    name.trim_end_matches('.').to_owned()
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
        ZoneRecordData::Unknown(unknown) => {
            return Err(value_error(format!(
                "{} data that hostapi cannot decode",
                unknown.rtype()
            )));
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

/// A record of the file on its way to an entry: read by the pre-pass already, or
/// waiting for the crate's reading of its normalised line.
enum Pending {
    Read(DnsEntry),
    ByCrate,
}

/// Reads a zone file of `domain` (its names relative to the domain unless they end
/// with a dot).
pub(crate) fn read(text: &str, file: &Path, domain: &DomainName) -> Result<DnsZone, FileError> {
    let at = |line: usize, field: Option<&str>, message: String| {
        FileError::new(file, Some(line), field.map(str::to_owned), message)
    };
    let mut zone = DnsZone::new(domain.clone());
    let logicals =
        lex(text).map_err(|(line, column, message)| at(line, None, message).at_column(column))?;
    let mut origin = format!("{}.", domain.as_str().trim_end_matches('.'));
    let mut dollar_ttl: Option<u32> = None;
    let mut last_ttl: Option<u32> = None;
    let mut last_owner: Option<String> = None;
    // The records in file order: (line, TTL, the record or a wait for the crate).
    let mut pending: Vec<(usize, Option<u32>, Pending)> = Vec::new();
    // The normalised text the crate reads, and the file's line of each of its lines.
    let mut normalised = String::new();
    let mut normalised_lines: Vec<usize> = Vec::new();
    let mut normalised_origin = String::new();
    for Logical {
        line,
        blank_owner,
        tokens,
    } in logicals
    {
        let mut words = tokens.iter().peekable();
        if !blank_owner
            && let Some(directive) = words
                .peek()
                .filter(|t| !t.quoted && t.text.starts_with('$'))
        {
            let directive = directive.text.to_ascii_uppercase();
            words.next();
            let argument = words.next().map(|t| t.text.as_str());
            match (directive.as_str(), argument) {
                ("$ORIGIN", Some(name)) => origin = absolute(name, &origin),
                ("$TTL", Some(ttl)) => {
                    dollar_ttl = Some(parse_ttl(ttl).ok_or_else(|| {
                        at(
                            line,
                            Some("ttl"),
                            format!(
                                "`{}` is not a TTL (seconds, or units: 1h, 1d, 1h30m)",
                                ttl.escape_debug()
                            ),
                        )
                    })?);
                }
                ("$INCLUDE", _) => {
                    return Err(at(
                        line,
                        None,
                        "$INCLUDE is not supported: give the whole zone in one file".to_owned(),
                    ));
                }
                ("$GENERATE", _) => {
                    return Err(at(
                        line,
                        None,
                        "$GENERATE is not supported: write the records out".to_owned(),
                    ));
                }
                ("$ORIGIN" | "$TTL", None) => {
                    return Err(at(line, None, format!("{directive} needs a value")));
                }
                _ => {
                    return Err(at(
                        line,
                        None,
                        format!("unknown directive `{}`", quiet_message(&directive)),
                    ));
                }
            }
            continue;
        }
        let owner = if blank_owner {
            last_owner.clone().ok_or_else(|| {
                at(
                    line,
                    Some("name"),
                    "the record has no name (its line starts with a space) and no record \
                     before it has one"
                        .to_owned(),
                )
            })?
        } else {
            let name = words.next().map(|t| t.text.as_str()).unwrap_or_default();
            absolute(name, &origin)
        };
        last_owner = Some(owner.clone());
        // [TTL] [class] type, or [class] [TTL] type.
        let mut ttl = None;
        let mut class = None;
        let mut rtype = None;
        for _ in 0..3 {
            let Some(word) = words.next() else { break };
            let text = word.text.as_str();
            if ttl.is_none()
                && let Some(seconds) = parse_ttl(text)
            {
                ttl = Some(seconds);
            } else if class.is_none()
                && let Ok(read) = Class::from_str(text)
            {
                class = Some(read);
            } else {
                rtype = Some(Rtype::from_str(text).map_err(|_| {
                    at(
                        line,
                        Some("type"),
                        format!("`{}` is not a record type", quiet_message(text)),
                    )
                })?);
                break;
            }
        }
        let rtype =
            rtype.ok_or_else(|| at(line, Some("type"), "the record has no type".to_owned()))?;
        let rdata: Vec<&Token> = words.collect();
        if let Some(explicit) = ttl {
            last_ttl = Some(explicit);
        }
        if rtype == Rtype::SOA {
            zone.skipped
                .push(format!("line {line}: SOA (managed by the service)"));
            continue;
        }
        if let Some(class) = class
            && class != Class::IN
        {
            return Err(at(
                line,
                Some("class"),
                format!("only class IN is served, not {class}"),
            ));
        }
        let ttl = ttl.or(dollar_ttl).or(last_ttl);
        let record_type = DnsRecordType::from_wire(&rtype.to_string());
        let name_of = |owner: &str| {
            Name::<Vec<u8>>::from_str(owner).map(dotless).map_err(|e| {
                at(
                    line,
                    Some("name"),
                    format!("`{}` is not a name: {e}", quiet_message(owner)),
                )
            })
        };
        if !service_holds(&record_type) {
            zone.unsupported.push(UnsupportedRecord::new(
                name_of(&owner)?,
                record_type.as_wire(),
                Some(line),
                format!(
                    "the service does not hold {} records",
                    record_type.as_wire()
                ),
            ));
            continue;
        }
        let generic = rdata.first().is_some_and(|t| !t.quoted && t.text == "\\#");
        let value_error = |m: String| at(line, Some("value"), m);
        if matches!(record_type, DnsRecordType::Txt | DnsRecordType::Spf) {
            let bytes = if generic {
                txt_wire_text(&generic_data(&rdata[1..]).map_err(value_error)?)
                    .map_err(value_error)?
            } else {
                if rdata.len() > 1 && rdata.iter().any(|t| !t.quoted) {
                    zone.warnings.push(format!(
                        "line {line}: unquoted {} text of several words: BIND reads each word \
                         as a string and joins them without the spaces; quote the text to keep \
                         them",
                        record_type.as_wire()
                    ));
                }
                let mut bytes = Vec::new();
                for token in &rdata {
                    bytes.extend(unescape(&token.text).map_err(value_error)?);
                }
                bytes
            };
            let content = String::from_utf8(bytes).map_err(|_| {
                value_error(
                    "the text is not UTF-8 (its escapes spell bytes that are not UTF-8 text)"
                        .to_owned(),
                )
            })?;
            let entry = DnsEntry::new(name_of(&owner)?, record_type, content);
            pending.push((line, ttl, Pending::Read(entry)));
            continue;
        }
        let value = if generic {
            let data = generic_data(&rdata[1..]).map_err(value_error)?;
            match generic_presentation(rtype, data).map_err(value_error)? {
                Some(value) => value,
                None => {
                    return Err(value_error(format!(
                        "{rtype} data in generic syntax (`\\#`), which hostapi cannot decode"
                    )));
                }
            }
        } else {
            let mut value = String::new();
            for token in &rdata {
                if !value.is_empty() {
                    value.push(' ');
                }
                if token.quoted {
                    value.push('"');
                    value.push_str(&token.text);
                    value.push('"');
                } else if token.text == "@" {
                    // `@` names the origin in values too, as BIND reads it.
                    value.push_str(&origin);
                } else {
                    value.push_str(&token.text);
                }
            }
            value
        };
        if normalised_origin != origin {
            normalised.push_str(&format!("$ORIGIN {origin}\n"));
            normalised_lines.push(line);
            normalised_origin.clone_from(&origin);
        }
        normalised.push_str(&format!("{owner} 0 IN {rtype} {value}\n"));
        normalised_lines.push(line);
        pending.push((line, ttl, Pending::ByCrate));
    }
    let root = format!("{}.", domain.as_str().trim_end_matches('.'));
    let mut scanned = scan(&normalised, &root)
        .map_err(|(normalised_line, _, message)| {
            let line = normalised_lines
                .get(normalised_line.saturating_sub(1))
                .copied()
                .unwrap_or(1);
            at(line, None, message)
        })?
        .into_iter();
    let mut ttl: Option<(u32, usize)> = None;
    let mut lines = Vec::new();
    for (line, record_ttl, pending) in pending {
        let mut entry = match pending {
            Pending::Read(entry) => entry,
            Pending::ByCrate => {
                let record = scanned
                    .next()
                    .ok_or_else(|| at(line, None, "the record could not be read".to_owned()))?;
                match entry_of(&record)
                    .map_err(|(field, message)| at(line, Some(&field), message))?
                {
                    Some(entry) => entry,
                    None => continue,
                }
            }
        };
        entry.name = file_name(
            &format!("{}.", entry.name),
            domain,
            file,
            Some(line),
            "name",
        )?;
        if let Err(reason) = content_rule(&entry) {
            zone.unsupported.push(UnsupportedRecord::new(
                entry.name.clone(),
                entry.record_type.as_wire(),
                Some(line),
                reason,
            ));
            continue;
        }
        file_check(&entry, file, Some(line), "")?;
        match (ttl, record_ttl) {
            (None, Some(record_ttl)) => ttl = Some((record_ttl, line)),
            (Some((first, first_line)), Some(record_ttl)) if first != record_ttl => {
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
            _ => {}
        }
        lines.push(line);
        zone.records.push(entry);
    }
    if let Some((first, second)) = cname_conflict(&zone.records) {
        return Err(FileError::new(
            file,
            Some(lines[second]),
            Some("type".to_owned()),
            format!(
                "`{}` (line {}) and `{}` (line {}) share a name, and one is a CNAME: a \
                 CNAME must be the only record of its name",
                zone.records[first].describe(domain),
                lines[first],
                zone.records[second].describe(domain),
                lines[second]
            ),
        ));
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
            let record = records.pop()?;
            record.display_zonefile(DisplayKind::Simple).to_string()
        }
    };
    // What the crate reads back must be the same record.
    let again = scan(&line, origin).ok()?.into_iter().next()?;
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

#[cfg(test)]
mod tests {
    use super::*;

    fn domain() -> DomainName {
        "example.com".parse().unwrap()
    }

    fn read_text(text: &str) -> Result<DnsZone, FileError> {
        read(text, Path::new("t.zone"), &domain())
    }

    fn values(zone: &DnsZone) -> Vec<String> {
        zone.records
            .iter()
            .map(|r| r.describe(&zone.domain))
            .collect()
    }

    #[test]
    fn ttls_read_with_units() {
        for (text, seconds) in [
            ("3600", 3600),
            ("1h", 3600),
            ("1H", 3600),
            ("1d", 86_400),
            ("1W", 604_800),
            ("1h30m", 5400),
            ("2w1d1h1m1s", 1_299_661),
            ("0", 0),
        ] {
            assert_eq!(parse_ttl(text), Some(seconds), "{text}");
        }
        for text in [
            "",
            "h",
            "1x",
            "1h30",
            "-1",
            "A",
            "IN",
            "99999999999",
            "4000000000",
        ] {
            assert_eq!(parse_ttl(text), None, "{text}");
        }
    }

    #[test]
    fn soa_of_any_class_and_timers_is_read_and_left_out() {
        let zone = read_text(
            "@ SOA ns hostmaster ( 1 8H 30M 1W 1D )\n  A 192.0.2.1\n\
             @ CH SOA ns hostmaster 1 2 3 4 5\n",
        )
        .unwrap();
        assert_eq!(values(&zone), ["@ A 192.0.2.1"]);
        assert_eq!(zone.skipped.len(), 2);
        // No TTL anywhere: the domain's TTL is left alone.
        assert_eq!(zone.ttl, None);
    }

    #[test]
    fn the_ttl_is_the_one_the_records_carry() {
        let zone = read_text("$TTL 5m\nwww A 192.0.2.1\nmail 300 A 192.0.2.2\n").unwrap();
        assert_eq!(zone.ttl, Some(300));
        let error = read_text("$TTL 5m\nwww A 192.0.2.1\nmail 1h A 192.0.2.2\n").unwrap_err();
        assert_eq!(error.line, Some(3), "{error}");
        assert!(
            error
                .message
                .contains("3600 differs from the TTL 300 of line 2"),
            "{error}"
        );
    }

    #[test]
    fn origins_switch_and_blank_owners_repeat_the_name() {
        let zone = read_text(
            "$ORIGIN sub\nhost A 192.0.2.1\n     AAAA 2001:db8::1\n\
             $ORIGIN example.com.\n@ MX 10 @\n  CNAME-less TXT x\n",
        );
        // `CNAME-less` is not a type: the error names the line.
        let error = zone.unwrap_err();
        assert_eq!(error.line, Some(6), "{error}");
        let zone = read_text(
            "$ORIGIN sub\nhost A 192.0.2.1\n     AAAA 2001:db8::1\n\
             $ORIGIN example.com.\n@ MX 10 @\n",
        )
        .unwrap();
        assert_eq!(
            values(&zone),
            [
                "host.sub A 192.0.2.1",
                "host.sub AAAA 2001:db8::1",
                "@ MX 10 example.com"
            ]
        );
    }

    #[test]
    fn txt_strings_join_with_escapes_and_utf8() {
        let long = "x".repeat(300);
        let zone = read_text(&format!(
            "a TXT \"{long}\"\nb TXT ( \"one\" \"two\" )\nc TXT \"caf\\195\\169 \\\"q\\\" \\;\"\n\
             d TXT \"Ünïcödé\"\ne SPF \"v=spf1 -all\"\n"
        ))
        .unwrap();
        let contents: Vec<&str> = zone.records.iter().map(|r| r.content.as_str()).collect();
        assert_eq!(
            contents,
            [
                long.as_str(),
                "onetwo",
                "café \"q\" ;",
                "Ünïcödé",
                "v=spf1 -all"
            ]
        );
        assert!(zone.warnings.is_empty());
        let zone = read_text("a TXT v=spf1 mx -all\n").unwrap();
        assert_eq!(zone.records[0].content, "v=spf1mx-all");
        assert!(
            zone.warnings[0].starts_with("line 1: unquoted TXT"),
            "{:?}",
            zone.warnings
        );
        let error = read_text("a TXT \"\\255\\254\"\n").unwrap_err();
        assert!(error.message.contains("not UTF-8"), "{error}");
    }

    #[test]
    fn generic_data_is_decoded_or_refused() {
        let zone = read_text(
            "@ TYPE257 \\# 22 000569737375656c657473656e63727970742e6f7267\n\
             a TYPE1 \\# 4 c0000201\nt TXT \\# 7 02686903796f75\n",
        )
        .unwrap();
        assert_eq!(
            values(&zone),
            [
                "@ CAA 0 issue \"letsencrypt.org\"",
                "a A 192.0.2.1",
                "t TXT hiyou"
            ]
        );
        let error = read_text("a A \\# 3 c00002\n").unwrap_err();
        assert!(error.message.contains("generic data"), "{error}");
        let error = read_text("a A \\# 4 c00002\n").unwrap_err();
        assert!(
            error.message.contains("says 4 bytes but holds 3"),
            "{error}"
        );
        // A type the service does not hold is named, not decoded.
        let zone = read_text("x TYPE65226 \\# 3 414243\nr RP a. b.\n").unwrap();
        let named: Vec<String> = zone
            .unsupported
            .iter()
            .map(|u| u.describe(&domain()))
            .collect();
        assert_eq!(
            named,
            [
                "line 1: x TYPE65226: the service does not hold TYPE65226 records",
                "line 2: r RP: the service does not hold RP records"
            ]
        );
        assert!(zone.records.is_empty());
    }

    #[test]
    fn a_cname_beside_other_data_is_refused_naming_both() {
        let error =
            read_text("www A 192.0.2.1\nmail A 192.0.2.2\nwww CNAME example.com.\n").unwrap_err();
        assert_eq!(error.line, Some(3), "{error}");
        assert!(
            error
                .message
                .contains("`www A 192.0.2.1` (line 1) and `www CNAME example.com` (line 3)"),
            "{error}"
        );
        assert!(read_text("a CNAME b.example.com.\na CNAME c.example.com.\n").is_err());
    }

    #[test]
    fn structure_errors_name_their_line() {
        for (text, line, message) in [
            ("a TXT ( \"x\"\n\nb A 192.0.2.1\n", 1, "`(` is not closed"),
            ("a A 192.0.2.1 )\n", 1, "`)` without `(`"),
            ("\n a A 192.0.2.1\n", 2, "no record before it has one"),
            ("$INCLUDE other.zone\n", 1, "$INCLUDE"),
            ("a CH A 192.0.2.1\n", 1, "only class IN"),
            ("a TXT \"open\n", 1, "not closed"),
            ("a A 192.0.2.300\n", 1, ""),
        ] {
            let error = read_text(text).unwrap_err();
            assert_eq!(error.line, Some(line), "{text:?}: {error}");
            assert!(error.message.contains(message), "{text:?}: {error}");
        }
    }
}
