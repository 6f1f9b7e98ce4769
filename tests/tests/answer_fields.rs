//! The specs are the one source of truth for what an answer holds, and nothing the
//! service sends is dropped.
//!
//! For every operation with a documented JSON answer, the inventory of its spec
//! (`hostapi_codegen::inventory`, committed as `crates/hostapi-raw-*/generated/answers.txt`)
//! lists every documented field. The test builds an answer holding all of them: the
//! documented sample where there is one (the fixtures), each field it lacks filled with a
//! value of the type its schema gives. It reads that answer as the facade's call does
//! (`hostapi::internal::decode`, serialised as the CLI's JSON output) and then, one
//! field at a time, changes the field's value to another value of its type and reads
//! again:
//!
//! - the output changes outside any `extra`: the reader **reads** the field;
//! - it changes only inside an `extra`: the field is **kept as sent**, which must be
//!   named on purpose in `hostapi::internal::unmodelled::KEPT_IN_EXTRA`;
//! - it does not change: the field is **dropped**, which is always a failure.
//!
//! Every value of every sample (documented or not) gets the same change, and must reach
//! the output one way or the other. So a field added to a spec's answer schema fails
//! this test until the facade reads it or names it.

use std::collections::BTreeMap;
use std::path::Path;

use hostapi::internal::unmodelled::{ANSWERS_NOT_READ, KEPT_IN_EXTRA, NOT_HANDED_ON};
use hostapi::internal::{Mode, OPERATIONS, decode};
use hostapi_codegen::inventory::{AnswerField, FieldKind, inventory};
use hostapi_codegen::{INTERFACES, Spec};
use hostapi_tests::SAMPLE_ANSWERS;
use serde_json::{Value, json};

/// Besides [`SAMPLE_ANSWERS`], the operations that answer the shape of another's sample
/// (an operation with neither is built from its inventory alone).
const MORE_SAMPLES: &[(&str, &str)] = &[
    // "origin(s)": one origin is a list answer too.
    ("cdn/origin_success.json", "cdn.listOrigins"),
    ("bare-metal/detail.json", "infra.updateBareMetalReference"),
    ("bare-metal/ip.json", "infra.updateBareMetalIp"),
    ("bare-metal/ip.json", "infra.updateIp"),
    (
        "bare-metal/switch_port.json",
        "infra.openBareMetalSwitchPort",
    ),
    (
        "bare-metal/switch_port.json",
        "infra.closeBareMetalSwitchPort",
    ),
    (
        "infra-rest/private_rack_ip.json",
        "infra.updatePrivateRackIp",
    ),
    ("docs/domain.json", "infra.updateDomainTtl"),
    ("docs/dns_record.json", "infra.createDnsRecord"),
    ("docs/dns_record.json", "infra.updateDnsRecord"),
    ("docs/v1_async_job.json", "infra.powerOffVirtualServer"),
    ("docs/v1_async_job.json", "infra.rebootVirtualServer"),
    ("docs/v1_async_job.json", "infra.reinstallVirtualServer"),
    ("cloud/virtual_server.json", "cloud.updateVirtualServer"),
    ("cloud/job.json", "cloud.powerOffVirtualServer"),
    ("cloud/job.json", "cloud.rebootVirtualServer"),
    ("cloud/job.json", "cloud.reinstallVirtualServer"),
    ("cdn/sub_customers.json", "cdn.upsertSubCustomer"),
    ("cdn/acl.json", "cdn.replaceAcl"),
    ("cdn/acl.json", "cdn.deleteAcl"),
    ("cdn/origin_success.json", "cdn.createOrigin"),
];

/// The documented second spellings of one member (the specs' quirk lists name them;
/// the readers take either). A field placed under one spelling takes over the value
/// under the other, as an answer carries one spelling, not both.
const SPELLINGS: &[(&str, &str)] = &[
    ("success", "succes"),
    ("rootPassword", "rootpassword"),
    ("serverName", "serverPackName"),
    ("netmask", "mask"),
    ("dataTraffic", "datatraffic"),
    ("reverseLookup", "reverseDNS"),
    ("nullRouted", "isNulled"),
    ("ignore_cache_control", "ignore_cache_refresh"),
];

