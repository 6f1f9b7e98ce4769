//! Text the CLI did not write itself — names, states, messages and error pages from a
//! server, records from a file — on its way to a terminal, a table or a CSV file.
//!
//! One rule, the SDK's [`hostapi::error::escape_controls`]: control characters (C0, `DEL`,
//! C1), and the bidirectional formatting characters that reorder what is read, are
//! shown as escapes (`\x1b`, `\r`, `\u{202e}`), so what a server sends cannot set the
//! terminal's title, clear the screen, overwrite a line or disguise a name. Every
//! table cell and header, CSV/TSV cell, error, hint, progress line, plan line and
//! outcome message goes through [`line`] (or [`lines`] for the CLI's own multi-line
//! text). JSON and YAML keep the exact value, in their own escapes ([`json_text`],
//! [`yaml_text`]).
//!
//! CSV and TSV also guard against spreadsheet formulas ([`formula_guard`]).

use std::borrow::Cow;

use serde_json::Value;

/// Untrusted text for one line or one cell: every control character escaped,
/// newlines and tabs included.
pub(crate) fn line(text: &str) -> Cow<'_, str> {
    hostapi::error::escape_controls(text)
}

/// Text of several lines: each line as [`line`] makes it, the line breaks kept (a
/// carriage return is escaped, `\r\n` included).
pub(crate) fn lines(text: &str) -> Cow<'_, str> {
    if !text.split('\n').any(|l| matches!(line(l), Cow::Owned(_))) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(text.split('\n').map(line).collect::<Vec<_>>().join("\n"))
}

/// A file's text (a DNS zone or CDN configuration exported from the service) for a
/// terminal: each line as [`line`] makes it, its line breaks and tabs kept. The file
/// written through a pipe or to a file is not changed: it keeps the exact values.
pub(crate) fn file_for_terminal(text: &str) -> Cow<'_, str> {
    let escape = |l: &str| -> String { l.split('\t').map(line).collect::<Vec<_>>().join("\t") };
    if !text
        .split(['\n', '\t'])
        .any(|l| matches!(line(l), Cow::Owned(_)))
    {
        return Cow::Borrowed(text);
    }
    Cow::Owned(text.split('\n').map(escape).collect::<Vec<_>>().join("\n"))
}

/// A CSV or TSV cell as a spreadsheet may open it: a cell that starts with `=`, `+`,
/// `@`, a tab or a carriage return, or with `-` unless it is a negative number, would
/// run as a formula (`=HYPERLINK(…)`, `@SUM(…)`, `+cmd|…`, `-2+3+cmd|…`), so it gets a
/// leading `'` (the OWASP advice), which spreadsheets read as "text". The cell is
/// judged as it is written, nothing trimmed first. Negative numbers (`-5`, `-0.25`)
/// and a lone `-` are left alone.
pub(crate) fn formula_guard(cell: &str) -> Cow<'_, str> {
    let formula = match cell.as_bytes().first() {
        Some(b'=' | b'+' | b'@' | b'\t' | b'\r') => true,
        Some(b'-') => cell != "-" && !is_negative_number(cell),
        _ => false,
    };
    if formula {
        Cow::Owned(format!("'{cell}"))
    } else {
        Cow::Borrowed(cell)
    }
}

/// `-` then digits, with at most one `.` between digits: `-5`, `-0.25`.
fn is_negative_number(cell: &str) -> bool {
    let Some(number) = cell.strip_prefix('-') else {
        return false;
    };
    let (whole, fraction) = number.split_once('.').unwrap_or((number, "0"));
    let digits = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
    digits(whole) && digits(fraction)
}

