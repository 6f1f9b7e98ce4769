//! Every list whose answer carries `_metadata` is paged by the simulator, and each can
//! hold more than one page (at the default page size of 10) at every seed: the
//! first request without parameters gives the first ten and a `totalCount` above
//! them, `offset` gives the rest.

mod common;

use common::{T, int, start, unwrap1};
use hostapi_sim::SimConfig;
use serde_json::Value;

/// The records under `key` of every page of `path` (the first asked for with no
/// parameters, the next ones with `limit`/`offset`), and the `totalCount` of each.
async fn pages(t: &T, path: &str, key: &str) -> (Vec<Value>, Vec<i64>) {
    let mut records = Vec::new();
    let mut totals = Vec::new();
    for page in 0..10 {
        let url = if page == 0 {
            path.to_owned()
        } else {
            let sep = if path.contains('?') { '&' } else { '?' };
            format!("{path}{sep}limit=10&offset={}", records.len())
        };
        let answer = t.get(&url).await;
        assert_eq!(answer.status, 200, "{url}: {:?}", answer.json);
        let list = unwrap1(&answer.json);
        let items = list[key].as_array().expect("a list").clone();
        let total = int(&list["_metadata"]["totalCount"]).expect("a totalCount");
        assert_eq!(
            int(&list["_metadata"]["offset"]),
            Some(records.len() as i64)
        );
        totals.push(total);
        let empty = items.is_empty();
        records.extend(items);
        if empty || records.len() as i64 >= total {
            return (records, totals);
        }
    }
    panic!("{path}: more than ten pages");
}

async fn more_than_a_page(t: &T, path: &str, key: &str, expected: usize, id: &str) {
    let (records, totals) = pages(t, path, key).await;
    assert!(totals.len() > 1, "{path}: {totals:?}");
    assert!(
        totals.iter().all(|n| *n == expected as i64),
        "{path}: {totals:?}"
    );
    let mut ids: Vec<String> = records.iter().map(|r| r[id].to_string()).collect();
    assert_eq!(ids.len(), expected, "{path}");
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), expected, "{path}: every record once");
}

#[tokio::test]
async fn leases_and_private_clouds_hold_more_than_a_page_at_every_seed() {
    for seed in [1, 7, 42] {
        let t = start(SimConfig {
            seed,
            size: 15_000,
            ..Default::default()
        })
        .await;
        more_than_a_page(&t, "/v1/bareMetals/20008/leases", "leases", 25, "mac").await;
        more_than_a_page(&t, "/cloud/v2/privateClouds", "privateClouds", 15, "id").await;
        t.sim.shutdown().await;
    }
}

#[tokio::test]
async fn cloud_servers_and_created_networks_hold_more_than_a_page() {
    let t = common::fast().await;
    more_than_a_page(&t, "/cloud/v2/virtualServers", "virtualServers", 40, "id").await;
    for _ in 0..13 {
        assert_eq!(t.post("/v1/privateNetworks", &[]).await.status, 200);
    }
    more_than_a_page(&t, "/v1/privateNetworks", "privateNetworks", 15, "id").await;
    t.sim.shutdown().await;
}
