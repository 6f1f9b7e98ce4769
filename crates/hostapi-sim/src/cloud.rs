//! Cloud v2: virtual servers, jobs, credentials, datatraffic metrics and
//! private clouds.

use axum::http::StatusCode;
use axum::response::Response;
use chrono::{DateTime, Months, Utc};
use rand::RngExt;
use serde_json::{Map, Value, json};

use crate::error::ApiError;
use crate::params::{Field, NONE, Spec, Ty, opt, query, req};
use crate::router::{Route, route};
use crate::state::{Cx, Dataset, State, Timeline};
use crate::util::{self, EPOCH, Req, fmt_offset, fmt_rfc3339, hash3, kind, ok, pick, rng};
use crate::variants::q;

const YEAR: i64 = 365 * 86_400;
const PRIVATE_CLOUD_BASE: u64 = 300_000;
const DATA_CENTERS: &[(&str, i32)] = &[
    ("AMS-01", 1),
    ("FRA-10", 1),
    ("WDC-02", -5),
    ("SIN-01", 8),
    ("LON-12", 0),
];
const MAX_METRIC_POINTS: usize = 10_000;

/// Every cloud v2 operation, in matching order.
pub(crate) static ROUTES: &[Route] = &[
    route!("GET", "/cloud/v2/virtualServers", |cx, r, _| list(cx, r)),
    route!("GET", "/cloud/v2/virtualServers/{id}", |cx, _, p| get(
        cx, p[0]
    )),
    route!("PUT", "/cloud/v2/virtualServers/{id}", |cx, r, p| put(
        cx, r, p[0]
    )),
    route!(
        "POST",
        "/cloud/v2/virtualServers/{id}/powerOn",
        |cx, _, p| { power(cx, p[0], "powerOn") }
    ),
    route!(
        "POST",
        "/cloud/v2/virtualServers/{id}/powerOff",
        |cx, _, p| { power(cx, p[0], "powerOff") }
    ),
    route!(
        "POST",
        "/cloud/v2/virtualServers/{id}/reboot",
        |cx, _, p| { power(cx, p[0], "reboot") }
    ),
    route!(
        "POST",
        "/cloud/v2/virtualServers/{id}/reinstall",
        |cx, _, p| { power(cx, p[0], "reinstall") }
    ),
    route!(
        "GET",
        "/cloud/v2/virtualServers/{id}/credentials/{credentialType}",
        |cx, r, p| credentials(cx, r, p[0], p[1])
    ),
    route!(
        "GET",
        "/cloud/v2/virtualServers/{id}/credentials/{credentialType}/{username}",
        |cx, _, p| credential(cx, p[0], p[1], p[2])
    ),
    route!(
        "GET",
        "/cloud/v2/virtualServers/{id}/metrics/datatraffic",
        |cx, r, p| { metrics(cx, r, p[0]) }
    ),
    route!("GET", "/cloud/v2/privateClouds", |cx, r, _| private_clouds(
        cx, r
    )),
];

const PAGE: &[Field] = &[opt("limit", Ty::Int), opt("offset", Ty::Int)];

/// The parameters of the cloud operations that take any, as documented
/// (checked before the handler runs; see [`crate::params`]).
static SPECS: &[(&[&str], Spec)] = &[
    (
        &[
            "GET /cloud/v2/virtualServers",
            "GET /cloud/v2/virtualServers/{id}/credentials/{credentialType}",
            "GET /cloud/v2/privateClouds",
        ],
        query(PAGE),
    ),
    (
        &["PUT /cloud/v2/virtualServers/{id}"],
        Spec {
            form: &[req("reference", Ty::Str)],
            json: true,
            ..NONE
        },
    ),
    (
        &["GET /cloud/v2/virtualServers/{id}/metrics/datatraffic"],
        query(&[
            req("from", Ty::Str),
            req("to", Ty::Str),
            req("aggregation", Ty::OneOf(&["SUM"])),
            opt(
                "granularity",
                Ty::OneOf(&["NONE", "5MIN", "HOUR", "DAY", "MONTH", "YEAR"]),
            ),
        ]),
    ),
];

