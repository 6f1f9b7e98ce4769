//! The wrappers the wire puts around records and lists (`{bareMetals:[{bareMetal:…}]}`,
//! `{virtualServers:[record]}`…), taken off in one way everywhere.

use super::{Cursor, FieldError, Fields, Json, Records};

/// The records under `key` of the answer object, and its other members. A list that is
/// absent, `null` or `""` is empty.
pub(crate) fn items<'a>(
    cursor: &mut Cursor,
    body: Json<'a>,
    key: &'static str,
) -> Result<Records<'a>, FieldError> {
    cursor.object(body, |f| {
        let items = list_under(f, key)?;
        Ok(Records {
            path: key.to_owned(),
            items,
            extra: f.unread(),
        })
    })
}

/// The records of the member `key`: an array (or an object keyed `"0"`, `"1"`…);
/// absent, `null` or `""` is none.
pub(crate) fn list_under<'a>(
    f: &mut Fields<'_, 'a>,
    key: &str,
) -> Result<Vec<Json<'a>>, FieldError> {
    match f.take(key) {
        None => Ok(Vec::new()),
        Some(json) if json.is_nothing() => Ok(Vec::new()),
        Some(Json::Array(items)) => Ok(items),
        Some(Json::Object(members)) if members.iter().all(|(k, _)| k.parse::<usize>().is_ok()) => {
            let mut numbered: Vec<(usize, Json<'a>)> = members
                .into_iter()
                .map(|(k, v)| (k.parse().unwrap_or(usize::MAX), v))
                .collect();
            numbered.sort_by_key(|(index, _)| *index);
            Ok(numbered.into_iter().map(|(_, v)| v).collect())
        }
        Some(other) => Err(f
            .cursor()
            .error(key, format!("expected a list, found {}", other.shown()))),
    }
}

/// The object under `key` of a wrapper object, read by `read`; the wrapper's other
/// members join the record's `extra` (as `<member>` of the wrapper).
pub(crate) fn wrapped<'a, T: HasExtra>(
    cursor: &mut Cursor,
    json: Json<'a>,
    key: &'static str,
    read: fn(&mut Fields<'_, 'a>) -> Result<T, FieldError>,
) -> Result<T, FieldError> {
    cursor.object(json, |wrapper| {
        let inner = wrapper
            .take(key)
            .ok_or_else(|| wrapper.cursor().error(key, "the record is absent"))?;
        let mut record = wrapper
            .cursor()
            .within(key, |cursor| cursor.object(inner, read))?;
        record.extra_mut().extend(wrapper.unread());
        Ok(record)
    })
}

/// Records with an `extra` map (for [`wrapped`]).
pub(crate) trait HasExtra {
    fn extra_mut(&mut self) -> &mut crate::Extra;
}

/// Implements [`HasExtra`] for records whose map is the field `extra`.
macro_rules! has_extra {
    ($($record:ty),+ $(,)?) => {
        $(impl $crate::read::shapes::HasExtra for $record {
            fn extra_mut(&mut self) -> &mut $crate::Extra {
                &mut self.extra
            }
        })+
    };
}

pub(crate) use has_extra;

/// A list answer's `_metadata {totalCount, limit, offset}`: its `totalCount`, and the
/// members other than those three (kept as `_metadata.<key>`).
pub(crate) fn list_metadata(f: &mut Fields<'_, '_>) -> (Option<u64>, crate::Extra) {
    let found = f.object("_metadata", |m| {
        let total = m.integer::<u64>("totalCount");
        // The page the server applied: known, and of no use past this page.
        let _ = (m.integer::<u64>("limit"), m.integer::<u64>("offset"));
        (total, m.unread())
    });
    match found {
        Some((total, rest)) => (total, prefixed("_metadata", rest).collect()),
        None => (None, crate::Extra::new()),
    }
}

/// A nested object's leftovers, to join its parent's `extra` as `<prefix>.<key>`.
pub(crate) fn prefixed(
    prefix: &str,
    extra: crate::Extra,
) -> impl Iterator<Item = (String, serde_json::Value)> + '_ {
    extra
        .into_iter()
        .map(move |(k, v)| (format!("{prefix}.{k}"), v))
}

/// A list of texts held in an object of its own (`{disk:[…]}`, `{type:[…]}`): the
/// texts, and the object's leftovers (as `<key>.<member>`).
pub(crate) fn texts_in(
    f: &mut Fields<'_, '_>,
    key: &'static str,
    inner: &'static str,
) -> (Vec<String>, crate::Extra) {
    let found = f.object(key, |o| (o.texts(inner), o.unread()));
    match found {
        Some((texts, rest)) => (texts, prefixed(key, rest).collect()),
        None => (Vec::new(), crate::Extra::new()),
    }
}
