//! The strict OpenAPI 3.0.3 check, beside [`crate::validate()`]: a spec must say
//! `openapi: 3.0.3`, and every member of it must be one OpenAPI 3.0.3 defines at that
//! place (or an `x-` extension).
//!
//! The typed parse ([`openapiv3`]) already refuses a member of the wrong type, but it
//! skips members it does not know — a misspelt `requird`, an `items` beside a
//! non-array, a `description` beside a `$ref` (which 3.0.3 ignores), a 3.1 keyword. So
//! the check parses the spec into the typed model, writes the model back as JSON, and
//! refuses every member of the spec that did not survive the round trip, naming its
//! JSON pointer. No network, no schema file: the typed model is the structure.

use serde_json::Value;

use crate::error::{CodegenError, escape_segment};
use crate::load::Spec;

/// The one OpenAPI version the specs are written in.
pub const VERSION: &str = "3.0.3";

/// Every way `spec` is not strict OpenAPI 3.0.3 (empty when it is).
pub fn strict_check(spec: &Spec) -> Vec<CodegenError> {
    let mut problems = Vec::new();
    if spec.json.get("openapi").and_then(Value::as_str) != Some(VERSION) {
        problems.push(spec.invalid("/openapi", format!("must be `{VERSION}`")));
    }
    match serde_json::to_value(&spec.document) {
        Ok(typed) => compare(spec, &spec.json, &typed, String::new(), &mut problems),
        Err(error) => problems.push(spec.invalid("", format!("does not serialise: {error}"))),
    }
    problems
}

/// Reports each member of `written` (the spec) that `typed` (its round trip through
/// the typed model) lacks or holds differently.
fn compare(
    spec: &Spec,
    written: &Value,
    typed: &Value,
    pointer: String,
    problems: &mut Vec<CodegenError>,
) {
    match (written, typed) {
        (Value::Object(members), Value::Object(kept)) => {
            for (name, value) in members {
                let at = format!("{pointer}/{}", escape_segment(name));
                match kept.get(name) {
                    Some(typed_value) => compare(spec, value, typed_value, at, problems),
                    // The typed model leaves out a flag at its default (`required:
                    // false`): written out, it is still a member of the document.
                    None if *value == Value::Bool(false) => {}
                    None => problems.push(
                        spec.invalid(at, format!("`{name}` is not an OpenAPI 3.0.3 member here")),
                    ),
                }
            }
        }
        (Value::Array(items), Value::Array(kept)) if items.len() == kept.len() => {
            for (index, (item, typed_item)) in items.iter().zip(kept).enumerate() {
                compare(
                    spec,
                    item,
                    typed_item,
                    format!("{pointer}/{index}"),
                    problems,
                );
            }
        }
        (Value::Number(a), Value::Number(b)) if a.as_f64() == b.as_f64() => {}
        _ if written == typed => {}
        _ => problems.push(spec.invalid(
            pointer,
            format!("reads as {typed} in OpenAPI 3.0.3, not as written ({written})"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    fn problems(yaml: &str) -> Vec<String> {
        let spec = Spec::parse(Path::new("s.yaml"), yaml).expect("parses");
        strict_check(&spec)
            .into_iter()
            .map(|e| e.to_string())
            .collect()
    }

    const GOOD: &str = r##"
openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /a/{id}:
    parameters:
      - {name: id, in: path, required: true, schema: {type: string, pattern: "^[0-9]+$"}}
      - {name: q, in: query, required: false, schema: {type: string}}
    get:
      operationId: getA
      x-hostapi-addition: true
      responses:
        "2XX":
          description: ok
          content:
            application/json:
              schema: {$ref: "#/components/schemas/A"}
components:
  schemas:
    A:
      type: object
      properties:
        level: {type: integer, format: int64, enum: [0, 1, 5], minimum: 0}
        any: {description: any JSON}
      additionalProperties: {}
"##;

    #[test]
    fn a_strict_document_passes() {
        assert_eq!(problems(GOOD), Vec::<String>::new());
    }

    #[test]
    fn unknown_members_and_other_versions_are_refused_at_their_pointer() {
        let bad = GOOD
            .replace("openapi: 3.0.3", "openapi: 3.0.1")
            .replace("required: true,", "requird: true, required: true,")
            .replace(
                "schema: {$ref: \"#/components/schemas/A\"}",
                "schema: {$ref: \"#/components/schemas/A\", description: ignored}",
            );
        let found = problems(&bad);
        assert!(
            found
                .iter()
                .any(|p| p.contains("#/openapi: must be `3.0.3`")),
            "{found:?}"
        );
        assert!(
            found
                .iter()
                .any(|p| p.contains("/paths/~1a~1{id}/parameters/0/requird")),
            "{found:?}"
        );
        assert!(
            found.iter().any(|p| p.contains(
                "/paths/~1a~1{id}/get/responses/2XX/content/application~1json/schema/description"
            )),
            "{found:?}"
        );
        assert_eq!(found.len(), 3, "{found:?}");
    }
}
