//! Configuration as code (`hostapi-sync`): export, plan and apply of a domain's DNS
//! records and of the CDN's origins and ACL, against the simulator at several seeds.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use hostapi::Client;
use hostapi::domains::{DnsRecordType, NewDnsRecord};
use hostapi::types::DomainName;
use hostapi_sim::{FaultConfig, FaultKind, FaultWeights, Sim, SimConfig};
use hostapi_sync::{
    ApplyOptions, CdnConfig, DnsEntry, DnsPlanOptions, DnsZone, FileFormat, Outcome, SyncError,
    plan_dns,
};

const SEEDS: [u64; 3] = [1, 7, 42];
const FORMATS: [FileFormat; 3] = [FileFormat::Bind, FileFormat::Yaml, FileFormat::Toml];

async fn start(config: SimConfig) -> (Sim, Client) {
    let sim = Sim::start(config).await.expect("simulator");
    let client = hostapi_tests::sim_client_builder(&sim, sim.api_key(), sim.cdn_secret())
        .strict(true)
        .build()
        .expect("client");
    (sim, client)
}

/// The simulator's domains that take writes (the others answer 403).
async fn editable_domains(client: &Client) -> Vec<DomainName> {
    client
        .domains()
        .list()
        .await
        .expect("domains")
        .iter()
        .filter(|d| d.editable == Some(true) && d.is_normal())
        .map(|d| d.name.clone())
        .collect()
}

fn writes(sim: &Sim) -> usize {
    sim.write_log().len()
}

/// Writes `zone` in `format`, reads it back.
fn through_file(zone: &DnsZone, format: FileFormat) -> DnsZone {
    let text = zone.to_text(format).expect("writes").text;
    DnsZone::from_text(
        &text,
        format!("zone.{}", format.name()),
        &zone.domain,
        format,
    )
    .unwrap_or_else(|e| panic!("{format} does not read back: {e}\n{text}"))
}

#[tokio::test]
async fn export_then_plan_is_empty_for_every_domain_seed_and_format() {
    for seed in SEEDS {
        let (sim, client) = start(SimConfig::default().with_seed(seed)).await;
        let domains = client.domains().list().await.expect("domains");
        for domain in domains.iter().map(|d| d.name.clone()) {
            let sync = hostapi_sync::DnsSync::new(&client, &domain);
            let current = sync.export().await.expect("export");
            assert!(!current.records.is_empty());
            for format in FORMATS {
                let text = current.to_text(format).expect("text");
                assert!(
                    text.not_expressible.is_empty(),
                    "{domain}: {:?}",
                    text.not_expressible
                );
                let desired = through_file(&current, format);
                assert_eq!(
                    desired.records.len(),
                    current.records.len(),
                    "{domain} {format}"
                );
                for prune in [false, true] {
                    let plan = plan_dns(&current, &desired, DnsPlanOptions::default().prune(prune));
                    assert!(
                        plan.is_empty(),
                        "seed {seed} {domain} {format}: {plan:?}\n{}",
                        text.text
                    );
                }
            }
        }
        sim.shutdown().await;
    }
}

#[tokio::test]
async fn edit_plans_exactly_the_edit_and_a_second_plan_is_empty() {
    for seed in SEEDS {
        let (sim, client) = start(SimConfig::default().with_seed(seed)).await;
        let domains = editable_domains(&client).await;
        for (format, domain) in FORMATS.iter().zip(domains.iter().cycle()) {
            let sync = hostapi_sync::DnsSync::new(&client, domain);
            let current = sync.export().await.expect("export");
            let mut desired = through_file(&current, *format);
            // Edit: a new record, a changed address, and the TTL.
            desired.records.push(DnsEntry::new(
                format!("new.{domain}"),
                DnsRecordType::A,
                "192.0.2.77",
            ));
            let apex_a = desired
                .records
                .iter_mut()
                .find(|r| r.record_type == DnsRecordType::A)
                .expect("an A record");
            apex_a.content = "192.0.2.99".to_owned();
            desired.ttl = Some(if current.ttl == Some(300) { 600 } else { 300 });
            let text = desired.to_text(*format).expect("text").text;
            let desired = DnsZone::from_text(&text, "edited", domain, *format).expect("reads");

            let plan = sync
                .plan(&desired, DnsPlanOptions::default())
                .await
                .expect("plan");
            assert_eq!(plan.create.len(), 1, "{plan:?}");
            assert_eq!(plan.update.len(), 1, "{plan:?}");
            assert!(plan.delete.is_empty());
            assert!(plan.ttl.is_some());
            assert_eq!(plan.update[0].after.as_ref().unwrap().content, "192.0.2.99");

            let before = writes(&sim);
            let report = sync
                .apply(&plan, &ApplyOptions::new())
                .await
                .expect("apply");
            assert!(report.all_applied(), "{report:?}");
            assert_eq!(writes(&sim) - before, 3, "one write per change");
            let again = sync
                .plan(&desired, DnsPlanOptions::default())
                .await
                .expect("plan");
            assert!(again.is_empty(), "{again:?}");
            let before = writes(&sim);
            sync.apply(&again, &ApplyOptions::new())
                .await
                .expect("apply");
            assert_eq!(writes(&sim), before, "an empty plan writes nothing");
        }
        sim.shutdown().await;
    }
}

