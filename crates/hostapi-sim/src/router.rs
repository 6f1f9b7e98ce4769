//! Routing: `/v1/…`, `/cloud/v2/…` and `/cdn/…`, authentication, and the
//! conversion of failures into the interface's error body.
//!
//! Each interface matches (method, path segments) against its operation
//! table and names the operation (`"GET /v1/domains/{domainname}"`): that
//! name feeds the statistics and the write log.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;

use crate::error::{self, ApiError, ErrStyle};
use crate::state::Cx;
use crate::util::Req;

/// A handler: the request context, the request, and the path's `{…}`
/// segments in order.
pub(crate) type Handler = fn(&Cx<'_>, &Req, &[&str]) -> Result<Response, ApiError>;

/// One operation of an interface: the route tables (`v1::ROUTES`,
/// `cloud::ROUTES`, `cdn::ROUTES`) declare each once.
pub(crate) struct Route {
    /// HTTP method.
    pub(crate) method: &'static str,
    /// Path template (with the interface's prefix; CDN paths relative to
    /// `/cdn` and without the timestamp and signature); `{name}` matches
    /// one segment.
    pub(crate) path: &'static str,
    /// Operation name (statistics, write log, faults, journal).
    pub(crate) name: &'static str,
    pub(crate) handler: Handler,
}

/// `route!("GET", "/v1/x/{id}", handler)`, or with `as "/v1/y/{id}"` for an
/// alias path named after the documented one.
macro_rules! route {
    ($m:literal, $p:literal, $h:expr) => {
        $crate::router::Route {
            method: $m,
            path: $p,
            name: concat!($m, " ", $p),
            handler: $h,
        }
    };
    ($m:literal, $p:literal as $name:literal, $h:expr) => {
        $crate::router::Route {
            method: $m,
            path: $p,
            name: concat!($m, " ", $name),
            handler: $h,
        }
    };
}
pub(crate) use route;

/// Every interface's table, with the prefix its templates carry.
fn tables() -> [(&'static [Route], &'static str); 3] {
    [
        (crate::v1::ROUTES, "/v1"),
        (crate::cloud::ROUTES, "/cloud/v2"),
        (crate::cdn::ROUTES, ""),
    ]
}

/// The segments `segs` matched against `template` (after `prefix`): the
/// captured segments on success.
fn matches<'a>(template: &str, prefix: &str, segs: &[&'a str]) -> Option<Vec<&'a str>> {
    let t: Vec<&str> = template
        .strip_prefix(prefix)
        .unwrap_or(template)
        .split('/')
        .filter(|p| !p.is_empty())
        .collect();
    if t.len() != segs.len() {
        return None;
    }
    let mut caps = Vec::new();
    for (p, s) in t.iter().zip(segs) {
        if p.starts_with('{') {
            caps.push(*s);
        } else if p != s {
            return None;
        }
    }
    Some(caps)
}

/// Run the operation of `routes` that `segs` (the path after `prefix`)
/// names: the first match wins; `check` validates the request first.
pub(crate) fn run(
    cx: &Cx<'_>,
    req: &Req,
    routes: &'static [Route],
    prefix: &str,
    segs: &[&str],
    check: fn(&str, &Req) -> Result<(), ApiError>,
) -> Result<Response, ApiError> {
    let method = req.method.as_str();
    for r in routes.iter().filter(|r| r.method == method) {
        if let Some(caps) = matches(r.path, prefix, segs) {
            cx.op.set(r.name);
            if cx.probe {
                return Err(ApiError::not_found("probe"));
            }
            check(r.name, req)?;
            return (r.handler)(cx, req, &caps);
        }
    }
    Err(ApiError::no_route(method, &req.raw_path))
}

/// Every operation name (as in [`crate::Stats::operations`]), each once.
pub(crate) fn operations() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for (routes, _) in tables() {
        for r in routes {
            if !out.contains(&r.name) {
                out.push(r.name);
            }
        }
    }
    out
}

