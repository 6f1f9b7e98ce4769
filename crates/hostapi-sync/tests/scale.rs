//! Reading, planning, diffing and writing grow no faster than n log n: the time for
//! 4n records is compared with the time for n (a quadratic step makes it 16 times
//! longer; a linear one 4 times), best of three runs each so that a loaded machine
//! does not decide the result.

use std::time::{Duration, Instant};

use hostapi::types::DomainName;
use hostapi_sync::{DnsPlanOptions, DnsZone, FileFormat, plan_dns};

fn zone_text(n: usize, offset: u8) -> String {
    let mut text = String::from("$ORIGIN example.com.\n$TTL 300\n");
    for i in 0..n {
        match i % 10 {
            0 => text.push_str(&format!("h{i} MX 10 mail{offset}.example.net.\n")),
            1 => text.push_str(&format!("h{i} TXT \"v=spf1 ip4:192.0.2.{offset} -all\"\n")),
            2 => text.push_str(&format!("big TXT \"value {i} {offset}\"\n")),
            _ => text.push_str(&format!(
                "h{i} A 10.{}.{}.{offset}\n",
                (i >> 8) & 0xff,
                i & 0xff
            )),
        }
    }
    text
}

/// Reads a desired zone, plans it against a current one that differs in every
/// value, and writes the plan's diff and the zone back as text: the best of three
/// runs of the whole, and of its reading and planning alone.
fn work(n: usize) -> (Duration, Duration) {
    let domain: DomainName = "example.com".parse().unwrap();
    let current = DnsZone::from_text(&zone_text(n, 2), "current.zone", &domain, FileFormat::Bind)
        .expect("reads");
    let desired_text = zone_text(n, 1);
    let runs: Vec<(Duration, Duration)> = (0..3)
        .map(|_| {
            let started = Instant::now();
            let desired =
                DnsZone::from_text(&desired_text, "desired.zone", &domain, FileFormat::Bind)
                    .expect("reads");
            let plan = plan_dns(&current, &desired, DnsPlanOptions::default().prune(true));
            let planned = started.elapsed();
            assert_eq!(plan.len(), n);
            assert_eq!(plan.diff_lines().len(), n);
            for format in [FileFormat::Yaml, FileFormat::Octodns] {
                assert!(!desired.to_text(format).expect("writes").text.is_empty());
            }
            (started.elapsed(), planned)
        })
        .collect();
    (
        runs.iter().map(|r| r.0).min().unwrap(),
        runs.iter().map(|r| r.1).min().unwrap(),
    )
}

#[test]
fn a_zone_four_times_larger_takes_at_most_about_four_times_longer() {
    let (small, _) = work(5_000);
    let (large, planned) = work(20_000);
    let ratio = large.as_secs_f64() / small.as_secs_f64();
    assert!(
        ratio < 9.0,
        "5,000 records: {small:?}; 20,000: {large:?}: {ratio:.1} times longer (16 is quadratic)"
    );
    // Reading and planning 20,000 records in a debug build: a linear pass stays far
    // under the bound even on a loaded machine; a quadratic step did not.
    assert!(
        planned < Duration::from_secs(10),
        "20,000 records read and planned in {planned:?}"
    );
}
