//! One committed write as a record of the change log: the keys it changed
//! (with their new values; a DNS zone by the records that changed), the
//! scalar fields when they changed, the write log entries it added, and the
//! simulated and wall time it was made at. Also what undoes it, and the
//! state's size in bytes kept up to date from the same changes.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::WriteRecord;
use crate::state::{
    BmOver, CloudOver, Dataset, DnsRec, DomainOver, IpOver, PrivNet, PurgeJob, State, V1VsOver,
};
use crate::tracked::Tracked;
use crate::tracked_domains::DomainUndo;

/// The fields of [`State`] that are not maps.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Scalars {
    next_private_network: u64,
    next_dns_record: u64,
    acl: Value,
    next_origin: u64,
    next_purge: u64,
    next_job: u64,
    write_seq: u64,
}

impl Scalars {
    fn of(st: &State) -> Scalars {
        Scalars {
            next_private_network: st.next_private_network,
            next_dns_record: st.next_dns_record,
            acl: st.acl.clone(),
            next_origin: st.next_origin,
            next_purge: st.next_purge,
            next_job: st.next_job,
            write_seq: st.write_seq,
        }
    }

    fn set(self, st: &mut State) {
        st.next_private_network = self.next_private_network;
        st.next_dns_record = self.next_dns_record;
        st.acl = self.acl;
        st.next_origin = self.next_origin;
        st.next_purge = self.next_purge;
        st.next_job = self.next_job;
        st.write_seq = self.write_seq;
    }
}

/// What the last commit left: the scalar fields as saved, the size of the
/// state, and the write log entries dropped since (to undo a drop).
#[derive(Debug, Default)]
pub(crate) struct Base {
    scalars: Option<Scalars>,
    /// The state's size as exported, in bytes (close; see [`json_len`]).
    pub(crate) bytes: usize,
    /// Write log entries dropped from the front since the last commit.
    pub(crate) popped: Vec<WriteRecord>,
}

/// A change to a DNS zone's records: the records that are new or changed,
/// and the ids removed. Applying it keeps the order (changed records stay
/// in place, new ones go last).
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RecordsDiff {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    put: Vec<DnsRec>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    del: Vec<u64>,
}

/// A change to one domain.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct DomainChange {
    ttl: Option<i64>,
    /// None: the generated records hold.
    records: Option<RecordsDiff>,
}

/// One record of the change log.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Change {
    /// 1-based, increasing; a snapshot's `logSeq` says which are in it.
    pub(crate) seq: u64,
    /// Simulated time when the change was committed.
    #[serde(rename = "simTime")]
    pub(crate) sim_time: f64,
    /// Wall time (Unix seconds) when the change was committed.
    #[serde(rename = "wallTime")]
    pub(crate) wall_time: f64,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    cloud: Vec<(usize, Option<CloudOver>)>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    v1_vs: Vec<(usize, Option<V1VsOver>)>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    domains: Vec<(usize, Option<DomainChange>)>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    bare_metals: Vec<(usize, Option<BmOver>)>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    ips: Vec<(String, Option<IpOver>)>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    private_networks: Vec<(u64, Option<PrivNet>)>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    sub_customers: Vec<(String, Option<Value>)>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    origins: Vec<(u64, Option<Value>)>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    purge_jobs: Vec<(u64, Option<PurgeJob>)>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    scalars: Option<Scalars>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    writes: Vec<WriteRecord>,
}

/// The old values of what one commit changed.
#[derive(Debug, Default)]
pub(crate) struct KeyUndo {
    cloud: BTreeMap<usize, Option<CloudOver>>,
    v1_vs: BTreeMap<usize, Option<V1VsOver>>,
    domains: BTreeMap<usize, DomainUndo>,
    bare_metals: BTreeMap<usize, Option<BmOver>>,
    ips: BTreeMap<String, Option<IpOver>>,
    private_networks: BTreeMap<u64, Option<PrivNet>>,
    sub_customers: BTreeMap<String, Option<Value>>,
    origins: BTreeMap<u64, Option<Value>>,
    purge_jobs: BTreeMap<u64, Option<PurgeJob>>,
    scalars: Option<Scalars>,
    added_writes: usize,
    popped: Vec<WriteRecord>,
    /// The state's size before the commit.
    pub(crate) bytes: usize,
    /// Simulated seconds the clock was moved forward by this commit.
    pub(crate) advanced: f64,
}

/// How to undo one commit.
#[derive(Debug)]
pub(crate) enum Undo {
    /// Put these keys and fields back.
    Keys(Box<KeyUndo>),
    /// A reset or an import: the state, dataset and simulated time before.
    Whole {
        state: Box<State>,
        ds: Arc<Dataset>,
        sim_time: f64,
    },
}

