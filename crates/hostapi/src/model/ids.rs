//! The typed ids of every resource, and the one table of what each may be.
//!
//! The ids are declared here because several resource groups refer to each other's (an
//! IP names its bare metal or rack, a private network its members). Every typed id,
//! wherever declared, has one [`IdRule`] in [`ID_RULES`]: the SDK checks it on caller
//! input (`new`, `FromStr`) and on every id it reads from the wire, and the CLI checks
//! arguments and completion candidates with it. An id that passes its rule is one URL
//! path segment that needs no normalisation: no `/`, `?`, `#`, `%`, `\`, white space or
//! control character, never empty, `.` or `..`.

use std::fmt;

use super::macros::id_type;
use crate::Error;

id_type! {
    /// The id of a bare metal server (a string in lists, an integer in details).
    BareMetalId
}

id_type! {
    /// The id of a private rack (a string in lists, an integer in details).
    PrivateRackId
}

id_type! {
    /// The id of a private network.
    PrivateNetworkId
}

id_type! {
    /// The id of a DNS record (an integer sent as a string or as a number).
    DnsRecordId
}

id_type! {
    /// The id of an operating system in the catalogue.
    OperatingSystemId
}

id_type! {
    /// The id of a control panel in the catalogue.
    ControlPanelId
}

id_type! {
    /// The id of a rescue image in the catalogue.
    RescueImageId
}

id_type! {
    /// The id of a cloud v2 virtual server.
    CloudServerId
}

id_type! {
    /// The id of a private cloud.
    PrivateCloudId
}

id_type! {
    /// A CDN customer number.
    CustomerNumber
}

id_type! {
    /// A CDN zone id.
    ZoneId
}

id_type! {
    /// The id of a CDN origin.
    OriginId
}

id_type! {
    /// The id of a CDN purge job.
    PurgeJobId
}

/// The longest id any rule accepts, in bytes.
pub const MAX_ID_LEN: usize = 255;

/// What one kind of id may be. Every rule refuses an empty value, a value longer than
/// [`MAX_ID_LEN`], and anything that would not stay one URL path segment as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum IdRule {
    /// A non-negative integer in decimal digits, at most `i64::MAX` (`20001`).
    Number,
    /// A token: ASCII letters, digits, `.`, `_` and `-`, but not `.` or `..`
    /// (`C10001`, `zone-a1`).
    Token,
    /// A UUID-like token: ASCII letters, digits and `-`
    /// (`c90e8a9c-09ba-46e2-ae8a-0c71c86fa728`).
    UuidLike,
    /// A domain name: labels of ASCII letters, digits, `-` and `_` (not starting or
    /// ending with `-`), 1 to 63 long, 253 in all, an optional final dot.
    DomainName,
    /// A MAC address: twelve hex digits, grouped by `:`, `-` or `.` or not at all.
    MacAddress,
    /// Free text that is one path segment: printable, without `/`, `?`, `#`, `%`,
    /// `\`, white space or bidirectional controls, and not `.` or `..` (a credential's
    /// user name).
    Segment,
}

impl IdRule {
    /// Checks `value` as written (nothing is trimmed); `Err` says what is wrong, in
    /// words that fit after the value (`` `7/x` contains '/' ``).
    pub fn check(self, value: &str) -> Result<(), String> {
        if value.is_empty() {
            return Err("is empty".to_owned());
        }
        if value.len() > MAX_ID_LEN {
            return Err(format!("is longer than {MAX_ID_LEN} bytes"));
        }
        let shown = value.escape_debug();
        if value == "." || value == ".." {
            return Err(format!("`{shown}` is not an id"));
        }
        let bad = |allowed: fn(char) -> bool| value.chars().find(|c| !allowed(*c));
        let offending = match self {
            Self::Number => {
                if value.bytes().all(|b| b.is_ascii_digit()) && value.parse::<i64>().is_ok() {
                    return Ok(());
                }
                return Err(format!("`{shown}` is not {}", self.describe()));
            }
            Self::Token => bad(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')),
            Self::UuidLike => bad(|c| c.is_ascii_alphanumeric() || c == '-'),
            Self::DomainName => {
                return crate::validate::domain_name("", value)
                    .map_err(|_| format!("`{shown}` is not {}", self.describe()));
            }
            Self::MacAddress => {
                return match super::values::parse_mac(value) {
                    Some(_) if !value.contains(char::is_whitespace) => Ok(()),
                    _ => Err(format!("`{shown}` is not {}", self.describe())),
                };
            }
            Self::Segment => bad(|c| {
                !(c.is_whitespace()
                    || c.is_control()
                    || matches!(c, '/' | '?' | '#' | '%' | '\\')
                    || is_bidi_control(c))
            }),
        };
        match offending {
            None => Ok(()),
            Some(c) => Err(format!(
                "`{shown}` contains {c:?}, and is not {}",
                self.describe()
            )),
        }
    }

    /// What the rule accepts, in a few words (`a number`).
    pub fn describe(self) -> &'static str {
        match self {
            Self::Number => "a number",
            Self::Token => "a token of letters, digits, `.`, `_` and `-`",
            Self::UuidLike => "a UUID-like token of letters, digits and `-`",
            Self::DomainName => "a domain name like example.com",
            Self::MacAddress => "a MAC address like 00:1a:2b:3c:4d:5e",
            Self::Segment => "text without `/`, `?`, `#`, `%`, `\\` or white space",
        }
    }
}