/// A zone with every type the documents name, several values per name, and MX and
/// SRV priorities.
fn every_type(domain: &DomainName) -> DnsZone {
    let d = domain.as_str();
    let mut zone = DnsZone::new(domain.clone());
    zone.ttl = Some(600);
    zone.records = vec![
        DnsEntry::new(d, DnsRecordType::A, "192.0.2.1"),
        DnsEntry::new(d, DnsRecordType::A, "192.0.2.2"),
        DnsEntry::new(d, DnsRecordType::Aaaa, "2001:db8::1"),
        DnsEntry::new(format!("www.{d}"), DnsRecordType::Cname, d),
        DnsEntry::new(d, DnsRecordType::Mx, format!("mx1.{d}")).priority(10),
        DnsEntry::new(d, DnsRecordType::Mx, format!("mx2.{d}")).priority(20),
        DnsEntry::new(
            format!("_sip._tcp.{d}"),
            DnsRecordType::Srv,
            format!("5 5060 sip.{d}"),
        )
        .priority(30),
        DnsEntry::new(d, DnsRecordType::Txt, "v=spf1 mx -all"),
        DnsEntry::new(d, DnsRecordType::Txt, "say \"hello\"; twice"),
        DnsEntry::new(d, DnsRecordType::Spf, "v=spf1 -all"),
        DnsEntry::new(d, DnsRecordType::Ns, "ns1.hosting.example"),
        DnsEntry::new(d, DnsRecordType::Ns, "ns2.hosting.example"),
        DnsEntry::new(d, DnsRecordType::Caa, "0 issue \"ca.example\""),
        DnsEntry::new(format!("1.2.{d}"), DnsRecordType::Ptr, format!("host.{d}")),
    ];
    zone
}

#[tokio::test]
async fn every_record_type_round_trips_through_apply_and_every_format() {
    let (sim, client) = start(SimConfig::default().with_seed(3)).await;
    let domain = editable_domains(&client).await.remove(1);
    let sync = hostapi_sync::DnsSync::new(&client, &domain);
    let desired = every_type(&domain);
    for format in FORMATS {
        let read = through_file(&desired, format);
        assert_eq!(read.records.len(), desired.records.len(), "{format}");
        assert!(plan_dns(&desired, &read, DnsPlanOptions::default().prune(true)).is_empty());
    }
    let plan = sync
        .plan(&desired, DnsPlanOptions::default().prune(true))
        .await
        .expect("plan");
    let report = sync
        .apply(&plan, &ApplyOptions::new())
        .await
        .expect("apply");
    assert!(report.all_applied(), "{report:?}");
    let exported = sync.export().await.expect("export");
    assert_eq!(exported.records.len(), desired.records.len());
    for format in FORMATS {
        let read = through_file(&exported, format);
        let plan = sync
            .plan(&read, DnsPlanOptions::default().prune(true))
            .await
            .expect("plan");
        assert!(plan.is_empty(), "{format}: {plan:?}");
    }
    let mx: Vec<_> = exported
        .records
        .iter()
        .filter(|r| r.record_type == DnsRecordType::Mx)
        .map(|r| r.priority)
        .collect();
    assert_eq!(mx, [Some(10), Some(20)]);
    sim.shutdown().await;
}

