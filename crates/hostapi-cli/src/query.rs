//! `--query`: a jq filter (run by jaq, the Rust implementation of jq) over the JSON a
//! command prints, as `gh --jq` does.

use jaq_core::load::{Arena, File, Loader};
use jaq_core::{Compiler, Ctx, Vars, data, unwrap_valr};
use jaq_json::Val;
use serde_json::Value;

use crate::failure::Failure;

/// Runs the jq filter `code` over `input`: every value it outputs, in order.
pub(crate) fn run(code: &str, input: &Value) -> Result<Vec<Value>, Failure> {
    let refused = |what: String| {
        Failure::usage(format!("--query `{code}` {what}"))
            .hint("write a jq filter, e.g. --query '.[] | select(.state == \"running\") | .id'")
    };
    let defs = jaq_core::defs()
        .chain(jaq_std::defs())
        .chain(jaq_json::defs());
    let funs = jaq_core::funs()
        .chain(jaq_std::funs())
        .chain(jaq_json::funs());
    let loader = Loader::new(defs);
    let arena = Arena::default();
    let modules = loader
        .load(&arena, File { code, path: () })
        .map_err(|errors| refused(format!("cannot be read as jq ({} errors)", errors.len())))?;
    let filter = Compiler::default()
        .with_funs(funs)
        .compile(modules)
        .map_err(|errors| {
            let names: Vec<String> = errors
                .iter()
                .flat_map(|(_, errs)| errs.iter().map(|(name, _)| format!("`{name}`")))
                .collect();
            refused(format!("names what jq does not know: {}", names.join(", ")))
        })?;
    let text = serde_json::to_string(input)
        .map_err(|e| Failure::new(crate::failure::API, format!("cannot serialise: {e}")))?;
    let input = jaq_json::read::parse_single(text.as_bytes())
        .map_err(|e| Failure::new(crate::failure::API, format!("cannot read the JSON: {e}")))?;
    let ctx = Ctx::<data::JustLut<Val>>::new(&filter.lut, Vars::new([]));
    let mut out = Vec::new();
    for value in filter.id.run((ctx, input)).map(unwrap_valr) {
        let value = value.map_err(|e| refused(format!("failed: {e}")))?;
        let value = serde_json::from_str(&value.to_string())
            .map_err(|e| refused(format!("gave a value that is not JSON: {e}")))?;
        out.push(value);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn jq_filters_run_over_the_json() {
        let input = json!([{"id": "1", "state": "running"}, {"id": "2", "state": "stopped"}]);
        assert_eq!(
            run(".[] | select(.state == \"running\") | .id", &input).unwrap(),
            [json!("1")]
        );
        assert_eq!(run("map(.id)", &input).unwrap(), [json!(["1", "2"])]);
        assert_eq!(run("length", &input).unwrap(), [json!(2)]);
        assert_eq!(
            run("sort_by(.state) | reverse | .[0].id", &input).unwrap(),
            [json!("2")]
        );
        assert_eq!(
            run("[.[] | .id | test(\"1\")]", &input).unwrap(),
            [json!([true, false])]
        );
        assert_eq!(run(".[", &input).unwrap_err().code, crate::failure::USAGE);
        assert_eq!(
            run("nosuchfilter", &input).unwrap_err().code,
            crate::failure::USAGE
        );
    }
}
