//! Malformed requests: 400 naming the field, and the install form.

mod common;

use common::{T, fast};
use reqwest::Method;
use serde_json::{Value, json};

const CLOUD: &str = "/cloud/v2/virtualServers";

async fn first_cloud_id(t: &T) -> String {
    let a = t.get(&format!("{CLOUD}?limit=1")).await;
    a.json["virtualServers"][0]["id"]
        .as_str()
        .unwrap()
        .to_string()
}

/// (method, path, form, field named in the error).
type Case<'a> = (Method, String, Vec<(&'a str, &'a str)>, &'a str);
/// (method, CDN resource, body with content type, field named in the error).
type CdnCase<'a> = (Method, String, Option<(&'a str, String)>, &'a str);

fn field_of(a: &common::Ans) -> String {
    match &a.json["errorDetails"] {
        Value::Object(m) => m.keys().next().cloned().unwrap_or_default(),
        Value::Array(v) => v
            .first()
            .and_then(|e| e["field"].as_str())
            .unwrap_or("")
            .to_string(),
        _ => String::new(),
    }
}

#[tokio::test]
async fn malformed_values_are_400_naming_the_field() {
    let t = fast().await;
    let id = first_cloud_id(&t).await;
    let d = "/v1/domains/acme-1.com";
    let cases: Vec<Case<'_>> = vec![
        (Method::PUT, d.into(), vec![("ttl", "abc")], "ttl"),
        (Method::PUT, d.into(), vec![("ttl", "10")], "ttl"),
        (Method::PUT, d.into(), vec![("ttl", "90000")], "ttl"),
        (Method::PUT, d.into(), vec![], "ttl"),
        (
            Method::POST,
            format!("{d}/dnsRecords"),
            vec![
                ("host", "x.acme-1.com"),
                ("type", "A"),
                ("content", "300.1.1.1"),
            ],
            "content",
        ),
        (
            Method::POST,
            format!("{d}/dnsRecords"),
            vec![
                ("host", "acme-1.com"),
                ("type", "MX"),
                ("content", "mx.acme-1.com"),
            ],
            "priority",
        ),
        (
            Method::POST,
            format!("{d}/dnsRecords"),
            vec![("host", "acme-1.com"), ("type", "BOGUS"), ("content", "x")],
            "type",
        ),
        (
            Method::PUT,
            format!("{d}/dnsRecords/1000000"),
            vec![
                ("name", "a.acme-1.com"),
                ("host", "b.acme-1.com"),
                ("type", "A"),
                ("content", "192.0.2.1"),
            ],
            "name",
        ),
        (
            Method::PUT,
            format!("{d}/dnsRecords/1000000"),
            vec![
                ("id", "1000001"),
                ("host", "a.acme-1.com"),
                ("type", "A"),
                ("content", "192.0.2.1"),
            ],
            "id",
        ),
        (
            Method::PUT,
            "/v1/bareMetals/20001/ips/85.17.0.10".into(),
            vec![("nullRouted", "true")],
            "nullRouted",
        ),
        (
            Method::PUT,
            "/v1/bareMetals/20001/ips/85.17.0.10".into(),
            vec![],
            "reverseLookup",
        ),
        (
            Method::PUT,
            "/v1/ips/not-an-ip".into(),
            vec![("nullRouted", "1")],
            "ipAddress",
        ),
        (
            Method::GET,
            "/v1/bareMetals/20001/networkUsage?dateFrom=2024-01-01".into(),
            vec![],
            "dateFrom",
        ),
        (
            Method::GET,
            "/v1/bareMetals/20001/networkUsage?dateFrom=10-02-2024&dateTo=01-02-2024".into(),
            vec![],
            "dateFrom",
        ),
        (
            Method::GET,
            "/v1/operatingSystems/205/partitionSchema".into(),
            vec![],
            "serverPackId",
        ),
        (
            Method::POST,
            "/v1/bareMetals/20001/leases".into(),
            vec![
                ("bootFileName", "x"),
                ("bootServerHostName", "nope"),
                ("domainNameServerIp", "1.1.1.1"),
            ],
            "bootServerHostName",
        ),
        (
            Method::POST,
            "/v1/privateNetworks/501/bareMetals".into(),
            vec![("bareMetalId", "x")],
            "bareMetalId",
        ),
        (
            Method::GET,
            format!("{CLOUD}/{id}/credentials/SSH"),
            vec![],
            "credentialType",
        ),
        (Method::GET, format!("{CLOUD}?limit=abc"), vec![], "limit"),
        (Method::GET, format!("{CLOUD}?offset=-1"), vec![], "offset"),
        (
            Method::GET,
            format!(
                "{CLOUD}/{id}/metrics/datatraffic?from=2024-01-02T00:00:00Z&to=2024-01-01T00:00:00Z&aggregation=SUM"
            ),
            vec![],
            "to",
        ),
        (
            Method::GET,
            format!(
                "{CLOUD}/{id}/metrics/datatraffic?from=2024-01-01T00:00:00Z&to=2024-01-02T00:00:00Z"
            ),
            vec![],
            "aggregation",
        ),
        (
            Method::GET,
            format!(
                "{CLOUD}/{id}/metrics/datatraffic?from=yesterday&to=2024-01-02T00:00:00Z&aggregation=SUM"
            ),
            vec![],
            "from",
        ),
        (
            Method::GET,
            format!(
                "{CLOUD}/{id}/metrics/datatraffic?from=2020-01-01T00:00:00Z&to=2024-01-02T00:00:00Z&aggregation=SUM&granularity=5MIN"
            ),
            vec![],
            "granularity",
        ),
    ];
    for (m, path, form, field) in cases {
        let a = t
            .call(
                m.clone(),
                &path,
                if form.is_empty() { None } else { Some(&form) },
            )
            .await;
        assert_eq!(a.status, 400, "{m} {path}: {}", a.json);
        assert_eq!(field_of(&a), field, "{m} {path}: {}", a.json);
    }
    // Cloud reference: JSON body without the field.
    let r = t
        .http
        .put(t.url(&format!("{CLOUD}/{id}")))
        .header("X-Svc-Auth", t.sim.api_key())
        .json(&json!({"ref": "x"}))
        .send()
        .await
        .unwrap();
    let a = common::read(r).await;
    assert_eq!((a.status, field_of(&a).as_str()), (400, "reference"));
    // A v1 form operation refuses a JSON body.
    let r = t
        .http
        .put(t.url(d))
        .header("X-Svc-Auth", t.sim.api_key())
        .json(&json!({"ttl": 3600}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 415);
    // No write was applied by any of these.
    assert!(t.sim.write_log().is_empty(), "{:?}", t.sim.write_log());

    // CDN.
    let c = t.customer();
    let cases: Vec<CdnCase<'_>> = vec![
        (
            Method::POST,
            format!("/content/purge/{c}/1001"),
            Some(("application/json", "urls=/a".into())),
            "urls",
        ),
        (
            Method::POST,
            format!("/content/purge/{c}/1001"),
            Some(("application/json", "{\"urls\":[]}".into())),
            "urls",
        ),
        (
            Method::POST,
            format!("/content/purge/{c}/1001"),
            Some(("application/json", "{\"urls\":[\"/a\",\"*\"]}".into())),
            "urls",
        ),
        (Method::GET, format!("/customers/{c}/x/0"), None, "limit"),
        (
            Method::POST,
            format!("/customers/acl/{c}"),
            Some((
                "application/x-www-form-urlencoded",
                common::serde_urlencoded(&[("acl", "{\"bogus\":{}}")]),
            )),
            "acl.bogus",
        ),
        (
            Method::POST,
            format!("/customers/acl/{c}"),
            Some((
                "application/x-www-form-urlencoded",
                common::serde_urlencoded(&[("acl", "not json")]),
            )),
            "acl",
        ),
        (
            Method::POST,
            format!("/customers/reseller/{c}/{c}9"),
            Some((
                "application/x-www-form-urlencoded",
                common::serde_urlencoded(&[("active", "yes")]),
            )),
            "active",
        ),
        (
            Method::POST,
            format!("/origins/{c}"),
            Some((
                "application/x-www-form-urlencoded",
                common::serde_urlencoded(&[("label", "x")]),
            )),
            "origin",
        ),
        (
            Method::POST,
            format!("/origins/{c}"),
            Some((
                "application/x-www-form-urlencoded",
                common::serde_urlencoded(&[("label", "x"), ("origin", "ftp://x")]),
            )),
            "origin",
        ),
        (
            Method::PUT,
            format!("/origins/{c}/101"),
            Some((
                "application/x-www-form-urlencoded",
                common::serde_urlencoded(&[
                    ("ignore_cache_control", "1"),
                    ("ignore_cache_refresh", "0"),
                ]),
            )),
            "ignore_cache_control",
        ),
        (
            Method::PUT,
            format!("/origins/{c}/101"),
            Some((
                "application/x-www-form-urlencoded",
                common::serde_urlencoded(&[("refresh_every", "soon")]),
            )),
            "refresh_every",
        ),
    ];
    for (m, res, body, field) in cases {
        let a = t.cdn(m.clone(), &res, body).await;
        assert_eq!(a.status, 400, "{m} {res}: {}", a.json);
        assert_eq!(field_of(&a), field, "{m} {res}: {}", a.json);
    }
    assert!(t.sim.write_log().is_empty());
}

