//! Origins: the sources the CDN fetches content from.

use hostapi_raw_cdn::types as raw;
#[cfg(feature = "schema")]
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{payload, payload_parts, signing};
use crate::handle::{Handle, retry_unsafe_option};
use crate::list::{List, Listing};
use crate::model::macros::{constructor, open_enum};
use crate::model::{Extra, OriginId};
use crate::outcome::Confirmation;
use crate::read::Records;
use crate::read::{Cursor, FieldError, Fields, Json};
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
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
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
    pub headers_origin: Option<Secret>,
    /// Fields the model does not name.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

constructor! {
    /// An origin known by its id only (set the other fields as needed).
    Origin(id: OriginId) { origin_type, label, url, s3_bucket_name, refresh_every_seconds, ignore_cache_control, proxy_header_host, cache_key, basic_auth_user, basic_auth_password, headers_origin, extra }
}

/// A new origin, for [`Origins::create`]: a label and a URL, and whatever else the
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
    pub headers_origin: Option<Secret>,
}

/// Changes to an origin, for [`Origins::update`]. Fields left `None` are not sent
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
    pub headers_origin: Option<Secret>,
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

        /// Sets the HTTP headers added to requests to the origin (they often carry a
        /// token, so they are a [`Secret`]).
        pub fn headers_origin(mut self, headers: impl Into<Secret>) -> Self {
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

    pub(crate) fn as_update(&self) -> OriginUpdate {
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

    /// Whether the update changes nothing (every field left as it is).
    pub fn is_empty(&self) -> bool {
        self == &Self::default()
    }
}

/// The origins of the configured customer ([`Cdn::origins`](super::Cdn::origins)).
#[derive(Debug, Clone)]
pub struct Origins {
    pub(crate) handle: Handle,
}

impl Origins {
    retry_unsafe_option!();

    /// Lists the origins. The payload is a list, a single origin, or nothing.
    pub fn list(&self) -> List<Origin> {
        let handle = self.handle.clone();
        List::once(async move {
            let signed = signing(&handle)?;
            let cdn = handle.cdn();
            let answer = handle
                .call_cdn(|| {
                    cdn.list_origins()
                        .customer_number(signed.customer)
                        .timestamp(signed.timestamp())
                        .signature(signed.signature())
                })
                .await?;
            answer.list(origin_items, origin)
        })
    }

    /// Reads one origin. The id must be numeric.
    pub async fn get(&self, id: &OriginId) -> Result<Origin, Error> {
        let number = validate::integer_id("id", id.as_str())?;
        let signed = signing(&self.handle)?;
        let cdn = self.handle.cdn();
        let answer = self
            .handle
            .call_cdn(|| {
                cdn.get_origin()
                    .customer_number(signed.customer)
                    .origin_id(number)
                    .timestamp(signed.timestamp())
                    .signature(signed.signature())
            })
            .await?;
        answer.one(|cursor, body| payload(cursor, body, origin))
    }

    /// Creates an origin and answers it as the service stored it. Sends the flag both as
    /// the documented `ignore_cache_control` and as `ignore_cache_refresh`, which the
    /// samples use. An S3 origin needs a bucket name.
    pub async fn create(&self, origin_spec: &NewOrigin) -> Result<Origin, Error> {
        let update = origin_spec.as_update();
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
        let signed = signing(&self.handle)?;
        let cdn = self.handle.cdn();
        let answer = self
            .handle
            .call_cdn(|| {
                cdn.create_origin()
                    .customer_number(signed.customer)
                    .timestamp(signed.timestamp())
                    .signature(signed.signature())
                    .body(form.clone())
            })
            .await?;
        answer.one(|cursor, body| payload(cursor, body, origin))
    }

    /// Changes the given fields of an origin. The service answers `{"success": ""}` and
    /// nothing more is documented: any 2xx answer is a success. The id must be numeric
    /// and the update must change something.
    pub async fn update(&self, id: &OriginId, update: &OriginUpdate) -> Result<(), Error> {
        let number = validate::integer_id("id", id.as_str())?;
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
        let signed = signing(&self.handle)?;
        let cdn = self.handle.cdn();
        self.handle
            .call_cdn(|| {
                cdn.update_origin()
                    .customer_number(signed.customer)
                    .origin_id(number)
                    .timestamp(signed.timestamp())
                    .signature(signed.signature())
                    .body(form.clone())
            })
            .await?;
        Ok(())
    }

    /// After [`create`](Self::create) failed with an unknown outcome: whether an origin
    /// with `origin`'s label and URL now exists.
    pub async fn confirm_create(
        &self,
        origin_spec: &NewOrigin,
    ) -> Result<Confirmation<Origin>, Error> {
        let origins: Listing<Origin> = self.list().await?;
        Ok(
            match origins.into_iter().find(|o| {
                o.label.as_deref() == Some(origin_spec.label.as_str())
                    && o.url.as_deref() == Some(origin_spec.url.trim())
            }) {
                Some(found) => Confirmation::Applied(found),
                None => Confirmation::NotApplied,
            },
        )
    }
}

/// Checks a source URL: http or https, with a host.
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
        headers_origin: update
            .headers_origin
            .as_ref()
            .map(|h| h.expose().to_owned()),
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

/// The origins of a list answer: a list, one origin, or nothing (`{}`/`[]`/null).
pub(crate) fn origin_items<'a>(
    cursor: &mut Cursor,
    body: Json<'a>,
) -> Result<Records<'a>, FieldError> {
    let (items, extra) = payload_parts(cursor, body, |_, json| {
        Ok(match json {
            Json::Array(items) => items,
            Json::Object(members) if members.is_empty() => Vec::new(),
            json if json.is_nothing() => Vec::new(),
            one => vec![one],
        })
    })?;
    Ok(Records {
        path: "success".to_owned(),
        items,
        extra,
    })
}

/// An origin. `ignore_cache_control` is also read from `ignore_cache_refresh`, the name
/// the samples use (when both are there, the sample's stays in `extra`).
pub(crate) fn origin(cursor: &mut Cursor, json: Json<'_>) -> Result<Origin, FieldError> {
    cursor.object(json, |f: &mut Fields<'_, '_>| {
        f.alias("ignore_cache_refresh", "ignore_cache_control");
        Ok(Origin {
            id: f.id("id")?,
            origin_type: f.open_enum("origin_type", OriginType::from_wire),
            label: f.text("label"),
            url: f.text("origin"),
            s3_bucket_name: f.text("s3_bucket_name"),
            refresh_every_seconds: f.integer("refresh_every"),
            ignore_cache_control: f.boolean("ignore_cache_control"),
            proxy_header_host: f.text("proxy_header_host"),
            cache_key: f.text("cache_key"),
            basic_auth_user: f.text("basic_auth_user"),
            basic_auth_password: f.secret("basic_auth_password"),
            headers_origin: f.secret("headers_origin"),
            extra: f.unread(),
        })
    })
}
crate::read::shapes::has_extra!(Origin);
