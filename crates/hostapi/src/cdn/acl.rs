//! The customer's access control list: read, replace, delete.

use hostapi_raw_cdn::types as raw;
#[cfg(feature = "schema")]
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{payload, signing};
use crate::Error;
use crate::handle::{Handle, retry_unsafe_option};
use crate::model::Extra;
use crate::outcome::Confirmation;
use crate::read::{Cursor, FieldError, Fields, Json};

/// A customer's access control list: which calls of each part of the CDN interface
/// the customer may make.
///
/// Each section holds the permissions the docs list for it (`content`: POST, GET,
/// DELETE; `search`, `stats`, `logs`: GET; `origins`: PUT, POST, GET, DELETE;
/// `customers`, `zones`, `ftplog`: POST, GET, DELETE). A section or permission the
/// answer leaves out reads as `false` (not allowed). Sections and permissions the docs
/// do not name are kept, as sent, in the `extra` maps, and written back as they are.
///
/// [`Acl::default`] allows nothing.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct Acl {
    /// Content: purging (POST), reading (GET), deleting (DELETE).
    pub content: AclSection,
    /// Content search.
    pub search: AclReadSection,
    /// Statistics.
    pub stats: AclReadSection,
    /// Logs.
    pub logs: AclReadSection,
    /// Origins.
    pub origins: AclOriginsSection,
    /// Customers.
    pub customers: AclSection,
    /// Zones.
    pub zones: AclSection,
    /// FTP logs.
    pub ftplog: AclSection,
    /// Sections the model does not name, as sent.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

/// An ACL section with the permissions POST, GET and DELETE.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct AclSection {
    /// POST: create.
    pub post: bool,
    /// GET: read.
    pub get: bool,
    /// DELETE: delete.
    pub delete: bool,
    /// Permissions the docs do not list for this section, as sent (wire names).
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

/// An ACL section with only the GET permission.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct AclReadSection {
    /// GET: read.
    pub get: bool,
    /// Permissions the docs do not list for this section, as sent (wire names).
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

/// The `origins` ACL section: PUT, POST, GET and DELETE.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct AclOriginsSection {
    /// PUT: update.
    pub put: bool,
    /// POST: create.
    pub post: bool,
    /// GET: read.
    pub get: bool,
    /// DELETE: delete.
    pub delete: bool,
    /// Permissions the docs do not list for this section, as sent (wire names).
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

/// The access control list of the configured customer ([`Cdn::acl`](super::Cdn::acl)).
#[derive(Debug, Clone)]
pub struct Acls {
    pub(crate) handle: Handle,
}

impl Acls {
    retry_unsafe_option!();

    /// Reads the customer's ACL.
    pub async fn get(&self) -> Result<Acl, Error> {
        let signed = signing(&self.handle)?;
        let cdn = self.handle.cdn();
        let answer = self
            .handle
            .call_cdn(|| {
                cdn.get_acl()
                    .customer_number(signed.customer)
                    .timestamp(signed.timestamp())
                    .signature(signed.signature())
            })
            .await?;
        let customer = signed.customer;
        answer.one(|cursor, body| {
            payload(cursor, body, |cursor, json| {
                of_customer(cursor, json, customer)
            })
        })
    }

    /// Replaces the customer's whole ACL with `acl` (the form field `acl`, holding the
    /// ACL as JSON text) and answers it as the service stored it. Replacing is
    /// idempotent, so it is retried like a read.
    pub async fn update(&self, acl: &Acl) -> Result<Acl, Error> {
        let text = acl_json(acl)?;
        let signed = signing(&self.handle)?;
        let cdn = self.handle.cdn();
        let handle = self.handle.clone().retrying_unsafe();
        let answer = handle
            .call_cdn(|| {
                cdn.replace_acl()
                    .customer_number(signed.customer)
                    .timestamp(signed.timestamp())
                    .signature(signed.signature())
                    .body(raw::AclForm { acl: text.clone() })
            })
            .await?;
        let customer = signed.customer;
        answer.one(|cursor, body| {
            payload(cursor, body, |cursor, json| {
                of_customer(cursor, json, customer)
            })
        })
    }

    /// After [`update`](Self::update) failed with an unknown outcome: reads the ACL and
    /// says whether it now is `acl`.
    pub async fn confirm_update(&self, acl: &Acl) -> Result<Confirmation<Acl>, Error> {
        let current = self.get().await?;
        Ok(if &current == acl {
            Confirmation::Applied(current)
        } else {
            Confirmation::NotApplied
        })
    }

    /// Deletes the customer's ACL (the service then allows nothing) and answers the ACL
    /// as it now is.
    pub async fn delete(&self) -> Result<Acl, Error> {
        let signed = signing(&self.handle)?;
        let cdn = self.handle.cdn();
        let answer = self
            .handle
            .call_cdn(|| {
                cdn.delete_acl()
                    .customer_number(signed.customer)
                    .timestamp(signed.timestamp())
                    .signature(signed.signature())
            })
            .await?;
        let customer = signed.customer;
        answer.one(|cursor, body| {
            payload(cursor, body, |cursor, json| {
                of_customer(cursor, json, customer)
            })
        })
    }
}

