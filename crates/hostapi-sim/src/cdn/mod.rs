//! The CDN interface: signed paths, purge jobs, customers and
//! sub-customers, ACL and origins.

mod params;

use axum::response::Response;
use serde_json::{Map, Value, json};

use crate::error::ApiError;
use crate::router::{Route, route};
use crate::state::{Cx, Dataset, PurgeJob, State};
use crate::util::{self, EPOCH, Form, Req, hash3, kind, ok, rng};
use crate::variants::{Variants, q};

/// The zones of the configured customer.
pub(crate) const ZONES: std::ops::RangeInclusive<u64> = 1001..=1005;
const FIRST_ORIGIN: u64 = 101;
const FIRST_PURGE: u64 = 5001;
const MAX_PURGE_URLS: usize = 500;

const ACL_SECTIONS: &[(&str, &[&str])] = &[
    ("content", &["POST", "GET", "DELETE"]),
    ("search", &["GET"]),
    ("stats", &["GET"]),
    ("logs", &["GET"]),
    ("origins", &["PUT", "POST", "GET", "DELETE"]),
    ("customers", &["POST", "GET", "DELETE"]),
    ("zones", &["POST", "GET", "DELETE"]),
    ("ftplog", &["POST", "GET", "DELETE"]),
];

fn acl_with(f: impl Fn(&str, &str) -> bool) -> Value {
    let mut m = Map::new();
    for (section, perms) in ACL_SECTIONS {
        let mut p = Map::new();
        for perm in *perms {
            p.insert((*perm).into(), json!(f(section, perm)));
        }
        m.insert((*section).into(), Value::Object(p));
    }
    Value::Object(m)
}

fn sub_customer(seed: u64, number: &str, k: u64, active: i64, quota: i64) -> Value {
    let mut r = rng(seed, kind::CDN, k);
    json!({
        "reseller": 0,
        "companyName": format!("Sub customer {number}"),
        "notes": "",
        "active": active,
        "api_secret": util::hex_digits(&mut r, 32),
        "ftp_quota": quota,
        "customer_number": number,
    })
}

fn origin(id: u64, s3: bool, label: &str, host: &str, ignore: i64) -> Value {
    json!({
        "id": id,
        "origin_type": if s3 { "s3" } else { "simple" },
        "label": label,
        "origin": format!("https://{host}"),
        "s3_bucket_name": if s3 { format!("{label}-bucket") } else { String::new() },
        "refresh_every": 86_400,
        "ignore_cache_control": ignore,
        "proxy_header_host": host,
        "cache_key": "$scheme$host$uri",
        "basic_auth_user": if s3 { "AKIASIMULATOR0000001" } else { "" },
        "basic_auth_password": if s3 { "s3-secret-simulated" } else { "" },
        "headers_origin": "",
    })
}

pub(crate) fn init(ds: &Dataset, customer: &str, st: &mut State) {
    for k in 0..3u64 {
        let number = format!("{customer}{:02}", k + 1);
        let v = sub_customer(
            ds.seed,
            &number,
            k,
            i64::from(k != 2),
            1024 * (k as i64 + 1),
        );
        st.sub_customers.insert(number, v);
    }
    st.acl = acl_with(|section, perm| match section {
        "customers" | "ftplog" => perm == "GET",
        "origins" | "zones" => perm != "DELETE",
        _ => true,
    });
    let origins = [
        origin(FIRST_ORIGIN, false, "www", "www.shop.example", 0),
        origin(FIRST_ORIGIN + 1, true, "assets", "assets.s3.example", 1),
        origin(FIRST_ORIGIN + 2, false, "media", "media.shop.example", 1),
        origin(FIRST_ORIGIN + 3, false, "api", "api.shop.example", 0),
    ];
    for o in origins {
        let id = o["id"].as_u64().unwrap_or_default();
        st.origins.insert(id, o);
    }
    st.next_origin = FIRST_ORIGIN + 4;
    st.purge_jobs.insert(
        FIRST_PURGE,
        PurgeJob {
            zone: *ZONES.start(),
            urls: vec!["/index.html".into(), "/css/site.css".into()],
            created: crate::state::LONG_AGO,
        },
    );
    st.next_purge = FIRST_PURGE + 1;
}

