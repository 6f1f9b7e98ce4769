//! Reading a configuration file safely: only a regular file (a FIFO, a device such as
//! `/dev/zero` or a directory is refused before anything is read), never more than a
//! cap (reading stops there), and text only.
//!
//! And the two things every parse error of such a file is checked for: a YAML file may
//! not hold anchors or aliases (expanding them is how a small file becomes gigabytes),
//! and an error message quotes at most the start of the offending token (a `.env` file
//! given by mistake would otherwise have its lines, credentials included, printed).

use std::io::Read;
use std::path::Path;

use super::FileError;

/// The largest configuration file read by default: 16 MiB (a zone of 100,000 records
/// is under 5 MiB).
pub const DEFAULT_MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Reads a configuration file's text: a regular file of at most `max_bytes`, in UTF-8.
///
/// A FIFO, a device (`/dev/zero`), a socket or a directory is refused before it is
/// read; a larger file is refused once `max_bytes + 1` bytes are read (the rest is
/// never read). Every error is a [`FileError`] naming the file.
pub fn read_text_file(path: impl AsRef<Path>, max_bytes: u64) -> Result<String, FileError> {
    let path = path.as_ref();
    let cannot = |e: std::io::Error| FileError::new(path, None, None, format!("cannot read: {e}"));
    // Checked before opening: opening a FIFO blocks until a writer comes.
    let metadata = std::fs::metadata(path).map_err(cannot)?;
    regular(path, &metadata)?;
    let file = std::fs::File::open(path).map_err(cannot)?;
    // … and again on what was opened, in case the name was swapped in between (then
    // the cap still bounds what is read).
    regular(path, &file.metadata().map_err(cannot)?)?;
    read_text(file, path, max_bytes)
}

/// Reads text from `reader` (standard input, say), at most `max_bytes` of it; `name`
/// names it in errors. A longer input is refused once `max_bytes + 1` bytes are read.
pub fn read_text(
    reader: impl Read,
    name: impl AsRef<Path>,
    max_bytes: u64,
) -> Result<String, FileError> {
    let name = name.as_ref();
    let mut bytes = Vec::new();
    reader
        .take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| FileError::new(name, None, None, format!("cannot read: {e}")))?;
    if bytes.len() as u64 > max_bytes {
        return Err(FileError::new(
            name,
            None,
            None,
            format!(
                "is larger than the limit of {max_bytes} bytes (raise it if the file is \
                 really meant: `max_file_bytes`, or --max-file-size in the CLI)"
            ),
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let text = String::from_utf8_lossy(&e.as_bytes()[..at]);
        let line = super::line_of(&text, at);
        FileError::new(
            name,
            Some(line),
            None,
            format!("is not UTF-8 text (byte {at})"),
        )
    })
}

/// Refuses what is not a regular file, naming what it is.
fn regular(path: &Path, metadata: &std::fs::Metadata) -> Result<(), FileError> {
    let kind = metadata.file_type();
    if kind.is_file() {
        return Ok(());
    }
    let what = if kind.is_dir() {
        "a directory"
    } else {
        special_kind(&kind)
    };
    Err(FileError::new(
        path,
        None,
        None,
        format!("is {what}, not a regular file: give a file (only files are read)"),
    ))
}

#[cfg(unix)]
fn special_kind(kind: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if kind.is_fifo() {
        "a FIFO (named pipe)"
    } else if kind.is_char_device() {
        "a character device"
    } else if kind.is_block_device() {
        "a block device"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "not a file"
    }
}

#[cfg(not(unix))]
fn special_kind(_: &std::fs::FileType) -> &'static str {
    "not a file"
}

