//! Write outcomes, one fault at a time, aimed with the simulator's fault rules: a write
//! whose answer was lost after the service applied it, a write refused by a server
//! error, a DELETE retried after its first attempt went through. Each ends as the
//! documents of `Error::OutcomeUnknown` and the `confirm_*` read-backs promise.

use hostapi::Confirmation;
use hostapi::domains::{DnsRecordType, NewDnsRecord};
use hostapi::types::DomainName;
use hostapi_sim::{FaultRule, Sim, SimConfig};

const DELETE: &str = "DELETE /v1/domains/{domainname}/dnsRecords/{recordId}";
const CREATE: &str = "POST /v1/domains/{domainname}/dnsRecords";
const SET_TTL: &str = "PUT /v1/domains/{domainname}";

fn rule(operation: &str, fault: &str, status: Option<u16>) -> FaultRule {
    FaultRule {
        operation: operation.into(),
        fault: fault.into(),
        status,
        times: Some(1),
        ..Default::default()
    }
}

async fn setup() -> (Sim, hostapi::Client) {
    let sim = Sim::start(SimConfig::default().with_seed(21))
        .await
        .expect("simulator");
    let client = hostapi::Client::builder()
        .base_url(sim.base_url())
        .api_key(sim.api_key())
        .build()
        .expect("client");
    (sim, client)
}

#[tokio::test]
async fn a_delete_whose_answer_was_lost_is_applied_when_the_retry_finds_nothing() {
    let (sim, client) = setup().await;
    let domain = DomainName::new("acme-1.com").expect("domain");
    let records = client.domains().records(&domain);
    let record = records.list().await.expect("list").items()[0].clone();

    sim.add_faults(vec![rule(DELETE, "drop-after", None)])
        .expect("rule");
    records
        .delete(&record.id)
        .await
        .expect("the record is gone, which is what was asked");

    let deletes = sim.requests(Some(DELETE));
    let statuses: Vec<Option<u16>> = deletes.iter().map(|r| r.status).collect();
    assert_eq!(deletes.len(), 2, "{deletes:?}");
    assert_eq!(statuses[1], Some(404), "{deletes:?}");
    assert!(records.get(&record.id).await.unwrap_err().is_not_found());
}

#[tokio::test]
async fn a_create_whose_answer_was_lost_is_unknown_and_the_read_back_finds_it() {
    let (sim, client) = setup().await;
    let domain = DomainName::new("acme-1.com").expect("domain");
    let records = client.domains().records(&domain);
    let wanted = NewDnsRecord::new("lost.acme-1.com", DnsRecordType::A, "192.0.2.77");

    sim.add_faults(vec![rule(CREATE, "drop-after", None)])
        .expect("rule");
    let error = records.create(&wanted).await.unwrap_err();
    assert!(error.is_outcome_unknown(), "{error:?}");
    // Not repeated: a create may not be applied twice.
    assert_eq!(sim.requests(Some(CREATE)).len(), 1);
    match records.confirm_create(&wanted).await.expect("read back") {
        Confirmation::Applied(record) => assert_eq!(record.content, "192.0.2.77"),
        other => panic!("the record was created: {other:?}"),
    }
}

#[tokio::test]
async fn a_create_refused_by_a_server_error_is_unknown_and_the_read_back_finds_nothing() {
    let (sim, client) = setup().await;
    let domain = DomainName::new("acme-1.com").expect("domain");
    let records = client.domains().records(&domain);
    let wanted = NewDnsRecord::new("refused.acme-1.com", DnsRecordType::A, "192.0.2.78");

    sim.add_faults(vec![rule(CREATE, "status", Some(503))])
        .expect("rule");
    let error = records.create(&wanted).await.unwrap_err();
    // A 5xx may come from a proxy after the service acted: the client cannot tell.
    assert!(error.is_outcome_unknown(), "{error:?}");
    let read_back = records.confirm_create(&wanted).await.expect("read back");
    assert_eq!(read_back, Confirmation::NotApplied);
}

#[tokio::test]
async fn an_idempotent_write_is_retried_through_a_passing_server_error() {
    // 503 may pass (429, 502, 503 and 504 are retried); a 500 is not retried.
    let (sim, client) = setup().await;
    let domain = DomainName::new("acme-1.com").expect("domain");

    sim.add_faults(vec![rule(SET_TTL, "status", Some(503))])
        .expect("rule");
    let answered = client
        .domains()
        .set_ttl(&domain, 1234)
        .await
        .expect("retried");
    assert_eq!(answered.ttl, Some(1234));
    let puts = sim.requests(Some(SET_TTL));
    assert_eq!(puts.len(), 2, "{puts:?}");
}