/// `{<customer_number>: ACL}` → the ACL of `customer` (or the only one there).
pub(crate) fn of_customer(
    cursor: &mut Cursor,
    json: Json<'_>,
    customer: &str,
) -> Result<Acl, FieldError> {
    let Json::Object(mut by_customer) = json else {
        return Err(cursor.error(
            "",
            format!("expected ACLs by customer, found {}", json.shown()),
        ));
    };
    let position = by_customer
        .iter()
        .position(|(k, _)| k == customer)
        .or((by_customer.len() == 1).then_some(0));
    let Some(position) = position else {
        let keys: Vec<String> = by_customer.iter().map(|(k, _)| k.to_string()).collect();
        return Err(cursor.error(
            "",
            format!(
                "expected the ACL of customer {customer}, found {}",
                if keys.is_empty() {
                    "none".to_owned()
                } else {
                    format!("only customers {}", keys.join(", "))
                }
            ),
        ));
    };
    let (key, acl) = by_customer.swap_remove(position);
    cursor.within(&key, |cursor| cursor.object(acl, |f| Ok(read_acl(f))))
}

/// The permissions of a section: the named ones (false when absent), the others kept.
fn permissions<const N: usize>(f: &mut Fields<'_, '_>, names: [&str; N]) -> ([bool; N], Extra) {
    let values = names.map(|name| f.boolean(name).unwrap_or(false));
    (values, f.unread())
}

fn read_acl(f: &mut Fields<'_, '_>) -> Acl {
    let full = |f: &mut Fields<'_, '_>, key: &str| {
        f.object(key, |s| {
            let ([post, get, delete], extra) = permissions(s, ["POST", "GET", "DELETE"]);
            AclSection {
                post,
                get,
                delete,
                extra,
            }
        })
        .unwrap_or_default()
    };
    let read_only = |f: &mut Fields<'_, '_>, key: &str| {
        f.object(key, |s| {
            let ([get], extra) = permissions(s, ["GET"]);
            AclReadSection { get, extra }
        })
        .unwrap_or_default()
    };
    Acl {
        content: full(f, "content"),
        search: read_only(f, "search"),
        stats: read_only(f, "stats"),
        logs: read_only(f, "logs"),
        origins: f
            .object("origins", |s| {
                let ([put, post, get, delete], extra) =
                    permissions(s, ["PUT", "POST", "GET", "DELETE"]);
                AclOriginsSection {
                    put,
                    post,
                    get,
                    delete,
                    extra,
                }
            })
            .unwrap_or_default(),
        customers: full(f, "customers"),
        zones: full(f, "zones"),
        ftplog: full(f, "ftplog"),
        extra: f.unread(),
    }
}

/// The sections the documents name.
const SECTIONS: [&str; 8] = [
    "content",
    "search",
    "stats",
    "logs",
    "origins",
    "customers",
    "zones",
    "ftplog",
];

/// A section as JSON: its named permissions, then its extra ones (which may not shadow
/// a named one).
fn section_json(name: &str, named: &[(&str, bool)], extra: &Extra) -> Result<Value, Error> {
    let mut out = Map::new();
    for (key, value) in named {
        if extra.contains_key(*key) {
            return Err(Error::invalid(
                format!("acl.{name}.extra"),
                format!("`{key}` is a named permission of the section; set the field instead"),
            ));
        }
        out.insert((*key).to_owned(), Value::Bool(*value));
    }
    out.extend(extra.clone());
    Ok(Value::Object(out))
}

/// The ACL as the JSON text the form field `acl` carries.
fn acl_json(acl: &Acl) -> Result<String, Error> {
    if let Some(key) = acl
        .extra
        .keys()
        .find(|key| SECTIONS.contains(&key.as_str()))
    {
        return Err(Error::invalid(
            "acl.extra",
            format!("`{key}` is a named section; set the field instead"),
        ));
    }
    let full = |name, s: &AclSection| {
        section_json(
            name,
            &[("POST", s.post), ("GET", s.get), ("DELETE", s.delete)],
            &s.extra,
        )
    };
    let read = |name, s: &AclReadSection| section_json(name, &[("GET", s.get)], &s.extra);
    let o = &acl.origins;
    let mut wire = Map::new();
    wire.insert("content".into(), full("content", &acl.content)?);
    wire.insert("search".into(), read("search", &acl.search)?);
    wire.insert("stats".into(), read("stats", &acl.stats)?);
    wire.insert("logs".into(), read("logs", &acl.logs)?);
    wire.insert(
        "origins".into(),
        section_json(
            "origins",
            &[
                ("PUT", o.put),
                ("POST", o.post),
                ("GET", o.get),
                ("DELETE", o.delete),
            ],
            &o.extra,
        )?,
    );
    wire.insert("customers".into(), full("customers", &acl.customers)?);
    wire.insert("zones".into(), full("zones", &acl.zones)?);
    wire.insert("ftplog".into(), full("ftplog", &acl.ftplog)?);
    wire.extend(acl.extra.clone());
    Ok(Value::Object(wire).to_string())
}

crate::read::shapes::has_extra!(Acl);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extras_cannot_shadow_named_entries() {
        let mut acl = Acl::default();
        acl.extra.insert("zones".into(), serde_json::json!({}));
        let err = acl_json(&acl).unwrap_err();
        assert!(matches!(&err, Error::InvalidInput { argument, .. } if argument == "acl.extra"));
        let mut acl = Acl::default();
        acl.search.extra.insert("GET".into(), true.into());
        let err = acl_json(&acl).unwrap_err();
        assert!(
            matches!(&err, Error::InvalidInput { argument, .. } if argument == "acl.search.extra")
        );
    }

    #[test]
    fn reads_back_what_it_writes() {
        let mut acl = Acl::default();
        acl.content.get = true;
        acl.origins.put = true;
        acl.stats.extra.insert("EXPORT".into(), true.into());
        let text = acl_json(&acl).unwrap();
        let read = Cursor::default()
            .object(crate::read::json::parse(text.as_bytes()).unwrap(), |f| {
                Ok(read_acl(f))
            })
            .unwrap();
        assert_eq!(read, acl);
    }
}