/// Check the signature of the path and answer the resource segments.
fn verify<'r>(cx: &Cx<'_>, req: &'r Req) -> Result<Vec<&'r str>, ApiError> {
    let rel = req.raw_path.strip_prefix("/cdn").unwrap_or("");
    let mut parts = rel.rsplitn(3, '/');
    let sig = parts.next().unwrap_or("");
    let ts = parts.next().unwrap_or("");
    let resource = parts.next().unwrap_or("");
    if resource.is_empty() || sig.is_empty() || ts.is_empty() {
        return Err(ApiError::forbidden(
            "the path must end with /{timestamp}/{signature}",
        ));
    }
    let ts_n: i64 = ts
        .parse()
        .map_err(|_| ApiError::forbidden("the timestamp must be integer Unix seconds"))?;
    // The CDN clock: the wall clock, or simulated time with `--cdn-clock sim`.
    let clock = if cx.inner.cdn_clock_sim {
        cx.now as i64
    } else {
        chrono::Utc::now().timestamp()
    };
    // In i128, so no timestamp can overflow the distance.
    if (i128::from(ts_n) - i128::from(clock)).abs() > i128::from(cx.inner.cdn_max_skew) {
        return Err(ApiError::forbidden(format!(
            "stale timestamp: {ts} is more than {} s from the server clock {clock}",
            cx.inner.cdn_max_skew
        )));
    }
    // Signed over the timestamp exactly as sent (so `+ts` or leading zeros
    // do not match a signature of the plain number).
    if sig != crate::sign_cdn_text(&cx.inner.cdn_secret, ts, resource) {
        return Err(ApiError::forbidden("signature mismatch"));
    }
    let n = req.segs.len();
    Ok(req.segs[1..n - 2].iter().map(String::as_str).collect())
}

fn customer_ok(cx: &Cx<'_>, c: &str) -> Result<(), ApiError> {
    if c == cx.inner.cdn_customer {
        Ok(())
    } else {
        Err(ApiError::forbidden(format!(
            "customer {c} does not match the signing credentials"
        )))
    }
}

/// Every CDN operation, in matching order (paths relative to `/cdn`,
/// without the timestamp and signature).
pub(crate) static ROUTES: &[Route] = &[
    route!(
        "POST",
        "/content/purge/{customer_number}/{zone_id}",
        |cx, r, p| { purge(cx, r, p[0], p[1]) }
    ),
    route!(
        "GET",
        "/content/purge/{customer_number}/{zone_id}/{job_id}",
        |cx, _, p| purge_status(cx, p[0], p[1], p[2])
    ),
    route!(
        "GET",
        "/customers/reseller/{customer_number}/{sub_customer_number}",
        |cx, _, p| get_subs(cx, p[0], p[1])
    ),
    route!(
        "POST",
        "/customers/reseller/{customer_number}/{sub_customer_number}",
        |cx, r, p| put_sub(cx, r, p[0], p[1])
    ),
    route!("GET", "/customers/acl/{customer_number}", |cx, r, p| {
        acl(cx, r, p[0], None)
    }),
    route!("POST", "/customers/acl/{customer_number}", |cx, r, p| {
        acl(cx, r, p[0], Some(true))
    }),
    route!("DELETE", "/customers/acl/{customer_number}", |cx, r, p| {
        acl(cx, r, p[0], Some(false))
    }),
    route!(
        "GET",
        "/customers/{customer_number}/{limit}/{offset}",
        |cx, _, p| { customer(cx, p[0], p[1], p[2]) }
    ),
    route!(
        "POST",
        "/customers/{customer_number}/{sub_customer_number}"
            as "/customers/reseller/{customer_number}/{sub_customer_number}",
        |cx, r, p| put_sub(cx, r, p[0], p[1])
    ),
    route!(
        "GET",
        "/origins/{customer_number}",
        |cx, _, p| list_origins(cx, p[0])
    ),
    route!("POST", "/origins/{customer_number}", |cx, r, p| {
        create_origin(cx, r, p[0])
    }),
    route!(
        "GET",
        "/origins/{customer_number}/{origin_id}",
        |cx, _, p| { get_origin(cx, p[0], p[1]) }
    ),
    route!(
        "PUT",
        "/origins/{customer_number}/{origin_id}",
        |cx, r, p| { update_origin(cx, r, p[0], p[1]) }
    ),
];

