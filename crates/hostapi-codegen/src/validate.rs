//! Checks a spec must pass before it is generated: the ones OpenAPI tools do not make
//! (every operation named, no dangling or unused reference) and the rules that keep
//! progenitor from failing on it.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use crate::error::{CodegenError, escape_segment};
use crate::load::Spec;

const METHODS: [&str; 8] = [
    "get", "put", "post", "delete", "patch", "head", "options", "trace",
];

/// Component sections whose entries must each be referenced somewhere.
const COMPONENT_SECTIONS: [&str; 5] = [
    "schemas",
    "responses",
    "parameters",
    "requestBodies",
    "headers",
];

/// Validates `spec`, returning every problem found (empty when it is fine).
pub fn validate(spec: &Spec) -> Vec<CodegenError> {
    let mut problems = Vec::new();
    let json = &spec.json;

    match json.get("openapi").and_then(Value::as_str) {
        Some(version) if version.starts_with("3.0.") => {}
        _ => problems.push(spec.invalid("/openapi", "must be an OpenAPI 3.0.x version")),
    }

    check_operations(spec, &mut problems);

    let mut refs = Vec::new();
    collect_refs(json, String::new(), &mut refs);
    check_refs(spec, &refs, &mut problems);
    check_unused(spec, &refs, &mut problems);
    check_generator_rules(spec, json, String::new(), &mut problems);
    problems
}

fn operations(json: &Value) -> impl Iterator<Item = (String, &Value)> {
    json.get("paths")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .flat_map(|(path, item)| {
            METHODS.iter().filter_map(move |method| {
                let operation = item.get(*method)?;
                Some((
                    format!("/paths/{}/{method}", escape_segment(path)),
                    operation,
                ))
            })
        })
}

fn check_operations(spec: &Spec, problems: &mut Vec<CodegenError>) {
    let mut seen: BTreeMap<&str, String> = BTreeMap::new();
    for (pointer, operation) in operations(&spec.json) {
        match operation.get("operationId").and_then(Value::as_str) {
            None => problems.push(spec.invalid(&pointer, "operation has no operationId")),
            Some(id) => {
                if let Some(first) = seen.insert(id, pointer.clone()) {
                    problems.push(spec.invalid(
                        format!("{pointer}/operationId"),
                        format!("operationId `{id}` is also used at {first}"),
                    ));
                }
            }
        }
        let tagged = operation
            .get("tags")
            .and_then(Value::as_array)
            .is_some_and(|tags| !tags.is_empty());
        if !tagged {
            problems.push(spec.invalid(&pointer, "operation has no tag"));
        }
        let responses = operation.get("responses").and_then(Value::as_object);
        let successes = responses
            .into_iter()
            .flatten()
            .filter(|(status, _)| status.starts_with('2'))
            .count();
        if successes != 1 {
            problems.push(spec.invalid(
                format!("{pointer}/responses"),
                format!("has {successes} success responses; the generator needs exactly one"),
            ));
        }
        if responses.is_some_and(|r| r.contains_key("default")) {
            problems.push(spec.invalid(
                format!("{pointer}/responses/default"),
                "a `default` response counts as a second success to the generator; use 4XX and 5XX",
            ));
        }
    }
}

/// Every `$ref` in the document, with the pointer of the object holding it.
fn collect_refs(value: &Value, pointer: String, refs: &mut Vec<(String, String)>) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(target)) = map.get("$ref") {
                refs.push((pointer.clone(), target.clone()));
            }
            for (key, child) in map {
                collect_refs(child, format!("{pointer}/{}", escape_segment(key)), refs);
            }
        }
        Value::Array(items) => {
            for (index, child) in items.iter().enumerate() {
                collect_refs(child, format!("{pointer}/{index}"), refs);
            }
        }
        _ => {}
    }
}

fn check_refs(spec: &Spec, refs: &[(String, String)], problems: &mut Vec<CodegenError>) {
    for (at, target) in refs {
        match target.strip_prefix('#') {
            Some(pointer) if spec.json.pointer(pointer).is_some() => {}
            Some(_) => problems.push(spec.invalid(
                format!("{at}/$ref"),
                format!("dangling reference `{target}`"),
            )),
            None => problems.push(spec.invalid(
                format!("{at}/$ref"),
                format!("`{target}` is not a local reference; specs are self-contained"),
            )),
        }
    }
}

