//! Which spec operations a run called, from the simulator's request counters.
//!
//! The simulator counts requests by operation name, `"<METHOD> <path template>"`
//! (`"GET /v1/bareMetals/{bareMetalId}"`; CDN paths without the `/cdn` prefix and
//! without the trailing `/{timestamp}/{signature}`). The expected names come from the
//! specs' `paths`. Both sides are compared with path parameter names erased (`{}`), so
//! the check does not depend on the two readings naming parameters alike.

use std::collections::BTreeSet;
use std::path::Path;

use hostapi_sim::Stats;
use serde_json::Value;

/// The specs and how many operations each holds (57 + 11 + 12).
const SPECS: [(&str, usize); 3] = [
    ("infra-v1.yaml", 57),
    ("cloud-v2.yaml", 11),
    ("cdn.yaml", 12),
];

/// The signature segments every CDN path ends with; not part of the resource path.
const CDN_SIGNATURE_SUFFIX: &str = "/{timestamp}/{signature}";

const METHODS: [&str; 5] = ["get", "put", "post", "delete", "patch"];

/// `"GET /v1/domains/{domainname}"` → `"GET /v1/domains/{}"`.
fn erase_parameter_names(operation: &str) -> String {
    let mut out = String::with_capacity(operation.len());
    let mut in_parameter = false;
    for c in operation.chars() {
        match c {
            '{' => {
                in_parameter = true;
                out.push_str("{}");
            }
            '}' => in_parameter = false,
            _ if in_parameter => {}
            _ => out.push(c),
        }
    }
    out
}

/// Every operation of the three specs but their alias paths, as `"<METHOD> <path>"`
/// with parameter names erased.
fn spec_operations() -> BTreeSet<String> {
    let mut all = BTreeSet::new();
    for (file, expected) in SPECS {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../spec")
            .join(file);
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let doc: Value =
            serde_yaml_ng::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let paths = doc["paths"]
            .as_object()
            .unwrap_or_else(|| panic!("{file}: no paths"));
        let mut count = 0;
        for (template, item) in paths {
            let resource = template
                .strip_suffix(CDN_SIGNATURE_SUFFIX)
                .unwrap_or(template);
            // An alias path the documents mention (`x-hostapi-alias-of`) is the same
            // operation under another path: the facade calls the documented one.
            let documented = |m: &&&str| {
                item.get(**m)
                    .is_some_and(|op| op.get("x-hostapi-alias-of").is_none())
            };
            for method in METHODS.iter().filter(documented) {
                count += 1;
                let name = format!("{} {resource}", method.to_uppercase());
                assert!(
                    all.insert(erase_parameter_names(&name)),
                    "{file}: {name} twice"
                );
            }
        }
        assert_eq!(count, expected, "{file}: operations");
    }
    all
}

/// Fails naming every spec operation the run did not call, and every operation the
/// simulator ran that no spec has.
pub(crate) fn assert_every_operation_ran(stats: &Stats) {
    let expected = spec_operations();
    let ran: BTreeSet<String> = stats
        .operations
        .iter()
        .filter(|(_, count)| **count > 0)
        .map(|(name, _)| erase_parameter_names(name))
        .collect();
    let missed: Vec<&String> = expected.difference(&ran).collect();
    let unknown: Vec<&String> = ran.difference(&expected).collect();
    assert!(
        missed.is_empty() && unknown.is_empty(),
        "spec operations never called: {missed:#?}\noperations the specs lack: {unknown:#?}"
    );
    assert_eq!(expected.len(), 80);
}

#[test]
fn parameter_names_are_erased() {
    assert_eq!(
        erase_parameter_names("GET /v1/domains/{domainname}/dnsRecords/{recordId}"),
        "GET /v1/domains/{}/dnsRecords/{}"
    );
    assert_eq!(erase_parameter_names("GET /v1/domains"), "GET /v1/domains");
}

#[test]
fn the_specs_hold_eighty_operations() {
    assert_eq!(spec_operations().len(), 80);
}
