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

/// Set the operation name and run its handler (unless the request is only
/// being named: see [`Cx::probe`]).
pub(crate) fn op(
    cx: &Cx<'_>,
    name: &'static str,
    f: impl FnOnce() -> Result<Response, ApiError>,
) -> Result<Response, ApiError> {
    cx.op.set(name);
    if cx.probe {
        return Err(ApiError::not_found("probe"));
    }
    f()
}

/// The cloud v2 and CDN operation names (v1's are in [`crate::v1::ROUTES`]).
const CLOUD_AND_CDN: &[&str] = &[
    "GET /cloud/v2/virtualServers",
    "GET /cloud/v2/virtualServers/{id}",
    "PUT /cloud/v2/virtualServers/{id}",
    "POST /cloud/v2/virtualServers/{id}/powerOn",
    "POST /cloud/v2/virtualServers/{id}/powerOff",
    "POST /cloud/v2/virtualServers/{id}/reboot",
    "POST /cloud/v2/virtualServers/{id}/reinstall",
    "GET /cloud/v2/virtualServers/{id}/credentials/{credentialType}",
    "GET /cloud/v2/virtualServers/{id}/credentials/{credentialType}/{username}",
    "GET /cloud/v2/virtualServers/{id}/metrics/datatraffic",
    "GET /cloud/v2/privateClouds",
    "POST /content/purge/{customer_number}/{zone_id}",
    "GET /content/purge/{customer_number}/{zone_id}/{job_id}",
    "GET /customers/reseller/{customer_number}/{sub_customer_number}",
    "POST /customers/reseller/{customer_number}/{sub_customer_number}",
    "GET /customers/acl/{customer_number}",
    "POST /customers/acl/{customer_number}",
    "DELETE /customers/acl/{customer_number}",
    "GET /customers/{customer_number}/{limit}/{offset}",
    "GET /origins/{customer_number}",
    "POST /origins/{customer_number}",
    "GET /origins/{customer_number}/{origin_id}",
    "PUT /origins/{customer_number}/{origin_id}",
];

/// Every operation name (as in [`crate::Stats::operations`]), each once.
pub(crate) fn operations() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for r in crate::v1::ROUTES {
        if !out.contains(&r.name) {
            out.push(r.name);
        }
    }
    out.extend_from_slice(CLOUD_AND_CDN);
    out
}

fn check_key(cx: &Cx<'_>, req: &Req) -> Result<(), ApiError> {
    match req.headers.get("x-svc-auth").map(|v| v.to_str()) {
        None => Err(ApiError::unauthorized(
            "Authentication required: missing X-Svc-Auth header",
        )),
        Some(Ok(k)) if k == cx.inner.api_key => Ok(()),
        Some(_) => Err(ApiError::unauthorized("Invalid API key in X-Svc-Auth")),
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

/// Whether `template` (`/a/{x}/b`) matches the path segments `segs`.
fn template_matches(template: &str, segs: &[&str]) -> bool {
    let t: Vec<&str> = template.split('/').filter(|p| !p.is_empty()).collect();
    t.len() == segs.len()
        && t.iter()
            .zip(segs)
            .all(|(p, s)| p.starts_with('{') || p == s)
}

/// The methods of the operations whose path matches the request's (for a
/// CDN path, without its timestamp and signature).
fn allowed_methods(req: &Req) -> Vec<&'static str> {
    let segs: Vec<&str> = req.segs.iter().map(String::as_str).collect();
    let cdn = segs.first() == Some(&"cdn");
    let path: &[&str] = if cdn {
        segs.get(1..segs.len().saturating_sub(2)).unwrap_or(&[])
    } else {
        &segs
    };
    let v1 = crate::v1::ROUTES.iter().map(|r| (r.method, r.path));
    let others = CLOUD_AND_CDN.iter().filter_map(|n| n.split_once(' '));
    let mut out: Vec<&'static str> = Vec::new();
    for (m, p) in v1.chain(others) {
        let is_cdn = !p.starts_with("/v1/") && !p.starts_with("/cloud/");
        if is_cdn == cdn && template_matches(p, path) && !out.contains(&m) {
            out.push(m);
        }
    }
    out.retain(|m| *m != req.method.as_str());
    out
}
