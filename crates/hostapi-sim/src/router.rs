//! Routing: `/v1/…`, `/cloud/v2/…` and `/cdn/…`, authentication, and the
//! conversion of failures into the interface's error body.
//!
//! Each interface matches (method, path segments) against its operation
//! table and names the operation (`"GET /v1/domains/{domainname}"`): that
//! name feeds the statistics and the write log.

use axum::response::Response;

use crate::error::{self, ApiError, ErrStyle};
use crate::state::Cx;
use crate::util::Req;

/// Set the operation name and run its handler.
pub(crate) fn op<T>(cx: &Cx<'_>, name: &'static str, f: impl FnOnce() -> T) -> T {
    cx.op.set(name);
    f()
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
    match result {
        Ok(r) => r,
        Err(e) => error::response(style, &e, &cx.inner.correlation_id(), cx.op.get()),
    }
}
