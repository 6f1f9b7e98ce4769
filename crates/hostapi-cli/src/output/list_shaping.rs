//! `--filter`, `--sort` and `--limit` over a list's records.

use serde_json::Value;

use super::Shape;
use super::glob::glob;
use super::path::{lookup, values_at};
use crate::failure::Failure;

/// The records that pass `--filter`, in `--sort` order, at most `--limit` of them.
pub(super) fn shape_list(mut items: Vec<Value>, shape: &Shape) -> Result<Vec<Value>, Failure> {
    if !shape.filters.is_empty() {
        items.retain(|item| passes_filters(item, &shape.filters));
    }
    if let Some(sort) = &shape.sort {
        let (field, descending) = match sort.strip_prefix('-') {
            Some(field) => (field, true),
            None => (sort.as_str(), false),
        };
        let key = |item: &Value| lookup(item, field);
        items.sort_by(|a, b| {
            let (a, b) = (key(a), key(b));
            let order = match (a.parse::<f64>(), b.parse::<f64>()) {
                (Ok(x), Ok(y)) => x.partial_cmp(&y).unwrap_or(std::cmp::Ordering::Equal),
                _ => match (a.is_empty(), b.is_empty()) {
                    // Records without the field go last either way.
                    (true, false) => return std::cmp::Ordering::Greater,
                    (false, true) => return std::cmp::Ordering::Less,
                    _ => a.to_lowercase().cmp(&b.to_lowercase()),
                },
            };
            if descending { order.reverse() } else { order }
        });
    }
    if let Some(limit) = shape.limit {
        items.truncate(limit);
    }
    Ok(items)
}

/// Whether a record passes every `--filter FIELD=GLOB`.
pub(super) fn passes_filters(item: &Value, filters: &[(String, String)]) -> bool {
    filters.iter().all(|(field, pattern)| {
        values_at(item, field)
            .iter()
            .any(|value| glob(&pattern.to_lowercase(), &value.to_lowercase()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_are_filtered_sorted_and_limited() {
        let items = vec![
            serde_json::json!({"id": "2", "state": "running", "ips": [{"ip": "10.0.0.2"}]}),
            serde_json::json!({"id": "10", "state": "stopped", "ips": [{"ip": "10.0.1.1"}]}),
            serde_json::json!({"id": "1", "state": "Running", "ips": []}),
        ];
        let shape = |filters: &[(&str, &str)], sort: Option<&str>, limit| Shape {
            filters: filters
                .iter()
                .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
                .collect(),
            sort: sort.map(str::to_owned),
            limit,
            ..Shape::default()
        };
        let ids = |items: Vec<Value>| items.iter().map(|i| lookup(i, "id")).collect::<Vec<_>>();
        assert_eq!(
            ids(shape_list(items.clone(), &shape(&[("state", "running")], None, None)).unwrap()),
            ["2", "1"]
        );
        assert_eq!(
            ids(shape_list(
                items.clone(),
                &shape(&[("ips[].ip", "10.0.1.*")], None, None)
            )
            .unwrap()),
            ["10"]
        );
        assert_eq!(
            ids(shape_list(items.clone(), &shape(&[], Some("id"), None)).unwrap()),
            ["1", "2", "10"]
        );
        assert_eq!(
            ids(shape_list(items.clone(), &shape(&[], Some("-id"), Some(2))).unwrap()),
            ["10", "2"]
        );
        assert!(glob("web-*", "web-12"));
        assert!(glob("?b*", "abc"));
        assert!(!glob("web-?", "web-12"));
    }
}
