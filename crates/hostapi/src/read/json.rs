//! An answer body as a tree of JSON values that borrows its text from the body: parsed
//! once, with no copy of a string unless it holds escapes, then read field by field.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

/// A JSON value whose strings borrow from the body when they can.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Json<'a> {
    Null,
    Bool(bool),
    Number(Number),
    String(Cow<'a, str>),
    Array(Vec<Json<'a>>),
    /// Members in the order they came. Of a key repeated within one object the first
    /// member is kept and the later ones are dropped, noted in [`Repeated`] (the
    /// reader logs a warning).
    Object(Vec<(Cow<'a, str>, Json<'a>)>),
}

/// The keys an answer repeated within one of its objects: of each, the first member
/// was kept and the later ones dropped.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Repeated {
    /// The repeated keys, each once, in the order they were met (at most
    /// [`Repeated::MAX_KEYS`] of them).
    pub(crate) keys: Vec<String>,
    /// The members dropped in all.
    pub(crate) dropped: usize,
}

impl Repeated {
    /// The most keys named.
    const MAX_KEYS: usize = 8;

    /// Whether no key was repeated.
    pub(crate) fn is_empty(&self) -> bool {
        self.dropped == 0
    }

    fn note(&mut self, key: &str) {
        self.dropped += 1;
        if self.keys.len() < Self::MAX_KEYS && !self.keys.iter().any(|k| k == key) {
            self.keys.push(key.chars().take(40).collect());
        }
    }

    /// What the reader warns of.
    pub(crate) fn describe(&self) -> String {
        let keys: Vec<String> = self.keys.iter().map(|k| format!("`{k}`")).collect();
        format!(
            "the answer repeats a key within an object ({}; {} later member(s) in all): \
             the first value of each is read and the later ones are dropped",
            keys.join(", "),
            self.dropped
        )
    }
}

/// A JSON number as the parser read it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Number {
    Int(i64),
    UInt(u64),
    Float(f64),
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Int(n) => write!(f, "{n}"),
            Self::UInt(n) => write!(f, "{n}"),
            Self::Float(n) => write!(f, "{n}"),
        }
    }
}

/// Parses a whole body (nothing may follow the value); see [`parse_noting`].
#[cfg(test)]
pub(crate) fn parse(body: &[u8]) -> Result<Json<'_>, serde_json::Error> {
    parse_noting(body, &mut Repeated::default())
}

/// Parses a whole body (nothing may follow the value), noting the keys repeated within
/// an object in `repeated` (the first member of each is kept).
///
/// The body is checked as UTF-8 once and parsed as text: parsed as bytes, every string
/// would be checked on its own, which costs more than the whole check. A body that is
/// not UTF-8 is parsed as bytes, so that it fails with the parser's own message (which
/// says where).
///
/// A number too large for a float (`1e999`) fails the parser, which would cost the
/// whole answer: such a body is parsed again with each of those numbers as text
/// (`"1e999"`), which the field readers then refuse, costing that field only.
pub(crate) fn parse_noting<'a>(
    body: &'a [u8],
    repeated: &mut Repeated,
) -> Result<Json<'a>, serde_json::Error> {
    match parse_with(body, Mode::Plain, repeated) {
        Err(error) if out_of_range(&error) => {
            *repeated = Repeated::default();
            let patched = quote_overflowing_numbers(body);
            parse_with(&patched, Mode::Plain, repeated).map(Json::into_owned)
        }
        other => other,
    }
}

