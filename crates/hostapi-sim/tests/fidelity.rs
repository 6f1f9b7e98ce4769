//! CDN timestamps: signed as sent, no overflow, a configurable skew and an
//! optional simulated CDN clock.

mod common;

use common::*;
use hostapi_sim::{SimConfig, sign_cdn_path};

impl T {
    /// GET a CDN resource at timestamp text `ts`, signed over `signed_ts`.
    async fn cdn_at(&self, resource: &str, ts: &str, signed_ts: i64) -> u16 {
        let sig = sign_cdn_path(self.sim.cdn_secret(), signed_ts, resource);
        let url = format!("{}{resource}/{ts}/{sig}", self.sim.cdn_base_url());
        self.http
            .get(url)
            .send()
            .await
            .expect("send")
            .status()
            .as_u16()
    }
}

#[tokio::test]
async fn the_signature_covers_the_timestamp_exactly_as_sent() {
    let t = start(SimConfig::default()).await;
    let r = format!("/origins/{}", t.sim.cdn_customer());
    let now = chrono::Utc::now().timestamp();
    assert_eq!(t.cdn_at(&r, &now.to_string(), now).await, 200);
    assert_eq!(t.cdn_at(&r, &format!("+{now}"), now).await, 403);
    assert_eq!(t.cdn_at(&r, &format!("0{now}"), now).await, 403);
    // Far from any clock, at either end of i64: refused, no panic.
    for ts in [i64::MIN, i64::MIN + 1, i64::MAX] {
        assert_eq!(t.cdn_at(&r, &ts.to_string(), ts).await, 403);
    }
    assert_eq!(t.cdn_at(&r, "-99999999999999999999999", 0).await, 403);
    // The server still answers.
    assert_eq!(t.cdn_at(&r, &now.to_string(), now).await, 200);
}

#[tokio::test]
async fn skew_and_the_simulated_cdn_clock() {
    let t = start(SimConfig {
        cdn_clock_skew_secs: 10,
        ..Default::default()
    })
    .await;
    let r = format!("/origins/{}", t.sim.cdn_customer());
    let now = chrono::Utc::now().timestamp();
    assert_eq!(t.cdn_at(&r, &(now - 60).to_string(), now - 60).await, 403);
    assert_eq!(t.cdn_at(&r, &(now - 5).to_string(), now - 5).await, 200);

    // A client with a fixed clock tests against simulated time.
    let t = start(SimConfig {
        cdn_clock_sim: true,
        ..Default::default()
    })
    .await;
    let r = format!("/origins/{}", t.sim.cdn_customer());
    let later = t.sim.advance_clock(86_400.0).unwrap() as i64;
    assert_eq!(t.cdn_at(&r, &later.to_string(), later).await, 200);
    let now = chrono::Utc::now().timestamp();
    assert_eq!(t.cdn_at(&r, &now.to_string(), now).await, 403);
}

#[tokio::test]
async fn an_oversized_dataset_is_refused() {
    let e = hostapi_sim::Sim::start(SimConfig {
        size: hostapi_sim::MAX_SIZE + 1,
        ..Default::default()
    })
    .await
    .unwrap_err();
    assert!(e.to_string().contains("size"), "{e}");
}