/// Verify the signature, then run the operation the path names, its
/// parameters checked first.
pub(crate) fn route(cx: &Cx<'_>, req: &Req) -> Result<Response, ApiError> {
    let segs = verify(cx, req)?;
    crate::router::run(cx, req, ROUTES, "", &segs, |name, r| {
        crate::params::check(params::SPECS, name, r)
    })
}

fn zone_id(z: &str) -> Result<u64, ApiError> {
    z.parse::<u64>()
        .ok()
        .filter(|z| ZONES.contains(z))
        .ok_or_else(|| ApiError::not_found(format!("zone {z} not found")))
}

fn purge(cx: &Cx<'_>, req: &Req, c: &str, zone: &str) -> Result<Response, ApiError> {
    customer_ok(cx, c)?;
    let zone = zone_id(zone)?;
    let v: Value = serde_json::from_slice(&req.body)
        .map_err(|_| ApiError::bad_field("urls", "the body must be JSON {\"urls\": [...]}"))?;
    let urls = v
        .get("urls")
        .and_then(Value::as_array)
        .ok_or_else(|| ApiError::bad_field("urls", "must be an array of file paths"))?;
    if urls.is_empty() {
        return Err(ApiError::bad_field("urls", "must not be empty"));
    }
    if urls.len() > MAX_PURGE_URLS {
        return Err(ApiError::bad_field(
            "urls",
            &format!("at most {MAX_PURGE_URLS} paths per purge"),
        ));
    }
    let mut list = Vec::with_capacity(urls.len());
    for (k, u) in urls.iter().enumerate() {
        let s = u
            .as_str()
            .ok_or_else(|| ApiError::bad_field("urls", "every element must be a string"))?;
        if s == "*" {
            if k != 0 {
                return Err(ApiError::bad_field(
                    "urls",
                    "* is only allowed as the first element",
                ));
            }
        } else if !(s.starts_with('/') || s.starts_with("http://") || s.starts_with("https://"))
            || s.chars().any(char::is_whitespace)
        {
            return Err(ApiError::bad_field(
                "urls",
                &format!("{s:?} is not a file path (/…) or URL"),
            ));
        }
        list.push(s.to_string());
    }
    if list[0] == "*" {
        list.truncate(1);
    }
    check_purge_urls(&list).map_err(|e| ApiError::bad_field("urls", &e))?;
    let mut st = cx.state();
    let id = st.next_purge;
    st.next_purge += 1;
    st.purge_jobs.insert(
        id,
        PurgeJob {
            zone,
            urls: list,
            created: cx.now,
        },
    );
    while st.purge_jobs.len() > crate::PURGE_HISTORY_CAP {
        st.purge_jobs.pop_first();
    }
    cx.log(&mut st, format!("purge {id} zone {zone}"));
    Ok(ok(&json!({"success": id})))
}

