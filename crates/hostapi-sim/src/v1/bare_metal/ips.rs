//! The IP addresses of bare metal servers.

use super::*;

// ------------------------------------------------------------------ data

pub(crate) fn bm_ip_slot(bm: &Bm, ip: &str) -> Result<usize, ApiError> {
    if !util::is_ipv4(ip) {
        return Err(ApiError::bad_field("ipAddress", "must be an IPv4 address"));
    }
    (0..bm.ip_count)
        .find(|j| bm.ip(*j) == ip)
        .ok_or_else(|| ApiError::not_found(format!("IP {ip} is not assigned to server {}", bm.id)))
}

/// Parse and apply an IP write form (reverseLookup and/or nullRouted 0/1).
pub(crate) fn apply_ip_form(
    cx: &Cx<'_>,
    st: &mut State,
    req: &Req,
    ip: &str,
) -> Result<(), ApiError> {
    let form = req.form()?;
    let reverse = form.get("reverseLookup");
    let null = form.opt_bit("nullRouted")?;
    if reverse.is_none() && null.is_none() {
        return Err(ApiError::bad_field(
            "reverseLookup",
            "one of reverseLookup or nullRouted is required",
        ));
    }
    if let Some(r) = reverse
        && !r.is_empty()
        && !util::is_hostname(r.trim_end_matches('.'))
    {
        return Err(ApiError::bad_field("reverseLookup", "must be a host name"));
    }
    let o = st.ips.entry(ip.to_string()).or_default();
    if let Some(r) = reverse {
        o.reverse = Some(r.to_string());
    }
    if let Some(n) = null {
        o.null_routed = Some(n);
    }
    let what = match (reverse, null) {
        (Some(r), Some(n)) => format!("reverseLookup={r} nullRouted={}", u8::from(n)),
        (Some(r), None) => format!("reverseLookup={r}"),
        (None, Some(n)) => format!("nullRouted={}", u8::from(n)),
        (None, None) => String::new(),
    };
    cx.log(st, format!("ip {ip} {what}"));
    Ok(())
}

// -------------------------------------------------------- wire rendering

/// `ipDetails`: the netmask under `mask` (as the sample sends it) or
/// `netmask` (as documented), chosen per IP.
pub(crate) fn ip_details(v: &Variants, ip: &str) -> Value {
    let key = v.name(&q::IP_MASK_KEY, ident(ip));
    json!({"gateway": gateway_of(ip), key: "255.255.255.0"})
}

pub(crate) fn billing(cx: &Cx<'_>, ip: &str, free: bool) -> Value {
    let seed = cx.seed();
    let h = hash3(
        seed,
        kind::USAGE,
        ip.len() as u64 ^ util::mix(ip.bytes().map(u64::from).sum()),
    );
    let start = EPOCH + (h % (8 * YEAR as u64)) as i64;
    json!({
        "price": if free { "0.00" } else { "1.50" },
        "startDate": fmt_local(start - start % 86_400),
        "endDate": null_or_empty(cx.var(), &q::IP_NO_END, ident(ip)),
    })
}

pub(crate) fn bm_ip_json(cx: &Cx<'_>, st: &State, bm: &Bm, j: usize) -> Value {
    let ip = bm.ip(j);
    let o = ip_over(st, &ip);
    json!({
        "ip": ip,
        "reverseLookup": o.reverse.clone().unwrap_or_else(|| default_reverse(&ip)),
        "nullRouted": o.null_routed.unwrap_or(false),
        "serverId": bm.id,
        "serverType": "Bare Metal",
        "serverName": bm.name,
        "ipDetails": ip_details(cx.var(), &ip),
        "billingInformation": billing(cx, &ip, j == 0),
    })
}

// -------------------------------------------------------------- handlers

pub(crate) fn list_bm_ips(cx: &Cx<'_>, id: &str) -> Result<Response, ApiError> {
    let i = bm_index(cx, id)?;
    let bm = bm_facts(cx.ds(), i);
    let st = cx.state();
    let ips: Vec<Value> = (0..bm.ip_count)
        .map(|j| json!({"ip": bm_ip_json(cx, &st, &bm, j)}))
        .collect();
    Ok(ok(&json!({"ips": ips})))
}

pub(crate) fn get_bm_ip(cx: &Cx<'_>, id: &str, ip: &str) -> Result<Response, ApiError> {
    let i = bm_index(cx, id)?;
    let bm = bm_facts(cx.ds(), i);
    let j = bm_ip_slot(&bm, ip)?;
    let st = cx.state();
    Ok(ok(&json!({"ip": bm_ip_json(cx, &st, &bm, j)})))
}

pub(crate) fn put_bm_ip(cx: &Cx<'_>, req: &Req, id: &str, ip: &str) -> Result<Response, ApiError> {
    let i = bm_index(cx, id)?;
    let bm = bm_facts(cx.ds(), i);
    let j = bm_ip_slot(&bm, ip)?;
    let mut st = cx.state();
    apply_ip_form(cx, &mut st, req, ip)?;
    Ok(ok(&json!({"ip": bm_ip_json(cx, &st, &bm, j)})))
}
