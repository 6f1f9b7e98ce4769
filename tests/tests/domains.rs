//! Domains and DNS records: normalised output (snapshots), the exact wire form of each
//! write, validation before sending, and typed decode errors.

use hostapi::Error;
use hostapi::domains::{DnsRecordType, NewDnsRecord};
use hostapi::types::{DnsRecordId, DomainName, TermUnit};
use hostapi_tests::{API_KEY, client, decode_parts, fixture, strict_client, to_json};
use httpmock::Method::{DELETE, GET, POST, PUT};
use httpmock::MockServer;

const FORM: &str = "application/x-www-form-urlencoded";

fn example() -> DomainName {
    "example.com".parse().expect("a domain name")
}

fn domain_body(code: i64, ttl: u32) -> String {
    format!(
        r#"{{"domain":{{"code":{code},"domain":"example.com","status":"ACTIVE","ttl":{ttl},"readableStatus":"Pending registry update.","startDate":"Jan 5, 2014","contractTerm":"1 year","monthlyPrice":"12.99","isEditable":"true"}}}}"#
    )
}

#[tokio::test]
async fn list_normalises_every_quirk() {
    let server = MockServer::start_async().await;
    let mock = server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/v1/domains")
                .header("X-Svc-Auth", API_KEY);
            then.status(200)
                .header("content-type", "application/json")
                .body(fixture("infra-rest/domains.json"));
        })
        .await;
    let domains = client(&server)
        .domains()
        .list()
        .await
        .expect("list decodes");
    mock.assert_async().await;

    // contractTerm: "1 year", 2, "2 years", 1 — all become years.
    let terms: Vec<_> = domains
        .iter()
        .map(|d| d.contract_term.as_ref().map(|t| (t.amount, t.unit.clone())))
        .collect();
    assert_eq!(
        terms,
        [
            Some((1, TermUnit::Years)),
            Some((2, TermUnit::Years)),
            Some((2, TermUnit::Years)),
            Some((1, TermUnit::Years)),
        ]
    );
    // monthlyPrice: decimal strings and floats, exact, and normalised (one amount has
    // one representation: "0.10" reads as 0.1).
    let prices: Vec<_> = domains
        .iter()
        .map(|d| d.monthly_price.map(|p| p.to_string()))
        .collect();
    assert_eq!(
        prices,
        [
            Some("12.99".to_owned()),
            Some("4.5".to_owned()),
            Some("0.1".to_owned()),
            Some("19.95".to_owned()),
        ]
    );
    // isEditable: "true", true, "false", false.
    let editable: Vec<_> = domains.iter().map(|d| d.editable).collect();
    assert_eq!(editable, [Some(true), Some(true), Some(false), Some(false)]);
    // startDate `Mon d, yyyy`.
    assert_eq!(
        domains[0].start_date.map(|d| d.to_string()).as_deref(),
        Some("2014-01-05")
    );
    // code 1000 is normal, anything else is not; unknown fields are kept.
    assert!(domains[0].is_normal());
    assert!(!domains[2].is_normal());
    assert_eq!(domains[2].code, Some(1001));
    assert!(domains[2].extra.contains_key("dnssec"));
    insta::assert_json_snapshot!("domains_list", to_json(&domains));
}

#[tokio::test]
async fn get_unwraps_the_domain() {
    let server = MockServer::start_async().await;
    let mock = server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/v1/domains/example.com")
                .header("X-Svc-Auth", API_KEY);
            then.status(200).body(domain_body(1000, 3600));
        })
        .await;
    let domain = client(&server).domains().get(&example()).await.unwrap();
    mock.assert_async().await;
    assert_eq!(domain.name, example());
    assert_eq!(domain.ttl, Some(3600));
    assert!(domain.is_normal());
}

#[tokio::test]
async fn set_ttl_puts_the_form_and_answers_the_domain() {
    let server = MockServer::start_async().await;
    let mock = server
        .mock_async(|when, then| {
            when.method(PUT)
                .path("/v1/domains/example.com")
                .header("X-Svc-Auth", API_KEY)
                .header("content-type", FORM)
                .body("ttl=7200");
            then.status(200).body(domain_body(1000, 7200));
        })
        .await;
    let domain = client(&server)
        .domains()
        .set_ttl(&example(), 7200)
        .await
        .unwrap();
    mock.assert_async().await;
    assert_eq!(domain.ttl, Some(7200));
}