#[test]
fn types_the_service_does_not_hold_are_named_in_every_format_and_never_pruned() {
    let domain: DomainName = "example.com".parse().unwrap();
    let mut current = DnsZone::new(domain.clone());
    current.ttl = Some(300);
    current.records = vec![
        DnsEntry::new("example.com", DnsRecordType::A, "192.0.2.1"),
        DnsEntry::new(
            "_443._tcp.example.com",
            DnsRecordType::from_wire("TLSA"),
            "3 1 1 0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF",
        ),
        DnsEntry::new(
            "example.com",
            DnsRecordType::from_wire("ALIAS"),
            "other.example.net",
        ),
    ];
    for format in [FileFormat::Yaml, FileFormat::Toml] {
        let read = through_file(&current, format);
        assert_eq!(read.records.len(), 1, "{format}");
        let named: Vec<_> = read
            .unsupported
            .iter()
            .map(|u| {
                assert!(u.line.is_some(), "{format}: {u:?}");
                u.describe(&domain)
                    .split_once(": ")
                    .map(|(_, rest)| rest.to_owned())
                    .unwrap()
            })
            .collect();
        assert_eq!(
            named,
            [
                "_443._tcp TLSA: the service does not hold TLSA records",
                "@ ALIAS: the service does not hold ALIAS records",
            ],
            "{format}"
        );
        let plan = plan_dns(
            &current,
            &read,
            DnsPlanOptions::default().prune(true).skip_unsupported(true),
        );
        assert!(plan.is_empty(), "{format}: {plan:?}");
        assert_eq!(plan.unsupported.len(), 2);
    }
    // TLSA has a number and a zone-file form; ALIAS has neither: a comment.
    let text = current.to_text(FileFormat::Bind).unwrap();
    assert_eq!(text.not_expressible.len(), 1, "{}", text.text);
    assert!(text.text.contains("TLSA"), "{}", text.text);
    let read = DnsZone::from_text(&text.text, "x.zone", &domain, FileFormat::Bind).unwrap();
    assert_eq!(read.records.len(), 1);
    assert_eq!(read.unsupported.len(), 1);
    let kept = plan_dns(&current, &read, DnsPlanOptions::default());
    assert!(kept.is_empty());
    assert_eq!(kept.kept.len(), 2);
    // The ALIAS the file does not name is pruned; the TLSA it names is kept.
    let pruned = plan_dns(&current, &read, DnsPlanOptions::default().prune(true));
    assert_eq!(pruned.delete.len(), 1);
    assert_eq!(
        pruned.delete[0]
            .before
            .as_ref()
            .unwrap()
            .record_type
            .as_wire(),
        "ALIAS"
    );
}

#[tokio::test]
async fn records_only_on_the_service_are_kept_unless_pruned() {
    let (sim, client) = start(SimConfig::default().with_seed(7)).await;
    let domain = editable_domains(&client).await.remove(0);
    let sync = hostapi_sync::DnsSync::new(&client, &domain);
    let current = sync.export().await.expect("export");
    let mut desired = DnsZone::new(domain.clone());
    desired.records = vec![DnsEntry::new(
        domain.as_str(),
        DnsRecordType::Txt,
        "only this",
    )];
    let kept = sync
        .plan(&desired, DnsPlanOptions::default())
        .await
        .expect("plan");
    // The apex TXT set is managed whole: its one value is updated in place.
    let txt_sets = current
        .records
        .iter()
        .filter(|r| r.record_type == DnsRecordType::Txt && r.name == domain.as_str())
        .count();
    assert_eq!(kept.update.len() + kept.create.len(), 1);
    assert_eq!(kept.delete.len(), txt_sets.saturating_sub(1));
    assert_eq!(kept.kept.len(), current.records.len() - txt_sets);
    let pruned = sync
        .plan(&desired, DnsPlanOptions::default().prune(true))
        .await
        .expect("plan");
    assert_eq!(pruned.delete.len(), current.records.len() - 1);
    sync.apply(&pruned, &ApplyOptions::new())
        .await
        .expect("apply");
    let after = sync.export().await.expect("export");
    assert_eq!(after.records.len(), 1);
    assert_eq!(after.records[0].content, "only this");
    sim.shutdown().await;
}

