//! Reading one JSON object of an answer, field by field, by the wire policy (see the
//! module docs of [`crate::read`]).
//!
//! A [`Fields`] holds the members of one object. Each getter takes its member out and
//! reads it; what nobody took becomes the record's `extra` ([`Fields::unread`]). A value
//! the getter cannot read is put back (so it lands in `extra`, as sent) and a
//! [`Warning`] naming its path is recorded in the [`Cursor`]. Only a record's identity is
//! required: [`Fields::id`] fails with a [`FieldError`], which fails that record.

use std::borrow::Cow;

use rust_decimal::Decimal;

use super::json::{Json, Number};
use super::text::{self, Parsed};
use crate::Secret;
use crate::model::{Extra, WireId};

/// Where reading is in an answer (the JSON path of the object being read), and the
/// warnings of what it could not read there.
#[derive(Debug, Default)]
pub(crate) struct Cursor {
    /// The JSON path of the object being read (`bareMetals[3].bareMetal`).
    path: String,
    warnings: Vec<Warning>,
}

/// A value that could not be read: it became `None` (or unknown), and the raw value
/// stays in its object's `extra`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Warning {
    /// The JSON path of the value.
    pub(crate) path: String,
    /// What was expected and found.
    pub(crate) message: String,
}

/// A value a record cannot do without (its id) could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FieldError {
    /// The JSON path of the value.
    pub(crate) path: String,
    /// What was expected and found.
    pub(crate) message: String,
}

impl Cursor {
    /// A cursor at the JSON path `path` (empty for the body itself).
    pub(crate) fn at(path: impl Into<String>) -> Self {
        let mut path = path.into();
        // Room for the keys and indexes reading adds below it, so that the path is not
        // grown field by field.
        path.reserve(64);
        Self {
            path,
            warnings: Vec::new(),
        }
    }

    /// The warnings recorded so far, taken.
    pub(crate) fn take_warnings(&mut self) -> Vec<Warning> {
        std::mem::take(&mut self.warnings)
    }

    /// An error about the value at `key` (or the current object for an empty key).
    pub(crate) fn error(&self, key: &str, message: impl Into<String>) -> FieldError {
        FieldError {
            path: join(&self.path, key),
            message: message.into(),
        }
    }

    fn warn(&mut self, key: &str, message: String) {
        self.warnings.push(Warning {
            path: join(&self.path, key),
            message,
        });
    }

    /// Runs `read` with `segment` (`key` or `[index]`) added to the path.
    pub(crate) fn within<T>(&mut self, segment: &str, read: impl FnOnce(&mut Self) -> T) -> T {
        let mark = self.path.len();
        if !segment.starts_with('[') && !self.path.is_empty() {
            self.path.push('.');
        }
        self.path.push_str(segment);
        let value = read(self);
        self.path.truncate(mark);
        value
    }

    /// Runs `read` with `[index]` added to the path (written into the path by hand:
    /// `format!` would cost as much as reading a field, for every item of every list).
    pub(crate) fn at_index<T>(&mut self, index: usize, read: impl FnOnce(&mut Self) -> T) -> T {
        let mark = self.path.len();
        self.path.push('[');
        let digits = index.checked_ilog10().unwrap_or(0) + 1;
        for power in (0..digits).rev() {
            let digit = index / 10_usize.pow(power) % 10;
            self.path
                .push(char::from_digit(digit as u32, 10).unwrap_or('?'));
        }
        self.path.push(']');
        let value = read(self);
        self.path.truncate(mark);
        value
    }

    /// Reads the members of an object with `read`.
    pub(crate) fn members<'a, T>(
        &mut self,
        members: Vec<(Cow<'a, str>, Json<'a>)>,
        read: impl FnOnce(&mut Fields<'_, 'a>) -> T,
    ) -> T {
        read(&mut Fields {
            cursor: self,
            members,
        })
    }

    /// Reads `json` as an object with `read`; a value that is not an object fails.
    pub(crate) fn object<'a, T>(
        &mut self,
        json: Json<'a>,
        read: impl FnOnce(&mut Fields<'_, 'a>) -> Result<T, FieldError>,
    ) -> Result<T, FieldError> {
        match members(json) {
            Ok(members) => self.members(members, read),
            Err(json) => Err(self.error("", format!("expected an object, found {}", json.shown()))),
        }
    }
}

