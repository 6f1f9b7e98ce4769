//! Origins: the sources the CDN fetches content from.

use hostapi_raw_cdn::types as raw;
use schemars::JsonSchema;
use serde::Serialize;

use super::Cdn;
use crate::model::macros::open_enum;
use crate::model::{Extra, OriginId};
use crate::wire::{self, At, FieldError};
use crate::{Error, Secret, validate};

open_enum! {
    /// What kind of source an origin is.
    OriginType {
        /// A plain HTTP(S) server.
        Simple = "simple" => "simple",
        /// An S3 bucket.
        S3 = "s3" => "s3",
    }
}

/// An origin: a source the CDN fetches content from.
///
/// The answer's payload sits under `success` or, in the origin answers, under the
/// misspelt `succes`: both are read. `ignore_cache_control` is an integer boolean on
/// the wire, and is also read from `ignore_cache_refresh`, the name the docs' samples
/// use. Empty strings (the docs' "otherwise empty string") read as `None`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Origin {
    /// The origin's id.
    pub id: OriginId,
    /// Simple or S3.
    pub origin_type: Option<OriginType>,
    /// The origin's own name.
    pub label: Option<String>,
    /// The HTTP URL of the source, on domain level (the wire's `origin`).
    pub url: Option<String>,
    /// The bucket name, for S3 origins.
    pub s3_bucket_name: Option<String>,
    /// How often the CDN refreshes from the origin, in seconds (the unit of the docs'
    /// sample).
    pub refresh_every_seconds: Option<u64>,
    /// Whether the origin's cache-control values are ignored in favour of the CDN's.
    pub ignore_cache_control: Option<bool>,
    /// The host sent in the `Host` header to the origin.
    pub proxy_header_host: Option<String>,
    /// The key that defines the caching.
    pub cache_key: Option<String>,
    /// The basic auth user (the access key id, for S3 origins).
    pub basic_auth_user: Option<String>,
    /// The basic auth password (the access key secret, for S3 origins): redacted
    /// unless exposed.
    pub basic_auth_password: Option<Secret>,
    /// HTTP headers added to requests to the origin, as the service writes them.
    pub headers_origin: Option<String>,
    /// Fields the model does not name.
    #[serde(skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

/// A new origin, for [`Cdn::create_origin`]: a label and a URL, and whatever else the
/// builder methods set (fields left `None` are not sent).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct NewOrigin {
    /// The origin's own name (not blank).
    pub label: String,
    /// The HTTP URL of the source (`http://` or `https://`, with a host).
    pub url: String,
    /// Simple or S3 (the docs do not name this field for create).
    pub origin_type: Option<OriginType>,
    /// The bucket name; required for S3 origins.
    pub s3_bucket_name: Option<String>,
    /// How often the CDN refreshes from the origin, in seconds.
    pub refresh_every_seconds: Option<u64>,
    /// Whether the origin's cache-control values are ignored in favour of the CDN's.
    pub ignore_cache_control: Option<bool>,
    /// The host sent in the `Host` header to the origin.
    pub proxy_header_host: Option<String>,
    /// The key that defines the caching.
    pub cache_key: Option<String>,
    /// The basic auth user (the access key id, for S3 origins).
    pub basic_auth_user: Option<String>,
    /// The basic auth password (the access key secret, for S3 origins).
    pub basic_auth_password: Option<Secret>,
    /// HTTP headers added to requests to the origin.
    pub headers_origin: Option<String>,
}

/// Changes to an origin, for [`Cdn::update_origin`]. Fields left `None` are not sent
/// (the docs do not say whether the service keeps or clears them; the facade never
/// sends what the caller did not set).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct OriginUpdate {
    /// The origin's own name (not blank).
    pub label: Option<String>,
    /// The HTTP URL of the source (`http://` or `https://`, with a host).
    pub url: Option<String>,
    /// Simple or S3.
    pub origin_type: Option<OriginType>,
    /// The bucket name, for S3 origins.
    pub s3_bucket_name: Option<String>,
    /// How often the CDN refreshes from the origin, in seconds.
    pub refresh_every_seconds: Option<u64>,
    /// Whether the origin's cache-control values are ignored in favour of the CDN's.
    pub ignore_cache_control: Option<bool>,
    /// The host sent in the `Host` header to the origin.
    pub proxy_header_host: Option<String>,
    /// The key that defines the caching.
    pub cache_key: Option<String>,
    /// The basic auth user.
    pub basic_auth_user: Option<String>,
    /// The basic auth password.
    pub basic_auth_password: Option<Secret>,
    /// HTTP headers added to requests to the origin.
    pub headers_origin: Option<String>,
}