#[tokio::test]
async fn set_ttl_answers_a_domain_in_an_error_state_as_it_is() {
    // `code` is the domain's state (1001: a registry update pending), not the outcome
    // of the PUT, which succeeded.
    let server = MockServer::start_async().await;
    server
        .mock_async(|when, then| {
            when.method(PUT).path("/v1/domains/example.com");
            then.status(200).body(domain_body(1001, 3600));
        })
        .await;
    let domain = client(&server)
        .domains()
        .set_ttl(&example(), 3600)
        .await
        .expect("the change is answered");
    assert_eq!((domain.code, domain.ttl), (Some(1001), Some(3600)));
    assert!(!domain.is_normal());
    assert_eq!(
        domain.readable_status.as_deref(),
        Some("Pending registry update.")
    );
}

/// A name that is not a domain cannot be made, so no call can send it; the TTL is sent
/// as given (the documents give it no range).
#[tokio::test]
async fn bad_domains_cannot_be_named_and_ttls_are_sent_as_given() {
    for domain in [
        "exa mple.com",
        "..",
        "",
        "example.com/x",
        "not a domain",
        "../etc",
    ] {
        let err = domain.parse::<DomainName>().unwrap_err();
        assert!(
            matches!(&err, Error::InvalidInput { argument, .. } if argument == "domain"),
            "{domain:?}: {err}"
        );
    }
    for ttl in [0, 59, 86_401] {
        let server = MockServer::start_async().await;
        let mock = server
            .mock_async(|when, then| {
                when.method(PUT)
                    .path("/v1/domains/example.com")
                    .body(format!("ttl={ttl}"));
                then.status(200).body(domain_body(1000, ttl));
            })
            .await;
        let domain = client(&server)
            .domains()
            .set_ttl(&example(), ttl)
            .await
            .unwrap();
        mock.assert_async().await;
        assert_eq!(domain.ttl, Some(ttl));
    }
}

#[tokio::test]
async fn unreadable_domain_fields_are_decode_errors_with_their_path() {
    for (field, value, path) in [
        (
            "monthlyPrice",
            r#""twelve""#,
            "domains[1].domain.monthlyPrice",
        ),
        ("startDate", r#""yesterday""#, "domains[1].domain.startDate"),
        (
            "contractTerm",
            r#""forever""#,
            "domains[1].domain.contractTerm",
        ),
        ("isEditable", r#""maybe""#, "domains[1].domain.isEditable"),
        ("ttl", "-5", "domains[1].domain.ttl"),
    ] {
        let server = MockServer::start_async().await;
        let body = format!(
            r#"{{"domains":[{{"domain":{{"domain":"a.example"}}}},{{"domain":{{"domain":"b.example","{field}":{value}}}}}]}}"#
        );
        server
            .mock_async(|when, then| {
                when.method(GET).path("/v1/domains");
                then.status(200).body(body);
            })
            .await;
        // The field is lost, the value kept where it was; the domain is listed.
        let domains = client(&server).domains().list().await.unwrap();
        assert!(domains.is_complete() && domains.len() == 2, "{field}");
        let forgiven = serde_json::to_value(&domains[1]).unwrap();
        assert_eq!(
            domains[1].extra[field].to_string(),
            value,
            "{field}: {forgiven}"
        );
        // Strictly, the domain is unreadable, named by the path of its field.
        let strict = strict_client(&server).domains().list().await.unwrap();
        assert_eq!(strict.len(), 1, "{field}");
        let [unreadable] = strict.unreadable() else {
            panic!("{field}: {:?}", strict.unreadable())
        };
        assert_eq!(unreadable.index, 1);
        let (operation, at, _) = decode_parts(&unreadable.error).expect("a decode error");
        assert_eq!((operation, at), ("listDomains", path), "{field}");
    }
}

#[tokio::test]
async fn records_list_normalises_ids_types_priorities_and_spellings() {
    let server = MockServer::start_async().await;
    let mock = server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/v1/domains/example.com/dnsRecords")
                .header("X-Svc-Auth", API_KEY);
            then.status(200)
                .body(fixture("infra-rest/dns_records.json"));
        })
        .await;
    let records = client(&server)
        .domains()
        .records(&example())
        .list()
        .await
        .expect("records decode");
    mock.assert_async().await;

    // Ids as strings and integers become the same kind of id.
    assert_eq!(records[0].id.as_str(), "1001");
    assert_eq!(records[1].id.as_str(), "1002");
    // Types: known ones and an unknown one kept as sent.
    assert_eq!(records[3].record_type, Some(DnsRecordType::Mx));
    let naptr = records[7].record_type.as_ref().expect("a type");
    assert!(naptr.is_unknown());
    assert_eq!(naptr.as_wire(), "NAPTR");
    // Priorities only where sent (MX, SRV).
    let priorities: Vec<_> = records.iter().map(|r| r.priority).collect();
    assert_eq!(
        priorities,
        [None, None, None, Some(10), Some(20), None, None, None, None]
    );
    // The documented `name`/`data` spelling is read like `host`/`content`.
    assert_eq!(records[8].name, "api.example.com");
    assert_eq!(records[8].content, "192.0.2.11");
    assert!(records[8].extra.is_empty());
    assert!(records[7].extra.contains_key("ttlOverride"));
    insta::assert_json_snapshot!("dns_records_list", to_json(&records));
}

