//! What a downstream test does with the models, from outside the crate: build them by
//! hand (`new`, `Default`, public fields), read them from JSON fixtures, and print ids
//! and enums in aligned columns.

use std::net::IpAddr;

use chrono::DateTime;
use hostapi::{
    Secret, bare_metal::BareMetalHardware, bare_metal::BareMetalServer, cdn::Origin,
    cloud::CloudServer, cloud::CloudServerState, domains::DnsRecord, domains::DnsRecordType,
    domains::Domain, ips::IpAddress, types::BareMetalId, types::CloudServerId, types::ContractTerm,
    types::DataSize, types::DataUnit, types::DnsRecordId, types::DomainName, types::Extra,
    types::HostingContract, types::Job, types::JobId, types::JobStatus, types::Money,
    types::OriginId, types::REDACTED, types::TermUnit, types::VirtualServerId,
    virtual_servers::VirtualServer, virtual_servers::VirtualServerState,
};
use rust_decimal::Decimal;
use serde::Serialize;
use serde::de::DeserializeOwned;

/// `value` through JSON (secrets exposed) and back.
fn round_trip<T: Serialize + DeserializeOwned>(value: &T) -> T {
    let json = hostapi::types::expose_secrets(|| serde_json::to_string(value)).expect("serialises");
    serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: {json}"))
}

#[test]
fn the_listed_models_are_built_with_new_and_their_public_fields() {
    let mut server = BareMetalServer::new(BareMetalId::new("20001").unwrap());
    assert_eq!(server.name, None);
    assert!(server.extra.is_empty());
    server.name = Some("web-1".into());
    let mut hardware = BareMetalHardware::default();
    hardware.cpu_count = Some(2);
    hardware.ram = Some(DataSize::new(Decimal::from(64), DataUnit::Gigabytes));
    server.hardware = Some(hardware);
    let mut contract = HostingContract::default();
    contract.term = Some(ContractTerm::new(1, TermUnit::Years));
    server.contract = Some(contract);
    server.extra.insert("rack".into(), serde_json::json!("A1"));
    assert_eq!(round_trip(&server), server);

    let mut virtual_server = VirtualServer::new(VirtualServerId::new("7").unwrap());
    virtual_server.state = Some(VirtualServerState::Running);
    virtual_server
        .ips
        .push(IpAddress::new("192.0.2.1".parse::<IpAddr>().unwrap()));
    assert_eq!(round_trip(&virtual_server), virtual_server);

    let mut cloud = CloudServer::new(CloudServerId::new("c90e8a9c-09ba").unwrap());
    cloud.state = Some(CloudServerState::Starting);
    assert_eq!(round_trip(&cloud), cloud);

    let mut record = DnsRecord::new(
        DnsRecordId::new("7").unwrap(),
        "example.com",
        DnsRecordType::Mx,
        "mail.example.com",
    );
    record.priority = Some(10);
    assert_eq!(round_trip(&record), record);

    let mut domain = Domain::new(DomainName::new("Example.COM").unwrap());
    domain.ttl = Some(3600);
    domain.monthly_price = Some(Decimal::new(1250, 2));
    assert!(domain.is_normal());
    assert_eq!(round_trip(&domain), domain);

    let mut origin = Origin::new(OriginId::from(3u32));
    origin.label = Some("static".into());
    origin.basic_auth_password = Some(Secret::new("s3cret"));
    assert_eq!(round_trip(&origin), origin);

    let mut job = Job::new(JobId::new("job-1").unwrap());
    job.status = Some(JobStatus::Pending);
    job.created_at = Some(DateTime::parse_from_rfc3339("2024-01-01T10:00:00+01:00").unwrap());
    assert_eq!(round_trip(&job), job);

    let money = Money::new(Decimal::new(995, 2), Some("EUR".into()));
    assert_eq!(round_trip(&money), money);
}

