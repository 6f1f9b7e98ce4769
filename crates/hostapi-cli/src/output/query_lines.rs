//! What `--query` prints: one line per result, strings bare and everything else as
//! compact JSON (as `gh --jq` and `jq -r`), so `for id in $(… --query '.[].id')` gets
//! ids, not quoted strings. `-o json` and `-o yaml`, when asked for, print documents
//! in that format instead.

use serde_json::Value;

use super::Printer;
use super::emit::{emit, emit_json, emit_yaml, serialise_failure};
use crate::cli::OutputFormat;
use crate::failure::Failure;
use crate::untrusted;

impl Printer {
    /// Prints what the jq filter `query` makes of `json`.
    pub(super) fn query_out(&self, query: &str, json: &Value) -> Result<(), Failure> {
        let values = crate::query::run(query, json)?;
        match self.format {
            OutputFormat::Json if self.format_chosen => values.iter().try_for_each(emit_json),
            OutputFormat::Yaml if self.format_chosen => values.iter().try_for_each(emit_yaml),
            _ => values
                .iter()
                .try_for_each(|value| emit(&query_line(value)?)),
        }
    }
}

/// One result of `--query` as a line: a string as it is (its control characters
/// escaped: [`untrusted::line`]), any other value as compact JSON.
fn query_line(value: &Value) -> Result<String, Failure> {
    match value {
        Value::String(text) => Ok(untrusted::line(text).into_owned()),
        other => Ok(untrusted::json_text(
            serde_json::to_string(other).map_err(serialise_failure)?,
        )),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn strings_are_bare_and_the_rest_compact_json() {
        let line = |value: Value| query_line(&value).unwrap();
        assert_eq!(line(json!("e620176a-34dc")), "e620176a-34dc");
        assert_eq!(line(json!("two\nlines\u{1b}[2J")), "two\\nlines\\x1b[2J");
        assert_eq!(line(json!(42)), "42");
        assert_eq!(line(json!(null)), "null");
        assert_eq!(line(json!(true)), "true");
        assert_eq!(line(json!(["a", 1])), r#"["a",1]"#);
        assert_eq!(
            line(json!({"id": "1", "name": "web\u{202e}"})),
            r#"{"id":"1","name":"web\u202e"}"#
        );
    }
}
