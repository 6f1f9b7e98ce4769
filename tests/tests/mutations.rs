//! The mutation suite: every sample answer, rewritten in each way the wire
//! policy allows the service to write the same information, must still be read.
//!
//! From each sample (the fixtures, and the answers transcribed from the documents in
//! `fixtures/docs`) it makes variants:
//!
//! - **type flips**: each number as text and each numeric text as a number (ids
//!   included), each boolean as `"true"`, `1`, `"1"`, `"Yes"` (and back), in other
//!   letter cases. A flip must read exactly as the original ("identical"), or, for a
//!   value the model keeps uninterpreted (in `extra`, or an opaque record), show the
//!   flipped value where the original was ("kept as sent"). Anything else is a failure.
//! - **nothing**: each member but a record's identity set to `null`, to `""`, and left
//!   out. Each must be read.
//! - **unknown fields**: a new member in every object; it must be read and kept.
//! - **open sets**: each word-like text (letters, digits, `_` and inner spaces) in other
//!   letter cases, every copy of it in the sample alike (read identically, or kept as
//!   sent for text fields), and replaced by a value no document names (read, and kept).
//!
//! The counts are printed (`cargo test --test mutations -- --nocapture`).

use hostapi::internal::{Mode, decode};
use hostapi_tests::SAMPLE_ANSWERS;
use serde_json::Value;

/// Answers the facade returns uninterpreted (the documents do not describe them): a
/// flip there is kept as sent, never "read the same".
const OPAQUE: &[&str] = &["infra.listServices", "infra.getPrivateRackNetworkUsage"];

/// Members that identify a record (or hold the record in its wrapper): a record that
/// loses one cannot be read, by design, so they are not nulled.
const IDENTITY: &[&str] = &[
    "id",
    "Id",
    "bareMetalId",
    "privateRackId",
    "domain",
    "ip",
    "mac",
    "customer_number",
    "username",
    "jobid",
    "index",
    "timestamp",
    "value",
    "success",
    "succes",
    "bareMetal",
    "dnsRecord",
    "privateRack",
    "operatingSystem",
    "controlPanel",
    "rescueImage",
    "partitionSchema",
    "switchPort",
    "powerStatus",
    "installationStatus",
    "asyncjob",
    "bandwidth",
    "datatraffic",
    "C123456",
    "virtualServers",
];

#[derive(Default, Debug)]
struct Counts {
    flips_identical: usize,
    flips_kept: Vec<String>,
    flips_different: Vec<String>,
    nothing_read: usize,
    nothing_failed: Vec<String>,
    unknown_kept: usize,
    unknown_dropped: Vec<String>,
    unknown_failed: Vec<String>,
    cases_identical: usize,
    cases_kept: usize,
    cases_different: Vec<String>,
    new_values_kept: usize,
    new_values_failed: Vec<String>,
}

