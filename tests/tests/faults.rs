//! The fault suite: 2,000 mixed operations against the simulator while it injects
//! faults into 20 % of requests (429, 500, 502, 503, connections dropped before and
//! after handling, bodies cut short, malformed JSON) and adds latency to every one.
//!
//! Every operation's outcome is checked as it happens — a read that succeeds returns
//! what the writes so far make the right data; a write that fails is a typed error
//! whose outcome the simulator's write log settles — and at the end the simulator's
//! state is compared with the state tracked: nothing lost, no POST applied twice.
//! Sequential, seeded and on 127.0.0.1, so a run replays exactly. The figures are
//! printed (run with `--nocapture` to see them).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use hostapi::bare_metal::SwitchPortStatus;
use hostapi::cdn::NewOrigin;
use hostapi::client::RetryPolicy;
use hostapi::domains::{DnsRecordType, NewDnsRecord};
use hostapi::error::TransportCause;
use hostapi::types::{
    BareMetalId, CloudServerId, DnsRecordId, DomainName, VirtualServerId, ZoneId,
};
use hostapi::{Client, Error};
use hostapi_sim::{FaultConfig, FaultKind, FaultWeights, Sim, SimConfig, WriteRecord};
use tracing_subscriber::Layer;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

const OPERATIONS: usize = 2_000;
const FAULT_RATE: f64 = 0.2;
const SEED: u64 = 20_240_601;

/// Counts the facade's "retrying" events.
struct RetryCounter(Arc<AtomicU64>);

impl<S: tracing::Subscriber> Layer<S> for RetryCounter {
    fn on_event(&self, event: &tracing::Event<'_>, _: tracing_subscriber::layer::Context<'_, S>) {
        struct Message(bool);
        impl tracing::field::Visit for Message {
            fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
                if field.name() == "message" && format!("{value:?}") == "hostapi: retrying" {
                    self.0 = true;
                }
            }
        }
        let mut message = Message(false);
        event.record(&mut message);
        if message.0 {
            self.0.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// A small deterministic generator (SplitMix64).
struct Dice(u64);

impl Dice {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The state the writes so far should have made.
#[derive(Debug, Default)]
struct Model {
    ttl: BTreeMap<DomainName, u32>,
    /// The TXT records this suite created, per domain: id → content.
    records: BTreeMap<DomainName, BTreeMap<u64, String>>,
    bare_metal_reference: BTreeMap<u32, String>,
    switch_open: BTreeMap<u32, bool>,
    power_cycles: BTreeMap<u32, u64>,
    reboots: BTreeMap<u32, u64>,
    cloud_reference: BTreeMap<String, String>,
    purges: u64,
    /// Origins this suite created: id → label.
    origins: BTreeMap<u64, String>,
}

/// What the run saw.
#[derive(Debug, Default)]
struct Figures {
    operations: u64,
    reads: u64,
    writes: u64,
    calls: u64,
    failures: BTreeMap<&'static str, u64>,
    failed_writes_applied: u64,
    failed_writes_not_applied: u64,
    /// Failed writes reported as [`Error::OutcomeUnknown`].
    failed_writes_unknown: u64,
    idempotent_writes_applied_twice: u64,
}

struct Run<'a> {
    sim: &'a Sim,
    client: Client,
    model: Model,
    figures: Figures,
    log_seen: usize,
    domains: Vec<DomainName>,
    cloud: Vec<CloudServerId>,
    /// How many times the last settled write was applied.
    last_applied: usize,
}

const BARE_METALS: [u32; 4] = [20001, 20002, 20003, 20004];
const VIRTUAL_SERVERS: [u32; 4] = [100001, 100002, 100003, 100004];

impl Run<'_> {
    /// Checks an error a call surfaced: one of the types a fault can cause, naming
    /// the operation. Counts it.
    fn surfaced(&mut self, error: &Error) {
        let kind = match error {
            // A write whose answer was lost: counted by what was lost.
            Error::OutcomeUnknown(unknown) => {
                assert!(
                    !matches!(unknown.cause, Error::OutcomeUnknown(_)),
                    "{error:?}"
                );
                Self::kind(&unknown.cause)
            }
            other => Self::kind(other),
        };
        assert!(error.operation().is_some(), "{error:?}");
        *self.figures.failures.entry(kind).or_default() += 1;
    }

    /// The kind of failure a fault caused.
    fn kind(error: &Error) -> &'static str {
        match error {
            Error::Transport(e) if e.cause == TransportCause::Timeout => "timeout",
            Error::Transport(_) => "transport",
            Error::Status(e) => match e.status {
                429 => "status 429",
                500 => "status 500",
                502 => "status 502",
                503 => "status 503",
                404 => "status 404",
                other => panic!("unexpected status {other}: {error}"),
            },
            Error::Decode(_) => "decode",
            other => panic!("not an error a fault causes: {other:?}"),
        }
    }

