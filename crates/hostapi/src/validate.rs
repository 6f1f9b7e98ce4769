//! Checks on caller input, made before anything is sent. Each failure is an
//! [`Error::InvalidInput`] naming the argument and why.

use std::net::IpAddr;

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

/// An IPv4 or IPv6 address.
pub(crate) fn ip_address(argument: &str, value: &str) -> Result<IpAddr, Error> {
    value.parse().map_err(|_| {
        Error::invalid(
            argument,
            format!("`{}` is not an IPv4 or IPv6 address", value.escape_debug()),
        )
    })
}

/// A MAC address: six pairs of hex digits separated by `:` or `-`. Returns it in the
/// canonical lower-case, colon-separated form.
pub(crate) fn mac_address(argument: &str, value: &str) -> Result<String, Error> {
    let parts: Vec<&str> = value.split([':', '-']).collect();
    let valid = parts.len() == 6
        && parts
            .iter()
            .all(|p| p.len() == 2 && p.chars().all(|c| c.is_ascii_hexdigit()));
    if !valid {
        return Err(Error::invalid(
            argument,
            format!(
                "`{}` is not a MAC address like 00:1a:2b:3c:4d:5e",
                value.escape_debug()
            ),
        ));
    }
    Ok(parts.join(":").to_ascii_lowercase())
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
    fn addresses() {
        assert!(ip_address("ip", "192.0.2.1").is_ok());
        assert!(ip_address("ip", "2001:db8::1").is_ok());
        assert!(ip_address("ip", "300.1.1.1").is_err());
        assert_eq!(
            mac_address("mac", "00-1A-2b-3C-4d-5E").unwrap(),
            "00:1a:2b:3c:4d:5e"
        );
        assert!(mac_address("mac", "00:1a:2b:3c:4d").is_err());
        assert!(mac_address("mac", "00:1a:2b:3c:4d:zz").is_err());
        assert!(domain_name("domain", "example.com").is_ok());
        assert!(domain_name("domain", "_sip._tcp.example.com.").is_ok());
        assert!(domain_name("domain", "exa mple.com").is_err());
        assert!(domain_name("domain", "-x.com").is_err());
    }
}
