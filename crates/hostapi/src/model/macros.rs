//! The two shapes every resource module uses: typed ids and open enums.

/// Declares an id newtype.
///
/// Ids travel as strings or integers depending on the view; the newtype holds the
/// canonical text (integers in decimal). Every id type has one rule in
/// [`ID_RULES`](crate::ID_RULES) (add its row there): ids a caller passes in are
/// checked by [`new`](crate::BareMetalId::new) / `FromStr`, and ids read from the
/// server by the same rule (an id that breaks it makes its record unreadable), so every
/// id is safe as one URL path segment. There is no conversion from unchecked text.
macro_rules! id_type {
    ($(#[$meta:meta])* $name:ident) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
        #[serde(transparent)]
        pub struct $name(String);

        impl $name {
            /// Checks that `value` is this id by its rule in
            /// [`ID_RULES`](crate::ID_RULES) (never empty, `.`, `..`, or more than one
            /// URL path segment).
            pub fn new(value: impl Into<String>) -> Result<Self, $crate::Error> {
                let value = value.into();
                <Self as $crate::TypedId>::ROW
                    .rule
                    .check(&value)
                    .map_err(|why| $crate::Error::invalid(stringify!($name), why))?;
                Ok(Self(value))
            }

            /// The id as text.
            pub fn as_str(&self) -> &str {
                &self.0
            }

            /// An id made without its check, for tests that need a value no rule
            /// allows.
            #[cfg(test)]
            #[allow(dead_code)]
            pub(crate) fn unchecked(value: &str) -> Self {
                Self(value.to_owned())
            }
        }

        /// An id read from the server: kept only when it passes its rule.
        impl $crate::model::WireId for $name {
            fn from_wire(text: String) -> Result<Self, String> {
                let rule = <Self as $crate::TypedId>::ROW.rule;
                match rule.check(&text) {
                    Ok(()) => Ok(Self(text)),
                    Err(why) => Err(format!(
                        "expected a {} ({}): {why}",
                        stringify!($name),
                        rule.describe()
                    )),
                }
            }
        }

        /// Reads the id as it serialises (text, or an integer as the wire sends some),
        /// checked by its rule: an id that breaks it is an error, never a panic.
        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let text = deserializer.deserialize_any($crate::model::macros::IdText)?;
                <Self as $crate::model::WireId>::from_wire(text).map_err(serde::de::Error::custom)
            }
        }

        /// Honours width, fill and alignment (`{:>8}`).
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.pad(&self.0)
            }
        }

        impl std::str::FromStr for $name {
            type Err = $crate::Error;

            fn from_str(value: &str) -> Result<Self, Self::Err> {
                Self::new(value)
            }
        }

        impl TryFrom<&str> for $name {
            type Error = $crate::Error;

            fn try_from(value: &str) -> Result<Self, Self::Error> {
                Self::new(value)
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        /// A number is a valid id of every rule an `id_type!` is declared with (a
        /// number, a token, a UUID-like token).
        impl From<u64> for $name {
            fn from(value: u64) -> Self {
                Self(value.to_string())
            }
        }

        impl From<u32> for $name {
            fn from(value: u32) -> Self {
                Self(value.to_string())
            }
        }
    };
}

/// The text of an id as it serialises: a string, or a non-negative integer (in
/// decimal), the two shapes ids take.
pub(crate) struct IdText;

impl serde::de::Visitor<'_> for IdText {
    type Value = String;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an id (a string or a non-negative integer)")
    }

    fn visit_str<E: serde::de::Error>(self, value: &str) -> Result<String, E> {
        Ok(value.to_owned())
    }

    fn visit_string<E: serde::de::Error>(self, value: String) -> Result<String, E> {
        Ok(value)
    }

    fn visit_u64<E: serde::de::Error>(self, value: u64) -> Result<String, E> {
        Ok(value.to_string())
    }

    fn visit_i64<E: serde::de::Error>(self, value: i64) -> Result<String, E> {
        // A negative number breaks every rule; the rule says so.
        Ok(value.to_string())
    }
}

/// A value of an open set that the documents do not name, as the service sent it
/// (trimmed, in the letter case it came in). It can only be made by
/// reading a value ([`FromStr`](std::str::FromStr) on the set), so a value the
/// documents name is never unknown.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Unrecognized(String);

impl Unrecognized {
    /// The value.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Only the open enums build these, from text they did not recognise.
    pub(crate) fn new(value: String) -> Self {
        Self(value)
    }
}

impl std::fmt::Display for Unrecognized {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(&self.0)
    }
}