/// Fields a reader checks against the call it answers (`decode` reads a sub-customer
/// write for sub-customer 7001): another value makes the answer not the call's, which
/// the reader refuses; that refusal is its reading.
const CHECKED_AGAINST_THE_CALL: &[(&str, &str)] =
    &[("cdn.upsertSubCustomer", "success.{}.{}.customer_number")];

fn other_spelling(name: &str) -> Option<&'static str> {
    SPELLINGS.iter().find_map(|(a, b)| match name {
        _ if name == *a => Some(*b),
        _ if name == *b => Some(*a),
        _ => None,
    })
}

/// The prefix `decode` gives each spec's operations.
fn prefix(spec_name: &str) -> &'static str {
    match spec_name {
        "infra-v1" => "infra",
        "cloud-v2" => "cloud",
        "cdn" => "cdn",
        other => panic!("no decode prefix for spec {other}"),
    }
}

/// Every documented answer field, by operation as `decode` names it.
fn documented() -> BTreeMap<String, Vec<AnswerField>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut by_operation: BTreeMap<String, Vec<AnswerField>> = BTreeMap::new();
    for interface in INTERFACES {
        let spec = Spec::load(&root.join(interface.spec)).expect("the spec loads");
        for field in inventory(&spec) {
            by_operation
                .entry(format!(
                    "{}.{}",
                    prefix(interface.spec_name()),
                    field.operation
                ))
                .or_default()
                .push(field);
        }
    }
    by_operation
}

/// One step of a field's path.
#[derive(Debug, Clone, PartialEq)]
enum Step {
    Key(String),
    /// The first item of an array.
    Item,
    /// The first value of an object keyed by data.
    Value,
}

fn steps(path: &str) -> Vec<Step> {
    let mut steps = Vec::new();
    for part in path.split('.').filter(|p| !p.is_empty()) {
        let (name, mut rest) = match part.find('[') {
            Some(at) => (&part[..at], &part[at..]),
            None => (part, ""),
        };
        match name {
            "" => {}
            "{}" => steps.push(Step::Value),
            key => steps.push(Step::Key(key.to_owned())),
        }
        while let Some(after) = rest.strip_prefix("[]") {
            steps.push(Step::Item);
            rest = after;
        }
    }
    steps
}

/// A value of the field's type, for a field no sample has. The specs give dates,
/// addresses and prices as plain strings (their descriptions name the form), so a text
/// takes its form from the field's name.
fn value_of(path: &str, kind: &FieldKind) -> Value {
    let name = path
        .rsplit(['.', '['])
        .find(|part| !part.is_empty() && *part != "]" && *part != "{}")
        .unwrap_or_default();
    if let Some(first) = kind.values.first() {
        return serde_json::from_str(first).expect("enum values are JSON");
    }
    let has = |t: &str| kind.types.iter().any(|k| k == t);
    if has("string") {
        let name = name.to_ascii_lowercase();
        let traffic = path.to_ascii_lowercase().contains("datatraffic");
        let text = match kind.format.as_deref() {
            _ if [
                "in",
                "out",
                "total",
                "average",
                "overusage",
                "monthlythreshold",
            ]
            .contains(&name.as_str()) =>
            {
                if traffic {
                    "12 GB"
                } else {
                    "12 Mbps"
                }
            }
            _ if name == "from" || name == "to" => "04-03-2024",
            Some("date-time") => "2024-03-04T05:06:07Z",
            Some("date") => "2024-03-04",
            _ if name.ends_with("date") || name.ends_with("at") => "2024-03-04T05:06:07",
            _ if ["ip", "gateway", "netmask", "mask", "broadcast"].contains(&name.as_str()) => {
                "192.0.2.7"
            }
            _ if name == "mac" || name.starts_with("macaddress") => "00:1a:2b:3c:4d:5e",
            _ if name.ends_with("id") => "17",
            _ if name.contains("price") => "12.50",
            _ => "marker 7",
        };
        return Value::String(text.to_owned());
    }
    if has("integer") {
        return json!(7);
    }
    if has("number") {
        return json!(2.5);
    }
    if has("boolean") {
        return json!(true);
    }
    if has("array") {
        return json!([]);
    }
    json!({"zzMarker": 7})
}

