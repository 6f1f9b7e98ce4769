//! Where the facade and the simulator (two readings of the docs) once disagreed, or the
//! simulator disagreed with itself; each test states the behaviour both now share, so
//! the disagreement cannot come back. (The facade's reading of a domain `code` other
//! than 1000 after a TTL change is covered in `infra.rs`.) These are not part of the
//! coverage run.

use hostapi::cdn::SubCustomerUpdate;
use hostapi::ips::IpUpdate;
use hostapi::types::{CustomerNumber, PrivateRackId};

use crate::support::Env;

/// The facade's sub-customer upsert sends `reseller` (a field of the sub-customer
/// record); the simulator used to answer 200 and ignore it. A field the service
/// accepts is applied.
#[tokio::test]
async fn a_sub_customer_upsert_applies_what_it_accepts() {
    let env = Env::start().await;
    let cdn = env.client.cdn();
    let number = CustomerNumber::new(format!("{}07", env.sim.cdn_customer())).expect("a number");
    let update = SubCustomerUpdate::new().active(true).reseller(true);
    let subs = cdn.sub_customers();
    if subs.update(&number, &update).await.is_ok() {
        let read = subs.get(&number).await.expect("read back");
        assert_eq!(read.customer_number, number, "{read:?}");
        assert_eq!(read.reseller, Some(true), "{read:?}");
    }
    env.sim.shutdown().await;
}

/// The first two IPs of a private rack cost nothing in the rack's IP view, and so in
/// the answer of `PUT /v1/ips/{ip}` (which used to price them).
#[tokio::test]
async fn a_rack_ip_costs_the_same_in_every_view() {
    let env = Env::start().await;
    let rack = PrivateRackId::from(7003u32);
    let ips = env.client.private_racks().ips(&rack);
    let first = ips.list().await.expect("list")[0].ip;
    let answered = env
        .client
        .ips()
        .update(first, &IpUpdate::ReverseDns("rack-view.example.com".into()))
        .await
        .expect("update ip");
    let read = ips.get(first).await.expect("get");
    assert_eq!(
        answered.billing.as_ref().and_then(|b| b.monthly_price),
        read.billing.as_ref().and_then(|b| b.monthly_price)
    );
    env.sim.shutdown().await;
}
