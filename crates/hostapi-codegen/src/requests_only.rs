//! What the generator is given: the spec with every answer declared as bytes, and only
//! the schemas requests use.
//!
//! The facade reads every answer itself (bounded in size, leniently, one field at a
//! time: see the facade's `read` module), so the generated calls hand it the answer
//! untouched: a `2XX` answer as a byte stream, any other status as progenitor's
//! `UnexpectedResponse`. Nothing is decoded twice and no decode is made to fail on
//! purpose. The spec files themselves stay faithful to the documents, answers
//! included; only the generator's copy is changed.
//!
//! Schemas only answers use are left out of the generated code (no one would call
//! them), which also keeps the raw crates' build short.

use std::collections::BTreeSet;

use serde_json::{Value, json};

const METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "patch", "head", "options", "trace",
];

/// The generator's copy of `document` (the spec as JSON): every operation answers
/// `2XX` with bytes, and `components` keeps only what requests reach.
pub(crate) fn requests_only(document: &Value) -> Value {
    let mut document = document.clone();
    if let Some(paths) = document.get_mut("paths").and_then(Value::as_object_mut) {
        for item in paths.values_mut() {
            for method in METHODS {
                if let Some(operation) = item.get_mut(method).and_then(Value::as_object_mut) {
                    operation.insert("responses".to_owned(), bytes_answer());
                }
            }
        }
    }
    prune_components(&mut document);
    document
}

fn bytes_answer() -> Value {
    json!({
        "2XX": {
            "description": "The answer as received; the facade reads it.",
            "content": {"application/octet-stream": {}}
        }
    })
}

/// Keeps the components reachable from outside `components` (the paths), following
/// references between components.
fn prune_components(document: &mut Value) {
    let mut reachable = BTreeSet::new();
    let mut pending = Vec::new();
    if let Some(object) = document.as_object() {
        for (key, value) in object {
            if key != "components" {
                collect_refs(value, &mut pending);
            }
        }
    }
    while let Some(reference) = pending.pop() {
        if !reachable.insert(reference.clone()) {
            continue;
        }
        if let Some(target) = resolve(document, &reference) {
            collect_refs(target, &mut pending);
        }
    }
    let Some(components) = document
        .get_mut("components")
        .and_then(Value::as_object_mut)
    else {
        return;
    };
    for (section, entries) in components.iter_mut() {
        if let Some(entries) = entries.as_object_mut() {
            entries.retain(|name, _| {
                reachable.contains(&format!("#/components/{section}/{}", escape(name)))
            });
        }
    }
    components.retain(|_, entries| entries.as_object().is_none_or(|e| !e.is_empty()));
}

fn collect_refs(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(reference)) = map.get("$ref") {
                out.push(reference.clone());
            }
            map.values().for_each(|v| collect_refs(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| collect_refs(v, out)),
        _ => {}
    }
}

/// The node a local reference (`#/components/schemas/Name`) points at.
fn resolve<'d>(document: &'d Value, reference: &str) -> Option<&'d Value> {
    document.pointer(reference.strip_prefix('#')?)
}

/// A name as a JSON pointer segment.
fn escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use serde_json::Map;

    use super::*;

    fn responses_of<'d>(document: &'d Value, path: &str, method: &str) -> &'d Map<String, Value> {
        document["paths"][path][method]["responses"]
            .as_object()
            .expect("responses")
    }

    #[test]
    fn answers_become_bytes_and_answer_only_schemas_go() {
        let spec = json!({
            "openapi": "3.0.3",
            "paths": {"/a": {
                "get": {"responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Answer"}}}}, "4XX": {"$ref": "#/components/responses/Failure"}}},
                "post": {
                    "requestBody": {"content": {"application/x-www-form-urlencoded": {"schema": {"$ref": "#/components/schemas/Form"}}}},
                    "responses": {"204": {"description": "done"}}
                }
            }},
            "components": {
                "schemas": {
                    "Answer": {"type": "object", "properties": {"part": {"$ref": "#/components/schemas/Part"}}},
                    "Part": {"type": "string"},
                    "Form": {"type": "object", "properties": {"kind": {"$ref": "#/components/schemas/Kind"}}},
                    "Kind": {"type": "string"}
                },
                "responses": {"Failure": {"description": "error"}}
            }
        });
        let generated = requests_only(&spec);
        for method in ["get", "post"] {
            let responses = responses_of(&generated, "/a", method);
            assert_eq!(responses.keys().collect::<Vec<_>>(), ["2XX"]);
            assert!(responses["2XX"]["content"]["application/octet-stream"].is_object());
        }
        let schemas: Vec<&String> = generated["components"]["schemas"]
            .as_object()
            .expect("schemas")
            .keys()
            .collect();
        assert_eq!(schemas, ["Form", "Kind"]);
        assert!(generated["components"].get("responses").is_none());
        // The spec itself is untouched.
        assert!(spec["components"]["schemas"].get("Answer").is_some());
    }
}
