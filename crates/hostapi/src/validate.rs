//! Checks on caller input, made before anything is sent. Each failure is an
//! [`Error::InvalidInput`] naming the argument and why.

use crate::Error;

/// The longest value accepted as one path segment.
const MAX_SEGMENT: usize = 255;

/// A value that goes into a URL path as one segment: not empty, no `/`, `?`, `#`, `%`,
/// `\`, white space or control characters, and not `.` or `..` (which URL
/// normalisation would turn into a different path).
pub(crate) fn path_segment(argument: &str, value: &str) -> Result<(), Error> {
    if value.is_empty() {
        return Err(Error::invalid(argument, "is empty"));
    }
    if value.len() > MAX_SEGMENT {
        return Err(Error::invalid(
            argument,
            format!("is longer than {MAX_SEGMENT} bytes"),
        ));
    }
    if value == "." || value == ".." {
        return Err(Error::invalid(argument, format!("`{value}` is not an id")));
    }
    if let Some(bad) = value
        .chars()
        .find(|c| c.is_whitespace() || c.is_control() || matches!(c, '/' | '?' | '#' | '%' | '\\'))
    {
        return Err(Error::invalid(
            argument,
            format!("`{}` contains {bad:?}", value.escape_debug()),
        ));
    }
    Ok(())
}

/// An id the API types as an integer.
pub(crate) fn integer_id(argument: &str, value: &str) -> Result<i64, Error> {
    value
        .parse::<i64>()
        .ok()
        .filter(|id| *id >= 0)
        .ok_or_else(|| {
            Error::invalid(
                argument,
                format!("`{}` is not a numeric id", value.escape_debug()),
            )
        })
}

/// A domain name: labels of letters, digits and hyphens (and `_` for service labels),
/// each 1–63 long, 253 in all.
pub(crate) fn domain_name(argument: &str, value: &str) -> Result<(), Error> {
    let name = value.strip_suffix('.').unwrap_or(value);
    let label_ok = |label: &str| {
        !label.is_empty()
            && label.len() <= 63
            && !label.starts_with('-')
            && !label.ends_with('-')
            && label
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    };
    if name.is_empty() || name.len() > 253 || !name.split('.').all(label_ok) {
        return Err(Error::invalid(
            argument,
            format!("`{}` is not a domain name", value.escape_debug()),
        ));
    }
    Ok(())
}

/// Text that must not be empty (after trimming).
pub(crate) fn not_blank(argument: &str, value: &str) -> Result<(), Error> {
    if value.trim().is_empty() {
        return Err(Error::invalid(argument, "is empty"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_segments_cannot_escape_their_place() {
        for bad in [
            "", ".", "..", "a/b", "a b", "a?b", "a#b", "%2e%2e", "a\\b", "a\nb",
        ] {
            assert!(path_segment("id", bad).is_err(), "{bad:?}");
        }
        for good in ["1234", "abc-DEF_1.2", "c0ffee:1"] {
            assert!(path_segment("id", good).is_ok(), "{good:?}");
        }
    }

    #[test]
    fn domain_names() {
        assert!(domain_name("domain", "example.com").is_ok());
        assert!(domain_name("domain", "_sip._tcp.example.com.").is_ok());
        assert!(domain_name("domain", "exa mple.com").is_err());
        assert!(domain_name("domain", "-x.com").is_err());
    }
}