    /// The writes applied since the last call of this.
    fn new_writes(&mut self) -> Vec<WriteRecord> {
        let log = self.sim.write_log();
        let fresh = log[self.log_seen..].to_vec();
        self.log_seen = log.len();
        fresh
    }

    /// Settles a write: its result and the write log's new entries say whether it
    /// was applied (a POST at most once). Answers whether it was.
    fn settle<T>(&mut self, result: &Result<T, Error>, post: bool, operation: &str) -> bool {
        self.figures.writes += 1;
        let fresh = self.new_writes();
        self.last_applied = fresh.len();
        for write in &fresh {
            assert_eq!(write.operation, operation, "{fresh:?}");
        }
        if post {
            assert!(
                fresh.len() <= 1,
                "a POST applied {} times: {fresh:?}",
                fresh.len()
            );
        } else if fresh.len() > 1 {
            self.figures.idempotent_writes_applied_twice += 1;
        }
        match result {
            Ok(_) => {
                assert!(
                    !fresh.is_empty(),
                    "{operation} succeeded but was not applied"
                );
                true
            }
            Err(error) => {
                self.surfaced(error);
                // A write reported failed without saying its outcome is unknown was
                // not applied: never "failed" for a write that may have happened.
                if error.is_outcome_unknown() {
                    self.figures.failed_writes_unknown += 1;
                } else {
                    assert!(
                        fresh.is_empty(),
                        "{operation} failed ({error:?}) but was applied: {fresh:?}"
                    );
                }
                if fresh.is_empty() {
                    self.figures.failed_writes_not_applied += 1;
                    false
                } else {
                    self.figures.failed_writes_applied += 1;
                    true
                }
            }
        }
    }

    /// Counts a read; on failure checks and counts the error and answers `None`.
    fn read<T>(&mut self, result: Result<T, Error>) -> Option<T> {
        self.figures.reads += 1;
        match result {
            Ok(value) => Some(value),
            Err(error) => {
                self.surfaced(&error);
                None
            }
        }
    }

