//! Printing results: the SDK's JSON serialisation (`--output json`, stdout carries that
//! and nothing else) or aligned tables built from that same serialisation, so the two
//! never disagree. Secrets print as `[REDACTED]` unless `--show-secrets`.

use std::borrow::Cow;
use std::io::{IsTerminal, Write};

use comfy_table::{
    Attribute, Cell, Color, ColumnConstraint, ContentArrangement, Table, Width, presets,
};
use hostapi::Listing;
use hostapi::types::{DataUnit, RateUnit};
use serde::Serialize;
use serde_json::Value;

use crate::cli::OutputFormat;
use crate::failure::Failure;
use crate::untrusted;

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
        self.record(&json)
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

    /// Prints what `--query` makes of `json`: JSON or YAML documents in those
    /// formats; otherwise a table of a list of records, or each value on a line
    /// (strings without quotes, as `jq -r`).
    fn query_out(&self, query: &str, json: &Value) -> Result<(), Failure> {
        let values = crate::query::run(query, json)?;
        match self.format {
            OutputFormat::Json => values.iter().try_for_each(emit_json),
            OutputFormat::Yaml => values.iter().try_for_each(emit_yaml),
            _ => {
                for value in &values {
                    match value {
                        Value::Array(items)
                            if !items.is_empty() && items.iter().all(Value::is_object) =>
                        {
                            let mut keys: Vec<String> = Vec::new();
                            for item in items {
                                for key in item.as_object().into_iter().flat_map(|m| m.keys()) {
                                    if !keys.contains(key) {
                                        keys.push(key.clone());
                                    }
                                }
                            }
                            let mut cells = Cells::new(keys.len());
                            for item in items {
                                cells.push_row(keys.iter().map(|k| lookup(item, k)));
                            }
                            self.shaped_table(
                                &cells,
                                &keys,
                                &keys.iter().map(|k| k.to_uppercase()).collect::<Vec<_>>(),
                            )?;
                        }
                        Value::Array(items) => {
                            for item in items {
                                emit(&scalar(item))?;
                            }
                        }
                        Value::Object(_) => emit_json(value)?,
                        other => emit(&scalar(other))?,
                    }
                }
                Ok(())
            }
        }
    }

    /// Prints a list answer: the records that could be read (as [`Printer::items`]
    /// does) and, on stderr, a warning for each record that could not.
    pub(crate) fn list<T: Serialize>(
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
    pub(crate) fn items<T: Serialize>(
        &self,
        items: &[T],
        columns: &[Column],
    ) -> Result<(), Failure> {
        if self.shape.needs_whole_list() {
            let items = items
                .iter()
                .map(|item| self.to_json(item))
                .collect::<Result<Vec<_>, _>>()?;
            return self.shaped_list(items, columns);
        }
        self.print_records(items.iter().map(|item| self.to_json(item)), columns)
    }

    /// Prints a list of JSON records: filtered, sorted and limited, then queried, or
    /// printed in the chosen format with the chosen (or the command's) columns.
    pub(crate) fn shaped_list(&self, items: Vec<Value>, columns: &[Column]) -> Result<(), Failure> {
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
                self.shaped_table(&cells, &paths, &headers)
            }
        }
    }

    /// CSV (RFC 4180 quoting) or TSV, with a header of JSON field names unless
    /// `--no-headers`; each cell as [`Printer::separated_cell`] writes it, each row
    /// written as it comes.
    fn emit_separated(
        &self,
        headers: &[String],
        rows: impl Iterator<Item = Result<Vec<String>, Failure>>,
    ) -> Result<(), Failure> {
        let tsv = self.format == OutputFormat::Tsv;
        let line = |cells: &[String]| -> String {
            let cells: Vec<String> = cells.iter().map(|c| self.separated_cell(c)).collect();
            cells.join(if tsv { "\t" } else { "," })
        };
        let mut out = ListOut::stdout();
        if !self.shape.no_headers {
            out.line(&line(headers))?;
        }
        for row in rows {
            if out.closed {
                break;
            }
            out.line(&line(&row?))?;
        }
        out.finish()
    }

    /// One CSV or TSV cell: control characters escaped (so no tab or line break is
    /// left inside), a leading `'` on what a spreadsheet would run as a formula (unless
    /// `--no-formula-guard`), and CSV's quoting.
    fn separated_cell(&self, cell: &str) -> String {
        let cell = untrusted::line(cell);
        let cell = if self.shape.no_formula_guard {
            cell
        } else {
            match untrusted::formula_guard(&cell) {
                Cow::Borrowed(_) => cell,
                Cow::Owned(guarded) => Cow::Owned(guarded),
            }
        };
        if self.format != OutputFormat::Tsv && cell.contains([',', '"']) {
            format!("\"{}\"", cell.replace('"', "\"\""))
        } else {
            cell.into_owned()
        }
    }

    /// A table of records fitted to the terminal: ids, names, IPs, URLs and dates are
    /// never split; free text is cut with `…` first, then columns are dropped from the
    /// right (a note on stderr says which); `--wide` shows everything.
    fn shaped_table(
        &self,
        cells: &Cells,
        paths: &[String],
        headers: &[String],
    ) -> Result<(), Failure> {
        if cells.rows() == 0 {
            eprintln!("(none)");
            return Ok(());
        }
        let width = if self.shape.wide {
            None
        } else {
            terminal_columns()
        };
        // Headers may be keys the server chose (`--query`).
        let headers: Vec<String> = headers.iter().map(|h| untrusted::line(h).into()).collect();
        let free: Vec<bool> = paths.iter().map(|p| is_free_text(p)).collect();
        let fitted = fit(&headers, cells, &free, width, !self.shape.no_headers);
        if !fitted.dropped.is_empty() {
            eprintln!(
                "note: {} left out to fit {} columns; --wide shows every column, --columns chooses",
                fitted.dropped.join(", "),
                width.unwrap_or_default()
            );
        }
        let headers: Vec<&str> = if self.shape.no_headers {
            Vec::new()
        } else {
            fitted.headers.iter().map(String::as_str).collect()
        };
        let mut out = ListOut::stdout();
        self.emit_table(&mut out, &headers, cells, &fitted)?;
        out.finish()
    }

    /// Prints the fitted rows of `cells` as one aligned table, built and written
    /// [`TABLE_CHUNK`] rows at a time: comfy-table keeps several strings per cell,
    /// so a whole list's table would cost many times its text. Every chunk gets the
    /// widths the whole table would have (measured by comfy-table itself, over every
    /// chunk first), so the chunks line up as one table.
    fn emit_table(
        &self,
        out: &mut ListOut<impl Write>,
        headers: &[&str],
        cells: &Cells,
        fitted: &Fitted,
    ) -> Result<(), Failure> {
        let chunk_table = |first: usize, with_headers: bool| {
            let mut table = self.table(if with_headers { headers } else { &[] });
            let last = cells.rows().min(first + TABLE_CHUNK);
            for row in first..last {
                table.add_row(fitted.row(cells, row).map(Cell::new).collect::<Vec<_>>());
            }
            table
        };
        let starts = (0..cells.rows()).step_by(TABLE_CHUNK);
        let mut widths: Vec<u16> = Vec::new();
        for (index, first) in starts.clone().enumerate() {
            let measured = chunk_table(first, index == 0).column_max_content_widths();
            widths.resize(widths.len().max(measured.len()), 0);
            for (width, chunk) in widths.iter_mut().zip(measured) {
                *width = (*width).max(chunk);
            }
        }
        // A fixed width counts the padding, one space each side.
        let constraints: Vec<ColumnConstraint> = widths
            .iter()
            .map(|w| ColumnConstraint::Absolute(Width::Fixed(w.saturating_add(2))))
            .collect();
        for (index, first) in starts.enumerate() {
            if out.closed {
                break;
            }
            let mut table = chunk_table(first, index == 0);
            table.set_constraints(constraints.clone());
            out.line(&table.to_string())?;
        }
        Ok(())
    }

    /// Prints JSON the CLI put together itself (`config show`): as it is, or as a
    /// two-column table.
    pub(crate) fn value(&self, json: &Value) -> Result<(), Failure> {
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
        if self.is_json() {
            return self.record(&self.to_json(outcome)?);
        }
        eprintln!("{}", untrusted::line(&outcome.message));
        Ok(())
    }

    fn table(&self, headers: &[&str]) -> Table {
        let mut table = Table::new();
        table.load_style(presets::NOTHING);
        // Rows are fitted before (see `fit`); a cell is never wrapped.
        table.set_content_arrangement(ContentArrangement::Disabled);
        if !self.color {
            table.force_no_tty();
        }
        if headers.is_empty() {
            return table;
        }
        if self.color {
            table.enforce_styling();
            table.set_header(headers.iter().map(|h| {
                Cell::new(untrusted::line(h))
                    .add_attribute(Attribute::Bold)
                    .fg(Color::Cyan)
            }));
        } else {
            table.set_header(headers.iter().map(|h| Cell::new(untrusted::line(h))));
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
            skipped.index,
            untrusted::line(&skipped.error.to_string())
        );
    }
}

