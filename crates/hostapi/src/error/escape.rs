//! Text from a server or a file, made safe to show: the characters that would act on a
//! terminal or reorder what is read are written as escapes instead.

use std::borrow::Cow;
use std::fmt::Write as _;

/// Text with every character that could act on a terminal, or change how the text
/// around it reads, written as a visible escape; everything else as it is.
///
/// Names, states, messages and error pages come from the service, and the service (or
/// whatever answers in its place) chooses them: printed raw, `ESC ] 0 ; … BEL` sets a
/// terminal's title, `ESC [ 2 J` clears the screen, a carriage return or backspaces
/// overwrite what was printed before, and a right-to-left override makes `exe.txt`
/// read as `txt.exe`. This function escapes, in the manner of `gh` and `kubectl`:
///
/// - every control character: C0 (`U+0000`–`U+001F`, tab, newline and carriage return
///   included), `DEL` and C1 (`U+0080`–`U+009F`, among them `U+009B`, a one-character
///   `ESC [` to many terminals);
/// - the bidirectional formatting characters (`U+061C`, `U+200E`, `U+200F`,
///   `U+202A`–`U+202E`, `U+2066`–`U+2069`) and the line and paragraph separators
///   (`U+2028`, `U+2029`).
///
/// They are written `\t`, `\n` and `\r`, `\xNN` for the other ASCII controls
/// (`\x1b`, `\x08`, `\x7f`), and `\u{NNNN}` above ASCII (`\u{9b}`, `\u{202e}`). A
/// backslash already in the text is left as it is, so the result is for people to
/// read, not to decode: keep the exact text where a program reads it (the errors of
/// this crate keep it in their fields; JSON keeps it in its own escapes).
///
/// The errors of this crate already escape the server's text they show, so printing
/// an [`Error`](crate::Error) with `{}` is safe.
///
/// ```
/// assert_eq!(hostapi::error::escape_controls("web-1"), "web-1");
/// assert_eq!(
///     hostapi::error::escape_controls("\x1b]0;pwned\x07a\u{202e}b\r"),
///     "\\x1b]0;pwned\\x07a\\u{202e}b\\r"
/// );
/// ```
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if !needs_escape(c) {
            out.push(c);
            continue;
        }
        let _ = match c {
            '\t' => out.write_str("\\t"),
            '\n' => out.write_str("\\n"),
            '\r' => out.write_str("\\r"),
            c if c.is_ascii() => write!(out, "\\x{:02x}", u32::from(c)),
            c => write!(out, "\\u{{{:x}}}", u32::from(c)),
        };
    }
    Cow::Owned(out)
}

/// Whether `c` is shown as an escape by [`escape_controls`].
fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061c}'
                | '\u{200e}'
                | '\u{200f}'
                | '\u{202a}'..='\u{202e}'
                | '\u{2066}'..='\u{2069}'
                | '\u{2028}'
                | '\u{2029}'
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_borrowed_as_it_is() {
        for text in ["", "web-1", "naïve café 東京 👍", "C:\\path", "a\u{200b}b"] {
            assert!(matches!(escape_controls(text), Cow::Borrowed(t) if t == text));
        }
    }

    #[test]
    fn every_terminal_control_is_escaped() {
        let cases = [
            ("\x1b]0;pwned\x07", "\\x1b]0;pwned\\x07"),
            ("\x1b[2J", "\\x1b[2J"),
            (
                "\x1b]8;;https://evil/\x1b\\link",
                "\\x1b]8;;https://evil/\\x1b\\link",
            ),
            ("ok\rbad", "ok\\rbad"),
            ("ok\x08\x08ba", "ok\\x08\\x08ba"),
            ("a\nb\tc", "a\\nb\\tc"),
            ("\0\x7f", "\\x00\\x7f"),
            ("\u{9b}2J", "\\u{9b}2J"),
            ("\u{85}", "\\u{85}"),
            ("exe\u{202e}txt.exe", "exe\\u{202e}txt.exe"),
            (
                "\u{2066}\u{2067}\u{2068}\u{2069}",
                "\\u{2066}\\u{2067}\\u{2068}\\u{2069}",
            ),
            (
                "\u{202a}\u{202b}\u{202c}\u{202d}",
                "\\u{202a}\\u{202b}\\u{202c}\\u{202d}",
            ),
            ("\u{200e}\u{200f}\u{61c}", "\\u{200e}\\u{200f}\\u{61c}"),
            ("a\u{2028}b\u{2029}", "a\\u{2028}b\\u{2029}"),
        ];
        for (raw, shown) in cases {
            assert_eq!(escape_controls(raw), shown, "{raw:?}");
        }
    }

    #[test]
    fn escaping_twice_changes_nothing_more() {
        let once = escape_controls("\x1b[31m\u{202e}x\r").into_owned();
        assert_eq!(escape_controls(&once), once);
        assert!(!once.chars().any(needs_escape));
    }
}