/// Builder methods shared by [`NewOrigin`] and [`OriginUpdate`].
macro_rules! origin_setters {
    () => {
        /// Sets the origin type.
        pub fn origin_type(mut self, origin_type: OriginType) -> Self {
            self.origin_type = Some(origin_type);
            self
        }

        /// Sets the S3 bucket name.
        pub fn s3_bucket_name(mut self, bucket: impl Into<String>) -> Self {
            self.s3_bucket_name = Some(bucket.into());
            self
        }

        /// Sets how often the CDN refreshes from the origin, in seconds.
        pub fn refresh_every_seconds(mut self, seconds: u64) -> Self {
            self.refresh_every_seconds = Some(seconds);
            self
        }

        /// Sets whether the origin's cache-control values are ignored.
        pub fn ignore_cache_control(mut self, ignore: bool) -> Self {
            self.ignore_cache_control = Some(ignore);
            self
        }

        /// Sets the host sent in the `Host` header to the origin.
        pub fn proxy_header_host(mut self, host: impl Into<String>) -> Self {
            self.proxy_header_host = Some(host.into());
            self
        }

        /// Sets the cache key.
        pub fn cache_key(mut self, key: impl Into<String>) -> Self {
            self.cache_key = Some(key.into());
            self
        }

        /// Sets the basic auth user and password (for S3: access key id and secret).
        pub fn basic_auth(mut self, user: impl Into<String>, password: impl Into<Secret>) -> Self {
            self.basic_auth_user = Some(user.into());
            self.basic_auth_password = Some(password.into());
            self
        }

        /// Sets the HTTP headers added to requests to the origin.
        pub fn headers_origin(mut self, headers: impl Into<String>) -> Self {
            self.headers_origin = Some(headers.into());
            self
        }
    };
}

impl NewOrigin {
    /// A new origin named `label` that fetches from `url`.
    pub fn new(label: impl Into<String>, url: impl Into<String>) -> Self {
        Self {
            label: label.into(),
            url: url.into(),
            origin_type: None,
            s3_bucket_name: None,
            refresh_every_seconds: None,
            ignore_cache_control: None,
            proxy_header_host: None,
            cache_key: None,
            basic_auth_user: None,
            basic_auth_password: None,
            headers_origin: None,
        }
    }

    origin_setters!();

    fn as_update(&self) -> OriginUpdate {
        OriginUpdate {
            label: Some(self.label.clone()),
            url: Some(self.url.clone()),
            origin_type: self.origin_type.clone(),
            s3_bucket_name: self.s3_bucket_name.clone(),
            refresh_every_seconds: self.refresh_every_seconds,
            ignore_cache_control: self.ignore_cache_control,
            proxy_header_host: self.proxy_header_host.clone(),
            cache_key: self.cache_key.clone(),
            basic_auth_user: self.basic_auth_user.clone(),
            basic_auth_password: self.basic_auth_password.clone(),
            headers_origin: self.headers_origin.clone(),
        }
    }
}

impl OriginUpdate {
    /// An update that changes nothing yet; set the fields to change.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets the label.
    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.label = Some(label.into());
        self
    }

    /// Sets the source URL.
    pub fn url(mut self, url: impl Into<String>) -> Self {
        self.url = Some(url.into());
        self
    }

    origin_setters!();

    fn is_empty(&self) -> bool {
        self == &Self::default()
    }
}

