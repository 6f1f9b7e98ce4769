//! DHCP leases of bare metal servers.

use super::*;

// ------------------------------------------------------------------ data

/// The index of the bare metal server that hosts virtual machines: it starts with
/// [`HOST_LEASES`] leases, more than a page of the lease list (pages of
/// [`crate::DEFAULT_PAGE_LIMIT`]), so that list is paged at every seed.
pub(crate) const HOST_INDEX: usize = 7;

/// How many leases the server at [`HOST_INDEX`] starts with: one for its first MAC
/// and one for each of its guests' virtual network cards.
pub(crate) const HOST_LEASES: usize = 25;

pub(crate) fn leases_of(st: &State, bm: &Bm) -> Vec<Value> {
    if let Some(l) = st.bare_metals.get(&bm.i).and_then(|o| o.leases.clone()) {
        return l;
    }
    let boot_file = |k: usize| format!("http://boot.hosting.example/ipxe/{}-{k}.ipxe", bm.id);
    if bm.i == HOST_INDEX {
        return host_leases(bm, &boot_file);
    }
    // Even servers start with a lease for their first MAC; every fourth
    // (index 0, 4, 8, …) with one for each of its two MACs.
    let macs = match bm.i % 4 {
        0 => &bm.macs[..],
        2 => &bm.macs[..1],
        _ => &[],
    };
    macs.iter()
        .enumerate()
        .map(|(k, mac)| lease_json(bm, mac, &boot_file(k), "10.11.0.5", "10.11.0.53", k == 0))
        .collect()
}

/// The leases of the server hosting virtual machines: its first MAC's, then one for
/// each guest's network card (a locally administered MAC, `52:54:00:…`, and an
/// address of its own).
fn host_leases(bm: &Bm, boot_file: &dyn Fn(usize) -> String) -> Vec<Value> {
    let own = lease_json(
        bm,
        &bm.macs[0],
        &boot_file(0),
        "10.11.0.5",
        "10.11.0.53",
        true,
    );
    let guests = (1..HOST_LEASES).map(|k| {
        let mac = format!(
            "52:54:00:{:02x}:{:02x}:{:02x}",
            bm.i & 0xff,
            k >> 8,
            k & 0xff
        );
        let mut lease = lease_json(bm, &mac, &boot_file(k), "10.11.0.5", "10.11.0.53", false);
        lease["ip"] = Value::from(util::ip_of(10, 120, (bm.i * 256 + k) as u64));
        lease
    });
    std::iter::once(own).chain(guests).collect()
}

// -------------------------------------------------------- wire rendering

pub(crate) fn lease_json(
    bm: &Bm,
    mac: &str,
    boot_file: &str,
    boot_server: &str,
    dns: &str,
    policy: bool,
) -> Value {
    let ip = bm.ip(0);
    let scope = gateway_of(&ip).replace(".254", ".0");
    let opt = |name: &str, id: &str, t: &str, value: &str, pol: bool| {
        json!({
            "name": name,
            "optionId": id,
            "policyName": if pol { json!("pxe-boot") } else { Value::Null },
            "type": t,
            "userClass": "",
            "value": value,
            "vendorClass": "",
        })
    };
    json!({
        "ip": ip,
        "mac": mac,
        "scope": scope,
        "options": [
            opt("Bootfile Name", "67", "String", boot_file, policy),
            opt("Boot Server Host Name", "66", "String", boot_server, policy),
            opt("DNS Servers", "6", "IPv4Address", dns, false),
        ],
    })
}

// -------------------------------------------------------------- handlers

pub(crate) fn list_leases(cx: &Cx<'_>, req: &Req, id: &str) -> Result<Response, ApiError> {
    let i = bm_index(cx, id)?;
    let bm = bm_facts(cx.ds(), i);
    let (limit, offset) = util::page(req)?;
    let st = cx.state();
    let all = leases_of(&st, &bm);
    let page: Vec<Value> = all.iter().skip(offset).take(limit).cloned().collect();
    let list = json!({
        "_metadata": util::metadata(all.len(), limit, offset),
        "leases": page,
    });
    // The sample wraps the list in an outer array; the text describes the
    // object alone.
    Ok(ok(&if cx.var().is(&q::BM_LEASES_WRAP, i as u64, "array") {
        json!([list])
    } else {
        list
    }))
}

pub(crate) fn create_lease(cx: &Cx<'_>, req: &Req, id: &str) -> Result<Response, ApiError> {
    let i = bm_index(cx, id)?;
    let bm = bm_facts(cx.ds(), i);
    let form = req.form()?;
    let boot_file = form.required("bootFileName")?;
    if boot_file.len() > 2048 {
        return Err(ApiError::bad_field(
            "bootFileName",
            "must be at most 2048 bytes",
        ));
    }
    if boot_file.chars().any(char::is_whitespace) {
        return Err(ApiError::bad_field(
            "bootFileName",
            "must be a URL without spaces",
        ));
    }
    let boot_server = form.required("bootServerHostName")?;
    if !util::is_ipv4(boot_server) {
        return Err(ApiError::bad_field(
            "bootServerHostName",
            "must be an IPv4 address",
        ));
    }
    let dns = form.required("domainNameServerIp")?;
    if !util::is_ipv4(dns) {
        return Err(ApiError::bad_field(
            "domainNameServerIp",
            "must be an IPv4 address",
        ));
    }
    let mut st = cx.state();
    let mut leases = leases_of(&st, &bm);
    let mac = bm.macs[0].clone();
    leases.retain(|l| util::norm_mac(l["mac"].as_str().unwrap_or("")) != util::norm_mac(&mac));
    leases.push(lease_json(&bm, &mac, boot_file, boot_server, dns, true));
    st.bare_metals.entry(i).or_default().leases = Some(leases);
    cx.log(&mut st, format!("bareMetal {} lease {mac}", bm.id));
    Ok(empty(StatusCode::NO_CONTENT))
}

pub(crate) fn get_lease(cx: &Cx<'_>, id: &str, mac: &str) -> Result<Response, ApiError> {
    let i = bm_index(cx, id)?;
    let bm = bm_facts(cx.ds(), i);
    let st = cx.state();
    let want = util::norm_mac(mac);
    leases_of(&st, &bm)
        .into_iter()
        .find(|l| util::norm_mac(l["mac"].as_str().unwrap_or("")) == want)
        .map(|l| {
            // The sample wraps a single lease in an array.
            ok(&if cx.var().is(&q::BM_LEASE_WRAP, i as u64, "array") {
                json!([l])
            } else {
                l
            })
        })
        .ok_or_else(|| ApiError::not_found(format!("no lease for {mac} on server {}", bm.id)))
}

pub(crate) fn delete_leases(
    cx: &Cx<'_>,
    id: &str,
    mac: Option<&str>,
) -> Result<Response, ApiError> {
    let i = bm_index(cx, id)?;
    let bm = bm_facts(cx.ds(), i);
    let mut st = cx.state();
    let mut leases = leases_of(&st, &bm);
    match mac {
        None => leases.clear(),
        Some(m) => {
            let want = util::norm_mac(m);
            let before = leases.len();
            leases.retain(|l| util::norm_mac(l["mac"].as_str().unwrap_or("")) != want);
            if leases.len() == before {
                return Err(ApiError::not_found(format!(
                    "no lease for {m} on server {}",
                    bm.id
                )));
            }
        }
    }
    st.bare_metals.entry(i).or_default().leases = Some(leases);
    cx.log(
        &mut st,
        format!("bareMetal {} leases {}", bm.id, mac.unwrap_or("*")),
    );
    Ok(empty(StatusCode::NO_CONTENT))
}
