//! Printing results: the SDK's JSON serialisation (`--output json`, stdout carries that
//! and nothing else) or aligned tables built from that same serialisation, so the two
//! never disagree. Secrets print as `[REDACTED]` unless `--show-secrets`.

use std::io::{IsTerminal, Write};

use comfy_table::{Attribute, Cell, Color, ContentArrangement, Table, presets};
use hostapi::{DataUnit, Listing, RateUnit};
use serde::Serialize;
use serde_json::Value;

use crate::cli::OutputFormat;
use crate::failure::Failure;

/// One column of a list table: its header and where its value sits in each item's
/// JSON (a dotted path; `a[].b` joins `b` of every element of the array `a`).
pub(crate) struct Column {
    pub(crate) header: &'static str,
    pub(crate) path: &'static str,
}

/// Shorthand for a [`Column`].
pub(crate) const fn col(header: &'static str, path: &'static str) -> Column {
    Column { header, path }
}

/// Prints results in the chosen format.
#[derive(Debug, Clone)]
pub(crate) struct Printer {
    format: OutputFormat,
    color: bool,
    show_secrets: bool,
}

impl Printer {
    pub(crate) fn new(format: Option<OutputFormat>, show_secrets: bool) -> Self {
        let terminal = std::io::stdout().is_terminal();
        let format = format.unwrap_or(if terminal {
            OutputFormat::Table
        } else {
            OutputFormat::Json
        });
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Self {
            format,
            color: terminal && !no_color,
            show_secrets,
        }
    }

    pub(crate) fn is_json(&self) -> bool {
        self.format == OutputFormat::Json
    }

    /// The value as JSON, secrets exposed only when asked.
    pub(crate) fn to_json<T: Serialize + ?Sized>(&self, value: &T) -> Result<Value, Failure> {
        let serialize = || serde_json::to_value(value);
        let json = if self.show_secrets {
            hostapi::expose_secrets(serialize)
        } else {
            serialize()
        };
        json.map_err(|e| {
            Failure::new(
                crate::failure::API,
                format!("cannot serialise the result: {e}"),
            )
        })
    }

    /// Prints one record: its JSON, or a two-column table of its fields.
    pub(crate) fn one<T: Serialize + ?Sized>(&self, value: &T) -> Result<(), Failure> {
        let json = self.to_json(value)?;
        if self.is_json() {
            return emit_json(&json);
        }
        let mut rows = Vec::new();
        flatten(&json, String::new(), &mut rows);
        let mut table = self.table(&["FIELD", "VALUE"]);
        for (key, value) in rows {
            table.add_row(vec![Cell::new(key), Cell::new(value)]);
        }
        emit(&table.to_string())
    }

    /// Prints a list answer: the records that could be read (as [`Printer::items`]
    /// does) and, on stderr, a warning for each record that could not.
    pub(crate) fn list<T: Serialize>(
        &self,
        listing: &Listing<T>,
        columns: &[Column],
    ) -> Result<(), Failure> {
        warn_unreadable(listing);
        self.items(listing, columns)
    }

    /// Prints records: their JSON array, or a table with the given columns.
    pub(crate) fn items<T: Serialize>(
        &self,
        items: &[T],
        columns: &[Column],
    ) -> Result<(), Failure> {
        let json = self.to_json(items)?;
        if self.is_json() {
            return emit_json(&json);
        }
        self.table_of(&json, columns)
    }

    /// Prints JSON the CLI put together itself (`config show`): as it is, or as a
    /// two-column table.
    pub(crate) fn value(&self, json: &Value) -> Result<(), Failure> {
        if self.is_json() {
            return emit_json(json);
        }
        let mut rows = Vec::new();
        flatten(json, String::new(), &mut rows);
        let mut table = self.table(&["FIELD", "VALUE"]);
        for (key, value) in rows {
            table.add_row(vec![Cell::new(key), Cell::new(value)]);
        }
        emit(&table.to_string())
    }

