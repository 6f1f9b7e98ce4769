//! Private racks and their IPs and network usage.

use super::*;
use crate::v1::bare_metal::ips::{apply_ip_form, billing};
use crate::v1::bare_metal::usage::{daily, usage_range};

// ------------------------------------------------------------------ data

pub(crate) struct Rack {
    pub(crate) i: usize,
    pub(crate) id: u64,
    pub(crate) name: String,
    pub(crate) site: &'static str,
    pub(crate) cabinet: String,
    pub(crate) suite: String,
    pub(crate) reference: String,
    pub(crate) start: i64,
    pub(crate) sla: &'static str,
    pub(crate) ip_count: usize,
    pub(crate) daily_gb: f64,
}

impl Rack {
    pub(crate) fn ip(&self, j: usize) -> String {
        util::ip_of(95, 211, (self.i * 8 + j) as u64)
    }
}

pub(crate) fn rack_facts(seed: u64, i: usize) -> Rack {
    let mut r = rng(seed, kind::RACK, i as u64);
    let id = RACK_BASE + 1 + i as u64;
    Rack {
        i,
        id,
        name: format!("{}-rack-{}", pick(&mut r, &["ams", "fra", "wdc"]), i + 1),
        site: SITES[i % SITES.len()].0,
        cabinet: format!("C{:03}", r.random_range(1..300)),
        suite: format!("Suite {}", r.random_range(1..9)),
        reference: format!("rack-{}", i + 1),
        start: EPOCH + r.random_range(0..8 * YEAR),
        sla: pick_s(&mut r, &["Basic - 24x7x24", "Platinum - 24x7x0.5"]),
        ip_count: 4 + i % 5,
        daily_gb: r.random_range(100.0..4000.0),
    }
}

pub(crate) fn rack_index(cx: &Cx<'_>, id: &str) -> Result<usize, ApiError> {
    index_of(id, RACK_BASE, cx.ds().racks, "private rack")
}

pub(crate) fn rack_ip_slot(k: &Rack, ip: &str) -> Result<usize, ApiError> {
    if !util::is_ipv4(ip) {
        return Err(ApiError::bad_field("ipAddress", "must be an IPv4 address"));
    }
    (0..k.ip_count)
        .find(|j| k.ip(*j) == ip)
        .ok_or_else(|| ApiError::not_found(format!("IP {ip} is not assigned to rack {}", k.id)))
}

// -------------------------------------------------------- wire rendering

pub(crate) fn rack_ip_json(cx: &Cx<'_>, st: &State, k: &Rack, j: usize, single: bool) -> Value {
    let ip = k.ip(j);
    let o = ip_over(st, &ip);
    let mut v = json!({
        "ip": ip,
        "privateRackId": id_spelt(cx.var(), &q::RACK_IP_ID, k.i, k.id),
        "nullRouted": o.null_routed.unwrap_or(false),
        "billingInformation": billing(cx, &ip, j < 2),
    });
    if single {
        v["reverseLookup"] = json!(o.reverse.unwrap_or_else(|| default_reverse(&ip)));
    }
    v
}

// -------------------------------------------------------------- handlers

pub(crate) fn list_racks(cx: &Cx<'_>) -> Result<Response, ApiError> {
    let all: Vec<Value> = (0..cx.ds().racks)
        .map(|i| {
            let id = id_spelt(cx.var(), &q::RACK_ID_LIST, i, RACK_BASE + 1 + i as u64);
            json!({"privateRack": {"privateRackId": id}})
        })
        .collect();
    Ok(ok(&json!({"privateRacks": all})))
}

pub(crate) fn get_rack(cx: &Cx<'_>, id: &str) -> Result<Response, ApiError> {
    let i = rack_index(cx, id)?;
    let k = rack_facts(cx.seed(), i);
    let var = cx.var();
    let rec = i as u64;
    let mut pack = Map::new();
    let reference = reference_value(var, &q::RACK_REFERENCE, rec, k.reference.clone());
    pack.insert("reference".into(), reference);
    pack.insert(
        "privateRackId".into(),
        id_spelt(var, &q::RACK_PACK_ID, i, k.id),
    );
    pack.insert("privateRackName".into(), json!(k.name));
    pack.insert("startDate".into(), json!(fmt_local(k.start)));
    end_date_variant(
        &mut pack,
        "endDate",
        var.pick(&q::RACK_END_DATE, rec),
        k.start + 3 * YEAR,
        true,
    );
    Ok(ok(&json!({"privateRack": {
        "privateRackId": id_spelt(var, &q::RACK_ID, i, k.id),
        "privateRackName": k.name,
        "location": {"site": k.site, "cabinet": k.cabinet, "suite": k.suite},
        "serverHostingPack": Value::Object(pack),
        "serviceLevelAgreement": {"sla": k.sla},
    }})))
}

pub(crate) fn list_rack_ips(cx: &Cx<'_>, id: &str) -> Result<Response, ApiError> {
    let i = rack_index(cx, id)?;
    let k = rack_facts(cx.seed(), i);
    let st = cx.state();
    let ips: Vec<Value> = (0..k.ip_count)
        .map(|j| json!({"ip": rack_ip_json(cx, &st, &k, j, false)}))
        .collect();
    Ok(ok(&json!({"ips": ips})))
}

pub(crate) fn get_rack_ip(cx: &Cx<'_>, id: &str, ip: &str) -> Result<Response, ApiError> {
    let i = rack_index(cx, id)?;
    let k = rack_facts(cx.seed(), i);
    let j = rack_ip_slot(&k, ip)?;
    let st = cx.state();
    Ok(ok(&json!({"ip": rack_ip_json(cx, &st, &k, j, true)})))
}

pub(crate) fn put_rack_ip(
    cx: &Cx<'_>,
    req: &Req,
    id: &str,
    ip: &str,
) -> Result<Response, ApiError> {
    let i = rack_index(cx, id)?;
    let k = rack_facts(cx.seed(), i);
    let j = rack_ip_slot(&k, ip)?;
    let mut st = cx.state();
    apply_ip_form(cx, &mut st, req, ip)?;
    Ok(ok(&json!({"ip": rack_ip_json(cx, &st, &k, j, true)})))
}

pub(crate) fn rack_usage(cx: &Cx<'_>, req: &Req, id: &str) -> Result<Response, ApiError> {
    let i = rack_index(cx, id)?;
    let k = rack_facts(cx.seed(), i);
    let (from, to) = usage_range(req, cx.now)?;
    let days = daily(cx.seed(), k.id | 1 << 40, k.daily_gb, from, to);
    let tin: f64 = days.iter().map(|d| d.0).sum();
    let tout: f64 = days.iter().map(|d| d.1).sum();
    let secs = days.len() as f64 * 86_400.0;
    Ok(ok(&json!({"networkUsage": {
        "privateRackId": k.id.to_string(),
        "privateRackName": k.name,
        "interval": {"from": fmt_dmy(from), "to": fmt_dmy(to)},
        "dataTraffic": {"in": util::gb(tin), "out": util::gb(tout), "total": util::gb(tin + tout)},
        "bandwidth": {
            "average": util::mbps((tin + tout) * 8000.0 / secs),
            "peak": util::mbps((tin + tout) * 8000.0 / secs * 2.1),
        },
        "days": days.len(),
    }})))
}