/// Prints JSON to stdout (pretty, one document; control characters in JSON's escapes).
fn emit_json(json: &Value) -> Result<(), Failure> {
    let text = serde_json::to_string_pretty(json).map_err(|e| {
        Failure::new(
            crate::failure::API,
            format!("cannot serialise the result: {e}"),
        )
    })?;
    emit(&untrusted::json_text(text))
}

/// Writes bytes to stdout as they are; a closed pipe is not a failure.
pub(crate) fn emit_bytes(bytes: &[u8]) -> Result<(), Failure> {
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(Failure::new(
            crate::failure::API,
            format!("cannot write the output: {e}"),
        )),
        _ => Ok(()),
    }
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
fn flatten(value: &Value, prefix: String, rows: &mut Vec<(String, String)>) {
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

/// The terminal's width: `COLUMNS` when set, else the terminal's own when stdout is
/// one; `None` (rows whole) through a pipe.
pub(crate) fn terminal_columns() -> Option<usize> {
    if let Some(columns) = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(|c| *c > 0)
    {
        return Some(columns);
    }
    if !std::io::stdout().is_terminal() {
        return None;
    }
    Table::new().width().map(usize::from)
}

/// Free text that may be cut to fit (templates, descriptions, option lists), unlike
/// ids, names, IPs, URLs and dates, which are never split.
fn is_free_text(path: &str) -> bool {
    let last = path.rsplit('.').next().unwrap_or(path);
    path.starts_with("options")
        || matches!(
            last,
            "template" | "description" | "notes" | "message" | "detail" | "comment"
        )
}

/// How many rows of a list's table comfy-table builds at a time (see
/// [`Printer::emit_table`]).
const TABLE_CHUNK: usize = 1024;

/// The text of a table's cells, row after row, in one buffer: a list of 200,000
/// records costs the text of its cells and an offset for each, not a `String` (nor a
/// comfy-table `Cell`) for each.
#[derive(Debug, Default)]
struct Cells {
    columns: usize,
    text: String,
    /// Where each cell ends in `text`, row after row.
    ends: Vec<usize>,
}

impl Cells {
    fn new(columns: usize) -> Self {
        Self {
            columns,
            ..Self::default()
        }
    }

    /// Adds a row (of `columns` cells: missing ones are empty, extra ones ignored).
    fn push_row<S: AsRef<str>>(&mut self, row: impl IntoIterator<Item = S>) {
        let mut row = row.into_iter();
        for _ in 0..self.columns {
            if let Some(cell) = row.next() {
                self.text.push_str(cell.as_ref());
            }
            self.ends.push(self.text.len());
        }
    }

    fn rows(&self) -> usize {
        self.ends.len().checked_div(self.columns).unwrap_or(0)
    }

    fn cell(&self, row: usize, column: usize) -> &str {
        let index = row * self.columns + column;
        let start = if index == 0 { 0 } else { self.ends[index - 1] };
        &self.text[start..self.ends[index]]
    }

    /// The widest cell of a column, in characters.
    fn widest(&self, column: usize) -> usize {
        (0..self.rows())
            .map(|row| self.cell(row, column).chars().count())
            .max()
            .unwrap_or(0)
    }
}

/// A table fitted to a width: the columns kept, and how wide free text may be.
#[derive(Debug, PartialEq)]
struct Fitted {
    headers: Vec<String>,
    /// Whether each column is shown.
    keep: Vec<bool>,
    /// For each free-text column, how many characters it shows (`None`: whole).
    cut_to: Vec<Option<usize>>,
    dropped: Vec<String>,
}

impl Fitted {
    /// The shown cells of a row, free text cut with `…` to its width.
    fn row<'c>(&'c self, cells: &'c Cells, row: usize) -> impl Iterator<Item = String> + 'c {
        (0..cells.columns)
            .filter(|&column| self.keep[column])
            .map(move |column| {
                let text = cells.cell(row, column);
                match self.cut_to[column] {
                    Some(width) if text.chars().count() > width => {
                        let short: String = text.chars().take(width.saturating_sub(1)).collect();
                        let mut short = short.trim_end().to_owned();
                        short.push('…');
                        short
                    }
                    _ => text.to_owned(),
                }
            })
    }
}

/// Fits rows to `width` columns of text (each cell padded by one space each side):
/// free-text columns are cut with `…` down to 12 characters first, then columns are
/// dropped from the right, never the first.
fn fit(
    headers: &[String],
    cells: &Cells,
    free: &[bool],
    width: Option<usize>,
    with_headers: bool,
) -> Fitted {
    let chars = |s: &str| s.chars().count();
    let natural: Vec<usize> = (0..headers.len()).map(|i| cells.widest(i)).collect();
    let mut widths: Vec<usize> = headers
        .iter()
        .zip(&natural)
        .map(|(h, &cells)| {
            if with_headers {
                cells.max(chars(h))
            } else {
                cells
            }
        })
        .collect();
    let mut keep: Vec<bool> = vec![true; headers.len()];
    let mut dropped = Vec::new();
    let mut cut_to: Vec<Option<usize>> = vec![None; headers.len()];
    if let Some(width) = width {
        let total = |widths: &[usize], keep: &[bool]| -> usize {
            widths
                .iter()
                .zip(keep)
                .filter(|(_, k)| **k)
                .map(|(w, _)| w + 2)
                .sum()
        };
        // Cut free text first, the widest first.
        while total(&widths, &keep) > width {
            let widest = (0..widths.len())
                .filter(|&i| keep[i] && free[i] && widths[i] > 12)
                .max_by_key(|&i| widths[i]);
            let Some(i) = widest else { break };
            let over = total(&widths, &keep) - width;
            let floor = if with_headers {
                chars(&headers[i]).max(12)
            } else {
                12
            };
            widths[i] = widths[i].saturating_sub(over).max(floor);
        }
        // Then drop columns from the right.
        for i in (1..headers.len()).rev() {
            if total(&widths, &keep) <= width {
                break;
            }
            keep[i] = false;
            dropped.push(headers[i].clone());
        }
        dropped.reverse();
        // Give what dropping freed back to the text that was cut.
        for i in 0..widths.len() {
            if keep[i] && free[i] {
                let spare = width.saturating_sub(total(&widths, &keep));
                widths[i] = natural[i].min(widths[i] + spare);
                cut_to[i] = Some(widths[i]);
            }
        }
    }
    Fitted {
        headers: headers
            .iter()
            .zip(&keep)
            .filter(|(_, k)| **k)
            .map(|(h, _)| h.clone())
            .collect(),
        keep,
        cut_to,
        dropped,
    }
}

/// The cells of each record at `paths`, as they come.
fn records_cells<'p>(
    records: impl Iterator<Item = Result<Value, Failure>> + 'p,
    paths: &'p [String],
) -> impl Iterator<Item = Result<Vec<String>, Failure>> + 'p {
    records.map(|record| record.map(|record| paths.iter().map(|p| lookup(&record, p)).collect()))
}