/// The status of entry `k` of purge job `id`: each entry is done at its own
/// pace, half-way through [`crate::PURGE_SECS`] or at its end, so a job's
/// entries show mixed statuses in between (all are Queued at first and Done
/// after PURGE_SECS).
fn purge_state(v: &Variants, id: u64, k: usize, job: &PurgeJob, now: f64) -> &'static str {
    let secs = if v.is(&q::PURGE_PACE, id << 16 | k as u64, "early") {
        crate::PURGE_SECS / 2.0
    } else {
        crate::PURGE_SECS
    };
    if now < job.created + secs {
        "Queued"
    } else {
        "Done"
    }
}

fn purge_status(cx: &Cx<'_>, c: &str, zone: &str, job: &str) -> Result<Response, ApiError> {
    customer_ok(cx, c)?;
    let zone = zone_id(zone)?;
    let st = cx.state();
    let (id, j) = job
        .parse::<u64>()
        .ok()
        .and_then(|id| st.purge_jobs.get(&id).map(|j| (id, j)))
        .filter(|(_, j)| j.zone == zone)
        .ok_or_else(|| ApiError::not_found(format!("purge job {job} not found")))?;
    let entries: Vec<Value> = j
        .urls
        .iter()
        .enumerate()
        .map(|(k, u)| json!({ u.as_str(): purge_state(cx.var(), id, k, j, cx.now) }))
        .collect();
    Ok(ok(&json!({"success": entries})))
}

fn customer(cx: &Cx<'_>, c: &str, limit: &str, offset: &str) -> Result<Response, ApiError> {
    customer_ok(cx, c)?;
    if limit.parse::<u64>().is_err() {
        return Err(ApiError::bad_field(
            "limit",
            "must be a non-negative integer",
        ));
    }
    if offset.parse::<u64>().is_err() {
        return Err(ApiError::bad_field(
            "offset",
            "must be a non-negative integer",
        ));
    }
    let seed = cx.seed();
    let h = hash3(seed, kind::CDN, 1 << 30);
    let created = EPOCH + (h % (5 * 365 * 86_400)) as i64;
    Ok(ok(&json!({"success": {
        "ftp_quota": 10_240,
        "reseller": 1,
        "parent": "",
        "companyName": "Simulated Hosting Customer",
        "api_secret": cx.inner.cdn_secret,
        "created_at": created,
        "updated_at": created + 86_400 * (h % 300) as i64,
        "customer_number": c,
        "id": 4000 + h % 1000,
        "active": 1,
        "notes": "",
    }})))
}

fn subs_answer(c: &str, subs: Vec<Value>) -> Response {
    let inner: Map<String, Value> = subs
        .into_iter()
        .enumerate()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
    ok(&json!({"success": { c: Value::Object(inner) }}))
}

fn get_subs(cx: &Cx<'_>, c: &str, sub: &str) -> Result<Response, ApiError> {
    customer_ok(cx, c)?;
    let st = cx.state();
    if sub == c {
        return Ok(subs_answer(c, st.sub_customers.values().cloned().collect()));
    }
    let s = st
        .sub_customers
        .get(sub)
        .cloned()
        .ok_or_else(|| ApiError::not_found(format!("sub-customer {sub} not found")))?;
    Ok(subs_answer(c, vec![s]))
}

fn int_field(form: &Form, name: &str, min: i64, max: i64) -> Result<Option<i64>, ApiError> {
    let v = form.opt_int(name)?;
    if let Some(n) = v
        && (n < min || n > max)
    {
        return Err(ApiError::bad_field(
            name,
            &format!("must be between {min} and {max}"),
        ));
    }
    Ok(v)
}

