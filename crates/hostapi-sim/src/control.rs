//! The control API under `/_sim/` (JSON): health, reset, state
//! export/import, the simulated clock, fault rules, the request journal
//! and a replay's progress. It answers loopback clients only, or, with a
//! control token, whoever sends it. See the crate docs for the endpoints.

use std::sync::Arc;

use axum::body::Body;
use axum::http::request::Parts;
use axum::http::{Method, StatusCode};
use axum::response::Response;
use serde_json::{Value, json};

use crate::change::Undo;
use crate::changelog::{Unsaved, Verdict};
use crate::rules::FaultRule;
use crate::server::{Inner, Peer};
use crate::state::{Dataset, lock};
use crate::util;

/// Largest control request body: an imported state document.
const MAX_BODY: usize = crate::MAX_IMPORT_BYTES;
/// Largest single clock advance: ten years.
pub const MAX_ADVANCE_SECS: f64 = 10.0 * 365.0 * 86_400.0;

fn answer(status: StatusCode, v: &Value) -> Response {
    util::json(status, v)
}

fn bad(msg: impl Into<String>) -> Response {
    answer(StatusCode::BAD_REQUEST, &json!({"error": msg.into()}))
}

fn method_not_allowed(allowed: &str) -> Response {
    let mut r = answer(
        StatusCode::METHOD_NOT_ALLOWED,
        &json!({"error": format!("allowed: {allowed}")}),
    );
    if let Ok(v) = axum::http::HeaderValue::from_str(allowed) {
        r.headers_mut().insert(axum::http::header::ALLOW, v);
    }
    r
}

/// A JSON body, or `default` when the body is empty.
fn body_json(bytes: &[u8], default: Value) -> Result<Value, String> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(default);
    }
    serde_json::from_slice(bytes).map_err(|e| format!("body: not JSON: {e}"))
}

/// Answer `ok` once the control write is saved, else 503 (it was undone).
async fn saved(inner: &Inner, verdict: Verdict, ok: impl FnOnce() -> Response) -> Response {
    match inner.log.settle(Some(verdict), 0).await {
        Ok(()) => ok(),
        Err(Unsaved::Refused(e)) => answer(StatusCode::CONFLICT, &json!({ "error": e })),
        Err(Unsaved::Failed(e)) => answer(StatusCode::SERVICE_UNAVAILABLE, &json!({ "error": e })),
    }
}

/// The refusal of a request that may not use the control API (None when
/// it may): with a token, it must carry it (`Authorization: Bearer
/// TOKEN`); without, it must come from a loopback address.
fn refusal(inner: &Inner, parts: &Parts) -> Option<Response> {
    let Some(token) = &inner.control_token else {
        return match parts.extensions.get::<Peer>() {
            Some(Peer(peer)) if !peer.ip().is_loopback() => Some(answer(
                StatusCode::FORBIDDEN,
                &json!({"error": "the control API answers loopback clients only"}),
            )),
            _ => None,
        };
    };
    let sent = parts
        .headers
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    match sent {
        None => {
            let mut r = answer(
                StatusCode::UNAUTHORIZED,
                &json!({"error": "the control API needs its token: Authorization: Bearer TOKEN \
                        (the token hostapi-sim printed at start, or --control-token)"}),
            );
            r.headers_mut().insert(
                axum::http::header::WWW_AUTHENTICATE,
                axum::http::HeaderValue::from_static("Bearer"),
            );
            Some(r)
        }
        Some(t) if same(t.trim().as_bytes(), token.as_bytes()) => None,
        Some(_) => Some(answer(
            StatusCode::FORBIDDEN,
            &json!({"error": "the control token sent is not this simulator's"}),
        )),
    }
}

/// Byte strings compared in time independent of where they differ.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

