//! octoDNS zone files: octoDNS's own test zone and documented example (copied in
//! `tests/octodns/`, origin in its README) read, planned, applied to the simulator,
//! planned again (empty), and exported as octoDNS and read back.

use std::path::PathBuf;

use hostapi::{Client, types::DomainName};
use hostapi_sim::{Sim, SimConfig};
use hostapi_sync::{ApplyOptions, DnsPlanOptions, DnsSync, DnsZone, FileFormat};

fn fixture(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/octodns")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn domain() -> DomainName {
    // The simulator's first domain, which takes writes.
    "acme-1.com".parse().unwrap()
}

fn described(zone: &DnsZone) -> Vec<String> {
    let mut out: Vec<String> = zone
        .records
        .iter()
        .map(|r| r.describe(&zone.domain))
        .collect();
    out.sort();
    out
}

/// octoDNS's test zone without its `ttl` lines (it gives records different TTLs,
/// which a service with one TTL per domain cannot hold).
fn unit_tests_one_ttl() -> String {
    fixture("unit.tests.yaml")
        // The one record whose `ttl` opens its list item.
        .replace("- ttl: 3600\n    type: SSHFP", "- type: SSHFP")
        .lines()
        .filter(|line| !line.trim_start().starts_with("ttl:"))
        .map(|line| format!("{line}\n"))
        .collect()
}

#[test]
fn octodns_test_zone_with_several_ttls_is_refused_naming_the_record() {
    let error = DnsZone::from_text(
        &fixture("unit.tests.yaml"),
        "unit.tests.yaml",
        &domain(),
        FileFormat::Yaml,
    )
    .unwrap_err();
    assert_eq!(error.field.as_deref(), Some("cname.ttl"), "{error}");
    assert!(
        error.message.contains("300 differs from the TTL 600"),
        "{error}"
    );
    assert!(error.line.is_some(), "{error}");
}

#[test]
fn octodns_test_zone_reads_every_record_the_service_holds() {
    let text = unit_tests_one_ttl();
    let zone = DnsZone::from_text(&text, "unit.tests.yaml", &domain(), FileFormat::Yaml)
        .unwrap_or_else(|e| panic!("{e}\n{text}"));
    // Recognised on sight, and the same with the format named.
    let named =
        DnsZone::from_text(&text, "unit.tests.yaml", &domain(), FileFormat::Octodns).unwrap();
    assert_eq!(named, zone);
    assert_eq!(zone.ttl, None);
    assert_eq!(
        described(&zone),
        [
            "@ CAA 0 issue \"ca.unit.tests\"",
            "@ NS 6.2.3.4",
            "@ NS 7.2.3.4",
            "_imap._tcp SRV 0 0 0 .",
            "_pop3._tcp SRV 0 0 0 .",
            "_srv._tcp SRV 10 20 30 foo-1.unit.tests",
            "_srv._tcp SRV 12 20 30 foo-2.unit.tests",
            "aaaa AAAA 2601:644:500:e210:62f8:1dff:feb8:947a",
            "cname CNAME unit.tests",
            "excluded CNAME unit.tests",
            "included CNAME unit.tests",
            "mx MX 10 smtp-4.unit.tests",
            "mx MX 20 smtp-2.unit.tests",
            "mx MX 30 smtp-3.unit.tests",
            "mx MX 40 smtp-1.unit.tests",
            "ptr PTR foo.bar.com",
            "spf SPF v=spf1 ip4:192.168.0.1/16-all",
            "sub NS 6.2.3.4",
            "sub NS 7.2.3.4",
            "sub.txt NS ns1.test",
            "sub.txt NS ns2.test",
            "subzone NS 192.0.2.1",
            "subzone NS 192.0.2.8",
            "txt TXT Bah bah black sheep",
            "txt TXT have you any wool.",
            "txt TXT v=DKIM1;k=rsa;s=email;h=sha256;p=A/kinda+of/long/string+with+numb3rs",
            "www A 2.2.3.6",
            "www.sub A 2.2.3.6",
        ]
    );
    let mut unsupported: Vec<String> = zone
        .unsupported
        .iter()
        .map(|u| format!("{} {}", u.name, u.record_type))
        .collect();
    unsupported.sort();
    assert_eq!(
        unsupported,
        [
            "acme-1.com A",
            "acme-1.com SSHFP",
            "dname.acme-1.com DNAME",
            "loc.acme-1.com LOC",
            "naptr.acme-1.com NAPTR",
            "urlfwd.acme-1.com URLFWD",
        ]
    );
    assert!(
        zone.unsupported[0].reason.contains("geo"),
        "{:?}",
        zone.unsupported
    );
    assert_eq!(zone.skipped, ["ignored A (octodns: ignored)"]);
}