/// Where a YAML text holds an anchor (`&name`) or an alias (`*name`): the line and
/// column (from 1) of the first, or `None`.
///
/// A scan of the text, not the parser's events (which `serde_yaml_ng` does not show):
/// it follows quoted scalars, comments, block scalars (`|`, `>`) and flow collections,
/// and takes `&` or `*` as an anchor or alias only where a node starts (after
/// indentation, `- `, `? `, `: `, `[`, `{`, `,` or a tag). A plain scalar starting with
/// `*` is an alias in YAML anyway (`*.example.com` must be quoted).
pub(crate) fn yaml_anchor(text: &str) -> Option<(usize, usize)> {
    let mut quote: Option<char> = None;
    let mut flow_depth = 0usize;
    // The column of the node that holds an open block scalar: lines indented
    // deeper (or blank) are its text.
    let mut block_scalar: Option<usize> = None;
    let mut node_next = true;
    for (number, line) in text.lines().enumerate() {
        let content = line.trim_start_matches([' ', '\t']);
        let indent = line.len() - content.len();
        if let Some(parent) = block_scalar {
            if content.is_empty() || indent > parent {
                continue;
            }
            block_scalar = None;
        }
        if quote.is_none() && flow_depth == 0 {
            node_next = true;
        }
        let mut chars = content.char_indices().peekable();
        let mut previous = ' ';
        // Where this line's last scalar, mapping key and `-` began.
        let (mut scalar, mut key, mut dash) = (None, None, None);
        while let Some((at, c)) = chars.next() {
            let next = chars.peek().map(|&(_, n)| n);
            let ends_token = |n: Option<char>| {
                n.is_none_or(|n| n.is_whitespace() || (flow_depth > 0 && ",[]{}".contains(n)))
            };
            if let Some(open) = quote {
                match c {
                    '\\' if open == '"' => {
                        chars.next();
                    }
                    '\'' if open == '\'' && next == Some('\'') => {
                        chars.next();
                    }
                    c if c == open => {
                        quote = None;
                        node_next = false;
                    }
                    _ => {}
                }
                previous = c;
                continue;
            }
            match c {
                '#' if previous.is_whitespace() => break,
                c if c.is_whitespace() => {}
                '&' | '*' if node_next => return Some((number + 1, indent + at + 1)),
                '!' if node_next => {
                    // A tag: the node follows it.
                    while chars.peek().is_some_and(|&(_, n)| !n.is_whitespace()) {
                        chars.next();
                    }
                }
                '"' | '\'' if node_next => {
                    quote = Some(c);
                    scalar = Some(indent + at);
                }
                '-' | '?' if node_next && ends_token(next) => dash = Some(indent + at),
                '[' | '{' if node_next || flow_depth > 0 => {
                    flow_depth += 1;
                    node_next = true;
                }
                ']' | '}' if flow_depth > 0 => {
                    flow_depth -= 1;
                    node_next = false;
                }
                ',' if flow_depth > 0 => node_next = true,
                ':' if ends_token(next) => {
                    key = scalar;
                    node_next = true;
                }
                '|' | '>' if node_next && flow_depth == 0 => {
                    block_scalar = Some(key.or(dash).unwrap_or(indent));
                    break;
                }
                _ => {
                    if node_next {
                        scalar = Some(indent + at);
                    }
                    node_next = false;
                }
            }
            previous = c;
        }
    }
    None
}

/// A parser's message with every quoted value (`"…"`, `` `…` ``) cut to its first
/// token (up to white space), and left out whole when that token is longer than
/// [`MAX_TOKEN_CHARS`]. Never cut inside a token: a secret the caller scrubs by value
/// (the configured credentials) must stay whole to be found.
pub(crate) fn quiet_message(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(256));
    let mut rest = message;
    while let Some(open) = rest.find(['"', '`']) {
        let quote = rest[open..].chars().next().unwrap_or('"');
        out.push_str(&rest[..=open]);
        let after = &rest[open + 1..];
        // The value runs to its closing quote (the last one, for a value quoting
        // quotes), or to the end.
        let close = value_end(after, quote);
        let value = &after[..close];
        let token = value.split(char::is_whitespace).next().unwrap_or("");
        if token.chars().count() > MAX_TOKEN_CHARS {
            out.push('…');
        } else {
            out.push_str(token);
            if token.len() < value.len() {
                out.push('…');
            }
        }
        match after.get(close..) {
            Some(tail) if !tail.is_empty() => {
                out.push(quote);
                rest = &tail[quote.len_utf8()..];
            }
            _ => return out,
        }
    }
    out.push_str(rest);
    out
}

