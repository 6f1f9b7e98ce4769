use std::path::PathBuf;

/// Why a spec could not be turned into Rust. Each variant names the spec file; the
/// ones about a place in the spec also carry its JSON pointer.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CodegenError {
    /// The spec file could not be read.
    #[error("{spec}: cannot read: {source}")]
    Read {
        /// The spec file.
        spec: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file is not valid YAML.
    #[error("{spec}: not valid YAML: {message}")]
    Yaml {
        /// The spec file.
        spec: PathBuf,
        /// The parser's message, with line and column.
        message: String,
    },
    /// The YAML is not an OpenAPI 3.0 document, or breaks one of our rules.
    #[error("{spec}#{pointer}: {message}")]
    Invalid {
        /// The spec file.
        spec: PathBuf,
        /// JSON pointer of the offending node (empty for the whole document).
        pointer: String,
        /// What is wrong there.
        message: String,
    },
    /// progenitor could not generate a client from a valid document.
    #[error("{spec}#{pointer}: the generator failed: {message}")]
    Generate {
        /// The spec file.
        spec: PathBuf,
        /// JSON pointer of the operation that makes it fail, when it could be isolated.
        pointer: String,
        /// The generator's message.
        message: String,
    },
}

/// Escapes one JSON pointer segment (RFC 6901: `~` → `~0`, `/` → `~1`).
pub(crate) fn escape_segment(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use super::escape_segment;

    #[test]
    fn pointer_segments_are_escaped() {
        assert_eq!(escape_segment("/v1/a~b"), "~1v1~1a~0b");
    }
}
