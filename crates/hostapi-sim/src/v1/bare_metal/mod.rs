//! Bare metal servers: generated facts, detail rendering and the server,
//! switch port and power handlers; installs, usage, IPs and leases live in
//! the submodules.

use super::*;

pub(crate) mod install;
pub(crate) mod ips;
pub(crate) mod leases;
pub(crate) mod usage;

// ------------------------------------------------------------------ data

/// The generated facts of one bare metal server.
pub(crate) struct Bm {
    pub(crate) i: usize,
    pub(crate) id: u64,
    pub(crate) name: String,
    pub(crate) server_type: &'static str,
    pub(crate) site: &'static str,
    pub(crate) cabinet: String,
    pub(crate) reference: String,
    pub(crate) ram: &'static str,
    pub(crate) cpu: &'static str,
    pub(crate) cpu_speed: &'static str,
    pub(crate) cpus: u64,
    pub(crate) cores: u64,
    /// (amount, size, kind)
    pub(crate) disks: Vec<(u64, &'static str, &'static str)>,
    pub(crate) ip_count: usize,
    pub(crate) macs: Vec<String>,
    pub(crate) ipmi_ip: String,
    pub(crate) price_cents: i64,
    pub(crate) start: i64,
    pub(crate) term_years: i64,
    pub(crate) sla: &'static str,
    pub(crate) sla_price_cents: i64,
    pub(crate) data_pack: &'static str,
    pub(crate) bandwidth_pack: bool,
    pub(crate) ports: Vec<String>,
    pub(crate) daily_gb: f64,
    pub(crate) switch_node: u64,
}

impl Bm {
    pub(crate) fn disk_count(&self) -> u64 {
        self.disks.iter().map(|d| d.0).sum()
    }

    pub(crate) fn ip(&self, j: usize) -> String {
        util::ip_of(85, 17, (self.i * 4 + j) as u64)
    }
}

pub(crate) fn bm_facts(ds: &Dataset, i: usize) -> Bm {
    let seed = ds.seed;
    let mut r = rng(seed, kind::BARE_METAL, i as u64);
    let id = BM_BASE + 1 + i as u64;
    let (site, _) = SITES[i % SITES.len()];
    let disks: Vec<(u64, &'static str, &'static str)> = match i % 4 {
        0 => vec![(2, "2TB", "SATA")],
        1 => vec![(2, "4TB", "SATA"), (2, "480GB", "SSD")],
        2 => vec![(2, "960GB", "SSD")],
        _ => vec![(1, "1TB", "SATA")],
    };
    let nports = 1 + (i % 2);
    let mut macs = Vec::new();
    for k in 0..2 {
        let h = hash3(seed, kind::BARE_METAL, (i as u64) << 8 | k);
        // Each MAC in its own letter case (alternatives in util::mac's order).
        macs.push(util::mac(
            util::mac_bytes(h),
            ds.variants.pick(&q::BM_MAC_CASE, 2 * i as u64 + k),
        ));
    }
    let bandwidth_pack = i % 2 == 1;
    Bm {
        i,
        id,
        name: format!("{}{}", pick(&mut r, &["LSPG", "LSAM", "LSFR", "LSWD"]), id),
        server_type: pick_s(
            &mut r,
            &[
                "Dell PowerEdge R640",
                "HP DL120 G9",
                "Dell PowerEdge R730xd",
                "Supermicro SYS-5019C-MR",
            ],
        ),
        site,
        cabinet: format!(
            "{}{:02}",
            pick(&mut r, &["ZA", "ZB", "HH"]),
            r.random_range(1..40)
        ),
        reference: format!(
            "{}-{}",
            pick(&mut r, &["db", "web", "k8s", "backup"]),
            i + 1
        ),
        ram: pick_s(&mut r, &["16GB", "32GB", "64GB", "128GB", "256GB"]),
        cpu: pick_s(
            &mut r,
            &[
                "Intel Xeon E5-2620v4",
                "Intel Xeon Silver 4210",
                "AMD EPYC 7302P",
            ],
        ),
        cpu_speed: pick_s(&mut r, &["2100Mhz", "2200Mhz", "3000Mhz"]),
        cpus: *pick(&mut r, &[1u64, 1, 2]),
        cores: *pick(&mut r, &[4u64, 8, 10, 16]),
        disks,
        ip_count: 1 + i % 4,
        macs,
        ipmi_ip: util::ip_of(10, 11, i as u64),
        price_cents: r.random_range(4_900..39_900i64),
        start: EPOCH + r.random_range(0..8 * YEAR),
        term_years: *pick(&mut r, &[1i64, 1, 2, 3]),
        sla: pick_s(
            &mut r,
            &["Basic - 24x7x24", "Bronze - 24x7x4", "Gold - 24x7x1"],
        ),
        sla_price_cents: *pick(&mut r, &[0i64, 2500, 7500]),
        data_pack: if bandwidth_pack {
            pick_s(&mut r, &["Unmetered 100 Mbps", "Unmetered 1 Gbps"])
        } else {
            pick_s(&mut r, &["10 TB", "20 TB", "50 TB"])
        },
        bandwidth_pack,
        ports: (0..nports)
            .map(|k| format!("ge-0/0/{}", 2 * (i % 24) + k))
            .collect(),
        daily_gb: r.random_range(5.0..400.0),
        switch_node: 1 + (i % 48) as u64,
    }
}