    async fn step(&mut self, dice: &mut Dice, n: usize) {
        self.figures.operations += 1;
        self.figures.calls += 1;
        let domain = self.domains[dice.below(self.domains.len())].clone();
        let bm = BARE_METALS[dice.below(BARE_METALS.len())];
        let vs = VIRTUAL_SERVERS[dice.below(VIRTUAL_SERVERS.len())];
        let cloud = self.cloud[dice.below(self.cloud.len())].clone();
        let client = self.client.clone();
        match dice.below(20) {
            0 => {
                let ttl = 60 + (dice.below(86_340) as u32);
                let result = client.domains().set_ttl(&domain, ttl).await;
                if self.settle(&result, false, "PUT /v1/domains/{domainname}") {
                    self.model.ttl.insert(domain, ttl);
                }
            }
            1 | 2 => {
                let content = format!("fault-suite-{n}");
                let record = NewDnsRecord::new("_faults", DnsRecordType::Txt, content.clone());
                let result = client.domains().records(&domain).create(&record).await;
                let applied =
                    self.settle(&result, true, "POST /v1/domains/{domainname}/dnsRecords");
                if applied {
                    let id = self.log_target_number("dnsRecord ");
                    if let Ok(created) = &result {
                        assert_eq!(created.id.as_str(), id.to_string());
                        assert_eq!(created.content, content);
                    }
                    self.model
                        .records
                        .entry(domain)
                        .or_default()
                        .insert(id, content);
                }
            }
            3 => {
                let Some((&id, _)) = self
                    .model
                    .records
                    .get(&domain)
                    .and_then(|r| r.iter().next())
                else {
                    return self.idle();
                };
                let result = client
                    .domains()
                    .records(&domain)
                    .delete(&DnsRecordId::from(id))
                    .await;
                let applied = self.settle(
                    &result,
                    false,
                    "DELETE /v1/domains/{domainname}/dnsRecords/{recordId}",
                );
                if applied {
                    self.model.records.entry(domain).or_default().remove(&id);
                }
            }
            4 => {
                let reference = format!("bm-{n}");
                let result = client
                    .bare_metals()
                    .update(&BareMetalId::from(bm), &reference)
                    .await;
                if self.settle(&result, false, "PUT /v1/bareMetals/{bareMetalId}") {
                    self.model.bare_metal_reference.insert(bm, reference);
                }
            }
            5 => {
                let open = dice.below(2) == 0;
                let id = BareMetalId::from(bm);
                let result = if open {
                    client.bare_metals().open_switch_port(&id).await
                } else {
                    client.bare_metals().close_switch_port(&id).await
                };
                let operation = if open {
                    "POST /v1/bareMetals/{bareMetalId}/switchPort/open"
                } else {
                    "POST /v1/bareMetals/{bareMetalId}/switchPort/close"
                };
                if self.settle(&result, true, operation) {
                    self.model.switch_open.insert(bm, open);
                }
                if let Ok(port) = result {
                    assert_eq!(
                        port.status,
                        Some(if open {
                            SwitchPortStatus::Open
                        } else {
                            SwitchPortStatus::Closed
                        })
                    );
                }
            }
            6 => {
                let result = client
                    .bare_metals()
                    .power_cycle(&BareMetalId::from(bm))
                    .await;
                if self.settle(
                    &result,
                    true,
                    "POST /v1/bareMetals/{bareMetalId}/powerCycle",
                ) {
                    *self.model.power_cycles.entry(bm).or_default() += 1;
                }
            }
            7 => {
                let result = client
                    .virtual_servers()
                    .reboot(&VirtualServerId::from(vs))
                    .await;
                if self.settle(&result, true, "POST /v1/virtualServers/{id}/reboot") {
                    *self.model.reboots.entry(vs).or_default() += 1;
                }
            }
            8 => {
                let reference = format!("cloud-{n}");
                let result = client.cloud_servers().update(&cloud, &reference).await;
                if self.settle(&result, false, "PUT /cloud/v2/virtualServers/{id}") {
                    self.model
                        .cloud_reference
                        .insert(cloud.as_str().to_owned(), reference);
                }
            }
            9 => {
                let zone = ZoneId::new("1001").unwrap();
                let path = format!("/fault/{n}.css");
                let result = client.cdn().purge(&zone, &[path.as_str()]).await;
                // Repeating a purge is harmless, so the client retries it like a read
                // (a POST all the same): each attempt that reached the service made
                // a job.
                if self.settle(
                    &result,
                    false,
                    "POST /content/purge/{customer_number}/{zone_id}",
                ) {
                    self.model.purges += self.last_applied as u64;
                }
            }
            10 => {
                let label = format!("fault-{n}");
                let origin = NewOrigin::new(label.clone(), format!("https://o{n}.example.com"));
                let result = client.cdn().origins().create(&origin).await;
                if self.settle(&result, true, "POST /origins/{customer_number}") {
                    let id = self.log_target_number("origin ");
                    if let Ok(created) = &result {
                        assert_eq!(created.id.as_str(), id.to_string());
                    }
                    self.model.origins.insert(id, label);
                }
            }
            11 | 12 => {
                if let Some(found) = self.read(client.domains().get(&domain).await)
                    && let Some(expected) = self.model.ttl.get(&domain)
                {
                    assert_eq!(found.ttl, Some(*expected), "{domain}");
                }
            }
            13 | 14 => {
                if let Some(records) = self.read(client.domains().records(&domain).list().await) {
                    self.check_records(&domain, &records);
                }
            }
            15 => {
                if let Some(found) =
                    self.read(client.bare_metals().get(&BareMetalId::from(bm)).await)
                    && let Some(expected) = self.model.bare_metal_reference.get(&bm)
                {
                    assert_eq!(found.reference.as_ref(), Some(expected));
                }
            }
            16 => {
                if let Some(port) = self.read(
                    client
                        .bare_metals()
                        .switch_port(&BareMetalId::from(bm))
                        .await,
                ) && let Some(open) = self.model.switch_open.get(&bm)
                {
                    let expected = if *open {
                        SwitchPortStatus::Open
                    } else {
                        SwitchPortStatus::Closed
                    };
                    assert_eq!(port.status, Some(expected));
                }
            }
            17 => {
                if let Some(found) = self.read(client.cloud_servers().get(&cloud).await)
                    && let Some(expected) = self.model.cloud_reference.get(cloud.as_str())
                {
                    assert_eq!(found.reference.as_ref(), Some(expected));
                }
            }
            18 => {
                if let Some(origins) = self.read(client.cdn().origins().list().await) {
                    self.check_origins(&origins);
                }
            }
            // The paged list is the slowest read: one time in four.
            _ if !n.is_multiple_of(4) => {
                let id = VirtualServerId::from(vs);
                if let Some(found) = self.read(client.virtual_servers().get(&id).await) {
                    assert_eq!(found.id, id);
                }
            }
            _ => {
                if let Some(servers) = self.read(client.cloud_servers().list().await) {
                    assert_eq!(servers.len(), hostapi_sim::DEFAULT_SIZE);
                    for server in &servers {
                        if let Some(expected) = self.model.cloud_reference.get(server.id.as_str()) {
                            assert_eq!(server.reference.as_ref(), Some(expected));
                        }
                    }
                }
            }
        }
    }