#[tokio::test]
async fn a_dry_run_sends_no_write() {
    let (sim, client) = start(SimConfig::default().with_seed(1)).await;
    let domain = editable_domains(&client).await.remove(0);
    let sync = hostapi_sync::DnsSync::new(&client, &domain);
    let desired = every_type(&domain);
    let plan = sync
        .plan(&desired, DnsPlanOptions::default().prune(true))
        .await
        .expect("plan");
    let before = writes(&sim);
    let report = sync
        .apply(&plan, &ApplyOptions::new().dry_run(true))
        .await
        .expect("dry run");
    assert_eq!(writes(&sim), before);
    assert_eq!(report.counts().3, plan.len());
    assert!(!report.all_applied());
    let stats = sim.stats();
    assert!(
        stats.operations.keys().all(|op| op.starts_with("GET ")),
        "{:?}",
        stats.operations
    );
    sim.shutdown().await;
}

#[tokio::test]
async fn a_plan_is_refused_when_the_state_changed_under_it_unless_forced() {
    let (sim, client) = start(SimConfig::default().with_seed(42)).await;
    let domain = editable_domains(&client).await.remove(0);
    let sync = hostapi_sync::DnsSync::new(&client, &domain);
    let desired = every_type(&domain);
    let plan = sync
        .plan(&desired, DnsPlanOptions::default().prune(true))
        .await
        .expect("plan");
    // Someone else adds a record.
    client
        .domains()
        .records(&domain)
        .create(&NewDnsRecord::new(
            format!("late.{domain}"),
            DnsRecordType::A,
            "192.0.2.200",
        ))
        .await
        .expect("create");
    let before = writes(&sim);
    match sync.apply(&plan, &ApplyOptions::new()).await {
        Err(SyncError::Stale { planned, now }) => assert_eq!(now, planned + 1),
        other => panic!("expected a stale plan, got {other:?}"),
    }
    assert_eq!(writes(&sim), before, "nothing written");
    let report = sync
        .apply(&plan, &ApplyOptions::new().replan(true).force(true))
        .await
        .expect("forced");
    assert!(report.all_applied());
    assert_eq!(
        report.changes.len() + usize::from(report.ttl.is_some()),
        plan.len() + 1
    );
    assert!(
        sync.plan(&desired, DnsPlanOptions::default().prune(true))
            .await
            .unwrap()
            .is_empty()
    );
    sim.shutdown().await;
}

/// A read through injected faults: a few tries (each already retried by the client).
async fn retried<T, E: std::fmt::Debug, F: Future<Output = Result<T, E>>>(
    mut read: impl FnMut() -> F,
) -> T {
    let mut last = None;
    for _ in 0..5 {
        match read().await {
            Ok(value) => return value,
            Err(error) => last = Some(error),
        }
    }
    panic!("five reads failed: {last:?}")
}

#[tokio::test]
async fn a_partial_failure_is_reported_per_change_and_truthfully() {
    for seed in SEEDS {
        // 503 (not handled: not applied) and connections dropped after handling
        // (applied, answer lost); reads are retried through both.
        let mut weights = FaultWeights::only(FaultKind::ServiceUnavailable);
        weights.drop_after = 1;
        let faults = FaultConfig {
            rate: 0.3,
            weights,
            ..FaultConfig::default()
        };
        let (sim, client) = start(SimConfig::default().with_seed(seed).with_faults(faults)).await;
        let domain = editable_domains(&client).await.remove(0);
        let sync = hostapi_sync::DnsSync::new(&client, &domain);
        let mut desired = DnsZone::new(domain.clone());
        desired.records = (0..30)
            .map(|i| {
                DnsEntry::new(
                    format!("h{i}.{domain}"),
                    DnsRecordType::A,
                    format!("192.0.2.{i}"),
                )
            })
            .collect();
        let plan = retried(|| sync.plan(&desired, DnsPlanOptions::default())).await;
        let report = sync
            .apply(&plan, &ApplyOptions::new().concurrency(4))
            .await
            .expect("apply");
        let (applied, not_applied, unknown, _) = report.counts();
        assert_eq!(applied + not_applied + unknown, 30);
        assert!(
            not_applied > 0,
            "seed {seed}: some writes fail at a 30 % fault rate"
        );
        assert!(applied > 0);
        // Every outcome is the truth: applied ones are there, not-applied ones are not.
        let now = retried(|| sync.current()).await;
        let mut there_count = 0;
        for change in &report.changes {
            let wanted = change.change.after.as_ref().unwrap();
            let there = now.records.iter().any(|r| r.name == wanted.name);
            there_count += usize::from(there);
            match &change.outcome {
                Outcome::Applied => assert!(there, "{wanted:?} reported applied"),
                Outcome::NotApplied { .. } => assert!(!there, "{wanted:?} reported not applied"),
                Outcome::Unknown { .. } | Outcome::Skipped => {}
            }
        }
        // Applying again does the rest.
        let rest = retried(|| sync.plan(&desired, DnsPlanOptions::default())).await;
        assert!(there_count >= applied);
        assert_eq!(rest.create.len(), 30 - there_count);
        sim.shutdown().await;
    }
}

