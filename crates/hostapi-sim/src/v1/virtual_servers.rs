//! v1 virtual servers: generated facts, the v1 wire shape and the
//! list/get/power/reboot/reinstall handlers.

use super::*;

// ------------------------------------------------------------------ data

/// The IPv4 addresses server `i` may have: one or two, by index.
pub(crate) fn vs_ip_count(i: usize) -> usize {
    1 + (i % 2)
}

pub(crate) fn vs_ip(i: usize, j: usize) -> String {
    util::ip_of(37, 48, (i * 2 + j) as u64)
}

/// The IPv6 address server `i` has when its address set includes one.
pub(crate) fn vs_ipv6(i: usize) -> String {
    format!(
        "2a00:c98:2050:b{:03x}:{:x}::10",
        i / 65_536 % 4096,
        i % 65_536
    )
}

/// Inverse of [`vs_ipv6`] (any spelling of the address).
pub(crate) fn vs_ipv6_index(ip: &str) -> Option<usize> {
    let a: std::net::Ipv6Addr = ip.parse().ok()?;
    let g = a.segments();
    let i = usize::from(g[3] & 0xfff) * 65_536 + usize::from(g[4]);
    (vs_ipv6(i).parse::<std::net::Ipv6Addr>().ok()? == a).then_some(i)
}

/// The addresses of server `i`, as its `ipAddresses` lists them: the
/// documents allow an empty list and addresses of either family, so the
/// set is a documented alternative ([`q::VS_IP_SET`]).
pub(crate) fn vs_ips(v: &Variants, i: usize) -> Vec<String> {
    let v4 = (0..vs_ip_count(i)).map(|j| vs_ip(i, j));
    match v.name(&q::VS_IP_SET, i as u64) {
        "none" => Vec::new(),
        "ipv4" => v4.collect(),
        _ => v4.chain(std::iter::once(vs_ipv6(i))).collect(),
    }
}

pub(crate) fn vs_name(i: usize) -> String {
    format!("vps{}", VS_BASE + 1 + i as u64)
}

pub(crate) fn job_id(cx: &Cx<'_>, st: &mut State) -> String {
    st.next_job += 1;
    let h = hash3(cx.seed(), kind::JOB, st.next_job);
    format!("{:016x}{:08x}", h, st.next_job)
}

// -------------------------------------------------------- wire rendering

