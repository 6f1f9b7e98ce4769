//! The simulator's mutable state: an overlay of changes over the lazily
//! generated dataset, plus the small collections that are materialised
//! (private networks, CDN sub-customers, origins, purge jobs, ACL).

use std::cell::Cell;
use std::collections::VecDeque;
use std::sync::{Mutex, MutexGuard};
use std::time::Instant;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::WriteRecord;
use crate::tracked::Tracked;

/// How many records of each kind the dataset has, derived from `size`.
#[derive(Debug, Clone)]
pub(crate) struct Dataset {
    pub(crate) seed: u64,
    /// The size knob as given (0 = the default).
    pub(crate) size: usize,
    pub(crate) cloud: usize,
    pub(crate) v1_vs: usize,
    pub(crate) bare_metals: usize,
    pub(crate) domains: usize,
    pub(crate) racks: usize,
    pub(crate) private_clouds: usize,
    /// The v1 customer number (administrativeInfo, private networks).
    pub(crate) customer_number: String,
    /// The cloud customer id.
    pub(crate) cloud_customer: String,
    /// Which documented alternative each record's fields are sent in.
    pub(crate) variants: crate::variants::Variants,
}

impl Dataset {
    pub(crate) fn new(seed: u64, size: usize) -> Self {
        let n = if size == 0 { crate::DEFAULT_SIZE } else { size };
        let h = crate::util::hash3(seed, crate::util::kind::SECRET, 99);
        let (v1_vs, bare_metals, domains) =
            ((n / 10).max(20), (n / 100).max(20), (n / 100).max(20));
        let (racks, private_clouds) = ((n / 1000).max(10), (n / 1000).max(10));
        Dataset {
            seed,
            size,
            cloud: n,
            v1_vs,
            bare_metals,
            domains,
            racks,
            private_clouds,
            customer_number: format!("{}", 10_000_000 + h % 90_000_000),
            cloud_customer: format!("{}", 10_000_000 + (h >> 32) % 90_000_000),
            variants: crate::variants::Variants::new(
                seed,
                v1_vs,
                domains,
                bare_metals,
                racks,
                n,
                private_clouds,
            ),
        }
    }
}

/// The simulated clock: simulated seconds = real seconds × `scale`,
/// starting at the real wall clock when the simulator starts, plus any
/// seconds the control API moved it forward (or a state file set it to).
#[derive(Debug)]
pub(crate) struct Clock {
    start: Instant,
    /// Simulated time at `start`.
    base: Mutex<f64>,
    pub(crate) scale: f64,
}

impl Clock {
    pub(crate) fn new(scale: f64) -> Self {
        Clock {
            start: Instant::now(),
            base: Mutex::new(wall_now()),
            scale,
        }
    }

    /// Simulated Unix time in seconds.
    pub(crate) fn now(&self) -> f64 {
        *lock(&self.base) + self.start.elapsed().as_secs_f64() * self.scale
    }

    /// Move simulated time forward by `secs` (≥ 0); answers the new time.
    pub(crate) fn advance(&self, secs: f64) -> f64 {
        let mut b = lock(&self.base);
        *b += secs.max(0.0);
        *b + self.start.elapsed().as_secs_f64() * self.scale
    }

    /// Move simulated time back by `secs` (undoing an advance).
    pub(crate) fn rewind(&self, secs: f64) {
        *lock(&self.base) -= secs.max(0.0);
    }

    /// Make the simulated time `t` now (a state file's time).
    pub(crate) fn set(&self, t: f64) {
        *lock(&self.base) = t - self.start.elapsed().as_secs_f64() * self.scale;
    }
}

/// The real wall clock, Unix seconds.
pub(crate) fn wall_now() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(0.0)
}

/// A state that changes over simulated time: each step holds until its
/// deadline, then `then` holds for ever.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct Timeline {
    pub(crate) steps: Vec<(&'static str, f64)>,
    pub(crate) then: &'static str,
}

/// A [`Timeline`] as stored in a state file (names not yet interned).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TimelineWire {
    steps: Vec<(String, f64)>,
    then: String,
}

/// Every state name a timeline may hold.
const TIMELINE_NAMES: &[&str] = &["STARTING", "RUNNING", "STOPPING", "STOPPED"];

fn intern(name: &str) -> Result<&'static str, String> {
    TIMELINE_NAMES
        .iter()
        .find(|n| **n == name)
        .copied()
        .ok_or_else(|| format!("unknown power state {name:?}"))
}