#[test]
fn every_spelling_of_every_sample_reads() {
    let mut counts = Counts::default();
    for (file, operation) in SAMPLE_ANSWERS {
        let text = hostapi_tests::fixture(file);
        let original: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
        let baseline = read(operation, &original)
            .unwrap_or_else(|e| panic!("{file} does not read as {operation}: {e}"));
        let opaque = OPAQUE.contains(operation);
        let mut paths = Vec::new();
        collect(&original, &mut Vec::new(), &mut paths);
        for (path, node) in &paths {
            let at = format!("{file} {}", pointer(path));
            // Type flips.
            for flipped in flips(node) {
                let variant = replaced(&original, path, flipped.clone());
                match compare(operation, &variant, &baseline, node, &flipped) {
                    Outcome::Identical if !opaque => counts.flips_identical += 1,
                    Outcome::Identical | Outcome::Kept => {
                        counts.flips_kept.push(format!("{at}: {node} → {flipped}"))
                    }
                    Outcome::Different(why) => counts
                        .flips_different
                        .push(format!("{at}: {node} → {flipped}: {why}")),
                }
            }
            // Letter case and values no document names, for word-like texts.
            if let Value::String(word) = node
                && is_word(word)
            {
                for cased in [word.to_lowercase(), word.to_uppercase()] {
                    if &cased == word {
                        continue;
                    }
                    let cased = Value::String(cased);
                    // A service that writes a value in another letter case writes
                    // every copy of it so: a record that repeats it (a hosting pack
                    // repeating its server's type) keeps a copy that disagrees.
                    let variant = replaced_everywhere(&original, node, &cased);
                    match compare(operation, &variant, &baseline, node, &cased) {
                        Outcome::Identical => counts.cases_identical += 1,
                        Outcome::Kept => counts.cases_kept += 1,
                        Outcome::Different(why) => counts
                            .cases_different
                            .push(format!("{at}: {node} → {cased}: {why}")),
                    }
                }
                if !is_identity(path) {
                    let variant = replaced(&original, path, Value::String("ZZ_NEW_VALUE".into()));
                    match read(operation, &variant) {
                        Ok(out) if out.to_string().to_lowercase().contains("zz_new_value") => {
                            counts.new_values_kept += 1
                        }
                        Ok(_) => counts
                            .new_values_failed
                            .push(format!("{at}: ZZ_NEW_VALUE not kept")),
                        Err(e) => counts
                            .new_values_failed
                            .push(format!("{at}: ZZ_NEW_VALUE: {e}")),
                    }
                }
            }
            // Nothing, in its three spellings, for every member but an identity.
            if is_member(path) && !is_identity(path) {
                for (name, variant) in [
                    ("null", replaced(&original, path, Value::Null)),
                    (
                        "\"\"",
                        replaced(&original, path, Value::String(String::new())),
                    ),
                    ("absent", removed(&original, path)),
                ] {
                    match read(operation, &variant) {
                        Ok(_) => counts.nothing_read += 1,
                        Err(e) => counts.nothing_failed.push(format!("{at} as {name}: {e}")),
                    }
                }
            }
            // An unknown member in every object (not in maps keyed by data, where a
            // member is a record).
            if let Value::Object(map) = node
                && !keyed_by_data(map)
            {
                let variant = inserted(
                    &original,
                    path,
                    "zzNewField",
                    serde_json::json!({"kept": [1, "x"]}),
                );
                match read(operation, &variant) {
                    Ok(out) if out.to_string().contains("zzNewField") => counts.unknown_kept += 1,
                    Ok(_) => counts.unknown_dropped.push(at.clone()),
                    Err(e) => counts.unknown_failed.push(format!("{at}: {e}")),
                }
            }
        }
    }
    report(&counts);
    let flips = counts.flips_identical + counts.flips_kept.len() + counts.flips_different.len();
    let rest_total = counts.nothing_read
        + counts.nothing_failed.len()
        + counts.unknown_kept
        + counts.unknown_dropped.len()
        + counts.unknown_failed.len()
        + counts.cases_identical
        + counts.cases_kept
        + counts.cases_different.len()
        + counts.new_values_kept
        + counts.new_values_failed.len();
    let rest_read = counts.nothing_read
        + counts.unknown_kept
        + counts.unknown_dropped.len()
        + counts.cases_identical
        + counts.cases_kept
        + counts.new_values_kept;
    assert!(
        flips > 500,
        "the suite made too few flips to mean anything ({flips})"
    );
    assert!(
        counts.flips_different.is_empty(),
        "{} of {flips} type flips did not read the same:\n{}",
        counts.flips_different.len(),
        counts.flips_different.join("\n")
    );
    assert!(
        rest_read * 100 >= rest_total * 99,
        "only {rest_read} of {rest_total} other variants were read"
    );
    assert!(
        counts.unknown_dropped.is_empty() && counts.cases_different.is_empty(),
        "unknown members dropped: {:#?}\nletter cases read differently: {:#?}",
        counts.unknown_dropped,
        counts.cases_different
    );
}