/// Run the operation `segs` (after `/cloud/v2`) names, its parameters
/// checked first.
pub(crate) fn route(cx: &Cx<'_>, req: &Req, segs: &[&str]) -> Result<Response, ApiError> {
    crate::router::run(cx, req, ROUTES, "/cloud/v2", segs, |name, r| {
        crate::params::check(SPECS, name, r)
    })
}

/// The id of cloud server `i`: UUID-shaped, the index in the last group.
pub(crate) fn server_id(seed: u64, i: usize) -> String {
    let h = hash3(seed, kind::CLOUD, i as u64);
    format!(
        "{:08x}-{:04x}-4{:03x}-a{:03x}-{:012x}",
        h >> 32,
        (h >> 16) & 0xffff,
        h & 0xfff,
        (h >> 40) & 0xfff,
        i as u64 ^ id_mask(seed)
    )
}

/// Mixed into the last group so ids do not look sequential.
fn id_mask(seed: u64) -> u64 {
    hash3(seed, kind::CLOUD, u64::MAX) & 0xffff_ffff_ffff
}

fn index(cx: &Cx<'_>, id: &str) -> Result<usize, ApiError> {
    let lower = id.to_ascii_lowercase();
    lower
        .rsplit('-')
        .next()
        .filter(|g| g.len() == 12)
        .and_then(|g| u64::from_str_radix(g, 16).ok())
        .map(|n| (n ^ id_mask(cx.seed())) as usize)
        .filter(|i| *i < cx.ds().cloud && server_id(cx.seed(), *i) == lower)
        .ok_or_else(|| ApiError::not_found(format!("virtual server {id} not found")))
}

fn base_state(i: usize) -> &'static str {
    if i % 29 == 28 {
        "MAINTENANCE"
    } else if i % 23 == 22 {
        "UNKNOWN"
    } else if i % 5 == 2 {
        "STOPPED"
    } else {
        "RUNNING"
    }
}

fn current_state(st: &State, i: usize, now: f64) -> &'static str {
    st.cloud
        .get(&i)
        .and_then(|o| o.power.as_ref())
        .map(|t| t.at(now))
        .unwrap_or_else(|| base_state(i))
}

/// A contract; `price` spells `pricePerFrequency` from its cents.
fn contract(
    r: &mut rand_pcg::Pcg64Mcg,
    i: usize,
    tz: i32,
    price: impl FnOnce(i64) -> Value,
) -> Value {
    let start = EPOCH + r.random_range(0..8 * YEAR);
    let cycle = *pick(r, &[1u64, 1, 12]);
    let cents = r.random_range(499..19_999i64);
    json!({
        "id": format!("{}", 30_000_000 + r.random_range(0..9_999_999u64)),
        "startsAt": fmt_offset(start, tz),
        "endsAt": if i % 5 == 4 { Value::Null } else { json!(fmt_offset(start + YEAR * cycle as i64 / 12 + YEAR, tz)) },
        "billingCycle": cycle,
        "billingFrequency": "MONTH",
        "pricePerFrequency": price(cents),
        "currency": "EUR",
    })
}