pub(crate) fn vs_json(cx: &Cx<'_>, st: &State, i: usize) -> Value {
    let seed = cx.seed();
    let mut r = rng(seed, kind::V1_VS, i as u64);
    let id = VS_BASE + 1 + i as u64;
    let ov = st.v1_vs.get(&i);
    let running = ov.and_then(|o| o.running_at(cx.now)).unwrap_or(i % 3 != 2);
    let created = EPOCH + r.random_range(0..8 * YEAR);
    let start = created - created % 86_400;
    let term_years = pick(&mut r, &[1i64, 1, 2, 3]).to_owned();
    let templates = [
        "Ubuntu 22.04 LTS (64-bit)",
        "Debian 12 (64-bit)",
        "CentOS 7 (64-bit)",
        "AlmaLinux 9 (64-bit)",
        "Windows Server 2019 Standard (64-bit)",
    ];
    let template = *pick(&mut r, &templates);
    let pack = *pick(&mut r, &["1 TB", "2 TB", "5 TB", "Unmetered"]);
    let limit = match pack {
        "1 TB" => 1000,
        "2 TB" => 2000,
        "5 TB" => 5000,
        _ => 0,
    };
    let var = cx.var();
    let rec = i as u64;
    let reference = reference_value(
        var,
        &q::VS_REFERENCE,
        rec,
        format!(
            "{}-{}",
            pick(&mut r, &["web", "db", "cache", "mail", "api"]),
            i + 1
        ),
    );
    // Alternatives are in the order util::mac takes its styles.
    let mac = util::mac(
        util::mac_bytes(hash3(seed, kind::V1_VS, i as u64 + (1 << 40))),
        var.pick(&q::VS_MAC_CASE, rec),
    );
    let ips: Vec<(String, IpOver)> = vs_ips(var, i)
        .into_iter()
        .map(|ip| {
            let o = ip_over(st, &ip);
            (ip, o)
        })
        .collect();
    let ip_addresses = if var.is(&q::VS_IP_SHAPE, rec, "array") {
        Value::Array(
            ips.iter()
                .map(|(ip, o)| {
                    json!({
                        "ip": ip,
                        "isNulled": o.null_routed.unwrap_or(false),
                        "reverseDNS": o.reverse.clone().unwrap_or_else(|| default_reverse(ip)),
                    })
                })
                .collect(),
        )
    } else {
        let mut m = Map::new();
        for (ip, o) in &ips {
            m.insert(
                ip.clone(),
                json!({
                    "isNulled": o.null_routed.unwrap_or(false),
                    "reverseDNS": o.reverse.clone().unwrap_or_else(|| default_reverse(ip)),
                }),
            );
        }
        Value::Object(m)
    };
    let mut admin = Map::new();
    admin.insert("customerNumber".into(), json!(cx.ds().customer_number));
    admin.insert("createdAt".into(), json!(fmt_local(created)));
    admin.insert("startDate".into(), json!(fmt_local(start)));
    end_date_variant(
        &mut admin,
        "endDate",
        var.pick(&q::VS_END_DATE, rec),
        start + term_years * YEAR,
        true,
    );
    admin.insert(
        "billingFrequency".into(),
        json!(pick(&mut r, &["1 month", "3 months", "12 months"])),
    );
    admin.insert("contractTerm".into(), json!(contract_term_str(term_years)));
    admin.insert(
        "orderNumber".into(),
        json!(format!("{}", 40_000_000 + r.random_range(0..9_999_999u64))),
    );
    let mut v = json!({
        "id": id,
        "serverName": vs_name(i),
        "reference": reference,
        "administrativeInfo": Value::Object(admin),
        "dataTrafficPack": pack,
        "dataTrafficLimit": var.int(&q::VS_TRAFFIC_LIMIT, rec, limit),
        "SLA": pick(&mut r, &["Basic - 24x7x24", "Bronze - 24x7x4", "Silver - 24x7x2"]),
        "ipAddresses": ip_addresses,
        "state": if running { "Running" } else { "Stopped" },
        "template": template,
        "attachedISO": if i % 5 == 4 { json!("ubuntu-22.04.4-live-server-amd64.iso") } else { Value::Null },
        "macAddress": mac,
    });
    let platform = *pick(&mut r, &["VMware", "Hyper-V", "KVM"]);
    let type_id = var.int(&q::VS_TYPE_ID, rec, 1 + r.random_range(0..3i64));
    match var.name(&q::VS_TYPE, rec) {
        "Id" => v["type"] = json!({"Id": type_id, "PlatformName": platform}),
        "id" => v["type"] = json!({"id": type_id, "PlatformName": platform}),
        _ => {}
    }
    v
}

// -------------------------------------------------------------- handlers

pub(crate) fn list_vs(cx: &Cx<'_>) -> Result<Response, ApiError> {
    let st = cx.state();
    Ok(util::ok_list(
        r#"{"virtualServers":["#,
        (0..cx.ds().v1_vs).map(|i| vs_json(cx, &st, i)),
        "]}",
    ))
}

pub(crate) fn get_vs(cx: &Cx<'_>, id: &str) -> Result<Response, ApiError> {
    let i = index_of(id, VS_BASE, cx.ds().v1_vs, "virtual server")?;
    let st = cx.state();
    Ok(ok(&json!({ "virtualServers": [vs_json(cx, &st, i)] })))
}

pub(crate) fn vs_action(cx: &Cx<'_>, id: &str, action: &str) -> Result<Response, ApiError> {
    let i = index_of(id, VS_BASE, cx.ds().v1_vs, "virtual server")?;
    let mut st = cx.state();
    let now = cx.now;
    let o = st.v1_vs.entry(i).or_default();
    // Asynchronous, as documented: the state changes when the job ends.
    let current = o.running_at(now).unwrap_or(i % 3 != 2);
    let (steps, settled) = match action {
        "powerOn" => (vec![(current, now + crate::V1_POWER_SECS)], true),
        "powerOff" => (vec![(current, now + crate::V1_POWER_SECS)], false),
        "reboot" => {
            o.reboots += 1;
            (vec![(false, now + crate::V1_POWER_SECS)], true)
        }
        _ => {
            o.reinstalls += 1;
            (vec![(false, now + crate::V1_REINSTALL_SECS)], true)
        }
    };
    o.steps = steps;
    o.running = Some(settled);
    let job = job_id(cx, &mut st);
    cx.log(&mut st, format!("virtualServer {id} {action}"));
    Ok(util::json(
        StatusCode::ACCEPTED,
        &json!({"asyncjob": {"jobid": job}}),
    ))
}