#[test]
fn a_bad_id_in_a_fixture_is_an_error_naming_the_rule() {
    let fixture = |id: &str| {
        serde_json::json!({"id": id, "name": "www", "type": "A", "content": "192.0.2.1",
            "priority": null})
    };
    let good: DnsRecord = serde_json::from_value(fixture("7")).expect("a record");
    assert_eq!(good.id.as_str(), "7");
    for bad in ["7/..", "", "..", "seven", "-1"] {
        let error = serde_json::from_value::<DnsRecord>(fixture(bad)).expect_err(bad);
        assert!(error.to_string().contains("DnsRecordId"), "{bad}: {error}");
    }
    // An integer id, as some views send one, reads as its decimal text.
    let number: BareMetalId = serde_json::from_str("20001").unwrap();
    assert_eq!(number.as_str(), "20001");
    assert!(serde_json::from_str::<BareMetalId>("-3").is_err());
    assert!(serde_json::from_str::<DomainName>("\"not a domain\"").is_err());
}

#[test]
fn unknown_values_keep_their_case_and_read_back() {
    let state = CloudServerState::from_wire("Maintenance");
    assert_eq!(state.as_wire(), "Maintenance");
    assert_eq!(state.to_string(), "Maintenance");
    assert_eq!(round_trip(&state), state);
    assert_eq!(round_trip(&state).as_wire(), "Maintenance");
    let kind: DnsRecordType = "Sshfp".parse().unwrap();
    assert_eq!(kind.as_wire(), "Sshfp");
    assert_eq!(round_trip(&kind).as_wire(), "Sshfp");
    // Compared as the set reads values: without regard to letter case, in one hash.
    assert_eq!(kind, DnsRecordType::from_wire("SSHFP"));
    assert_ne!(kind, DnsRecordType::from_wire("TLSA"));
    let set: std::collections::HashSet<_> = [kind.clone(), "sshfp".parse().unwrap()].into();
    assert_eq!(set.len(), 1);
    // Units are an exact set: unknown units that differ in case stay apart.
    assert_ne!(DataUnit::from_wire("xB"), DataUnit::from_wire("XB"));
    // Known values still read in any letter case, and serialise as they always did.
    assert_eq!(
        CloudServerState::from_wire("running"),
        CloudServerState::Running
    );
    assert_eq!(DnsRecordType::from_wire("mx"), DnsRecordType::Mx);
    assert_eq!(serde_json::to_string(&DnsRecordType::Mx).unwrap(), "\"MX\"");
    assert_eq!(round_trip(&DnsRecordType::Mx), DnsRecordType::Mx);
    // Units tell bits from bytes by case, also on the way back.
    assert_eq!(round_trip(&DataUnit::Gigabits), DataUnit::Gigabits);
    assert_eq!(round_trip(&DataUnit::Gigabytes), DataUnit::Gigabytes);
}

#[test]
fn extra_and_secrets_read_back_as_the_docs_say() {
    let mut extra = Extra::new();
    extra.insert("note".into(), serde_json::json!({"a": [1, 2.5, null]}));
    extra.insert("password".into(), serde_json::json!("hunter2"));
    assert_eq!(round_trip(&extra), extra);
    // Written without exposing secrets, the secret-looking value is the marker text.
    let redacted: Extra = serde_json::from_str(&serde_json::to_string(&extra).unwrap()).unwrap();
    assert_eq!(redacted["password"], REDACTED);
    assert_eq!(redacted["note"], extra["note"]);

    let mut origin = Origin::new(OriginId::from(3u32));
    origin.basic_auth_password = Some(Secret::new("s3cret"));
    let hidden: Origin = serde_json::from_str(&serde_json::to_string(&origin).unwrap()).unwrap();
    let password = hidden.basic_auth_password.as_ref().unwrap();
    assert!(password.is_redacted());
    assert_ne!(hidden, origin);
}

#[test]
fn ids_and_enums_honour_width_and_alignment() {
    let id = BareMetalId::new("20001").unwrap();
    assert_eq!(format!("{id:>8}|"), "   20001|");
    assert_eq!(format!("{id:<8}|"), "20001   |");
    assert_eq!(format!("{id:^9}|"), "  20001  |");
    assert_eq!(format!("{id:*>7}"), "**20001");
    let state = CloudServerState::Running;
    assert_eq!(format!("{state:<10}|"), "running   |");
    assert_eq!(format!("{:>5}", DnsRecordType::Mx), "   MX");
    let unknown = CloudServerState::from_wire("Paused");
    assert_eq!(format!("{unknown:>8}"), "  Paused");
    let domain = DomainName::new("example.com").unwrap();
    assert_eq!(format!("{domain:>13}"), "  example.com");
    // Precision truncates, as for strings.
    assert_eq!(format!("{id:.3}"), "200");
}
