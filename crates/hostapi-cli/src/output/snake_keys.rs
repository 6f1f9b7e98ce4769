//! Snake-case keys for records the SDK keeps as the service sent them.

use serde_json::Value;

/// A record the SDK keeps as the service sent it (services, rack usage), with its
/// keys in snake case like every other record: `totalCount` → `total_count`.
pub(crate) fn snake_keys(value: Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(key, value)| (snake_case(&key), snake_keys(value)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(snake_keys).collect()),
        other => other,
    }
}

/// `monthlyPrice` → `monthly_price`, `SLA` → `sla`, `ipAddresses` → `ip_addresses`.
fn snake_case(key: &str) -> String {
    let chars: Vec<char> = key.chars().collect();
    let mut out = String::with_capacity(key.len() + 4);
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_uppercase() {
            let after_lower =
                i > 0 && (chars[i - 1].is_ascii_lowercase() || chars[i - 1].is_ascii_digit());
            let ends_acronym = i > 0
                && chars[i - 1].is_ascii_uppercase()
                && chars.get(i + 1).is_some_and(char::is_ascii_lowercase);
            if (after_lower || ends_acronym) && !out.ends_with('_') {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else if c == '-' || c == ' ' {
            out.push('_');
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opaque_keys_become_snake_case() {
        assert_eq!(snake_case("monthlyPrice"), "monthly_price");
        assert_eq!(snake_case("SLA"), "sla");
        assert_eq!(snake_case("totalCount"), "total_count");
        assert_eq!(snake_case("bareMetalID"), "bare_metal_id");
        assert_eq!(snake_case("IPAddresses"), "ip_addresses");
        assert_eq!(snake_case("already_snake"), "already_snake");
        let value = serde_json::json!({"services": [{"startDate": "x"}]});
        assert_eq!(
            snake_keys(value),
            serde_json::json!({"services": [{"start_date": "x"}]})
        );
    }
}