impl<'de> Deserialize<'de> for Timeline {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let w = TimelineWire::deserialize(d)?;
        Ok(Timeline {
            steps: w
                .steps
                .iter()
                .map(|(n, t)| intern(n).map(|n| (n, *t)))
                .collect::<Result<_, _>>()
                .map_err(serde::de::Error::custom)?,
            then: intern(&w.then).map_err(serde::de::Error::custom)?,
        })
    }
}

impl Timeline {
    pub(crate) fn at(&self, t: f64) -> &'static str {
        for (s, until) in &self.steps {
            if t < *until {
                return s;
            }
        }
        self.then
    }

    pub(crate) fn settled(&self, t: f64) -> bool {
        self.steps.last().map(|(_, u)| t >= *u).unwrap_or(true)
    }
}

/// Changes to one cloud virtual server.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct CloudOver {
    pub(crate) reference: Option<Option<String>>,
    pub(crate) power: Option<Timeline>,
    pub(crate) reinstalls: u32,
}

/// Changes to one v1 virtual server.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct V1VsOver {
    /// Running (true) or Stopped once `steps` are over.
    pub(crate) running: Option<bool>,
    pub(crate) reinstalls: u32,
    pub(crate) reboots: u32,
    /// The state before the settled one: each step (running, until) holds
    /// until its simulated time.
    #[serde(default)]
    pub(crate) steps: Vec<(bool, f64)>,
}

impl V1VsOver {
    /// Running at `t`, or None when the generated state holds.
    pub(crate) fn running_at(&self, t: f64) -> Option<bool> {
        for (r, until) in &self.steps {
            if t < *until {
                return Some(*r);
            }
        }
        self.running
    }
}

/// A DNS record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct DnsRec {
    pub(crate) id: u64,
    pub(crate) host: String,
    pub(crate) rtype: String,
    pub(crate) content: String,
    pub(crate) priority: Option<i64>,
}

/// Changes to one domain; its records are materialised on the first write.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct DomainOver {
    pub(crate) ttl: Option<i64>,
    pub(crate) records: Option<Vec<DnsRec>>,
}

/// A bare metal installation or rescue boot in progress (or finished).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct BmTask {
    pub(crate) rescue: bool,
    pub(crate) until: f64,
}

/// Changes to one bare metal server.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct BmOver {
    pub(crate) reference: Option<Option<String>>,
    pub(crate) switch_open: Option<bool>,
    pub(crate) task: Option<BmTask>,
    pub(crate) installs: u32,
    pub(crate) rescues: u32,
    pub(crate) power_cycles: u32,
    pub(crate) os_id: Option<u64>,
    pub(crate) leases: Option<Vec<Value>>,
    /// The power is off until this simulated time (a power cycle), then on.
    #[serde(default)]
    pub(crate) power_on_at: Option<f64>,
    /// Booted into rescue mode: it ends at the next power cycle or install.
    #[serde(default)]
    pub(crate) in_rescue: bool,
}

/// Changes to one IP address (bare metal, rack or v1 virtual server).
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct IpOver {
    pub(crate) reverse: Option<String>,
    pub(crate) null_routed: Option<bool>,
}

/// A member of a private network.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Member {
    pub(crate) bm: usize,
    pub(crate) added: f64,
    pub(crate) removing: Option<f64>,
}

impl Member {
    /// The member's status at `t`, or None once removal has finished.
    pub(crate) fn status(&self, t: f64) -> Option<&'static str> {
        if let Some(r) = self.removing {
            return (t < r + crate::MEMBER_TRANSITION_SECS).then_some("REMOVING");
        }
        Some(if t < self.added + crate::MEMBER_TRANSITION_SECS {
            "CONFIGURING"
        } else {
            "CONFIGURED"
        })
    }
}

/// A private network.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PrivNet {
    pub(crate) id: u64,
    pub(crate) name: String,
    pub(crate) created: f64,
    pub(crate) updated: f64,
    pub(crate) members: Vec<Member>,
}

/// A CDN purge job.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PurgeJob {
    pub(crate) zone: u64,
    pub(crate) urls: Vec<String>,
    pub(crate) created: f64,
}

/// A simulated time long before any request (finite, so a state file can
/// hold it).
pub(crate) const LONG_AGO: f64 = -1.0e15;