fn server_json(cx: &Cx<'_>, st: &State, i: usize) -> Value {
    let seed = cx.seed();
    let mut r = rng(seed, kind::CLOUD, i as u64);
    let (dc, tz) = DATA_CENTERS[i % DATA_CENTERS.len()];
    let ov = st.cloud.get(&i);
    let var = cx.var();
    let rec = i as u64;
    let base_ref = format!(
        "{}-{}",
        pick(&mut r, &["app", "worker", "db", "proxy", "ci"]),
        i + 1
    );
    let reference = match ov.and_then(|o| o.reference.clone()) {
        Some(v) => json!(v),
        // A reference, or none: null, or "" (read as none).
        None => match var.name(&q::CLOUD_REFERENCE, rec) {
            "text" => json!(base_ref),
            "empty" => json!(""),
            _ => Value::Null,
        },
    };
    let offering = ["S", "M", "L", "XL"][i % 4];
    let (cores, mem_mb, storage_gb) = match offering {
        "S" => (1, 1024, 40),
        "M" => (2, 2048, 80),
        "L" => (4, 4096, 160),
        _ => (8, 8192, 1024),
    };
    let memory = if var.is(&q::CLOUD_MEMORY_UNIT, rec, "MB") {
        json!({"unit": "MB", "amount": mem_mb})
    } else {
        json!({"unit": "GB", "amount": mem_mb / 1024})
    };
    let storage = if storage_gb >= 1024 {
        json!({"unit": "TB", "amount": storage_gb / 1024})
    } else {
        json!({"unit": "GB", "amount": storage_gb})
    };
    let template = *pick(
        &mut r,
        &[
            "UBUNTU_22_04_64BIT",
            "DEBIAN_12_64BIT",
            "ALMALINUX_9_64BIT",
            "WINDOWS_SERVER_2022_STANDARD_64BIT",
        ],
    );
    let mut v = json!({
        "id": server_id(seed, i),
        "reference": reference,
        "customerId": cx.ds().cloud_customer,
        "dataCenter": dc,
        "cloudServerId": if i % 6 == 5 { json!(format!("{}", 8_000 + i / 6)) } else { Value::Null },
        "state": current_state(st, i, cx.now),
        "firewallState": if i % 31 == 30 { "UNKNOWN" } else if i.is_multiple_of(2) { "ENABLED" } else { "DISABLED" },
        "template": template,
        "serviceOffering": offering,
        "sla": *pick(&mut r, &["BASIC", "BRONZE", "SILVER", "GOLD"]),
        "contract": contract(&mut r, i, tz, |c| var.money(&q::CLOUD_PRICE, rec, c)),
        "hardware": {"cpu": {"cores": cores}, "memory": memory, "storage": storage},
        "iso": if i % 3 == 1 {
            json!({"id": format!("iso-{}", 100 + i % 7), "name": "ubuntu-22.04.4-live-server-amd64.iso", "displayName": "Ubuntu 22.04.4 Live Server"})
        } else {
            Value::Null
        },
        "ips": if var.is(&q::CLOUD_IPS, rec, "none") {
            json!([])
        } else {
            json!([
                {"ip": util::ip_of(5, 79, i as u64), "version": 4, "type": "PUBLIC"},
                {"ip": ipv6_of(i), "version": 6, "type": "PUBLIC"},
                {"ip": util::ip_of(10, 32, i as u64), "version": 4, "type": "PRIVATE"},
            ])
        },
    });
    // Drawn whether sent or not, so the values after it do not depend on
    // the choice.
    let limit = *pick(&mut r, &[1, 5, 10]);
    if var.is(&q::CLOUD_TRAFFIC, rec, "present") {
        v["networkTraffic"] = json!({
            "type": "DATATRAFFIC",
            "trafficType": if i.is_multiple_of(3) { "PREMIUM" } else { "VOLUME" },
            "datatrafficUnit": "TB",
            "datatrafficLimit": var.int(&q::CLOUD_TRAFFIC_LIMIT, rec, limit),
        });
    }
    v
}

fn list(cx: &Cx<'_>, req: &Req) -> Result<Response, ApiError> {
    let (limit, offset) = util::page(req)?;
    let total = cx.ds().cloud;
    let st = cx.state();
    let items = (offset.min(total)..total.min(offset.saturating_add(limit)))
        .map(|i| server_json(cx, &st, i));
    Ok(util::ok_list(
        &format!(
            r#"{{"_metadata":{},"virtualServers":["#,
            util::metadata(total, limit, offset)
        ),
        items,
        "]}",
    ))
}

fn get(cx: &Cx<'_>, id: &str) -> Result<Response, ApiError> {
    let i = index(cx, id)?;
    let st = cx.state();
    Ok(ok(&server_json(cx, &st, i)))
}