/// The characters that reorder text when shown (bidirectional marks, embeddings,
/// overrides and isolates).
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

impl fmt::Display for IdRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.describe())
    }
}

/// One row of [`ID_RULES`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IdRuleRow {
    /// The SDK type (`BareMetalId`).
    pub id_type: &'static str,
    /// What it may be.
    pub rule: IdRule,
    /// What the API documents and the spec say of it, which the rule follows.
    pub documents: &'static str,
}

/// A typed id of the SDK: a value of one [`IdRule`], checked whenever one is made from
/// text (by the caller or read from the wire).
pub trait TypedId: std::str::FromStr<Err = Error> + fmt::Display + Sized {
    /// Its row of [`ID_RULES`].
    const ROW: IdRuleRow;

    /// The id as text.
    fn id_text(&self) -> &str;
}

/// An id read from the wire: made only when it passes its rule.
pub(crate) trait WireId: Sized {
    /// The id read from `text` (trimmed, not blank), or what is wrong with it.
    fn from_wire(text: String) -> Result<Self, String>;
}

/// An id whose type the record does not say (the server an IP is assigned to, a bare
/// metal server or a rack): kept as text only when it is a [`IdRule::Token`], so that it
/// too is safe as a path segment.
impl WireId for String {
    fn from_wire(text: String) -> Result<Self, String> {
        match IdRule::Token.check(&text) {
            Ok(()) => Ok(text),
            Err(why) => Err(format!("expected an id ({}): {why}", IdRule::Token)),
        }
    }
}

/// Declares [`ID_RULES`] and implements [`TypedId`] for every type in it: the one place
/// that says what each id may be.
macro_rules! id_rules {
    ($($ty:ident => $rule:ident, $documents:literal;)*) => {
        /// Every typed id of the SDK, the rule it is checked by, and what the API
        /// documents and the spec say of it.
        pub const ID_RULES: &[IdRuleRow] = &[$(IdRuleRow {
            id_type: stringify!($ty),
            rule: IdRule::$rule,
            documents: $documents,
        }),*];

        $(impl TypedId for crate::$ty {
            const ROW: IdRuleRow = IdRuleRow {
                id_type: stringify!($ty),
                rule: IdRule::$rule,
                documents: $documents,
            };

            fn id_text(&self) -> &str {
                self.as_str()
            }
        })*
    };
}