/// Stdout for a list written record by record: buffered, and a closed pipe (`| head`)
/// ends the writing (the caller stops at `closed`) without failing the command.
struct ListOut<W> {
    out: W,
    closed: bool,
}

impl ListOut<std::io::BufWriter<std::io::StdoutLock<'static>>> {
    fn stdout() -> Self {
        Self::new(std::io::BufWriter::with_capacity(
            64 * 1024,
            std::io::stdout().lock(),
        ))
    }
}

impl<W: Write> ListOut<W> {
    fn new(out: W) -> Self {
        Self { out, closed: false }
    }

    fn write(&mut self, text: &str) -> Result<(), Failure> {
        if self.closed {
            return Ok(());
        }
        let written = self.out.write_all(text.as_bytes());
        self.check(written)
    }

    /// Writes `text` and a newline.
    fn line(&mut self, text: &str) -> Result<(), Failure> {
        self.write(text)?;
        self.write("\n")
    }

    fn finish(&mut self) -> Result<(), Failure> {
        if self.closed {
            return Ok(());
        }
        let flushed = self.out.flush();
        self.check(flushed)
    }

    fn check(&mut self, result: std::io::Result<()>) -> Result<(), Failure> {
        match result {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(())
            }
            Err(e) => Err(Failure::new(
                crate::failure::API,
                format!("cannot write the output: {e}"),
            )),
            Ok(()) => Ok(()),
        }
    }
}

