//! Writing to stdout: whole documents, and lists record by record; a closed pipe
//! (`| head`) is never a failure.

use std::io::Write;

use serde_json::Value;

use crate::failure::Failure;
use crate::untrusted;

/// Prints JSON to stdout (pretty, one document; control characters in JSON's escapes).
pub(super) fn emit_json(json: &Value) -> Result<(), Failure> {
    let text = serde_json::to_string_pretty(json).map_err(|e| {
        Failure::new(
            crate::failure::API,
            format!("cannot serialise the result: {e}"),
        )
    })?;
    emit(&untrusted::json_text(text))
}

/// Prints YAML to stdout (no control character raw: [`untrusted::yaml_text`]).
pub(super) fn emit_yaml(json: &Value) -> Result<(), Failure> {
    let text = untrusted::yaml_text(json).map_err(|e| {
        Failure::new(
            crate::failure::API,
            format!("cannot serialise the result: {e}"),
        )
    })?;
    emit(text.trim_end_matches('\n'))
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

pub(super) fn emit(text: &str) -> Result<(), Failure> {
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

/// Stdout for a list written record by record: buffered, and a closed pipe (`| head`)
/// ends the writing (the caller stops at `closed`) without failing the command.
pub(super) struct ListOut<W> {
    pub(super) out: W,
    pub(super) closed: bool,
}

impl ListOut<std::io::BufWriter<std::io::StdoutLock<'static>>> {
    pub(super) fn stdout() -> Self {
        Self::new(std::io::BufWriter::with_capacity(
            64 * 1024,
            std::io::stdout().lock(),
        ))
    }
}

impl<W: Write> ListOut<W> {
    pub(super) fn new(out: W) -> Self {
        Self { out, closed: false }
    }

    pub(super) fn write(&mut self, text: &str) -> Result<(), Failure> {
        if self.closed {
            return Ok(());
        }
        let written = self.out.write_all(text.as_bytes());
        self.check(written)
    }

    /// Writes `text` and a newline.
    pub(super) fn line(&mut self, text: &str) -> Result<(), Failure> {
        self.write(text)?;
        self.write("\n")
    }

    pub(super) fn finish(&mut self) -> Result<(), Failure> {
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
pub(super) fn write_json_array(
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
pub(super) fn write_yaml_sequence(
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

pub(super) fn serialise_failure(error: impl std::fmt::Display) -> Failure {
    Failure::new(
        crate::failure::API,
        format!("cannot serialise the result: {error}"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
