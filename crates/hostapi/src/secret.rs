//! Secrets in domain values: passwords and API secrets the service hands back.

use std::cell::Cell;
use std::fmt;

use secrecy::{ExposeSecret, SecretString};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// What a secret prints and serialises as when it is not exposed.
pub const REDACTED: &str = "[REDACTED]";

/// A secret value from the service (a password, an API secret).
///
/// `Debug` and `Display` always print [`REDACTED`]. Serialising prints [`REDACTED`] too,
/// unless the serialisation runs inside [`expose_secrets`]; [`Secret::expose`] gives the
/// value to code that needs it.
///
/// Deserialising reads a string as the secret's value, except the text [`REDACTED`]
/// itself: that is what serialising wrote in place of a secret it did not show, so it
/// reads as a *redacted placeholder* ([`Secret::is_redacted`]), which equals no secret
/// but another placeholder and serialises as [`REDACTED`] even inside
/// [`expose_secrets`]. A record serialised without [`expose_secrets`] therefore reads
/// back with placeholders where its secrets were; serialise inside it for a copy that
/// reads back equal.
///
/// ```
/// use hostapi::{types::REDACTED, Secret, types::expose_secrets};
/// let password = Secret::new("hunter2");
/// let shown: Secret = serde_json::from_str(&expose_secrets(|| serde_json::to_string(&password).unwrap())).unwrap();
/// assert_eq!(shown, password);
/// let hidden: Secret = serde_json::from_str(&serde_json::to_string(&password).unwrap()).unwrap();
/// assert!(hidden.is_redacted());
/// assert_ne!(hidden, password);
/// assert_ne!(hidden, Secret::new(REDACTED));
/// ```
#[derive(Clone)]
pub struct Secret {
    value: SecretString,
    /// Read from the [`REDACTED`] text: stands for a secret that was not shown.
    placeholder: bool,
}

impl Secret {
    /// Wraps a value.
    pub fn new(value: impl Into<String>) -> Self {
        Self {
            value: SecretString::from(value.into()),
            placeholder: false,
        }
    }

    /// The placeholder a redacted secret reads back as (see the type's docs).
    pub fn redacted() -> Self {
        Self {
            value: SecretString::from(REDACTED),
            placeholder: true,
        }
    }

    /// Whether this is the placeholder of a secret that was serialised redacted, not a
    /// secret (see the type's docs).
    pub fn is_redacted(&self) -> bool {
        self.placeholder
    }

    /// The value itself ([`REDACTED`] for the [placeholder](Secret::is_redacted): check
    /// before sending a secret that was read back from serialised output).
    pub fn expose(&self) -> &str {
        self.value.expose_secret()
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
        self.placeholder == other.placeholder && self.expose() == other.expose()
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
        if exposed() && !self.placeholder {
            serializer.serialize_str(self.expose())
        } else {
            serializer.serialize_str(REDACTED)
        }
    }
}

/// The value as serialised; the text [`REDACTED`] reads as the placeholder (see the
/// type's docs).
impl<'de> Deserialize<'de> for Secret {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = String::deserialize(deserializer)?;
        Ok(if value == REDACTED {
            Self::redacted()
        } else {
            Self::new(value)
        })
    }
}

#[cfg(feature = "schema")]
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

    #[test]
    fn a_redacted_secret_reads_back_as_a_placeholder_not_as_the_secret() {
        let secret = Secret::new("s3cr3t-value");
        let exposed = expose_secrets(|| serde_json::to_string(&secret).unwrap());
        let back: Secret = serde_json::from_str(&exposed).unwrap();
        assert_eq!(back, secret);
        assert!(!back.is_redacted());

        let redacted = serde_json::to_string(&secret).unwrap();
        let back: Secret = serde_json::from_str(&redacted).unwrap();
        assert!(back.is_redacted());
        assert_ne!(back, secret);
        assert_ne!(back, Secret::new(REDACTED));
        assert_eq!(back, Secret::redacted());
        // The placeholder never passes for a value, exposed or not.
        let again = expose_secrets(|| serde_json::to_string(&back).unwrap());
        assert_eq!(again, redacted);
    }
}