id_rules! {
    VirtualServerId => Number,
        "infra-v1: `id` integer; the path's `{id}` an integer (int64)";
    BareMetalId => Number,
        "infra-v1: `bareMetalId` a string in lists, an integer in the detail; the path segment is the same text";
    PrivateRackId => Number,
        "infra-v1: `privateRackId` a string in lists, an integer in the detail";
    PrivateNetworkId => Number,
        "infra-v1: `id` integer; the path's `{id}` an integer (int64)";
    DnsRecordId => Number,
        "infra-v1: `id` documented as an integer, displayed as a string";
    OperatingSystemId => Number,
        "infra-v1: `{id: integer, name}`; the path's `{operatingSystemId}` an integer";
    ControlPanelId => Number,
        "infra-v1: `{id: integer, name}`; the path's `{controlPanelId}` an integer";
    RescueImageId => Number,
        "infra-v1: `{id: integer, name}`; sent as the form field `osId` integer";
    JobId => Token,
        "infra-v1: `asyncjob.jobid` string; cloud-v2: job `id` string";
    CloudServerId => UuidLike,
        "cloud-v2: `id` string identifier (UUIDs in the samples); the path's `{id}` a string";
    PrivateCloudId => UuidLike,
        "cloud-v2: private cloud `id` string (UUIDs in the samples)";
    CustomerNumber => Token,
        "cdn: `customer_number` string; the path's `{customer_number}` a string";
    ZoneId => Token,
        "cdn: the type of `{zone_id}` is not documented; the spec says string";
    OriginId => Number,
        "cdn: origin `id` integer; the path's `{origin_id}` an integer";
    PurgeJobId => Number,
        "cdn: purge answers `{success: integer}`, the job id; the path's `{job_id}` an integer";
    CdnCustomerId => Number,
        "cdn: customer record `id` integer";
    DomainName => DomainName,
        "infra-v1: `domain` string, the path's `{domainname}` a domain name (example.com)";
    MacAddress => MacAddress,
        "infra-v1: lease `mac` string; the path's `{macaddress}` format is not documented";
    Username => Segment,
        "cloud-v2: credential `username` string, as listed; the path's `{username}` a string";
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The values a hostile server or a careless caller may send as an id.
    const HOSTILE: &[&str] = &[
        "",
        ".",
        "..",
        "7/../../x",
        "%2e%2e",
        "%2E",
        "a?b",
        "a#b",
        "a\nb",
        "a b",
        "a\\b",
        "\u{202e}1",
    ];

    #[test]
    fn no_rule_accepts_a_hostile_value() {
        for row in ID_RULES {
            for value in HOSTILE {
                assert!(
                    row.rule.check(value).is_err(),
                    "{} accepts {value:?}",
                    row.id_type
                );
            }
            // Shell syntax is refused by every rule but free text (a user name, which
            // completion does not offer unquoted).
            if row.rule != IdRule::Segment {
                assert!(row.rule.check("1000$(touch${IFS}pwned)").is_err());
            }
        }
    }

    #[test]
    fn each_rule_accepts_what_the_documents_show() {
        let good: &[(IdRule, &[&str])] = &[
            (IdRule::Number, &["20001", "0", "9223372036854775807"]),
            (
                IdRule::Token,
                &["C10001", "zone-a1", "1001", "a.b_c", "..."],
            ),
            (
                IdRule::UuidLike,
                &["c90e8a9c-09ba-46e2-ae8a-0c71c86fa728", "iso-7"],
            ),
            (
                IdRule::DomainName,
                &["example.com", "_sip._tcp.acme-1.com."],
            ),
            (IdRule::MacAddress, &["00:1a:2b:3c:4d:5e", "001A2B3C4D5E"]),
            (IdRule::Segment, &["root", "admin@example", "c0ffee:1"]),
        ];
        for (rule, values) in good {
            for value in *values {
                assert_eq!(rule.check(value), Ok(()), "{rule:?} {value:?}");
            }
        }
        let bad: &[(IdRule, &[&str])] = &[
            (
                IdRule::Number,
                &["-1", "1.5", "C10001", "9223372036854775808"],
            ),
            (IdRule::Token, &["a:b", "a~b", "é"]),
            (IdRule::UuidLike, &["a.b", "a_b"]),
            (IdRule::DomainName, &["-x.com", "a..b"]),
            (
                IdRule::MacAddress,
                &["00:1a:2b:3c:4d", " 00:1a:2b:3c:4d:5e"],
            ),
        ];
        for (rule, values) in bad {
            for value in *values {
                assert!(rule.check(value).is_err(), "{rule:?} accepts {value:?}");
            }
        }
    }

    #[test]
    fn every_id_type_is_in_the_table_once() {
        let mut names: Vec<&str> = ID_RULES.iter().map(|row| row.id_type).collect();
        names.sort_unstable();
        let before = names.len();
        names.dedup();
        assert_eq!(names.len(), before, "a type is in the table twice");
        // The table's rows are the types' own rows.
        assert_eq!(
            <crate::ZoneId as TypedId>::ROW.rule,
            IdRule::Token,
            "zone ids are tokens (the documents leave their type open)"
        );
        assert_eq!(<crate::CustomerNumber as TypedId>::ROW.rule, IdRule::Token);
        assert!("C10001".parse::<crate::CustomerNumber>().is_ok());
        assert!("zone-a1".parse::<crate::ZoneId>().is_ok());
        assert!("..".parse::<crate::ZoneId>().is_err());
        assert!("7a".parse::<crate::BareMetalId>().is_err());
    }
}