impl Cdn<'_> {
    /// Lists the customer's origins. The service may answer a list or a single origin;
    /// this is always a list.
    pub async fn origins(&self) -> Result<Vec<Origin>, Error> {
        let signed = self.signed()?;
        let call = self
            .handle
            .cdn()
            .list_origins()
            .customer_number(signed.customer)
            .timestamp(signed.timestamp)
            .signature(signed.signature)
            .send();
        self.handle
            .json("listOrigins", call)
            .await?
            .normalize(origin_list)
    }

    /// Reads one origin. The id must be numeric.
    pub async fn origin(&self, id: &OriginId) -> Result<Origin, Error> {
        let id = validate::integer_id("id", id.as_str())?;
        let signed = self.signed()?;
        let call = self
            .handle
            .cdn()
            .get_origin()
            .customer_number(signed.customer)
            .origin_id(id)
            .timestamp(signed.timestamp)
            .signature(signed.signature)
            .send();
        self.handle
            .json("getOrigin", call)
            .await?
            .normalize(|raw| one_origin(raw.success, raw.succes))
    }

    /// Creates an origin and answers it as the service made it. Form-encoded;
    /// `ignore_cache_control` is sent under both its documented name and
    /// `ignore_cache_refresh`, the name the docs' samples send, with the same value.
    ///
    /// Refused before sending: a blank label, a URL that is not `http(s)://host…`, an
    /// S3 origin without a bucket name, a refresh interval beyond what the wire's
    /// integer holds.
    pub async fn create_origin(&self, origin: &NewOrigin) -> Result<Origin, Error> {
        let update = origin.as_update();
        if update.origin_type == Some(OriginType::S3)
            && update
                .s3_bucket_name
                .as_deref()
                .is_none_or(|b| b.trim().is_empty())
        {
            return Err(Error::invalid(
                "s3_bucket_name",
                "is required for s3 origins",
            ));
        }
        let form = origin_form(&update)?;
        let signed = self.signed()?;
        let call = self
            .handle
            .cdn()
            .create_origin()
            .customer_number(signed.customer)
            .timestamp(signed.timestamp)
            .signature(signed.signature)
            .body(form)
            .send();
        self.handle
            .json("createOrigin", call)
            .await?
            .normalize(|raw| one_origin(raw.success, raw.succes))
    }

    /// Changes an origin: only the fields `update` sets are sent (form-encoded, the
    /// cache-control flag under both of its names). The service answers nothing about
    /// the origin (`{"success": ""}`), so neither does this: read it again with
    /// [`Cdn::origin`] when you need it.
    ///
    /// Refused before sending: a non-numeric id, an update that changes nothing, a
    /// blank label, a URL that is not `http(s)://host…`, a blank S3 bucket name for an
    /// S3 origin.
    pub async fn update_origin(&self, id: &OriginId, update: &OriginUpdate) -> Result<(), Error> {
        let id = validate::integer_id("id", id.as_str())?;
        if update.is_empty() {
            return Err(Error::invalid("update", "changes nothing"));
        }
        if update.origin_type == Some(OriginType::S3)
            && update
                .s3_bucket_name
                .as_deref()
                .is_some_and(|b| b.trim().is_empty())
        {
            return Err(Error::invalid(
                "s3_bucket_name",
                "is required for s3 origins",
            ));
        }
        let form = origin_form(update)?;
        let signed = self.signed()?;
        let call = self
            .handle
            .cdn()
            .update_origin()
            .customer_number(signed.customer)
            .origin_id(id)
            .timestamp(signed.timestamp)
            .signature(signed.signature)
            .body(form)
            .send();
        // `{"success": ""}` in the docs' sample, and nothing more is documented: any
        // 2xx answer is a success with nothing to read.
        self.handle.empty("updateOrigin", call).await
    }
}

/// Checks a source URL: `http://` or `https://` with a host.
fn source_url(argument: &str, value: &str) -> Result<(), Error> {
    let url = url::Url::parse(value.trim()).map_err(|e| {
        Error::invalid(
            argument,
            format!("`{}` is not a URL: {e}", value.escape_debug()),
        )
    })?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(Error::invalid(
            argument,
            format!(
                "`{}` is not an http:// or https:// URL",
                value.escape_debug()
            ),
        ));
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err(Error::invalid(
            argument,
            format!("`{}` names no host", value.escape_debug()),
        ));
    }
    Ok(())
}

/// The form of an origin write: the fields set, booleans as 0/1, the cache-control
/// flag under both names.
fn origin_form(update: &OriginUpdate) -> Result<raw::OriginForm, Error> {
    if let Some(label) = &update.label {
        validate::not_blank("label", label)?;
    }
    if let Some(url) = &update.url {
        source_url("url", url)?;
    }
    let refresh_every = update
        .refresh_every_seconds
        .map(|seconds| {
            i64::try_from(seconds).map_err(|_| {
                Error::invalid(
                    "refresh_every_seconds",
                    format!("{seconds} is larger than {}", i64::MAX),
                )
            })
        })
        .transpose()?;
    let ignore = update.ignore_cache_control.map(i64::from);
    Ok(raw::OriginForm {
        basic_auth_password: update
            .basic_auth_password
            .as_ref()
            .map(|p| p.expose().to_owned()),
        basic_auth_user: update.basic_auth_user.clone(),
        cache_key: update.cache_key.clone(),
        headers_origin: update.headers_origin.clone(),
        ignore_cache_control: ignore,
        ignore_cache_refresh: ignore,
        label: update.label.clone(),
        origin: update.url.as_ref().map(|u| u.trim().to_owned()),
        origin_type: update.origin_type.as_ref().map(|t| t.as_wire().to_owned()),
        proxy_header_host: update.proxy_header_host.clone(),
        refresh_every,
        s3_bucket_name: update.s3_bucket_name.clone(),
    })
}

/// The payload of an origin answer, under `success` or the misspelt `succes`
/// (`success` wins when both are there).
fn payload<T>(success: Option<T>, succes: Option<T>) -> Result<(&'static str, T), FieldError> {
    match (success, succes) {
        (Some(value), _) => Ok(("success", value)),
        (None, Some(value)) => Ok(("succes", value)),
        (None, None) => {
            Err(FieldError::new("required but absent (under `success` or `succes`)").at("success"))
        }
    }
}

