//! The text of a JSON value in a table cell: scalars, quantities, lists, and a
//! record flattened to (field, value) rows.

use hostapi::{types::DataUnit, types::RateUnit};
use serde_json::Value;

use crate::untrusted;

/// The text of one value for a table cell, its control characters escaped
/// ([`untrusted::line`]).
pub(crate) fn scalar(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(s) => untrusted::line(s).into_owned(),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => if *b { "yes" } else { "no" }.to_owned(),
        Value::Array(items) => items.iter().map(scalar).collect::<Vec<_>>().join(", "),
        Value::Object(map) if is_quantity(map) => {
            let unit = map.get("unit").or_else(|| map.get("currency"));
            match unit {
                Some(unit) => format!("{} {}", scalar(&map["amount"]), unit_text(&scalar(unit))),
                None => scalar(&map["amount"]),
            }
        }
        // A record in a cell reads as what names it (an IP's address, an option's
        // name), else as its JSON.
        Value::Object(map) => ["ip", "id", "name", "url", "mac", "value"]
            .iter()
            .find_map(|key| map.get(*key).filter(|v| !v.is_null() && !v.is_object()))
            .map_or_else(|| untrusted::line(&value.to_string()).into_owned(), scalar),
    }
}

/// A unit as people write it: units serialise as words (`megabits_per_second`), and
/// read in a table as the API writes them (`Mbps`). A unit the SDK does not name, or a
/// currency, stays as it is.
fn unit_text(unit: &str) -> String {
    let data = DataUnit::from_wire(unit);
    if !data.is_unknown() {
        return data.as_wire().to_owned();
    }
    let rate = RateUnit::from_wire(unit);
    if !rate.is_unknown() {
        return rate.as_wire().to_owned();
    }
    unit.to_owned()
}

/// Whether an object is a quantity (`{amount, unit}`) or money (`{amount,
/// currency}`), which read as one value: `5000 GB`.
fn is_quantity(map: &serde_json::Map<String, Value>) -> bool {
    map.contains_key("amount")
        && map
            .keys()
            .all(|k| matches!(k.as_str(), "amount" | "unit" | "currency"))
}

/// Whether a value fills one table cell: a scalar, a quantity, or a list of scalars.
fn reads_as_one(value: &Value) -> bool {
    match value {
        Value::Object(map) => is_quantity(map),
        Value::Array(items) => !items.iter().any(|i| i.is_object() || i.is_array()),
        _ => true,
    }
}

/// Flattens a record into (dotted key, text) rows for a two-column table.
pub(super) fn flatten(value: &Value, prefix: String, rows: &mut Vec<(String, String)>) {
    match value {
        Value::Object(map) if !is_quantity(map) => {
            // A record's own values first (id, name…), then its parts.
            let (plain, nested): (Vec<_>, Vec<_>) =
                map.iter().partition(|(_, child)| reads_as_one(child));
            for (key, child) in plain.into_iter().chain(nested) {
                let key = untrusted::line(key);
                let name = if prefix.is_empty() {
                    key.into_owned()
                } else {
                    format!("{prefix}.{key}")
                };
                flatten(child, name, rows);
            }
        }
        Value::Array(items) if items.iter().any(|i| i.is_object() || i.is_array()) => {
            for (index, child) in items.iter().enumerate() {
                flatten(child, format!("{prefix}[{index}]"), rows);
            }
        }
        Value::Null => {}
        other => rows.push((prefix, scalar(other))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::path::lookup;

    #[test]
    fn quantities_read_as_one_value() {
        let value = serde_json::json!({"limit": {"amount": "5000", "unit": "gigabytes"}, "price": {"amount": "1.50"}});
        assert_eq!(lookup(&value, "limit"), "5000 GB");
        let rate = serde_json::json!({"amount": "11", "unit": "megabits_per_second"});
        assert_eq!(scalar(&rate), "11 Mbps");
        let money = serde_json::json!({"amount": "9.99", "currency": "EUR"});
        assert_eq!(scalar(&money), "9.99 EUR");
        let odd = serde_json::json!({"amount": "3", "unit": "parsecs"});
        assert_eq!(scalar(&odd), "3 parsecs");
        let mut rows = Vec::new();
        flatten(&value, String::new(), &mut rows);
        assert_eq!(
            rows,
            [
                ("limit".into(), "5000 GB".into()),
                ("price".into(), "1.50".into())
            ]
        );
    }

    #[test]
    fn records_flatten_to_dotted_rows_own_values_first() {
        let value = serde_json::json!({"a": {"b": 1}, "list": [{"x": 1}], "tags": ["p", "q"], "none": null, "z": 2});
        let mut rows = Vec::new();
        flatten(&value, String::new(), &mut rows);
        assert_eq!(
            rows,
            [
                ("tags".into(), "p, q".into()),
                ("z".into(), "2".into()),
                ("a.b".into(), "1".into()),
                ("list[0].x".into(), "1".into()),
            ]
        );
    }
}
