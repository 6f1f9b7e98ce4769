//! Values with a shape of their own, typed like ids: domain names, MAC addresses, the
//! user names of credentials. (IP addresses are [`std::net::IpAddr`].)

use std::fmt;
use std::str::FromStr;

#[cfg(feature = "schema")]
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::Error;

/// A domain name (`example.com`), checked when made from text (letters, digits, `-`
/// and `_` in labels of 1 to 63, 253 in all) and kept in lower case, without a final
/// dot.
///
/// ```
/// let name: hostapi::types::DomainName = "Example.COM.".parse()?;
/// assert_eq!(name.as_str(), "example.com");
/// assert!("not a domain".parse::<hostapi::types::DomainName>().is_err());
/// # Ok::<(), hostapi::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(transparent)]
pub struct DomainName(String);

impl DomainName {
    /// A value made without its check, for tests that need one no rule allows.
    #[cfg(test)]
    pub(crate) fn unchecked(value: &str) -> Self {
        Self(value.to_owned())
    }

    /// Checks and normalises a domain name.
    pub fn new(value: impl AsRef<str>) -> Result<Self, Error> {
        let value = value.as_ref().trim();
        crate::IdRule::DomainName
            .check(value)
            .map_err(|why| Error::invalid("domain", why))?;
        let name = value.strip_suffix('.').unwrap_or(value);
        Ok(Self(name.to_ascii_lowercase()))
    }

    /// The name as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A name read from the service: kept (in lower case, without a final dot) only when
/// it is a domain name.
impl super::WireId for DomainName {
    fn from_wire(text: String) -> Result<Self, String> {
        Self::new(&text).map_err(|_| {
            format!(
                "expected a domain name like example.com, found {}",
                crate::read::text::found(&text)
            )
        })
    }
}

impl FromStr for DomainName {
    type Err = Error;

    fn from_str(value: &str) -> Result<Self, Self::Err> {
        Self::new(value)
    }
}

/// Honours width, fill and alignment (`{:<20}`).
impl fmt::Display for DomainName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(&self.0)
    }
}

/// Reads the text as serialised, checked as one read from the service: a value that
/// breaks the rule is an error.
impl<'de> Deserialize<'de> for DomainName {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        <Self as super::WireId>::from_wire(text).map_err(serde::de::Error::custom)
    }
}

impl AsRef<str> for DomainName {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

/// A MAC address, in the canonical lower-case, colon-separated form
/// (`00:1a:2b:3c:4d:5e`). Read in any letter case, separated by `:`, `-` or `.`, or not
/// at all.
///
/// ```
/// let mac: hostapi::types::MacAddress = "00-1A-2B-3C-4D-5E".parse()?;
/// assert_eq!(mac.to_string(), "00:1a:2b:3c:4d:5e");
/// # Ok::<(), hostapi::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(transparent)]
pub struct MacAddress(String);

impl MacAddress {
    /// A value made without its check, for tests that need one no rule allows.
    #[cfg(test)]
    pub(crate) fn unchecked(value: &str) -> Self {
        Self(value.to_owned())
    }

    /// Reads a MAC address (see the type's docs).
    pub fn new(value: impl AsRef<str>) -> Result<Self, Error> {
        let value = value.as_ref();
        parse_mac(value).map(Self).ok_or_else(|| {
            Error::invalid(
                "mac",
                format!(
                    "`{}` is not a MAC address like 00:1a:2b:3c:4d:5e",
                    value.escape_debug()
                ),
            )
        })
    }

    /// The address as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A MAC address read from the service, in its canonical form: kept only when it
/// passes its rule.
impl super::WireId for MacAddress {
    fn from_wire(text: String) -> Result<Self, String> {
        crate::IdRule::MacAddress.check(&text)?;
        mac(&text)
    }
}

/// Reads a MAC address from the wire.
pub(crate) fn mac(text: &str) -> crate::read::text::Parsed<MacAddress> {
    parse_mac(text).map(MacAddress).ok_or_else(|| {
        format!(
            "expected a MAC address like 00:1a:2b:3c:4d:5e, found {}",
            crate::read::text::found(text)
        )
    })
}

/// Twelve hex digits, optionally grouped by `:`, `-` or `.` → `00:1a:2b:3c:4d:5e`.
pub(crate) fn parse_mac(text: &str) -> Option<String> {
    let mut mac = String::with_capacity(17);
    let mut digits = 0;
    for byte in text.trim().bytes() {
        match byte {
            b':' | b'-' | b'.' => {}
            digit if digit.is_ascii_hexdigit() && digits < 12 => {
                if digits > 0 && digits % 2 == 0 {
                    mac.push(':');
                }
                mac.push(char::from(digit.to_ascii_lowercase()));
                digits += 1;
            }
            _ => return None,
        }
    }
    (digits == 12).then_some(mac)
}

impl FromStr for MacAddress {
    type Err = Error;