fn put_sub(cx: &Cx<'_>, req: &Req, c: &str, sub: &str) -> Result<Response, ApiError> {
    customer_ok(cx, c)?;
    if sub.is_empty() || sub.len() > 20 || !sub.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ApiError::bad_field(
            "sub_customer_number",
            "must be 1–20 digits",
        ));
    }
    if sub == c {
        return Err(ApiError::bad_field(
            "sub_customer_number",
            "must differ from the reseller's own number",
        ));
    }
    let form = req.form()?;
    let active = int_field(&form, "active", 0, 1)?;
    let reseller = int_field(&form, "reseller", 0, 1)?;
    let quota = int_field(&form, "ftp_quota", 0, 1 << 40)?;
    let company = form.get("companyName").map(str::to_string);
    let notes = form.get("notes").map(str::to_string);
    for (f, v) in [("companyName", &company), ("notes", &notes)] {
        if v.as_ref().is_some_and(|v| v.chars().count() > 1024) {
            return Err(ApiError::bad_field(f, "must be at most 1024 characters"));
        }
    }
    let mut st = cx.state();
    if !st.sub_customers.contains_key(sub) {
        crate::state::check_room(st.sub_customers.len(), "sub-customers")?;
    }
    let n = st.sub_customers.len() as u64;
    let seed = cx.seed();
    let entry = st
        .sub_customers
        .entry(sub.to_string())
        .or_insert_with(|| sub_customer(seed, sub, 100 + n, 1, 1024));
    if let Some(a) = active {
        entry["active"] = json!(a);
    }
    if let Some(r) = reseller {
        entry["reseller"] = json!(r);
    }
    if let Some(q) = quota {
        entry["ftp_quota"] = json!(q);
    }
    if let Some(cn) = company {
        entry["companyName"] = json!(cn);
    }
    if let Some(nt) = notes {
        entry["notes"] = json!(nt);
    }
    let v = entry.clone();
    cx.log(&mut st, format!("subCustomer {sub}"));
    Ok(subs_answer(c, vec![v]))
}

/// Check a stored ACL (a state document's `acl`): every section and
/// permission, each a boolean. The error starts with the path below `acl`.
pub(crate) fn check_stored_acl(v: &Value) -> Result<(), String> {
    let obj = v
        .as_object()
        .ok_or(": must be an object of sections".to_string())?;
    for (section, perms) in ACL_SECTIONS {
        let p = obj
            .get(*section)
            .and_then(Value::as_object)
            .ok_or(format!(".{section}: required, an object of permissions"))?;
        for perm in *perms {
            if !p.get(*perm).is_some_and(Value::is_boolean) {
                return Err(format!(".{section}.{perm}: required, a boolean"));
            }
        }
        if let Some(k) = p.keys().find(|k| !perms.contains(&k.as_str())) {
            return Err(format!(".{section}.{k}: unknown permission"));
        }
    }
    if let Some(k) = obj
        .keys()
        .find(|k| !ACL_SECTIONS.iter().any(|(s, _)| s == k))
    {
        return Err(format!(".{k}: unknown section"));
    }
    Ok(())
}

/// Check a purge job's entries against the caps: 1 to 500 entries, each
/// at most [`crate::MAX_PURGE_URL_BYTES`], all together at most
/// [`crate::MAX_PURGE_BYTES`].
pub(crate) fn check_purge_urls(urls: &[String]) -> Result<(), String> {
    if urls.is_empty() || urls.len() > MAX_PURGE_URLS {
        return Err(format!("1 to {MAX_PURGE_URLS} entries, got {}", urls.len()));
    }
    if let Some((k, u)) = urls
        .iter()
        .enumerate()
        .find(|(_, u)| u.len() > crate::MAX_PURGE_URL_BYTES)
    {
        return Err(format!(
            "entry {k} is {} bytes, more than {}",
            u.len(),
            crate::MAX_PURGE_URL_BYTES
        ));
    }
    let total: usize = urls.iter().map(String::len).sum();
    if total > crate::MAX_PURGE_BYTES {
        return Err(format!(
            "{total} bytes in all, more than {}",
            crate::MAX_PURGE_BYTES
        ));
    }
    Ok(())
}