fn put(cx: &Cx<'_>, req: &Req, id: &str) -> Result<Response, ApiError> {
    let i = index(cx, id)?;
    let reference: String = if req.is_json() {
        let v: Value = serde_json::from_slice(&req.body)
            .map_err(|_| ApiError::bad_field("body", "is not valid JSON"))?;
        match v.get("reference") {
            Some(Value::String(s)) => s.clone(),
            Some(_) => return Err(ApiError::bad_field("reference", "must be a string")),
            None => return Err(ApiError::bad_field("reference", "is required")),
        }
    } else {
        let form = req.form()?;
        form.get("reference")
            .ok_or_else(|| ApiError::bad_field("reference", "is required"))?
            .to_string()
    };
    if reference.chars().count() > 255 {
        return Err(ApiError::bad_field(
            "reference",
            "must be at most 255 characters",
        ));
    }
    if reference.chars().any(char::is_control) {
        return Err(ApiError::bad_field(
            "reference",
            "must not contain control characters",
        ));
    }
    let mut st = cx.state();
    st.cloud.entry(i).or_default().reference = Some(Some(reference));
    cx.log(&mut st, format!("cloud {id} reference"));
    Ok(ok(&server_json(cx, &st, i)))
}

fn power(cx: &Cx<'_>, id: &str, action: &str) -> Result<Response, ApiError> {
    let i = index(cx, id)?;
    let now = cx.now;
    let p = crate::CLOUD_POWER_SECS;
    let mut st = cx.state();
    let cur = current_state(&st, i, now);
    let timeline = match action {
        "powerOn" if matches!(cur, "RUNNING" | "STARTING") => None,
        "powerOn" => Some(Timeline {
            steps: vec![("STARTING", now + p)],
            then: "RUNNING",
        }),
        "powerOff" if matches!(cur, "STOPPED" | "STOPPING") => None,
        "powerOff" => Some(Timeline {
            steps: vec![("STOPPING", now + p)],
            then: "STOPPED",
        }),
        "reboot" => Some(Timeline {
            steps: vec![("STOPPING", now + p), ("STARTING", now + 2.0 * p)],
            then: "RUNNING",
        }),
        _ => Some(Timeline {
            steps: vec![
                ("STOPPING", now + p),
                ("STARTING", now + p + crate::CLOUD_REINSTALL_SECS),
            ],
            then: "RUNNING",
        }),
    };
    let o = st.cloud.entry(i).or_default();
    if let Some(t) = timeline {
        o.power = Some(t);
    }
    if action == "reinstall" {
        o.reinstalls += 1;
    }
    st.next_job += 1;
    let n = st.next_job;
    cx.log(&mut st, format!("cloud {id} {action}"));
    let h = hash3(cx.seed(), kind::JOB, n | 1 << 40);
    let job_id = format!(
        "{:08x}-{:04x}-4{:03x}-b{:03x}-{:012x}",
        h >> 32,
        (h >> 16) & 0xffff,
        h & 0xfff,
        (h >> 44) & 0xfff,
        n
    );
    Ok(util::json(
        StatusCode::ACCEPTED,
        &json!({
            "id": job_id,
            "name": format!("virtualServers.{action}"),
            "status": "PENDING",
            "createdAt": fmt_offset(now as i64, 0),
        }),
    ))
}

const CREDENTIAL_TYPES: &[&str] = &["OPERATING_SYSTEM", "CONTROL_PANEL"];

fn usernames(i: usize, t: &str) -> Vec<&'static str> {
    match t {
        "OPERATING_SYSTEM" => {
            if i.is_multiple_of(3) {
                vec!["root", "admin"]
            } else {
                vec!["root"]
            }
        }
        _ => {
            if i.is_multiple_of(4) {
                vec!["admin"]
            } else {
                Vec::new()
            }
        }
    }
}

fn check_type(t: &str) -> Result<(), ApiError> {
    if CREDENTIAL_TYPES.contains(&t) {
        Ok(())
    } else {
        Err(ApiError::bad_field(
            "credentialType",
            "must be OPERATING_SYSTEM or CONTROL_PANEL",
        ))
    }
}

fn credentials(cx: &Cx<'_>, req: &Req, id: &str, t: &str) -> Result<Response, ApiError> {
    let i = index(cx, id)?;
    check_type(t)?;
    let (limit, offset) = util::page(req)?;
    let users = usernames(i, t);
    let page: Vec<Value> = users
        .iter()
        .skip(offset)
        .take(limit)
        .map(|u| json!({"type": t, "username": u}))
        .collect();
    Ok(ok(&json!({
        "credentials": page,
        "_metadata": util::metadata(users.len(), limit, offset),
    })))
}

