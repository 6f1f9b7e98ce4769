//! The CDN interface: purges, customers, sub-customers, ACLs, origins.
//!
//! Every CDN call is signed in its path (`…/{timestamp}/{signature}`, see
//! [`cdn_signature`](crate::cdn_signature)): the handle fills in the timestamp from the
//! client's clock and the request hook computes the signature, so callers never see
//! either. Calls act for the customer number the client was built with
//! ([`ClientBuilder::cdn_customer`](crate::ClientBuilder::cdn_customer)).
//!
//! The module is split by job: `purge` (purging and purge job status), `customers`
//! (the customer and reseller sub-customers), `acl` (the access control list) and
//! `origins`.

pub(crate) mod acl;
pub(crate) mod customers;
pub(crate) mod origins;
pub(crate) mod purge;

pub use acl::*;
pub use customers::*;
pub use origins::*;
pub use purge::*;

use crate::handle::{Handle, retry_unsafe_option};
use crate::signing::SIGNATURE_PLACEHOLDER;
use crate::{Client, Error, validate};

impl Client {
    /// The CDN interface: purges, the customer and its sub-customers, the access
    /// control list and origins.
    ///
    /// Needs the CDN secret, base URL and customer number
    /// ([`ClientBuilder::cdn_secret`](crate::ClientBuilder::cdn_secret),
    /// [`cdn_base_url`](crate::ClientBuilder::cdn_base_url),
    /// [`cdn_customer`](crate::ClientBuilder::cdn_customer), or `HOSTAPI_CDN_SECRET`,
    /// `HOSTAPI_CDN_BASE_URL`, `HOSTAPI_CDN_CUSTOMER`); a call made without them fails
    /// with [`Error::InvalidInput`] naming the missing setting, before anything is sent.
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), hostapi::Error> {
    /// let client = hostapi::Client::from_env()?;
    /// let zone = hostapi::ZoneId::new("1001")?;
    /// let job = client.cdn().purge(&zone, &["/index.html", "/css/site.css"]).await?;
    /// for entry in client.cdn().purge_status(&zone, &job).await? {
    ///     println!("{}: {}", entry.url, entry.status);
    /// }
    /// # Ok(())
    /// # }
    /// ```
    pub fn cdn(&self) -> Cdn<'_> {
        Cdn {
            handle: Handle::new(self),
        }
    }
}

/// The CDN interface, acting for the configured customer number. Reached with
/// [`Client::cdn`].
#[derive(Debug, Clone, Copy)]
pub struct Cdn<'a> {
    handle: Handle<'a>,
}

/// What every signed call needs: the customer number the paths name and the timestamp
/// the path is signed at. The signature segment itself is a placeholder the request
/// hook replaces.
struct Signed<'a> {
    customer: &'a str,
    timestamp: i64,
    signature: &'static str,
}

impl Cdn<'_> {
    retry_unsafe_option!();

    /// The customer number and signing time of a call, or the setting that is
    /// missing. Nothing is sent when this fails.
    fn signed(&self) -> Result<Signed<'_>, Error> {
        let inner = &self.handle.client.inner;
        let signer = match (&inner.cdn_signer, &inner.cdn_base_url) {
            (Some(signer), _) => signer,
            (None, Some(_)) => {
                return Err(Error::invalid(
                    "cdn_secret",
                    "not configured: set HOSTAPI_CDN_SECRET or ClientBuilder::cdn_secret",
                ));
            }
            (None, None) => {
                return Err(Error::invalid(
                    "cdn_base_url",
                    "not configured: set HOSTAPI_CDN_BASE_URL or ClientBuilder::cdn_base_url \
                     (CDN calls also need the CDN secret, HOSTAPI_CDN_SECRET)",
                ));
            }
        };
        let customer = inner.cdn_customer.as_deref().ok_or_else(|| {
            Error::invalid(
                "cdn_customer",
                "not configured: set HOSTAPI_CDN_CUSTOMER or ClientBuilder::cdn_customer",
            )
        })?;
        segment("cdn_customer", customer)?;
        // `/customers/{customer}/{limit}/{offset}` would read as the sub-customer path
        // for `reseller`, and `/customers/{customer}` paths as ACL paths for `acl`.
        if ["reseller", "acl"]
            .iter()
            .any(|word| customer.eq_ignore_ascii_case(word))
        {
            return Err(Error::invalid(
                "cdn_customer",
                format!("`{customer}` is a word of the CDN paths, not a customer number"),
            ));
        }
        Ok(Signed {
            customer,
            timestamp: signer.now(),
            signature: SIGNATURE_PLACEHOLDER,
        })
    }
}

/// Checks a value that goes into a signed CDN path as one segment: a path segment
/// (see [`validate::path_segment`]) made only of characters that travel without
/// percent-encoding (ASCII letters, digits, `-`, `.`, `_`, `~`), so the path the
/// server sees is exactly the path that was signed.
fn segment(argument: &str, value: &str) -> Result<(), Error> {
    validate::path_segment(argument, value)?;
    if let Some(bad) = value
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_' | '~')))
    {
        return Err(Error::invalid(
            argument,
            format!(
                "`{}` contains {bad:?}; CDN ids are letters, digits, `-`, `.`, `_` and `~`",
                value.escape_debug()
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_need_no_encoding() {
        for good in ["C123456", "1001", "a-b_c.d~e"] {
            assert!(segment("zone", good).is_ok(), "{good}");
        }
        for bad in ["", "..", "a/b", "a b", "zoné", "a{b}", "a\"b", "a:b", "%41"] {
            let err = segment("zone", bad).unwrap_err();
            assert!(
                matches!(&err, Error::InvalidInput { argument, .. } if argument == "zone"),
                "{bad}: {err}"
            );
        }
    }
}