fn parse_acl(text: &str) -> Result<Value, ApiError> {
    let v: Value = serde_json::from_str(text)
        .map_err(|_| ApiError::bad_field("acl", "must be a JSON object"))?;
    let obj = v
        .as_object()
        .ok_or_else(|| ApiError::bad_field("acl", "must be a JSON object"))?;
    for (section, perms) in obj {
        let known = ACL_SECTIONS
            .iter()
            .find(|(s, _)| s == section)
            .ok_or_else(|| ApiError::bad_field(&format!("acl.{section}"), "unknown section"))?;
        let perms = perms.as_object().ok_or_else(|| {
            ApiError::bad_field(
                &format!("acl.{section}"),
                "must be an object of permissions",
            )
        })?;
        for (perm, val) in perms {
            if !known.1.contains(&perm.as_str()) {
                return Err(ApiError::bad_field(
                    &format!("acl.{section}.{perm}"),
                    "unknown permission",
                ));
            }
            let okv = matches!(val, Value::Bool(_))
                || val.as_i64().map(|n| n == 0 || n == 1).unwrap_or(false);
            if !okv {
                return Err(ApiError::bad_field(
                    &format!("acl.{section}.{perm}"),
                    "must be a boolean",
                ));
            }
        }
    }
    Ok(acl_with(|section, perm| {
        obj.get(section)
            .and_then(|p| p.get(perm))
            .map(|v| v.as_bool().unwrap_or(v.as_i64() == Some(1)))
            .unwrap_or(false)
    }))
}

fn acl(cx: &Cx<'_>, req: &Req, c: &str, write: Option<bool>) -> Result<Response, ApiError> {
    customer_ok(cx, c)?;
    let new = match write {
        Some(true) => {
            let form = req.form()?;
            Some(parse_acl(form.required("acl")?)?)
        }
        Some(false) => Some(acl_with(|_, _| false)),
        None => None,
    };
    let mut st = cx.state();
    if let Some(a) = new {
        st.acl = a;
        let what = if write == Some(true) {
            "replace"
        } else {
            "delete"
        };
        cx.log(&mut st, format!("acl {c} {what}"));
    }
    Ok(ok(&json!({"success": { c: st.acl.clone() }})))
}

fn list_origins(cx: &Cx<'_>, c: &str) -> Result<Response, ApiError> {
    customer_ok(cx, c)?;
    let st = cx.state();
    let all: Vec<Value> = st.origins.values().cloned().collect();
    Ok(ok(&json!({"succes": all})))
}

fn origin_id(st: &State, id: &str) -> Result<u64, ApiError> {
    id.parse::<u64>()
        .ok()
        .filter(|n| st.origins.contains_key(n))
        .ok_or_else(|| ApiError::not_found(format!("origin {id} not found")))
}

fn get_origin(cx: &Cx<'_>, c: &str, id: &str) -> Result<Response, ApiError> {
    customer_ok(cx, c)?;
    let st = cx.state();
    let n = origin_id(&st, id)?;
    // The samples spell the key `succes`; the text says `success`. Origins of
    // the dataset are records 0–3 of the chooser's population.
    let key = cx.var().name(&q::ORIGIN_KEY, n.wrapping_sub(FIRST_ORIGIN));
    Ok(ok(&json!({ key: st.origins[&n].clone() })))
}