/// Makes sure the field at `steps` exists in `answer` (filling a missing one with
/// `leaf`), and answers its JSON pointer. With `replace`, a node of the wrong shape on
/// the way (an object where the path wants an array) is replaced; without, the field
/// is skipped (`None`).
fn ensure(answer: &mut Value, steps: &[Step], leaf: &Value, replace: bool) -> Option<String> {
    ensure_spelt(answer, steps, leaf, replace, replace)
}

/// [`ensure`], with `rename`: a member missing under its name but present under its
/// other spelling (`succes` for `success`) takes that value over; without, the field is
/// skipped (an answer carries one spelling).
fn ensure_spelt(
    answer: &mut Value,
    steps: &[Step],
    leaf: &Value,
    replace: bool,
    rename: bool,
) -> Option<String> {
    // The key of a new entry of an object keyed by data: an address under a member
    // named for addresses (`ipAddresses`), else a plain key.
    let new_key = |parent: Option<&Step>| match parent {
        Some(Step::Key(name)) if name.to_ascii_lowercase().contains("ip") => "192.0.2.8",
        _ => "k1",
    };
    let mut node = answer;
    let mut pointer = String::new();
    for (at, step) in steps.iter().enumerate() {
        let last = at + 1 == steps.len();
        let fresh = || match steps.get(at + 1) {
            _ if last => leaf.clone(),
            Some(Step::Item) => json!([]),
            _ => json!({}),
        };
        match step {
            Step::Key(key) => {
                if !node.is_object() {
                    if !replace && !node.is_null() {
                        return None;
                    }
                    *node = json!({});
                }
                let map = node.as_object_mut()?;
                if !map.contains_key(key)
                    && let Some(other) = other_spelling(key).filter(|o| map.contains_key(*o))
                {
                    if !rename {
                        return None;
                    }
                    let value = map.remove(other)?;
                    map.insert(key.clone(), value);
                }
                let child = map.entry(key.clone()).or_insert_with(fresh);
                if child.is_null() && !last {
                    *child = fresh();
                }
                pointer.push('/');
                pointer.push_str(&key.replace('~', "~0").replace('/', "~1"));
                node = child;
            }
            Step::Item => {
                if !node.is_array() {
                    if !replace && !node.is_null() {
                        return None;
                    }
                    *node = json!([]);
                }
                let items = node.as_array_mut()?;
                if items.is_empty() {
                    items.push(fresh());
                }
                pointer.push_str("/0");
                node = &mut items[0];
            }
            Step::Value => {
                if !node.is_object() {
                    if !replace && !node.is_null() {
                        return None;
                    }
                    *node = json!({});
                }
                let map = node.as_object_mut()?;
                // Values of another shape (the members of one port where a map of ports
                // is wanted) make way.
                let fits = |value: &Value| match steps.get(at + 1) {
                    Some(Step::Key(_) | Step::Value) => value.is_object(),
                    Some(Step::Item) => value.is_array(),
                    None => true,
                };
                if replace && !map.values().next().is_some_and(fits) {
                    map.clear();
                }
                if map.is_empty() {
                    let key = new_key(at.checked_sub(1).and_then(|i| steps.get(i)));
                    map.insert(key.to_owned(), fresh());
                }
                let (key, child) = map.iter_mut().next()?;
                pointer.push('/');
                pointer.push_str(&key.replace('~', "~0").replace('/', "~1"));
                node = child;
            }
        }
    }
    Some(pointer)
}

/// Another value of the same type: a flipped boolean, another number, a text with one
/// digit changed (so a date, an address or a size stays one), another value of a
/// closed set, or a marker object for any JSON.
fn changed(value: &Value, field: Option<&AnswerField>) -> Value {
    let kind = field.map(|f| &f.kind);
    if let Some(kind) = kind
        && kind.values.len() > 1
    {
        let values: Vec<Value> = kind
            .values
            .iter()
            .map(|v| serde_json::from_str(v).expect("enum values are JSON"))
            .collect();
        if let Some(other) = values.iter().find(|v| *v != value) {
            return other.clone();
        }
    }
    match value {
        Value::Bool(b) => Value::Bool(!b),
        Value::Number(n) => match n.as_i64() {
            Some(i) if i > 1 => json!(i - 1),
            Some(i) => json!(i + 2),
            None => json!(n.as_f64().unwrap_or(0.0) + 1.0),
        },
        Value::String(text) => Value::String(changed_text(text)),
        Value::Null => field.map(start_value).unwrap_or(json!("zz")),
        Value::Array(_) | Value::Object(_) => json!({"zzMarker": value.to_string().len()}),
    }
}

