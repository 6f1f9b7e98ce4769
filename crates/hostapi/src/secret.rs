//! Secrets in domain values: passwords and API secrets the service hands back.

use std::cell::Cell;
use std::fmt;

use secrecy::{ExposeSecret, SecretString};
use serde::{Serialize, Serializer};

/// What a secret prints and serialises as when it is not exposed.
pub const REDACTED: &str = "[REDACTED]";

/// A secret value from the service (a password, an API secret).
///
/// `Debug` and `Display` always print [`REDACTED`]. Serialising prints [`REDACTED`] too,
/// unless the serialisation runs inside [`expose_secrets`]; [`Secret::expose`] gives the
/// value to code that needs it.
#[derive(Clone)]
pub struct Secret(SecretString);

impl Secret {
    /// Wraps a value.
    pub fn new(value: impl Into<String>) -> Self {
        Self(SecretString::from(value.into()))
    }

    /// The value itself.
    pub fn expose(&self) -> &str {
        self.0.expose_secret()
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(REDACTED)
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(REDACTED)
    }
}

impl PartialEq for Secret {
    fn eq(&self, other: &Self) -> bool {
        self.expose() == other.expose()
    }
}

impl Eq for Secret {}

impl From<String> for Secret {
    fn from(value: String) -> Self {
        Self::new(value)
    }
}

impl From<&str> for Secret {
    fn from(value: &str) -> Self {
        Self::new(value)
    }
}

thread_local! {
    static EXPOSED: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` with secrets serialised as their values instead of [`REDACTED`].
///
/// Serialisation is synchronous, so the choice holds for exactly what `f` serialises
/// on this thread.
///
/// ```
/// use hostapi::Secret;
/// use hostapi::types::expose_secrets;
/// let password = Secret::new("hunter2");
/// assert_eq!(serde_json::to_string(&password).unwrap(), r#""[REDACTED]""#);
/// let shown = expose_secrets(|| serde_json::to_string(&password).unwrap());
/// assert_eq!(shown, r#""hunter2""#);
/// ```
pub fn expose_secrets<R>(f: impl FnOnce() -> R) -> R {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            EXPOSED.with(|flag| flag.set(self.0));
        }
    }
    let _restore = Restore(EXPOSED.with(|flag| flag.replace(true)));
    f()
}

/// Whether secrets are being serialised as their values (inside [`expose_secrets`]).
pub(crate) fn exposed() -> bool {
    EXPOSED.with(Cell::get)
}

impl Serialize for Secret {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if exposed() {
            serializer.serialize_str(self.expose())
        } else {
            serializer.serialize_str(REDACTED)
        }
    }
}

impl schemars::JsonSchema for Secret {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Secret".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "description": "A secret: \"[REDACTED]\" unless the caller asked to expose secrets."
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redacted_everywhere_unless_exposed() {
        let secret = Secret::new("s3cr3t-value");
        assert_eq!(format!("{secret:?} {secret}"), "[REDACTED] [REDACTED]");
        assert_eq!(serde_json::to_value(&secret).unwrap(), REDACTED);
        let shown = expose_secrets(|| serde_json::to_value(&secret).unwrap());
        assert_eq!(shown, "s3cr3t-value");
        // The choice ends with the closure, even when it panics.
        let _ = std::panic::catch_unwind(|| expose_secrets(|| panic!("boom")));
        assert_eq!(serde_json::to_value(&secret).unwrap(), REDACTED);
    }
}
