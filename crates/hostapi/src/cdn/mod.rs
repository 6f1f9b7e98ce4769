//! The CDN interface: purges, the customer and its sub-customers, the access control
//! list, origins.
//!
//! The handle is [`Cdn`], from [`Client::cdn`]: it purges, and gives
//! [`customers`](Cdn::customers), [`sub_customers`](Cdn::sub_customers),
//! [`acl`](Cdn::acl) and [`origins`](Cdn::origins).
//!
//! Every CDN call is signed in its path (`…/{timestamp}/{signature}`, see
//! [`cdn_signature`](crate::signing::cdn_signature)): the handle fills in the timestamp
//! from the client's clock for each attempt and computes the signature, so callers never
//! see either. Calls act for the customer number the client was built with
//! ([`ClientBuilder::cdn_customer`](crate::ClientBuilder::cdn_customer)).

pub(crate) mod acl;
pub(crate) mod customers;
pub(crate) mod origins;
pub(crate) mod purge;

pub use acl::*;
pub use customers::{CdnCustomer, CdnCustomers, SubCustomer, SubCustomerUpdate, SubCustomers};
pub use origins::*;
pub use purge::*;

use crate::Extra;
use crate::handle::{Handle, retry_unsafe_option};
use crate::read::shapes::HasExtra;
use crate::read::{Cursor, FieldError, Fields, Json};
use crate::signing::{CdnSigner, SIGNATURE_PLACEHOLDER};
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
    /// let zone = hostapi::types::ZoneId::new("1001")?;
    /// let job = client.cdn().purge(&zone, &["/index.html", "/css/site.css"]).await?;
    /// let done = client
    ///     .cdn()
    ///     .wait_purged(&zone, &job.id, &hostapi::WaitOptions::new())
    ///     .await?;
    /// for entry in done.entries {
    ///     println!("{}: {}", entry.url, entry.status);
    /// }
    /// # Ok(())
    /// # }
    /// ```
    pub fn cdn(&self) -> Cdn {
        Cdn {
            handle: Handle::new(self),
        }
    }
}

/// The CDN interface, acting for the configured customer number. Reached with
/// [`Client::cdn`]; its parts are [`customers`](Self::customers),
/// [`sub_customers`](Self::sub_customers), [`acl`](Self::acl) and
/// [`origins`](Self::origins), and purging is a verb of its own
/// ([`purge`](Self::purge)).
#[derive(Debug, Clone)]
pub struct Cdn {
    handle: Handle,
}

/// What every signed call needs: the customer number the paths name, and the clock
/// each attempt's timestamp comes from. The signature segment itself is a placeholder
/// the request hook replaces.
pub(crate) struct Signing<'a> {
    pub(crate) customer: &'a str,
    signer: &'a CdnSigner,
}

impl Signing<'_> {
    /// The timestamp of an attempt's path.
    pub(crate) fn timestamp(&self) -> i64 {
        self.signer.now()
    }

    /// The signature segment as the generated builder writes it (the hooks sign it).
    pub(crate) fn signature(&self) -> &'static str {
        SIGNATURE_PLACEHOLDER
    }
}

impl Cdn {
    retry_unsafe_option!();

    /// The configured customer.
    pub fn customers(&self) -> CdnCustomers {
        CdnCustomers {
            handle: self.handle.clone(),
        }
    }

    /// The sub-customers of the configured customer (a reseller).
    pub fn sub_customers(&self) -> SubCustomers {
        SubCustomers {
            handle: self.handle.clone(),
        }
    }

    /// The access control list of the configured customer.
    pub fn acl(&self) -> Acls {
        Acls {
            handle: self.handle.clone(),
        }
    }

    /// The origins of the configured customer.
    pub fn origins(&self) -> Origins {
        Origins {
            handle: self.handle.clone(),
        }
    }
}

/// The customer number and clock of a signed call, or the setting that is missing.
/// Nothing is sent when this fails.
pub(crate) fn signing(handle: &Handle) -> Result<Signing<'_>, Error> {
    let inner = &handle.client.inner;
    let signer = match (&inner.cdn_signer, &inner.cdn_base_url) {
        (Some(signer), _) => signer,
        (None, Some(_)) => {
            return Err(Error::invalid(
                "cdn_secret",
                "not configured (HOSTAPI_CDN_SECRET)",
            ));
        }
        (None, None) => {
            return Err(Error::invalid(
                "cdn_base_url",
                "not configured (HOSTAPI_CDN_BASE_URL; CDN calls also need HOSTAPI_CDN_SECRET)",
            ));
        }
    };
    let customer = inner
        .cdn_customer
        .as_deref()
        .ok_or_else(|| Error::invalid("cdn_customer", "not configured (HOSTAPI_CDN_CUSTOMER)"))?;
    segment("cdn_customer", customer)?;
    // `/customers/{customer}/{limit}/{offset}` would read as the sub-customer path for
    // `reseller`, and `/customers/{customer}` paths as ACL paths for `acl`.
    if ["reseller", "acl"]
        .iter()
        .any(|word| customer.eq_ignore_ascii_case(word))
    {
        return Err(Error::invalid(
            "cdn_customer",
            format!("`{customer}` is a word of the CDN paths, not a customer number"),
        ));
    }
    Ok(Signing { customer, signer })
}

/// Checks a value that goes into a signed CDN path as one segment: a path segment made
/// only of characters that travel without percent-encoding (ASCII letters, digits,
/// `-`, `.`, `_`, `~`), so the path the server sees is exactly the path that was
/// signed.
pub(crate) fn segment(argument: &str, value: &str) -> Result<(), Error> {
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

/// The payload of a CDN answer (under `success`, or `succes` as the origin samples
/// spell it) read by `read`, with the answer's other members joining the record's
/// `extra`.
pub(crate) fn payload<'a, T: HasExtra>(
    cursor: &mut Cursor,
    body: Json<'a>,
    read: impl FnOnce(&mut Cursor, Json<'a>) -> Result<T, FieldError>,
) -> Result<T, FieldError> {
    let (mut value, rest) = payload_parts(cursor, body, read)?;
    value.extra_mut().extend(rest);
    Ok(value)
}

/// The payload of a CDN answer read by `read`, and the answer's other members.
pub(crate) fn payload_parts<'a, T>(
    cursor: &mut Cursor,
    body: Json<'a>,
    read: impl FnOnce(&mut Cursor, Json<'a>) -> Result<T, FieldError>,
) -> Result<(T, Extra), FieldError> {
    cursor.object(body, |f: &mut Fields<'_, 'a>| {
        f.alias("succes", "success");
        let inner = f.take("success").ok_or_else(|| {
            f.cursor().error(
                "success",
                "the payload is absent (under `success` or `succes`)",
            )
        })?;
        let rest = f.unread();
        let value = f.cursor().within("success", |cursor| read(cursor, inner))?;
        Ok((value, rest))
    })
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
