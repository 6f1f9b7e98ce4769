//! Where the facade and the simulator (two readings of the docs) disagree, or the
//! simulator disagrees with itself. Each test states the behaviour both should share;
//! it is ignored, with the reason, until the side that misreads the docs is fixed.
//! These are not part of the coverage run.

use hostapi::{CustomerNumber, IpUpdate, PrivateRackId, SubCustomerUpdate};

use crate::support::Env;

/// A domain whose `code` is not 1000 (here 1001, a pending transfer) takes a TTL
/// change: the simulator applies it and answers the domain, code 1001 unchanged. The
/// facade reads that code as the outcome of the write and answers `Error::Api`, so
/// the caller is told the change failed while it took effect. The docs describe
/// `code` as the domain record's state ("Domain records ... carry an integer code"),
/// not as the result of the PUT: an error should mean nothing changed.
#[tokio::test]
#[ignore = "facade: set_ttl reports Error::Api for a domain in an error state although the change was applied"]
async fn a_refused_ttl_change_changes_nothing() {
    let env = Env::start().await;
    let domains = env.client.domains();
    // Index 12: code 1001.
    let name = "meadow-13.io";
    let before = domains.get(name).await.expect("get");
    assert_eq!(before.code, Some(1001), "{before:?}");
    let ttl = if before.ttl == Some(900) { 1800 } else { 900 };
    match domains.set_ttl(name, ttl).await {
        Ok(domain) => assert_eq!(domain.ttl, Some(ttl)),
        Err(error) => {
            let after = domains.get(name).await.expect("get");
            assert_eq!(
                after.ttl, before.ttl,
                "set_ttl failed ({error}) but the TTL changed"
            );
        }
    }
    env.sim.shutdown().await;
}

/// The facade's sub-customer upsert sends `reseller` (a field of the sub-customer
/// record); the simulator answers 200 and ignores it, while it applies `companyName`
/// and `notes`, which the docs' samples do not send either. A field the service
/// accepts should be applied, or the request refused.
#[tokio::test]
#[ignore = "simulator: the sub-customer upsert silently ignores `reseller`"]
async fn a_sub_customer_upsert_applies_what_it_accepts() {
    let env = Env::start().await;
    let cdn = env.client.cdn();
    let number = CustomerNumber::new(format!("{}07", env.sim.cdn_customer())).expect("a number");
    let update = SubCustomerUpdate::new().active(true).reseller(true);
    if cdn.upsert_sub_customer(&number, &update).await.is_ok() {
        let read = cdn.sub_customer(&number).await.expect("read back");
        assert_eq!(read.len(), 1, "{read:?}");
        assert_eq!(read[0].reseller, Some(true), "{read:?}");
    }
    env.sim.shutdown().await;
}

/// The first two IPs of a private rack cost nothing in the rack's IP view, and the
/// same IPs cost money in the answer of `PUT /v1/ips/{ip}`: the simulator's `/v1/ips`
/// answer never counts a rack IP as free.
#[tokio::test]
#[ignore = "simulator: PUT /v1/ips prices a rack's free IPs"]
async fn a_rack_ip_costs_the_same_in_every_view() {
    let env = Env::start().await;
    let rack = PrivateRackId::from(7003u32);
    let ips = env.client.private_racks().ips(&rack);
    let first = ips.list().await.expect("list")[0].ip.to_string();
    let answered = env
        .client
        .ips()
        .update(
            &first,
            &IpUpdate::ReverseLookup("rack-view.example.com".into()),
        )
        .await
        .expect("update ip");
    let read = ips.get(&first).await.expect("get");
    assert_eq!(
        answered.billing.as_ref().and_then(|b| b.monthly_price),
        read.billing.as_ref().and_then(|b| b.monthly_price)
    );
    env.sim.shutdown().await;
}
