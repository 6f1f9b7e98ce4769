//! Raw requests: any documented path of the three interfaces, sent with the configured
//! credentials, through the same transport as every other call.
//!
//! A [`RawRequest`] names a method and a path (`GET /v1/domains`; a CDN path without
//! its `/{timestamp}/{signature}` tail, which the client adds and signs). The path
//! must be one of the documents' path templates for that method, unless
//! [`RawRequest::any_path`] says otherwise; either way it may not hold a `.` or `..`
//! segment, an empty segment, a query or a fragment (query parameters go in
//! [`RawRequest::query`]). The call then goes the way of every call: the API key or
//! the CDN signature only to its interface's host, no redirect followed, the answer
//! read to at most the client's answer limit, retries by the client's policy, and a
//! write whose answer was lost ends as [`Error::OutcomeUnknown`]. The answer's body
//! is handed over as received ([`RawAnswer::body`]): it is not read by the wire
//! policy, and may hold what the service sends as secret (a root password);
//! [`Client::scrub_secrets`] redacts it for printing.

use std::fmt;

use bytes::Bytes;
use progenitor_client::Error as RawError;
use reqwest::header::{CONTENT_TYPE, HeaderMap, HeaderValue};

use crate::transport::CallOptions;
use hostapi_raw_operation::Operation;

use crate::transport::route;
use crate::{CallInfo, Client, Error};

/// The operation name a call records when its path is no documented operation's
/// ([`RawRequest::any_path`]).
pub const RAW_OPERATION: &str = "raw";

/// Which interface, and so which base URL and credentials, a raw request goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Interface {
    /// The v1 infrastructure and cloud v2 APIs: the base URL, the API key.
    Api,
    /// The CDN API: the CDN base URL, a signed path.
    Cdn,
}

impl Interface {
    /// The interface whose documents hold paths starting with this first segment:
    /// `content`, `customers` and `origins` are the CDN's; every other, the API's.
    pub fn of_path(path: &str) -> Self {
        let first = path.trim_start_matches('/').split('/').next().unwrap_or("");
        if matches!(first, "content" | "customers" | "origins") {
            Self::Cdn
        } else {
            Self::Api
        }
    }
}

/// One documented operation, as a raw request reaches it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct DocumentedPath {
    /// The operationId (`getDomains`).
    pub operation: &'static str,
    /// `GET`, `POST`, `PUT` or `DELETE`.
    pub method: &'static str,
    /// The path template as a raw request gives it (`/v1/domains/{domainname}`; a
    /// CDN template without `/{timestamp}/{signature}`).
    pub template: &'static str,
    /// Where it goes.
    pub interface: Interface,
}

/// Every documented operation of the three interfaces, in the documents' order per
/// interface (v1, cloud v2, CDN).
pub fn documented_paths() -> Vec<DocumentedPath> {
    route::all().map(documented).collect()
}

fn documented(route: &'static Operation) -> DocumentedPath {
    let interface = if route.path.ends_with("/{timestamp}/{signature}") {
        Interface::Cdn
    } else {
        Interface::Api
    };
    DocumentedPath {
        operation: route.id,
        method: route.method,
        template: route
            .path
            .strip_suffix("/{timestamp}/{signature}")
            .unwrap_or(route.path),
        interface,
    }
}

/// A request to send as it is written, to any documented path of the three interfaces
/// ([`Client::raw_request`] sends it).
///
/// The path must be one of the documents' path templates for the method
/// ([`documented_paths`]), unless [`RawRequest::any_path`] says otherwise; either way
/// it may not hold a `.` or `..` segment, an empty segment, a query or a fragment
/// (query parameters go in [`RawRequest::query`]). A CDN path is given without its
/// `/{timestamp}/{signature}` tail, which the client adds and signs.
///
/// ```no_run
/// # async fn run() -> Result<(), hostapi::Error> {
/// let client = hostapi::Client::from_env()?;
/// let request = hostapi::client::RawRequest::new("GET", "/v1/domains")?.query("limit", "10");
/// let answer = client.raw_request(request).await?;
/// println!("{} {}", answer.status(), String::from_utf8_lossy(answer.body()));
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct RawRequest {
    method: reqwest::Method,
    path: String,
    query: Vec<(String, String)>,
    form: Vec<(String, String)>,
    json: Option<Bytes>,
    any_path: bool,
    interface: Option<Interface>,
}