    /// An operation that had nothing to act on (a delete before any create).
    fn idle(&mut self) {
        self.figures.operations -= 1;
        self.figures.calls -= 1;
    }

    /// The number in the target of the last write (`dnsRecord 9000003 of …`).
    fn log_target_number(&self, prefix: &str) -> u64 {
        let log = self.sim.write_log();
        let target = &log.last().expect("a write").target;
        target
            .strip_prefix(prefix)
            .and_then(|rest| rest.split(' ').next())
            .and_then(|id| id.parse().ok())
            .unwrap_or_else(|| panic!("no id in {target}"))
    }

    fn check_records(&self, domain: &DomainName, records: &[hostapi::domains::DnsRecord]) {
        let found: BTreeMap<u64, String> = records
            .iter()
            .filter(|r| r.content.starts_with("fault-suite-"))
            .map(|r| (r.id.as_str().parse().unwrap(), r.content.clone()))
            .collect();
        let expected = self.model.records.get(domain).cloned().unwrap_or_default();
        assert_eq!(found, expected, "records of {domain}");
    }

    fn check_origins(&self, origins: &[hostapi::cdn::Origin]) {
        let found: BTreeMap<u64, String> = origins
            .iter()
            .filter(|o| o.label.as_deref().is_some_and(|l| l.starts_with("fault-")))
            .map(|o| (o.id.as_str().parse().unwrap(), o.label.clone().unwrap()))
            .collect();
        assert_eq!(found, self.model.origins, "origins");
    }
}

/// A read that must end up answering: tried until it does (each failure checked and
/// counted).
macro_rules! settled {
    ($run:expr, $call:expr) => {{
        let mut answer = None;
        for _ in 0..50 {
            $run.figures.calls += 1;
            match $call.await {
                Ok(value) => {
                    answer = Some(value);
                    break;
                }
                Err(error) => $run.surfaced(&error),
            }
        }
        answer.expect("a read failed 50 times in a row")
    }};
}