/// Writes records as one pretty JSON array, each as it comes: the same text as
/// [`emit_json`] of the array (no control character raw: [`untrusted::json_text`]),
/// without holding it.
fn write_json_array(
    out: &mut ListOut<impl Write>,
    records: impl Iterator<Item = Result<Value, Failure>>,
) -> Result<(), Failure> {
    let mut first = true;
    for record in records {
        if out.closed {
            break;
        }
        let text = untrusted::json_text(
            serde_json::to_string_pretty(&record?).map_err(serialise_failure)?,
        );
        out.write(if first { "[\n" } else { ",\n" })?;
        first = false;
        // An element of a pretty array is the element's own pretty text, indented
        // one level (JSON text has no newline inside a string).
        for (index, line) in text.split('\n').enumerate() {
            if index > 0 {
                out.write("\n")?;
            }
            out.write("  ")?;
            out.write(line)?;
        }
    }
    out.write(if first { "[]\n" } else { "\n]\n" })?;
    out.finish()
}

/// Writes records as one YAML sequence, each as it comes: a block sequence is its
/// elements' one-element sequences, one after the other (no control character raw:
/// [`untrusted::yaml_text`]).
fn write_yaml_sequence(
    out: &mut ListOut<impl Write>,
    records: impl Iterator<Item = Result<Value, Failure>>,
) -> Result<(), Failure> {
    let mut empty = true;
    for record in records {
        if out.closed {
            break;
        }
        let text = untrusted::yaml_text(&Value::Array(vec![record?])).map_err(serialise_failure)?;
        out.write(&text)?;
        empty = false;
    }
    if empty {
        out.write("[]\n")?;
    }
    out.finish()
}