impl fmt::Debug for RawRequest {
    /// The method and path only: values may be secrets (a password to set).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RawRequest")
            .field("method", &self.method.as_str())
            .field("path", &self.path)
            .field("query_fields", &self.query.len())
            .field("form_fields", &self.form.len())
            .field("json_bytes", &self.json.as_ref().map(Bytes::len))
            .field("any_path", &self.any_path)
            .finish_non_exhaustive()
    }
}

impl RawRequest {
    /// A request of `method` (`GET`, `POST`, `PUT`, `PATCH` or `DELETE`, in any
    /// letter case) to `path` (starting with `/`, relative to the interface's base
    /// URL). The path is checked here; whether it is documented, when it is sent.
    pub fn new(method: &str, path: &str) -> Result<Self, Error> {
        let method = match method.to_ascii_uppercase().as_str() {
            "GET" => reqwest::Method::GET,
            "POST" => reqwest::Method::POST,
            "PUT" => reqwest::Method::PUT,
            "PATCH" => reqwest::Method::PATCH,
            "DELETE" => reqwest::Method::DELETE,
            _ => {
                return Err(Error::invalid(
                    "method",
                    format!(
                        "`{}` is not GET, POST, PUT, PATCH or DELETE",
                        method.escape_debug()
                    ),
                ));
            }
        };
        check_path(path)?;
        Ok(Self {
            method,
            path: path.to_owned(),
            query: Vec::new(),
            form: Vec::new(),
            json: None,
            any_path: false,
            interface: None,
        })
    }

    /// Adds a query parameter (`?key=value`, percent-encoded).
    pub fn query(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.query.push((key.into(), value.into()));
        self
    }

    /// Adds a field of an `application/x-www-form-urlencoded` body (how the v1 API
    /// takes its writes). A request has a form or a JSON body, not both.
    pub fn form(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        self.form.push((key.into(), value.into()));
        self
    }

    /// Sends `body` as an `application/json` body (how the cloud and CDN APIs take
    /// their writes). It must be JSON: text that is not is refused, naming the line
    /// and column.
    pub fn json(mut self, body: impl Into<Bytes>) -> Result<Self, Error> {
        let body = body.into();
        if let Err(error) = serde_json::from_slice::<serde::de::IgnoredAny>(&body) {
            return Err(Error::invalid(
                "body",
                format!(
                    "not JSON: {} at line {} column {}",
                    match error.classify() {
                        serde_json::error::Category::Eof => "it ends too soon",
                        serde_json::error::Category::Syntax => "a syntax error",
                        serde_json::error::Category::Data => "a bad value",
                        serde_json::error::Category::Io => "a read error",
                    },
                    error.line(),
                    error.column()
                ),
            ));
        }
        self.json = Some(body);
        Ok(self)
    }

    /// Sends the request even when its path is no documented path template for its
    /// method (a path the documents do not have yet). The credentials still go only to
    /// the interface's host.
    pub fn any_path(mut self, any: bool) -> Self {
        self.any_path = any;
        self
    }

    /// The interface to send an undocumented path to (by default,
    /// [`Interface::of_path`]). A documented path goes to its document's interface.
    pub fn interface(mut self, interface: Interface) -> Self {
        self.interface = Some(interface);
        self
    }

    /// The method.
    pub fn method(&self) -> &str {
        self.method.as_str()
    }

    /// The path, as given.
    pub fn path(&self) -> &str {
        &self.path
    }
}

