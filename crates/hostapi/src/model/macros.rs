//! The two shapes every resource module uses: typed ids and open enums.

/// Declares an id newtype.
///
/// Ids travel as strings or integers depending on the view; the newtype holds the
/// canonical text (integers in decimal). Ids a caller passes in are checked by
/// [`new`](crate::BareMetalId::new) / `FromStr` so they are safe as one URL path
/// segment; ids read from the server are taken as sent.
macro_rules! id_type {
    ($(#[$meta:meta])* $name:ident) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, schemars::JsonSchema)]
        #[serde(transparent)]
        pub struct $name(String);

        impl $name {
            /// Checks that `value` can be used as this id (not empty, one URL path
            /// segment: no `/`, `?`, `#`, `%`, white space or control characters, and
            /// not `.` or `..`).
            pub fn new(value: impl Into<String>) -> Result<Self, $crate::Error> {
                let value = value.into();
                $crate::validate::path_segment(stringify!($name), &value)?;
                Ok(Self(value))
            }

            /// The id as text.
            pub fn as_str(&self) -> &str {
                &self.0
            }

            /// An id the server sent, taken as is.
            #[allow(dead_code)]
            pub(crate) fn from_wire(value: impl Into<String>) -> Self {
                Self(value.into())
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&self.0)
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

        impl TryFrom<String> for $name {
            type Error = $crate::Error;

            fn try_from(value: String) -> Result<Self, Self::Error> {
                Self::new(value)
            }
        }

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

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }
    };
}

/// Declares an open enum: the values the docs name, plus `Unknown(String)` for any
/// other value the server sends (kept as sent, never an error).
///
/// Each variant names its wire spelling (matched without regard to letter case) and
/// the snake_case name it serialises as: `Running = "RUNNING" => "running"`. An
/// unknown value serialises as sent.
macro_rules! open_enum {
    (
        $(#[$meta:meta])*
        $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $wire:literal => $snake:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )+
            /// A value the docs do not name, as the server sent it.
            Unknown(String),
        }

        impl $name {
            /// Reads a wire value; any value not named by the docs becomes `Unknown`.
            pub fn from_wire(value: &str) -> Self {
                let trimmed = value.trim();
                $( if trimmed.eq_ignore_ascii_case($wire) || trimmed.eq_ignore_ascii_case($snake) {
                    return Self::$variant;
                } )+
                Self::Unknown(value.to_owned())
            }

            /// The value as the API spells it.
            pub fn as_wire(&self) -> &str {
                match self {
                    $( Self::$variant => $wire, )+
                    Self::Unknown(value) => value,
                }
            }

            /// The value as it serialises: snake_case for named values, as sent otherwise.
            pub fn as_str(&self) -> &str {
                match self {
                    $( Self::$variant => $snake, )+
                    Self::Unknown(value) => value,
                }
            }

            /// Whether the server sent a value the docs do not name.
            pub fn is_unknown(&self) -> bool {
                matches!(self, Self::Unknown(_))
            }

            /// The named values, in the order the docs give them.
            pub const KNOWN: &'static [&'static str] = &[$($snake),+];
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
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

        impl schemars::JsonSchema for $name {
            fn schema_name() -> std::borrow::Cow<'static, str> {
                stringify!($name).into()
            }

            fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
                schemars::json_schema!({
                    "type": "string",
                    "description": "One of the named values, or any other value the service sends, kept as sent.",
                    "examples": Self::KNOWN,
                })
            }
        }
    };
}

pub(crate) use {id_type, open_enum};
