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

#[tokio::test]
async fn a_wrong_method_is_405_with_the_allowed_ones() {
    let t = fast().await;
    let a = t
        .call(reqwest::Method::DELETE, "/v1/domains/acme-1.com", None)
        .await;
    assert_eq!(a.status, 405);
    assert_eq!(a.headers["allow"], "GET, PUT");
    assert_eq!(a.json["errorCode"], "405", "the interface's error body");
    let a = t
        .call(reqwest::Method::PATCH, "/cloud/v2/virtualServers", None)
        .await;
    assert_eq!(
        (a.status, a.headers["allow"].clone()),
        (405, "GET".parse().unwrap())
    );
    let c = t.sim.cdn_customer().to_string();
    let a = t
        .cdn(reqwest::Method::DELETE, &format!("/origins/{c}"), None)
        .await;
    assert_eq!(
        (a.status, a.headers["allow"].clone()),
        (405, "GET, POST".parse().unwrap())
    );
    // A path no operation has stays 404, whatever the method.
    assert_eq!(
        t.call(reqwest::Method::DELETE, "/v1/nothing", None)
            .await
            .status,
        404
    );
    assert_eq!(t.get("/v1/domains/acme-1.com/nothing").await.status, 404);
}

#[tokio::test]
async fn power_changes_take_simulated_time() {
    let t = start(SimConfig::default()).await;
    // v1 virtual server 100001 (index 0) starts Running.
    let vs = "/v1/virtualServers/100001";
    let state = |a: &Ans| a.json["virtualServers"][0]["state"].clone();
    assert_eq!(state(&t.get(vs).await), "Running");
    assert_eq!(t.post(&format!("{vs}/powerOff"), &[]).await.status, 202);
    assert_eq!(state(&t.get(vs).await), "Running", "asynchronous");
    t.sim.advance_clock(hostapi_sim::V1_POWER_SECS).unwrap();
    assert_eq!(state(&t.get(vs).await), "Stopped");
    t.post(&format!("{vs}/reboot"), &[]).await;
    assert_eq!(state(&t.get(vs).await), "Stopped");
    t.sim.advance_clock(hostapi_sim::V1_POWER_SECS).unwrap();
    assert_eq!(state(&t.get(vs).await), "Running");

    // Bare metal 20017 (index 16) starts off; a power cycle turns it on.
    let ps = |a: &Ans| a.json["powerStatus"]["status"].clone();
    assert_eq!(ps(&t.get("/v1/bareMetals/20017/powerStatus").await), "off");
    for id in ["20001", "20017"] {
        let a = t
            .post(&format!("/v1/bareMetals/{id}/powerCycle"), &[])
            .await;
        assert_eq!(a.status, 202);
        assert_eq!(
            ps(&t.get(&format!("/v1/bareMetals/{id}/powerStatus")).await),
            "off"
        );
    }
    t.sim.advance_clock(hostapi_sim::POWER_CYCLE_SECS).unwrap();
    for id in ["20001", "20017"] {
        assert_eq!(
            ps(&t.get(&format!("/v1/bareMetals/{id}/powerStatus")).await),
            "on"
        );
    }
}

#[tokio::test]
async fn rescue_mode_lasts_until_a_power_cycle() {
    let t = start(SimConfig::default()).await;
    let rescue = || t.sim.snapshot()["v1"]["bareMetals"]["20002"]["rescueMode"].clone();
    t.post("/v1/bareMetals/20002/rescueMode", &[("osId", "121")])
        .await;
    assert_eq!(rescue(), false, "still booting");
    t.sim.advance_clock(hostapi_sim::RESCUE_SECS).unwrap();
    assert_eq!(rescue(), true);
    let s = t.get("/v1/bareMetals/20002/installationStatus").await;
    assert_eq!(s.json["installationStatus"]["description"], "Normal");
    t.post("/v1/bareMetals/20002/powerCycle", &[]).await;
    assert_eq!(rescue(), false);
}