/// Parses a whole body that should be an object holding a list under `key`
/// (`{virtualServers:[…]}`), handing each item of that list to `each` (with its index)
/// as soon as the item is parsed, and returns the rest of the body with that member
/// left out and `true`.
///
/// A long list is read while each record is still in the cache, and each record's tree
/// is freed before the next is parsed: parsed whole, the tree of a 10,000-record answer
/// is three times the size of the body and is read back from memory. When the body is
/// not an object, or the member is not an array (`null`, `""`, an object keyed `"0"`,
/// `"1"`…), nothing is handed over: the whole body comes back as a tree, with `false`,
/// for the usual readers. Of a repeated key, the first is kept (the list, when it is
/// the list) and the others are dropped and noted in `repeated`.
///
/// A number too large for a float is read as in [`parse_noting`]: the body is parsed
/// again, and the items handed over before the number was met are not handed over
/// twice.
pub(crate) fn parse_streaming<'a>(
    body: &'a [u8],
    key: &str,
    each: &mut dyn FnMut(usize, Json<'a>),
    repeated: &mut Repeated,
) -> Result<(Json<'a>, bool), serde_json::Error> {
    let mut handed = 0;
    let first = {
        let mut counting = |index: usize, item: Json<'a>| {
            handed = index + 1;
            each(index, item);
        };
        let mut records = StreamedList {
            key,
            each: &mut counting,
            streamed: false,
        };
        parse_with(body, Mode::Body(&mut records), repeated).map(|json| (json, records.streamed))
    };
    match first {
        Err(error) if out_of_range(&error) => {
            *repeated = Repeated::default();
            let patched = quote_overflowing_numbers(body);
            let mut rest = |index: usize, item: Json<'_>| {
                if index >= handed {
                    each(index, item.into_owned());
                }
            };
            let mut records = StreamedList {
                key,
                each: &mut rest,
                streamed: false,
            };
            let json = parse_with(&patched, Mode::Body(&mut records), repeated)?.into_owned();
            Ok((json, records.streamed))
        }
        other => other,
    }
}

/// Whether the parser failed on a number too large for a float.
fn out_of_range(error: &serde_json::Error) -> bool {
    error.classify() == serde_json::error::Category::Syntax
        && error.to_string().starts_with("number out of range")
}

/// The body with every number too large for a float (`1e999`, `-4e400`, an integer of
/// 400 digits) written as a string, so that it can be parsed.
fn quote_overflowing_numbers(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len() + 16);
    let mut at = 0;
    let mut in_string = false;
    while at < body.len() {
        let byte = body[at];
        if in_string {
            out.push(byte);
            match byte {
                b'\\' => {
                    if let Some(&escaped) = body.get(at + 1) {
                        out.push(escaped);
                    }
                    at += 2;
                    continue;
                }
                b'"' => in_string = false,
                _ => {}
            }
            at += 1;
            continue;
        }
        match byte {
            b'"' => {
                in_string = true;
                out.push(byte);
                at += 1;
            }
            b'-' | b'0'..=b'9' => {
                let start = at;
                while at < body.len()
                    && matches!(body[at], b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
                {
                    at += 1;
                }
                let token = &body[start..at];
                let infinite = std::str::from_utf8(token)
                    .ok()
                    .and_then(|t| t.parse::<f64>().ok())
                    .is_some_and(f64::is_infinite);
                if infinite {
                    out.push(b'"');
                    out.extend_from_slice(token);
                    out.push(b'"');
                } else {
                    out.extend_from_slice(token);
                }
            }
            _ => {
                out.push(byte);
                at += 1;
            }
        }
    }
    out
}

fn parse_with<'a>(
    body: &'a [u8],
    mode: Mode<'_, '_, '_, 'a>,
    repeated: &mut Repeated,
) -> Result<Json<'a>, serde_json::Error> {
    match std::str::from_utf8(body) {
        Ok(text) => whole(serde_json::Deserializer::from_str(text), mode, repeated),
        Err(_) => whole(serde_json::Deserializer::from_slice(body), mode, repeated),
    }
}

fn whole<'a, R: serde_json::de::Read<'a>>(
    mut deserializer: serde_json::Deserializer<R>,
    mode: Mode<'_, '_, '_, 'a>,
    repeated: &mut Repeated,
) -> Result<Json<'a>, serde_json::Error> {
    let mut scratch = Scratch {
        // Room for the usual nesting of records, so that it is allocated once.
        members: Vec::with_capacity(64),
        items: Vec::with_capacity(16),
        repeated: std::mem::take(repeated),
    };
    let value = deserializer.deserialize_any(JsonVisitor {
        scratch: &mut scratch,
        mode,
    });
    *repeated = std::mem::take(&mut scratch.repeated);
    let value = value?;
    deserializer.end()?;
    Ok(value)
}