/// A path a raw request may carry: from the base URL's path on, segments that are
/// neither empty nor `.`/`..` (in any spelling), no query, no fragment, no white
/// space or control character.
fn check_path(path: &str) -> Result<(), Error> {
    let refuse = |why: &str| {
        Err(Error::invalid(
            "path",
            format!("`{}` {why}", path.escape_debug()),
        ))
    };
    let Some(rest) = path.strip_prefix('/') else {
        return refuse("does not start with `/` (e.g. /v1/domains)");
    };
    if path.contains(['?', '#']) {
        return refuse("holds a query or a fragment: give query parameters as fields");
    }
    if path.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return refuse("holds white space or a control character");
    }
    for segment in rest.split('/') {
        let decoded = percent_encoding::percent_decode_str(segment).collect::<Vec<u8>>();
        if decoded.is_empty() || decoded == b"." || decoded == b".." {
            return refuse("has an empty, `.` or `..` segment");
        }
        if decoded
            .iter()
            .any(|b| matches!(b, b'/' | b'\\') || b.is_ascii_control())
        {
            return refuse("has a segment that decodes to `/`, `\\` or a control character");
        }
    }
    Ok(())
}

/// The answer to a raw request: a `2XX` status, its headers and body as received.
/// (Every other status ends the call with an [`Error`], as every call's.)
pub struct RawAnswer {
    status: u16,
    headers: HeaderMap,
    body: Bytes,
    call: CallInfo,
}

impl fmt::Debug for RawAnswer {
    /// The status, header names and body length: the body and header values may
    /// hold secrets.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RawAnswer")
            .field("status", &self.status)
            .field(
                "headers",
                &self.headers.keys().map(|k| k.as_str()).collect::<Vec<_>>(),
            )
            .field("body_bytes", &self.body.len())
            .field("call", &self.call)
            .finish()
    }
}

impl RawAnswer {
    /// The HTTP status (`2XX`; 404 when a retried DELETE found its resource already
    /// gone, which counts as applied).
    pub fn status(&self) -> u16 {
        self.status
    }

    /// The answer's headers.
    pub fn headers(&self) -> &HeaderMap {
        &self.headers
    }

    /// The body, as received (at most the client's answer limit).
    pub fn body(&self) -> &[u8] {
        &self.body
    }

    /// Whether the answer says its body is JSON (`application/json`, or a
    /// `+json` type).
    pub fn is_json(&self) -> bool {
        self.headers
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .is_some_and(|t| {
                let t = t.trim().to_ascii_lowercase();
                t == "application/json" || t.ends_with("+json")
            })
    }

    /// The call: operation (or [`RAW_OPERATION`]), method, path, attempts, time.
    pub fn call(&self) -> &CallInfo {
        &self.call
    }
}