/// Components are used when reachable from outside `components` (paths, security…),
/// following references transitively: a schema used only by an unused schema is unused.
fn check_unused(spec: &Spec, refs: &[(String, String)], problems: &mut Vec<CodegenError>) {
    let mut reachable: BTreeSet<&str> = BTreeSet::new();
    let mut queue: Vec<&str> = refs
        .iter()
        .filter(|(at, _)| !at.starts_with("/components/"))
        .map(|(_, target)| target.trim_start_matches('#'))
        .collect();
    while let Some(target) = queue.pop() {
        if !reachable.insert(target) {
            continue;
        }
        let prefix = format!("{target}/");
        queue.extend(
            refs.iter()
                .filter(|(at, _)| at == target || at.starts_with(&prefix))
                .map(|(_, t)| t.trim_start_matches('#')),
        );
    }
    for section in COMPONENT_SECTIONS {
        let entries = spec
            .json
            .pointer(&format!("/components/{section}"))
            .and_then(Value::as_object);
        for name in entries.into_iter().flatten().map(|(name, _)| name) {
            let pointer = format!("/components/{section}/{}", escape_segment(name));
            if !reachable.contains(pointer.as_str()) {
                problems.push(spec.invalid(pointer, "unused: nothing references it"));
            }
        }
    }
}

/// Rules that keep the generated code truthful: never reject unknown fields.
fn check_generator_rules(
    spec: &Spec,
    value: &Value,
    pointer: String,
    problems: &mut Vec<CodegenError>,
) {
    match value {
        Value::Object(map) => {
            if map.get("additionalProperties") == Some(&Value::Bool(false)) {
                problems.push(spec.invalid(
                    format!("{pointer}/additionalProperties"),
                    "`additionalProperties: false` makes decoding reject fields the server adds",
                ));
            }
            for (key, child) in map {
                check_generator_rules(
                    spec,
                    child,
                    format!("{pointer}/{}", escape_segment(key)),
                    problems,
                );
            }
        }
        Value::Array(items) => {
            for (index, child) in items.iter().enumerate() {
                check_generator_rules(spec, child, format!("{pointer}/{index}"), problems);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    fn problems(text: &str) -> Vec<String> {
        let spec = Spec::parse(Path::new("t.yaml"), text).expect("parses");
        validate(&spec).iter().map(ToString::to_string).collect()
    }

    const HEAD: &str = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\n";

    #[test]
    fn a_clean_spec_passes() {
        let text = format!(
            "{HEAD}paths:\n  /a:\n    get:\n      operationId: getA\n      tags: [a]\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: {{$ref: '#/components/schemas/A'}}\ncomponents:\n  schemas:\n    A: {{type: object, properties: {{b: {{$ref: '#/components/schemas/B'}}}}}}\n    B: {{type: string}}\n"
        );
        assert_eq!(problems(&text), Vec::<String>::new());
    }

    #[test]
    fn missing_operation_id_dangling_and_unused_refs_are_named() {
        let text = format!(
            "{HEAD}paths:\n  /a:\n    get:\n      tags: [a]\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: {{$ref: '#/components/schemas/Missing'}}\ncomponents:\n  schemas:\n    Unused: {{type: object, properties: {{c: {{$ref: '#/components/schemas/OnlyFromUnused'}}}}}}\n    OnlyFromUnused: {{type: string}}\n"
        );
        let found = problems(&text);
        assert!(
            found.contains(&"t.yaml#/paths/~1a/get: operation has no operationId".to_owned()),
            "{found:?}"
        );
        assert!(found.iter().any(|p| p.starts_with(
            "t.yaml#/paths/~1a/get/responses/200/content/application~1json/schema/$ref: dangling reference"
        )), "{found:?}");
        assert!(
            found.contains(
                &"t.yaml#/components/schemas/Unused: unused: nothing references it".to_owned()
            ),
            "{found:?}"
        );
        assert!(
            found.contains(
                &"t.yaml#/components/schemas/OnlyFromUnused: unused: nothing references it"
                    .to_owned()
            ),
            "{found:?}"
        );
    }

    #[test]
    fn generator_breaking_shapes_are_rejected() {
        let text = format!(
            "{HEAD}paths:\n  /a:\n    get:\n      operationId: getA\n      tags: [a]\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: {{type: object, additionalProperties: false}}\n        default:\n          description: error\n"
        );
        let found = problems(&text);
        assert!(
            found
                .iter()
                .any(|p| p.contains("/responses/default: a `default` response")),
            "{found:?}"
        );
        assert!(
            found
                .iter()
                .any(|p| p.contains("/additionalProperties: `additionalProperties: false`")),
            "{found:?}"
        );
    }
}
