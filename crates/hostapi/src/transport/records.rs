//! List answers (`{"virtualServers": [record, …]}`) decoded record by record: each raw
//! record, of the generated type, is normalised as soon as it is decoded, while its
//! text is still in the processor's cache, instead of decoding the whole list into the
//! generated wrapper first and normalising it afterwards (see [`super::call::body`]).

use std::cell::RefCell;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, DeserializeOwned, DeserializeSeed, MapAccess, SeqAccess, Visitor};

use super::call::{decode_error, decode_seeded};
use crate::Error;
use crate::wire::FieldError;

/// A list answer: the key holding the records, and how one raw record `R` (a generated
/// type) becomes a `T`.
pub(crate) struct RecordList<R, T> {
    key: &'static str,
    record: fn(R) -> Result<T, FieldError>,
}

impl<R: DeserializeOwned, T> RecordList<R, T> {
    pub(crate) const fn new(key: &'static str, record: fn(R) -> Result<T, FieldError>) -> Self {
        Self { key, record }
    }

    /// Decodes and normalises the answer `body`. It must be an object holding the list
    /// under the key exactly once; its other members are skipped, as the facade's
    /// lists have no place for them. A record that does not decode, or does not
    /// normalise, is an [`Error::Decode`] naming its path (`virtualServers[3].state`).
    pub(crate) fn decode(&self, operation: &'static str, body: &[u8]) -> Result<Vec<T>, Error> {
        let state = State {
            list: self,
            failed: RefCell::new(None),
        };
        decode_seeded(operation, body, Answer(&state)).map_err(|error| {
            match state.failed.into_inner() {
                Some(failed) => decode_error(operation, &failed.at(self.key), body),
                None => error,
            }
        })
    }
}

/// One decoding's state: the normaliser's error, kept aside because serde's error type
/// cannot carry it (serde is told only that the decoding stops).
struct State<'l, R, T> {
    list: &'l RecordList<R, T>,
    failed: RefCell<Option<FieldError>>,
}

/// The answer object (a seed, so it can be decoded twice: again with path tracking
/// after a failure).
struct Answer<'s, 'l, R, T>(&'s State<'l, R, T>);

impl<R, T> Clone for Answer<'_, '_, R, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R, T> Copy for Answer<'_, '_, R, T> {}

impl<'de, R: DeserializeOwned, T> DeserializeSeed<'de> for Answer<'_, '_, R, T> {
    type Value = Vec<T>;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Vec<T>, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de, R: DeserializeOwned, T> Visitor<'de> for Answer<'_, '_, R, T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "an object with `{}`", self.0.list.key)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Vec<T>, A::Error> {
        let key = self.0.list.key;
        let mut records = None;
        while let Some(is_list) = map.next_key_seed(KeyIs(key))? {
            if !is_list {
                map.next_value::<de::IgnoredAny>()?;
            } else if records.is_some() {
                return Err(de::Error::duplicate_field(key));
            } else {
                records = Some(map.next_value_seed(Records(self.0))?);
            }
        }
        records.ok_or_else(|| de::Error::missing_field(key))
    }
}

/// Whether a member's key is the list's (compared without copying the key).
struct KeyIs(&'static str);

impl<'de> DeserializeSeed<'de> for KeyIs {
    type Value = bool;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<bool, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl Visitor<'_> for KeyIs {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a member name")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<bool, E> {
        Ok(key == self.0)
    }
}

/// The records array.
struct Records<'s, 'l, R, T>(&'s State<'l, R, T>);

impl<'de, R: DeserializeOwned, T> DeserializeSeed<'de> for Records<'_, '_, R, T> {
    type Value = Vec<T>;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Vec<T>, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de, R: DeserializeOwned, T> Visitor<'de> for Records<'_, '_, R, T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of records")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
        // Room for one record to start with: many lists hold one (every single-record
        // read is one), and the default first step, room for four records of a few
        // hundred bytes, takes the allocator's slow path.
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(1));
        while let Some(raw) = seq.next_element_seed(PhantomData::<R>)? {
            match (self.0.list.record)(raw) {
                Ok(record) => out.push(record),
                Err(error) => {
                    let index = out.len();
                    *self.0.failed.borrow_mut() = Some(error.at_index(index));
                    return Err(de::Error::custom(format_args!(
                        "record {index} does not normalise"
                    )));
                }
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn positive(raw: i64) -> Result<u32, FieldError> {
        u32::try_from(raw).map_err(|_| FieldError::new(format!("negative: {raw}")).at("n"))
    }

    const NUMBERS: RecordList<i64, u32> = RecordList::new("numbers", positive);

    fn decode(body: &str) -> Result<Vec<u32>, Error> {
        NUMBERS.decode("op", body.as_bytes())
    }

    fn decode_path(body: &str) -> (String, String) {
        match decode(body) {
            Err(Error::Decode { path, message, .. }) => (path, message),
            other => panic!("expected a decode error, got {other:?}"),
        }
    }

    #[test]
    fn records_are_normalised_in_order_and_other_members_skipped() {
        let body = r#"{"before":{"a":[1,"x"]},"numbers":[3,1,2],"after":null}"#;
        assert_eq!(decode(body).unwrap(), vec![3, 1, 2]);
        assert_eq!(decode(r#"{"numbers":[]}"#).unwrap(), Vec::<u32>::new());
    }

    #[test]
    fn a_record_that_does_not_normalise_is_named_by_its_path() {
        let (path, message) = decode_path(r#"{"numbers":[1,-2,3]}"#);
        assert_eq!(path, "numbers[1].n");
        assert_eq!(message, "negative: -2");
    }

    #[test]
    fn a_record_that_does_not_decode_is_named_by_its_path() {
        let (path, message) = decode_path(r#"{"other":1,"numbers":[1,"two"]}"#);
        assert_eq!(path, "numbers[1]");
        assert!(message.contains("expected i64"), "{message}");
    }

    #[test]
    fn the_list_must_be_there_once_and_the_body_end_after_it() {
        assert!(
            decode_path(r#"{"other":[]}"#)
                .1
                .contains("missing field `numbers`")
        );
        assert!(
            decode_path(r#"{"numbers":[],"numbers":[]}"#)
                .1
                .contains("duplicate field `numbers`")
        );
        assert!(decode_path(r#"{"numbers":[1]} x"#).1.contains("trailing"));
        assert!(decode_path(r#"{"numbers":[1]"#).1.contains("ends early"));
        assert!(decode_path(r#"[1]"#).1.contains("an object with `numbers`"));
    }
}
