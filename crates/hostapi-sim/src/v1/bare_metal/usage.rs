//! Network usage (bandwidth and data traffic) of bare metals and racks.

use super::*;

// ------------------------------------------------------------------ data

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Usage {
    Both,
    Bandwidth,
    Datatraffic,
}

/// dateFrom and dateTo (`DD-MM-YYYY`), defaulting to the current month.
pub(crate) fn usage_range(req: &Req, now: f64) -> Result<(NaiveDate, NaiveDate), ApiError> {
    let today = date_of(now as i64);
    let to = match req.q("dateTo") {
        None | Some("") => today,
        Some(s) => util::parse_dmy(s)
            .ok_or_else(|| ApiError::bad_field("dateTo", "must be a date DD-MM-YYYY"))?,
    };
    let from = match req.q("dateFrom") {
        None | Some("") => to.with_day(1).unwrap_or(to),
        Some(s) => util::parse_dmy(s)
            .ok_or_else(|| ApiError::bad_field("dateFrom", "must be a date DD-MM-YYYY"))?,
    };
    if from > to {
        return Err(ApiError::bad_field("dateFrom", "must not be after dateTo"));
    }
    if (to - from).num_days() > 366 {
        return Err(ApiError::bad_field(
            "dateTo",
            "the range may span at most one year",
        ));
    }
    Ok((from, to))
}

/// Per-day traffic in GB (in, out) of server or rack `who`.
pub(crate) fn daily(
    seed: u64,
    who: u64,
    daily_gb: f64,
    from: NaiveDate,
    to: NaiveDate,
) -> Vec<(f64, f64)> {
    let mut out = Vec::new();
    let mut d = from;
    while d <= to {
        let h = hash3(seed, kind::USAGE, who << 24 ^ d.num_days_from_ce() as u64);
        let f = 0.4 + (h % 1000) as f64 / 800.0;
        let total = daily_gb * f;
        out.push((total * 0.35, total * 0.65));
        match d.succ_opt() {
            Some(n) => d = n,
            None => break,
        }
    }
    out
}

// -------------------------------------------------------------- handlers

pub(crate) fn network_usage(
    cx: &Cx<'_>,
    req: &Req,
    id: &str,
    which: Usage,
) -> Result<Response, ApiError> {
    let i = bm_index(cx, id)?;
    let bm = bm_facts(cx.ds(), i);
    let (from, to) = usage_range(req, cx.now)?;
    let days = daily(cx.seed(), bm.id, bm.daily_gb, from, to);
    let png = which != Usage::Both && req.wants_png();
    if png {
        let (values, color): (Vec<f64>, [u8; 3]) = if which == Usage::Bandwidth {
            (
                days.iter()
                    .map(|(a, b)| (a + b) * 8000.0 / 86_400.0)
                    .collect(),
                [40, 110, 200],
            )
        } else {
            (days.iter().map(|(a, b)| a + b).collect(), [230, 120, 30])
        };
        return Ok(util::png(crate::chart::bar_chart(&values, color)));
    }
    let secs = days.len() as f64 * 86_400.0;
    let shares: Vec<f64> = if bm.ports.len() == 1 {
        vec![1.0]
    } else {
        vec![0.7, 0.3]
    };
    let tin: f64 = days.iter().map(|d| d.0).sum();
    let tout: f64 = days.iter().map(|d| d.1).sum();
    let interval = json!({"from": fmt_dmy(from), "to": fmt_dmy(to)});
    let to_mbps = |gb: f64| gb * 8000.0 / secs;
    let mut bw_nodes = Map::new();
    let mut dt_nodes = Map::new();
    for (port, s) in bm.ports.iter().zip(&shares) {
        bw_nodes.insert(
            port.clone(),
            json!({
                "in": util::mbps(to_mbps(tin * s)),
                "out": util::mbps(to_mbps(tout * s)),
                "total": util::mbps(to_mbps((tin + tout) * s)),
            }),
        );
        dt_nodes.insert(
            port.clone(),
            json!({
                "in": util::gb(tin * s),
                "out": util::gb(tout * s),
                "total": util::gb((tin + tout) * s),
            }),
        );
    }
    let threshold_mbps = if bm.data_pack.contains("Gbps") {
        1000.0
    } else {
        100.0
    };
    let avg = to_mbps(tin + tout);
    let threshold_gb: f64 = if bm.data_pack.starts_with("50") {
        50_000.0
    } else if bm.data_pack.starts_with("20") {
        20_000.0
    } else {
        10_000.0
    };
    let peak = days
        .iter()
        .map(|(a, b)| (a + b) * 8000.0 / 86_400.0 * 1.8)
        .fold(0.0, f64::max);
    let bandwidth = json!({
        "measurement": {
            "node": Value::Object(bw_nodes),
            "total": util::mbps(peak),
            "average": util::mbps(avg),
        },
        "overusage": util::mbps((avg - threshold_mbps).max(0.0)),
        "serverId": bm.id,
        "serverName": bm.name,
        "interval": interval,
        "monthlyThreshold": util::mbps(threshold_mbps),
    });
    let traffic = json!({
        "measurement": {
            "node": Value::Object(dt_nodes),
            "total": util::gb(tin + tout),
        },
        "overusage": util::gb((tin + tout - threshold_gb).max(0.0)),
        "serverId": bm.id,
        "serverName": bm.name,
        "interval": interval,
        "monthlyThreshold": util::gb(threshold_gb),
    });
    Ok(ok(&match which {
        Usage::Both => json!({"bandwidth": bandwidth, "dataTraffic": traffic}),
        Usage::Bandwidth => json!({"bandwidth": bandwidth}),
        Usage::Datatraffic => json!({"datatraffic": traffic}),
    }))
}