/// JSON text as serde_json wrote it, with the characters it leaves raw and a terminal
/// could act on (`DEL`, C1, the bidirectional controls: see [`hostapi::error::escape_controls`])
/// written as JSON escapes (`\u009b`, `\u202e`) instead: the same value to every JSON
/// reader. serde_json already escapes the other controls; and outside strings its output
/// is ASCII, so every such character is inside a string, where `\uXXXX` means it.
pub(crate) fn json_text(text: String) -> String {
    if !text.chars().any(json_leaves_raw) {
        return text;
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if json_leaves_raw(c) {
            out.push_str(&format!("\\u{:04x}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out
}

/// A character serde_json writes raw that [`hostapi::error::escape_controls`] escapes.
fn json_leaves_raw(c: char) -> bool {
    u32::from(c) >= 0x7f && matches!(line(c.encode_utf8(&mut [0; 4])), Cow::Owned(_))
}

/// The value as YAML, with no control character raw. serde_yaml escapes C0, `DEL` and
/// C1 itself (`"\e]0;…\a"`), but writes the bidirectional controls raw: a string (or
/// key) that holds one is written as a double-quoted YAML scalar with JSON's escapes
/// (`"\u202e…"`, which YAML reads as the same text); everything else as serde_yaml
/// writes it.
pub(crate) fn yaml_text(value: &Value) -> Result<String, serde_yaml_ng::Error> {
    let mut hostile = Vec::new();
    let marked = mark_hostile(value, &mut hostile);
    if hostile.is_empty() {
        return serde_yaml_ng::to_string(value);
    }
    let plain = serde_yaml_ng::to_string(&marked)?;
    // Each marked string is a plain token of its own, found once in the text.
    let mut out = plain;
    for (index, text) in hostile.iter().enumerate() {
        let quoted = json_text(serde_json::to_string(text).unwrap_or_default());
        out = out.replacen(&marker(index), &quoted, 1);
    }
    Ok(out)
}

/// A character serde_yaml writes raw that [`hostapi::error::escape_controls`] escapes: those
/// above C1 (YAML counts them printable).
fn yaml_leaves_raw(c: char) -> bool {
    u32::from(c) > 0x9f && matches!(line(c.encode_utf8(&mut [0; 4])), Cow::Owned(_))
}

/// The prefix of the tokens that stand for strings holding control characters while
/// YAML is written: no string in a document holds it (see [`mark_hostile`]).
const MARKER: &str = "hostapi-escaped-";

fn marker(index: usize) -> String {
    // Zero-padded so that no marker is the beginning of another.
    format!("{MARKER}{index:08}-end")
}

/// The value with every string (and key) holding a character serde_yaml leaves raw, or
/// the marker prefix, replaced by a marker; the strings in `hostile`, in marker order.
fn mark_hostile(value: &Value, hostile: &mut Vec<String>) -> Value {
    let mark = |text: &String, hostile: &mut Vec<String>| -> String {
        if text.chars().any(yaml_leaves_raw) || text.contains(MARKER) {
            hostile.push(text.clone());
            marker(hostile.len() - 1)
        } else {
            text.clone()
        }
    };
    match value {
        Value::String(text) => Value::String(mark(text, hostile)),
        Value::Array(items) => {
            Value::Array(items.iter().map(|i| mark_hostile(i, hostile)).collect())
        }
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(key, child)| {
                    let key = mark(key, hostile);
                    (key, mark_hostile(child, hostile))
                })
                .collect(),
        ),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hostile strings of the probes.
    const HOSTILE: [&str; 7] = [
        "\x1b]0;pwned\x07",
        "\x1b[2J",
        "ok\rEVIL",
        "abc\x08\x08\x08xyz",
        "exe\u{202e}gnp.js",
        "\u{9b}31mred",
        "a\nb\tc\x7f\u{2066}",
    ];

    fn raw_control(text: &str) -> bool {
        matches!(line(text), Cow::Owned(_))
    }

    #[test]
    fn lines_and_cells_show_controls_escaped() {
        assert_eq!(line("\x1b]0;pwned\x07"), "\\x1b]0;pwned\\x07");
        assert_eq!(line("a\nb"), "a\\nb");
        assert_eq!(line("plain"), "plain");
        assert_eq!(
            lines("one\ntwo\x1b[2J\r\nthree"),
            "one\ntwo\\x1b[2J\\r\nthree"
        );
        assert!(matches!(lines("one\ntwo"), Cow::Borrowed("one\ntwo")));
        assert_eq!(
            file_for_terminal("www\tIN\tTXT\t\"\x1b[2J\u{202e}\"\n"),
            "www\tIN\tTXT\t\"\\x1b[2J\\u{202e}\"\n"
        );
        assert!(matches!(file_for_terminal("a\tb\n"), Cow::Borrowed(_)));
        for text in HOSTILE {
            assert!(!raw_control(&line(text)), "{text:?}");
        }
    }

    #[test]
    fn formula_cells_get_a_quote() {
        for cell in [
            "=1+1",
            "=HYPERLINK(\"http://evil\",\"x\")",
            "+cmd|' /C calc'!A0",
            "@SUM(A1)",
            "\t=1+1",
            "\r=1+1",
            "-cmd",
            "-=1",
            "- 1",
            "-2+3+cmd|' /C calc'!A0",
            "-1.",
            "-.5",
            "-1-1",
        ] {
            assert_eq!(formula_guard(cell), format!("'{cell}"), "{cell:?}");
        }
        for cell in [
            "", "-", "-5", "-0.25", "-10.5", "web-1", "a=b", "1+1", " =1", "'=1",
        ] {
            assert_eq!(formula_guard(cell), cell, "{cell:?}");
        }
    }

    #[test]
    fn json_keeps_the_value_in_its_own_escapes() {
        let value = Value::Array(HOSTILE.iter().map(|t| Value::from(*t)).collect());
        let text = json_text(serde_json::to_string_pretty(&value).unwrap());
        assert!(!raw_control(&text.replace('\n', "")), "{text}");
        assert!(
            text.contains("\\u009b") && text.contains("\\u202e"),
            "{text}"
        );
        let back: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back, value);
    }

    #[test]
    fn yaml_keeps_the_value_with_no_control_raw() {
        let mut record = serde_json::Map::new();
        for (i, text) in HOSTILE.iter().enumerate() {
            record.insert(format!("field{i}"), Value::from(*text));
        }
        record.insert("key\u{202e}".into(), Value::from("plain"));
        record.insert("name".into(), Value::from("web-1"));
        record.insert("lines".into(), Value::from("one\ntwo"));
        record.insert("marker".into(), Value::from(marker(0)));
        let value = Value::Array(vec![Value::Object(record), Value::from("\u{9b}")]);
        let text = yaml_text(&value).unwrap();
        for line_text in text.lines() {
            assert!(!raw_control(line_text), "{line_text:?} in\n{text}");
        }
        assert!(text.contains("name: web-1"), "{text}");
        assert!(text.contains("\\e]0;pwned\\a"), "{text}");
        let back: Value = serde_yaml_ng::from_str(&text).unwrap();
        assert_eq!(back, value, "{text}");
        // Nothing to escape: serde_yaml's text as it is.
        let calm = serde_json::json!({"name": "web-1", "n": 1});
        assert_eq!(
            yaml_text(&calm).unwrap(),
            serde_yaml_ng::to_string(&calm).unwrap()
        );
    }
}
