//! The customer's access control list: read, replace, delete.

use hostapi_raw_cdn::types as raw;
use schemars::JsonSchema;
use serde::Serialize;

use super::Cdn;
use crate::Error;
use crate::model::Extra;
use crate::wire::FieldError;

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
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, JsonSchema)]
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
    #[serde(skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

/// An ACL section with the permissions POST, GET and DELETE.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, JsonSchema)]
pub struct AclSection {
    /// POST: create.
    pub post: bool,
    /// GET: read.
    pub get: bool,
    /// DELETE: delete.
    pub delete: bool,
    /// Permissions the docs do not list for this section, as sent (wire names).
    #[serde(skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

/// An ACL section with only the GET permission.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, JsonSchema)]
pub struct AclReadSection {
    /// GET: read.
    pub get: bool,
    /// Permissions the docs do not list for this section, as sent (wire names).
    #[serde(skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

/// The `origins` ACL section: PUT, POST, GET and DELETE.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, JsonSchema)]
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
    #[serde(skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

impl Cdn<'_> {
    /// Reads the customer's access control list.
    pub async fn acl(&self) -> Result<Acl, Error> {
        let signed = self.signed()?;
        let call = self
            .handle
            .cdn()
            .get_acl()
            .customer_number(signed.customer)
            .timestamp(signed.timestamp)
            .signature(signed.signature)
            .send();
        let customer = signed.customer;
        self.handle
            .json("getAcl", call)
            .await?
            .normalize(|raw| acl_answer(raw, customer))
    }

    /// Replaces the customer's access control list with `acl`, and answers the list as
    /// the service then has it.
    ///
    /// Sent as the one form field `acl` holding the whole list as JSON text, every
    /// section and every documented permission spelt out (`true` or `false`), plus the
    /// sections and permissions of the `extra` maps. Refused before sending: an `extra`
    /// key that repeats a named section or permission.
    pub async fn replace_acl(&self, acl: &Acl) -> Result<Acl, Error> {
        let text = acl_json(acl)?;
        let signed = self.signed()?;
        let call = self
            .handle
            .cdn()
            .replace_acl()
            .customer_number(signed.customer)
            .timestamp(signed.timestamp)
            .signature(signed.signature)
            .body(raw::AclForm { acl: text })
            .send();
        let customer = signed.customer;
        self.handle
            .json("replaceAcl", call)
            .await?
            .normalize(|raw| acl_answer(raw, customer))
    }