fn join(path: &str, key: &str) -> String {
    match (path.is_empty(), key.is_empty()) {
        (_, true) => path.to_owned(),
        (true, false) => key.to_owned(),
        (false, false) if key.starts_with('[') => format!("{path}{key}"),
        (false, false) => format!("{path}.{key}"),
    }
}

/// The members of an object; an empty array counts as an empty object (how some
/// servers encode `{}`). Anything else is handed back.
fn members(json: Json<'_>) -> Result<Vec<(Cow<'_, str>, Json<'_>)>, Json<'_>> {
    match json {
        Json::Object(members) => Ok(members),
        Json::Array(items) if items.is_empty() => Ok(Vec::new()),
        other => Err(other),
    }
}

/// The items of a list: an array, an object keyed `"0"`, `"1"`, … (how some servers
/// encode arrays) in index order, or a single scalar (a list of one). Anything else is
/// handed back.
fn items(json: Json<'_>) -> Result<Vec<Json<'_>>, Json<'_>> {
    match json {
        Json::Array(items) => Ok(items),
        scalar @ (Json::String(_) | Json::Number(_) | Json::Bool(_)) => Ok(vec![scalar]),
        Json::Object(members) => {
            let mut indexed = Vec::with_capacity(members.len());
            for (key, value) in &members {
                match key.parse::<usize>() {
                    Ok(index) => indexed.push(index),
                    Err(_) => return Err(Json::Object(members)),
                }
                let _ = value;
            }
            let mut numbered: Vec<(usize, Json<'_>)> = indexed
                .into_iter()
                .zip(members.into_iter().map(|(_, v)| v))
                .collect();
            numbered.sort_by_key(|(index, _)| *index);
            Ok(numbered.into_iter().map(|(_, v)| v).collect())
        }
        other => Err(other),
    }
}

/// The members of one object being read.
pub(crate) struct Fields<'c, 'a> {
    cursor: &'c mut Cursor,
    members: Vec<(Cow<'a, str>, Json<'a>)>,
}

impl<'c, 'a> Fields<'c, 'a> {
    /// The cursor (for reading nested values by hand).
    pub(crate) fn cursor(&mut self) -> &mut Cursor {
        self.cursor
    }

    /// Takes the member `key` out (the first, when the key is repeated).
    pub(crate) fn take(&mut self, key: &str) -> Option<Json<'a>> {
        let at = self.members.iter().position(|(k, _)| k == key)?;
        Some(self.members.remove(at).1)
    }

    /// Reads the member spelt `key` in any letter case as `key` (when `key` itself is
    /// absent).
    pub(crate) fn alias_any_case(&mut self, key: &'static str) {
        if !self.has(key)
            && let Some(other) = self.key_any_case(key)
        {
            self.alias(&other, key);
        }
    }

    /// The name of the first member whose key is `key` in any letter case.
    pub(crate) fn key_any_case(&self, key: &str) -> Option<String> {
        self.members
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(k, _)| k.to_string())
    }

    /// The names of every member whose key is `key` in any letter case, in order.
    pub(crate) fn keys_any_case(&self, key: &str) -> Vec<String> {
        self.members
            .iter()
            .filter(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(k, _)| k.to_string())
            .collect()
    }

    /// Puts a member (back) in.
    pub(crate) fn put(&mut self, key: &str, value: Json<'a>) {
        self.members.push((Cow::Owned(key.to_owned()), value));
    }

    /// Whether the member `key` is there.
    pub(crate) fn has(&self, key: &str) -> bool {
        self.members.iter().any(|(k, _)| k == key)
    }

    /// Reads the member `from` as `to` when `to` is absent: an alternate spelling
    /// (`Id` for `id`, `succes` for `success`).
    pub(crate) fn alias(&mut self, from: &str, to: &'static str) {
        if from == to {
            return;
        }
        if !self.has(to)
            && let Some(value) = self.take(from)
        {
            self.members.push((Cow::Borrowed(to), value));
        }
    }

    /// Puts a value that could not be read back (it lands in `extra`) and records why.
    pub(crate) fn unreadable(&mut self, key: &str, value: Json<'a>, message: String) {
        let message = if crate::scrub::is_secret_key(key) {
            // Never quote a secret's value in a message.
            message
                .split(", found")
                .next()
                .unwrap_or("unreadable")
                .to_owned()
        } else {
            message
        };
        self.cursor.warn(key, message);
        self.members.push((Cow::Owned(key.to_owned()), value));
    }

    /// Reads the member `key` with `read`: `None` when it is absent, `null` or blank
    /// text, or when `read` fails (then with a warning, the value left in `extra`).
    pub(crate) fn get<T>(
        &mut self,
        key: &str,
        read: impl FnOnce(&Json<'a>) -> Parsed<Option<T>>,
    ) -> Option<T> {
        let value = self.take(key)?;
        match read(&value) {
            Ok(read) => read,
            Err(message) => {
                self.unreadable(key, value, message);
                None
            }
        }
    }

    /// Text: a string (trimmed; blank is none), or a number or boolean written out.
    pub(crate) fn text(&mut self, key: &str) -> Option<String> {
        self.get(key, text_of)
    }

    /// A secret text (a password, a token), taken exactly as sent: never trimmed, as
    /// spaces may be part of it (blank text is none, as for [`Fields::text`]).
    pub(crate) fn secret(&mut self, key: &str) -> Option<Secret> {
        self.get(key, |json| match json {
            Json::String(s) => Ok((!s.trim().is_empty()).then(|| s.to_string())),
            other => text_of(other),
        })
        .map(Secret::new)
    }

    /// Text read by `parse` (a date, a size with its unit…). Text that parses as
    /// nothing (the all-zero date) is none.
    pub(crate) fn parsed<T>(
        &mut self,
        key: &str,
        parse: impl FnOnce(&str) -> Parsed<T>,
    ) -> Option<T> {
        self.get(key, |json| match text_in(json)? {
            None => Ok(None),
            Some(text) if text::is_zero_date(&text) => Ok(None),
            Some(text) => parse(&text).map(Some),
        })
    }

    /// An integer: a JSON number, or text holding one (`"10"`), in range of `T`.
    pub(crate) fn integer<T: TryFrom<i128>>(&mut self, key: &str) -> Option<T> {
        self.get(key, |json| {
            let Some(n) = integer_of(json)? else {
                return Ok(None);
            };
            T::try_from(n)
                .map(Some)
                .map_err(|_| format!("expected a number in range, found {n}"))
        })
    }

    /// An exact decimal: a JSON number, or text holding one (`"12.99"`).
    pub(crate) fn decimal(&mut self, key: &str) -> Option<Decimal> {
        self.get(key, decimal_of)
    }

    /// A boolean: `true`/`false`, `1`/`0`, or text `"true"`/`"false"`, `"1"`/`"0"`,
    /// `"yes"`/`"no"` in any letter case.
    pub(crate) fn boolean(&mut self, key: &str) -> Option<bool> {
        self.get(key, boolean_of)
    }

    /// A value of an open set, in any letter case (unknown values are kept).
    pub(crate) fn open_enum<E>(&mut self, key: &str, from_wire: fn(&str) -> E) -> Option<E> {
        self.get(key, |json| Ok(text_in(json)?.map(|text| from_wire(&text))))
    }

    /// The id of this record (text or an integer), checked by its rule (see
    /// [`crate::ID_RULES`]). Absent, unreadable or breaking its rule, the record fails:
    /// everything else about it could be wrong, and an id that breaks its rule must
    /// never reach a request path.
    pub(crate) fn id<T: WireId>(&mut self, key: &str) -> Result<T, FieldError> {
        let value = self.take(key);
        match value
            .as_ref()
            .map(|json| id_of(json).and_then(T::from_wire))
        {
            Some(Ok(id)) => Ok(id),
            Some(Err(message)) => Err(self.cursor.error(key, message)),
            None => Err(self.cursor.error(key, "the record's id is absent")),
        }
    }

    /// The identity of this record read from its text by `parse` (an IP address), the
    /// text borrowed. Absent or unreadable, the record fails, as for [`Fields::id`].
    pub(crate) fn identity<T>(
        &mut self,
        key: &str,
        parse: impl FnOnce(&str) -> Parsed<T>,
    ) -> Result<T, FieldError> {
        let read = match self.take(key) {
            Some(Json::String(s)) if !text::trim(&s).is_empty() => parse(text::trim(&s)),
            Some(other) => id_of(&other).and_then(|id| parse(&id)),
            None => Err("the record's id is absent".to_owned()),
        };
        read.map_err(|message| self.cursor.error(key, message))
    }

    /// The id of another resource this record names (a server of an IP…), checked by
    /// its rule: `None` when absent, unreadable or breaking its rule (with a warning;
    /// the value stays in `extra`).
    pub(crate) fn reference<T: WireId>(&mut self, key: &str) -> Option<T> {
        self.get(key, |json| match json {
            json if json.is_nothing() => Ok(None),
            json => id_of(json).and_then(T::from_wire).map(Some),
        })
    }

    /// A nested object read by `read`: `None` when absent, `null` or `""`; a value that
    /// is not an object is left in `extra` with a warning.
    pub(crate) fn object<T>(
        &mut self,
        key: &str,
        read: impl FnOnce(&mut Fields<'_, 'a>) -> T,
    ) -> Option<T> {
        let value = self.take(key)?;
        if value.is_nothing() {
            return None;
        }
        match members(value) {
            Ok(members) => Some(
                self.cursor
                    .within(key, |cursor| read(&mut Fields { cursor, members })),
            ),
            Err(value) => {
                let message = format!("expected an object, found {}", value.shown());
                self.unreadable(key, value, message);
                None
            }
        }
    }

    /// A list whose items are read by `read` (given each item and the cursor at its
    /// index): empty when absent, `null` or `""`. An item `read` cannot make sense of
    /// is left out of the list and kept in `extra` as `key[index]`, with a warning.
    pub(crate) fn list<T>(
        &mut self,
        key: &str,
        read: impl FnMut(&mut Cursor, Json<'a>) -> Result<T, FieldError>,
    ) -> Vec<T> {
        match self.take(key) {
            Some(value) => self.list_of(key, value, read),
            None => Vec::new(),
        }
    }

    /// [`Fields::list`] of a value already taken out of the member `key` (and perhaps
    /// reshaped: see `ips::read::assignments`).
    pub(crate) fn list_of<T>(
        &mut self,
        key: &str,
        value: Json<'a>,
        mut read: impl FnMut(&mut Cursor, Json<'a>) -> Result<T, FieldError>,
    ) -> Vec<T> {
        if value.is_nothing() {
            return Vec::new();
        }
        let list = match items(value) {
            Ok(list) => list,
            Err(value) => {
                let message = format!("expected a list, found {}", value.shown());
                self.unreadable(key, value, message);
                return Vec::new();
            }
        };
        let mut out = Vec::with_capacity(list.len());
        let mut failed = Vec::new();
        for (index, item) in list.into_iter().enumerate() {
            let kept = item.clone();
            let result = self.cursor.within(key, |cursor| {
                cursor.at_index(index, |cursor| read(cursor, item))
            });
            match result {
                Ok(value) => out.push(value),
                Err(error) => failed.push((format!("{key}[{index}]"), kept, error)),
            }
        }
        for (name, raw, error) in failed {
            self.cursor.warnings.push(Warning {
                path: error.path,
                message: error.message,
            });
            self.members.push((Cow::Owned(name), raw));
        }
        out
    }

    /// A list of objects, each read by `read`.
    pub(crate) fn objects<T>(
        &mut self,
        key: &str,
        mut read: impl FnMut(&mut Fields<'_, 'a>) -> Result<T, FieldError>,
    ) -> Vec<T> {
        self.list(key, |cursor, item| cursor.object(item, &mut read))
    }

    /// A list of texts (see [`Fields::text`]); blank items are left out.
    pub(crate) fn texts(&mut self, key: &str) -> Vec<String> {
        let values = self.list(key, |cursor, item| {
            text_of(&item).map_err(|m| cursor.error("", m))
        });
        values.into_iter().flatten().collect()
    }

    /// The members no getter took (so far), taken: the record's `extra`.
    pub(crate) fn unread(&mut self) -> Extra {
        if self.members.is_empty() {
            return Extra::new();
        }
        std::mem::take(&mut self.members)
            .into_iter()
            .map(|(k, v)| (k.into_owned(), v.into_value()))
            .collect()
    }
}

/// See [`Fields::text`].
pub(crate) fn text_of(json: &Json<'_>) -> Parsed<Option<String>> {
    text_in(json).map(|text| text.map(Cow::into_owned))
}

/// [`text_of`], borrowed from the value when it is a string (for readers that parse
/// the text rather than keep it).
fn text_in<'j>(json: &'j Json<'_>) -> Parsed<Option<Cow<'j, str>>> {
    match json {
        Json::Null => Ok(None),
        Json::String(s) => {
            let trimmed = text::trim(s);
            Ok((!trimmed.is_empty()).then_some(Cow::Borrowed(trimmed)))
        }
        Json::Number(n) => Ok(Some(Cow::Owned(n.to_string()))),
        Json::Bool(b) => Ok(Some(Cow::Owned(b.to_string()))),
        other => Err(format!("expected text, found {}", other.shown())),
    }
}

/// See [`Fields::integer`].
pub(crate) fn integer_of(json: &Json<'_>) -> Parsed<Option<i128>> {
    match json {
        json if json.is_nothing() => Ok(None),
        Json::Number(Number::Int(n)) => Ok(Some(i128::from(*n))),
        Json::Number(Number::UInt(n)) => Ok(Some(i128::from(*n))),
        Json::Number(Number::Float(f)) if f.fract() == 0.0 && f.abs() < 1e30 => {
            // Exact: an integral f64 below 2^100 converts without rounding.
            Ok(Some(*f as i128))
        }
        Json::String(s) => text::integer(s).map(Some),
        other => Err(format!("expected an integer, found {}", other.shown())),
    }
}

/// See [`Fields::decimal`].
pub(crate) fn decimal_of(json: &Json<'_>) -> Parsed<Option<Decimal>> {
    match json {
        json if json.is_nothing() => Ok(None),
        Json::Number(Number::Int(n)) => Ok(Some(Decimal::from(*n))),
        Json::Number(Number::UInt(n)) => Ok(Some(Decimal::from(*n))),
        Json::Number(Number::Float(f)) => text::decimal_from_f64(*f).map(Some),
        Json::String(s) => text::decimal(s).map(Some),
        other => Err(format!("expected a number, found {}", other.shown())),
    }
}

/// See [`Fields::boolean`].
pub(crate) fn boolean_of(json: &Json<'_>) -> Parsed<Option<bool>> {
    match json {
        json if json.is_nothing() => Ok(None),
        Json::Bool(b) => Ok(Some(*b)),
        Json::Number(n) => match n {
            Number::Int(0) | Number::UInt(0) => Ok(Some(false)),
            Number::Int(1) | Number::UInt(1) => Ok(Some(true)),
            Number::Float(f) if *f == 0.0 => Ok(Some(false)),
            Number::Float(f) if *f == 1.0 => Ok(Some(true)),
            other => Err(format!(
                "expected a boolean (true/false, 1/0), found {other}"
            )),
        },
        Json::String(s) => text::boolean(s).map(Some),
        other => Err(format!("expected a boolean, found {}", other.shown())),
    }
}

/// An id: text (trimmed, not blank) or an integer.
pub(crate) fn id_of(json: &Json<'_>) -> Parsed<String> {
    match json {
        Json::String(s) if !text::trim(s).is_empty() => Ok(text::trim(s).to_owned()),
        Json::Number(Number::Int(n)) => Ok(n.to_string()),
        Json::Number(Number::UInt(n)) => Ok(n.to_string()),
        Json::Number(Number::Float(f)) if f.fract() == 0.0 && f.abs() < 1e15 => {
            Ok(format!("{f:.0}"))
        }
        other => Err(format!(
            "expected an id (text or an integer), found {}",
            other.shown()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::super::json::parse;
    use super::*;

    #[derive(Debug, PartialEq)]
    struct Thing {
        id: String,
        name: Option<String>,
        count: Option<u32>,
        price: Option<Decimal>,
        on: Option<bool>,
        extra: Extra,
    }

    fn thing(f: &mut Fields<'_, '_>) -> Result<Thing, FieldError> {
        Ok(Thing {
            id: f.id("id")?,
            name: f.text("name"),
            count: f.integer("count"),
            price: f.decimal("price"),
            on: f.boolean("on"),
            extra: f.unread(),
        })
    }

    fn read(body: &str) -> (Result<Thing, FieldError>, Vec<Warning>) {
        let mut cursor = Cursor::at("things[0]");
        let result = cursor.object(parse(body.as_bytes()).unwrap(), thing);
        (result, cursor.take_warnings())
    }

    #[test]
    fn every_spelling_of_a_value_reads_the_same() {
        let plain = read(r#"{"id":7,"name":"a","count":3,"price":12.5,"on":true}"#);
        for variant in [
            r#"{"id":"7","name":"a","count":"3","price":"12.50","on":"true"}"#,
            r#"{"id":7.0,"name":" a ","count":3.0,"price":"12.5","on":1}"#,
            r#"{"id":"7","name":"a","count":" 3","price":12.50,"on":"Yes"}"#,
        ] {
            assert_eq!(read(variant), plain, "{variant}");
        }
        assert!(plain.1.is_empty());
    }

    #[test]
    fn nothing_is_none_however_it_is_written() {
        let absent = read(r#"{"id":7}"#);
        for variant in [
            r#"{"id":7,"name":null,"count":null,"price":null,"on":null}"#,
            r#"{"id":7,"name":"","count":"","price":" ","on":""}"#,
        ] {
            assert_eq!(read(variant), absent, "{variant}");
        }
    }

    #[test]
    fn an_unreadable_field_costs_that_field_and_stays_in_extra() {
        let (thing, warnings) =
            read(r#"{"id":7,"name":"a","count":"many","price":"1,250","on":"maybe"}"#);
        let thing = thing.unwrap();
        assert_eq!(thing.name.as_deref(), Some("a"));
        assert_eq!((thing.count, thing.price, thing.on), (None, None, None));
        assert_eq!(thing.extra["count"], "many");
        assert_eq!(thing.extra["price"], "1,250");
        let paths: Vec<&str> = warnings.iter().map(|w| w.path.as_str()).collect();
        assert_eq!(
            paths,
            ["things[0].count", "things[0].price", "things[0].on"]
        );
        assert!(
            warnings[1].message.contains("ambiguous"),
            "{:?}",
            warnings[1]
        );
    }

    #[test]
    fn only_the_id_fails_a_record() {
        let (result, _) = read(r#"{"name":"a"}"#);
        assert_eq!(result.unwrap_err().path, "things[0].id");
        let (result, _) = read(r#"{"id":{"x":1}}"#);
        assert!(result.unwrap_err().message.contains("expected an id"));
        let (result, _) = read(r#"{"id":""}"#);
        assert!(result.is_err());
    }

    #[test]
    fn unknown_fields_are_kept() {
        let (thing, _) = read(r#"{"id":1,"new":{"deep":[1,2]}}"#);
        assert_eq!(
            thing.unwrap().extra["new"],
            serde_json::json!({"deep":[1,2]})
        );
    }

    #[test]
    fn lists_and_objects_in_their_loose_shapes() {
        let body =
            br#"{"a":{"0":"x","1":"y"},"b":[],"c":"","d":[{"id":1},"junk",{"id":2}],"e":[]}"#;
        let mut cursor = Cursor::default();
        let (texts, empty, none, ids, object) = cursor
            .object(parse(body).unwrap(), |f| {
                let texts = f.texts("a");
                let empty = f.texts("b");
                let none = f.object("c", |f| f.text("x"));
                let ids = f.objects("d", |f| f.id::<String>("id"));
                let object = f.object("e", |f| f.text("x"));
                let rest = f.unread();
                assert_eq!(rest["d[1]"], "junk");
                Ok((texts, empty, none, ids, object))
            })
            .unwrap();
        assert_eq!(texts, ["x", "y"]);
        assert!(empty.is_empty());
        assert_eq!(none, None);
        assert_eq!(ids, ["1", "2"]);
        assert_eq!(
            object,
            Some(None),
            "an empty array stands for an empty object"
        );
        let warnings = cursor.take_warnings();
        assert_eq!(warnings.len(), 1);
        assert_eq!(warnings[0].path, "d[1]");
    }

    #[test]
    fn indexes_join_the_path() {
        let mut cursor = Cursor::at("things");
        for index in [0, 7, 10, 99, 1234] {
            let path = cursor.at_index(index, |cursor| cursor.error("id", "").path);
            assert_eq!(path, format!("things[{index}].id"));
        }
        assert_eq!(cursor.error("", "").path, "things");
    }

    #[test]
    fn secret_values_are_not_quoted_in_warnings() {
        let mut cursor = Cursor::default();
        let _ = cursor.object(
            parse(br#"{"rootPassword":{"x":"hunter2"}}"#).unwrap(),
            |f| Ok(f.text("rootPassword")),
        );
        let warnings = cursor.take_warnings();
        assert!(!warnings[0].message.contains("hunter2"), "{warnings:?}");
    }
}
