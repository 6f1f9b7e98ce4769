//! Printing results: the SDK's JSON serialisation (`--output json`, stdout carries that
//! and nothing else) or aligned tables built from that same serialisation, so the two
//! never disagree. Secrets print as `[REDACTED]` unless `--show-secrets`.

use std::io::{IsTerminal, Write};

use comfy_table::{Attribute, Cell, Color, ContentArrangement, Table, presets};
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

    /// Prints a list: its JSON array, or a table with the given columns.
    pub(crate) fn list<T: Serialize>(
        &self,
        items: &[T],
        columns: &[Column],
    ) -> Result<(), Failure> {
        let json = self.to_json(items)?;
        if self.is_json() {
            return emit_json(&json);
        }
        let headers: Vec<&str> = columns.iter().map(|c| c.header).collect();
        let mut table = self.table(&headers);
        for item in json.as_array().map(Vec::as_slice).unwrap_or_default() {
            table.add_row(
                columns
                    .iter()
                    .map(|c| Cell::new(lookup(item, c.path)))
                    .collect::<Vec<_>>(),
            );
        }
        if items.is_empty() {
            eprintln!("(none)");
            return Ok(());
        }
        emit(&table.to_string())
    }

    /// Prints the outcome of a call that answers nothing (`null` in JSON), with a note
    /// for people on stderr.
    pub(crate) fn done(&self, note: &str) -> Result<(), Failure> {
        if self.is_json() {
            return emit_json(&Value::Null);
        }
        eprintln!("{note}");
        Ok(())
    }

    fn table(&self, headers: &[&str]) -> Table {
        let mut table = Table::new();
        table.load_style(presets::NOTHING);
        // Wrap to the terminal's width when it is known; otherwise keep rows whole.
        if table.width().is_some_and(|width| width >= 40) {
            table.set_content_arrangement(ContentArrangement::Dynamic);
        }
        if self.color {
            table.enforce_styling();
            table.set_header(
                headers
                    .iter()
                    .map(|h| Cell::new(h).add_attribute(Attribute::Bold).fg(Color::Cyan)),
            );
        } else {
            table.force_no_tty();
            table.set_header(headers.iter().map(Cell::new));
        }
        table
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

fn scalar(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => if *b { "yes" } else { "no" }.to_owned(),
        Value::Array(items) => items.iter().map(scalar).collect::<Vec<_>>().join(", "),
        Value::Object(_) => value.to_string(),
    }
}

/// Flattens a record into (dotted key, text) rows for a two-column table.
fn flatten(value: &Value, prefix: String, rows: &mut Vec<(String, String)>) {
    match value {
        Value::Object(map) => {
            for (key, child) in map {
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
    fn records_flatten_to_dotted_rows() {
        let value = serde_json::json!({"a": {"b": 1}, "list": [{"x": 1}], "tags": ["p", "q"], "none": null});
        let mut rows = Vec::new();
        flatten(&value, String::new(), &mut rows);
        assert_eq!(
            rows,
            [
                ("a.b".into(), "1".into()),
                ("list[0].x".into(), "1".into()),
                ("tags".into(), "p, q".into())
            ]
        );
    }
}