/// The list [`parse_streaming`] hands over item by item.
struct StreamedList<'k, 'e, 'a> {
    key: &'k str,
    each: &'e mut dyn FnMut(usize, Json<'a>),
    /// Whether the list was found (and handed over).
    streamed: bool,
}

impl<'a> Json<'a> {
    /// What kind of value this is, for messages.
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Self::Null => "null",
            Self::Bool(_) => "a boolean",
            Self::Number(_) => "a number",
            Self::String(_) => "text",
            Self::Array(_) => "an array",
            Self::Object(_) => "an object",
        }
    }

    /// Whether this is `null` or text that is empty or blank: the wire's ways of
    /// saying "no value".
    pub(crate) fn is_nothing(&self) -> bool {
        match self {
            Self::Null => true,
            Self::String(text) => super::text::trim(text).is_empty(),
            _ => false,
        }
    }

    /// The value with every string owned (for a body parsed from a copy).
    pub(crate) fn into_owned(self) -> Json<'static> {
        match self {
            Self::Null => Json::Null,
            Self::Bool(b) => Json::Bool(b),
            Self::Number(n) => Json::Number(n),
            Self::String(s) => Json::String(Cow::Owned(s.into_owned())),
            Self::Array(items) => Json::Array(items.into_iter().map(Self::into_owned).collect()),
            Self::Object(members) => Json::Object(
                members
                    .into_iter()
                    .map(|(k, v)| (Cow::Owned(k.into_owned()), v.into_owned()))
                    .collect(),
            ),
        }
    }

    /// The value as an owned `serde_json::Value` (what `extra` maps hold).
    pub(crate) fn into_value(self) -> serde_json::Value {
        use serde_json::Value;
        match self {
            Self::Null => Value::Null,
            Self::Bool(b) => Value::Bool(b),
            Self::Number(Number::Int(n)) => Value::from(n),
            Self::Number(Number::UInt(n)) => Value::from(n),
            Self::Number(Number::Float(n)) => {
                serde_json::Number::from_f64(n).map_or(Value::Null, Value::Number)
            }
            Self::String(s) => Value::String(s.into_owned()),
            Self::Array(items) => Value::Array(items.into_iter().map(Self::into_value).collect()),
            Self::Object(members) => Value::Object(
                members
                    .into_iter()
                    .map(|(k, v)| (k.into_owned(), v.into_value()))
                    .collect(),
            ),
        }
    }

    /// A short rendering for a message: scalars as written, containers by kind.
    pub(crate) fn shown(&self) -> String {
        match self {
            Self::Null => "null".to_owned(),
            Self::Bool(b) => b.to_string(),
            Self::Number(n) => n.to_string(),
            Self::String(s) => {
                let cut: String = s.chars().take(60).collect();
                if cut.len() < s.len() {
                    format!("\"{cut}…\"")
                } else {
                    format!("\"{cut}\"")
                }
            }
            other => other.kind().to_owned(),
        }
    }
}

/// Where the members of the objects (and the items of the arrays) being parsed wait
/// until their container is complete: each container's values are pushed on top, then
/// moved into a vector of exactly their number. Grown member by member, every object's
/// vector would be reallocated two or three times (4, 8, 16 members…).
struct Scratch<'a> {
    members: Vec<(Cow<'a, str>, Json<'a>)>,
    items: Vec<Json<'a>>,
    /// The keys repeated so far.
    repeated: Repeated,
}

/// A key's bit in an object's 128-bit filter of the keys it has so far: only a key
/// whose bit is already set is compared with the others, so telling a repeated key
/// costs a few operations per member rather than a comparison with every other.
fn key_bit(key: &str) -> u128 {
    let bytes = key.as_bytes();
    let byte = |at: usize| usize::from(bytes.get(at).copied().unwrap_or(0));
    let hash = bytes
        .len()
        .wrapping_mul(31)
        .wrapping_add(byte(0).wrapping_mul(7))
        .wrapping_add(byte(1).wrapping_mul(13))
        .wrapping_add(byte(bytes.len().saturating_sub(1)).wrapping_mul(17));
    1u128 << (hash % 128)
}