/// Validate origin fields and apply them onto `o` (create: all defaults set).
fn apply_origin(form: &Form, o: &mut Value, create: bool) -> Result<(), ApiError> {
    if create {
        form.required("label")?;
        form.required("origin")?;
    }
    if let Some(l) = form.get("label") {
        if l.trim().is_empty() || l.chars().count() > 128 {
            return Err(ApiError::bad_field("label", "must be 1–128 characters"));
        }
        o["label"] = json!(l);
    }
    if let Some(u) = form.get("origin") {
        let rest = u
            .strip_prefix("http://")
            .or_else(|| u.strip_prefix("https://"))
            .ok_or_else(|| ApiError::bad_field("origin", "must be an http:// or https:// URL"))?;
        let host = rest.split(['/', ':']).next().unwrap_or("");
        if !util::is_hostname(host) {
            return Err(ApiError::bad_field("origin", "must name a host"));
        }
        o["origin"] = json!(u);
        if create && form.get("proxy_header_host").is_none() {
            o["proxy_header_host"] = json!(host);
        }
    }
    if let Some(n) = int_field(form, "refresh_every", 0, 31_536_000)? {
        o["refresh_every"] = json!(n);
    }
    let icc = form.opt_bit("ignore_cache_control")?;
    let icr = form.opt_bit("ignore_cache_refresh")?;
    match (icc, icr) {
        (Some(a), Some(b)) if a != b => {
            return Err(ApiError::bad_field(
                "ignore_cache_control",
                "ignore_cache_control and ignore_cache_refresh are both given and differ",
            ));
        }
        (Some(a), _) | (None, Some(a)) => o["ignore_cache_control"] = json!(i64::from(a)),
        (None, None) => {}
    }
    if let Some(t) = form.get("origin_type") {
        if t != "simple" && t != "s3" {
            return Err(ApiError::bad_field("origin_type", "must be simple or s3"));
        }
        o["origin_type"] = json!(t);
    }
    for f in [
        "s3_bucket_name",
        "proxy_header_host",
        "cache_key",
        "basic_auth_user",
        "basic_auth_password",
        "headers_origin",
    ] {
        if let Some(v) = form.get(f) {
            if v.chars().count() > 1024 {
                return Err(ApiError::bad_field(f, "must be at most 1024 characters"));
            }
            o[f] = json!(v);
        }
    }
    if o["origin_type"] == "s3" && o["s3_bucket_name"].as_str().unwrap_or("").is_empty() {
        return Err(ApiError::bad_field(
            "s3_bucket_name",
            "is required for s3 origins",
        ));
    }
    Ok(())
}

fn create_origin(cx: &Cx<'_>, req: &Req, c: &str) -> Result<Response, ApiError> {
    customer_ok(cx, c)?;
    let form = req.form()?;
    let mut o = origin(0, false, "", "", 0);
    o["origin"] = json!("");
    o["proxy_header_host"] = json!("");
    apply_origin(&form, &mut o, true)?;
    let mut st = cx.state();
    crate::state::check_room(st.origins.len(), "origins")?;
    let id = st.next_origin;
    st.next_origin += 1;
    o["id"] = json!(id);
    st.origins.insert(id, o.clone());
    cx.log(&mut st, format!("origin {id} create"));
    Ok(ok(&json!({"succes": o})))
}

fn update_origin(cx: &Cx<'_>, req: &Req, c: &str, id: &str) -> Result<Response, ApiError> {
    customer_ok(cx, c)?;
    let form = req.form()?;
    let mut st = cx.state();
    let n = origin_id(&st, id)?;
    let mut o = st.origins[&n].clone();
    apply_origin(&form, &mut o, false)?;
    st.origins.insert(n, o);
    cx.log(&mut st, format!("origin {n} update"));
    Ok(ok(&json!({"success": ""})))
}

pub(crate) fn snapshot(ds: &Dataset, st: &State, now: f64) -> Value {
    let jobs: Map<String, Value> = st
        .purge_jobs
        .iter()
        .map(|(id, j)| {
            (id.to_string(), {
                let states: Vec<&str> = (0..j.urls.len())
                    .map(|k| purge_state(&ds.variants, *id, k, j, now))
                    .collect();
                let done = states.iter().all(|s| *s == "Done");
                json!({
                    "zone": j.zone,
                    "urls": j.urls,
                    "status": if done { "Done" } else { "Queued" },
                    "entries": states,
                })
            })
        })
        .collect();
    json!({
        "subCustomers": st.sub_customers,
        "acl": st.acl,
        "origins": st.origins.values().collect::<Vec<_>>(),
        "purgeJobs": jobs,
    })
}