#[tokio::test]
async fn record_get_reads_an_integer_id() {
    let server = MockServer::start_async().await;
    server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/v1/domains/example.com/dnsRecords/1004")
                .header("X-Svc-Auth", API_KEY);
            then.status(200).body(
                r#"{"dnsRecord":{"id":1004,"host":"example.com","type":"MX","content":"mail.example.com","priority":10}}"#,
            );
        })
        .await;
    let record = client(&server)
        .domains()
        .records(&example())
        .get(&DnsRecordId::from(1004u32))
        .await
        .unwrap();
    assert_eq!(record.id.as_str(), "1004");
    assert_eq!(record.priority, Some(10));
    assert_eq!(record.record_type, Some(DnsRecordType::Mx));
}

#[tokio::test]
async fn create_posts_host_type_content_and_priority() {
    for (record, body) in [
        (
            NewDnsRecord::new("example.com", DnsRecordType::Mx, "mail.example.com").priority(10),
            "content=mail.example.com&host=example.com&priority=10&type=MX",
        ),
        (
            NewDnsRecord::new("www.example.com", DnsRecordType::A, "192.0.2.10"),
            "content=192.0.2.10&host=www.example.com&type=A",
        ),
        (
            NewDnsRecord::new("example.com", DnsRecordType::Txt, "v=spf1 mx -all"),
            "content=v%3Dspf1+mx+-all&host=example.com&type=TXT",
        ),
        (
            NewDnsRecord::new("example.com", DnsRecordType::from_wire("hinfo"), "x y"),
            "content=x+y&host=example.com&type=HINFO",
        ),
    ] {
        let server = MockServer::start_async().await;
        let mock = server
            .mock_async(|when, then| {
                when.method(POST)
                    .path("/v1/domains/example.com/dnsRecords")
                    .header("X-Svc-Auth", API_KEY)
                    .header("content-type", FORM)
                    .body(body);
                then.status(200).body(
                    r#"{"dnsRecord":{"id":"2001","host":"example.com","type":"MX","content":"mail.example.com","priority":10}}"#,
                );
            })
            .await;
        let created = client(&server)
            .domains()
            .records(&example())
            .create(&record)
            .await
            .unwrap_or_else(|e| panic!("{body}: {e}"));
        mock.assert_async().await;
        assert_eq!(created.id.as_str(), "2001");
    }
}

