//! CDN request signing: every CDN path ends in `/{timestamp}/{signature}`, where the
//! signature is the lowercase hex SHA-1 of `secret ‖ timestamp ‖ resource path`.
//!
//! The client signs every CDN call itself; [`cdn_signature`] is here for code that signs
//! a URL of its own, and a [`Clock`] ([`ClientBuilder::clock`](crate::ClientBuilder::clock))
//! fixes the timestamps, for tests.

use std::fmt;
use std::sync::Arc;

use secrecy::{ExposeSecret, SecretString};
use sha1::{Digest, Sha1};

/// A source of the current time in Unix seconds (UTC). The CDN client takes one so
/// tests can sign with a fixed clock.
pub trait Clock: Send + Sync + 'static {
    /// Seconds since the Unix epoch.
    fn unix_seconds(&self) -> i64;
}

/// The system clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn unix_seconds(&self) -> i64 {
        chrono::Utc::now().timestamp()
    }
}

/// A fixed instant: every signature uses this timestamp.
#[derive(Debug, Clone, Copy)]
pub struct FixedClock(pub i64);

impl Clock for FixedClock {
    fn unix_seconds(&self) -> i64 {
        self.0
    }
}

/// The signature of one CDN call: lowercase hex SHA-1 of `secret`, then `timestamp`
/// in decimal, then the resource `path` (relative to the CDN base URL, without the
/// timestamp and signature segments).
///
/// ```
/// // sha1("secret1700000000/origins/12345")
/// let signature = hostapi::signing::cdn_signature("secret", 1_700_000_000, "/origins/12345");
/// assert_eq!(signature.len(), 40);
/// ```
pub fn cdn_signature(secret: &str, timestamp: i64, path: &str) -> String {
    let mut hasher = Sha1::new();
    hasher.update(secret.as_bytes());
    hasher.update(timestamp.to_string().as_bytes());
    hasher.update(path.as_bytes());
    hex::encode(hasher.finalize())
}

/// What the facade passes as the signature path segment; the request hook replaces it
/// with the real signature once the final URL is known.
pub(crate) const SIGNATURE_PLACEHOLDER: &str = "unsigned";

/// Signs CDN requests with the customer secret.
#[derive(Clone)]
pub(crate) struct CdnSigner {
    secret: SecretString,
    clock: Arc<dyn Clock>,
    /// The path of the CDN base URL (e.g. `/cdn`, or empty), which is not part of the
    /// signed resource path.
    base_path: String,
}

impl fmt::Debug for CdnSigner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CdnSigner")
            .field("base_path", &self.base_path)
            .finish_non_exhaustive()
    }
}

impl CdnSigner {
    pub(crate) fn new(secret: SecretString, clock: Arc<dyn Clock>, base_url: &str) -> Self {
        let base_path = url::Url::parse(base_url)
            .map(|u| u.path().trim_end_matches('/').to_owned())
            .unwrap_or_default();
        Self {
            secret,
            clock,
            base_path,
        }
    }

    /// The timestamp to put in the next request's path.
    pub(crate) fn now(&self) -> i64 {
        self.clock.unix_seconds()
    }

    /// Replaces the placeholder signature segment of `url` with the signature of its
    /// resource path and timestamp.
    pub(crate) fn sign(&self, url: &mut url::Url) -> Result<(), String> {
        let path = url.path().to_owned();
        let relative = path.strip_prefix(&self.base_path).ok_or_else(|| {
            format!(
                "cdn: `{path}` is not under the CDN base path `{}`",
                self.base_path
            )
        })?;
        let mut parts = relative.rsplitn(3, '/');
        let (Some(placeholder), Some(timestamp), Some(resource)) =
            (parts.next(), parts.next(), parts.next())
        else {
            return Err(format!(
                "cdn: `{path}` does not end in /{{timestamp}}/{{signature}}"
            ));
        };
        if placeholder != SIGNATURE_PLACEHOLDER {
            return Err(format!("cdn: `{path}` is already signed"));
        }
        let timestamp: i64 = timestamp
            .parse()
            .map_err(|_| format!("cdn: `{timestamp}` in `{path}` is not a Unix timestamp"))?;
        let signature = cdn_signature(self.secret.expose_secret(), timestamp, resource);
        url.set_path(&format!(
            "{}{resource}/{timestamp}/{signature}",
            self.base_path
        ));
        Ok(())
    }

    /// The path of a signed URL for `resource` at the clock's current time, without
    /// the base URL.
    #[cfg(test)]
    pub(crate) fn signed_path(&self, resource: &str) -> String {
        let timestamp = self.now();
        format!(
            "{resource}/{timestamp}/{}",
            cdn_signature(self.secret.expose_secret(), timestamp, resource)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sha1_hex(input: &str) -> String {
        hex::encode(Sha1::digest(input.as_bytes()))
    }

    #[test]
    fn the_signature_is_sha1_of_secret_timestamp_path() {
        assert_eq!(
            cdn_signature("abc", 1_500_000_000, "/origins/42"),
            sha1_hex("abc1500000000/origins/42")
        );
        // A known vector, computed outside Rust: `printf %s 'abc1500000000/origins/42' | sha1sum`.
        assert_eq!(
            cdn_signature("abc", 1_500_000_000, "/origins/42"),
            "f2a7017e3d84cd216e19f73b876754856526f28c"
        );
    }

    #[test]
    fn signing_replaces_the_placeholder_under_a_base_path() {
        let signer = CdnSigner::new(
            SecretString::from("s3cret"),
            Arc::new(FixedClock(1_700_000_000)),
            "http://127.0.0.1:9/cdn/",
        );
        let mut url =
            url::Url::parse("http://127.0.0.1:9/cdn/origins/C1/1700000000/unsigned").unwrap();
        signer.sign(&mut url).unwrap();
        let expected = sha1_hex("s3cret1700000000/origins/C1");
        assert_eq!(
            url.as_str(),
            format!("http://127.0.0.1:9/cdn/origins/C1/1700000000/{expected}")
        );
        assert_eq!(
            signer.signed_path("/origins/C1"),
            format!("/origins/C1/1700000000/{expected}")
        );
        // Signing twice is refused rather than producing a wrong URL.
        assert!(
            signer
                .sign(&mut url)
                .unwrap_err()
                .contains("already signed")
        );
    }
}
