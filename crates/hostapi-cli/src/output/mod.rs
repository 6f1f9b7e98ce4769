//! Printing results: the SDK's JSON serialisation (`--output json`, stdout carries that
//! and nothing else) or aligned tables built from that same serialisation, so the two
//! never disagree. Secrets print as `[REDACTED]` unless `--show-secrets`.

mod cell_text;
mod emit;
mod fields;
mod fit;
mod glob;
mod list_shaping;
mod path;
mod query_lines;
mod separated;
mod snake_keys;
mod table;
mod write_outcome;

use std::io::IsTerminal;

use comfy_table::Cell;
use hostapi::Listing;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use crate::cli::OutputFormat;
use crate::failure::Failure;
use crate::untrusted;

use cell_text::flatten;
pub(crate) use cell_text::scalar;
pub(crate) use emit::emit_bytes;
use emit::{ListOut, emit, emit_json, emit_yaml, write_json_array, write_yaml_sequence};
use fields::Fields;
use fit::{Cells, Rule};
pub(crate) use glob::glob;
use list_shaping::{passes_filters, shape_list};
pub(crate) use path::lookup;
use path::project;
pub(crate) use snake_keys::snake_keys;
pub(crate) use write_outcome::Outcome;

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
    /// Whether `--output` chose the format (rather than the terminal or a pipe):
    /// `--query` then prints in it (JSON, YAML), otherwise one result per line.
    format_chosen: bool,
    color: bool,
    show_secrets: bool,
    shape: Shape,
}

/// How the user shapes what a command prints (`--columns`, `--filter`, `--sort`,
/// `--limit`, `--query`, `--no-headers`, `--wide`). Fields are named as in the JSON,
/// so one name works in every format.
#[derive(Debug, Clone, Default)]
pub(crate) struct Shape {
    /// `--columns`: the fields to show (dotted paths into the JSON).
    pub(crate) columns: Vec<String>,
    /// `--no-headers`.
    pub(crate) no_headers: bool,
    /// `--query`: a jq filter over the JSON.
    pub(crate) query: Option<String>,
    /// `--filter FIELD=VALUE`: glob values, case-insensitive; all must match.
    pub(crate) filters: Vec<(String, String)>,
    /// `--sort FIELD` (`-FIELD` for descending).
    pub(crate) sort: Option<String>,
    /// `--limit N`.
    pub(crate) limit: Option<usize>,
    /// `--wide`: every column whole, whatever the terminal's width.
    pub(crate) wide: bool,
    /// `--no-formula-guard`: CSV/TSV cells exactly as they are, even those a
    /// spreadsheet would run as a formula (see [`untrusted::formula_guard`]).
    pub(crate) no_formula_guard: bool,
}

impl Shape {
    fn shapes_lists(&self) -> bool {
        !self.filters.is_empty() || self.sort.is_some() || self.limit.is_some()
    }

    /// Whether printing a list needs every record at once: `--sort` orders them all,
    /// `--query` sees the whole array. Otherwise records are printed as they come.
    fn needs_whole_list(&self) -> bool {
        self.sort.is_some() || self.query.is_some()
    }
}

impl Printer {
    pub(crate) fn new(format: Option<OutputFormat>, show_secrets: bool) -> Self {
        let terminal = std::io::stdout().is_terminal();
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Self {
            format: format.unwrap_or(if terminal {
                OutputFormat::Table
            } else {
                OutputFormat::Json
            }),
            format_chosen: format.is_some(),
            color: terminal && !no_color,
            show_secrets,
            shape: Shape::default(),
        }
    }

    /// The same printer with the user's shaping.
    pub(crate) fn shaped(mut self, shape: Shape) -> Self {
        self.shape = shape;
        self
    }