fn credential(cx: &Cx<'_>, id: &str, t: &str, user: &str) -> Result<Response, ApiError> {
    let i = index(cx, id)?;
    check_type(t)?;
    let users = usernames(i, t);
    let k = users
        .iter()
        .position(|u| *u == user)
        .ok_or_else(|| ApiError::not_found(format!("no {t} credential for user {user}")))?;
    let st = cx.state();
    let reinstalls = st.cloud.get(&i).map(|o| o.reinstalls).unwrap_or(0);
    let tbit = u64::from(t == "CONTROL_PANEL");
    let mut r = rng(
        cx.seed(),
        kind::PASSWORD,
        1 << 62 | (i as u64) << 20 | tbit << 19 | (k as u64) << 16 | u64::from(reinstalls),
    );
    Ok(ok(
        &json!({"type": t, "username": user, "password": util::password(&mut r, 16)}),
    ))
}

fn bucket_starts(from: i64, to: i64, granularity: &str) -> Result<Vec<i64>, ApiError> {
    let too_many = || {
        ApiError::bad_field(
            "granularity",
            &format!("the range holds more than {MAX_METRIC_POINTS} points at this granularity"),
        )
    };
    let step = match granularity {
        "NONE" => return Ok(vec![from]),
        "5MIN" => 300,
        "HOUR" => 3600,
        "DAY" => 86_400,
        "MONTH" | "YEAR" => 0,
        _ => {
            return Err(ApiError::bad_field(
                "granularity",
                "must be one of NONE, 5MIN, HOUR, DAY, MONTH, YEAR",
            ));
        }
    };
    let mut out = Vec::new();
    if step > 0 {
        if ((to - from) / step) as usize > MAX_METRIC_POINTS {
            return Err(too_many());
        }
        let mut t = from;
        while t < to {
            out.push(t);
            t += step;
        }
    } else {
        let months = if granularity == "MONTH" { 1 } else { 12 };
        let Some(mut t) = DateTime::<Utc>::from_timestamp(from, 0) else {
            return Ok(out);
        };
        while t.timestamp() < to {
            out.push(t.timestamp());
            if out.len() > MAX_METRIC_POINTS {
                return Err(too_many());
            }
            match t.checked_add_months(Months::new(months)) {
                Some(n) => t = n,
                None => break,
            }
        }
    }
    Ok(out)
}

fn metrics(cx: &Cx<'_>, req: &Req, id: &str) -> Result<Response, ApiError> {
    let i = index(cx, id)?;
    let parse = |name: &str| -> Result<i64, ApiError> {
        let s = req
            .q(name)
            .filter(|s| !s.is_empty())
            .ok_or_else(|| ApiError::bad_field(name, "is required"))?;
        util::parse_rfc3339(s)
            .ok_or_else(|| ApiError::bad_field(name, "must be an RFC 3339 date-time"))
    };
    let from = parse("from")?;
    let to = parse("to")?;
    match req.q("aggregation") {
        None | Some("") => return Err(ApiError::bad_field("aggregation", "is required")),
        Some("SUM") => {}
        Some(_) => return Err(ApiError::bad_field("aggregation", "must be SUM")),
    }
    if from >= to {
        return Err(ApiError::bad_field(
            "to",
            "must be after from (to is exclusive)",
        ));
    }
    let granularity = req
        .q("granularity")
        .filter(|s| !s.is_empty())
        .unwrap_or("DAY");
    let starts = bucket_starts(from, to, granularity)?;
    let mut r = rng(cx.seed(), kind::METRICS, i as u64);
    let rate: f64 = r.random_range(2_000.0..2_000_000.0); // bytes per second
    let series = |dir: u64, share: f64| -> Vec<Value> {
        starts
            .iter()
            .enumerate()
            .map(|(k, s)| {
                let end = starts.get(k + 1).copied().unwrap_or(to);
                let h = hash3(
                    cx.seed(),
                    kind::METRICS,
                    (i as u64) << 34 ^ dir << 33 ^ *s as u64,
                );
                let f = 0.5 + (h % 1000) as f64 / 1000.0;
                json!({
                    "timestamp": fmt_rfc3339(*s),
                    "value": ((end - s) as f64 * rate * share * f).round() as u64,
                })
            })
            .collect()
    };
    Ok(ok(&json!({
        "_metadata": {
            "from": fmt_rfc3339(from),
            "to": fmt_rfc3339(to),
            "granularity": granularity,
            "aggregation": "SUM",
        },
        "metrics": {
            "DATATRAFFIC_UP": {"unit": "B", "values": series(0, 0.7)},
            "DATATRAFFIC_DOWN": {"unit": "B", "values": series(1, 0.3)},
        },
    })))
}