/// Declares an open enum: the values the documents name, plus `Unknown` for any other
/// value the server sends (kept, never an error).
///
/// Each variant names its wire spelling (matched without regard to letter case) and
/// the name it serialises as: `Running = "RUNNING" => "running"`. An unknown value keeps
/// the letter case it came in, and serialises so; it reads back (`Deserialize`,
/// `FromStr`) into the same value. Two unknown values are equal when they differ in
/// letter case only (as the set reads them), except in an `(exact)` set. A set declared `(upper)` (DNS record types) only says
/// so in its schema: its known names are upper case. A set declared `(exact)` matches
/// wire spellings in their exact letter case (units, where `Gb` and `GB` differ) and its
/// serialised names in any.
macro_rules! open_enum {
    (
        $(#[$meta:meta])*
        $name:ident $(($mode:ident))? {
            $( $(#[$vmeta:meta])* $variant:ident = $wire:literal => $snake:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone)]
        #[non_exhaustive]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )+
            /// A value the documents do not name, as the server sent it (see
            /// [`Unrecognized`](crate::Unrecognized)).
            Unknown($crate::Unrecognized),
        }

        impl $name {
            /// Whether `text` is the wire spelling `wire`.
            fn wire_matches(text: &str, wire: &str) -> bool {
                open_enum!(@matches $($mode)?, text, wire)
            }

            /// Reads a wire value, in any letter case; a value the documents do not name
            /// becomes `Unknown`.
            pub fn from_wire(value: &str) -> Self {
                let trimmed = $crate::read::text::trim(value);
                $( if Self::wire_matches(trimmed, $wire) || trimmed.eq_ignore_ascii_case($snake) {
                    return Self::$variant;
                } )+
                Self::Unknown($crate::Unrecognized::new(trimmed.to_owned()))
            }

            /// The value as the API spells it (an unknown value as read, in its letter
            /// case).
            pub fn as_wire(&self) -> &str {
                match self {
                    $( Self::$variant => $wire, )+
                    Self::Unknown(value) => value.as_str(),
                }
            }

            /// The value as it serialises.
            pub fn as_str(&self) -> &str {
                match self {
                    $( Self::$variant => $snake, )+
                    Self::Unknown(value) => value.as_str(),
                }
            }

            /// Whether the server sent a value the documents do not name.
            pub fn is_unknown(&self) -> bool {
                matches!(self, Self::Unknown(_))
            }

            /// The named values, as they serialise, in the order the documents give
            /// them.
            pub const KNOWN: &'static [&'static str] = &[$($snake),+];
        }

        /// Unknown values are equal when the set would read them as the same value:
        /// without regard to letter case, unless the set is exact.
        impl PartialEq for $name {
            fn eq(&self, other: &Self) -> bool {
                match (self, other) {
                    (Self::Unknown(a), Self::Unknown(b)) => Self::wire_matches(a.as_str(), b.as_str()),
                    (a, b) => std::mem::discriminant(a) == std::mem::discriminant(b),
                }
            }
        }

        impl Eq for $name {}

        /// Agrees with `PartialEq`: an unknown value hashes in the letter case its set
        /// compares in.
        impl std::hash::Hash for $name {
            fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
                std::hash::Hash::hash(&std::mem::discriminant(self), state);
                if let Self::Unknown(value) = self {
                    open_enum!(@hash $($mode)?, value.as_str(), state);
                }
            }
        }

        /// The name it serialises as; honours width, fill and alignment (`{:<10}`).
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.pad(self.as_str())
            }
        }

        impl std::str::FromStr for $name {
            type Err = std::convert::Infallible;

            fn from_str(value: &str) -> Result<Self, Self::Err> {
                Ok(Self::from_wire(value))
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        /// Reads what `Serialize` writes (or a wire spelling), as
        /// [`from_wire`](Self::from_wire) does: never an error for a string.
        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let text = <String as serde::Deserialize>::deserialize(deserializer)?;
                Ok(Self::from_wire(&text))
            }
        }

        #[cfg(feature = "schema")]
        impl schemars::JsonSchema for $name {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                stringify!($name).into()
            }

            fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
                schemars::json_schema!({
                    "type": "string",
                    "description": open_enum!(@describe $($mode)?),
                    "examples": Self::KNOWN,
                })
            }
        }
    };
    (@hash exact, $text:expr, $state:expr) => { std::hash::Hash::hash($text, $state) };
    (@hash $($mode:ident)?, $text:expr, $state:expr) => {
        for byte in $text.bytes() {
            $state.write_u8(byte.to_ascii_lowercase());
        }
    };
    (@matches exact, $text:expr, $wire:expr) => { $text == $wire };
    (@matches $($mode:ident)?, $text:expr, $wire:expr) => { $text.eq_ignore_ascii_case($wire) };
    (@describe upper) => {
        "One of the named values (in upper case), or any other value the service sends, as it sent it."
    };
    (@describe $($mode:ident)?) => {
        "One of the named values (in lower case), or any other value the service sends, as it sent it."
    };
}

/// Declares `new(...)` for a model: the arguments are its required fields, and every
/// other field, listed after them, starts empty (`None`, an empty list or map). The
/// models are `#[non_exhaustive]`, so code outside the crate builds one with `new` and
/// then sets the public fields it needs.
macro_rules! constructor {
    (
        $(#[$doc:meta])*
        $ty:ident ( $($arg:ident : $argty:ty),* $(,)? ) { $($field:ident),* $(,)? }
    ) => {
        impl $ty {
            $(#[$doc])*
            pub fn new($($arg: $argty),*) -> Self {
                Self {
                    $($arg,)*
                    $($field: Default::default(),)*
                }
            }
        }
    };
}

pub(crate) use {constructor, id_type, open_enum};