#[test]
fn octodns_documented_example_needs_its_aliases_written_out() {
    let text = fixture("my-domain.com.yaml");
    let error =
        DnsZone::from_text(&text, "my-domain.com.yaml", &domain(), FileFormat::Yaml).unwrap_err();
    assert!(error.message.contains("anchors and aliases"), "{error}");
    assert_eq!(error.line, Some(9), "{error}");
    let written_out = text
        .replace(" &WEB_A_VALUES", "")
        .replace(" &WEB_AAAA_VALUES", "")
        .replace("*WEB_A_VALUES", "[203.0.113.42, 203.0.113.43]")
        .replace("*WEB_AAAA_VALUES", "['2001:DB8::44']");
    let zone = DnsZone::from_text(
        &written_out,
        "my-domain.com.yaml",
        &domain(),
        FileFormat::Yaml,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        described(&zone),
        [
            "* A 203.0.113.45",
            "* AAAA 2001:DB8::46",
            "@ A 203.0.113.42",
            "@ A 203.0.113.43",
            "@ AAAA 2001:DB8::44",
            "@ TXT some-verification=3becb991-932f-4433-a280-9df6f39b6194",
            "@ TXT z-other-thing=this proves i have control over this domain",
            "NADCBiQKBgQ._companyname TXT a-different-proof-of-ownership",
            "pointer CNAME look.over-here.net",
            "www A 203.0.113.42",
            "www A 203.0.113.43",
            "www AAAA 2001:DB8::44",
        ]
    );
}

#[tokio::test]
async fn an_octodns_zone_plans_applies_and_exports_as_octodns() {
    let sim = Sim::start(SimConfig::default()).await.expect("simulator");
    let client = Client::builder()
        .base_url(sim.base_url())
        .api_key(sim.api_key())
        .build()
        .expect("client");
    let domain = domain();
    let desired = DnsZone::from_text(
        &unit_tests_one_ttl(),
        "unit.tests.yaml",
        &domain,
        FileFormat::Yaml,
    )
    .unwrap();
    let sync = DnsSync::new(&client, &domain);
    let options = DnsPlanOptions::default().prune(true);
    let refused = sync.plan(&desired, options).await.unwrap_err();
    assert!(
        refused
            .to_string()
            .contains("6 record(s) the service cannot hold"),
        "{refused}"
    );
    let options = options.skip_unsupported(true);
    let plan = sync.plan(&desired, options).await.expect("plan");
    let report = sync
        .apply(&plan, &ApplyOptions::default())
        .await
        .expect("apply");
    assert!(report.all_applied(), "{:?}", report.changes);
    assert!(sync.plan(&desired, options).await.unwrap().is_empty());

    // Exported as octoDNS, the file reads back as the same records, and plans empty.
    let exported = sync.export().await.expect("export");
    let text = exported.to_text(FileFormat::Octodns).expect("writes");
    assert!(
        text.not_expressible.is_empty(),
        "{:?}",
        text.not_expressible
    );
    assert!(text.text.contains("'':\n"), "{}", text.text);
    assert!(text.text.contains("v=DKIM1\\;k=rsa"), "{}", text.text);
    assert!(
        text.text.contains("exchange: smtp-4.unit.tests.\n"),
        "{}",
        text.text
    );
    let again = DnsZone::from_text(&text.text, "export.yaml", &domain, FileFormat::Yaml)
        .unwrap_or_else(|e| panic!("{e}\n{}", text.text));
    // The apex A set, which the file gives only with `geo` answers (unsupported), is
    // the service's own and kept even when pruning.
    let mut expected = described(&desired);
    expected.insert(0, "@ A 185.100.0.10".to_owned());
    assert_eq!(described(&again), expected);
    let plan = sync.plan(&again, options).await.unwrap();
    assert!(plan.is_empty(), "{:?}", plan.diff_lines());
}