fn private_cloud_json(cx: &Cx<'_>, i: usize) -> Value {
    let mut r = rng(cx.seed(), kind::PRIVATE_CLOUD, i as u64);
    let (dc, tz) = DATA_CENTERS[i % DATA_CENTERS.len()];
    json!({
        "id": (PRIVATE_CLOUD_BASE + 1 + i as u64).to_string(),
        "customerId": cx.ds().cloud_customer,
        "dataCenter": dc,
        "serviceOffering": "FLAT_FEE",
        "sla": *pick(&mut r, &["BASIC", "GOLD", "PLATINUM"]),
        "contract": contract(&mut r, i, tz, |c| {
            cx.var().money(&q::PRIVATE_CLOUD_PRICE, i as u64, c)
        }),
        "hardware": {
            "cpu": {"cores": *pick(&mut r, &[24, 48, 96])},
            "memory": {"unit": "GB", "amount": *pick(&mut r, &[128, 256, 512])},
            "storage": {"unit": "TB", "amount": *pick(&mut r, &[2, 5, 10])},
        },
        "ips": [
            {"ip": util::ip_of(5, 200, i as u64), "version": 4, "type": "PUBLIC"},
            {"ip": util::ip_of(10, 200, i as u64), "version": 4, "type": "PRIVATE"},
        ],
        "networkTraffic": {
            "type": "DATATRAFFIC",
            "trafficType": "PREMIUM",
            "datatrafficUnit": "TB",
            "datatrafficLimit": *pick(&mut r, &[10, 50]),
        },
    })
}

fn private_clouds(cx: &Cx<'_>, req: &Req) -> Result<Response, ApiError> {
    let (limit, offset) = util::page(req)?;
    let total = cx.ds().private_clouds;
    let items: Vec<Value> = (offset.min(total)..total.min(offset.saturating_add(limit)))
        .map(|i| private_cloud_json(cx, i))
        .collect();
    Ok(ok(&json!({
        "privateClouds": items,
        "_metadata": util::metadata(total, limit, offset),
    })))
}

pub(crate) fn snapshot(ds: &Dataset, st: &State, now: f64) -> Value {
    let servers: Map<String, Value> = st
        .cloud
        .iter()
        .map(|(i, o)| {
            (
                server_id(ds.seed, *i),
                json!({
                    "reference": o.reference,
                    "state": current_state(st, *i, now),
                    "settled": o.power.as_ref().map(|t| t.settled(now)).unwrap_or(true),
                    "reinstalls": o.reinstalls,
                }),
            )
        })
        .collect();
    json!({"virtualServers": servers})
}

/// The public IPv6 address of cloud server `i`: one /112 per 65,536 servers, each group
/// at most four hex digits.
fn ipv6_of(i: usize) -> String {
    format!(
        "2a00:c98:2060:a{:03x}:{:x}::1",
        i / 65_536 % 4096,
        i % 65_536
    )
}

#[cfg(test)]
mod ipv6_tests {
    #[test]
    fn every_index_gives_a_valid_address() {
        for i in [0, 1, 65_534, 65_535, 65_536, 99_999, 4096 * 65_536 + 7] {
            let text = super::ipv6_of(i);
            assert!(text.parse::<std::net::Ipv6Addr>().is_ok(), "{i}: {text}");
        }
    }
}