#[tokio::test]
async fn a_thousand_records_apply_with_bounded_concurrency_and_the_second_apply_writes_nothing() {
    let (sim, client) = start(SimConfig::default().with_seed(5)).await;
    let domain = editable_domains(&client).await.remove(0);
    let sync = hostapi_sync::DnsSync::new(&client, &domain);
    // Empty the domain first.
    let empty = sync
        .plan(
            &DnsZone::new(domain.clone()),
            DnsPlanOptions::default().prune(true),
        )
        .await
        .expect("plan");
    sync.apply(&empty, &ApplyOptions::new())
        .await
        .expect("empty");
    assert!(sync.current().await.unwrap().records.is_empty());

    let mut desired = DnsZone::new(domain.clone());
    desired.ttl = Some(900);
    desired.records = (0..1000)
        .map(|i| {
            DnsEntry::new(
                format!("host{i}.{domain}"),
                DnsRecordType::A,
                format!("10.{}.{}.{}", i / 65536, (i / 256) % 256, i % 256),
            )
        })
        .collect();
    let text = desired.to_text(FileFormat::Bind).unwrap().text;
    let desired = DnsZone::from_text(&text, "big.zone", &domain, FileFormat::Bind).unwrap();
    let plan = sync
        .plan(&desired, DnsPlanOptions::default())
        .await
        .expect("plan");
    assert_eq!(plan.create.len(), 1000);

    let progress = Arc::new(AtomicUsize::new(0));
    let seen = progress.clone();
    let options = ApplyOptions::new().concurrency(8).on_progress(move |p| {
        assert!(p.done <= p.total);
        seen.fetch_add(1, Ordering::Relaxed);
    });
    let before = writes(&sim);
    let started = Instant::now();
    let report = sync.apply(&plan, &options).await.expect("apply");
    let took = started.elapsed();
    assert!(report.all_applied());
    assert_eq!(
        progress.load(Ordering::Relaxed),
        1001,
        "one progress report per write"
    );
    assert_eq!(writes(&sim) - before, 1001, "1,000 creates and the TTL");
    println!(
        "1,000 records applied in {took:?} (8 at once), {} writes",
        writes(&sim) - before
    );

    let before = writes(&sim);
    let again = sync
        .plan(&desired, DnsPlanOptions::default())
        .await
        .expect("plan");
    assert!(again.is_empty());
    sync.apply(&again, &ApplyOptions::new())
        .await
        .expect("apply");
    assert_eq!(writes(&sim), before, "the second apply makes no write");
    sim.shutdown().await;
}

