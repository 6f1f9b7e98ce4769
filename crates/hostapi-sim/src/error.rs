//! Error answers in the shape DESIGN.md describes:
//! `{"errorCode", "errorMessage", "userMessage", "correlationId", "errorDetails"}`.

use axum::http::StatusCode;
use axum::response::Response;
use serde_json::{Value, json};

use crate::util;

/// A failed request: status, message and the field at fault (if any).
#[derive(Debug, Clone)]
pub(crate) struct ApiError {
    pub(crate) status: StatusCode,
    pub(crate) message: String,
    pub(crate) field: Option<String>,
}

impl ApiError {
    pub(crate) fn new(status: StatusCode, message: impl Into<String>) -> Self {
        ApiError {
            status,
            message: message.into(),
            field: None,
        }
    }

    /// 400 naming the field at fault.
    pub(crate) fn bad_field(field: &str, msg: &str) -> Self {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: format!("{field}: {msg}"),
            field: Some(field.to_string()),
        }
    }

    /// 404.
    pub(crate) fn not_found(what: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, what)
    }

    /// 409.
    pub(crate) fn conflict(what: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, what)
    }

    /// 403.
    pub(crate) fn forbidden(what: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, what)
    }

    /// 401.
    pub(crate) fn unauthorized(what: impl Into<String>) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, what)
    }

    /// 415.
    pub(crate) fn unsupported_media(what: impl Into<String>) -> Self {
        Self::new(StatusCode::UNSUPPORTED_MEDIA_TYPE, what)
    }

    /// 404 for a path no operation matches.
    pub(crate) fn no_route(method: &str, path: &str) -> Self {
        Self::new(
            StatusCode::NOT_FOUND,
            format!("no operation {method} {path}"),
        )
    }
}

/// How an interface spells its error bodies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ErrStyle {
    /// v1 (most endpoints): `errorCode` a string, `errorDetails` an object
    /// keyed by field name.
    V1String,
    /// v1 bare metal endpoints (the deprecated part): `errorCode` an integer,
    /// `errorDetails` an object keyed by field name.
    V1Integer,
    /// cloud v2: `errorCode` an integer, `errorDetails` an array of
    /// `{field, message}`, plus a `reference` naming the operation.
    Cloud,
    /// CDN: `errorCode` a string, `errorDetails` an object.
    Cdn,
}

fn user_message(status: StatusCode) -> &'static str {
    match status.as_u16() {
        400 => "The request is invalid. Please check the fields named in errorDetails.",
        401 => "You are not authorized to view this resource.",
        403 => "Access to this resource is denied.",
        404 => "The requested resource was not found.",
        405 => "This method is not allowed on the resource.",
        409 => "The resource is busy or in a conflicting state; try again later.",
        415 => "The request body has an unsupported content type.",
        429 => "Too many requests; please slow down.",
        500 => "An internal error occurred. Please try again later.",
        502 => "The service is temporarily unreachable.",
        503 => "The service is temporarily unavailable. Please try again later.",
        _ => "The request failed.",
    }
}

/// The JSON error body of `err` in `style`.
pub(crate) fn body(style: ErrStyle, err: &ApiError, correlation: &str, op: &str) -> Value {
    let code = err.status.as_u16();
    let code_v = match style {
        ErrStyle::V1Integer | ErrStyle::Cloud => json!(code),
        ErrStyle::V1String | ErrStyle::Cdn => json!(code.to_string()),
    };
    let details = match (style, &err.field) {
        (ErrStyle::Cloud, Some(f)) => json!([{"field": f, "message": err.message}]),
        (ErrStyle::Cloud, None) => json!([]),
        (_, Some(f)) => json!({ f.as_str(): [err.message] }),
        (_, None) => json!({}),
    };
    let mut v = json!({
        "errorCode": code_v,
        "errorMessage": err.message,
        "userMessage": user_message(err.status),
        "correlationId": correlation,
        "errorDetails": details,
    });
    if style == ErrStyle::Cloud {
        v["reference"] = json!(op);
    }
    v
}

/// The error answer.
pub(crate) fn response(style: ErrStyle, err: &ApiError, correlation: &str, op: &str) -> Response {
    util::json(err.status, &body(style, err, correlation, op))
}