pub(crate) fn bm_index(cx: &Cx<'_>, id: &str) -> Result<usize, ApiError> {
    index_of(id, BM_BASE, cx.ds().bare_metals, "bare metal server")
}

pub(crate) fn check_reference(r: &str) -> Result<(), ApiError> {
    if r.chars().count() > 255 {
        return Err(ApiError::bad_field(
            "reference",
            "must be at most 255 characters",
        ));
    }
    if r.chars().any(char::is_control) {
        return Err(ApiError::bad_field(
            "reference",
            "must not contain control characters",
        ));
    }
    Ok(())
}

pub(crate) fn task_running(o: Option<&BmOver>, now: f64) -> Option<&BmTask> {
    o.and_then(|o| o.task.as_ref()).filter(|t| now < t.until)
}

pub(crate) fn busy(st: &State, i: usize, now: f64) -> Result<(), ApiError> {
    match task_running(st.bare_metals.get(&i), now) {
        Some(t) => Err(ApiError::conflict(if t.rescue {
            "a rescue mode boot is in progress on this server"
        } else {
            "an installation is in progress on this server"
        })),
        None => Ok(()),
    }
}

// -------------------------------------------------------- wire rendering

pub(crate) fn bm_reference(v: &Variants, st: &State, bm: &Bm) -> Value {
    match st.bare_metals.get(&bm.i).and_then(|o| o.reference.clone()) {
        Some(r) => json!(r),
        None => reference_value(v, &q::BM_REFERENCE, bm.i as u64, bm.reference.clone()),
    }
}

pub(crate) fn bm_detail(v: &Variants, st: &State, bm: &Bm) -> Value {
    let rec = bm.i as u64;
    let reference = bm_reference(v, st, bm);
    let hard_disks = bm
        .disks
        .iter()
        .map(|(n, s, k)| format!("{n}x{s} {k}"))
        .collect::<Vec<_>>()
        .join(", ");
    let disk_list: Vec<Value> = bm
        .disks
        .iter()
        .map(|(n, s, k)| json!({"amount": n, "size": format!("{s} {k}")}))
        .collect();
    let mut pack = Map::new();
    pack.insert("reference".into(), reference.clone());
    pack.insert(
        "bareMetalId".into(),
        id_spelt(v, &q::BM_PACK_ID, bm.i, bm.id),
    );
    pack.insert("serverName".into(), json!(bm.name));
    pack.insert("serverType".into(), json!(bm.server_type));
    pack.insert(
        "serverPrice".into(),
        v.money(&q::BM_PRICE, rec, bm.price_cents),
    );
    pack.insert("startDate".into(), json!(fmt_local(bm.start)));
    end_date_variant(
        &mut pack,
        "endDate",
        v.pick(&q::BM_END_DATE, rec),
        bm.start + bm.term_years * YEAR,
        true,
    );
    pack.insert(
        "contractTerm".into(),
        json!(contract_term_str(bm.term_years)),
    );
    let ipmi_net = gateway_of(&bm.ipmi_ip).replace(".254", ".0");
    json!({
        "bareMetalId": id_spelt(v, &q::BM_ID, bm.i, bm.id),
        "serverName": bm.name,
        "serverType": bm.server_type,
        "reference": reference,
        "location": {
            "site": bm.site,
            "cabinet": bm.cabinet,
            "rackspace": "",
            "combinationLock": "",
        },
        "server": {
            "ram": bm.ram,
            "kvm": if bm.i.is_multiple_of(2) { "Yes" } else { "No" },
            "serverType": bm.server_type,
            "processorType": bm.cpu,
            "processorSpeed": bm.cpu_speed,
            "numberOfCpus": v.int(&q::BM_CPU_COUNTS, rec, bm.cpus as i64),
            "numberOfCores": v.int(&q::BM_CPU_COUNTS, rec, bm.cores as i64),
            "hardDisks": hard_disks,
            "hardDiskList": disk_list,
            "hardwareRaid": if bm.i.is_multiple_of(3) { "Yes" } else { "No" },
        },
        "network": {
            "dataPack": bm.data_pack,
            "ipsFreeOfCharge": v.int(&q::BM_IP_COUNTS, rec, 1),
            "ipsAssigned": v.int(&q::BM_IP_COUNTS, rec, bm.ip_count as i64),
            "excessIpsPrice": v.money(&q::BM_EXCESS_IP_PRICE, rec, 150),
            "dataPackExcess": if bm.bandwidth_pack {
                json!({"type": "bandwidth", "value": v.money(&q::BM_EXCESS_VALUE, rec, 250), "unit": "Mbps"})
            } else {
                json!({"type": "datatraffic", "value": v.money(&q::BM_EXCESS_VALUE, rec, 49), "unit": "GB"})
            },
            "ipmi": {
                "ip": bm.ipmi_ip,
                "netmask": "255.255.255.0",
                "network": ipmi_net,
                "gateway": gateway_of(&bm.ipmi_ip),
                "type": if bm.i.is_multiple_of(2) { "ILO" } else { "DRAC" },
            },
            "macAddresses": {"mac": bm.macs},
            "pricePerMonth": v.money(&q::BM_NETWORK_PRICE, rec, if bm.bandwidth_pack { 0 } else { 2900 }),
        },
        "serverHostingPack": Value::Object(pack),
        "serviceLevelAgreement": {"sla": bm.sla, "pricePerMonth": v.money(&q::BM_SLA_PRICE, rec, bm.sla_price_cents)},
        "extras": [],
        "serverSpecifications": {},
        "datacenterAccessCards": [],
    })
}