/// Everything mutable. The maps remember what changed since the last
/// commit ([`Tracked`]), so the change log saves only that.
#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct State {
    pub(crate) cloud: Tracked<usize, CloudOver>,
    pub(crate) v1_vs: Tracked<usize, V1VsOver>,
    pub(crate) domains: crate::tracked_domains::TrackedDomains,
    pub(crate) bare_metals: Tracked<usize, BmOver>,
    pub(crate) ips: Tracked<String, IpOver>,
    pub(crate) private_networks: Tracked<u64, PrivNet>,
    pub(crate) next_private_network: u64,
    pub(crate) next_dns_record: u64,
    pub(crate) sub_customers: Tracked<String, Value>,
    pub(crate) acl: Value,
    pub(crate) origins: Tracked<u64, Value>,
    pub(crate) next_origin: u64,
    pub(crate) purge_jobs: Tracked<u64, PurgeJob>,
    pub(crate) next_purge: u64,
    pub(crate) next_job: u64,
    /// The newest [`crate::WRITE_LOG_CAP`] applied writes, oldest first.
    pub(crate) writes: VecDeque<WriteRecord>,
    /// Sequence number of the last write (it keeps counting when the oldest
    /// are dropped).
    #[serde(default)]
    pub(crate) write_seq: u64,
    /// What the last commit saved (not part of the document).
    #[serde(skip)]
    pub(crate) base: crate::change::Base,
}

/// Per-request context: the simulator, the simulated time of the request
/// and the operation name (set by the router).
pub(crate) struct Cx<'a> {
    pub(crate) inner: &'a crate::server::Inner,
    /// The dataset the request is served from (a reset may replace it).
    pub(crate) ds: std::sync::Arc<Dataset>,
    /// Only name the operation (set [`Cx::op`]) and run nothing.
    pub(crate) probe: bool,
    pub(crate) now: f64,
    pub(crate) op: Cell<&'static str>,
    /// The commit of this request's write, if it wrote.
    pub(crate) commit: Cell<Option<crate::changelog::Verdict>>,
    /// The newest commit this request could see.
    pub(crate) seen: Cell<u64>,
}

impl<'a> Cx<'a> {
    /// A context for one request at simulated time `now`.
    pub(crate) fn new(
        inner: &'a crate::server::Inner,
        ds: std::sync::Arc<Dataset>,
        probe: bool,
        now: f64,
    ) -> Self {
        Cx {
            inner,
            ds,
            probe,
            now,
            op: Cell::new(""),
            commit: Cell::new(None),
            seen: Cell::new(0),
        }
    }
}

impl Cx<'_> {
    pub(crate) fn ds(&self) -> &Dataset {
        &self.ds
    }

    pub(crate) fn seed(&self) -> u64 {
        self.ds.seed
    }

    /// The chooser of documented alternatives.
    pub(crate) fn var(&self) -> &crate::variants::Variants {
        &self.ds.variants
    }

    pub(crate) fn state(&self) -> MutexGuard<'_, State> {
        let st = lock(&self.inner.state);
        // Under the state lock: every commit this request can see.
        self.seen.set(self.inner.log.assigned());
        st
    }

    /// Record an applied write in the write log and commit it: the request
    /// is answered once the change is saved (or, when it cannot be, the
    /// change is undone and the request answered with why).
    pub(crate) fn log(&self, st: &mut State, target: impl Into<String>) {
        st.write_seq += 1;
        let seq = st.write_seq;
        if st.writes.len() >= crate::WRITE_LOG_CAP
            && let Some(w) = st.writes.pop_front()
        {
            st.base.popped.push(w);
        }
        st.writes.push_back(WriteRecord {
            seq,
            operation: self.op.get().to_string(),
            target: target.into(),
            sim_time: self.now,
        });
        self.commit
            .set(Some(self.inner.log.commit(st, self.now, 0.0)));
    }
}

/// Refuse a create once `count` records of a kind exist
/// ([`crate::MAX_CREATED`]).
pub(crate) fn check_room(count: usize, what: &str) -> Result<(), crate::error::ApiError> {
    if count >= crate::MAX_CREATED {
        return Err(crate::error::ApiError::conflict(format!(
            "the simulator holds at most {} {what}: delete some first",
            crate::MAX_CREATED
        )));
    }
    Ok(())
}

/// Lock a mutex, recovering the data if a panicking thread poisoned it.
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}
