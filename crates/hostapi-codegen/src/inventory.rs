//! The inventory of documented answer fields: for each operation with a JSON success
//! answer, every field its schema describes, as a path and a type.
//!
//! The facade reads answers by its wire policy, not through generated types, so nothing
//! in the generated code ties a spec's answer schema to the facade's readers. The
//! inventory does: a test in `tests/` feeds each operation an answer holding every
//! field of its inventory and checks that the reader reads each one, or names it as kept
//! in `extra` on purpose. `cargo xtask codegen` writes it, one file per spec, beside the
//! generated client (`crates/hostapi-raw-*/generated/answers.txt`), so a change to an
//! answer schema shows up in review as a change of fields.
//!
//! Paths: member names joined by `.`, `[]` for the items of an array and `{}` for the
//! values of an object keyed by data (`additionalProperties` with a schema); the answer
//! itself is the empty path. A field of several shapes (`oneOf` of objects and arrays)
//! has the fields of each shape.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use serde_json::Value;

use crate::load::Spec;

/// The methods an operation can have, in the order the inventory lists them.
const METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "patch", "head", "options", "trace",
];

/// Beyond this depth a schema is taken to refer to itself; its field is listed as
/// `any` there.
const MAX_DEPTH: usize = 24;

/// One documented field of one operation's success answer.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct AnswerField {
    /// The operation's `operationId`.
    pub operation: String,
    /// Where the field is (see the module docs).
    pub path: String,
    /// What the field holds.
    pub kind: FieldKind,
}

/// The type of a documented field, as its schema gives it.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct FieldKind {
    /// The JSON types it may have (`string`, `integer`, `number`, `boolean`, `object`,
    /// `array`), in schema order; empty for any JSON value.
    pub types: Vec<String>,
    /// Its `format`, if any.
    pub format: Option<String>,
    /// Its `pattern`, if any.
    pub pattern: Option<String>,
    /// The values of its `enum`, as JSON text, if it is a closed set.
    pub values: Vec<String>,
    /// Whether the schema allows `null`.
    pub nullable: bool,
}

impl FieldKind {
    /// The kind as the inventory file writes it: `string`, `string|integer`,
    /// `string date-time`, `integer enum(0,1)`, `any`, with `?` for nullable.
    pub fn describe(&self) -> String {
        let mut text = if self.types.is_empty() {
            "any".to_owned()
        } else {
            self.types.join("|")
        };
        if self.nullable {
            text.push('?');
        }
        if let Some(format) = &self.format {
            let _ = write!(text, " {format}");
        }
        if !self.values.is_empty() {
            let _ = write!(text, " enum({})", self.values.join(","));
        }
        if let Some(pattern) = &self.pattern {
            let _ = write!(text, " pattern({pattern})");
        }
        text
    }
}

/// Every documented field of every operation of `spec` with a JSON success answer, by
/// operation (in path order) and path.
pub fn inventory(spec: &Spec) -> Vec<AnswerField> {
    let mut fields = Vec::new();
    let Some(paths) = spec.json.get("paths").and_then(Value::as_object) else {
        return fields;
    };
    for item in paths.values() {
        for method in METHODS {
            let Some(operation) = item.get(method) else {
                continue;
            };
            let Some(id) = operation.get("operationId").and_then(Value::as_str) else {
                continue;
            };
            let Some(schema) = success_schema(&spec.json, operation) else {
                continue;
            };
            let mut found = BTreeSet::new();
            walk(&spec.json, schema, "", 0, &mut found);
            fields.extend(found.into_iter().map(|(path, kind)| AnswerField {
                operation: id.to_owned(),
                path,
                kind,
            }));
        }
    }
    fields
}

/// The inventory as the committed file holds it: a header, then one line per field,
/// `operationId<TAB>path<TAB>kind`.
pub fn render(spec_name: &str, fields: &[AnswerField]) -> String {
    let mut text = format!(
        "# The documented fields of each JSON success answer of {spec_name}: operationId,\n\
         # path ([] array items, {{}} values of an object keyed by data), type.\n\
         # Written by `cargo xtask codegen`; do not edit.\n"
    );
    for field in fields {
        let _ = writeln!(
            text,
            "{}\t{}\t{}",
            field.operation,
            field.path,
            field.kind.describe()
        );
    }
    text
}

/// The schema of the operation's JSON success (2XX) answer.
fn success_schema<'a>(document: &'a Value, operation: &'a Value) -> Option<&'a Value> {
    let responses = operation.get("responses")?.as_object()?;
    responses
        .iter()
        .filter(|(status, _)| status.starts_with('2'))
        .find_map(|(_, response)| {
            resolve(document, response)
                .pointer("/content/application~1json/schema")
                .map(|schema| resolve(document, schema))
        })
}

/// Follows `$ref`s within the document (every one points into it: validation checks
/// that).
fn resolve<'a>(document: &'a Value, mut value: &'a Value) -> &'a Value {
    for _ in 0..MAX_DEPTH {
        match value.get("$ref").and_then(Value::as_str) {
            Some(reference) => match document.pointer(reference.trim_start_matches('#')) {
                Some(target) => value = target,
                None => return value,
            },
            None => return value,
        }
    }
    value
}

fn join(path: &str, segment: &str) -> String {
    match (path.is_empty(), segment.starts_with('[')) {
        (true, _) | (false, true) => format!("{path}{segment}"),
        (false, false) => format!("{path}.{segment}"),
    }
}

