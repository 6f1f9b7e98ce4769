//! State transitions in simulated time, determinism, fault injection, the
//! large dataset and the stand-alone binary.

mod common;

use std::time::{Duration, Instant};

use common::{T, start};
use hostapi_sim::{FaultConfig, FaultKind, FaultWeights, SimConfig};
use reqwest::Method;
use serde_json::{Value, json};

const CLOUD: &str = "/cloud/v2/virtualServers";

fn cfg(seed: u64, scale: f64) -> SimConfig {
    SimConfig {
        seed,
        time_scale: scale,
        ..Default::default()
    }
}

async fn cloud_id(t: &T, index: usize) -> String {
    let a = t.get(&format!("{CLOUD}?limit=1&offset={index}")).await;
    a.json["virtualServers"][0]["id"]
        .as_str()
        .unwrap()
        .to_string()
}

#[tokio::test]
async fn cloud_power_transitions() {
    // 20 simulated seconds per real second: each 5 s phase lasts 250 ms.
    let t = start(cfg(3, 20.0)).await;
    let id = cloud_id(&t, 0).await;
    let path = format!("{CLOUD}/{id}");
    assert_eq!(t.get(&path).await.json["state"], "RUNNING");
    let job = t.post(&format!("{path}/powerOff"), &[]).await;
    assert_eq!(
        (job.status, job.json["status"].clone()),
        (202, json!("PENDING"))
    );
    assert_eq!(t.get(&path).await.json["state"], "STOPPING");
    t.wait_for(&path, Duration::from_secs(5), |v| v["state"] == "STOPPED")
        .await;
    // A list read agrees with the single read.
    assert_eq!(
        t.get(&format!("{CLOUD}?limit=1")).await.json["virtualServers"][0]["state"],
        "STOPPED"
    );
    t.post(&format!("{path}/powerOn"), &[]).await;
    assert_eq!(t.get(&path).await.json["state"], "STARTING");
    t.wait_for(&path, Duration::from_secs(5), |v| v["state"] == "RUNNING")
        .await;
    // Reboot goes through STOPPING and STARTING back to RUNNING.
    t.post(&format!("{path}/reboot"), &[]).await;
    let mut seen = vec![];
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let s = t.get(&path).await.json["state"]
            .as_str()
            .unwrap()
            .to_string();
        if seen.last() != Some(&s) {
            seen.push(s.clone());
        }
        if s == "RUNNING" || Instant::now() > deadline {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(seen, ["STOPPING", "STARTING", "RUNNING"]);
    // Power on while running changes nothing.
    t.post(&format!("{path}/powerOn"), &[]).await;
    assert_eq!(t.get(&path).await.json["state"], "RUNNING");
}

#[tokio::test]
async fn bare_metal_install_and_rescue() {
    // 500×: install (300 s) lasts 600 ms, rescue (120 s) 240 ms.
    let t = start(cfg(3, 500.0)).await;
    let s = "/v1/bareMetals/20001/installationStatus";
    assert_eq!(
        t.get(s).await.json["installationStatus"]["description"],
        "Normal"
    );
    let before = t.get("/v1/bareMetals/20001/rootPassword").await.json;
    assert_eq!(before["rescueModePassword"], "");
    assert_eq!(
        t.post("/v1/bareMetals/20001/install", &[("osId", "201")])
            .await
            .status,
        200
    );
    assert_eq!(
        t.get(s).await.json["installationStatus"]["description"],
        "Installing"
    );
    assert_eq!(
        t.post("/v1/bareMetals/20001/rescueMode", &[("osId", "121")])
            .await
            .status,
        409
    );
    t.wait_for(s, Duration::from_secs(5), |v| {
        v["installationStatus"]["description"] == "Normal"
    })
    .await;
    let after = t.get("/v1/bareMetals/20001/rootPassword").await.json;
    assert_ne!(
        after["rootPassword"], before["rootPassword"],
        "install sets a new root password"
    );
    assert_eq!(
        t.post("/v1/bareMetals/20001/rescueMode", &[("osId", "121")])
            .await
            .status,
        200
    );
    assert_eq!(
        t.get(s).await.json["installationStatus"]["description"],
        "Rescue mode booting"
    );
    assert_eq!(
        t.get("/v1/bareMetals/20001/rootPassword").await.json["rescueModePassword"],
        ""
    );
    t.wait_for(s, Duration::from_secs(5), |v| {
        v["installationStatus"]["description"] == "Normal"
    })
    .await;
    let pw = t.get("/v1/bareMetals/20001/rootPassword").await.json;
    assert!(!pw["rescueModePassword"].as_str().unwrap().is_empty());
    // Switch port and power status are immediate.
    t.post("/v1/bareMetals/20001/switchPort/close", &[]).await;
    assert_eq!(
        t.get("/v1/bareMetals/20001/switchPort").await.json["switchPort"]["status"],
        "closed"
    );
}

#[tokio::test]
async fn private_network_membership_transitions() {
    // 200×: a 60 s member transition lasts 300 ms.
    let t = start(cfg(3, 200.0)).await;
    let p = "/v1/privateNetworks/502";
    t.post(&format!("{p}/bareMetals"), &[("bareMetalId", "20007")])
        .await;
    assert_eq!(
        t.get(p).await.json[0]["bareMetals"][0]["status"],
        "CONFIGURING"
    );
    assert_eq!(
        t.get("/v1/privateNetworks").await.json["privateNetworks"][1]["serverCount"],
        1
    );
    t.wait_for(p, Duration::from_secs(5), |v| {
        v[0]["bareMetals"][0]["status"] == "CONFIGURED"
    })
    .await;
    assert_eq!(t.delete(&format!("{p}/bareMetals/20007")).await.status, 204);
    assert_eq!(
        t.get(p).await.json[0]["bareMetals"][0]["status"],
        "REMOVING"
    );
    assert_eq!(t.delete(&format!("{p}/bareMetals/20007")).await.status, 409);
    t.wait_for(p, Duration::from_secs(5), |v| {
        v[0]["bareMetals"] == json!([])
    })
    .await;
    assert_eq!(t.delete(&format!("{p}/bareMetals/20007")).await.status, 404);
    assert_eq!(
        t.get("/v1/privateNetworks").await.json["privateNetworks"][1]["serverCount"],
        0
    );
}

#[tokio::test]
async fn purge_jobs_complete() {
    // 20×: a purge (10 s) completes in 500 ms.
    let t = start(cfg(3, 20.0)).await;
    let c = t.customer();
    let a = t
        .cdn(
            Method::POST,
            &format!("/content/purge/{c}/1002"),
            Some((
                "application/json",
                json!({"urls": ["*", "/ignored"]}).to_string(),
            )),
        )
        .await;
    let job = a.json["success"].as_u64().unwrap();
    let res = format!("/content/purge/{c}/1002/{job}");
    let a = t.cdn(Method::GET, &res, None).await;
    assert_eq!(a.json["success"], json!([{"*": "Queued"}]));
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let a = t.cdn(Method::GET, &res, None).await;
        if a.json["success"] == json!([{"*": "Done"}]) {
            break;
        }
        assert!(Instant::now() < deadline, "{}", a.json);
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // The job belongs to its zone.
    assert_eq!(
        t.cdn(Method::GET, &format!("/content/purge/{c}/1001/{job}"), None)
            .await
            .status,
        404
    );
    let a = t
        .cdn(Method::GET, &format!("/content/purge/{c}/1001/5001"), None)
        .await;
    assert_eq!(a.json["success"][0]["/index.html"], "Done");
}

async fn fingerprint(t: &T) -> Vec<Value> {
    let c = t.customer();
    let id = cloud_id(t, 5).await;
    let mut out = vec![];
    for p in [
        "/v1/virtualServers".to_string(),
        "/v1/domains".into(),
        "/v1/domains/ember-5.nl/dnsRecords".into(),
        "/v1/bareMetals".into(),
        "/v1/bareMetals/20002".into(),
        "/v1/bareMetals/20002/ips".into(),
        "/v1/bareMetals/20001/leases".into(),
        "/v1/bareMetals/20002/networkUsage?dateFrom=01-02-2024&dateTo=29-02-2024".into(),
        "/v1/privateRacks/7002".into(),
        "/v1/privateRacks/7002/networkUsage?dateFrom=01-02-2024&dateTo=29-02-2024".into(),
        "/v1/privateNetworks".into(),
        format!("{CLOUD}?limit=40"),
        format!("{CLOUD}/{id}/credentials/OPERATING_SYSTEM/root"),
        format!(
            "{CLOUD}/{id}/metrics/datatraffic?from=2024-01-01T00:00:00Z&to=2024-02-01T00:00:00Z&aggregation=SUM"
        ),
        "/cloud/v2/privateClouds".into(),
    ] {
        let a = t.get(&p).await;
        assert_eq!(a.status, 200, "{p}");
        out.push(a.json);
    }
    for res in [
        format!("/customers/{c}/20/0"),
        format!("/origins/{c}"),
        format!("/customers/reseller/{c}/{c}"),
    ] {
        out.push(t.cdn(Method::GET, &res, None).await.json);
    }
    out.push(json!([
        t.sim.api_key(),
        t.sim.cdn_secret(),
        c,
        t.sim.customer_number()
    ]));
    out
}

#[tokio::test]
async fn same_seed_same_answers() {
    let a = start(cfg(42, 1.0)).await;
    let b = start(cfg(42, 1.0)).await;
    let c = start(cfg(43, 1.0)).await;
    let fa = fingerprint(&a).await;
    assert_eq!(fa, fingerprint(&b).await);
    let fc = fingerprint(&c).await;
    assert_ne!(fa[11], fc[11], "another seed gives other cloud servers");
    assert_ne!(fa.last(), fc.last(), "another seed gives other credentials");
    // Ids and names do not depend on the seed.
    assert_eq!(
        fa[1]["domains"][0]["domain"]["domain"],
        fc[1]["domains"][0]["domain"]["domain"]
    );
    // Explicit credentials are used as given.
    let d = start(SimConfig {
        api_key: Some("key".into()),
        cdn_secret: Some("sec".into()),
        cdn_customer: Some("4242".into()),
        ..Default::default()
    })
    .await;
    assert_eq!(
        (d.sim.api_key(), d.sim.cdn_secret(), d.sim.cdn_customer()),
        ("key", "sec", "4242")
    );
    assert_eq!(d.cdn(Method::GET, "/origins/4242", None).await.status, 200);
}

/// A raw call that reports a transport error instead of panicking.
async fn raw(
    t: &T,
    method: Method,
    path: &str,
    form: &[(&str, &str)],
    fault: Option<&str>,
) -> Result<common::Ans, reqwest::Error> {
    let mut rb = t
        .http
        .request(method, t.url(path))
        .header("X-Svc-Auth", t.sim.api_key())
        .form(form);
    if let Some(f) = fault {
        rb = rb.header("X-Sim-Fault", f);
    }
    let r = rb.send().await?;
    let status = r.status().as_u16();
    let headers = r.headers().clone();
    let bytes = r.bytes().await?.to_vec();
    let json = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    Ok(common::Ans {
        status,
        headers,
        bytes,
        json,
    })
}

/// The TTL of acme-1.com, as a number whichever way it is spelt.
async fn ttl(t: &T) -> Value {
    let v = t.get("/v1/domains/acme-1.com").await.json["domain"]["ttl"].clone();
    common::int(&v).map(Value::from).unwrap_or(v)
}

#[tokio::test]
async fn status_faults_leave_state_untouched() {
    let t = start(cfg(5, 1.0)).await;
    let before = ttl(&t).await;
    for (fault, status) in [
        ("503", 503),
        ("500", 500),
        ("502", 502),
        ("429", 429),
        ("429=7", 429),
    ] {
        let a = raw(
            &t,
            Method::PUT,
            "/v1/domains/acme-1.com",
            &[("ttl", "1111")],
            Some(fault),
        )
        .await
        .unwrap();
        assert_eq!(a.status, status, "{fault}");
        match status {
            429 => {
                let want = if fault == "429=7" { "7" } else { "1" };
                assert_eq!(a.headers["retry-after"], want);
                assert_eq!(a.json["errorCode"], "429");
            }
            502 => assert!(
                a.headers["content-type"]
                    .to_str()
                    .unwrap()
                    .starts_with("text/html")
            ),
            _ => assert_eq!(a.json["errorCode"], status.to_string()),
        }
    }
    assert_eq!(ttl(&t).await, before);
    assert!(t.sim.write_log().is_empty());
    // drop-before: the connection closes without an answer, nothing applied.
    let e = raw(
        &t,
        Method::PUT,
        "/v1/domains/acme-1.com",
        &[("ttl", "1111")],
        Some("drop-before"),
    )
    .await;
    assert!(e.is_err(), "{e:?}");
    assert_eq!(ttl(&t).await, before);
    assert!(t.sim.write_log().is_empty());
    let stats = t.sim.stats();
    for k in ["503", "500", "502", "drop-before"] {
        assert_eq!(stats.faults[k], 1, "{k}");
    }
    assert_eq!(stats.faults["429"], 2);
    assert!(
        !stats
            .operations
            .contains_key("PUT /v1/domains/{domainname}")
    );
    // Cloud status faults use the cloud error shape.
    let a = raw(&t, Method::GET, CLOUD, &[], Some("503")).await.unwrap();
    assert_eq!(a.json["errorCode"], 503);
    // An unknown fault name is a 400.
    let a = raw(&t, Method::GET, CLOUD, &[], Some("explode"))
        .await
        .unwrap();
    assert_eq!(a.status, 400);
}

#[tokio::test]
async fn answer_faults_apply_the_write() {
    let t = start(cfg(5, 1.0)).await;
    // drop-after: applied, then the connection is closed without an answer.
    let e = raw(
        &t,
        Method::PUT,
        "/v1/domains/acme-1.com",
        &[("ttl", "1234")],
        Some("drop-after"),
    )
    .await;
    assert!(e.is_err(), "{e:?}");
    assert_eq!(ttl(&t).await, 1234);
    assert_eq!(t.sim.write_log().len(), 1);
    // truncate: the status line arrives, the body fails midway.
    let r = t
        .http
        .put(t.url("/v1/domains/acme-1.com"))
        .header("X-Svc-Auth", t.sim.api_key())
        .header("X-Sim-Fault", "truncate")
        .form(&[("ttl", "2345")])
        .send()
        .await
        .expect("headers arrive");
    assert_eq!(r.status(), 200);
    assert!(r.bytes().await.is_err(), "the body must fail");
    assert_eq!(ttl(&t).await, 2345);
    // malformed: a complete answer that is not JSON.
    let a = raw(
        &t,
        Method::PUT,
        "/v1/domains/acme-1.com",
        &[("ttl", "3456")],
        Some("malformed"),
    )
    .await
    .unwrap();
    assert_eq!(a.status, 200);
    assert!(serde_json::from_slice::<Value>(&a.bytes).is_err());
    assert_eq!(ttl(&t).await, 3456);
    let log = t.sim.write_log();
    assert_eq!(log.len(), 3);
    assert!(
        log.iter()
            .all(|w| w.operation == "PUT /v1/domains/{domainname}"
                && w.target.starts_with("domain acme-1.com"))
    );
    // latency.
    let t0 = Instant::now();
    let a = raw(
        &t,
        Method::GET,
        "/v1/rescueImages",
        &[],
        Some("latency=150"),
    )
    .await
    .unwrap();
    assert_eq!(a.status, 200);
    assert!(t0.elapsed() >= Duration::from_millis(150));
    let stats = t.sim.stats();
    for k in ["drop-after", "truncate", "malformed", "latency"] {
        assert_eq!(stats.faults[k], 1, "{k}");
    }
    assert_eq!(stats.operations["PUT /v1/domains/{domainname}"], 3);
    // A fault on a GET of a CDN path: truncate still cuts the body.
    let c = t.customer();
    let r = t
        .http
        .get(t.sim.cdn_url(&format!("/origins/{c}")))
        .header("X-Sim-Fault", "truncate")
        .send()
        .await
        .unwrap();
    assert!(r.bytes().await.is_err());
}

#[tokio::test]
async fn random_faults_are_seeded_and_accounted() {
    let only_503 = FaultConfig {
        rate: 1.0,
        weights: FaultWeights::only(FaultKind::ServiceUnavailable),
        ..Default::default()
    };
    let t = start(cfg(8, 1.0).with_faults(only_503)).await;
    for _ in 0..5 {
        let a = raw(&t, Method::GET, "/v1/domains", &[], None)
            .await
            .unwrap();
        assert_eq!(a.status, 503);
    }
    // The header overrides the random draw.
    assert_eq!(
        raw(&t, Method::GET, "/v1/domains", &[], Some("none"))
            .await
            .unwrap()
            .status,
        200
    );
    assert_eq!(t.sim.stats().faults["503"], 5);

    // Two simulators with the same seed inject the same faults in the same order.
    let mixed = FaultConfig {
        rate: 0.5,
        ..Default::default()
    };
    let run = |seed: u64| {
        let mixed = mixed.clone();
        async move {
            let t = start(cfg(seed, 1.0).with_faults(mixed)).await;
            let mut outcomes = vec![];
            let mut applied_ok = 0;
            for k in 0..40 {
                let host = format!("h{k}.acme-1.com");
                let form = [
                    ("host", host.as_str()),
                    ("type", "A"),
                    ("content", "192.0.2.1"),
                ];
                let r = raw(
                    &t,
                    Method::POST,
                    "/v1/domains/acme-1.com/dnsRecords",
                    &form,
                    None,
                )
                .await;
                outcomes.push(match &r {
                    Ok(a) => a.status.to_string(),
                    Err(_) => "error".to_string(),
                });
                if matches!(&r, Ok(a) if a.status == 200 && a.json.is_object()) {
                    applied_ok += 1;
                }
            }
            let stats = t.sim.stats();
            let f = |k: &str| stats.faults.get(k).copied().unwrap_or(0);
            // Exactly the writes that ran were applied, each once.
            let ran = applied_ok + f("drop-after") + f("truncate") + f("malformed");
            let log = t.sim.write_log();
            assert_eq!(log.len() as u64, ran, "{outcomes:?} {stats:?}");
            let mut targets: Vec<_> = log.iter().map(|w| w.target.clone()).collect();
            targets.sort();
            targets.dedup();
            assert_eq!(targets.len(), log.len(), "no write applied twice");
            assert_eq!(
                stats
                    .operations
                    .get("POST /v1/domains/{domainname}/dnsRecords")
                    .copied()
                    .unwrap_or(0),
                ran
            );
            outcomes
        }
    };
    let a = run(11).await;
    let b = run(11).await;
    assert_eq!(a, b);
    assert!(
        a.iter().any(|o| o == "200") && a.iter().any(|o| o != "200"),
        "{a:?}"
    );
}

#[tokio::test]
async fn size_100000_starts_quickly() {
    let t0 = Instant::now();
    let t = start(SimConfig {
        size: 100_000,
        ..Default::default()
    })
    .await;
    let took = t0.elapsed();
    assert!(took < Duration::from_millis(500), "start-up took {took:?}");
    let a = t.get(&format!("{CLOUD}?offset=99999")).await;
    assert_eq!(a.json["_metadata"]["totalCount"], 100_000);
    assert_eq!(a.json["virtualServers"].as_array().unwrap().len(), 1);
    let last = a.json["virtualServers"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(t.get(&format!("{CLOUD}/{last}")).await.status, 200);
    assert_eq!(
        t.get(&format!("{CLOUD}?limit=500")).await.json["virtualServers"]
            .as_array()
            .unwrap()
            .len(),
        500
    );
    assert_eq!(
        t.get("/v1/bareMetals").await.json["bareMetals"]
            .as_array()
            .unwrap()
            .len(),
        1000
    );
    assert_eq!(t.get("/v1/virtualServers/110000").await.status, 200);
    assert_eq!(t.get("/v1/virtualServers/110001").await.status, 404);
    assert_eq!(t.get("/v1/bareMetals/21000").await.status, 200);
    assert_eq!(
        t.get("/v1/domains").await.json["domains"]
            .as_array()
            .unwrap()
            .len(),
        1000
    );
    // A write on a far record is kept in the overlay.
    t.put(&format!("{CLOUD}/{last}"), &[("reference", "far")])
        .await;
    assert_eq!(
        t.get(&format!("{CLOUD}/{last}")).await.json["reference"],
        "far"
    );
}

#[tokio::test]
async fn shutdown_is_graceful() {
    let t = start(cfg(1, 1.0)).await;
    let url = t.url("/v1/rescueImages");
    let key = t.sim.api_key().to_string();
    // A request in flight (slowed by latency) completes across shutdown.
    let http = t.http.clone();
    let inflight = tokio::spawn(async move {
        http.get(url)
            .header("X-Svc-Auth", key)
            .header("X-Sim-Fault", "latency=200")
            .send()
            .await
            .map(|r| r.status().as_u16())
    });
    tokio::time::sleep(Duration::from_millis(50)).await;
    let addr = t.sim.addr();
    tokio::time::timeout(Duration::from_secs(10), t.sim.shutdown())
        .await
        .expect("shutdown");
    assert_eq!(inflight.await.unwrap().unwrap(), 200);
    assert!(
        tokio::net::TcpStream::connect(addr).await.is_err(),
        "no longer listening"
    );
}

#[tokio::test]
async fn binary_prints_one_json_line_and_stops_on_sigint() {
    use std::io::BufRead;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_hostapi-sim"))
        .args([
            "--seed",
            "4",
            "--api-key",
            "K",
            "--cdn-secret",
            "S",
            "--cdn-customer",
            "777",
            "--time-scale",
            "10",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("spawn");
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = std::io::BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    let line = rx
        .recv_timeout(Duration::from_secs(10))
        .expect("a line on stdout");
    let v: Value = serde_json::from_str(&line).expect("JSON line");
    assert_eq!(v["api_key"], "K");
    assert_eq!(v["cdn_secret"], "S");
    assert_eq!(v["cdn_customer"], "777");
    let base = v["base_url"].as_str().unwrap();
    assert!(base.starts_with("http://127.0.0.1:"));
    assert_eq!(v["cdn_base_url"], format!("{base}/cdn"));
    let r = common::client()
        .get(format!("{base}/v1/domains"))
        .header("X-Svc-Auth", "K")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let _ = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status();
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "{status:?}");
            break;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the binary did not stop on SIGINT");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}