fn changed_text(text: &str) -> String {
    for (from, to) in [
        ("yes", "no"),
        ("no", "yes"),
        ("true", "false"),
        ("false", "true"),
    ] {
        if text.eq_ignore_ascii_case(from) {
            return to.to_owned();
        }
    }
    // The last digit of the first run of digits, down (up when that would leave the
    // run all zeros): "2024-01-31" → "2023-01-31", "01-01-2024" → "02-01-2024".
    let bytes = text.as_bytes();
    if let Some(start) = bytes.iter().position(u8::is_ascii_digit) {
        let end = bytes[start..]
            .iter()
            .position(|b| !b.is_ascii_digit())
            .map_or(bytes.len(), |n| start + n);
        let run = &text[start..end];
        let last = run.as_bytes()[run.len() - 1] - b'0';
        let down = last
            .checked_sub(1)
            .filter(|d| *d > 0 || run[..run.len() - 1].bytes().any(|b| b != b'0'));
        let digit = down.unwrap_or(last + 1);
        let digit = if digit > 9 { 8 } else { digit };
        return format!(
            "{}{}{}{}",
            &text[..start],
            &run[..run.len() - 1],
            digit,
            &text[end..]
        );
    }
    if text.is_empty() {
        "zz".to_owned()
    } else {
        format!("{text}z")
    }
}

/// Where two outputs differ: JSON pointers of the differing values.
fn differences(a: &Value, b: &Value, at: String, out: &mut Vec<String>) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for key in x.keys().chain(y.keys().filter(|k| !x.contains_key(*k))) {
                let next = format!("{at}/{key}");
                match (x.get(key), y.get(key)) {
                    (Some(p), Some(q)) => differences(p, q, next, out),
                    _ => out.push(next),
                }
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                differences(p, q, format!("{at}/{i}"), out);
            }
        }
        _ if a != b => out.push(at),
        _ => {}
    }
}

/// What a change of one field did to the output.
#[derive(Debug, PartialEq)]
enum Seen {
    Read,
    KeptInExtra,
    Dropped,
    Unreadable(String),
}

fn seen(operation: &str, before: &Value, after: &Value) -> Seen {
    let read = |answer: &Value| decode(operation, answer.to_string().as_bytes(), Mode::Lenient);
    let (a, b) = match (read(before), read(after)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => return Seen::Unreadable(e.to_string()),
    };
    let mut diff = Vec::new();
    differences(&a, &b, String::new(), &mut diff);
    if diff.is_empty() {
        Seen::Dropped
    } else if diff.iter().all(|d| d.split('/').any(|s| s == "extra")) {
        Seen::KeptInExtra
    } else {
        Seen::Read
    }
}

/// The value a field the sample lacks starts with.
fn start_value(field: &AnswerField) -> Value {
    value_of(&field.path, &field.kind)
}

/// The answer `operation` is tested with: its sample (or `{}`) with every documented
/// field it lacks filled in (a field of another shape than the sample's, such as the
/// object form of a list-or-object, is left for another base).
fn full_answer(sample: Option<&Value>, fields: &[AnswerField]) -> Value {
    let mut answer = sample.cloned().unwrap_or_else(|| json!({}));
    fill(&mut answer, fields);
    answer
}

/// Puts every field `answer` has a place for, and lacks, into it. A member of one
/// shape of a node that is also documented as an object keyed by data (`node.in` beside
/// `node.{}.in`: one port, or ports by name) is left out: added to a map of ports it
/// would turn it into one port.
fn fill(answer: &mut Value, fields: &[AnswerField]) {
    let maps: Vec<&str> = fields
        .iter()
        .filter_map(|f| f.path.find(".{}").map(|at| &f.path[..at]))
        .collect();
    for field in fields {
        let one_of_a_map = field
            .path
            .rsplit_once('.')
            .is_some_and(|(parent, last)| !last.starts_with("{}") && maps.contains(&parent));
        if !one_of_a_map {
            let _ = ensure(answer, &steps(&field.path), &start_value(field), false);
        }
    }
}

/// Whether a name of `NOT_HANDED_ON` (a path, covering everything under it) covers the
/// field at `path`.
fn covers(name: &str, path: &str) -> bool {
    path == name
        || path
            .strip_prefix(name)
            .is_some_and(|rest| rest.starts_with('.') || rest.starts_with('['))
}