pub(crate) async fn handle(inner: &Arc<Inner>, parts: Parts, body: Body) -> Response {
    // Health is open to all: it changes nothing, tells nothing secret, and
    // is what container health checks poll without a token.
    let health_check =
        parts.method == Method::GET && parts.uri.path().trim_end_matches('/') == "/_sim/health";
    if !health_check && let Some(refused) = refusal(inner, &parts) {
        return refused;
    }
    let bytes = match axum::body::to_bytes(body, MAX_BODY).await {
        Ok(b) => b,
        Err(_) => {
            return answer(
                StatusCode::PAYLOAD_TOO_LARGE,
                &json!({"error": "body too large"}),
            );
        }
    };
    let path = parts.uri.path().trim_end_matches('/');
    let query: Vec<(String, String)> = parts
        .uri
        .query()
        .map(|q| form_urlencoded::parse(q.as_bytes()).into_owned().collect())
        .unwrap_or_default();
    let m = &parts.method;
    match path {
        "/_sim/health" => match *m {
            Method::GET => health(inner),
            _ => method_not_allowed("GET"),
        },
        "/_sim/reset" => match *m {
            Method::POST => reset(inner, &bytes).await,
            _ => method_not_allowed("POST"),
        },
        "/_sim/state" => match *m {
            Method::GET => export(inner),
            Method::PUT => match crate::persist::parse_slice(&bytes) {
                Ok(doc) => {
                    let v = crate::persist::import(inner, doc);
                    saved(inner, v, || health(inner)).await
                }
                Err(e) => bad(e),
            },
            _ => method_not_allowed("GET, PUT"),
        },
        "/_sim/replay" => match (m, &inner.replay) {
            (&Method::GET, Some(r)) => answer(StatusCode::OK, &json!(lock(r).progress())),
            (&Method::GET, None) => answer(
                StatusCode::NOT_FOUND,
                &json!({"error": "no replay: the simulator was not started with --replay"}),
            ),
            _ => method_not_allowed("GET"),
        },
        "/_sim/clock" => match *m {
            Method::GET => answer(StatusCode::OK, &clock(inner)),
            _ => method_not_allowed("GET"),
        },
        "/_sim/clock/advance" => match *m {
            Method::POST => advance(inner, &bytes).await,
            _ => method_not_allowed("POST"),
        },
        "/_sim/faults" => match *m {
            Method::GET => answer(StatusCode::OK, &faults(inner)),
            Method::POST => add_faults(inner, &bytes),
            Method::DELETE => {
                lock(&inner.rules).clear();
                answer(StatusCode::OK, &faults(inner))
            }
            _ => method_not_allowed("GET, POST, DELETE"),
        },
        "/_sim/requests" => match *m {
            Method::GET => requests(inner, &query),
            Method::DELETE => {
                lock(&inner.journal).clear();
                answer(StatusCode::OK, &json!({"requests": []}))
            }
            _ => method_not_allowed("GET, DELETE"),
        },
        p => match p.strip_prefix("/_sim/faults/") {
            Some(id) => match *m {
                Method::DELETE => match id.parse::<u64>() {
                    Ok(id) if lock(&inner.rules).remove(id) => {
                        answer(StatusCode::OK, &faults(inner))
                    }
                    _ => answer(
                        StatusCode::NOT_FOUND,
                        &json!({"error": format!("no fault rule {id}")}),
                    ),
                },
                _ => method_not_allowed("DELETE"),
            },
            None => answer(
                StatusCode::NOT_FOUND,
                &json!({"error": format!("no control endpoint {p}")}),
            ),
        },
    }
}

fn health(inner: &Inner) -> Response {
    let ds = inner.dataset();
    answer(
        StatusCode::OK,
        &json!({
            "status": "ok",
            "seed": ds.seed,
            "size": ds.size,
            "simTime": inner.clock.now(),
            "stateFile": inner.state_file.as_ref().map(|p| p.display().to_string()),
        }),
    )
}

/// `GET /_sim/state`: the document serialised straight from the state.
fn export(inner: &Inner) -> Response {
    let mut r = Response::new(Body::from(crate::persist::export_bytes(inner)));
    r.headers_mut().insert(
        axum::http::header::CONTENT_TYPE,
        axum::http::HeaderValue::from_static("application/json"),
    );
    r
}

fn clock(inner: &Inner) -> Value {
    json!({
        "simTime": inner.clock.now(),
        "wallTime": crate::state::wall_now(),
        "timeScale": inner.clock.scale,
    })
}

async fn reset(inner: &Inner, bytes: &[u8]) -> Response {
    let body = match body_json(bytes, json!({})) {
        Ok(b) => b,
        Err(e) => return bad(e),
    };
    let Some(obj) = body.as_object() else {
        return bad("body: must be a JSON object");
    };
    if let Some(k) = obj.keys().find(|k| *k != "seed" && *k != "size") {
        return bad(format!("{k}: unknown field (seed and size are accepted)"));
    }
    let seed = match obj.get("seed") {
        None => None,
        Some(v) => match v.as_u64() {
            Some(s) => Some(s),
            None => return bad("seed: must be a non-negative integer"),
        },
    };
    let size = match obj.get("size") {
        None => None,
        Some(v) => match v.as_u64().and_then(|s| usize::try_from(s).ok()) {
            Some(s) => Some(s),
            None => return bad("size: must be a non-negative integer"),
        },
    };
    match do_reset(inner, seed, size) {
        Ok(v) => saved(inner, v, || health(inner)).await,
        Err(e) => bad(e),
    }
}