fn check_key(cx: &Cx<'_>, req: &Req) -> Result<(), ApiError> {
    match req.headers.get("x-svc-auth").map(|v| v.to_str()) {
        None => Err(ApiError::unauthorized(
            "Authentication required: missing X-Svc-Auth header",
        )),
        Some(Ok(k)) if k == cx.inner.api_key => Ok(()),
        // The documents do not say: 401 when no key is sent (authentication
        // is required), 403 when the key sent is refused.
        Some(_) => Err(ApiError::forbidden("Invalid API key in X-Svc-Auth")),
    }
}

pub(crate) fn dispatch(cx: &Cx<'_>, req: &Req) -> Response {
    let segs: Vec<&str> = req.segs.iter().map(String::as_str).collect();
    let (style, result) = match segs.as_slice() {
        ["v1", rest @ ..] => {
            let style = if rest.first() == Some(&"bareMetals") {
                ErrStyle::V1Integer
            } else {
                ErrStyle::V1String
            };
            (
                style,
                check_key(cx, req).and_then(|()| crate::v1::route(cx, req, rest)),
            )
        }
        ["cloud", "v2", rest @ ..] => (
            ErrStyle::Cloud,
            check_key(cx, req).and_then(|()| crate::cloud::route(cx, req, rest)),
        ),
        ["cdn", ..] => (ErrStyle::Cdn, crate::cdn::route(cx, req)),
        _ => (
            ErrStyle::V1String,
            Err(ApiError::no_route(req.method.as_str(), &req.raw_path)),
        ),
    };
    if cx.probe {
        return Response::default();
    }
    match result {
        Ok(r) => r,
        // No operation of this method: 405 when another method has one.
        Err(e) if e.status == StatusCode::NOT_FOUND && cx.op.get().is_empty() => {
            let allowed = allowed_methods(req);
            if allowed.is_empty() {
                return error::response(style, &e, &cx.inner.correlation_id(), "");
            }
            let allow = allowed.join(", ");
            let e = ApiError::new(
                StatusCode::METHOD_NOT_ALLOWED,
                format!(
                    "{} is not allowed on {}: allowed {allow}",
                    req.method, req.raw_path
                ),
            );
            let mut r = error::response(style, &e, &cx.inner.correlation_id(), "");
            if let Ok(v) = HeaderValue::from_str(&allow) {
                r.headers_mut().insert(header::ALLOW, v);
            }
            r
        }
        Err(e) => error::response(style, &e, &cx.inner.correlation_id(), cx.op.get()),
    }
}

/// The methods of the operations whose path matches the request's (for a
/// CDN path, without its timestamp and signature).
fn allowed_methods(req: &Req) -> Vec<&'static str> {
    let segs: Vec<&str> = req.segs.iter().map(String::as_str).collect();
    let (table, prefix, path): (&[Route], &str, &[&str]) = match segs.as_slice() {
        ["v1", rest @ ..] => (crate::v1::ROUTES, "/v1", rest),
        ["cloud", "v2", rest @ ..] => (crate::cloud::ROUTES, "/cloud/v2", rest),
        ["cdn", rest @ ..] => (
            crate::cdn::ROUTES,
            "",
            rest.get(..rest.len().saturating_sub(2)).unwrap_or(&[]),
        ),
        _ => return Vec::new(),
    };
    let mut out: Vec<&'static str> = Vec::new();
    for r in table {
        if matches(r.path, prefix, path).is_some() && !out.contains(&r.method) {
            out.push(r.method);
        }
    }
    out.retain(|m| *m != req.method.as_str());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tables_name_every_documented_operation_once() {
        let ops = operations();
        assert_eq!(ops.len(), 80, "57 v1 + 11 cloud + 12 CDN");
        let per = |p: &str| ops.iter().filter(|o| o.contains(p)).count();
        assert_eq!((per(" /v1/"), per(" /cloud/v2/")), (57, 11));
    }

    #[test]
    fn templates_capture_their_segments() {
        let t = "/v1/domains/{domainname}/dnsRecords/{recordId}";
        assert_eq!(
            matches(t, "/v1", &["domains", "a.com", "dnsRecords", "7"]),
            Some(vec!["a.com", "7"])
        );
        assert_eq!(matches(t, "/v1", &["domains", "a.com", "dnsRecords"]), None);
        assert_eq!(matches(t, "/v1", &["domains", "a.com", "other", "7"]), None);
    }
}