/// Parses one value, its containers' contents going through the shared [`Scratch`].
struct JsonVisitor<'s, 'r, 'k, 'e, 'a> {
    scratch: &'s mut Scratch<'a>,
    mode: Mode<'r, 'k, 'e, 'a>,
}

/// What the value being parsed is to [`parse_streaming`].
enum Mode<'r, 'k, 'e, 'a> {
    /// Any value.
    Plain,
    /// The body, whose member `key` may be the list to hand over.
    Body(&'r mut StreamedList<'k, 'e, 'a>),
    /// The value of that member: handed over item by item if it is an array.
    List(&'r mut StreamedList<'k, 'e, 'a>),
}

impl<'s, 'a> JsonVisitor<'s, '_, '_, '_, 'a> {
    fn plain(scratch: &'s mut Scratch<'a>) -> Self {
        Self {
            scratch,
            mode: Mode::Plain,
        }
    }
}

impl<'de> DeserializeSeed<'de> for JsonVisitor<'_, '_, '_, '_, 'de> {
    type Value = Json<'de>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Json<'de>, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for JsonVisitor<'_, '_, '_, '_, 'de> {
    type Value = Json<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E>(self) -> Result<Json<'de>, E> {
        Ok(Json::Null)
    }

    fn visit_none<E>(self) -> Result<Json<'de>, E> {
        Ok(Json::Null)
    }

    fn visit_bool<E>(self, v: bool) -> Result<Json<'de>, E> {
        Ok(Json::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Json<'de>, E> {
        Ok(Json::Number(Number::Int(v)))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Json<'de>, E> {
        Ok(Json::Number(Number::UInt(v)))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Json<'de>, E> {
        Ok(Json::Number(Number::Float(v)))
    }

    fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Json<'de>, E> {
        Ok(Json::String(Cow::Borrowed(v)))
    }

    fn visit_str<E>(self, v: &str) -> Result<Json<'de>, E> {
        Ok(Json::String(Cow::Owned(v.to_owned())))
    }

    fn visit_string<E>(self, v: String) -> Result<Json<'de>, E> {
        Ok(Json::String(Cow::Owned(v)))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json<'de>, A::Error> {
        let scratch = self.scratch;
        if let Mode::List(records) = self.mode {
            let mut index = 0;
            while let Some(item) = seq.next_element_seed(JsonVisitor::plain(&mut *scratch))? {
                (records.each)(index, item);
                index += 1;
            }
            records.streamed = true;
            // Left out of the body by `visit_map`.
            return Ok(Json::Null);
        }
        let start = scratch.items.len();
        while let Some(item) = seq.next_element_seed(JsonVisitor::plain(&mut *scratch))? {
            scratch.items.push(item);
        }
        Ok(Json::Array(scratch.items.drain(start..).collect()))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json<'de>, A::Error> {
        let scratch = self.scratch;
        let mut records = match self.mode {
            Mode::Body(records) => Some(records),
            Mode::Plain | Mode::List(_) => None,
        };
        let start = scratch.members.len();
        let mut seen = 0u128;
        while let Some(key) = map.next_key::<Key<'de>>()? {
            let bit = key_bit(&key.0);
            if seen & bit != 0
                && (records
                    .as_deref()
                    .is_some_and(|list| list.streamed && key.0 == list.key)
                    || scratch.members[start..].iter().any(|(k, _)| *k == key.0))
            {
                // The first member of a key is kept: this one is skipped unread.
                map.next_value::<de::IgnoredAny>()?;
                scratch.repeated.note(&key.0);
                continue;
            }
            seen |= bit;
            let value = match records.as_deref_mut() {
                Some(list) if !list.streamed && key.0 == list.key => {
                    let value = map.next_value_seed(JsonVisitor {
                        scratch: &mut *scratch,
                        mode: Mode::List(list),
                    })?;
                    if list.streamed {
                        continue;
                    }
                    value
                }
                _ => map.next_value_seed(JsonVisitor::plain(&mut *scratch))?,
            };
            scratch.members.push((key.0, value));
        }
        Ok(Json::Object(scratch.members.drain(start..).collect()))
    }
}