impl Client {
    /// Sends a raw request (see [`RawRequest`]): a documented path of the three interfaces, or any path with
    /// [`RawRequest::any_path`], with the configured credentials and the same rules
    /// as every call: the API key or the CDN signature only to its interface's host,
    /// no redirect followed, the answer read to at most the client's answer limit.
    /// The body is handed over as received, not read by the wire policy; it may hold
    /// what the service sends as secret (a root password): [`Client::scrub_secrets`]
    /// redacts it for printing. A status other than `2XX` is an [`Error`] like every call's; a
    /// write (anything but GET) whose answer was lost is
    /// [`Error::OutcomeUnknown`]; writes are not retried unless nothing was sent.
    pub async fn raw_request(&self, request: RawRequest) -> Result<RawAnswer, Error> {
        let inner = &self.inner;
        let matched = documented_match(&request)?;
        let interface = match matched {
            Some(path) => path.interface,
            None => request
                .interface
                .unwrap_or_else(|| Interface::of_path(&request.path)),
        };
        let operation = matched.map_or(RAW_OPERATION, |m| m.operation);
        let (base, credentials, setting) = match interface {
            Interface::Api => (
                inner.base_url.as_deref(),
                &inner.api_credentials,
                ("base_url", "HOSTAPI_BASE_URL"),
            ),
            Interface::Cdn => (
                inner.cdn_base_url.as_deref(),
                &inner.cdn_credentials,
                ("cdn_base_url", "HOSTAPI_CDN_BASE_URL"),
            ),
        };
        let Some(base) = base else {
            return Err(Error::invalid(
                setting.0,
                format!("not configured ({})", setting.1),
            ));
        };
        if !request.form.is_empty() && request.json.is_some() {
            return Err(Error::invalid(
                "body",
                "a request has form fields or a JSON body, not both",
            ));
        }
        let http = &inner.http;
        let signer = inner.cdn_signer.as_ref();
        let build = || {
            let mut url = format!("{base}{}", request.path);
            if interface == Interface::Cdn {
                // A fresh timestamp per attempt; the hooks sign the path.
                let now = signer.map_or(0, crate::signing::CdnSigner::now);
                url.push_str(&format!("/{now}/{}", crate::signing::SIGNATURE_PLACEHOLDER));
            }
            let mut builder = http.request(request.method.clone(), url);
            if !request.query.is_empty() {
                builder = builder.query(&request.query);
            }
            if !request.form.is_empty() {
                builder = builder.form(&request.form);
            }
            if let Some(json) = &request.json {
                builder = builder
                    .header(CONTENT_TYPE, HeaderValue::from_static("application/json"))
                    .body(json.clone());
            }
            let built = builder
                .build()
                .map_err(|e| Box::new(RawError::InvalidRequest(e.to_string())))?;
            // The path as sent must still be the path given: no segment added or
            // taken away by URL parsing.
            if built.url().path().split('/').count()
                != route::base_path(base).split('/').count() + request.path.split('/').count() - 1
                    + if interface == Interface::Cdn { 2 } else { 0 }
            {
                return Err(Box::new(RawError::Custom(format!(
                    "path: `{}` does not stay one path under the base URL",
                    request.path.escape_debug()
                ))));
            }
            if let Some(documented) = operation_of(matched) {
                route::check(documented, route::base_path(base), &built).map_err(|e| {
                    let reason = match e {
                        Error::InvalidInput { reason, .. } => reason,
                        other => other.to_string(),
                    };
                    Box::new(RawError::Custom(format!("request: {reason}")))
                })?;
            }
            Ok(built)
        };
        let options = CallOptions {
            keep_headers: true,
            ..CallOptions::default()
        };
        let answer = tracing::Instrument::instrument(
            inner
                .transport
                .call(operation, options, credentials, http, build),
            tracing::debug_span!("hostapi.call", operation),
        )
        .await?;
        Ok(RawAnswer {
            status: answer.status,
            headers: answer.headers.map(|h| *h).unwrap_or_default(),
            body: answer.body,
            call: answer.call,
        })
    }
}

/// The operation a documented path is (by method and template: the v1 and cloud
/// interfaces share some operationIds).
fn operation_of(path: Option<DocumentedPath>) -> Option<&'static Operation> {
    let path = path?;
    route::all().find(|operation| {
        operation.method == path.method && documented(operation).template == path.template
    })
}

/// The documented operation `request` reaches (its method on one of the templates),
/// `None` for an undocumented path sent with [`RawRequest::any_path`], or an error
/// naming what the documents have.
fn documented_match(request: &RawRequest) -> Result<Option<DocumentedPath>, Error> {
    let paths = documented_paths();
    let on_template: Vec<&DocumentedPath> = paths
        .iter()
        .filter(|p| template_matches(p.template, &request.path))
        .collect();
    if let Some(found) = on_template
        .iter()
        .find(|p| p.method == request.method.as_str())
    {
        return Ok(Some(**found));
    }
    if request.any_path {
        return Ok(None);
    }
    if !on_template.is_empty() {
        let mut methods: Vec<&str> = on_template.iter().map(|p| p.method).collect();
        methods.dedup();
        return Err(Error::invalid(
            "path",
            format!(
                "the documents have {} {}, not {}; --any-path sends it anyway",
                methods.join(", "),
                on_template[0].template,
                request.method
            ),
        ));
    }
    // Documented paths under the longest prefix of the path that has some, as a hint.
    let segments: Vec<&str> = request.path.split('/').collect();
    let (prefix, near) = (3..segments.len())
        .rev()
        .map(|n| {
            let prefix = segments[..n].join("/");
            let mut near: Vec<&DocumentedPath> = paths
                .iter()
                .filter(|p| p.template.starts_with(&format!("{prefix}/")) || p.template == prefix)
                .collect();
            near.sort_by_key(|p| (p.template, p.method));
            let near: Vec<String> = near
                .iter()
                .map(|p| format!("{} {}", p.method, p.template))
                .collect();
            (prefix, near)
        })
        .find(|(_, near)| !near.is_empty())
        .unwrap_or_default();
    let hint = match near.len() {
        0 => String::new(),
        n if n <= 6 => format!(" (under {prefix}: {})", near.join(", ")),
        n => format!(
            " (under {prefix}: {}, and {} more)",
            near[..6].join(", "),
            n - 6
        ),
    };
    Err(Error::invalid(
        "path",
        format!(
            "{} `{}` is not a documented path{hint}; --any-path sends it anyway",
            request.method,
            request.path.escape_debug()
        ),
    ))
}