fn serialise_failure(error: impl std::fmt::Display) -> Failure {
    Failure::new(
        crate::failure::API,
        format!("cannot serialise the result: {error}"),
    )
}

/// The records that pass `--filter`, in `--sort` order, at most `--limit` of them.
fn shape_list(mut items: Vec<Value>, shape: &Shape) -> Result<Vec<Value>, Failure> {
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
fn passes_filters(item: &Value, filters: &[(String, String)]) -> bool {
    filters.iter().all(|(field, pattern)| {
        values_at(item, field)
            .iter()
            .any(|value| glob(&pattern.to_lowercase(), &value.to_lowercase()))
    })
}

/// Every scalar at a dotted path (each element of arrays along the way), as text.
fn values_at(value: &Value, path: &str) -> Vec<String> {
    let joined = lookup(value, path);
    if joined.is_empty() {
        return vec![String::new()];
    }
    let mut values: Vec<String> = joined.split(", ").map(str::to_owned).collect();
    values.push(joined);
    values
}

/// A glob: `*` any run of characters, `?` any one; the rest literal.
pub(crate) fn glob(pattern: &str, text: &str) -> bool {
    let (p, t): (Vec<char>, Vec<char>) = (pattern.chars().collect(), text.chars().collect());
    let (mut pi, mut ti) = (0, 0);
    let (mut star, mut mark) = (None, 0);
    while ti < t.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == t[ti]) {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some(pi);
            mark = ti;
            pi += 1;
        } else if let Some(s) = star {
            pi = s + 1;
            mark += 1;
            ti = mark;
        } else {
            return false;
        }
    }
    while pi < p.len() && p[pi] == '*' {
        pi += 1;
    }
    pi == p.len()
}

