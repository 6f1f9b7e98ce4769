//! Reading and planning large zones: a zone file of 100,000 records read, and
//! planned against a service that holds each record with another value (every record
//! an update). Target: under 2 s for the 100,000-record plan in a release build.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use hostapi::types::DomainName;
use hostapi_sync::{DnsPlanOptions, DnsZone, FileFormat, plan_dns};

/// A zone file of `n` records: A records, a few MX and TXT sets.
fn zone_text(n: usize, offset: u8) -> String {
    let mut text = String::from("$ORIGIN example.com.\n$TTL 300\n");
    for i in 0..n {
        match i % 10 {
            0 => text.push_str(&format!("h{i} MX 10 mail{offset}.example.net.\n")),
            1 => text.push_str(&format!("h{i} TXT \"v=spf1 ip4:192.0.2.{offset} -all\"\n")),
            _ => text.push_str(&format!(
                "h{i} A 10.{}.{}.{offset}\n",
                (i >> 8) & 0xff,
                i & 0xff
            )),
        }
    }
    text
}

fn read(text: &str, domain: &DomainName) -> DnsZone {
    DnsZone::from_text(text, "bench.zone", domain, FileFormat::Bind).expect("reads")
}

fn bench(c: &mut Criterion) {
    let domain: DomainName = "example.com".parse().unwrap();
    let mut group = c.benchmark_group("dns");
    group.sample_size(10);
    for n in [10_000, 100_000] {
        let desired_text = zone_text(n, 1);
        let current = read(&zone_text(n, 2), &domain);
        group.bench_function(format!("read {n}-record zone file"), |b| {
            b.iter(|| read(black_box(&desired_text), &domain))
        });
        let desired = read(&desired_text, &domain);
        group.bench_function(format!("plan {n}-record zone"), |b| {
            b.iter(|| {
                let plan = plan_dns(
                    black_box(&current),
                    black_box(&desired),
                    DnsPlanOptions::default(),
                );
                assert_eq!(plan.update.len(), n);
                plan
            })
        });
        group.bench_function(format!("read and plan {n}-record zone file"), |b| {
            b.iter(|| {
                let desired = read(black_box(&desired_text), &domain);
                plan_dns(&current, &desired, DnsPlanOptions::default())
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