// -------------------------------------------------------------- handlers

pub(crate) fn list_bm(cx: &Cx<'_>) -> Result<Response, ApiError> {
    let st = cx.state();
    let items = (0..cx.ds().bare_metals).map(|i| {
        let bm = bm_facts(cx.ds(), i);
        json!({"bareMetal": {
            "bareMetalId": id_spelt(cx.var(), &q::BM_ID_LIST, i, bm.id),
            "serverName": bm.name,
            "serverType": bm.server_type,
            "reference": bm_reference(cx.var(), &st, &bm),
        }})
    });
    Ok(util::ok_list(r#"{"bareMetals":["#, items, "]}"))
}

pub(crate) fn get_bm(cx: &Cx<'_>, id: &str) -> Result<Response, ApiError> {
    let i = bm_index(cx, id)?;
    let bm = bm_facts(cx.ds(), i);
    let st = cx.state();
    Ok(ok(&json!({"bareMetal": bm_detail(cx.var(), &st, &bm)})))
}

pub(crate) fn put_bm(cx: &Cx<'_>, req: &Req, id: &str) -> Result<Response, ApiError> {
    let i = bm_index(cx, id)?;
    let form = req.form()?;
    let reference = form
        .get("reference")
        .ok_or_else(|| ApiError::bad_field("reference", "is required"))?;
    check_reference(reference)?;
    let bm = bm_facts(cx.ds(), i);
    let mut st = cx.state();
    st.bare_metals.entry(i).or_default().reference = Some(Some(reference.to_string()));
    cx.log(&mut st, format!("bareMetal {} reference", bm.id));
    Ok(ok(&json!({"bareMetal": bm_detail(cx.var(), &st, &bm)})))
}

pub(crate) fn switch_port(cx: &Cx<'_>, id: &str, set: Option<bool>) -> Result<Response, ApiError> {
    let i = bm_index(cx, id)?;
    let bm = bm_facts(cx.ds(), i);
    let mut st = cx.state();
    if let Some(open) = set {
        st.bare_metals.entry(i).or_default().switch_open = Some(open);
        cx.log(
            &mut st,
            format!(
                "bareMetal {} switchPort {}",
                bm.id,
                if open { "open" } else { "close" }
            ),
        );
    }
    let open = st
        .bare_metals
        .get(&i)
        .and_then(|o| o.switch_open)
        .unwrap_or(i % 11 != 10);
    Ok(ok(&json!({"switchPort": {
        "status": if open { "open" } else { "closed" },
        "serverId": bm.id,
        "serverName": bm.name,
        "switchNode": bm.switch_node,
    }})))
}

pub(crate) fn power_status(cx: &Cx<'_>, id: &str) -> Result<Response, ApiError> {
    let i = bm_index(cx, id)?;
    let bm = bm_facts(cx.ds(), i);
    let on = match cx.state().bare_metals.get(&i).and_then(|o| o.power_on_at) {
        Some(at) => cx.now >= at,
        None => i % 17 != 16,
    };
    Ok(ok(&json!({"powerStatus": {
        "status": if on { "on" } else { "off" },
        "serverId": bm.id,
        "serverName": bm.name,
    }})))
}

pub(crate) fn power_cycle(cx: &Cx<'_>, id: &str) -> Result<Response, ApiError> {
    let i = bm_index(cx, id)?;
    let mut st = cx.state();
    let now = cx.now;
    let o = st.bare_metals.entry(i).or_default();
    o.power_cycles += 1;
    // Off for a while, then on (a server that was off comes on); a booted
    // rescue mode ends with the reboot.
    o.power_on_at = Some(now + crate::POWER_CYCLE_SECS);
    if o.task.as_ref().is_some_and(|t| t.rescue && now >= t.until) {
        o.in_rescue = false;
    }
    cx.log(&mut st, format!("bareMetal {id} powerCycle"));
    Ok(util::json(StatusCode::ACCEPTED, &json!({})))
}