/// The record with only the given fields (dotted paths keep their nesting).
fn project(value: &Value, fields: &[String]) -> Value {
    let mut out = serde_json::Map::new();
    for field in fields {
        let mut source = Some(value);
        for part in field.split('.') {
            source = source.and_then(|v| v.get(part));
        }
        let parts: Vec<&str> = field.split('.').collect();
        let mut target = &mut out;
        for part in &parts[..parts.len() - 1] {
            let entry = target
                .entry((*part).to_owned())
                .or_insert_with(|| Value::Object(serde_json::Map::new()));
            if !entry.is_object() {
                *entry = Value::Object(serde_json::Map::new());
            }
            target = entry.as_object_mut().expect("an object was just put there");
        }
        target.insert(
            parts[parts.len() - 1].to_owned(),
            source.cloned().unwrap_or(Value::Null),
        );
    }
    Value::Object(out)
}

/// Prints YAML to stdout (no control character raw: [`untrusted::yaml_text`]).
fn emit_yaml(json: &Value) -> Result<(), Failure> {
    let text = untrusted::yaml_text(json).map_err(|e| {
        Failure::new(
            crate::failure::API,
            format!("cannot serialise the result: {e}"),
        )
    })?;
    emit(text.trim_end_matches('\n'))
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

    fn cells_of(rows: &[Vec<String>]) -> Cells {
        let mut cells = Cells::new(rows.first().map_or(0, Vec::len));
        for row in rows {
            cells.push_row(row);
        }
        cells
    }

    fn fitted_rows(fitted: &Fitted, cells: &Cells) -> Vec<Vec<String>> {
        (0..cells.rows())
            .map(|row| fitted.row(cells, row).collect())
            .collect()
    }

    #[test]
    fn tables_fit_by_cutting_free_text_then_dropping_columns() {
        let headers: Vec<String> = ["ID", "NAME", "TEMPLATE", "IPS"].map(String::from).to_vec();
        let rows = vec![vec![
            "c90e8a9c-09ba-46e2-ae8a-0c71c86fa728".to_owned(),
            "web-1".to_owned(),
            "Windows Server 2019 Standard (64-bit)".to_owned(),
            "37.48.0.10, 37.48.0.11".to_owned(),
        ]];
        let cells = cells_of(&rows);
        let free = [false, false, true, false];
        let whole = fit(&headers, &cells, &free, None, true);
        assert_eq!(fitted_rows(&whole, &cells), rows);
        // 38 + 7 + 39 + 24 = 108 wide: the template is cut to fit 90.
        let cut = fit(&headers, &cells, &free, Some(90), true);
        let cut_rows = fitted_rows(&cut, &cells);
        assert!(cut.dropped.is_empty());
        assert_eq!(cut_rows[0][0], rows[0][0]);
        assert!(cut_rows[0][2].ends_with('…'), "{cut_rows:?}");
        assert_eq!(cut_rows[0][3], rows[0][3]);
        // Too narrow even so: the IPs go, the id stays whole.
        let narrow = fit(&headers, &cells, &free, Some(70), true);
        assert_eq!(narrow.dropped, ["IPS"]);
        assert_eq!(fitted_rows(&narrow, &cells)[0][0], rows[0][0]);
    }

    /// The table as one comfy-table would print it, the way it was printed before
    /// tables were built in chunks.
    fn one_table(printer: &Printer, headers: &[&str], rows: &[Vec<String>]) -> String {
        let mut table = printer.table(headers);
        for row in rows {
            table.add_row(row.iter().map(Cell::new).collect::<Vec<_>>());
        }
        format!("{table}\n")
    }

    #[test]
    fn a_table_built_in_chunks_prints_as_one_table() {
        // More rows than a chunk, the widest cells in a later chunk, a wide
        // character, a cell of two lines and an empty column.
        let rows: Vec<Vec<String>> = (0..TABLE_CHUNK * 2 + 7)
            .map(|i| {
                let name = match i {
                    1500 => "a much longer name than the others".to_owned(),
                    2000 => "名前 (wide)".to_owned(),
                    2001 => "two\nlines".to_owned(),
                    _ => format!("web-{i}"),
                };
                vec![i.to_string(), name, String::new()]
            })
            .collect();
        let cells = cells_of(&rows);
        for (color, headers) in [
            (false, vec!["ID", "NAME", "NOTES"]),
            (true, vec!["ID", "NAME", "NOTES"]),
            (false, vec![]),
        ] {
            let mut printer = Printer::new(Some(OutputFormat::Table), false);
            printer.color = color;
            let names: Vec<String> = ["ID", "NAME", "NOTES"].map(String::from).to_vec();
            let fitted = fit(&names, &cells, &[false; 3], None, !headers.is_empty());
            let mut out = ListOut::new(Vec::new());
            printer
                .emit_table(&mut out, &headers, &cells, &fitted)
                .unwrap();
            let chunked = String::from_utf8(out.out).unwrap();
            assert_eq!(
                chunked,
                one_table(&printer, &headers, &rows),
                "color {color}"
            );
        }
    }

    #[test]
    fn json_and_yaml_written_record_by_record_read_as_the_whole_array() {
        let records = [
            serde_json::json!({"id": "1", "ips": [{"ip": "10.0.0.1"}, {"ip": "10.0.0.2"}], "state": null}),
            serde_json::json!({"id": "2", "nested": {"a": {"b": [1, 2]}}, "text": "two\nlines: x"}),
            serde_json::json!({}),
        ];
        for count in [0, 1, 3] {
            let some = &records[..count];
            let whole = Value::Array(some.to_vec());
            let mut out = ListOut::new(Vec::new());
            write_json_array(&mut out, some.iter().cloned().map(Ok)).unwrap();
            assert_eq!(
                String::from_utf8(out.out).unwrap(),
                format!("{}\n", serde_json::to_string_pretty(&whole).unwrap())
            );
            let mut out = ListOut::new(Vec::new());
            write_yaml_sequence(&mut out, some.iter().cloned().map(Ok)).unwrap();
            assert_eq!(
                String::from_utf8(out.out).unwrap(),
                serde_yaml_ng::to_string(&whole).unwrap()
            );
        }
    }

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

    #[test]
    fn projections_keep_the_json_names() {
        let value =
            serde_json::json!({"id": "1", "location": {"site": "AMS-01", "rack": "r"}, "x": 2});
        assert_eq!(
            project(&value, &["id".into(), "location.site".into()]),
            serde_json::json!({"id": "1", "location": {"site": "AMS-01"}})
        );
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