#[tokio::test]
async fn the_cdn_round_trips_at_several_seeds() {
    for seed in SEEDS {
        let (sim, client) = start(SimConfig::default().with_seed(seed)).await;
        let sync = hostapi_sync::CdnSync::new(&client);
        let current = sync.current().await.expect("current");
        assert!(!current.origins.is_empty());
        for format in [FileFormat::Yaml, FileFormat::Toml] {
            let text = current.to_text(format).expect("text");
            let read = CdnConfig::from_text(&text, "cdn", format).expect("reads");
            let plan = sync.plan(&read).await.expect("plan");
            assert!(plan.is_empty(), "seed {seed} {format}: {plan:?}\n{text}");

            // Edit: one origin's URL, a new origin, one ACL permission.
            let mut edited = text.clone();
            let first_url = current.origins[0].url.clone();
            edited = edited.replacen(&first_url, "https://edited.example.com", 1);
            let desired = CdnConfig::from_text(&edited, "cdn", format).expect("reads");
            let mut desired = desired;
            desired.origins.push(hostapi_sync::OriginConfig::new(
                format!("new-{}", format.name()),
                "https://new.example.com",
            ));
            let acl = desired.acl.as_mut().expect("acl");
            acl.ftplog.get = !acl.ftplog.get;
            let plan = sync.plan(&desired).await.expect("plan");
            assert_eq!(plan.create.len(), 1, "{plan:?}");
            assert_eq!(plan.update.len(), 2, "{plan:?}");
            assert!(plan.delete.is_empty());
            let before = writes(&sim);
            let report = sync
                .apply(&plan, &ApplyOptions::new())
                .await
                .expect("apply");
            assert!(report.all_applied(), "{report:?}");
            assert_eq!(writes(&sim) - before, 3);
            let again = sync.plan(&desired).await.expect("plan");
            assert!(again.is_empty(), "{again:?}");
            // Put it back for the next format.
            let back = sync.plan(&current).await.expect("plan");
            sync.apply(&back, &ApplyOptions::new())
                .await
                .expect("apply");
        }
        // Origins only on the service are kept: the API cannot delete them.
        let only_one = CdnConfig::from_text("origins: []\n", "cdn.yaml", FileFormat::Yaml).unwrap();
        let plan = sync.plan(&only_one).await.expect("plan");
        assert!(plan.is_empty());
        assert!(!plan.kept.is_empty());
        sim.shutdown().await;
    }
}

#[test]
fn bad_files_name_the_file_line_and_field() {
    let domain: DomainName = "example.com".parse().unwrap();
    let cases: &[(FileFormat, &str, usize, &str)] = &[
        (
            FileFormat::Yaml,
            "ttl: 300\nrecords:\n  - name: www\n    type: A\n    values: [192.0.2.1]\n  - name: mail\n    type: A\n    values: [not-an-address]\n",
            6,
            "records[1].values[0]",
        ),
        (
            FileFormat::Yaml,
            "records:\n  - name: \"@\"\n    type: MX\n    values: [mail.example.com]\n",
            2,
            "records[0].values[0].priority",
        ),
        (
            FileFormat::Yaml,
            "records:\n  - name: a\n    type: A\n    ttl: 300\n    value: 192.0.2.1\n  - name: b\n    type: A\n    ttl: 600\n    value: 192.0.2.2\n",
            6,
            "records[1].ttl",
        ),
        (
            FileFormat::Toml,
            "ttl = 300\n\n[[records]]\nname = \"www\"\ntype = \"AAAA\"\nvalues = [\"192.0.2.1\"]\n",
            3,
            "records[0].values[0]",
        ),
        (
            FileFormat::Toml,
            "[[records]]\nname = \"other.org.\"\ntype = \"A\"\nvalue = \"192.0.2.1\"\n",
            1,
            "records[0].name",
        ),
        (
            FileFormat::Bind,
            "$ORIGIN example.com.\n$TTL 300\n@ IN A 192.0.2.1\nwww 600 IN A 192.0.2.2\n",
            4,
            "ttl",
        ),
        (
            FileFormat::Bind,
            "$TTL 300\n@ IN A 192.0.2.1\n\n; a comment\nmail IN MX mail.example.com.\n",
            5,
            "",
        ),
    ];
    for (format, text, line, field) in cases {
        let error = DnsZone::from_text(text, "bad.file", &domain, *format)
            .expect_err(&format!("{format}: {text}"));
        assert_eq!(error.file, "bad.file");
        assert_eq!(error.line, Some(*line), "{format}: {error}");
        if field.is_empty() {
            assert_eq!(error.field, None, "{error}");
        } else {
            assert_eq!(error.field.as_deref(), Some(*field), "{format}: {error}");
        }
    }
    let error = CdnConfig::from_text(
        "origins:\n  - label: a\n    url: ftp://x\n",
        "cdn.yaml",
        FileFormat::Yaml,
    )
    .expect_err("bad url");
    assert_eq!(error.line, Some(2), "{error}");
    assert_eq!(error.field.as_deref(), Some("origins[0].url"), "{error}");
}