/// Counts the bytes serde_json writes.
struct Counter(usize);

impl std::io::Write for Counter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0 += buf.len();
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Length of `v` as compact JSON, without building it.
pub(crate) fn json_len<T: Serialize + ?Sized>(v: &T) -> usize {
    let mut c = Counter(0);
    let _ = serde_json::to_writer(&mut c, v);
    c.0
}

/// Bytes a map entry takes in the document (quoted key, colon, comma).
fn entry_len<K: Serialize, V: Serialize>(k: &K, v: Option<&V>) -> usize {
    v.map_or(0, |v| json_len(k) + 4 + json_len(v))
}

/// Bytes a domain takes: its fields and each record (so a change of some
/// records changes it by theirs).
fn domain_len(k: &usize, d: Option<&DomainOver>) -> usize {
    d.map_or(0, |d| {
        json_len(k)
            + 36
            + json_len(&d.ttl)
            + d.records
                .iter()
                .flatten()
                .map(|r| json_len(r) + 1)
                .sum::<usize>()
    })
}

fn map_len<K: Serialize, V: Serialize>(m: &Tracked<K, V>) -> usize {
    m.iter().map(|(k, v)| entry_len(k, Some(v))).sum()
}

/// The state's size in bytes, counted from scratch.
pub(crate) fn state_len(st: &State) -> usize {
    256 + map_len(&st.cloud)
        + map_len(&st.v1_vs)
        + st.domains
            .iter()
            .map(|(k, d)| domain_len(k, Some(d)))
            .sum::<usize>()
        + map_len(&st.bare_metals)
        + map_len(&st.ips)
        + map_len(&st.private_networks)
        + map_len(&st.sub_customers)
        + map_len(&st.origins)
        + map_len(&st.purge_jobs)
        + json_len(&Scalars::of(st))
        + st.writes.iter().map(|w| json_len(w) + 1).sum::<usize>()
}

/// Make the current state the committed one: forget what the maps
/// remember, count the bytes afresh (after a load, reset or import).
pub(crate) fn rebase(st: &mut State) {
    st.cloud.take_undo();
    st.v1_vs.take_undo();
    st.domains.take_undo();
    st.bare_metals.take_undo();
    st.ips.take_undo();
    st.private_networks.take_undo();
    st.sub_customers.take_undo();
    st.origins.take_undo();
    st.purge_jobs.take_undo();
    st.base = Base {
        scalars: Some(Scalars::of(st)),
        bytes: state_len(st),
        popped: Vec::new(),
    };
}

/// Keys changed in one map: their new values, their old ones, and the
/// change in bytes.
fn take_map<K, V>(
    m: &mut Tracked<K, V>,
    out: &mut Vec<(K, Option<V>)>,
    delta: &mut isize,
) -> BTreeMap<K, Option<V>>
where
    K: Ord + Clone + Serialize,
    V: Clone + PartialEq + Serialize,
{
    let undo = m.take_undo();
    for (k, old) in &undo {
        let new = m.get(k);
        if new == old.as_ref() {
            continue;
        }
        *delta += entry_len(k, new) as isize - entry_len(k, old.as_ref()) as isize;
        out.push((k.clone(), new.cloned()));
    }
    undo
}

/// What changed in one zone's records since the last commit: the records
/// touched that are new or changed (in the zone's order) and the ids of
/// those removed.
fn diff_records(u: &DomainUndo, new: &[DnsRec], delta: &mut isize) -> RecordsDiff {
    let touched = u.touched_ids();
    let mut diff = RecordsDiff::default();
    let mut present = Vec::with_capacity(touched.len());
    for r in new.iter().filter(|r| touched.binary_search(&r.id).is_ok()) {
        present.push(r.id);
        let old = u.old_record(r.id);
        if old == Some(r) {
            continue;
        }
        *delta += json_len(r) as isize + 1;
        if let Some(o) = old {
            *delta -= json_len(o) as isize + 1;
        }
        diff.put.push(r.clone());
    }
    for id in touched.iter().filter(|id| !present.contains(id)) {
        if let Some(o) = u.old_record(*id) {
            *delta -= json_len(o) as isize + 1;
            diff.del.push(*id);
        }
    }
    diff
}

/// Every record of a zone materialised in this commit (the generated ones
/// held before).
fn all_records(new: &[DnsRec], delta: &mut isize) -> RecordsDiff {
    *delta += new.iter().map(|r| json_len(r) as isize + 1).sum::<isize>();
    RecordsDiff {
        put: new.to_vec(),
        del: Vec::new(),
    }
}