    /// `list` asked for at most `--limit` records, when nothing needs the whole list
    /// first (`--filter` and `--sort` do): a paged list then stops paging early.
    pub(crate) fn limited<T: Send + 'static>(&self, list: hostapi::List<T>) -> hostapi::List<T> {
        match self.sdk_limit() {
            Some(limit) => list.limit(limit),
            None => list,
        }
    }

    /// `--limit`, when the SDK can apply it (no `--filter` or `--sort`).
    pub(crate) fn sdk_limit(&self) -> Option<usize> {
        self.shape
            .limit
            .filter(|_| self.shape.filters.is_empty() && self.shape.sort.is_none())
    }

    /// On stderr, when `--limit` cut a list whose total is known: how many of how
    /// many are shown (not after `--filter`, whose total is not known).
    pub(crate) fn note_limit<T>(&self, listing: &Listing<T>) {
        if let (Some(limit), Some(total)) = (self.shape.limit, listing.total_count())
            && self.shape.filters.is_empty()
            && total > limit as u64
        {
            eprintln!(
                "note: showing {} of {total} (--limit {limit})",
                listing.len().min(limit)
            );
        }
    }

    /// Whether output is for programs (json, yaml, csv, tsv): commands then print
    /// records rather than prose.
    pub(crate) fn is_json(&self) -> bool {
        self.format != OutputFormat::Table
    }

    /// The value as JSON, secrets exposed only when asked.
    pub(crate) fn to_json<T: Serialize + ?Sized>(&self, value: &T) -> Result<Value, Failure> {
        let serialize = || serde_json::to_value(value);
        let json = if self.show_secrets {
            hostapi::types::expose_secrets(serialize)
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
        // An SDK record's JSON has every field of its type (`null` when empty), but
        // for `extra` (left out when empty).
        self.check_fields(|| Fields::observed([&json]).map(Fields::with_extra))?;
        self.record(&json)
    }

    /// Refuses (exit 2) a field named by `--columns`, `--sort` or `--filter` that the
    /// records do not have, listing those they have; `fields` is asked only when one
    /// of those flags is given, and `None` (nothing known of the records) lets every
    /// name through.
    fn check_fields(&self, fields: impl FnOnce() -> Option<Fields>) -> Result<(), Failure> {
        let shape = &self.shape;
        if shape.columns.is_empty() && shape.sort.is_none() && shape.filters.is_empty() {
            return Ok(());
        }
        let Some(fields) = fields() else {
            return Ok(());
        };
        let sort = shape
            .sort
            .as_deref()
            .map(|s| s.strip_prefix('-').unwrap_or(s));
        let named = (shape.columns.iter().map(|c| ("--columns", c.as_str())))
            .chain(sort.map(|s| ("--sort", s)))
            .chain(shape.filters.iter().map(|(f, _)| ("--filter", f.as_str())));
        for (flag, field) in named {
            if !fields.has(field) {
                return Err(fields.unknown(flag, field));
            }
        }
        Ok(())
    }

    /// Prints one record's JSON in the chosen format and shape.
    fn record(&self, json: &Value) -> Result<(), Failure> {
        if self.shape.shapes_lists() {
            eprintln!(
                "note: --filter, --sort and --limit shape lists; this command prints one record"
            );
        }
        if let Some(query) = &self.shape.query {
            return self.query_out(query, json);
        }
        let json = if self.shape.columns.is_empty() {
            json.clone()
        } else {
            project(json, &self.shape.columns)
        };
        match self.format {
            OutputFormat::Json => emit_json(&json),
            OutputFormat::Yaml => emit_yaml(&json),
            OutputFormat::Csv | OutputFormat::Tsv => {
                let mut rows = Vec::new();
                flatten(&json, String::new(), &mut rows);
                let (headers, cells): (Vec<String>, Vec<String>) = rows.into_iter().unzip();
                self.emit_separated(&headers, std::iter::once(Ok(cells)))
            }
            OutputFormat::Table => {
                let mut rows = Vec::new();
                flatten(&json, String::new(), &mut rows);
                let mut table = self.table(if self.shape.no_headers {
                    &[]
                } else {
                    &["FIELD", "VALUE"]
                });
                for (key, value) in rows {
                    table.add_row(vec![Cell::new(key), Cell::new(value)]);
                }
                emit(&table.to_string())
            }
        }
    }

    /// Prints a list answer: the records that could be read (as [`Printer::items`]
    /// does) and, on stderr, a warning for each record that could not.
    pub(crate) fn list<T: Serialize + JsonSchema>(
        &self,
        listing: &Listing<T>,
        columns: &[Column],
    ) -> Result<(), Failure> {
        warn_unreadable(listing);
        self.note_limit(listing);
        self.items(listing, columns)
    }

    /// Prints records: their JSON array, or a table with the given columns.
    ///
    /// Unless `--sort` or `--query` needs every record at once, each record becomes
    /// JSON and is filtered, printed (or, for a table, kept as its cells' text) and
    /// dropped before the next: what is held grows with what is printed, not with a
    /// JSON tree of the whole list.
    pub(crate) fn items<T: Serialize + JsonSchema>(
        &self,
        items: &[T],
        columns: &[Column],
    ) -> Result<(), Failure> {
        self.check_fields(|| match Fields::of::<T>() {
            Some(fields) => Some(fields),
            // A record without a schema (kept as the service sent it): its fields are
            // those the records have.
            None => {
                let json: Vec<Value> = items.iter().filter_map(|i| self.to_json(i).ok()).collect();
                Fields::observed(&json)
            }
        })?;
        if self.shape.needs_whole_list() {
            let items = items
                .iter()
                .map(|item| self.to_json(item))
                .collect::<Result<Vec<_>, _>>()?;
            return self.shaped_values(items, columns);
        }
        self.print_records(items.iter().map(|item| self.to_json(item)), columns)
    }

    /// Prints a list of JSON records: filtered, sorted and limited, then queried, or
    /// printed in the chosen format with the chosen (or the command's) columns.
    pub(crate) fn shaped_list(&self, items: Vec<Value>, columns: &[Column]) -> Result<(), Failure> {
        self.check_fields(|| Fields::observed(&items))?;
        self.shaped_values(items, columns)
    }

    /// [`Printer::shaped_list`] of records whose fields were checked.
    fn shaped_values(&self, items: Vec<Value>, columns: &[Column]) -> Result<(), Failure> {
        if !self.shape.needs_whole_list() {
            return self.print_records(items.into_iter().map(Ok), columns);
        }
        let items = shape_list(items, &self.shape)?;
        if let Some(query) = &self.shape.query {
            return self.query_out(query, &Value::Array(items));
        }
        self.write_records(items.into_iter().map(Ok), columns)
    }

    /// Prints records as they come: those that pass `--filter`, at most `--limit`.
    fn print_records(
        &self,
        records: impl Iterator<Item = Result<Value, Failure>>,
        columns: &[Column],
    ) -> Result<(), Failure> {
        let filters = &self.shape.filters;
        let kept = records.filter(|record| {
            record
                .as_ref()
                .map_or(true, |record| passes_filters(record, filters))
        });
        self.write_records(kept.take(self.shape.limit.unwrap_or(usize::MAX)), columns)
    }

    /// Writes records (already shaped) in the chosen format with the chosen (or the
    /// command's) columns, one at a time: JSON, YAML, CSV and TSV as each arrives; a
    /// table keeps only the text of its cells until the last has come, for the
    /// columns' widths.
    fn write_records(
        &self,
        records: impl Iterator<Item = Result<Value, Failure>>,
        columns: &[Column],
    ) -> Result<(), Failure> {
        let (paths, headers): (Vec<String>, Vec<String>) = if self.shape.columns.is_empty() {
            columns
                .iter()
                .map(|c| (c.path.to_owned(), c.header.to_owned()))
                .unzip()
        } else {
            self.shape
                .columns
                .iter()
                .map(|c| (c.clone(), c.to_uppercase()))
                .unzip()
        };
        let projected = records.map(|record| {
            record.map(|record| {
                if self.shape.columns.is_empty() {
                    record
                } else {
                    project(&record, &self.shape.columns)
                }
            })
        });
        match self.format {
            OutputFormat::Json => write_json_array(&mut ListOut::stdout(), projected),
            OutputFormat::Yaml => write_yaml_sequence(&mut ListOut::stdout(), projected),
            OutputFormat::Csv | OutputFormat::Tsv => {
                let rows = records_cells(projected, &paths);
                self.emit_separated(&paths, rows)
            }
            OutputFormat::Table => {
                let mut cells = Cells::new(paths.len());
                for row in records_cells(projected, &paths) {
                    cells.push_row(row?);
                }
                let chosen = !self.shape.columns.is_empty();
                let names_rows = columns.first().map(|c| c.path);
                let rules: Vec<Rule> = paths
                    .iter()
                    .map(|path| Rule {
                        whole: is_identifier(path) || names_rows == Some(path.as_str()),
                        chosen,
                    })
                    .collect();
                self.shaped_table(&cells, &headers, &rules)
            }
        }
    }

    /// Prints JSON the CLI put together itself (`config show`): as it is, or as a
    /// two-column table.
    pub(crate) fn value(&self, json: &Value) -> Result<(), Failure> {
        self.check_fields(|| Fields::observed([json]))?;
        self.record(json)
    }

    /// Prints text for people (a heading) on stdout, its control characters escaped;
    /// never in JSON mode.
    pub(crate) fn text(&self, text: &str) -> Result<(), Failure> {
        if self.is_json() {
            return Ok(());
        }
        emit(&untrusted::lines(text.trim_end_matches('\n')))
    }

    /// Prints a drawing the CLI made itself (a chart: its numbers, dates and colour
    /// codes, no text from the server) on stdout as it is; never in JSON mode.
    pub(crate) fn drawing(&self, drawing: &str) -> Result<(), Failure> {
        if self.is_json() {
            return Ok(());
        }
        emit(drawing.trim_end_matches('\n'))
    }

    /// Prints a table of rows the command put together from the JSON (a usage
    /// report's ports); never in JSON mode.
    pub(crate) fn rows(&self, headers: &[&str], rows: Vec<Vec<String>>) -> Result<(), Failure> {
        if self.is_json() {
            return Ok(());
        }
        let mut table = self.table(headers);
        for row in rows {
            table.add_row(
                row.iter()
                    .map(|cell| Cell::new(untrusted::line(cell)))
                    .collect::<Vec<_>>(),
            );
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
            table.add_row(vec![
                Cell::new(untrusted::line(&name)),
                Cell::new(untrusted::line(&value)),
            ]);
        }
        emit(&table.to_string())
    }

    /// Whether output may be coloured.
    pub(crate) fn colour(&self) -> bool {
        self.color
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
        self.check_fields(Fields::of::<Outcome>)?;
        if self.is_json() {
            return self.record(&self.to_json(outcome)?);
        }
        eprintln!("{}", untrusted::line(&outcome.message));
        Ok(())
    }
}

/// The cells of each record at `paths`, as they come.
fn records_cells<'p>(
    records: impl Iterator<Item = Result<Value, Failure>> + 'p,
    paths: &'p [String],
) -> impl Iterator<Item = Result<Vec<String>, Failure>> + 'p {
    records.map(|record| record.map(|record| paths.iter().map(|p| lookup(&record, p)).collect()))
}

/// Whether a field is an id (`id`, `bare_metal_id`, `sla.id`), which a table shows
/// whole, however narrow the terminal: an id is there to be copied.
fn is_identifier(path: &str) -> bool {
    let last = path.rsplit(['.', ']']).next().unwrap_or(path);
    last == "id" || last.ends_with("_id")
}

/// Warns on stderr of each record of a list answer that could not be read (and so is
/// not printed).
pub(crate) fn warn_unreadable<T>(listing: &Listing<T>) {
    for skipped in listing.unreadable() {
        eprintln!(
            "warning: record {} of the list could not be read and is left out: {}",
            skipped.index,
            untrusted::line(&skipped.error.to_string())
        );
    }
}
