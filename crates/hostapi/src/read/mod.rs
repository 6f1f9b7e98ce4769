//! Reading answers: the one wire policy of the crate.
//!
//! The documents say what the service means, not every way it writes it: they show a
//! float sent as a decimal string, ids as strings in one view and integers in another,
//! booleans as "Yes"/"No" and as 0/1. Every field of every answer of the three
//! interfaces is read by the same rules, in one place ([`Fields`]'s getters):
//!
//! - a number may come as a JSON number or as numeric text; an id as either;
//! - a boolean as `true`/`false`, `"true"`/`"false"`, `1`/`0`, `"1"`/`"0"`, `"Yes"`/`"No"`
//!   (any letter case);
//! - an optional value as `null`, `""` or absent; an object as `{}` or `[]`; a list as an
//!   array or an object keyed `"0"`, `"1"`, …;
//! - values of open sets in any letter case; an unknown value is kept;
//! - nothing is guessed: a number with a comma and no decimal point is ambiguous, and a
//!   unit is bits or bytes by its letter case (`Gb` ≠ `GB`).
//!
//! A field that still cannot be read costs that field, not the record or the call: it
//! reads as `None` (or unknown), its raw value stays in the `extra` map of the object it
//! was in, and a warning naming its JSON path is logged (`tracing`, target `hostapi`;
//! the CLI shows it with `-v`). Only a record's identity (its id) is required: a record
//! without one fails alone, and a list still returns the other records. A client built
//! with [`ClientBuilder::strict`](crate::ClientBuilder::strict) turns every warning back
//! into an error, for tests.
//!
//! What the client sends stays exact and documented.

pub(crate) mod fields;
pub(crate) mod json;
pub(crate) mod records;
pub(crate) mod shapes;
pub(crate) mod text;

pub(crate) use fields::{Cursor, FieldError, Fields};
pub(crate) use json::Json;

use std::cell::OnceCell;

use crate::error::{BoxError, CallInfo, DecodeError, excerpt};
use crate::scrub::Scrubber;
use crate::{Error, Listing};

/// Where a list answer's records are: their JSON path (`bareMetals`), the records, and
/// the answer's other members (kept in the [`Listing`]'s `extra`).
pub(crate) struct Records<'a> {
    pub(crate) path: String,
    pub(crate) items: Vec<Json<'a>>,
    pub(crate) extra: crate::Extra,
}

/// How answers are read: leniently (warnings logged) or strictly (a warning fails the
/// record it is in).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct ReadMode {
    pub(crate) strict: bool,
}

/// The beginning of a body, scrubbed, for an error.
pub(crate) fn body_excerpt(body: &[u8], scrub: &Scrubber) -> String {
    excerpt(&scrub.scrub(&String::from_utf8_lossy(body)))
}

/// A body that is not JSON at all: the call's error.
fn unparsable(call: &CallInfo, body: &[u8], error: serde_json::Error, scrub: &Scrubber) -> Error {
    let text = String::from_utf8_lossy(body);
    let message = if text.trim().is_empty() {
        "the answer is empty where JSON was expected".to_owned()
    } else if text.trim_start().starts_with('<') {
        "the answer is an HTML page, not JSON (from a proxy?)".to_owned()
    } else if error.is_eof() {
        format!("the answer ends early (truncated JSON): {error}")
    } else {
        format!("the answer is not valid JSON: {error}")
    };
    decode_error(
        Some(call),
        String::new(),
        scrub.scrub(&message),
        body_excerpt(body, scrub),
        Some(Box::new(error)),
    )
}

/// A decode error.
pub(crate) fn decode_error(
    call: Option<&CallInfo>,
    path: String,
    message: String,
    body_excerpt: String,
    source: Option<BoxError>,
) -> Error {
    Error::Decode(Box::new(DecodeError {
        call: call.cloned(),
        path,
        message,
        body_excerpt,
        source,
    }))
}

/// What reading an answer needs besides the body.
#[derive(Debug)]
pub(crate) struct Reading<'r> {
    pub(crate) call: &'r CallInfo,
    pub(crate) mode: ReadMode,
    pub(crate) scrub: &'r Scrubber,
    /// The body's excerpt, made once for all the errors of one answer (a long list's
    /// body is scrubbed once, not once per unreadable record).
    excerpt: OnceCell<String>,
}

impl<'r> Reading<'r> {
    pub(crate) fn new(call: &'r CallInfo, mode: ReadMode, scrub: &'r Scrubber) -> Self {
        Self {
            call,
            mode,
            scrub,
            excerpt: OnceCell::new(),
        }
    }