fn take_domains(
    st: &mut State,
    out: &mut Vec<(usize, Option<DomainChange>)>,
    delta: &mut isize,
) -> BTreeMap<usize, DomainUndo> {
    let undo = st.domains.take_undo();
    for (k, u) in &undo {
        // Domains are changed, never removed, by a write.
        let Some(d) = st.domains.get(k) else {
            continue;
        };
        let shell = |ttl: Option<Option<i64>>| {
            ttl.map_or(0, |ttl| json_len(k) + 36 + json_len(&ttl)) as isize
        };
        let records = d.records.as_deref().map(|recs| {
            if u.was_generated() {
                all_records(recs, delta)
            } else {
                diff_records(u, recs, delta)
            }
        });
        let unchanged = u.old_ttl() == Some(d.ttl)
            && records
                .as_ref()
                .is_none_or(|r| r.put.is_empty() && r.del.is_empty());
        if unchanged {
            continue;
        }
        *delta += shell(Some(d.ttl)) - shell(u.old_ttl());
        out.push((
            *k,
            Some(DomainChange {
                ttl: d.ttl,
                records,
            }),
        ));
    }
    undo
}

/// Turn what changed since the last commit into a change record and its
/// undo, and move the base on. Answers them with the state's new size.
pub(crate) fn take(st: &mut State, seq: u64, sim_time: f64, wall_time: f64) -> (Change, KeyUndo) {
    let mut c = Change {
        seq,
        sim_time,
        wall_time,
        ..Change::default()
    };
    let mut delta: isize = 0;
    let mut u = KeyUndo {
        bytes: st.base.bytes,
        ..KeyUndo::default()
    };
    u.cloud = take_map(&mut st.cloud, &mut c.cloud, &mut delta);
    u.v1_vs = take_map(&mut st.v1_vs, &mut c.v1_vs, &mut delta);
    u.domains = take_domains(st, &mut c.domains, &mut delta);
    u.bare_metals = take_map(&mut st.bare_metals, &mut c.bare_metals, &mut delta);
    u.ips = take_map(&mut st.ips, &mut c.ips, &mut delta);
    u.private_networks = take_map(
        &mut st.private_networks,
        &mut c.private_networks,
        &mut delta,
    );
    u.sub_customers = take_map(&mut st.sub_customers, &mut c.sub_customers, &mut delta);
    u.origins = take_map(&mut st.origins, &mut c.origins, &mut delta);
    u.purge_jobs = take_map(&mut st.purge_jobs, &mut c.purge_jobs, &mut delta);
    let now = Scalars::of(st);
    let old = st.base.scalars.take();
    let old_seq = old.as_ref().map_or(0, |s| s.write_seq);
    if old.as_ref() != Some(&now) {
        delta += json_len(&now) as isize - old.as_ref().map_or(0, |o| json_len(o) as isize);
        c.scalars = Some(now.clone());
    }
    u.scalars = old;
    st.base.scalars = Some(now);
    let added = (st.write_seq.saturating_sub(old_seq) as usize).min(st.writes.len());
    c.writes = st
        .writes
        .iter()
        .skip(st.writes.len() - added)
        .cloned()
        .collect();
    delta += c
        .writes
        .iter()
        .map(|w| json_len(w) as isize + 1)
        .sum::<isize>();
    u.added_writes = added;
    u.popped = std::mem::take(&mut st.base.popped);
    delta -= u
        .popped
        .iter()
        .map(|w| json_len(w) as isize + 1)
        .sum::<isize>();
    st.base.bytes = (st.base.bytes as isize + delta).max(0) as usize;
    (c, u)
}

/// Undo one commit (the newest not yet undone).
pub(crate) fn undo_keys(st: &mut State, u: KeyUndo) {
    st.cloud.restore(u.cloud);
    st.v1_vs.restore(u.v1_vs);
    st.domains.restore(u.domains);
    st.bare_metals.restore(u.bare_metals);
    st.ips.restore(u.ips);
    st.private_networks.restore(u.private_networks);
    st.sub_customers.restore(u.sub_customers);
    st.origins.restore(u.origins);
    st.purge_jobs.restore(u.purge_jobs);
    if let Some(s) = &u.scalars {
        s.clone().set(st);
    }
    st.base.scalars = u.scalars;
    for _ in 0..u.added_writes {
        st.writes.pop_back();
    }
    for w in u.popped.into_iter().rev() {
        st.writes.push_front(w);
    }
    st.base.bytes = u.bytes;
}

fn apply_map<K: Ord + Clone, V: Clone>(m: &mut Tracked<K, V>, changes: Vec<(K, Option<V>)>) {
    for (k, v) in changes {
        m.apply(k, v);
    }
}

