//! `DnsRecords::wait_visible` and the public `poll_until`, against the simulator: a
//! record that reads back at once, one that reads back only after a later update, and
//! one that never does.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use hostapi::{
    Client, Error, WaitOptions, domains::DnsRecordType, domains::DnsRecords, domains::NewDnsRecord,
    wait::Polled, wait::poll_until,
};
use hostapi_sim::{Sim, SimConfig};

async fn sim() -> (Sim, Client) {
    let sim = Sim::start(SimConfig::default().with_seed(11))
        .await
        .expect("the simulator starts");
    let client = hostapi_tests::sim_client_builder(&sim, sim.api_key(), sim.cdn_secret())
        .timeout(Duration::from_secs(10))
        .build()
        .expect("the client builds");
    (sim, client)
}

async fn records(client: &Client) -> DnsRecords {
    let domains = client.domains().list().await.expect("the domains list");
    let domain = &domains.first().expect("the simulator has a domain").name;
    client.domains().records(domain)
}

fn fast(timeout: Duration) -> WaitOptions {
    WaitOptions::new()
        .interval(WaitOptions::MIN_INTERVAL)
        .timeout(timeout)
}

#[tokio::test]
async fn a_created_record_is_visible_at_the_first_poll() {
    let (_sim, client) = sim().await;
    let records = records(&client).await;
    let created = records
        .create(&NewDnsRecord::new("wait-a", DnsRecordType::A, "192.0.2.10"))
        .await
        .expect("the record is created");
    let polls = Arc::new(Mutex::new(0u32));
    let counted = polls.clone();
    let options = fast(Duration::from_secs(5)).on_progress(move |_| *counted.lock().unwrap() += 1);
    let seen = records
        .wait_visible(&created, &options)
        .await
        .expect("visible");
    assert_eq!(seen.id, created.id);
    assert_eq!(seen.content, "192.0.2.10");
    assert_eq!(*polls.lock().unwrap(), 0, "no poll reported pending");
}

#[tokio::test]
async fn the_wait_lasts_until_the_record_holds_the_wanted_value() {
    let (_sim, client) = sim().await;
    let records = records(&client).await;
    let created = records
        .create(&NewDnsRecord::new("wait-b", DnsRecordType::A, "192.0.2.20"))
        .await
        .expect("the record is created");
    let mut wanted = created.clone();
    wanted.content = "192.0.2.21".to_owned();

    let states = Arc::new(Mutex::new(Vec::new()));
    let log = states.clone();
    let options = fast(Duration::from_secs(10))
        .on_progress(move |progress| log.lock().unwrap().push(progress.state.clone()));
    let updater = {
        let records = records.clone();
        let id = created.id.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(400)).await;
            records
                .update(
                    &id,
                    &NewDnsRecord::new("wait-b", DnsRecordType::A, "192.0.2.21"),
                )
                .await
        })
    };
    let seen = records
        .wait_visible(&wanted, &options)
        .await
        .expect("visible after the update");
    updater
        .await
        .expect("the update task ends")
        .expect("the update is applied");
    assert_eq!(seen.content, "192.0.2.21");
    let states = states.lock().unwrap().clone();
    assert!(!states.is_empty(), "the old value was seen first");
    assert!(
        states.iter().all(|state| state == "A 192.0.2.20"),
        "{states:?}"
    );
}

#[tokio::test]
async fn a_record_that_never_reads_back_times_out_with_what_was_seen() {
    let (_sim, client) = sim().await;
    let records = records(&client).await;
    let created = records
        .create(&NewDnsRecord::new("wait-c", DnsRecordType::A, "192.0.2.30"))
        .await
        .expect("the record is created");
    let mut wanted = created.clone();
    wanted.content = "192.0.2.31".to_owned();
    match records
        .wait_visible(&wanted, &fast(Duration::from_millis(500)))
        .await
    {
        Err(Error::WaitTimeout(wait)) => {
            assert_eq!(wait.last_seen, "A 192.0.2.30");
            assert!(wait.what.contains("192.0.2.31"), "{}", wait.what);
        }
        other => panic!("expected a timeout, got {other:?}"),
    }

    // Deleted: not found is not an error, only not yet.
    records.delete(&created.id).await.expect("deleted");
    match records
        .wait_visible(&created, &fast(Duration::from_millis(300)))
        .await
    {
        Err(Error::WaitTimeout(wait)) => assert_eq!(wait.last_seen, "not found"),
        other => panic!("expected a timeout, got {other:?}"),
    }
}

#[tokio::test]
async fn poll_until_runs_a_wait_of_ones_own() {
    let (_sim, client) = sim().await;
    let records = records(&client).await;
    let before = records.list().await.expect("the records list").len();
    let creator = {
        let records = records.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(300)).await;
            records
                .create(&NewDnsRecord::new("wait-d", DnsRecordType::Txt, "hello"))
                .await
        })
    };
    let count = poll_until(
        "one more record",
        &fast(Duration::from_secs(10)),
        || async {
            let now = records.list().await?.len();
            Ok(if now > before {
                Polled::Done(now)
            } else {
                Polled::Pending(format!("{now} records"))
            })
        },
    )
    .await
    .expect("the record appears");
    creator.await.expect("the task ends").expect("created");
    assert_eq!(count, before + 1);
}