/// Whether `path` is `template` with every `{parameter}` one segment.
fn template_matches(template: &str, path: &str) -> bool {
    let mut wanted = template.split('/');
    let mut given = path.split('/');
    loop {
        match (wanted.next(), given.next()) {
            (None, None) => return true,
            (Some(literal), Some(segment)) if !literal.starts_with('{') => {
                if literal != segment {
                    return false;
                }
            }
            (Some(_), Some(segment)) if !segment.is_empty() => {}
            _ => return false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_checked_before_anything_is_sent() {
        for bad in [
            "v1/domains",
            "/v1/domains?x=1",
            "/v1/domains#f",
            "/v1/domains/../bareMetals",
            "/v1/domains/%2e%2e",
            "/v1//domains",
            "/v1/domains/",
            "/v1/domains/a%2Fb",
            "/v1/domains/a b",
            "/v1/domains/a\nb",
        ] {
            match RawRequest::new("GET", bad) {
                Err(Error::InvalidInput { argument, .. }) => assert_eq!(argument, "path"),
                other => panic!("{bad:?}: {other:?}"),
            }
        }
        assert!(RawRequest::new("TRACE", "/v1/domains").is_err());
        assert!(RawRequest::new("get", "/v1/domains").is_ok());
    }

    #[test]
    fn documented_paths_are_matched_by_method_and_template() {
        let get = |path: &str| RawRequest::new("GET", path).expect("a path");
        let found = documented_match(&get("/v1/domains")).expect("documented");
        assert_eq!(found.map(|f| f.operation), Some("listDomains"));
        let found = documented_match(&get("/origins/C123456")).expect("documented");
        assert_eq!(found.map(|f| f.interface), Some(Interface::Cdn));
        let found = documented_match(&get("/cloud/v2/virtualServers/c90e8a9c")).expect("doc");
        assert_eq!(found.map(|f| f.interface), Some(Interface::Api));

        let wrong_method = RawRequest::new("PATCH", "/v1/domains").expect("a path");
        let error = documented_match(&wrong_method).expect_err("not documented");
        assert!(error.to_string().contains("GET /v1/domains"), "{error}");
        let error = documented_match(&get("/v1/domainz")).expect_err("not documented");
        assert!(error.to_string().contains("--any-path"), "{error}");
        assert_eq!(
            documented_match(&get("/v1/domainz").any_path(true)).expect("any path"),
            None
        );
        assert_eq!(Interface::of_path("/content/purge/x"), Interface::Cdn);
        assert_eq!(Interface::of_path("/v2/new"), Interface::Api);
    }

    #[test]
    fn a_json_body_must_be_json() {
        let request = RawRequest::new("POST", "/cloud/v2/virtualServers/x/powerOn").expect("p");
        let error = request.json(&b"{\n  \"a\": }"[..]).expect_err("not JSON");
        assert!(error.to_string().contains("line 2 column"), "{error}");
    }

    #[test]
    fn debug_shows_no_values() {
        let request = RawRequest::new("PUT", "/v1/bareMetals/1/rootPassword")
            .expect("a path")
            .form("rootPassword", "hunter2-secret");
        assert!(!format!("{request:?}").contains("hunter2"));
    }
}