/// The longest token [`quiet_message`] quotes.
const MAX_TOKEN_CHARS: usize = 40;

/// Where a quoted value that starts `text` ends: at the closing quote followed by the
/// end, a comma or a space (serde's messages: `string "…", expected …`), else at the
/// next quote.
fn value_end(text: &str, quote: char) -> usize {
    let mut first = None;
    for (at, c) in text.char_indices() {
        if c != quote {
            continue;
        }
        first.get_or_insert(at);
        let following = text[at + c.len_utf8()..].chars().next();
        if following.is_none_or(|f| f == ',' || f == ' ' || f == ')' || f == ';') {
            return at;
        }
    }
    first.unwrap_or(text.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors_and_aliases_are_found_where_a_node_starts() {
        for (text, at) in [
            ("a: &x 1\nb: *x\n", (1, 4)),
            ("list:\n  - *x\n", (2, 5)),
            ("flow: [1, *x]\n", (1, 11)),
            ("m: {k: &a v}\n", (1, 8)),
            ("t: !!str &a v\n", (1, 10)),
            ("<<: *base\n", (1, 5)),
            ("name: *.example.com\n", (1, 7)),
            ("b: |\n  *text\nc: *x\n", (3, 4)),
            ("? &k key\n: v\n", (1, 3)),
            ("list:\n  - value: |\n      text\n    ttl: *x\n", (4, 10)),
        ] {
            assert_eq!(yaml_anchor(text), Some(at), "{text:?}");
        }
    }

    #[test]
    fn ampersands_and_stars_inside_values_are_text() {
        for text in [
            "a: b&c\n",
            "a: hello *world\n",
            "a: \"*x\"\nb: '&y'\n",
            "a: 'it''s *x'\n",
            "a: \"esc \\\" *x\"\n",
            "a: 1 # *comment\n",
            "a: |\n  *block\n  &more\n",
            "- |\n  *text\n- >\n  &more\n",
            "a: >-\n  *folded\n\n  &x\nb: c\n",
            "a: \"multi\n  *line\"\n",
            "v=spf1 include:_spf.example.com ~all\n",
            "a: [\"*\", '&']\n",
            "a: 3*4\n",
        ] {
            assert_eq!(yaml_anchor(text), None, "{text:?}");
        }
    }

    /// A directory of the test's own, removed when dropped.
    struct Dir(std::path::PathBuf);

    impl Dir {
        fn new(name: &str) -> Self {
            let path = std::env::temp_dir()
                .join(format!("hostapi-file-test-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&path);
            std::fs::create_dir_all(&path).unwrap();
            Self(path)
        }
    }

    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn only_regular_files_are_read() {
        let dir = Dir::new("kinds");
        let error = read_text_file("/dev/zero", 1024).unwrap_err();
        assert!(error.message.contains("a character device"), "{error}");
        let error = read_text_file(&dir.0, 1024).unwrap_err();
        assert!(error.message.contains("a directory"), "{error}");
        let fifo = dir.0.join("pipe.yaml");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo runs");
        assert!(made.success());
        // Were it opened, this would wait for a writer forever.
        let error = read_text_file(&fifo, 1024).unwrap_err();
        assert!(error.message.contains("FIFO"), "{error}");
        let error =
            crate::DnsZone::read_file(&fifo, &"example.com".parse().unwrap(), None).unwrap_err();
        assert!(error.message.contains("FIFO"), "{error}");
    }

    #[test]
    fn reading_stops_at_the_cap() {
        let dir = Dir::new("cap");
        let file = dir.0.join("big.yaml");
        std::fs::write(&file, "x".repeat(2048)).unwrap();
        assert_eq!(read_text_file(&file, 2048).unwrap().len(), 2048);
        let error = read_text_file(&file, 2047).unwrap_err();
        assert!(
            error
                .message
                .contains("larger than the limit of 2047 bytes"),
            "{error}"
        );
        // An endless reader is read up to the cap and one byte.
        let error = read_text(std::io::repeat(b'a'), "endless", 1 << 20).unwrap_err();
        assert!(error.message.contains("larger than"), "{error}");
        let error = read_text(&b"ok \xff"[..], "bytes", 100).unwrap_err();
        assert!(error.message.contains("not UTF-8"), "{error}");
        let error = crate::CdnConfig::read_file_capped(&file, None, 100).unwrap_err();
        assert!(error.message.contains("larger than"), "{error}");
    }

    #[test]
    fn a_file_of_aliases_is_refused_fast() {
        let mut text = String::from("base: &a [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\nrecords:\n");
        for _ in 0..10_000 {
            text.push_str("  - *a\n");
        }
        let started = std::time::Instant::now();
        let domain = "example.com".parse().unwrap();
        let error =
            crate::DnsZone::from_text(&text, "aliases.yaml", &domain, crate::FileFormat::Yaml)
                .unwrap_err();
        assert!(started.elapsed() < std::time::Duration::from_secs(1));
        assert_eq!((error.line, error.column), (Some(1), Some(7)), "{error}");
        assert!(error.message.contains("anchors and aliases"), "{error}");
        let error = crate::CdnConfig::from_text(
            "origins: []\nacl: &x {}\n",
            "cdn.yaml",
            crate::FileFormat::Yaml,
        )
        .unwrap_err();
        assert!(error.message.contains("anchors and aliases"), "{error}");
    }

    #[test]
    fn a_parse_error_quotes_no_more_than_a_token() {
        let domain: hostapi::types::DomainName = "example.com".parse().unwrap();
        let dot_env = "HOSTAPI_API_KEY=key-0123456789abcdef0123456789abcdef\n\
                       HOSTAPI_CDN_SECRET=secret-0123456789\n";
        for format in [
            crate::FileFormat::Yaml,
            crate::FileFormat::Toml,
            crate::FileFormat::Bind,
        ] {
            let error = crate::DnsZone::from_text(dot_env, ".env", &domain, format).unwrap_err();
            let shown = error.to_string();
            assert!(!shown.contains("key-0123"), "{format}: {shown}");
            assert!(!shown.contains("secret-0123"), "{format}: {shown}");
            assert!(shown.starts_with(".env:"), "{format}: {shown}");
            assert!(error.line.is_some(), "{format}: {shown}");
        }
        // The line and column of the offending value, and what was expected.
        let error = crate::DnsZone::from_text(
            "records:\n  - name: www\n    type: A\n    values: {x: 1}\n",
            "zone.yaml",
            &domain,
            crate::FileFormat::Yaml,
        )
        .unwrap_err();
        assert_eq!(error.line, Some(4), "{error}");
        assert!(error.column.is_some(), "{error}");
        assert!(error.to_string().starts_with("zone.yaml:4:"), "{error}");
        let error = crate::DnsZone::from_text(
            "ttl = \"long text here\"\n",
            "zone.toml",
            &domain,
            crate::FileFormat::Toml,
        )
        .unwrap_err();
        assert_eq!((error.line, error.column), (Some(1), Some(7)), "{error}");
        assert!(!error.message.contains("text here"), "{error}");
    }

    #[test]
    fn quoted_values_are_cut_to_their_first_token() {
        assert_eq!(
            quiet_message(
                r#"invalid type: string "KEY=k-123 HOSTAPI_CDN_SECRET=s-456", expected struct FileDoc"#
            ),
            r#"invalid type: string "KEY=k-123…", expected struct FileDoc"#
        );
        assert_eq!(
            quiet_message("unknown field `token abc`, expected `records`"),
            "unknown field `token…`, expected `records`"
        );
        let long = "a".repeat(41);
        assert_eq!(
            quiet_message(&format!(r#"invalid value: string "{long}", expected x"#)),
            r#"invalid value: string "…", expected x"#
        );
        assert_eq!(quiet_message("expected `.`, `=`"), "expected `.`, `=`");
        assert_eq!(quiet_message(r#"cut "abc"#), r#"cut "abc"#);
        assert_eq!(quiet_message(r#"cut "a b"#), r#"cut "a…"#);
    }
}