#[tokio::test]
async fn two_thousand_operations_under_faults_lose_and_repeat_nothing() {
    let retries = Arc::new(AtomicU64::new(0));
    // This thread's subscriber (the test runs on a current-thread runtime, the
    // simulator's tasks too), so other tests' retries are not counted.
    let _subscriber = tracing_subscriber::registry()
        .with(RetryCounter(retries.clone()))
        .set_default();
    let started = Instant::now();
    let sim = Sim::start(SimConfig {
        seed: SEED,
        time_scale: 1000.0,
        faults: FaultConfig {
            rate: FAULT_RATE,
            weights: FaultWeights::default(),
            latency_ms: 0,
            retry_after_secs: 0,
        },
        ..SimConfig::default()
    })
    .await
    .expect("the simulator starts");
    let client = hostapi_tests::sim_client_builder(&sim, sim.api_key(), sim.cdn_secret())
        .timeout(Duration::from_secs(5))
        .retry_policy(
            RetryPolicy::default()
                .max_attempts(4)
                .initial_backoff(Duration::from_millis(1))
                .max_backoff(Duration::from_millis(4))
                .deadline(Duration::from_secs(5)),
        )
        .build()
        .expect("client builds");
    let mut run = Run {
        sim: &sim,
        client: client.clone(),
        model: Model::default(),
        figures: Figures::default(),
        log_seen: 0,
        domains: Vec::new(),
        cloud: Vec::new(),
        last_applied: 0,
    };

    // What the operations act on: editable domains in a normal state (isEditable is
    // true for i % 4 < 2, the code abnormal for i % 13 == 12), and four cloud servers.
    let domains = settled!(run, client.domains().list());
    run.domains = [0, 1, 4, 5]
        .iter()
        .map(|&i| domains[i].name.clone())
        .collect();
    for &i in &[0, 1, 4, 5] {
        assert_eq!(domains[i].editable, Some(true), "{}", domains[i].name);
        assert!(domains[i].is_normal(), "{}", domains[i].name);
    }
    let cloud = settled!(run, client.cloud_servers().list());
    run.cloud = cloud.iter().take(4).map(|s| s.id.clone()).collect();
    run.log_seen = sim.write_log().len();

    let mut dice = Dice(SEED);
    for n in 0..OPERATIONS {
        run.step(&mut dice, n).await;
    }
    while (run.figures.operations as usize) < OPERATIONS {
        let n = OPERATIONS + run.figures.operations as usize;
        run.step(&mut dice, n).await;
    }

    // Afterwards: every tracked item reads back as tracked...
    for domain in run.domains.clone() {
        let found = settled!(run, client.domains().get(&domain));
        if let Some(ttl) = run.model.ttl.get(&domain) {
            assert_eq!(found.ttl, Some(*ttl), "{domain}");
        }
        let records = settled!(run, client.domains().records(&domain).list());
        run.check_records(&domain, &records);
    }
    let origins = settled!(run, client.cdn().origins().list());
    run.check_origins(&origins);
    for bm in BARE_METALS {
        let found = settled!(run, client.bare_metals().get(&BareMetalId::from(bm)));
        assert_eq!(
            found.reference.as_ref(),
            run.model.bare_metal_reference.get(&bm)
        );
    }
    for id in run.cloud.clone() {
        let found = settled!(run, client.cloud_servers().get(&id));
        assert_eq!(
            found.reference.as_ref(),
            run.model.cloud_reference.get(id.as_str())
        );
    }

    // ...and the simulator's state is the state tracked: counters of non-idempotent
    // writes show each applied exactly as often as the model says.
    let snapshot = sim.snapshot();
    for bm in BARE_METALS {
        let node = &snapshot["v1"]["bareMetals"][bm.to_string()];
        let cycles = node["powerCycles"].as_u64().unwrap_or(0);
        assert_eq!(
            cycles,
            run.model.power_cycles.get(&bm).copied().unwrap_or(0),
            "bare metal {bm}"
        );
        if let Some(open) = run.model.switch_open.get(&bm) {
            assert_eq!(node["switchPort"], if *open { "open" } else { "closed" });
        }
    }
    for vs in VIRTUAL_SERVERS {
        let reboots = snapshot["v1"]["virtualServers"][vs.to_string()]["reboots"]
            .as_u64()
            .unwrap_or(0);
        assert_eq!(
            reboots,
            run.model.reboots.get(&vs).copied().unwrap_or(0),
            "virtual server {vs}"
        );
    }
    let purge_jobs = snapshot["cdn"]["purgeJobs"]
        .as_object()
        .map_or(0, |jobs| jobs.len());
    let initial_jobs = 1; // 5001, in the dataset.
    assert_eq!(purge_jobs as u64, initial_jobs + run.model.purges);
    let created: BTreeSet<u64> = snapshot["cdn"]["origins"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| o["label"].as_str().is_some_and(|l| l.starts_with("fault-")))
        .filter_map(|o| o["id"].as_u64())
        .collect();
    assert_eq!(created, run.model.origins.keys().copied().collect());

    // The figures.
    let stats = sim.stats();
    let faults: u64 = FaultKind::ALL
        .iter()
        .map(|k| stats.faults.get(k.name()).copied().unwrap_or(0))
        .sum();
    let retries = retries.load(Ordering::Relaxed);
    let surfaced: u64 = run.figures.failures.values().sum();
    println!(
        "fault suite: {} operations ({} reads, {} writes) in {:.1?}; {} requests; {} faults injected {:?} (+ latency on {}); {} retries; {} failures surfaced {:?}; failed writes applied {}, not applied {}, reported as of unknown outcome {}; idempotent writes applied twice {}",
        run.figures.operations,
        run.figures.reads,
        run.figures.writes,
        started.elapsed(),
        stats.requests,
        faults,
        stats
            .faults
            .iter()
            .filter(|(k, _)| *k != "latency")
            .collect::<BTreeMap<_, _>>(),
        stats.faults.get("latency").copied().unwrap_or(0),
        retries,
        surfaced,
        run.figures.failures,
        run.figures.failed_writes_applied,
        run.figures.failed_writes_not_applied,
        run.figures.failed_writes_unknown,
        run.figures.idempotent_writes_applied_twice,
    );
    assert_eq!(run.figures.operations as usize, OPERATIONS);
    // Every request is a call's first attempt or one of its retries.
    assert_eq!(stats.requests, run.figures.calls + retries);
    let ratio = faults as f64 / stats.requests as f64;
    assert!((0.15..0.25).contains(&ratio), "fault ratio {ratio}");
    assert!(retries > 0 && surfaced > 0);
}

