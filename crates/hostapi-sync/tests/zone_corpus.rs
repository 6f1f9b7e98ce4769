//! The zone-file corpus (`tests/zones/`): each file read, planned, applied to the
//! simulator and planned again (empty), and the records the service then holds
//! compared with what the reference parser reads from the file's normalised copy.
//!
//! The reference parser is the `domain` crate's own zone-file reader, unaided, on
//! `NAME.reference.zone` (normalised by hand: see `tests/zones/README.md`).

use std::path::PathBuf;
use std::str::FromStr;

use bytes::Bytes;
use domain::base::Name;
use domain::base::iana::Rtype;
use domain::base::zonefile_fmt::{DisplayKind, ZonefileFmt};
use domain::rdata::{Txt, ZoneRecordData};
use domain::zonefile::inplace::{Entry, Zonefile};
use hostapi::{Client, types::DomainName};
use hostapi_sim::{Sim, SimConfig};
use hostapi_sync::{ApplyOptions, DnsPlanOptions, DnsSync, DnsZone, FileFormat};

/// The simulator's first domain, which takes writes.
const DOMAIN: &str = "acme-1.com";

/// A record as compared: name, type, priority, value (names without letter case or
/// final dot, TXT as its joined text).
type Compared = (String, String, Option<u16>, String);

fn corpus(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/zones")
        .join(name);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .replace("example.com", DOMAIN)
}

fn host(name: &str) -> String {
    if name == "." {
        return name.to_owned();
    }
    name.trim_end_matches('.').to_ascii_lowercase()
}

fn text_of(txt: &Txt<Bytes>) -> String {
    String::from_utf8(txt.text::<Vec<u8>>()).expect("UTF-8 text")
}

/// What the `domain` crate reads from a reference copy.
fn reference(text: &str) -> Vec<Compared> {
    let mut zone = Zonefile::new();
    zone.extend_from_slice(text.as_bytes());
    zone.set_origin(Name::<Bytes>::from_str(&format!("{DOMAIN}.")).unwrap());
    let mut out = Vec::new();
    while let Some(entry) = zone.next_entry().expect("the reference reads") {
        let Entry::Record(record) = entry else {
            panic!("no includes")
        };
        let name = host(&record.owner().to_string());
        let rtype = record.rtype().to_string();
        let (priority, value) = match record.data() {
            ZoneRecordData::Mx(mx) => (Some(mx.preference()), host(&mx.exchange().to_string())),
            ZoneRecordData::Srv(srv) => (
                Some(srv.priority()),
                format!(
                    "{} {} {}",
                    srv.weight(),
                    srv.port(),
                    host(&srv.target().to_string())
                ),
            ),
            ZoneRecordData::Txt(txt) => (None, text_of(txt)),
            ZoneRecordData::Unknown(data) if data.rtype() == Rtype::SPF => (
                None,
                text_of(&Txt::from_octets(data.data().clone()).unwrap()),
            ),
            ZoneRecordData::Cname(_) | ZoneRecordData::Ns(_) => (
                None,
                host(
                    &record
                        .data()
                        .display_zonefile(DisplayKind::Simple)
                        .to_string(),
                ),
            ),
            data => (None, data.display_zonefile(DisplayKind::Simple).to_string()),
        };
        out.push((name, rtype, priority, value));
    }
    out.sort();
    out
}

/// What the service holds.
async fn held(client: &Client, domain: &DomainName) -> Vec<Compared> {
    let mut out: Vec<Compared> = client
        .domains()
        .records(domain)
        .list()
        .await
        .expect("records")
        .iter()
        .filter_map(|r| {
            let rtype = r.record_type.as_ref()?.as_wire().to_ascii_uppercase();
            let value = match rtype.as_str() {
                "CNAME" | "NS" | "MX" | "PTR" => host(&r.content),
                "SRV" => {
                    let mut words: Vec<String> =
                        r.content.split_whitespace().map(str::to_owned).collect();
                    if let Some(target) = words.last_mut() {
                        *target = host(target);
                    }
                    words.join(" ")
                }
                _ => r.content.clone(),
            };
            Some((host(&r.name), rtype, r.priority, value))
        })
        .collect();
    out.sort();
    out
}

async fn round_trip(name: &str, unsupported: &[&str]) {
    let text = corpus(&format!("{name}.zone"));
    let expected = reference(&corpus(&format!("{name}.reference.zone")));
    let domain: DomainName = DOMAIN.parse().unwrap();
    let desired = DnsZone::from_text(&text, format!("{name}.zone"), &domain, FileFormat::Bind)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut named: Vec<String> = desired
        .unsupported
        .iter()
        .map(|u| format!("{} {}", host(&u.name), u.record_type))
        .collect();
    named.sort();
    let mut wanted: Vec<String> = unsupported
        .iter()
        .map(|u| u.replace("example.com", DOMAIN))
        .collect();
    wanted.sort();
    assert_eq!(named, wanted, "{name}: the records named unsupported");
    assert!(
        desired
            .records
            .iter()
            .all(|r| !r.content.starts_with("\\#")),
        "{name}: generic syntax kept as text"
    );

    let sim = Sim::start(SimConfig::default()).await.expect("simulator");
    let client = Client::builder()
        .base_url(sim.base_url())
        .api_key(sim.api_key())
        .build()
        .expect("client");
    let sync = DnsSync::new(&client, &domain);
    let options = DnsPlanOptions::default().prune(true);
    if !unsupported.is_empty() {
        let refused = sync.plan(&desired, options).await.unwrap_err();
        assert!(
            refused.to_string().contains("cannot hold"),
            "{name}: {refused}"
        );
        assert!(sim.write_log().is_empty(), "{name}: nothing is sent");
    }
    let options = options.skip_unsupported(true);
    let plan = sync.plan(&desired, options).await.expect("plan");
    assert_eq!(plan.unsupported.len(), unsupported.len(), "{name}");
    let report = sync
        .apply(&plan, &ApplyOptions::default())
        .await
        .expect("apply");
    assert!(report.all_applied(), "{name}: {:?}", report.changes);
    let again = sync.plan(&desired, options).await.expect("plan again");
    assert!(again.is_empty(), "{name}: {:?}", again.diff_lines());
    assert_eq!(held(&client, &domain).await, expected, "{name}");
}

#[tokio::test]
async fn a_textbook_zone_with_blank_owners_and_origin_switches() {
    round_trip("textbook", &[]).await;
}

#[tokio::test]
async fn a_regression_zone_with_types_the_service_does_not_hold() {
    round_trip(
        "regression",
        &[
            "example.com MX",
            "toroot.example.com CNAME",
            "server1.example.com RP",
            "enum.example.com NAPTR",
            "d.example.com DNAME",
            "urc65226.example.com TYPE65226",
        ],
    )
    .await;
}

#[tokio::test]
async fn a_production_zone_with_generic_caa_and_long_dkim_keys() {
    round_trip("production", &[]).await;
}

#[test]
fn the_production_zone_warns_of_unquoted_words() {
    let domain: DomainName = DOMAIN.parse().unwrap();
    let zone = DnsZone::from_text(
        &corpus("production.zone"),
        "production.zone",
        &domain,
        FileFormat::Bind,
    )
    .unwrap();
    assert_eq!(zone.warnings.len(), 1, "{:?}", zone.warnings);
    assert!(
        zone.warnings[0].starts_with("line 31:"),
        "{:?}",
        zone.warnings
    );
    assert_eq!(zone.ttl, Some(300));
}
