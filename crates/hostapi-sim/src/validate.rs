//! The invariants of an imported or loaded state, checked after its types:
//! times in range, indexes within the dataset, ids unique and below the
//! next id handed out, contents and counts within the caps the API
//! enforces. Each error names the JSON path of what is wrong.

use std::collections::HashSet;

use serde_json::Value;

use crate::change::json_len;
use crate::state::{Dataset, LONG_AGO, State};

/// Latest accepted simulated time: the end of year 9999, the last date
/// every field can show.
pub(crate) const MAX_TIME: f64 = 253_402_300_799.0;

/// Largest JSON size of one stored CDN origin, sub-customer or lease (the
/// API caps their fields in characters; escaped, they stay below this).
const MAX_VALUE_BYTES: usize = 64 << 10;
/// Largest stored write log text, in characters.
const MAX_TEXT_CHARS: usize = 4096;

/// The clock (`simTime`, `savedAt`): a Unix time from 1970 to 9999.
pub(crate) fn check_time(path: &str, t: f64) -> Result<(), String> {
    if t.is_finite() && (0.0..=MAX_TIME).contains(&t) {
        Ok(())
    } else {
        Err(format!(
            "{path}: must be a Unix time from 0 to {MAX_TIME} (the year 9999), got {t}"
        ))
    }
}

/// A time stored in a record: as the clock, or "long ago".
fn record_time(path: &str, t: f64) -> Result<(), String> {
    if t.is_finite() && (LONG_AGO..=MAX_TIME).contains(&t) {
        Ok(())
    } else {
        Err(format!(
            "{path}: must be a Unix time from {LONG_AGO} to {MAX_TIME}, got {t}"
        ))
    }
}

fn index(path: &str, i: usize, count: usize, what: &str) -> Result<(), String> {
    if i < count {
        Ok(())
    } else {
        Err(format!(
            "{path}: no {what} with index {i} (the dataset has {count})"
        ))
    }
}

fn text(path: &str, s: &str, max: usize) -> Result<(), String> {
    let n = s.chars().count();
    if n <= max {
        Ok(())
    } else {
        Err(format!("{path}: at most {max} characters, got {n}"))
    }
}

fn small(path: &str, v: &Value) -> Result<(), String> {
    if !v.is_object() {
        return Err(format!("{path}: must be an object"));
    }
    let n = json_len(v);
    if n > MAX_VALUE_BYTES {
        return Err(format!("{path}: at most {MAX_VALUE_BYTES} bytes, got {n}"));
    }
    Ok(())
}

fn count(path: &str, n: usize, max: usize) -> Result<(), String> {
    if n <= max {
        Ok(())
    } else {
        Err(format!("{path}: at most {max} entries, got {n}"))
    }
}

/// The next id handed out must be above every id in use.
fn next_above(path: &str, next: u64, max_used: Option<u64>) -> Result<(), String> {
    match max_used {
        Some(m) if next <= m => Err(format!(
            "{path}: {next} is not above the largest id in use ({m}): the next create would overwrite it"
        )),
        _ => Ok(()),
    }
}