#[tokio::test]
async fn update_sends_both_documented_and_sample_spellings() {
    for (update, body) in [
        (
            NewDnsRecord::new("www.example.com", DnsRecordType::A, "192.0.2.20"),
            "content=192.0.2.20&data=192.0.2.20&host=www.example.com&id=1001&name=www.example.com&type=A",
        ),
        (
            NewDnsRecord::new("example.com", DnsRecordType::Mx, "mx2.example.com").priority(0),
            "content=mx2.example.com&data=mx2.example.com&host=example.com&id=1001&name=example.com&priority=0&type=MX",
        ),
    ] {
        let server = MockServer::start_async().await;
        let mock = server
            .mock_async(|when, then| {
                when.method(PUT)
                    .path("/v1/domains/example.com/dnsRecords/1001")
                    .header("X-Svc-Auth", API_KEY)
                    .header("content-type", FORM)
                    .body(body);
                then.status(200).body(
                    r#"{"dnsRecord":{"id":"1001","host":"www.example.com","type":"A","content":"192.0.2.20"}}"#,
                );
            })
            .await;
        let updated = client(&server)
            .domains()
            .records(&example())
            .update(&DnsRecordId::from(1001u32), &update)
            .await
            .unwrap_or_else(|e| panic!("{body}: {e}"));
        mock.assert_async().await;
        assert_eq!(updated.content, "192.0.2.20");
    }
}

#[tokio::test]
async fn an_update_can_start_from_the_record_as_read() {
    let server = MockServer::start_async().await;
    let mock = server
        .mock_async(|when, then| {
            when.method(PUT)
                .path("/v1/domains/example.com/dnsRecords/1005")
                .body("content=5+5061+sip.example.com&data=5+5061+sip.example.com&host=_sip._tcp.example.com&id=1005&name=_sip._tcp.example.com&priority=20&type=SRV");
            then.status(200).body(
                r#"{"dnsRecord":{"id":1005,"host":"_sip._tcp.example.com","type":"SRV","content":"5 5061 sip.example.com","priority":20}}"#,
            );
        })
        .await;
    server
        .mock_async(|when, then| {
            when.method(GET)
                .path("/v1/domains/example.com/dnsRecords/1005");
            then.status(200).body(
                r#"{"dnsRecord":{"id":1005,"host":"_sip._tcp.example.com","type":"SRV","content":"5 5060 sip.example.com","priority":20}}"#,
            );
        })
        .await;
    let client = client(&server);
    let records = client.domains().records(&example());
    let record = records.get(&DnsRecordId::from(1005u32)).await.unwrap();
    let mut update = NewDnsRecord::from_record(&record).expect("a record with a type");
    update.content = "5 5061 sip.example.com".into();
    let updated = records.update(&record.id, &update).await.unwrap();
    mock.assert_async().await;
    assert!(update.matches(&updated));
}

#[tokio::test]
async fn delete_accepts_an_empty_200() {
    let server = MockServer::start_async().await;
    let mock = server
        .mock_async(|when, then| {
            when.method(DELETE)
                .path("/v1/domains/example.com/dnsRecords/1001")
                .header("X-Svc-Auth", API_KEY)
                .body("");
            then.status(200);
        })
        .await;
    client(&server)
        .domains()
        .records(&example())
        .delete(&"1001".parse().unwrap())
        .await
        .unwrap();
    mock.assert_async().await;
}