/// Back to the generated dataset (of a new seed or size if given): the
/// state, the write log, the fault rules and the journal are cleared; the
/// credentials and the simulated clock are kept. Saved as a new snapshot.
pub(crate) fn do_reset(
    inner: &Inner,
    seed: Option<u64>,
    size: Option<usize>,
) -> Result<Verdict, String> {
    let cur = inner.dataset();
    let (seed, size) = (seed.unwrap_or(cur.seed), size.unwrap_or(cur.size));
    crate::check_size(size)?;
    let ds = if seed == cur.seed && size == cur.size {
        cur
    } else {
        Arc::new(Dataset::new(seed, size))
    };
    let verdict = {
        let mut st = lock(&inner.state);
        let mut fresh = inner.fresh_state(&ds);
        crate::change::rebase(&mut fresh);
        let old = std::mem::replace(&mut *st, fresh);
        let old_ds = std::mem::replace(&mut *lock(&inner.ds), ds);
        inner.log.commit_whole(Undo::Whole {
            state: Box::new(old),
            ds: old_ds,
            sim_time: inner.clock.now(),
        })
    };
    lock(&inner.rules).clear();
    lock(&inner.journal).clear();
    Ok(verdict)
}

async fn advance(inner: &Inner, bytes: &[u8]) -> Response {
    let body = match body_json(bytes, Value::Null) {
        Ok(b) => b,
        Err(e) => return bad(e),
    };
    let Some(obj) = body.as_object() else {
        return bad(format!("body: must be a JSON object, {}", advance_range()));
    };
    if let Some(k) = obj.keys().find(|k| *k != "seconds") {
        return bad(format!("{k}: unknown field (seconds is accepted)"));
    }
    let secs = obj.get("seconds").and_then(Value::as_f64);
    match secs
        .ok_or_else(advance_range)
        .and_then(|s| do_advance(inner, s))
    {
        Ok((_, v)) => saved(inner, v, || answer(StatusCode::OK, &clock(inner))).await,
        Err(e) => bad(e),
    }
}

fn advance_range() -> String {
    format!("seconds: required, a number from 0 to {MAX_ADVANCE_SECS}")
}

/// Move simulated time forward; answers the new time and the commit of
/// the move (a change log record, so the new time survives a restart).
pub(crate) fn do_advance(inner: &Inner, secs: f64) -> Result<(f64, Verdict), String> {
    if !(secs.is_finite() && (0.0..=MAX_ADVANCE_SECS).contains(&secs)) {
        return Err(advance_range());
    }
    // Under the state lock, so no request sees half an advance.
    let mut st = lock(&inner.state);
    let t = inner.clock.advance(secs);
    if t > crate::validate::MAX_TIME {
        inner.clock.rewind(secs);
        return Err(format!(
            "seconds: simulated time would pass {} (the year 9999)",
            crate::validate::MAX_TIME
        ));
    }
    let v = inner.log.commit(&mut st, t, secs);
    Ok((t, v))
}

fn faults(inner: &Inner) -> Value {
    json!({
        "rules": lock(&inner.rules).rules,
        "operations": crate::operations::OPERATIONS,
    })
}

/// `GET /_sim/requests[?operation=NAME][&format=ndjson]`.
fn requests(inner: &Inner, query: &[(String, String)]) -> Response {
    let mut routes = None;
    let mut ndjson = false;
    for (k, v) in query {
        match k.as_str() {
            "operation" => match crate::operations::resolve(v) {
                Ok(r) => routes = Some(r),
                Err(e) => return bad(format!("operation: {e}")),
            },
            "format" => match v.as_str() {
                "json" => ndjson = false,
                "ndjson" => ndjson = true,
                _ => return bad(format!("format: json or ndjson, got {v:?}")),
            },
            _ => {
                return bad(format!(
                    "{k}: unknown query parameter (operation and format are accepted)"
                ));
            }
        }
    }
    let entries = lock(&inner.journal).list(routes.as_deref());
    if !ndjson {
        return answer(StatusCode::OK, &json!({"requests": entries}));
    }
    let mut r = Response::new(Body::from(crate::journal::ndjson(&entries)));
    r.headers_mut().insert(
        axum::http::header::CONTENT_TYPE,
        axum::http::HeaderValue::from_static("application/x-ndjson"),
    );
    r
}

fn add_faults(inner: &Inner, bytes: &[u8]) -> Response {
    let body = match body_json(bytes, Value::Null) {
        Ok(b) => b,
        Err(e) => return bad(e),
    };
    let list = match body {
        Value::Array(a) => a,
        v @ Value::Object(_) => vec![v],
        _ => return bad("body: a fault rule object or an array of them"),
    };
    let mut rules = Vec::new();
    for (i, v) in list.into_iter().enumerate() {
        match serde_json::from_value::<FaultRule>(v) {
            Ok(r) => rules.push(r),
            Err(e) => return bad(format!("rule {i}: {e}")),
        }
    }
    match do_add_faults(inner, rules) {
        Ok(added) => answer(StatusCode::CREATED, &json!({"rules": added})),
        Err(e) => bad(e),
    }
}

/// Validate and add fault rules (all or none); answers them with ids.
pub(crate) fn do_add_faults(
    inner: &Inner,
    rules: Vec<FaultRule>,
) -> Result<Vec<FaultRule>, String> {
    lock(&inner.rules).add(rules)
}