    /// Deletes the customer's access control list, and answers the list the service
    /// answers then (the docs do not say whether that is the deleted list or what
    /// applies afterwards).
    pub async fn delete_acl(&self) -> Result<Acl, Error> {
        let signed = self.signed()?;
        let call = self
            .handle
            .cdn()
            .delete_acl()
            .customer_number(signed.customer)
            .timestamp(signed.timestamp)
            .signature(signed.signature)
            .send();
        let customer = signed.customer;
        self.handle
            .json("deleteAcl", call)
            .await?
            .normalize(|raw| acl_answer(raw, customer))
    }
}

/// `{success: {<customer_number>: ACL}}` → the customer's ACL. When the map has no
/// entry under the customer's number but exactly one entry, that one is taken (the
/// service may format the number differently); otherwise the answer is not the one
/// documented.
pub(crate) fn acl_answer(raw: raw::AclWrapper, customer: &str) -> Result<Acl, FieldError> {
    let mut by_customer = raw.success.0;
    if let Some(found) = by_customer.swap_remove(customer) {
        return Ok(acl(found));
    }
    let keys: Vec<String> = by_customer.keys().cloned().collect();
    match (by_customer.pop(), keys.len()) {
        (Some((_, only)), 1) => Ok(acl(only)),
        _ => Err(FieldError::new(format!(
            "expected the ACL of customer {customer}, found {}",
            if keys.is_empty() {
                "none".to_owned()
            } else {
                format!("only customers {}", keys.join(", "))
            }
        ))
        .at("success")),
    }
}

/// The permissions of a wire section the model does not name for it, kept in the
/// section's `extra` under their wire names.
fn leftovers(raw: raw::AclPermissions, named: &[&str]) -> (raw::AclPermissions, Extra) {
    let mut extra: Extra = crate::wire::extra(raw.extra);
    let mut keep = |key: &str, value: Option<bool>| {
        if let Some(value) = value
            && !named.contains(&key)
        {
            extra.insert(key.to_owned(), serde_json::Value::Bool(value));
        }
    };
    keep("PUT", raw.put);
    keep("POST", raw.post);
    keep("GET", raw.get);
    keep("DELETE", raw.delete);
    let rest = raw::AclPermissions {
        extra: serde_json::Map::new(),
        ..raw
    };
    (rest, extra)
}

fn section(raw: Option<raw::AclPermissions>) -> AclSection {
    let Some(raw) = raw else {
        return AclSection::default();
    };
    let (raw, extra) = leftovers(raw, &["POST", "GET", "DELETE"]);
    AclSection {
        post: raw.post.unwrap_or(false),
        get: raw.get.unwrap_or(false),
        delete: raw.delete.unwrap_or(false),
        extra,
    }
}

fn read_section(raw: Option<raw::AclPermissions>) -> AclReadSection {
    let Some(raw) = raw else {
        return AclReadSection::default();
    };
    let (raw, extra) = leftovers(raw, &["GET"]);
    AclReadSection {
        get: raw.get.unwrap_or(false),
        extra,
    }
}

fn origins_section(raw: Option<raw::AclPermissions>) -> AclOriginsSection {
    let Some(raw) = raw else {
        return AclOriginsSection::default();
    };
    let (raw, extra) = leftovers(raw, &["PUT", "POST", "GET", "DELETE"]);
    AclOriginsSection {
        put: raw.put.unwrap_or(false),
        post: raw.post.unwrap_or(false),
        get: raw.get.unwrap_or(false),
        delete: raw.delete.unwrap_or(false),
        extra,
    }
}

fn acl(raw: raw::Acl) -> Acl {
    Acl {
        content: section(raw.content),
        search: read_section(raw.search),
        stats: read_section(raw.stats),
        logs: read_section(raw.logs),
        origins: origins_section(raw.origins),
        customers: section(raw.customers),
        zones: section(raw.zones),
        ftplog: section(raw.ftplog),
        extra: crate::wire::extra(raw.extra),
    }
}

/// The names of the sections the model names.
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

/// The wire section of a model section: its named permissions, then its extras.
fn wire_section(
    name: &str,
    put: Option<bool>,
    post: Option<bool>,
    get: Option<bool>,
    delete: Option<bool>,
    extra: &Extra,
) -> Result<raw::AclPermissions, Error> {
    let named = [
        ("PUT", put),
        ("POST", post),
        ("GET", get),
        ("DELETE", delete),
    ];
    if let Some((key, _)) = named
        .iter()
        .find(|(key, value)| value.is_some() && extra.contains_key(*key))
    {
        return Err(Error::invalid(
            format!("acl.{name}.extra"),
            format!("`{key}` is a named permission of the section; set the field instead"),
        ));
    }
    Ok(raw::AclPermissions {
        put,
        post,
        get,
        delete,
        extra: extra.clone().into_iter().collect(),
    })
}

/// The ACL as the JSON text the `acl` form field carries.
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
        wire_section(
            name,
            None,
            Some(s.post),
            Some(s.get),
            Some(s.delete),
            &s.extra,
        )
    };
    let read =
        |name, s: &AclReadSection| wire_section(name, None, None, Some(s.get), None, &s.extra);
    let o = &acl.origins;
    let wire = raw::Acl {
        content: Some(full("content", &acl.content)?),
        search: Some(read("search", &acl.search)?),
        stats: Some(read("stats", &acl.stats)?),
        logs: Some(read("logs", &acl.logs)?),
        origins: Some(wire_section(
            "origins",
            Some(o.put),
            Some(o.post),
            Some(o.get),
            Some(o.delete),
            &o.extra,
        )?),
        customers: Some(full("customers", &acl.customers)?),
        zones: Some(full("zones", &acl.zones)?),
        ftplog: Some(full("ftplog", &acl.ftplog)?),
        extra: acl.extra.clone().into_iter().collect(),
    };
    serde_json::to_string(&wire)
        .map_err(|e| Error::invalid("acl", format!("cannot be written as JSON: {e}")))
}

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

        // A permission the docs do not list for a section may be carried in `extra`.
        let mut acl = Acl::default();
        acl.search.extra.insert("POST".into(), true.into());
        assert!(
            acl_json(&acl)
                .unwrap()
                .contains(r#""search":{"GET":false,"POST":true}"#)
        );
    }

    #[test]
    fn undocumented_permissions_are_kept_in_extra() {
        let raw: raw::Acl = serde_json::from_value(serde_json::json!({
            "search": {"GET": true, "DELETE": true, "PATCH": false},
            "rules": {"GET": true}
        }))
        .unwrap();
        let acl = acl(raw);
        assert!(acl.search.get);
        assert_eq!(acl.search.extra["DELETE"], true);
        assert_eq!(acl.search.extra["PATCH"], false);
        assert_eq!(acl.extra["rules"], serde_json::json!({"GET": true}));
        assert_eq!(acl.content, AclSection::default());
    }
}
