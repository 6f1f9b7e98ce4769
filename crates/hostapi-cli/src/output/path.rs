//! Dotted paths into a record's JSON (`a.b`, `a[].b`): the text at a path, and the
//! record cut down to some paths.

use serde_json::Value;

use super::cell_text::scalar;

/// The text of the value at a dotted path (`a.b`, `a[].b`), for a table cell.
pub(crate) fn lookup(value: &Value, path: &str) -> String {
    fn walk<'a>(value: &'a Value, path: &str, out: &mut Vec<&'a Value>) {
        let (head, rest) = match path.split_once('.') {
            Some((head, rest)) => (head, Some(rest)),
            None => (path, None),
        };
        let (key, each) = match head.strip_suffix("[]") {
            Some(key) => (key, true),
            None => (head, false),
        };
        let Some(next) = (if key.is_empty() {
            Some(value)
        } else {
            value.get(key)
        }) else {
            return;
        };
        let items: Vec<&Value> = if each {
            next.as_array()
                .map(|a| a.iter().collect())
                .unwrap_or_default()
        } else {
            vec![next]
        };
        for item in items {
            match rest {
                Some(rest) => walk(item, rest, out),
                None => out.push(item),
            }
        }
    }
    let mut found = Vec::new();
    walk(value, path, &mut found);
    found
        .iter()
        .map(|v| scalar(v))
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Every scalar at a dotted path (each element of arrays along the way), as text.
pub(super) fn values_at(value: &Value, path: &str) -> Vec<String> {
    let joined = lookup(value, path);
    if joined.is_empty() {
        return vec![String::new()];
    }
    let mut values: Vec<String> = joined.split(", ").map(str::to_owned).collect();
    values.push(joined);
    values
}

/// The record with only the given fields (dotted paths keep their nesting).
pub(super) fn project(value: &Value, fields: &[String]) -> Value {
    let mut out = serde_json::Map::new();
    for field in fields {
        let mut source = Some(value);
        for part in field.split('.') {
            source = source.and_then(|v| v.get(part));
        }
        let parts: Vec<&str> = field.split('.').collect();
        let mut target = &mut out;
        for part in &parts[..parts.len() - 1] {
            let entry = target
                .entry((*part).to_owned())
                .or_insert_with(|| Value::Object(serde_json::Map::new()));
            if !entry.is_object() {
                *entry = Value::Object(serde_json::Map::new());
            }
            target = entry.as_object_mut().expect("an object was just put there");
        }
        target.insert(
            parts[parts.len() - 1].to_owned(),
            source.cloned().unwrap_or(Value::Null),
        );
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookup_follows_paths_and_arrays() {
        let value = serde_json::json!({"id": 7, "ips": [{"ip": "a"}, {"ip": "b"}], "state": null, "ok": true});
        assert_eq!(lookup(&value, "id"), "7");
        assert_eq!(lookup(&value, "ips[].ip"), "a, b");
        assert_eq!(lookup(&value, "state"), "");
        assert_eq!(lookup(&value, "ok"), "yes");
        assert_eq!(lookup(&value, "missing.deep"), "");
    }

    #[test]
    fn projections_keep_the_json_names() {
        let value =
            serde_json::json!({"id": "1", "location": {"site": "AMS-01", "rack": "r"}, "x": 2});
        assert_eq!(
            project(&value, &["id".into(), "location.site".into()]),
            serde_json::json!({"id": "1", "location": {"site": "AMS-01"}})
        );
    }
}
