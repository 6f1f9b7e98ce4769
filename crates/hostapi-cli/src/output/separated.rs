//! CSV and TSV: RFC 4180 quoting, control characters escaped, spreadsheet formulas
//! guarded.

use std::borrow::Cow;

use super::Printer;
use super::emit::ListOut;
use crate::cli::OutputFormat;
use crate::failure::Failure;
use crate::untrusted;

impl Printer {
    /// CSV (RFC 4180 quoting) or TSV, with a header of JSON field names unless
    /// `--no-headers`; each cell as [`Printer::separated_cell`] writes it, each row
    /// written as it comes.
    pub(super) fn emit_separated(
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
}