fn report(counts: &Counts) {
    let flips = counts.flips_identical + counts.flips_kept.len() + counts.flips_different.len();
    println!("mutation suite ({} samples):", SAMPLE_ANSWERS.len());
    println!(
        "  type flips:        {flips} ({} identical, {} kept as sent in uninterpreted fields, {} different)",
        counts.flips_identical,
        counts.flips_kept.len(),
        counts.flips_different.len()
    );
    for kept in &counts.flips_kept {
        println!("    kept as sent: {kept}");
    }
    let nothing = counts.nothing_read + counts.nothing_failed.len();
    println!(
        "  null/\"\"/absent:     {} of {nothing} read ({:.2} %)",
        counts.nothing_read,
        percent(counts.nothing_read, nothing)
    );
    let unknown = counts.unknown_kept + counts.unknown_dropped.len() + counts.unknown_failed.len();
    println!(
        "  unknown members:   {} of {unknown} read and kept, {} dropped, {} not read",
        counts.unknown_kept,
        counts.unknown_dropped.len(),
        counts.unknown_failed.len()
    );
    let cases = counts.cases_identical + counts.cases_kept + counts.cases_different.len();
    println!(
        "  letter cases:      {cases} ({} identical, {} text kept as sent, {} different)",
        counts.cases_identical,
        counts.cases_kept,
        counts.cases_different.len()
    );
    let new = counts.new_values_kept + counts.new_values_failed.len();
    println!(
        "  undocumented values: {} of {new} read and kept",
        counts.new_values_kept
    );
    for failure in counts
        .nothing_failed
        .iter()
        .chain(&counts.unknown_failed)
        .chain(&counts.new_values_failed)
    {
        println!("    not read: {failure}");
    }
}

fn percent(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        100.0
    } else {
        part as f64 * 100.0 / whole as f64
    }
}

fn read(operation: &str, value: &Value) -> Result<Value, hostapi::Error> {
    decode(operation, value.to_string().as_bytes(), Mode::Lenient)
}

enum Outcome {
    Identical,
    Kept,
    Different(String),
}

/// How a variant (one scalar `from` rewritten as `to`) reads against the baseline.
fn compare(
    operation: &str,
    variant: &Value,
    baseline: &Value,
    from: &Value,
    to: &Value,
) -> Outcome {
    let out = match read(operation, variant) {
        Ok(out) => out,
        Err(e) => return Outcome::Different(format!("not read: {e}")),
    };
    if &out == baseline {
        return Outcome::Identical;
    }
    let mut changes = Vec::new();
    diff(baseline, &out, &mut String::new(), &mut changes);
    if !changes.is_empty() && changes.iter().all(|(_, a, b)| a == from && b == to) {
        Outcome::Kept
    } else {
        Outcome::Different(
            changes
                .iter()
                .take(3)
                .map(|(p, a, b)| format!("{p}: {a} vs {b}"))
                .collect::<Vec<_>>()
                .join("; "),
        )
    }
}

/// The leaves where `a` and `b` differ (a missing side is `null`).
fn diff(a: &Value, b: &Value, path: &mut String, out: &mut Vec<(String, Value, Value)>) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: std::collections::BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            for key in keys {
                let mark = path.len();
                path.push('.');
                path.push_str(key);
                diff(
                    x.get(key).unwrap_or(&Value::Null),
                    y.get(key).unwrap_or(&Value::Null),
                    path,
                    out,
                );
                path.truncate(mark);
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                let mark = path.len();
                path.push_str(&format!("[{i}]"));
                diff(p, q, path, out);
                path.truncate(mark);
            }
        }
        (x, y) if x != y => out.push((path.clone(), x.clone(), y.clone())),
        _ => {}
    }
}

#[derive(Clone, Debug)]
enum Step {
    Key(String),
    Index(usize),
}

fn pointer(path: &[Step]) -> String {
    path.iter()
        .map(|s| match s {
            Step::Key(k) => format!(".{k}"),
            Step::Index(i) => format!("[{i}]"),
        })
        .collect()
}

/// Every node below the root, with its path.
fn collect(value: &Value, path: &mut Vec<Step>, out: &mut Vec<(Vec<Step>, Value)>) {
    out.push((path.clone(), value.clone()));
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                path.push(Step::Key(k.clone()));
                collect(v, path, out);
                path.pop();
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                path.push(Step::Index(i));
                collect(v, path, out);
                path.pop();
            }
        }
        _ => {}
    }
}

fn is_member(path: &[Step]) -> bool {
    matches!(path.last(), Some(Step::Key(_)))
}

fn is_identity(path: &[Step]) -> bool {
    matches!(path.last(), Some(Step::Key(k)) if IDENTITY.contains(&k.as_str()))
        // A member keyed by data (an IP, a port, a group) is the record's place, not a
        // field: nulling it removes the record.
        || matches!(path.last(), Some(Step::Key(k)) if k.parse::<std::net::IpAddr>().is_ok() || k.parse::<u64>().is_ok())
}

