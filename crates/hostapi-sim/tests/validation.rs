//! Requests are checked against the documents before anything changes: each kind
//! of bad request answers 400 with the interface's error body naming the field.

mod common;

use common::*;
use reqwest::Method;

/// A request and the field its refusal must name.
type Case = (
    Method,
    String,
    Vec<(&'static str, &'static str)>,
    &'static str,
);

/// The field a 400 names, from v1's `errorDetails` (an object keyed by field).
fn named(a: &Ans) -> String {
    assert_eq!(a.status, 400, "{}", a.json);
    let details = a.json["errorDetails"]
        .as_object()
        .expect("errorDetails object");
    assert_eq!(details.len(), 1, "{}", a.json);
    details.keys().next().unwrap().clone()
}

#[tokio::test]
async fn each_kind_of_bad_request_is_400_naming_the_field() {
    let t = fast().await;
    let d = "/v1/domains/acme-1.com";
    let leases = "/v1/bareMetals/20002/leases";
    let cases: Vec<Case> = vec![
        // A type.
        (Method::PUT, d.into(), vec![("ttl", "an hour")], "ttl"),
        // A required field.
        (
            Method::POST,
            leases.into(),
            vec![
                ("bootServerHostName", "10.1.1.1"),
                ("domainNameServerIp", "10.1.1.2"),
            ],
            "bootFileName",
        ),
        (Method::PUT, d.into(), vec![], "ttl"),
        // An allowed value.
        (
            Method::POST,
            "/v1/bareMetals/20001/install".into(),
            vec![("osId", "201"), ("raidLevel", "3"), ("numberDisks", "2")],
            "raidLevel",
        ),
        (
            Method::PUT,
            "/v1/ips/85.17.0.10".into(),
            vec![("nullRouted", "yes")],
            "nullRouted",
        ),
        // An unknown field, on an operation with fields and on one without.
        (
            Method::PUT,
            d.into(),
            vec![("ttl", "3600"), ("tll", "3600")],
            "tll",
        ),
        (
            Method::POST,
            "/v1/virtualServers/100001/powerOff".into(),
            vec![("force", "1")],
            "force",
        ),
        // One of several.
        (
            Method::PUT,
            "/v1/ips/85.17.0.10".into(),
            vec![],
            "reverseLookup",
        ),
        // The hdd form.
        (
            Method::POST,
            "/v1/bareMetals/20001/install".into(),
            vec![
                ("osId", "201"),
                ("hdd[disk]", "/dev/sda"),
                ("hdd[colour]", "red"),
            ],
            "hdd[colour]",
        ),
        (
            Method::POST,
            "/v1/privateNetworks/502/bareMetals".into(),
            vec![("bareMetalId", "twenty")],
            "bareMetalId",
        ),
    ];
    for (method, path, form, field) in cases {
        let a = t.call(method.clone(), &path, Some(&form)).await;
        assert_eq!(named(&a), field, "{method} {path} {form:?}");
    }
    // An unknown query parameter.
    let a = t.get("/v1/privateNetworks?limit=2&lmit=3").await;
    assert_eq!(named(&a), "lmit");
    let a = t.get("/v1/bareMetals/20001/leases?offset=-1").await;
    assert_eq!(named(&a), "offset");
    // JSON where a form is documented: refused as a media type.
    let r = t
        .http
        .put(t.url(d))
        .header("X-Svc-Auth", t.sim.api_key())
        .json(&serde_json::json!({"ttl": 3600}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 415);
    // Nothing was applied.
    assert!(t.sim.write_log().is_empty(), "{:?}", t.sim.write_log());
    // A good request still passes.
    assert_eq!(t.put(d, &[("ttl", "3600")]).await.status, 200);
}

/// The field a cloud 400 names, from its `errorDetails` array.
fn cloud_named(a: &Ans) -> String {
    assert_eq!(a.status, 400, "{}", a.json);
    a.json["errorDetails"][0]["field"]
        .as_str()
        .unwrap_or_else(|| panic!("no field in {}", a.json))
        .to_string()
}

#[tokio::test]
async fn cloud_and_cdn_requests_are_checked_too() {
    let t = fast().await;
    let list = t.get("/cloud/v2/virtualServers?limit=1").await;
    let id = list.json["virtualServers"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let a = t.get("/cloud/v2/virtualServers?limt=1").await;
    assert_eq!(cloud_named(&a), "limt");
    let m = format!(
        "/cloud/v2/virtualServers/{id}/metrics/datatraffic?from=2024-01-01T00:00:00Z&to=2024-01-02T00:00:00Z"
    );
    assert_eq!(cloud_named(&t.get(&m).await), "aggregation");
    let a = t.get(&format!("{m}&aggregation=AVG")).await;
    assert_eq!(cloud_named(&a), "aggregation");
    let r = t
        .http
        .put(t.url(&format!("/cloud/v2/virtualServers/{id}")))
        .header("X-Svc-Auth", t.sim.api_key())
        .json(&serde_json::json!({"reference": "web", "colour": "red"}))
        .send()
        .await
        .unwrap();
    assert_eq!(cloud_named(&read(r).await), "colour");

    let c = t.sim.cdn_customer().to_string();
    let form =
        |f: &[(&str, &str)]| Some(("application/x-www-form-urlencoded", serde_urlencoded(f)));
    let a = t
        .cdn(
            Method::POST,
            &format!("/origins/{c}"),
            form(&[
                ("label", "x"),
                ("origin", "https://o.example"),
                ("colour", "red"),
            ]),
        )
        .await;
    assert_eq!(named(&a), "colour");
    let a = t
        .cdn(
            Method::POST,
            &format!("/customers/reseller/{c}/{c}01"),
            form(&[("active", "yes")]),
        )
        .await;
    assert_eq!(named(&a), "active");
    assert!(t.sim.write_log().is_empty(), "{:?}", t.sim.write_log());
}