/// Apply a change record read back from the log.
pub(crate) fn apply(st: &mut State, c: Change) {
    apply_map(&mut st.cloud, c.cloud);
    apply_map(&mut st.v1_vs, c.v1_vs);
    for (k, d) in c.domains {
        let Some(d) = d else {
            st.domains.apply(k, None);
            continue;
        };
        let dom = st.domains.raw_mut().entry(k).or_default();
        dom.ttl = d.ttl;
        dom.records = d.records.map(|diff| {
            let mut recs = dom.records.take().unwrap_or_default();
            recs.retain(|r| !diff.del.contains(&r.id));
            for p in diff.put {
                match recs.iter_mut().find(|r| r.id == p.id) {
                    Some(r) => *r = p,
                    None => recs.push(p),
                }
            }
            recs
        });
    }
    apply_map(&mut st.bare_metals, c.bare_metals);
    apply_map(&mut st.ips, c.ips);
    apply_map(&mut st.private_networks, c.private_networks);
    apply_map(&mut st.sub_customers, c.sub_customers);
    apply_map(&mut st.origins, c.origins);
    apply_map(&mut st.purge_jobs, c.purge_jobs);
    if let Some(s) = c.scalars {
        s.set(st);
    }
    for w in c.writes {
        if st.writes.len() >= crate::WRITE_LOG_CAP {
            st.writes.pop_front();
        }
        st.writes.push_back(w);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(id: u64, content: &str) -> DnsRec {
        DnsRec {
            id,
            host: "a.example".into(),
            rtype: "TXT".into(),
            content: content.into(),
            priority: None,
        }
    }

    fn copy(st: &State) -> State {
        serde_json::from_value(serde_json::to_value(st).expect("state to JSON"))
            .expect("state from JSON")
    }

    /// Commit what changed in `st`: the change record, read back from its
    /// JSON, must turn `saved` (the state as of the last commit) into `st`,
    /// and the counted size must match a count from scratch.
    fn commit_and_check(st: &mut State, saved: &mut State, seq: u64) {
        let (c, _undo) = take(st, seq, 0.0, 0.0);
        let line = serde_json::to_string(&c).expect("change to JSON");
        apply(
            saved,
            serde_json::from_str(&line).expect("change from JSON"),
        );
        assert_eq!(
            serde_json::to_value(&*saved).expect("saved"),
            serde_json::to_value(&*st).expect("state"),
            "after change {line}"
        );
        assert_eq!(st.base.bytes, state_len(st), "size after change {line}");
    }

    #[test]
    fn a_zone_change_is_saved_record_by_record_and_sized_exactly() {
        let mut st = State::default();
        rebase(&mut st);
        let mut saved = copy(&st);
        let generated = || (1..=5).map(|k| rec(k, "gen")).collect::<Vec<_>>();
        // The first write materialises the zone: every record is saved.
        st.domains.records_mut(3, generated).push(rec(100, "new"));
        commit_and_check(&mut st, &mut saved, 1);
        // Then only the records touched.
        st.domains
            .records_mut(3, generated)
            .replace(1, rec(2, "changed"));
        let (c, u) = {
            let (c, u) = take(&mut st, 2, 0.0, 0.0);
            (serde_json::to_value(&c).expect("JSON"), u)
        };
        assert_eq!(
            c["domains"][0][1]["records"]["put"]
                .as_array()
                .map(Vec::len),
            Some(1),
            "{c}"
        );
        // (undo it, and redo it through the checked path)
        undo_keys(&mut st, u);
        assert_eq!(st.base.bytes, state_len(&st));
        st.domains
            .records_mut(3, generated)
            .replace(1, rec(2, "changed"));
        commit_and_check(&mut st, &mut saved, 2);
        {
            let mut r = st.domains.records_mut(3, generated);
            r.remove(0);
            r.push(rec(101, "newer"));
            r.replace(0, rec(2, "changed again, and longer"));
        }
        st.domains.set_ttl(3, Some(600));
        commit_and_check(&mut st, &mut saved, 3);
        // A change that puts back what was: nothing to save.
        st.domains
            .records_mut(3, generated)
            .replace(0, rec(2, "other"));
        st.domains
            .records_mut(3, generated)
            .replace(0, rec(2, "changed again, and longer"));
        let (c, _) = take(&mut st, 4, 0.0, 0.0);
        assert!(c.domains.is_empty(), "{c:?}");
        // A TTL alone leaves the generated records of another zone.
        st.domains.set_ttl(7, Some(900));
        commit_and_check(&mut st, &mut saved, 5);
        assert!(st.domains[&7].records.is_none());
    }
}