/// Latency beyond the client's timeout: a read is tried again until its attempts run
/// out and then surfaces as a timeout (`Error::Transport`); a POST is not repeated, is
/// reported as of unknown outcome, and the write log says whether it was applied (at
/// most once).
#[tokio::test]
async fn slow_answers_time_out_reads_are_retried_posts_are_not() {
    let sim = Sim::start(SimConfig {
        seed: SEED,
        time_scale: 1000.0,
        faults: FaultConfig {
            latency_ms: 150,
            ..FaultConfig::default()
        },
        ..SimConfig::default()
    })
    .await
    .expect("the simulator starts");
    let client = Client::builder()
        .base_url(sim.base_url())
        .api_key(sim.api_key())
        .timeout(Duration::from_millis(40))
        .retry_policy(
            RetryPolicy::default()
                .max_attempts(3)
                .initial_backoff(Duration::from_millis(1))
                .max_backoff(Duration::from_millis(2))
                .deadline(Duration::from_secs(5)),
        )
        .build()
        .expect("client builds");

    let error = client.domains().list().await.unwrap_err();
    assert!(
        matches!(&error, Error::Transport(e) if e.cause == TransportCause::Timeout),
        "{error:?}"
    );
    assert_eq!(error.operation(), Some("listDomains"));
    assert!(error.is_retryable());
    assert_eq!(sim.stats().requests, 3, "three attempts of the read");

    let error = client
        .virtual_servers()
        .reboot(&VirtualServerId::from(100_001u32))
        .await
        .unwrap_err();
    // The POST may have reached the server: its outcome is unknown, not "failed".
    match &error {
        Error::OutcomeUnknown(unknown) => assert!(
            matches!(&unknown.cause, Error::Transport(e) if e.cause == TransportCause::Timeout),
            "{error:?}"
        ),
        other => panic!("expected an unknown outcome, got {other:?}"),
    }
    assert_eq!(error.operation(), Some("rebootVirtualServer"));
    assert_eq!(sim.stats().requests, 4, "one attempt of the POST");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let applied = sim
        .write_log()
        .iter()
        .filter(|w| w.operation == "POST /v1/virtualServers/{id}/reboot")
        .count();
    assert!(applied <= 1, "applied {applied} times");
    println!(
        "latency: 4 requests, {} delayed by 150 ms, 2 timeouts surfaced, reboot applied {applied} time(s)",
        sim.stats().faults.get("latency").copied().unwrap_or(0)
    );
}