    /// Prints text for people (a chart, a heading) on stdout; never in JSON mode.
    pub(crate) fn text(&self, text: &str) -> Result<(), Failure> {
        if self.is_json() {
            return Ok(());
        }
        emit(text.trim_end_matches('\n'))
    }

    /// Prints a table of rows the command put together from the JSON (a usage
    /// report's ports); never in JSON mode.
    pub(crate) fn rows(&self, headers: &[&str], rows: Vec<Vec<String>>) -> Result<(), Failure> {
        if self.is_json() {
            return Ok(());
        }
        let mut table = self.table(headers);
        for row in rows {
            table.add_row(row.into_iter().map(Cell::new).collect::<Vec<_>>());
        }
        emit(&table.to_string())
    }

    /// Prints (name, value) pairs as two aligned columns without a header (a
    /// report's totals); never in JSON mode.
    pub(crate) fn pairs(&self, pairs: Vec<(String, String)>) -> Result<(), Failure> {
        if self.is_json() || pairs.is_empty() {
            return Ok(());
        }
        let mut table = self.table(&[]);
        for (name, value) in pairs {
            table.add_row(vec![Cell::new(name), Cell::new(value)]);
        }
        emit(&table.to_string())
    }

    /// Whether output may be coloured.
    pub(crate) fn colour(&self) -> bool {
        self.color
    }

    /// A table with the given columns of the items of a JSON array.
    fn table_of(&self, items: &Value, columns: &[Column]) -> Result<(), Failure> {
        let items = items.as_array().map(Vec::as_slice).unwrap_or_default();
        if items.is_empty() {
            eprintln!("(none)");
            return Ok(());
        }
        let headers: Vec<&str> = columns.iter().map(|c| c.header).collect();
        let mut table = self.table(&headers);
        for item in items {
            table.add_row(
                columns
                    .iter()
                    .map(|c| Cell::new(lookup(item, c.path)))
                    .collect::<Vec<_>>(),
            );
        }
        emit(&table.to_string())
    }

    /// Prints the outcome of a call that answers nothing: for scripts an object saying
    /// what happened (`{"status": "done", "message": …}`, never `null`), for people the
    /// note on stderr.
    pub(crate) fn done(&self, note: &str) -> Result<(), Failure> {
        self.outcome(&Outcome::new("done", note))
    }

    /// Prints what a write did: a [`Outcome`] object in JSON, its message on stderr
    /// for people.
    pub(crate) fn outcome(&self, outcome: &Outcome) -> Result<(), Failure> {
        if self.is_json() {
            return emit_json(&self.to_json(outcome)?);
        }
        eprintln!("{}", outcome.message);
        Ok(())
    }

    fn table(&self, headers: &[&str]) -> Table {
        let mut table = Table::new();
        table.load_style(presets::NOTHING);
        // Wrap to the terminal's width when it is known; otherwise keep rows whole.
        if table.width().is_some_and(|width| width >= 40) {
            table.set_content_arrangement(ContentArrangement::Dynamic);
        }
        if !self.color {
            table.force_no_tty();
        }
        if headers.is_empty() {
            return table;
        }
        if self.color {
            table.enforce_styling();
            table.set_header(
                headers
                    .iter()
                    .map(|h| Cell::new(h).add_attribute(Attribute::Bold).fg(Color::Cyan)),
            );
        } else {
            table.set_header(headers.iter().map(Cell::new));
        }
        table
    }
}

/// What a write that answers no resource did (`WriteOutcome` in the JSON Schema):
/// `{"action": "power_cycle", "id": "20001", "status": "requested", "message": …}`.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Outcome {
    /// What was done, in snake case (`power_cycle`, `delete_lease`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) action: Option<&'static str>,
    /// The resource's id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) id: Option<String>,
    /// `requested` (accepted; it goes on in the background) or `done`.
    pub(crate) status: &'static str,
    /// The same in words.
    pub(crate) message: String,
}