/// Whether `NOT_HANDED_ON` names exactly this field.
fn exact_name(operation: &str, path: &str) -> bool {
    NOT_HANDED_ON
        .iter()
        .any(|(op, name, _)| *op == operation && *name == path)
}

/// Whether the value at `pointer` (concrete: `/0/_metadata/limit`) is under a path
/// `NOT_HANDED_ON` names for `operation`.
fn consumed_at(operation: &str, pointer: &str) -> bool {
    NOT_HANDED_ON
        .iter()
        .any(|(op, name, _)| *op == operation && matches_pattern(name, pointer))
}

/// Whether the concrete `pointer` is at or under the inventory path `name` (`[]` and
/// `{}` match any one step).
fn matches_pattern(name: &str, pointer: &str) -> bool {
    let concrete: Vec<&str> = pointer.split('/').filter(|s| !s.is_empty()).collect();
    let pattern = steps(name);
    pattern.len() <= concrete.len()
        && pattern
            .iter()
            .zip(&concrete)
            .all(|(step, segment)| match step {
                Step::Key(key) => key == segment,
                Step::Item => segment.parse::<usize>().is_ok(),
                Step::Value => true,
            })
}

/// A text value of a sibling whose name ends like this member's, from its last
/// capital on (`startsAt` for `endsAt`, `startDate` for `endDate`).
fn sibling_like(answer: &Value, pointer: &str) -> Option<Value> {
    let (parent, name) = pointer.rsplit_once('/')?;
    let suffix = &name[name.rfind(|c: char| c.is_ascii_uppercase())?..];
    answer
        .pointer(parent)?
        .as_object()?
        .iter()
        .find(|(key, value)| {
            key.as_str() != name
                && key.ends_with(suffix)
                && value.as_str().is_some_and(|text| !text.is_empty())
        })
        .map(|(_, value)| value.clone())
}

/// Every leaf (scalar, empty array or empty object) of a JSON value, as a pointer.
fn leaves(value: &Value, at: String, out: &mut Vec<String>) {
    match value {
        Value::Object(map) if !map.is_empty() => {
            for (key, child) in map {
                leaves(
                    child,
                    format!("{at}/{}", key.replace('~', "~0").replace('/', "~1")),
                    out,
                );
            }
        }
        Value::Array(items) if !items.is_empty() => {
            for (i, child) in items.iter().enumerate() {
                leaves(child, format!("{at}/{i}"), out);
            }
        }
        _ => out.push(at),
    }
}

fn with(answer: &Value, pointer: &str, value: Value) -> Value {
    let mut copy = answer.clone();
    if let Some(slot) = copy.pointer_mut(pointer) {
        *slot = value;
    }
    copy
}