    fn from_str(value: &str) -> Result<Self, Self::Err> {
        Self::new(value)
    }
}

/// Honours width, fill and alignment (`{:<20}`).
impl fmt::Display for MacAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(&self.0)
    }
}

/// Reads the text as serialised, checked as one read from the service: a value that
/// breaks the rule is an error.
impl<'de> Deserialize<'de> for MacAddress {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        <Self as super::WireId>::from_wire(text).map_err(serde::de::Error::custom)
    }
}

/// The user name of a credential (`root`, `admin`), checked when made from text to be
/// one URL path segment.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[serde(transparent)]
pub struct Username(String);

impl Username {
    /// A value made without its check, for tests that need one no rule allows.
    #[cfg(test)]
    pub(crate) fn unchecked(value: &str) -> Self {
        Self(value.to_owned())
    }

    /// Checks a user name.
    pub fn new(value: impl Into<String>) -> Result<Self, Error> {
        let value = value.into();
        crate::IdRule::Segment
            .check(&value)
            .map_err(|why| Error::invalid("username", why))?;
        Ok(Self(value))
    }

    /// The name as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A name read from the service: kept only when it is one path segment.
impl super::WireId for Username {
    fn from_wire(text: String) -> Result<Self, String> {
        match crate::IdRule::Segment.check(&text) {
            Ok(()) => Ok(Self(text)),
            Err(why) => Err(format!("expected a user name: {why}")),
        }
    }
}

impl FromStr for Username {
    type Err = Error;

    fn from_str(value: &str) -> Result<Self, Self::Err> {
        Self::new(value)
    }
}

/// Honours width, fill and alignment (`{:<20}`).
impl fmt::Display for Username {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(&self.0)
    }
}

/// Reads the text as serialised, checked as one read from the service: a value that
/// breaks the rule is an error.
impl<'de> Deserialize<'de> for Username {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        <Self as super::WireId>::from_wire(text).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The first reader of MAC addresses, kept to check the one above against.
    fn parse_mac_reference(text: &str) -> Option<String> {
        let digits: Vec<u8> = text
            .trim()
            .bytes()
            .filter(|b| !matches!(b, b':' | b'-' | b'.'))
            .collect();
        let separators_ok = text
            .trim()
            .bytes()
            .all(|b| b.is_ascii_hexdigit() || matches!(b, b':' | b'-' | b'.'));
        if digits.len() != 12 || !separators_ok || !digits.iter().all(u8::is_ascii_hexdigit) {
            return None;
        }
        let lower: Vec<char> = digits
            .iter()
            .map(|b| char::from(b.to_ascii_lowercase()))
            .collect();
        Some(
            lower
                .chunks(2)
                .map(|pair| pair.iter().collect::<String>())
                .collect::<Vec<_>>()
                .join(":"),
        )
    }

    proptest! {
        #[test]
        fn mac_reader_agrees_with_the_reference(text in "[ 0-9a-fA-Fg:.\\-]{0,20}") {
            prop_assert_eq!(parse_mac(&text), parse_mac_reference(&text));
        }

        #[test]
        fn mac_reader_agrees_on_grouped_addresses(
            groups in proptest::collection::vec("[0-9a-fA-F]{1,4}", 1..8),
            separator in "[:.\\- ]",
        ) {
            let text = groups.join(&separator);
            prop_assert_eq!(parse_mac(&text), parse_mac_reference(&text));
        }
    }

    #[test]
    fn mac_addresses_in_any_spelling() {
        for text in [
            "00:1a:2b:3c:4d:5e",
            "00-1A-2B-3C-4D-5E",
            "001a.2b3c.4d5e",
            "001A2B3C4D5E",
            " 00:1a:2b:3c:4d:5e ",
        ] {
            assert_eq!(
                parse_mac(text).as_deref(),
                Some("00:1a:2b:3c:4d:5e"),
                "{text}"
            );
        }
        for bad in [
            "00:1a:2b:3c:4d",
            "00:1a:2b:3c:4d:zz",
            "",
            "00 1a 2b 3c 4d 5e",
        ] {
            assert_eq!(parse_mac(bad), None, "{bad}");
        }
    }

    #[test]
    fn domain_names_are_checked_and_lower_cased() {
        assert_eq!(
            DomainName::new("Example.COM.").unwrap().as_str(),
            "example.com"
        );
        assert!(DomainName::new("a/b.com").is_err());
        assert!(DomainName::new("..").is_err());
        assert!(Username::new("a/b").is_err());
    }
}
