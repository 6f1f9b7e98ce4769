//! Checks on what the caller configures: base URLs and credentials.

use crate::Error;

/// Validates a base URL: `https://`, or plain `http://` for a loopback host only (the
/// simulator, tests). Returns it without a trailing slash, ready for paths to be
/// appended.
pub(crate) fn base_url(argument: &str, value: &str) -> Result<String, Error> {
    let url = url::Url::parse(value.trim())
        .map_err(|e| Error::invalid(argument, format!("`{value}` is not a URL: {e}")))?;
    if url.query().is_some() || url.fragment().is_some() {
        return Err(Error::invalid(
            argument,
            format!("`{value}` must not have a query or fragment"),
        ));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(Error::invalid(argument, "must not carry credentials"));
    }
    match url.scheme() {
        "https" => {}
        "http" if is_loopback(&url) => {}
        "http" => {
            return Err(Error::invalid(
                argument,
                format!(
                    "`{value}` is plain http; only https is accepted, except for loopback hosts (127.0.0.1, ::1, localhost)"
                ),
            ));
        }
        other => {
            return Err(Error::invalid(
                argument,
                format!("scheme `{other}` is not https"),
            ));
        }
    }
    Ok(url.as_str().trim_end_matches('/').to_owned())
}

fn is_loopback(url: &url::Url) -> bool {
    match url.host() {
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        Some(url::Host::Domain(name)) => name.eq_ignore_ascii_case("localhost"),
        None => false,
    }
}

/// Checks that a credential can travel in a header or a hash input without being
/// mangled. The reason never quotes the value.
pub(crate) fn credential(argument: &str, value: &str) -> Result<(), Error> {
    if value.is_empty() {
        return Err(Error::invalid(argument, "is empty"));
    }
    if value.trim() != value {
        return Err(Error::invalid(
            argument,
            "has leading or trailing white space",
        ));
    }
    if !value.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(Error::invalid(
            argument,
            "contains characters other than visible ASCII",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn https_anywhere_http_only_on_loopback() {
        assert_eq!(
            base_url("base_url", "https://api.example.com/").unwrap(),
            "https://api.example.com"
        );
        assert_eq!(
            base_url("base_url", "https://api.example.com/prefix/").unwrap(),
            "https://api.example.com/prefix"
        );
        assert_eq!(
            base_url("base_url", "http://127.0.0.1:8080").unwrap(),
            "http://127.0.0.1:8080"
        );
        assert_eq!(
            base_url("base_url", "http://[::1]:9").unwrap(),
            "http://[::1]:9"
        );
        assert_eq!(
            base_url("base_url", "http://localhost:1").unwrap(),
            "http://localhost:1"
        );
        for bad in [
            "http://api.example.com",
            "ftp://x",
            "not a url",
            "https://u:p@x.com",
            "https://x.com/?a=1",
        ] {
            let err = base_url("base_url", bad).unwrap_err();
            assert!(
                matches!(&err, Error::InvalidInput { argument, .. } if argument == "base_url"),
                "{bad}: {err}"
            );
        }
    }

    #[test]
    fn credentials_are_checked_without_being_quoted() {
        let err = credential("api_key", "sec ret").unwrap_err();
        assert!(!err.to_string().contains("sec ret"));
        assert!(credential("api_key", "").is_err());
        assert!(credential("api_key", "abc-DEF_123").is_ok());
    }
}
