//! Fitting a table to the terminal's width: long values are shortened with `…` (the
//! widest first), and columns are left out only when shortening cannot make the table
//! fit. Widths are terminal columns (a CJK character or an emoji takes two), as
//! comfy-table measures them.

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// The fewest terminal columns a shortened value keeps (its `…` included), unless its
/// header is wider.
const SHORTEST: usize = 8;

/// How one column of a table may be fitted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Rule {
    /// An identifier (ids, and the value that names each row of the command's own
    /// table: a domain, an IP): always shown whole, so that it can be copied.
    pub(super) whole: bool,
    /// Chosen by `--columns`: never left out, however narrow the terminal.
    pub(super) chosen: bool,
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

    /// The widest cell of a column, in terminal columns.
    fn widest(&self, column: usize) -> usize {
        (0..self.rows())
            .map(|row| self.cell(row, column).width())
            .max()
            .unwrap_or(0)
    }
}

/// A table fitted to a width: the columns kept, and how wide each may be.
#[derive(Debug, PartialEq)]
pub(super) struct Fitted {
    pub(super) headers: Vec<String>,
    /// Whether each column is shown.
    keep: Vec<bool>,
    /// For each column, how many terminal columns its values may take (`None`: whole).
    cut_to: Vec<Option<usize>>,
    pub(super) dropped: Vec<String>,
}

impl Fitted {
    /// The shown cells of a row, each shortened with `…` to its column's width.
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
                    Some(width) => shorten(text, width),
                    None => text.to_owned(),
                }
            })
    }
}

/// `text` in at most `width` terminal columns: as it is when it fits, else its start
/// and `…`.
fn shorten(text: &str, width: usize) -> String {
    if text.width() <= width {
        return text.to_owned();
    }
    let room = width.saturating_sub(1);
    let mut used = 0;
    let mut short = String::new();
    for c in text.chars() {
        let w = c.width().unwrap_or(0);
        if used + w > room {
            break;
        }
        used += w;
        short.push(c);
    }
    let mut short = short.trim_end().to_owned();
    short.push('…');
    short
}

