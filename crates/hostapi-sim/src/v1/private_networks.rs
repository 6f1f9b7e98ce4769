//! Private networks and their bare metal members.

use super::*;
use crate::v1::bare_metal::{bm_facts, bm_index};

// ------------------------------------------------------------------ data

pub(crate) fn init(ds: &Dataset, st: &mut State) {
    let h = hash3(ds.seed, kind::BARE_METAL, 1 << 50);
    let created = EPOCH + 6 * YEAR + (h % YEAR as u64) as i64;
    let long_ago = crate::state::LONG_AGO;
    st.private_networks.insert(
        FIRST_PRIVATE_NETWORK,
        PrivNet {
            id: FIRST_PRIVATE_NETWORK,
            name: "backend".into(),
            created: created as f64,
            updated: (created + 86_400) as f64,
            members: vec![
                Member {
                    bm: 0,
                    added: long_ago,
                    removing: None,
                },
                Member {
                    bm: 1,
                    added: long_ago,
                    removing: None,
                },
            ],
        },
    );
    st.private_networks.insert(
        FIRST_PRIVATE_NETWORK + 1,
        PrivNet {
            id: FIRST_PRIVATE_NETWORK + 1,
            name: "storage".into(),
            created: (created + 30 * 86_400) as f64,
            updated: (created + 30 * 86_400) as f64,
            members: Vec::new(),
        },
    );
    st.next_private_network = FIRST_PRIVATE_NETWORK + 2;
}

pub(crate) fn live_members(n: &PrivNet, now: f64) -> Vec<(&Member, &'static str)> {
    n.members
        .iter()
        .filter_map(|m| m.status(now).map(|s| (m, s)))
        .collect()
}

pub(crate) fn network_id(st: &State, id: &str) -> Result<u64, ApiError> {
    parse_u64(id)
        .filter(|n| st.private_networks.contains_key(n))
        .ok_or_else(|| ApiError::not_found(format!("private network {id} not found")))
}

// -------------------------------------------------------- wire rendering

pub(crate) fn network_item(cx: &Cx<'_>, n: &PrivNet) -> Value {
    json!({
        "id": n.id,
        "name": n.name,
        "serverCount": live_members(n, cx.now).len(),
        "customerNumber": cx.ds().customer_number,
        "createdAt": fmt_offset(n.created as i64, 1),
        "updatedAt": fmt_offset(n.updated as i64, 1),
    })
}

// -------------------------------------------------------------- handlers

pub(crate) fn list_networks(cx: &Cx<'_>, req: &Req) -> Result<Response, ApiError> {
    let (limit, offset) = util::page(req)?;
    let st = cx.state();
    let page: Vec<Value> = st
        .private_networks
        .values()
        .skip(offset)
        .take(limit)
        .map(|n| network_item(cx, n))
        .collect();
    Ok(ok(&json!({
        "_metadata": util::metadata(st.private_networks.len(), limit, offset),
        "privateNetworks": page,
    })))
}

pub(crate) fn create_network(cx: &Cx<'_>, req: &Req) -> Result<Response, ApiError> {
    let form = req.form()?;
    let name = form.get("name").map(str::to_string);
    if let Some(n) = &name
        && (n.chars().count() > 64 || n.chars().any(char::is_control))
    {
        return Err(ApiError::bad_field(
            "name",
            "must be at most 64 printable characters",
        ));
    }
    let mut st = cx.state();
    crate::state::check_room(st.private_networks.len(), "private networks")?;
    let id = st.next_private_network;
    st.next_private_network += 1;
    st.private_networks.insert(
        id,
        PrivNet {
            id,
            name: name.unwrap_or_else(|| format!("private-network-{id}")),
            created: cx.now,
            updated: cx.now,
            members: Vec::new(),
        },
    );
    cx.log(&mut st, format!("privateNetwork {id} create"));
    Ok(ok(&json!({"id": id, "message": "Private network created"})))
}

pub(crate) fn get_network(cx: &Cx<'_>, id: &str) -> Result<Response, ApiError> {
    let st = cx.state();
    let nid = network_id(&st, id)?;
    let n = &st.private_networks[&nid];
    let members: Vec<Value> = live_members(n, cx.now)
        .into_iter()
        .map(|(m, status)| {
            let bm = bm_facts(cx.ds(), m.bm);
            let a = 10 + (m.bm as u64 % 200);
            json!({
                "id": bm.id,
                "dataCenter": bm.site,
                "CIDR": format!("10.{}.{}.{}/22", 29 + nid % 200, a / 64 * 4, (m.bm % 64) * 4 + 2),
                "broadcast": format!("10.{}.{}.255", 29 + nid % 200, a / 64 * 4 + 3),
                "gateway": format!("10.{}.{}.1", 29 + nid % 200, a / 64 * 4),
                "netmask": "255.255.252.0",
                "status": status,
                "portSpeed": if m.bm % 2 == 0 { "1000" } else { "100" },
            })
        })
        .collect();
    Ok(ok(
        &json!([{"id": n.id, "name": n.name, "bareMetals": members}]),
    ))
}

pub(crate) fn delete_network(cx: &Cx<'_>, id: &str) -> Result<Response, ApiError> {
    let mut st = cx.state();
    let nid = network_id(&st, id)?;
    st.private_networks.remove(&nid);
    cx.log(&mut st, format!("privateNetwork {nid} delete"));
    Ok(ok(
        &json!({"message": format!("Private network {nid} deleted")}),
    ))
}

pub(crate) fn add_member(cx: &Cx<'_>, req: &Req, id: &str) -> Result<Response, ApiError> {
    let form = req.form()?;
    let bm_s = form.required("bareMetalId")?;
    let bm_id = parse_u64(bm_s.trim())
        .ok_or_else(|| ApiError::bad_field("bareMetalId", "must be an integer"))?;
    let mut st = cx.state();
    let nid = network_id(&st, id)?;
    let i = bm_index(cx, &bm_id.to_string())?;
    let now = cx.now;
    let n = st
        .private_networks
        .get_mut(&nid)
        .ok_or_else(|| ApiError::not_found("private network"))?;
    n.members.retain(|m| m.status(now).is_some());
    if let Some(m) = n.members.iter().find(|m| m.bm == i) {
        return Err(ApiError::conflict(match m.removing {
            Some(_) => "the server is being removed from this private network",
            None => "the server is already in this private network",
        }));
    }
    n.members.push(Member {
        bm: i,
        added: now,
        removing: None,
    });
    n.updated = now;
    cx.log(&mut st, format!("privateNetwork {nid} add {bm_id}"));
    Ok(empty(StatusCode::NO_CONTENT))
}

pub(crate) fn remove_member(cx: &Cx<'_>, id: &str, bm: &str) -> Result<Response, ApiError> {
    let mut st = cx.state();
    let nid = network_id(&st, id)?;
    let i = bm_index(cx, bm)?;
    let now = cx.now;
    let n = st
        .private_networks
        .get_mut(&nid)
        .ok_or_else(|| ApiError::not_found("private network"))?;
    let m = n
        .members
        .iter_mut()
        .find(|m| m.bm == i && m.status(now).is_some())
        .ok_or_else(|| {
            ApiError::not_found(format!("server {bm} is not in private network {nid}"))
        })?;
    if m.removing.is_some() {
        return Err(ApiError::conflict("the server is already being removed"));
    }
    m.removing = Some(now);
    n.updated = now;
    cx.log(&mut st, format!("privateNetwork {nid} remove {bm}"));
    Ok(empty(StatusCode::NO_CONTENT))
}
