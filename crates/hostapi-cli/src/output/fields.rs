//! The fields a command's records have, to check the names `--columns`, `--sort` and
//! `--filter` are given: an unknown one is a usage error (exit 2) that lists the
//! valid ones, rather than an empty column, an unsorted list or nothing printed.
//!
//! A record type's fields come from its JSON Schema (the one `cargo xtask codegen`
//! commits as `schema/hostapi.schema.json`, generated here the same way); the JSON
//! the CLI puts together itself (settings, profiles, checks, records kept as the
//! service sent them) is checked against the fields of the records printed. Under
//! `extra` (what the service sent beyond the model) and under any map, every name is
//! a field.

use std::collections::BTreeSet;

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde_json::Value;

use crate::failure::Failure;

/// How deep a schema or a record is followed: deeper than any record the CLI prints,
/// and an end to a schema that refers to itself.
const DEPTH: usize = 8;

/// The field paths of a kind of record: `id`, `location.site`, `ips`, `ips[].ip`.
#[derive(Debug, Default)]
pub(super) struct Fields {
    known: BTreeSet<String>,
    /// Paths under which any name is a field (`extra`, maps).
    open: BTreeSet<String>,
    /// Paths whose shape is not known (null in every record seen): any name under
    /// them is let through, and none is listed.
    unknown_below: BTreeSet<String>,
}

impl Fields {
    /// The fields of `T`'s JSON serialisation, from its JSON Schema; `None` when the
    /// schema says nothing of them (`serde_json::Value`).
    pub(super) fn of<T: ?Sized + JsonSchema>() -> Option<Self> {
        let root = SchemaSettings::draft2020_12()
            .for_serialize()
            .into_generator()
            .into_root_schema_for::<T>()
            .to_value();
        let mut fields = Self::default();
        fields.walk_schema(&root, &root, "", 0);
        (!fields.known.is_empty()).then_some(fields)
    }

    /// The fields of the records given (JSON the CLI put together itself); `None`
    /// when there are none to tell.
    pub(super) fn observed<'v>(records: impl IntoIterator<Item = &'v Value>) -> Option<Self> {
        let mut fields = Self::default();
        for record in records {
            fields.walk_value(record, "", 0);
        }
        (!fields.known.is_empty()).then_some(fields)
    }

    /// The same, with `extra`: an SDK record leaves it out when the service sent
    /// nothing beyond the model, and its names are fields all the same.
    pub(super) fn with_extra(mut self) -> Self {
        self.known.insert("extra".to_owned());
        self.open.insert("extra".to_owned());
        self
    }

    fn walk_schema(&mut self, root: &Value, schema: &Value, prefix: &str, depth: usize) {
        if depth > DEPTH {
            return;
        }
        let Some(schema) = schema.as_object() else {
            return;
        };
        if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
            let target = reference
                .strip_prefix("#/$defs/")
                .and_then(|name| root.get("$defs")?.get(name));
            if let Some(target) = target {
                self.walk_schema(root, target, prefix, depth + 1);
            }
        }
        for combined in ["anyOf", "oneOf", "allOf"] {
            for part in schema
                .get(combined)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                self.walk_schema(root, part, prefix, depth + 1);
            }
        }
        if let Some(properties) = schema.get("properties").and_then(Value::as_object) {
            for (name, property) in properties {
                let path = join(prefix, name);
                self.known.insert(path.clone());
                if name == "extra" {
                    self.open.insert(path.clone());
                }
                self.walk_schema(root, property, &path, depth + 1);
            }
        }
        if !prefix.is_empty()
            && schema
                .get("additionalProperties")
                .is_some_and(|more| more != &Value::Bool(false))
        {
            self.open.insert(prefix.to_owned());
        }
        if let Some(items) = schema.get("items") {
            self.walk_schema(root, items, &format!("{prefix}[]"), depth + 1);
        }
    }

    fn walk_value(&mut self, value: &Value, prefix: &str, depth: usize) {
        if depth > DEPTH {
            return;
        }
        match value {
            Value::Object(map) => {
                for (name, child) in map {
                    let path = join(prefix, name);
                    self.known.insert(path.clone());
                    // A field that is null in every record printed may be a record
                    // elsewhere: what is under it is not known.
                    if name == "extra" {
                        self.open.insert(path.clone());
                    } else if child.is_null() {
                        self.unknown_below.insert(path.clone());
                    }
                    self.walk_value(child, &path, depth + 1);
                }
            }
            Value::Array(items) => {
                let path = format!("{prefix}[]");
                for item in items {
                    self.walk_value(item, &path, depth + 1);
                }
            }
            _ => {}
        }
    }

    /// Whether `field` is one of these fields (or under one that takes any name).
    pub(super) fn has(&self, field: &str) -> bool {
        self.known.contains(field)
            || self
                .known
                .contains(field.strip_suffix("[]").unwrap_or(field))
            || self.open.iter().chain(&self.unknown_below).any(|open| {
                field
                    .strip_prefix(open.as_str())
                    .and_then(|rest| rest.strip_prefix('.'))
                    .is_some_and(|name| !name.is_empty())
            })
    }

    /// The usage error for `field`, given to `flag`: it names the valid fields, the
    /// record's own first, then the nested ones (an `extra` of a nested record goes
    /// without saying).
    pub(super) fn unknown(&self, flag: &str, field: &str) -> Failure {
        let is_extra = |path: &str| path == "extra" || path.ends_with(".extra");
        let under_extra = |path: &str| path.split(['.', '[']).skip(1).any(|s| s == "extra");
        let (own, nested): (Vec<&str>, Vec<&str>) = self
            .known
            .iter()
            .map(String::as_str)
            .filter(|path| !path.starts_with("extra.") && !under_extra(path))
            .partition(|path| !path.contains(['.', '[']));
        let mut hint = format!("the fields: {}", own.join(", "));
        if !nested.is_empty() {
            hint.push_str(&format!("; nested: {}", nested.join(", ")));
        }
        let mut open: Vec<String> = self
            .open
            .iter()
            .filter(|path| !is_extra(path))
            .map(|path| format!("{path}."))
            .collect();
        if self.open.iter().any(|path| is_extra(path)) {
            open.insert(
                0,
                "extra. (what the service sent beyond the model)".to_owned(),
            );
        }
        if !open.is_empty() {
            hint.push_str(&format!("; any name under {}", open.join(", ")));
        }
        Failure::usage(format!(
            "{flag}: `{}` is not a field of these records",
            crate::untrusted::line(field)
        ))
        .hint(hint)
    }
}