    fn error_at(&self, path: String, message: String, body: &[u8]) -> Error {
        let excerpt = self.excerpt.get_or_init(|| body_excerpt(body, self.scrub));
        decode_error(
            Some(self.call),
            path,
            self.scrub.scrub(&message),
            excerpt.clone(),
            None,
        )
    }
    /// Logs what `cursor` could not read, or (strictly) refuses it: the first warning
    /// becomes the error.
    fn finish(&self, cursor: &mut Cursor, body: &[u8]) -> Result<(), Error> {
        let warnings = cursor.take_warnings();
        if self.mode.strict {
            return match warnings.into_iter().next() {
                Some(first) => Err(self.warning_error(first, body)),
                None => Ok(()),
            };
        }
        for warning in &warnings {
            log_warning(self.call, warning, self.scrub);
        }
        Ok(())
    }

    fn warning_error(&self, warning: fields::Warning, body: &[u8]) -> Error {
        self.error_at(warning.path, warning.message, body)
    }

    fn field_error(&self, error: FieldError, body: &[u8]) -> Error {
        self.error_at(error.path, error.message, body)
    }

    fn parse<'b>(&self, body: &'b [u8]) -> Result<Json<'b>, Error> {
        let mut repeated = json::Repeated::default();
        let json = json::parse_noting(body, &mut repeated)
            .map_err(|e| unparsable(self.call, body, e, self.scrub))?;
        self.repeated(&repeated, body)?;
        Ok(json)
    }

    /// Logs the keys the answer repeated (the first member of each was read), or
    /// (strictly) refuses them.
    fn repeated(&self, repeated: &json::Repeated, body: &[u8]) -> Result<(), Error> {
        if repeated.is_empty() {
            return Ok(());
        }
        if self.mode.strict {
            return Err(self.error_at(String::new(), repeated.describe(), body));
        }
        tracing::warn!(
            operation = self.call.operation,
            "hostapi: {}",
            self.scrub.scrub(&repeated.describe())
        );
        Ok(())
    }

    /// Reads the body as one value with `read` (given the whole body).
    pub(crate) fn one<T>(
        &self,
        body: &[u8],
        read: impl for<'a> FnOnce(&mut Cursor, Json<'a>) -> Result<T, FieldError>,
    ) -> Result<T, Error> {
        let json = self.parse(body)?;
        let mut cursor = Cursor::default();
        let value = read(&mut cursor, json).map_err(|e| self.field_error(e, body))?;
        self.finish(&mut cursor, body)?;
        Ok(value)
    }

    /// Reads a list: `items` finds the records in the body (and names where they are,
    /// e.g. `bareMetals`), `read` reads each. A record `read` cannot read (or, strictly,
    /// reads with warnings) is an error in its place; the others are kept.
    pub(crate) fn list<T>(
        &self,
        body: &[u8],
        items: impl for<'a> FnOnce(&mut Cursor, Json<'a>) -> Result<Records<'a>, FieldError>,
        read: impl for<'a> FnMut(&mut Cursor, Json<'a>) -> Result<T, FieldError>,
    ) -> Result<Listing<T>, Error> {
        let json = self.parse(body)?;
        self.list_in(body, json, items, read)
    }

    /// [`Reading::list`] of the records under the member `key` of the answer object
    /// (`{virtualServers:[…]}`), read while the body is parsed: each record as soon as
    /// it is parsed (see [`json::parse_streaming`]). Any other shape is read as
    /// [`shapes::items`] reads it.
    pub(crate) fn list_at<T>(
        &self,
        body: &[u8],
        key: &'static str,
        mut read: impl for<'a> FnMut(&mut Cursor, Json<'a>) -> Result<T, FieldError>,
    ) -> Result<Listing<T>, Error> {
        let mut listing = Listing::default();
        let mut cursor = Cursor::at(key);
        let mut each = |index, record| {
            self.read_record(body, &mut cursor, index, record, &mut read, &mut listing)
        };
        let mut repeated = json::Repeated::default();
        let (json, streamed) = json::parse_streaming(body, key, &mut each, &mut repeated)
            .map_err(|e| unparsable(self.call, body, e, self.scrub))?;
        self.repeated(&repeated, body)?;
        if !streamed {
            return self.list_in(
                body,
                json,
                |cursor, json| shapes::items(cursor, json, key),
                read,
            );
        }
        // The body is an object (the list was one of its members): what else it holds
        // is the listing's `extra`.
        let mut cursor = Cursor::default();
        let extra = cursor
            .object(json, |f| Ok(f.unread()))
            .map_err(|e| self.field_error(e, body))?;
        self.finish(&mut cursor, body)?;
        listing.extend_extra(extra);
        Ok(listing)
    }

    /// The rest of [`Reading::list`], given the parsed body.
    fn list_in<'a, T>(
        &self,
        body: &[u8],
        json: Json<'a>,
        items: impl FnOnce(&mut Cursor, Json<'a>) -> Result<Records<'a>, FieldError>,
        mut read: impl FnMut(&mut Cursor, Json<'a>) -> Result<T, FieldError>,
    ) -> Result<Listing<T>, Error> {
        let mut cursor = Cursor::default();
        let Records {
            path,
            items: records,
            extra,
        } = items(&mut cursor, json).map_err(|e| self.field_error(e, body))?;
        self.finish(&mut cursor, body)?;
        let mut listing = Listing::with_capacity(records.len());
        listing.extend_extra(extra);
        // One context for all the records: each is read at `path[index]`, and its
        // warnings are taken by `finish`.
        let mut cursor = Cursor::at(path);
        for (index, record) in records.into_iter().enumerate() {
            self.read_record(body, &mut cursor, index, record, &mut read, &mut listing);
        }
        Ok(listing)
    }

    /// Reads the list's record `index` into `listing`: the value, or (when `read`
    /// cannot read it, or strictly with warnings) the error in its place.
    fn read_record<'a, T>(
        &self,
        body: &[u8],
        cursor: &mut Cursor,
        index: usize,
        record: Json<'a>,
        read: &mut impl FnMut(&mut Cursor, Json<'a>) -> Result<T, FieldError>,
        listing: &mut Listing<T>,
    ) {
        let outcome = match cursor.at_index(index, |cursor| read(cursor, record)) {
            Ok(value) => self.finish(cursor, body).map(|()| value),
            Err(error) => {
                // The record fails as a whole: what it warned about goes with it.
                cursor.take_warnings();
                Err(self.field_error(error, body))
            }
        };
        match outcome {
            Ok(value) => listing.push(value),
            Err(error) => {
                // The error's texts are scrubbed already.
                tracing::warn!(
                    operation = self.call.operation,
                    record = index,
                    error = %error,
                    "hostapi: a record of the list could not be read"
                );
                listing.push_unreadable(index, error);
            }
        }
    }
}