#[test]
fn every_documented_field_is_read_or_named_and_nothing_is_dropped() {
    let documented = documented();
    let samples: BTreeMap<&str, Vec<Value>> = SAMPLE_ANSWERS.iter().chain(MORE_SAMPLES).fold(
        BTreeMap::new(),
        |mut by_operation, (file, operation)| {
            let sample = serde_json::from_str(&hostapi_tests::fixture(file))
                .unwrap_or_else(|e| panic!("{file}: {e}"));
            by_operation.entry(*operation).or_default().push(sample);
            by_operation
        },
    );
    let mut failures = Vec::new();
    let mut read = 0;
    let mut kept = 0;
    let mut consumed = 0;
    let mut checked_leaves = 0;
    for (operation, fields) in &documented {
        if ANSWERS_NOT_READ.iter().any(|(name, _)| name == operation) {
            continue;
        }
        if !OPERATIONS.contains(&operation.as_str()) {
            failures.push(format!(
                "{operation}: a documented JSON answer nothing reads (read it, or name it in ANSWERS_NOT_READ)"
            ));
            continue;
        }
        let samples: Vec<Option<&Value>> = match samples.get(operation.as_str()) {
            Some(list) => list.iter().map(Some).collect(),
            None => vec![None],
        };
        let mut bases = Vec::new();
        for (n, sample) in samples.into_iter().enumerate() {
            let answer = full_answer(sample, fields);
            match decode(operation, answer.to_string().as_bytes(), Mode::Lenient) {
                Ok(_) => bases.push(answer),
                Err(e) => failures.push(format!(
                    "{operation} (sample {n}): the answer with every documented field does not read: {e}\n{answer:#}"
                )),
            }
        }
        // Each documented field, in the first answer whose shape has a place for it
        // (else in the first, its branch of another shape put in): read, or kept in
        // `extra` and named.
        for field in fields {
            let path = steps(&field.path);
            let start = start_value(field);
            // Where the field is tried: in the first sample whose shape has a place
            // for it; else (a field of another shape, like a port map where the
            // sample lists ports) in the first sample with that node of the other
            // shape put in, bare or filled with the other fields; else in an answer of
            // the other shape built from the inventory alone (the bare form of a list a
            // sample wraps). The first place where the reader reads it counts; a field
            // no place shows read fails with the first place's outcome.
            let fill = |base: &mut Value| fill(base, fields);
            let mut places: Vec<(Value, String)> = Vec::new();
            if let Some(place) = bases.iter().find_map(|answer| {
                let mut base = answer.clone();
                ensure_spelt(&mut base, &path, &start, false, true).map(|pointer| (base, pointer))
            }) {
                places.push(place);
            } else {
                if let Some(first) = bases.first() {
                    let mut bare = first.clone();
                    if let Some(pointer) = ensure(&mut bare, &path, &start, true) {
                        let mut filled = bare.clone();
                        fill(&mut filled);
                        places.push((bare, pointer.clone()));
                        if filled.pointer(&pointer).is_some() {
                            places.push((filled, pointer));
                        }
                    }
                }
                let mut fresh = json!({});
                if ensure(&mut fresh, &path, &start, true).is_some() {
                    fill(&mut fresh);
                    if let Some(pointer) = ensure_spelt(&mut fresh, &path, &start, false, false) {
                        places.push((fresh, pointer));
                    }
                }
            }
            let outcomes: Vec<(Value, String, Value, Seen)> = places
                .into_iter()
                .map(|(base, pointer)| {
                    let current = base.pointer(&pointer).cloned().unwrap_or(Value::Null);
                    // A value the sample leaves out (null) becomes one like its
                    // sibling's (an end date like the start date beside it).
                    let other = match current {
                        Value::Null => sibling_like(&base, &pointer)
                            .unwrap_or_else(|| changed(&current, Some(field))),
                        _ => changed(&current, Some(field)),
                    };
                    let variant = with(&base, &pointer, other);
                    let seen_there = seen(operation, &base, &variant);
                    (base, pointer, current, seen_there)
                })
                .collect();
            let placed = outcomes
                .iter()
                .position(|(.., seen_there)| *seen_there == Seen::Read)
                .or((!outcomes.is_empty()).then_some(0))
                .map(|at| outcomes.into_iter().nth(at).expect("in range"));
            let Some((_, _, current, seen_there)) = placed else {
                failures.push(format!(
                    "{operation} {}: has no readable answer to be tested in",
                    field.path
                ));
                continue;
            };
            let in_extra = KEPT_IN_EXTRA
                .iter()
                .any(|(op, path, _)| op == operation && *path == field.path);
            let not_handed_on = NOT_HANDED_ON
                .iter()
                .any(|(op, path, _)| op == operation && covers(path, &field.path));
            let mut seen_now = seen_there;
            if matches!(seen_now, Seen::Unreadable(_))
                && CHECKED_AGAINST_THE_CALL
                    .iter()
                    .any(|(op, path)| *op == operation && *path == field.path)
            {
                seen_now = Seen::Read;
            }
            match (seen_now, in_extra || not_handed_on) {
                    (Seen::Read, false) => read += 1,
                    (Seen::KeptInExtra, true) if in_extra => kept += 1,
                    (Seen::Dropped, true) if not_handed_on => consumed += 1,
                    // A name covering several entries (all but the one a write answers
                    // for): the one read is read.
                    (Seen::Read, true) if !in_extra && !exact_name(operation, &field.path) => read += 1,
                    (Seen::Read | Seen::KeptInExtra, true) => failures.push(format!(
                        "{operation} {}: named in KEPT_IN_EXTRA or NOT_HANDED_ON but it is not what the list says (correct the list)",
                        field.path
                    )),
                    (Seen::KeptInExtra, false) => failures.push(format!(
                        "{operation} {} ({}): documented but only kept in `extra` (read it, or name it in KEPT_IN_EXTRA)",
                        field.path,
                        field.kind.describe()
                    )),
                    (Seen::Dropped, _) => failures.push(format!(
                        "{operation} {} ({}): dropped ({current} → changed, same output)",
                        field.path,
                        field.kind.describe()
                    )),
                    (Seen::Unreadable(e), _) => failures.push(format!(
                        "{operation} {}: the answer with it changed does not read: {e}",
                        field.path
                    )),
                }
        }
        // Each value of each answer, documented or not, reaches the output.
        for (n, answer) in bases.iter().enumerate() {
            let mut all = Vec::new();
            leaves(answer, String::new(), &mut all);
            for pointer in all {
                let current = answer.pointer(&pointer).cloned().unwrap_or(Value::Null);
                let variant = with(answer, &pointer, changed(&current, None));
                checked_leaves += 1;
                match seen(operation, answer, &variant) {
                    Seen::Read | Seen::KeptInExtra => {}
                    Seen::Dropped if consumed_at(operation, &pointer) => {}
                    Seen::Dropped => failures.push(format!(
                        "{operation} (sample {n}) {pointer}: {current} is dropped (changing it changes nothing)"
                    )),
                                        Seen::Unreadable(_)
                        if CHECKED_AGAINST_THE_CALL
                            .iter()
                            .any(|(op, path)| *op == operation && matches_pattern(path, &pointer)) => {}
                    Seen::Unreadable(e) => failures.push(format!(
                        "{operation} (sample {n}) {pointer}: changing {current} makes the answer unreadable: {e}"
                    )),
                }
            }
        }
    }
    // A name on the lists that no longer matches a documented field is stale.
    for (operation, path, _) in KEPT_IN_EXTRA.iter().chain(NOT_HANDED_ON) {
        let known = documented
            .get(*operation)
            .is_some_and(|fields| fields.iter().any(|f| covers(path, &f.path)));
        if !known {
            failures.push(format!(
                "KEPT_IN_EXTRA or NOT_HANDED_ON names {operation} {path}, which no spec documents"
            ));
        }
    }
    for (operation, _) in ANSWERS_NOT_READ {
        if !documented.contains_key(*operation) || OPERATIONS.contains(operation) {
            failures.push(format!(
                "ANSWERS_NOT_READ names {operation}, which has no documented answer or is read"
            ));
        }
    }
    println!(
        "answer fields: {read} read, {kept} kept in extra by name, {consumed} not handed on by name; {checked_leaves} sample values checked"
    );
    assert!(
        read > 300,
        "too few documented fields were checked to mean anything ({read})"
    );
    assert!(
        failures.is_empty(),
        "{} problems:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn paths_and_changes_keep_their_type() {
    assert_eq!(
        steps("a.b[][].{}.c"),
        [
            Step::Key("a".into()),
            Step::Key("b".into()),
            Step::Item,
            Step::Item,
            Step::Value,
            Step::Key("c".into())
        ]
    );
    assert_eq!(changed_text("2024-01-31"), "2023-01-31");
    assert_eq!(changed_text("01-01-2024"), "02-01-2024");
    assert_eq!(changed_text("10.0.0.1"), "11.0.0.1");
    assert_eq!(changed_text("3 year(s)"), "2 year(s)");
    assert_eq!(changed_text("Yes"), "no");
    assert_eq!(changed_text("Running"), "Runningz");
    assert!(covers("_metadata", "_metadata.limit"));
    assert!(!covers("_meta", "_metadata.limit"));
    let mut spelt = json!({"succes": {"id": 1}});
    assert_eq!(
        ensure_spelt(
            &mut spelt,
            &steps("success.label"),
            &json!("x"),
            false,
            true
        )
        .as_deref(),
        Some("/success/label")
    );
    assert_eq!(spelt, json!({"success": {"id": 1, "label": "x"}}));
    let mut answer = json!({"a": [{"b": 1}]});
    assert_eq!(
        ensure(&mut answer, &steps("a[].c"), &json!(2), false).as_deref(),
        Some("/a/0/c")
    );
    assert_eq!(answer, json!({"a": [{"b": 1, "c": 2}]}));
    assert_eq!(ensure(&mut answer, &steps("a.d"), &json!(3), false), None);
}