/// A text that could be a value of an open set: a word. Not a boolean, and not a unit
/// symbol, whose letter case carries meaning (`Gb` is not `GB`).
/// Whether an object's keys are data (customer numbers, indexes, IPs, ports), as in
/// `{<customer_number>: ACL}`: a member there is a record, not a field.
fn keyed_by_data(map: &serde_json::Map<String, Value>) -> bool {
    !map.is_empty()
        && map.keys().all(|k| {
            k.parse::<u64>().is_ok()
                || k.parse::<std::net::IpAddr>().is_ok()
                || (k.len() > 1 && k.starts_with('C') && k[1..].chars().all(|c| c.is_ascii_digit()))
        })
}

fn is_word(text: &str) -> bool {
    let unit = text.len() <= 5 && (text.ends_with(['b', 'B']) || text.ends_with("ps"));
    text.len() >= 2
        && !unit
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | ' '))
        && text.starts_with(|c: char| c.is_ascii_alphabetic())
        && text.trim() == text
        && !matches!(
            text.to_ascii_lowercase().as_str(),
            "true" | "false" | "yes" | "no"
        )
}

/// The ways the wire policy lets the service write this scalar.
fn flips(node: &Value) -> Vec<Value> {
    let bool_forms = |b: bool| {
        let (word, digit, yes, upper) = if b {
            ("true", 1, "Yes", "TRUE")
        } else {
            ("false", 0, "No", "FALSE")
        };
        vec![
            Value::String(word.into()),
            Value::from(digit),
            Value::String(digit.to_string()),
            Value::String(yes.into()),
            Value::String(upper.into()),
        ]
    };
    match node {
        Value::Number(n) => vec![Value::String(n.to_string())],
        Value::Bool(b) => bool_forms(*b),
        Value::String(s) => {
            let lower = s.to_ascii_lowercase();
            if matches!(lower.as_str(), "true" | "yes") {
                let mut forms = bool_forms(true);
                forms.insert(0, Value::Bool(true));
                forms.retain(|f| f != node);
                return forms;
            }
            if matches!(lower.as_str(), "false" | "no") {
                let mut forms = bool_forms(false);
                forms.insert(0, Value::Bool(false));
                forms.retain(|f| f != node);
                return forms;
            }
            // A number written as text, when writing it as a number says exactly the
            // same (not "0042" or "1.50", whose text is more than the number).
            match serde_json::from_str::<serde_json::Number>(s) {
                Ok(n) if n.to_string() == *s => vec![Value::Number(n)],
                _ => Vec::new(),
            }
        }
        _ => Vec::new(),
    }
}

fn replaced(root: &Value, path: &[Step], with: Value) -> Value {
    let mut copy = root.clone();
    *at(&mut copy, path) = with;
    copy
}

/// `root` with every value equal to `from` replaced by `to`.
fn replaced_everywhere(root: &Value, from: &Value, to: &Value) -> Value {
    match root {
        value if value == from => to.clone(),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), replaced_everywhere(v, from, to)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(
            items
                .iter()
                .map(|v| replaced_everywhere(v, from, to))
                .collect(),
        ),
        other => other.clone(),
    }
}

fn removed(root: &Value, path: &[Step]) -> Value {
    let mut copy = root.clone();
    if let (Some(Step::Key(key)), Some(parent)) = (path.last(), path.len().checked_sub(1))
        && let Value::Object(map) = at(&mut copy, &path[..parent])
    {
        map.remove(key);
    }
    copy
}

fn inserted(root: &Value, path: &[Step], key: &str, value: Value) -> Value {
    let mut copy = root.clone();
    if let Value::Object(map) = at(&mut copy, path) {
        map.insert(key.to_owned(), value);
    }
    copy
}

fn at<'v>(root: &'v mut Value, path: &[Step]) -> &'v mut Value {
    let mut node = root;
    for step in path {
        node = match (step, node) {
            (Step::Key(k), Value::Object(map)) => map.get_mut(k).expect("path exists"),
            (Step::Index(i), Value::Array(items)) => &mut items[*i],
            _ => panic!("path does not match"),
        };
    }
    node
}