#[tokio::test]
async fn install_form_is_validated() {
    let t = fast().await;
    // 20002 has 4 disks (2x4TB SATA, 2x480GB SSD); 20004 has 1.
    let good: Vec<(&str, &str)> = vec![
        ("osId", "205"),
        ("hdd[disk]", "/dev/sda"),
        ("hdd[bootable]", "0"),
        ("hdd[params][0][type]", "ext2"),
        ("hdd[params][0][size]", "500"),
        ("hdd[params][0][mountpoint]", "/boot"),
        ("hdd[params][1][type]", "swap"),
        ("hdd[params][1][size]", "4096"),
        ("hdd[params][1][mountpoint]", ""),
        ("hdd[params][2][type]", "ext4"),
        ("hdd[params][2][size]", "*"),
        ("hdd[params][2][mountpoint]", "/"),
        ("raidLevel", "5"),
        ("numberDisks", "3"),
    ];
    let with = |k: &str, v: &'static str| -> Vec<(String, String)> {
        let mut f: Vec<(String, String)> = good
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        if let Some(e) = f.iter_mut().find(|(a, _)| a == k) {
            e.1 = v.to_string();
        } else {
            f.push((k.to_string(), v.to_string()));
        }
        f
    };
    let cases: Vec<(Vec<(String, String)>, &str)> = vec![
        (with("osId", "121"), "osId"),
        (with("osId", "x"), "osId"),
        (with("hdd[params][2][mountpoint]", "/data"), "hdd[params]"),
        (with("hdd[params][0][size]", "*"), "hdd[params][2][size]"),
        (with("hdd[params][0][size]", "-5"), "hdd[params][0][size]"),
        (with("hdd[bootable]", "3"), "hdd[bootable]"),
        (with("hdd[bootable]", "1"), "hdd[bootable]"),
        (with("hdd[disk]", "/dev/sdz"), "hdd[disk]"),
        (
            with("hdd[params][1][mountpoint]", "/swap"),
            "hdd[params][1][mountpoint]",
        ),
        (with("hdd[params][0][type]", "ntfs"), "hdd[params][0][type]"),
        (with("hdd[params][4][type]", "ext4"), "hdd[params]"),
        (with("hdd[extra]", "1"), "hdd[extra]"),
        (with("raidLevel", "3"), "raidLevel"),
        (with("numberDisks", "2"), "numberDisks"),
        (with("numberDisks", "9"), "numberDisks"),
    ];
    for (form, field) in cases {
        let f: Vec<(&str, &str)> = form.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
        let a = t.post("/v1/bareMetals/20002/install", &f).await;
        assert_eq!(a.status, 400, "{field}: {}", a.json);
        assert_eq!(field_of(&a), field, "{}", a.json);
        assert_eq!(
            a.json["errorCode"], 400,
            "bare metal errors carry an integer code"
        );
    }
    // RAID 10 on a single-disk server.
    let a = t
        .post(
            "/v1/bareMetals/20004/install",
            &[("osId", "205"), ("raidLevel", "1"), ("numberDisks", "2")],
        )
        .await;
    assert_eq!((a.status, field_of(&a).as_str()), (400, "numberDisks"));
    assert!(t.sim.write_log().is_empty());
    // The good form is accepted; a second install while it runs is 409.
    let a = t.post("/v1/bareMetals/20002/install", &good).await;
    assert_eq!(a.status, 200, "{}", a.json);
    let a = t
        .post("/v1/bareMetals/20002/install", &[("osId", "205")])
        .await;
    assert_eq!(a.status, 409);
    assert_eq!(t.sim.write_log().len(), 1);
}