#[tokio::test]
async fn invalid_records_send_nothing() {
    let server = MockServer::start_async().await;
    let any = server
        .mock_async(|when, then| {
            when.any_request();
            then.status(500);
        })
        .await;
    let client = client(&server);
    let records = client.domains().records(&example());
    let cases = [
        (
            NewDnsRecord::new("  ", DnsRecordType::A, "192.0.2.1"),
            "name",
        ),
        (NewDnsRecord::new("www", DnsRecordType::Txt, " "), "content"),
        (
            NewDnsRecord::new("www", DnsRecordType::A, "2001:db8::1"),
            "content",
        ),
        (
            NewDnsRecord::new("www", DnsRecordType::A, "www.example.com"),
            "content",
        ),
        (
            NewDnsRecord::new("www", DnsRecordType::Aaaa, "192.0.2.1"),
            "content",
        ),
        (
            NewDnsRecord::new("example.com", DnsRecordType::Mx, "mail.example.com"),
            "priority",
        ),
        (
            NewDnsRecord::new("_sip._tcp", DnsRecordType::Srv, "5 5060 sip"),
            "priority",
        ),
        (
            NewDnsRecord::new("www", DnsRecordType::A, "192.0.2.1").priority(5),
            "priority",
        ),
        (
            NewDnsRecord::new("www", DnsRecordType::from_wire("A B"), "x"),
            "record_type",
        ),
        (
            NewDnsRecord::new("www", DnsRecordType::from_wire(""), "x"),
            "record_type",
        ),
    ];
    for (record, argument) in cases {
        let err = records.create(&record).await.unwrap_err();
        assert!(
            matches!(&err, Error::InvalidInput { argument: a, .. } if a == argument),
            "{record:?}: {err}"
        );
        let err = records
            .update(&DnsRecordId::from(1u32), &record)
            .await
            .unwrap_err();
        assert!(
            matches!(&err, Error::InvalidInput { argument: a, .. } if a == argument),
            "update {record:?}: {err}"
        );
    }
    // A record id is a number by its rule: one that is not cannot be made.
    let err = "abc".parse::<hostapi::types::DnsRecordId>().unwrap_err();
    assert!(matches!(&err, Error::InvalidInput { argument, .. } if argument == "DnsRecordId"));
    // A domain that is not one cannot be named (see
    // `bad_domains_cannot_be_named_and_ttls_are_sent_as_given`), so no record call can
    // send one.
    assert_eq!(any.calls_async().await, 0);
}

/// What a record lacks or holds in the wrong type costs that field (only its id is
/// required); a strict client refuses a value it had to forgive.
#[tokio::test]
async fn unreadable_records_are_decode_errors_with_their_path() {
    // The record, the path at fault (if any), whether a default client loses the
    // record too (its id), and what the record reads as otherwise.
    type Check = fn(&hostapi::domains::DnsRecord) -> bool;
    let cases: [(&str, Option<&str>, bool, Check); 5] = [
        (
            r#"{"id":"1","host":"a","type":"MX","content":"m","priority":70000}"#,
            Some("dnsRecords[1].dnsRecord.priority"),
            false,
            |r| r.priority.is_none() && r.extra["priority"] == 70000,
        ),
        (r#"{"id":"1","host":"a","content":"m"}"#, None, false, |r| {
            r.record_type.is_none()
        }),
        (r#"{"id":"1","type":"A","content":"m"}"#, None, false, |r| {
            r.name.is_empty()
        }),
        (
            r#"{"id":"","host":"a","type":"A","content":"m"}"#,
            Some("dnsRecords[1].dnsRecord.id"),
            true,
            |_| false,
        ),
        (
            r#"{"id":"1","host":"a","type":"A","data":7}"#,
            None,
            false,
            |r| r.content == "7",
        ),
    ];
    for (record, path, id_fails, check) in cases {
        let server = MockServer::start_async().await;
        let body = format!(
            r#"{{"dnsRecords":[{{"dnsRecord":{{"id":"0","host":"ok","type":"A","content":"192.0.2.1"}}}},{{"dnsRecord":{record}}}]}}"#
        );
        server
            .mock_async(|when, then| {
                when.method(GET).path("/v1/domains/example.com/dnsRecords");
                then.status(200).body(body);
            })
            .await;
        let errors =
            |listing: &hostapi::Listing<hostapi::domains::DnsRecord>| -> Vec<(&'static str, String)> {
                listing
                    .unreadable()
                    .iter()
                    .map(|u| {
                        let (operation, at, _) = decode_parts(&u.error).expect("a decode error");
                        (operation, at.to_owned())
                    })
                    .collect()
            };
        let expected: Vec<(&'static str, String)> = path
            .map(|p| ("listDnsRecords", p.to_owned()))
            .into_iter()
            .collect();
        let lenient = client(&server)
            .domains()
            .records(&example())
            .list()
            .await
            .unwrap();
        if id_fails {
            assert_eq!(lenient.len(), 1, "{record}");
            assert_eq!(errors(&lenient), expected, "{record}");
        } else {
            assert!(lenient.is_complete() && lenient.len() == 2, "{record}");
            assert!(check(&lenient[1]), "{record}: {:?}", lenient[1]);
        }
        let strict = strict_client(&server)
            .domains()
            .records(&example())
            .list()
            .await
            .unwrap();
        assert_eq!(errors(&strict), expected, "strictly: {record}");
    }
}