/// Check every invariant of `st` over the dataset `ds`.
pub(crate) fn check_state(ds: &Dataset, st: &State) -> Result<(), String> {
    for (i, o) in st.cloud.iter() {
        let p = format!("state.cloud.{i}");
        index(&p, *i, ds.cloud, "cloud server")?;
        if let Some(Some(r)) = &o.reference {
            text(&format!("{p}.reference"), r, 255)?;
        }
        for (k, (_, t)) in o.power.iter().flat_map(|t| t.steps.iter()).enumerate() {
            record_time(&format!("{p}.power.steps[{k}]"), *t)?;
        }
    }
    for (i, o) in st.v1_vs.iter() {
        let p = format!("state.v1_vs.{i}");
        index(&p, *i, ds.v1_vs, "v1 virtual server")?;
        for (k, (_, t)) in o.steps.iter().enumerate() {
            record_time(&format!("{p}.steps[{k}]"), *t)?;
        }
    }
    check_domains(ds, st)?;
    for (i, o) in st.bare_metals.iter() {
        let p = format!("state.bare_metals.{i}");
        index(&p, *i, ds.bare_metals, "bare metal")?;
        if let Some(Some(r)) = &o.reference {
            text(&format!("{p}.reference"), r, 255)?;
        }
        if let Some(t) = &o.task {
            record_time(&format!("{p}.task.until"), t.until)?;
        }
        if let Some(t) = o.power_on_at {
            record_time(&format!("{p}.power_on_at"), t)?;
        }
        if let Some(os) = o.os_id
            && crate::v1::catalogue::os_entry(os).is_none()
        {
            return Err(format!("{p}.os_id: no operating system {os}"));
        }
        if let Some(leases) = &o.leases {
            count(&format!("{p}.leases"), leases.len(), 64)?;
            for (k, l) in leases.iter().enumerate() {
                small(&format!("{p}.leases[{k}]"), l)?;
            }
        }
    }
    for (ip, o) in st.ips.iter() {
        let p = format!("state.ips.{ip}");
        if !(crate::util::is_ipv4(ip) || crate::util::is_ipv6(ip)) {
            return Err(format!("{p}: not an IP address"));
        }
        if let Some(r) = &o.reverse {
            text(&format!("{p}.reverse"), r, 255)?;
        }
    }
    count(
        "state.private_networks",
        st.private_networks.len(),
        crate::MAX_CREATED,
    )?;
    for (id, n) in st.private_networks.iter() {
        let p = format!("state.private_networks.{id}");
        if n.id != *id {
            return Err(format!("{p}.id: {} differs from its key {id}", n.id));
        }
        text(&format!("{p}.name"), &n.name, 255)?;
        record_time(&format!("{p}.created"), n.created)?;
        record_time(&format!("{p}.updated"), n.updated)?;
        let mut seen = HashSet::new();
        for (k, m) in n.members.iter().enumerate() {
            let mp = format!("{p}.members[{k}]");
            index(&format!("{mp}.bm"), m.bm, ds.bare_metals, "bare metal")?;
            if !seen.insert(m.bm) {
                return Err(format!(
                    "{mp}.bm: bare metal index {} is a member twice",
                    m.bm
                ));
            }
            record_time(&format!("{mp}.added"), m.added)?;
            if let Some(t) = m.removing {
                record_time(&format!("{mp}.removing"), t)?;
            }
        }
    }
    next_above(
        "state.next_private_network",
        st.next_private_network,
        st.private_networks.keys().next_back().copied(),
    )?;
    count(
        "state.sub_customers",
        st.sub_customers.len(),
        crate::MAX_CREATED,
    )?;
    for (k, v) in st.sub_customers.iter() {
        let p = format!("state.sub_customers.{k}");
        if k.is_empty() || k.len() > 20 || !k.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!("{p}: a sub-customer number is 1 to 20 digits"));
        }
        small(&p, v)?;
    }
    crate::cdn::check_stored_acl(&st.acl).map_err(|e| format!("state.acl{e}"))?;
    count("state.origins", st.origins.len(), crate::MAX_CREATED)?;
    for (id, o) in st.origins.iter() {
        let p = format!("state.origins.{id}");
        small(&p, o)?;
        if o.get("id").and_then(Value::as_u64) != Some(*id) {
            return Err(format!("{p}.id: must be {id}, its key"));
        }
    }
    next_above(
        "state.next_origin",
        st.next_origin,
        st.origins.keys().next_back().copied(),
    )?;
    count(
        "state.purge_jobs",
        st.purge_jobs.len(),
        crate::PURGE_HISTORY_CAP,
    )?;
    for (id, j) in st.purge_jobs.iter() {
        let p = format!("state.purge_jobs.{id}");
        if !crate::cdn::ZONES.contains(&j.zone) {
            return Err(format!("{p}.zone: no zone {}", j.zone));
        }
        crate::cdn::check_purge_urls(&j.urls).map_err(|e| format!("{p}.urls: {e}"))?;
        record_time(&format!("{p}.created"), j.created)?;
    }
    next_above(
        "state.next_purge",
        st.next_purge,
        st.purge_jobs.keys().next_back().copied(),
    )?;
    count("state.writes", st.writes.len(), crate::WRITE_LOG_CAP)?;
    let mut prev = 0;
    for (k, w) in st.writes.iter().enumerate() {
        let p = format!("state.writes[{k}]");
        if w.seq <= prev {
            return Err(format!(
                "{p}.seq: {} is not above the one before ({prev})",
                w.seq
            ));
        }
        prev = w.seq;
        text(&format!("{p}.operation"), &w.operation, MAX_TEXT_CHARS)?;
        text(&format!("{p}.target"), &w.target, MAX_TEXT_CHARS)?;
        record_time(&format!("{p}.sim_time"), w.sim_time)?;
    }
    if st.write_seq < prev {
        return Err(format!(
            "state.write_seq: {} is below the last write's seq ({prev})",
            st.write_seq
        ));
    }
    let bytes = crate::change::state_len(st);
    if bytes > crate::MAX_STATE_BYTES {
        return Err(format!(
            "state: {bytes} bytes, more than the simulator holds ({} MiB)",
            crate::MAX_STATE_BYTES >> 20
        ));
    }
    Ok(())
}

fn check_domains(ds: &Dataset, st: &State) -> Result<(), String> {
    let base = crate::v1::DNS_NEW_BASE;
    let mut created = 0usize;
    let mut max_new: Option<u64> = None;
    let mut ids = HashSet::new();
    for (i, d) in st.domains.iter() {
        let p = format!("state.domains.{i}");
        index(&p, *i, ds.domains, "domain")?;
        if let Some(ttl) = d.ttl
            && !(60..=86_400).contains(&ttl)
        {
            return Err(format!("{p}.ttl: must be between 60 and 86400, got {ttl}"));
        }
        for (k, r) in d.records.iter().flatten().enumerate() {
            let rp = format!("{p}.records[{k}]");
            if !ids.insert(r.id) {
                return Err(format!("{rp}.id: record id {} is used twice", r.id));
            }
            if r.id > base {
                created += 1;
                max_new = max_new.max(Some(r.id - base));
            }
            crate::v1::domains::validate_record(
                &r.host,
                &format!("{rp}.host"),
                &r.rtype,
                &r.content,
                &format!("{rp}.content"),
                r.priority.map(|p| p.to_string()).as_deref(),
            )
            .map_err(|e| e.message)?;
        }
    }
    count(
        "state.domains (created DNS records)",
        created,
        crate::MAX_CREATED,
    )?;
    // The next record's id is DNS_NEW_BASE + next_dns_record + 1.
    match max_new {
        Some(m) if st.next_dns_record < m => Err(format!(
            "state.next_dns_record: {} is below the largest created record's ({m}, id {}): the next create would overwrite it",
            st.next_dns_record,
            base + m
        )),
        _ => Ok(()),
    }
}