fn join(prefix: &str, name: &str) -> String {
    if prefix.is_empty() {
        name.to_owned()
    } else {
        format!("{prefix}.{name}")
    }
}

#[cfg(test)]
mod tests {
    use serde::Serialize;
    use serde_json::json;

    use super::*;

    #[derive(Serialize, JsonSchema)]
    struct Site {
        site: String,
        rack: Option<String>,
    }

    #[derive(Serialize, JsonSchema)]
    struct Ip {
        ip: String,
    }

    #[derive(Serialize, JsonSchema)]
    struct Server {
        id: String,
        #[serde(rename = "server_type")]
        kind: String,
        location: Option<Site>,
        ips: Vec<Ip>,
        extra: std::collections::BTreeMap<String, Value>,
    }

    #[test]
    fn a_schema_names_every_path() {
        let fields = Fields::of::<Server>().expect("a record");
        for field in [
            "id",
            "server_type",
            "location",
            "location.site",
            "location.rack",
            "ips",
            "ips[]",
            "ips[].ip",
            "extra",
            "extra.anything",
            "extra.a.b",
        ] {
            assert!(fields.has(field), "{field}");
        }
        for field in [
            "kind",
            "nosuch",
            "location.nosuch",
            "ips.ip",
            "extra.",
            "ids",
        ] {
            assert!(!fields.has(field), "{field}");
        }
        let failure = fields.unknown("--sort", "nosuch");
        assert_eq!(failure.code, crate::failure::USAGE);
        assert!(failure.message.contains("`nosuch`"), "{}", failure.message);
        let hint = failure.hint.clone().unwrap_or_default();
        assert!(
            hint.contains("extra, id, ips, location, server_type")
                && hint.contains("nested: ips[].ip, location.rack, location.site")
                && hint.contains("any name under extra."),
            "{hint}"
        );
    }

    #[test]
    fn json_values_have_no_schema_and_records_name_their_own_fields() {
        assert!(Fields::of::<Value>().is_none());
        let records = [
            json!({"name": "a", "default": true, "base_url": null, "checks": [{"ok": true}]}),
            json!({"name": "b", "extra": {"x": 1}}),
        ];
        let fields = Fields::observed(&records).expect("fields");
        assert!(Fields::observed(&[]).is_none());
        for field in [
            "name",
            "default",
            "base_url",
            "base_url.x",
            "checks[].ok",
            "extra.y",
        ] {
            assert!(fields.has(field), "{field}");
        }
        for field in ["nosuch", "name.x", "checks[].nosuch"] {
            assert!(!fields.has(field), "{field}");
        }
    }
}