/// Logs a field the reader had to forgive; the message quotes the value, so it is
/// scrubbed first (a server could put a credential in any field).
fn log_warning(call: &CallInfo, warning: &fields::Warning, scrub: &Scrubber) {
    tracing::warn!(
        operation = call.operation,
        path = %warning.path,
        "hostapi: a field could not be read ({}); it is kept in `extra`",
        scrub.scrub(&warning.message)
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id_and_name(
        cursor: &mut Cursor,
        json: Json<'_>,
    ) -> Result<(String, Option<String>), FieldError> {
        cursor.object(json, |f| Ok((f.id("id")?, f.text("name"))))
    }

    /// What a listing holds, in a form to compare.
    fn shown<T: std::fmt::Debug>(listing: Result<Listing<T>, Error>) -> String {
        match listing {
            Ok(listing) => {
                let unreadable: Vec<(usize, String)> = listing
                    .unreadable()
                    .iter()
                    .map(|u| (u.index, u.error.to_string()))
                    .collect();
                format!("{:?} {unreadable:?} {:?}", listing.items(), listing.extra())
            }
            Err(error) => format!("error: {error}"),
        }
    }

    #[test]
    fn a_list_read_while_parsed_reads_as_a_list_read_after() {
        let call = CallInfo {
            operation: "listThings",
            method: "GET",
            path: "/things".to_owned(),
            attempts: 1,
            elapsed: std::time::Duration::ZERO,
        };
        let scrub = Scrubber::default();
        for strict in [false, true] {
            let reading = Reading::new(&call, ReadMode { strict }, &scrub);
            for body in [
                r#"{"things":[{"id":1,"name":"a"},{"name":"no id"},{"id":"3","name":7}]}"#,
                r#"{"_metadata":{"totalCount":2},"things":[{"id":1,"name":{"x":1}}],"more":true}"#,
                r#"{"things":{"1":{"id":2},"0":{"id":1}}}"#,
                r#"{"things":null,"other":1}"#,
                r#"{"things":""}"#,
                r#"{"things":[],"things":[{"id":9}]}"#,
                r#"{"things":[{"id":1,"name":"a","name":"b"},{"id":2,"n":1e999}],"x":1e999}"#,
                r#"{"other":[{"id":1}]}"#,
                r#"{"things":"junk"}"#,
                r#"[{"id":1}]"#,
                r#"{"things":[{"id":1}"#,
                "<html>",
            ] {
                let after = reading.list(
                    body.as_bytes(),
                    |cursor, json| shapes::items(cursor, json, "things"),
                    id_and_name,
                );
                let during = reading.list_at(body.as_bytes(), "things", id_and_name);
                assert_eq!(shown(during), shown(after), "{body} (strict: {strict})");
            }
        }
    }
}