/// A member name, borrowed when it holds no escapes.
struct Key<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a member name")
            }

            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v.to_owned())))
            }
        }
        deserializer.deserialize_str(KeyVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_borrow_from_the_body_unless_escaped() {
        let body = br#"{"a":"plain","b":"with \"escape\"","c":[1,-2,1.5,true,null]}"#;
        let Json::Object(members) = parse(body).unwrap() else {
            panic!("an object")
        };
        assert!(matches!(
            &members[0].1,
            Json::String(Cow::Borrowed("plain"))
        ));
        assert!(matches!(&members[1].1, Json::String(Cow::Owned(s)) if s == "with \"escape\""));
        assert_eq!(
            members[2].1,
            Json::Array(vec![
                Json::Number(Number::UInt(1)),
                Json::Number(Number::Int(-2)),
                Json::Number(Number::Float(1.5)),
                Json::Bool(true),
                Json::Null
            ])
        );
    }

    #[test]
    fn a_body_that_is_not_utf8_fails_as_the_parser_says() {
        let body = b"{\"a\":\"\xff\"}";
        let error = parse(body).unwrap_err();
        let by_bytes = serde_json::from_slice::<serde_json::Value>(body).unwrap_err();
        assert_eq!(error.to_string(), by_bytes.to_string());
        assert!(error.to_string().contains("column"), "{error}");
    }

    #[test]
    fn a_body_is_one_value() {
        assert!(parse(b"{} x").is_err());
        assert!(parse(b"{").is_err());
        assert!(parse(b"").is_err());
    }

    /// The items `parse_streaming` handed over, and what it returned.
    fn streamed(body: &str) -> (Vec<(usize, serde_json::Value)>, serde_json::Value, bool) {
        let mut items = Vec::new();
        let (rest, streamed) = parse_streaming(
            body.as_bytes(),
            "list",
            &mut |index, item| items.push((index, item.into_value())),
            &mut Repeated::default(),
        )
        .unwrap();
        (items, rest.into_value(), streamed)
    }

    #[test]
    fn a_list_member_is_handed_over_item_by_item_and_left_out() {
        let (items, rest, streamed) =
            streamed(r#"{"a":1,"list":[{"id":1},"two",[3]],"z":{"list":[9]}}"#);
        assert!(streamed);
        assert_eq!(
            items,
            [
                (0, serde_json::json!({"id":1})),
                (1, serde_json::json!("two")),
                (2, serde_json::json!([3]))
            ]
        );
        // A member of the same name deeper down is not the list.
        assert_eq!(rest, serde_json::json!({"a":1,"z":{"list":[9]}}));
    }

    #[test]
    fn of_a_repeated_list_member_the_first_is_handed_over() {
        let (items, rest, handed_over) = streamed(r#"{"list":[1],"list":[2]}"#);
        assert!(handed_over);
        assert_eq!(items, [(0, serde_json::json!(1))]);
        assert_eq!(rest, serde_json::json!({}));
        // The first is kept even when it is not a list.
        let (items, rest, handed_over) = streamed(r#"{"list":null,"list":[2]}"#);
        assert!(!handed_over);
        assert!(items.is_empty());
        assert_eq!(rest, serde_json::json!({"list":null}));
    }

    #[test]
    fn a_repeated_key_keeps_its_first_member_and_is_noted() {
        let mut repeated = Repeated::default();
        let json = parse_noting(
            br#"{"id":1,"name":"first","name":"second","x":{"k":1,"k":{"deep":2}},"name":3}"#,
            &mut repeated,
        )
        .unwrap();
        assert_eq!(
            json.into_value(),
            serde_json::json!({"id":1,"name":"first","x":{"k":1}})
        );
        assert_eq!(repeated.keys, ["name", "k"]);
        assert_eq!(repeated.dropped, 3);
        assert!(
            repeated.describe().contains("`name`, `k`"),
            "{}",
            repeated.describe()
        );
        // Keys alike in length and ends are told apart.
        let mut repeated = Repeated::default();
        let many: String = (0..300).map(|i| format!("\"k{i:03}\":{i},")).collect();
        let body = format!("{{{many}\"k000\":0}}");
        let json = parse_noting(body.as_bytes(), &mut repeated).unwrap();
        assert_eq!(repeated.keys, ["k000"]);
        let Json::Object(members) = json else {
            panic!("an object")
        };
        assert_eq!(members.len(), 300);
        // Repeated keys in separate objects are not repeated.
        let mut repeated = Repeated::default();
        parse_noting(br#"[{"a":1},{"a":2}]"#, &mut repeated).unwrap();
        assert!(repeated.is_empty());
    }

    #[test]
    fn a_number_too_large_for_a_float_is_read_as_text() {
        let body = br#"{"a":[{"id":1,"n":1e999},{"id":2,"n":-4E+400,"s":"1e999 \" 1e999"}],"m":5}"#;
        assert!(serde_json::from_slice::<serde_json::Value>(body).is_err());
        let value = parse(body).unwrap().into_value();
        assert_eq!(
            value,
            serde_json::json!({"a":[{"id":1,"n":"1e999"},{"id":2,"n":"-4E+400","s":"1e999 \" 1e999"}],"m":5})
        );
        let big = format!("[{}, 1.5, 2]", "9".repeat(400));
        assert_eq!(
            parse(big.as_bytes()).unwrap().into_value(),
            serde_json::json!(["9".repeat(400), 1.5, 2])
        );
        // Items handed over before the number are not handed over again.
        let body = br#"{"list":[{"id":1},{"id":2,"n":1e999},{"id":3}],"z":1e999}"#;
        let mut items = Vec::new();
        let (rest, streamed) = parse_streaming(
            body,
            "list",
            &mut |index, item| items.push((index, item.into_value())),
            &mut Repeated::default(),
        )
        .unwrap();
        assert!(streamed);
        assert_eq!(
            items,
            [
                (0, serde_json::json!({"id":1})),
                (1, serde_json::json!({"id":2,"n":"1e999"})),
                (2, serde_json::json!({"id":3}))
            ]
        );
        assert_eq!(rest.into_value(), serde_json::json!({"z":"1e999"}));
        // Other errors stay errors.
        assert!(parse(b"[1e999,").is_err());
    }

    #[test]
    fn any_other_shape_comes_back_whole() {
        for body in [
            r#"{"list":null}"#,
            r#"{"list":""}"#,
            r#"{"list":{"0":"a","1":"b"}}"#,
            r#"{"other":[1]}"#,
            r#"[{"list":[1]}]"#,
            r#""list""#,
        ] {
            let (items, rest, streamed) = streamed(body);
            assert!(!streamed, "{body}");
            assert!(items.is_empty(), "{body}");
            let whole: serde_json::Value = serde_json::from_str(body).unwrap();
            assert_eq!(rest, whole, "{body}");
        }
    }

    #[test]
    fn a_truncated_list_fails_like_any_body() {
        let mut handed = 0;
        let error = parse_streaming(
            br#"{"list":[{"id":1},{"id":"#,
            "list",
            &mut |_, _| handed += 1,
            &mut Repeated::default(),
        )
        .unwrap_err();
        assert!(error.is_eof(), "{error}");
        assert_eq!(handed, 1, "the items before the cut were handed over");
        assert!(
            parse_streaming(
                br#"{"list":[1]} x"#,
                "list",
                &mut |_, _| {},
                &mut Repeated::default()
            )
            .is_err()
        );
    }

    #[test]
    fn converts_to_a_serde_value_in_order() {
        let value = parse(br#"{"z":1,"a":[{"k":"v"}]}"#).unwrap().into_value();
        assert_eq!(value, serde_json::json!({"z":1,"a":[{"k":"v"}]}));
    }
}