impl Outcome {
    pub(crate) fn new(status: &'static str, message: impl Into<String>) -> Self {
        Self {
            action: None,
            id: None,
            status,
            message: message.into(),
        }
    }

    /// A write `action` on the resource `id`, with its status and message.
    pub(crate) fn of(
        action: &'static str,
        id: impl std::fmt::Display,
        status: &'static str,
        message: impl Into<String>,
    ) -> Self {
        Self {
            action: Some(action),
            id: Some(id.to_string()),
            status,
            message: message.into(),
        }
    }
}

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

/// Warns on stderr of each record of a list answer that could not be read (and so is
/// not printed).
pub(crate) fn warn_unreadable<T>(listing: &Listing<T>) {
    for skipped in listing.unreadable() {
        eprintln!(
            "warning: record {} of the list could not be read and is left out: {}",
            skipped.index, skipped.error
        );
    }
}

/// Prints JSON to stdout (pretty, one document).
fn emit_json(json: &Value) -> Result<(), Failure> {
    let text = serde_json::to_string_pretty(json).map_err(|e| {
        Failure::new(
            crate::failure::API,
            format!("cannot serialise the result: {e}"),
        )
    })?;
    emit(&text)
}

fn emit(text: &str) -> Result<(), Failure> {
    let mut stdout = std::io::stdout().lock();
    match writeln!(stdout, "{text}").and_then(|()| stdout.flush()) {
        // A closed pipe (`| head`) is not a failure of the command.
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(Failure::new(
            crate::failure::API,
            format!("cannot write the output: {e}"),
        )),
        _ => Ok(()),
    }
}

/// The text of the value at a dotted path (`a.b`, `a[].b`), for a table cell.
pub(crate) fn lookup(value: &Value, path: &str) -> String {
    fn walk<'a>(value: &'a Value, path: &str, out: &mut Vec<&'a Value>) {
        let (head, rest) = match path.split_once('.') {
            Some((head, rest)) => (head, Some(rest)),
            None => (path, None),
        };
        let (key, each) = match head.strip_suffix("[]") {
            Some(key) => (key, true),
            None => (head, false),
        };
        let Some(next) = (if key.is_empty() {
            Some(value)
        } else {
            value.get(key)
        }) else {
            return;
        };
        let items: Vec<&Value> = if each {
            next.as_array()
                .map(|a| a.iter().collect())
                .unwrap_or_default()
        } else {
            vec![next]
        };
        for item in items {
            match rest {
                Some(rest) => walk(item, rest, out),
                None => out.push(item),
            }
        }
    }
    let mut found = Vec::new();
    walk(value, path, &mut found);
    found
        .iter()
        .map(|v| scalar(v))
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The text of one value for a table cell.
pub(crate) fn scalar(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
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
        Value::Object(_) => value.to_string(),
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
fn flatten(value: &Value, prefix: String, rows: &mut Vec<(String, String)>) {
    match value {
        Value::Object(map) if !is_quantity(map) => {
            // A record's own values first (id, name…), then its parts.
            let (plain, nested): (Vec<_>, Vec<_>) =
                map.iter().partition(|(_, child)| reads_as_one(child));
            for (key, child) in plain.into_iter().chain(nested) {
                let name = if prefix.is_empty() {
                    key.clone()
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

    #[test]
    fn lookup_follows_paths_and_arrays() {
        let value = serde_json::json!({"id": 7, "ips": [{"ip": "a"}, {"ip": "b"}], "state": null, "ok": true});
        assert_eq!(lookup(&value, "id"), "7");
        assert_eq!(lookup(&value, "ips[].ip"), "a, b");
        assert_eq!(lookup(&value, "state"), "");
        assert_eq!(lookup(&value, "ok"), "yes");
        assert_eq!(lookup(&value, "missing.deep"), "");
    }

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