/// Adds the fields of `schema`, found at `path`, to `found`.
fn walk(
    document: &Value,
    schema: &Value,
    path: &str,
    depth: usize,
    found: &mut BTreeSet<(String, FieldKind)>,
) {
    let schema = resolve(document, schema);
    if depth > MAX_DEPTH {
        found.insert((path.to_owned(), FieldKind::default()));
        return;
    }
    for parts in ["allOf"] {
        if let Some(Value::Array(all)) = schema.get(parts) {
            for part in all {
                walk(document, part, path, depth + 1, found);
            }
        }
    }
    for choice in ["oneOf", "anyOf"] {
        let Some(Value::Array(alternatives)) = schema.get(choice) else {
            continue;
        };
        let resolved: Vec<&Value> = alternatives.iter().map(|a| resolve(document, a)).collect();
        if resolved.iter().all(|a| is_scalar(a)) {
            // One field of several scalar types.
            let mut kind = FieldKind {
                nullable: schema.get("nullable") == Some(&Value::Bool(true)),
                ..FieldKind::default()
            };
            for alternative in resolved {
                let one = scalar_kind(alternative);
                kind.types.extend(one.types);
                kind.format = kind.format.or(one.format);
                kind.pattern = kind.pattern.or(one.pattern);
                kind.values.extend(one.values);
                kind.nullable |= one.nullable;
            }
            found.insert((path.to_owned(), kind));
        } else {
            for alternative in resolved {
                walk(document, alternative, path, depth + 1, found);
            }
        }
    }
    let kind = schema.get("type").and_then(Value::as_str);
    let properties = schema.get("properties").and_then(Value::as_object);
    let keyed_by_data = schema
        .get("additionalProperties")
        .filter(|extra| extra.as_object().is_some_and(|map| !map.is_empty()));
    match kind {
        Some("array") => match schema.get("items") {
            Some(items) if items.as_object().is_some_and(|map| !map.is_empty()) => {
                walk(document, items, &join(path, "[]"), depth + 1, found);
            }
            _ => {
                found.insert((path.to_owned(), scalar_kind(schema)));
            }
        },
        Some("object") | None if properties.is_some() || keyed_by_data.is_some() => {
            for (name, property) in properties.into_iter().flatten() {
                walk(document, property, &join(path, name), depth + 1, found);
            }
            if let Some(values) = keyed_by_data {
                walk(document, values, &join(path, "{}"), depth + 1, found);
            }
        }
        Some("object") => {
            // An object with no documented members: a field of its own, unless it is
            // the answer itself (an answer documented as `{}`).
            if !path.is_empty() {
                found.insert((path.to_owned(), scalar_kind(schema)));
            }
        }
        Some(_) => {
            found.insert((path.to_owned(), scalar_kind(schema)));
        }
        None => {
            let composed = ["allOf", "oneOf", "anyOf"]
                .iter()
                .any(|key| schema.get(key).is_some());
            if !composed && !path.is_empty() {
                // No type and nothing else: any JSON value.
                found.insert((path.to_owned(), scalar_kind(schema)));
            }
        }
    }
}

/// A schema of one value, without members or items to list.
fn is_scalar(schema: &Value) -> bool {
    !matches!(
        schema.get("type").and_then(Value::as_str),
        Some("object" | "array")
    ) && schema.get("properties").is_none()
        && ["allOf", "oneOf", "anyOf"]
            .iter()
            .all(|key| schema.get(key).is_none())
}

fn scalar_kind(schema: &Value) -> FieldKind {
    let text = |key: &str| schema.get(key).and_then(Value::as_str).map(str::to_owned);
    FieldKind {
        types: text("type").into_iter().collect(),
        format: text("format"),
        pattern: text("pattern"),
        values: schema
            .get("enum")
            .and_then(Value::as_array)
            .map(|values| values.iter().map(Value::to_string).collect())
            .unwrap_or_default(),
        nullable: schema.get("nullable") == Some(&Value::Bool(true)),
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    fn fields(yaml: &str) -> Vec<String> {
        let spec = Spec::parse(Path::new("t.yaml"), yaml).expect("spec");
        inventory(&spec)
            .into_iter()
            .map(|f| format!("{} {} {}", f.operation, f.path, f.kind.describe()))
            .collect()
    }

    const SPEC: &str = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /a:
    get:
      operationId: getA
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "#/components/schemas/A"}
    put:
      operationId: putA
      responses:
        "204": {description: nothing}
components:
  schemas:
    A:
      type: object
      properties:
        id: {oneOf: [{type: string}, {type: integer}]}
        when: {type: string, format: date-time, nullable: true}
        tags: {type: array, items: {type: string, enum: [x, y]}}
        byIp: {type: object, additionalProperties: {$ref: "#/components/schemas/B"}}
        anything: {description: any JSON}
        one: {oneOf: [{type: array, items: {$ref: "#/components/schemas/B"}}, {$ref: "#/components/schemas/B"}]}
      additionalProperties: {}
    B:
      type: object
      properties:
        on: {type: boolean}
"##;

    #[test]
    fn every_documented_field_with_its_path_and_type() {
        assert_eq!(
            fields(SPEC),
            [
                "getA anything any",
                "getA byIp.{}.on boolean",
                "getA id string|integer",
                "getA one.on boolean",
                "getA one[].on boolean",
                "getA tags[] string enum(\"x\",\"y\")",
                "getA when string? date-time",
            ]
        );
    }

    #[test]
    fn a_new_answer_field_changes_the_inventory() {
        let grown = SPEC.replace(
            "        on: {type: boolean}",
            "        on: {type: boolean}\n        since: {type: integer}",
        );
        let before = fields(SPEC);
        let after = fields(&grown);
        let added: Vec<&String> = after.iter().filter(|f| !before.contains(f)).collect();
        assert_eq!(
            added,
            [
                "getA byIp.{}.since integer",
                "getA one.since integer",
                "getA one[].since integer"
            ]
        );
    }
}
