//! Aligned tables: fitted to the terminal, built and written in chunks.

use std::io::{IsTerminal, Write};

use comfy_table::{
    Attribute, Cell, Color, ColumnConstraint, ContentArrangement, Table, Width, presets,
};

use super::Printer;
use super::emit::ListOut;
use super::fit::{Cells, Fitted, Rule, fit};
use crate::failure::Failure;
use crate::untrusted;

impl Printer {
    /// A table of records fitted to the terminal (see [`fit`]): long values are
    /// shortened with `…`, identifiers never; columns are left out (a note on stderr
    /// says which) only when that is not enough, and never those `--columns` chose;
    /// `--wide` shows everything whole. `rules` says how each column may be fitted.
    pub(super) fn shaped_table(
        &self,
        cells: &Cells,
        headers: &[String],
        rules: &[Rule],
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
        let fitted = fit(&headers, cells, rules, width, !self.shape.no_headers);
        if !fitted.dropped.is_empty() {
            eprintln!(
                "note: {} left out to fit {} columns; --wide shows every column whole, --columns chooses the columns",
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

    pub(super) fn table(&self, headers: &[&str]) -> Table {
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

/// How many rows of a list's table comfy-table builds at a time (see
/// [`Printer::emit_table`]).
pub(super) const TABLE_CHUNK: usize = 1024;

#[cfg(test)]
mod tests {
    use comfy_table::Cell;

    use super::*;
    use crate::cli::OutputFormat;

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
        let mut cells = Cells::new(3);
        for row in &rows {
            cells.push_row(row);
        }
        for (color, headers) in [
            (false, vec!["ID", "NAME", "NOTES"]),
            (true, vec!["ID", "NAME", "NOTES"]),
            (false, vec![]),
        ] {
            let mut printer = Printer::new(Some(OutputFormat::Table), false);
            printer.color = color;
            let names: Vec<String> = ["ID", "NAME", "NOTES"].map(String::from).to_vec();
            let rules = [Rule {
                whole: false,
                chosen: false,
            }; 3];
            let fitted = fit(&names, &cells, &rules, None, !headers.is_empty());
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
}
