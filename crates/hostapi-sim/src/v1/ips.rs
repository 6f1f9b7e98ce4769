//! `PUT /v1/ips/{ipAddress}`: any address the account has.

use super::*;
use crate::v1::bare_metal::ips::{apply_ip_form, billing, ip_details};
use crate::v1::bare_metal::{Bm, bm_facts};
use crate::v1::racks::{Rack, rack_facts};
use crate::v1::virtual_servers::{vs_ips, vs_ipv6, vs_ipv6_index, vs_name};

// -------------------------------------------------------------- handlers

pub(crate) fn put_any_ip(cx: &Cx<'_>, req: &Req, ip: &str) -> Result<Response, ApiError> {
    // The only IPv6 addresses of the dataset are v1 virtual servers'; they
    // are kept in the spelling their `ipAddresses` shows.
    let canonical;
    let ip = if util::is_ipv6(ip) {
        let owned = vs_ipv6_index(ip)
            .filter(|i| *i < cx.ds().v1_vs && vs_ips(cx.var(), *i).contains(&vs_ipv6(*i)))
            .ok_or_else(|| ApiError::not_found(format!("IP {ip} not found")))?;
        canonical = vs_ipv6(owned);
        canonical.as_str()
    } else if util::is_ipv4(ip) {
        ip
    } else {
        return Err(ApiError::bad_field("ipAddress", "must be an IP address"));
    };
    let seed = cx.seed();
    let ds = cx.ds();
    enum Owner {
        Bm(Box<Bm>, usize),
        Rack(Box<Rack>, usize),
        Vs(usize, usize),
    }
    let owner = if let Some(n) = util::ip_index(ip, 85, 17) {
        let (i, j) = ((n / 4) as usize, (n % 4) as usize);
        (i < ds.bare_metals)
            .then(|| bm_facts(ds, i))
            .filter(|b| j < b.ip_count)
            .map(|b| Owner::Bm(Box::new(b), j))
    } else if let Some(n) = util::ip_index(ip, 95, 211) {
        let (i, j) = ((n / 8) as usize, (n % 8) as usize);
        (i < ds.racks)
            .then(|| rack_facts(seed, i))
            .filter(|k| j < k.ip_count)
            .map(|k| Owner::Rack(Box::new(k), j))
    } else if let Some(n) = util::ip_index(ip, 37, 48) {
        let i = (n / 2) as usize;
        (i < ds.v1_vs)
            .then(|| vs_ips(cx.var(), i).iter().position(|a| a == ip))
            .flatten()
            .map(|j| Owner::Vs(i, j))
    } else if let Some(i) = vs_ipv6_index(ip) {
        vs_ips(cx.var(), i)
            .iter()
            .position(|a| a == ip)
            .map(|j| Owner::Vs(i, j))
    } else {
        None
    };
    let owner = owner.ok_or_else(|| ApiError::not_found(format!("IP {ip} not found")))?;
    let mut st = cx.state();
    apply_ip_form(cx, &mut st, req, ip)?;
    let o = ip_over(&st, ip);
    let (server_id, server_type, server_name) = match &owner {
        Owner::Bm(b, _) => (b.id, "Bare Metal", b.name.clone()),
        Owner::Rack(k, _) => (k.id, "Private Rack", k.name.clone()),
        Owner::Vs(i, _) => (VS_BASE + 1 + *i as u64, "Virtual Server", vs_name(*i)),
    };
    // The same rule as each owner's own IP view: a bare metal's and a virtual
    // server's first IP, and a rack's first two, are free.
    let free = match owner {
        Owner::Bm(_, j) | Owner::Vs(_, j) => j == 0,
        Owner::Rack(_, j) => j < 2,
    };
    Ok(ok(&json!({"ip": {
        "ip": ip,
        "reverseLookup": o.reverse.clone().unwrap_or_else(|| default_reverse(ip)),
        "nullRouted": o.null_routed.unwrap_or(false),
        "serverId": server_id,
        "serverType": server_type,
        "serverName": server_name,
        "ipDetails": ip_details(cx.var(), ip),
        "billingInformation": billing(cx, ip, free),
    }})))
}
