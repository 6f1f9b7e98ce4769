//! Fitting a table to the terminal's width.

/// Free text that may be cut to fit (templates, descriptions, option lists), unlike
/// ids, names, IPs, URLs and dates, which are never split.
pub(super) fn is_free_text(path: &str) -> bool {
    let last = path.rsplit('.').next().unwrap_or(path);
    path.starts_with("options")
        || matches!(
            last,
            "template" | "description" | "notes" | "message" | "detail" | "comment"
        )
}

/// The text of a table's cells, row after row, in one buffer: a list of 200,000
/// records costs the text of its cells and an offset for each, not a `String` (nor a
/// comfy-table `Cell`) for each.
#[derive(Debug, Default)]
pub(super) struct Cells {
    pub(super) columns: usize,
    text: String,
    /// Where each cell ends in `text`, row after row.
    ends: Vec<usize>,
}

impl Cells {
    pub(super) fn new(columns: usize) -> Self {
        Self {
            columns,
            ..Self::default()
        }
    }

    /// Adds a row (of `columns` cells: missing ones are empty, extra ones ignored).
    pub(super) fn push_row<S: AsRef<str>>(&mut self, row: impl IntoIterator<Item = S>) {
        let mut row = row.into_iter();
        for _ in 0..self.columns {
            if let Some(cell) = row.next() {
                self.text.push_str(cell.as_ref());
            }
            self.ends.push(self.text.len());
        }
    }

    pub(super) fn rows(&self) -> usize {
        self.ends.len().checked_div(self.columns).unwrap_or(0)
    }

    pub(super) fn cell(&self, row: usize, column: usize) -> &str {
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
pub(super) struct Fitted {
    pub(super) headers: Vec<String>,
    /// Whether each column is shown.
    keep: Vec<bool>,
    /// For each free-text column, how many characters it shows (`None`: whole).
    cut_to: Vec<Option<usize>>,
    pub(super) dropped: Vec<String>,
}

impl Fitted {
    /// The shown cells of a row, free text cut with `…` to its width.
    pub(super) fn row<'c>(
        &'c self,
        cells: &'c Cells,
        row: usize,
    ) -> impl Iterator<Item = String> + 'c {
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
pub(super) fn fit(
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