/// Fits rows to `width` terminal columns (each cell padded by one space each side).
///
/// Values are shortened first: every column that may be shortened is brought down to
/// one common width (the widest values lose most; none below [`SHORTEST`] or its
/// header) until the table fits. Only when that is not enough are columns left out:
/// the columns are taken in order (the first matters most), each kept if the table
/// still fits with it at its narrowest, so a column that fits is never left out
/// because one before it did not. The first column and the columns `--columns` chose
/// are never left out (the table is then wider than the terminal, if it must be).
pub(super) fn fit(
    headers: &[String],
    cells: &Cells,
    rules: &[Rule],
    width: Option<usize>,
    with_headers: bool,
) -> Fitted {
    let count = headers.len();
    let header_width = |i: usize| if with_headers { headers[i].width() } else { 0 };
    let natural: Vec<usize> = (0..count)
        .map(|i| cells.widest(i).max(header_width(i)))
        .collect();
    let floor: Vec<usize> = (0..count)
        .map(|i| {
            if rules[i].whole {
                natural[i]
            } else {
                natural[i].min(header_width(i).max(SHORTEST))
            }
        })
        .collect();
    // The table's width with the columns `keep` and values cut to `level`.
    let table_width = |keep: &[bool], level: usize| -> usize {
        (0..count)
            .filter(|&i| keep[i])
            .map(|i| natural[i].min(level).max(floor[i]) + 2)
            .sum()
    };
    let mut keep = vec![true; count];
    let mut dropped = Vec::new();
    let mut cut_to = vec![None; count];
    let Some(width) = width else {
        return Fitted {
            headers: headers.to_vec(),
            keep,
            cut_to,
            dropped,
        };
    };
    let widest = natural.iter().copied().max().unwrap_or(0);
    if table_width(&keep, 0) > width {
        // Too wide even with every value at its shortest: keep what fits, in order.
        keep = vec![false; count];
        for i in 0..count {
            keep[i] = true;
            if i > 0 && !rules[i].chosen && table_width(&keep, 0) > width {
                keep[i] = false;
            }
        }
        // A chosen column kept early may have made room for none after it; those that
        // were left out are named.
        for i in 0..count {
            if !keep[i] {
                dropped.push(headers[i].clone());
            }
        }
    }
    // The widest level at which the kept columns fit (0 when even that is too wide).
    let (mut low, mut high) = (0, widest);
    while low < high {
        let middle = (low + high).div_ceil(2);
        if table_width(&keep, middle) <= width {
            low = middle;
        } else {
            high = middle - 1;
        }
    }
    let level = low;
    // What is left below the width goes, a column each, to the first values cut.
    let mut spare = width.saturating_sub(table_width(&keep, level));
    for i in 0..count {
        if !keep[i] {
            continue;
        }
        let mut column = natural[i].min(level).max(floor[i]);
        if column < natural[i] && spare > 0 {
            column += 1;
            spare -= 1;
        }
        if column < natural[i] {
            cut_to[i] = Some(column);
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

    const CUT: Rule = Rule {
        whole: false,
        chosen: false,
    };
    const WHOLE: Rule = Rule {
        whole: true,
        chosen: false,
    };

    fn server() -> (Vec<String>, Vec<Vec<String>>) {
        let headers = ["ID", "NAME", "TEMPLATE", "IPS"].map(String::from).to_vec();
        let rows = vec![vec![
            "c90e8a9c-09ba-46e2-ae8a-0c71c86fa728".to_owned(),
            "web-1".to_owned(),
            "Windows Server 2019 Standard (64-bit)".to_owned(),
            "37.48.0.10, 37.48.0.11".to_owned(),
        ]];
        (headers, rows)
    }

    #[test]
    fn the_widest_values_are_shortened_before_any_column_goes() {
        let (headers, rows) = server();
        let cells = cells_of(&rows);
        let rules = [WHOLE, CUT, CUT, CUT];
        let whole = fit(&headers, &cells, &rules, None, true);
        assert_eq!(fitted_rows(&whole, &cells), rows);
        // 38 + 7 + 39 + 24 = 108 wide. At 100 only the template is cut; at 90 both
        // it and the IPs come down to one width (20, and the one column left over).
        let cut = fit(&headers, &cells, &rules, Some(100), true);
        let cut_rows = fitted_rows(&cut, &cells);
        assert!(cut.dropped.is_empty());
        assert_eq!(cut_rows[0][2], "Windows Server 2019 Standard…");
        assert_eq!(cut_rows[0][3], rows[0][3]);
        let cut = fit(&headers, &cells, &rules, Some(90), true);
        let cut_rows = fitted_rows(&cut, &cells);
        assert!(cut.dropped.is_empty());
        assert_eq!(cut_rows[0][0], rows[0][0]);
        assert_eq!(cut_rows[0][2], "Windows Server 2019…");
        assert_eq!(cut_rows[0][3], "37.48.0.10, 37.48.0…");
        let line: usize = cut_rows[0].iter().map(|c| c.width() + 2).sum();
        assert!((88..=90).contains(&line), "{line}");
        // Too narrow even at the shortest: the columns that do not fit go, the id
        // stays whole.
        let narrow = fit(&headers, &cells, &rules, Some(55), true);
        assert_eq!(narrow.dropped, ["IPS"]);
        assert_eq!(narrow.headers, ["ID", "NAME", "TEMPLATE"]);
        assert_eq!(fitted_rows(&narrow, &cells)[0][0], rows[0][0]);
        assert_eq!(fitted_rows(&narrow, &cells)[0][2], "Windows…");
    }

    #[test]
    fn a_column_that_fits_stays_when_one_before_it_does_not() {
        let headers = ["ID", "REFERENCE", "STATE"].map(String::from).to_vec();
        let rows = vec![vec![
            "1".to_owned(),
            "c90e8a9c-09ba-46e2-ae8a-0c71c86fa728".to_owned(),
            "running".to_owned(),
        ]];
        let cells = cells_of(&rows);
        let fitted = fit(&headers, &cells, &[WHOLE, WHOLE, CUT], Some(30), true);
        assert_eq!(fitted.dropped, ["REFERENCE"]);
        assert_eq!(fitted_rows(&fitted, &cells), [["1", "running"]]);
    }

    #[test]
    fn chosen_columns_are_never_left_out() {
        let (headers, rows) = server();
        let cells = cells_of(&rows);
        let chosen = Rule {
            whole: false,
            chosen: true,
        };
        let fitted = fit(&headers, &cells, &[chosen; 4], Some(30), true);
        assert!(fitted.dropped.is_empty());
        assert_eq!(
            fitted_rows(&fitted, &cells),
            [["c90e8a9…", "web-1", "Windows…", "37.48.0…"]]
        );
    }

    #[test]
    fn values_are_shortened_by_their_width_on_the_terminal() {
        assert_eq!(shorten("名前名前名前", 7), "名前名…");
        assert_eq!(shorten("名前", 4), "名前");
        assert_eq!(shorten("abc def", 5), "abc…");
    }
}