pub(crate) fn one_origin(
    success: Option<raw::Origin>,
    succes: Option<raw::Origin>,
) -> Result<Origin, FieldError> {
    let (key, raw) = payload(success, succes)?;
    origin(raw).at(key)
}

/// `{success|succes: [origin…] | origin}` → a list. A single empty object means no
/// origins.
pub(crate) fn origin_list(raw: raw::OriginListWrapper) -> Result<Vec<Origin>, FieldError> {
    let (key, payload) = payload(raw.success, raw.succes)?;
    match payload {
        raw::OriginOrOriginList::Array(list) => wire::each(list, origin).at(key),
        raw::OriginOrOriginList::Origin(one) if is_blank(&one) => Ok(Vec::new()),
        raw::OriginOrOriginList::Origin(one) => Ok(vec![origin(one).at(key)?]),
    }
}

fn is_blank(raw: &raw::Origin) -> bool {
    raw.id.is_none()
        && raw.origin_type.is_none()
        && raw.label.is_none()
        && raw.origin.is_none()
        && raw.s3_bucket_name.is_none()
        && raw.refresh_every.is_none()
        && raw.ignore_cache_control.is_none()
        && raw.proxy_header_host.is_none()
        && raw.cache_key.is_none()
        && raw.basic_auth_user.is_none()
        && raw.basic_auth_password.is_none()
        && raw.headers_origin.is_none()
        && raw.extra.is_empty()
}

/// A boolean from a field the spec does not type: integers (0 false, anything else
/// true), JSON booleans, or their text.
fn loose_boolean(value: &serde_json::Value) -> Result<bool, FieldError> {
    if let Some(number) = value.as_i64() {
        return Ok(wire::boolean_from_integer(number));
    }
    let text = wire::scalar_text(value)
        .ok_or_else(|| FieldError::new(format!("expected 0 or 1, found {value}")))?;
    wire::boolean(&text)
}

fn origin(mut raw: raw::Origin) -> Result<Origin, FieldError> {
    let id = wire::required(raw.id, "id")?;
    // The samples' name for the flag, read when the documented one is absent (when
    // both are there, the sample's stays in `extra`).
    let ignore_cache_control = match raw.ignore_cache_control {
        Some(flag) => Some(wire::boolean_from_integer(flag)),
        None => match wire::take_extra(&mut raw.extra, "ignore_cache_refresh") {
            None | Some(serde_json::Value::Null) => None,
            Some(value) => Some(loose_boolean(&value).at("ignore_cache_refresh")?),
        },
    };
    Ok(Origin {
        id: OriginId::from_wire(id.to_string()),
        origin_type: wire::non_empty(raw.origin_type).map(|t| OriginType::from_wire(&t)),
        label: wire::non_empty(raw.label),
        url: wire::non_empty(raw.origin),
        s3_bucket_name: wire::non_empty(raw.s3_bucket_name),
        refresh_every_seconds: raw
            .refresh_every
            .map(wire::count)
            .transpose()
            .at("refresh_every")?,
        ignore_cache_control,
        proxy_header_host: wire::non_empty(raw.proxy_header_host),
        cache_key: wire::non_empty(raw.cache_key),
        basic_auth_user: wire::non_empty(raw.basic_auth_user),
        basic_auth_password: wire::non_empty(raw.basic_auth_password).map(Secret::new),
        headers_origin: wire::non_empty(raw.headers_origin),
        extra: wire::extra(raw.extra),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn source_urls_are_http_with_a_host() {
        for good in ["https://www.example.com", "http://origin.example.com:8080/"] {
            assert!(source_url("url", good).is_ok(), "{good}");
        }
        for bad in [
            "www.example.com",
            "ftp://example.com",
            "https://",
            "not a url",
        ] {
            let err = source_url("url", bad).unwrap_err();
            assert!(
                matches!(&err, Error::InvalidInput { argument, .. } if argument == "url"),
                "{bad}: {err}"
            );
        }
    }

    #[test]
    fn the_flag_is_read_under_either_name() {
        let read = |json: serde_json::Value| origin(serde_json::from_value(json).unwrap());
        let o = read(serde_json::json!({"id": 1, "ignore_cache_refresh": "1"})).unwrap();
        assert_eq!(o.ignore_cache_control, Some(true));
        assert!(o.extra.is_empty());
        let o = read(
            serde_json::json!({"id": 1, "ignore_cache_control": 0, "ignore_cache_refresh": 1}),
        )
        .unwrap();
        assert_eq!(o.ignore_cache_control, Some(false));
        assert_eq!(o.extra["ignore_cache_refresh"], 1);
        let err = read(serde_json::json!({"id": 1, "ignore_cache_refresh": "maybe"})).unwrap_err();
        assert_eq!(err.path(), "ignore_cache_refresh");
        let err = read(serde_json::json!({"label": "x"})).unwrap_err();
        assert_eq!(err.path(), "id");
    }
}
