//! Operations by both names (operationId and `METHOD /path`) in fault
//! rules and the journal; what the journal keeps of each request and
//! answer; its NDJSON export; and the control API's smaller checks
//! (unknown fields of `clock/advance`, the latency cap, fresh correlation
//! ids).

mod common;

use common::*;
use hostapi_sim::{FaultConfig, Sim, SimConfig, SimError};
use reqwest::Method;
use serde_json::{Value, json};

async fn ctl(t: &T, method: Method, path: &str, body: Option<Value>) -> Ans {
    let mut rb = t
        .http
        .request(method, format!("{}{path}", t.sim.control_url()));
    if let Some(b) = body {
        rb = rb.json(&b);
    }
    read(rb.send().await.expect("send")).await
}

async fn still() -> T {
    start(SimConfig::default().with_seed(3)).await
}

#[tokio::test]
async fn a_fault_rule_by_operation_id_fires_and_the_journal_shows_the_operation_id() {
    let t = still().await;
    let a = ctl(
        &t,
        Method::POST,
        "/faults",
        Some(json!({"operation": "listDomains", "fault": "status", "status": 503, "times": 1})),
    )
    .await;
    assert_eq!(a.status, 201, "{}", a.json);
    assert_eq!(t.get("/v1/domains").await.status, 503);
    assert_eq!(t.get("/v1/domains").await.status, 200);
    // Another operation on the same interface is untouched.
    assert_eq!(t.get("/v1/domains/acme-1.com").await.status, 200);

    let a = ctl(&t, Method::GET, "/requests?operation=listDomains", None).await;
    assert_eq!(a.status, 200, "{}", a.json);
    let rs = a.json["requests"].as_array().unwrap();
    assert_eq!(rs.len(), 2, "{}", a.json);
    for r in rs {
        assert_eq!(r["operation"], "listDomains");
        assert_eq!(r["api"], "infra");
        assert_eq!(r["route"], "GET /v1/domains");
    }
    assert_eq!(
        (rs[0]["status"].clone(), rs[0]["fault"].clone()),
        (json!(503), json!("503"))
    );
    // The same entries by METHOD /path, and by the in-process API.
    let by_route = ctl(
        &t,
        Method::GET,
        "/requests?operation=GET%20%2Fv1%2Fdomains",
        None,
    )
    .await;
    assert_eq!(by_route.json, a.json);
    assert_eq!(t.sim.requests(Some("listDomains")).len(), 2);
    assert_eq!(
        t.sim.requests(Some("getDomain"))[0].route,
        "GET /v1/domains/{domainname}"
    );
}

#[tokio::test]
async fn a_name_infra_and_cloud_share_means_both_unless_qualified() {
    let t = still().await;
    let a = ctl(
        &t,
        Method::POST,
        "/faults",
        Some(json!([
            {"operation": "cloud.getVirtualServer", "fault": "status", "status": 500},
            {"operation": "listVirtualServers", "fault": "status", "status": 502}
        ])),
    )
    .await;
    assert_eq!(a.status, 201, "{}", a.json);
    assert_eq!(t.get("/v1/virtualServers").await.status, 502);
    assert_eq!(t.get("/cloud/v2/virtualServers").await.status, 502);
    assert_eq!(t.get("/v1/virtualServers/100001").await.status, 200);
    let r = t.get("/cloud/v2/virtualServers/x").await;
    assert_eq!(r.status, 500);
    let apis: Vec<String> = t
        .sim
        .requests(Some("listVirtualServers"))
        .into_iter()
        .map(|e| e.api)
        .collect();
    assert_eq!(apis, ["infra", "cloud"]);
    assert_eq!(t.sim.requests(Some("infra.listVirtualServers")).len(), 1);
}

#[tokio::test]
async fn unknown_operation_names_are_refused_saying_what_is_accepted() {
    let t = still().await;
    let a = ctl(&t, Method::GET, "/requests?operation=nonsense", None).await;
    assert_eq!(a.status, 400, "{}", a.json);
    let e = a.json["error"].as_str().unwrap();
    assert!(
        e.starts_with("operation: unknown operation \"nonsense\""),
        "{e}"
    );
    for form in ["listDomains", "cloud.listVirtualServers", "GET /v1/domains"] {
        assert!(e.contains(form), "{e} names {form}");
    }
    let a = ctl(&t, Method::GET, "/requests?operation=listdomains", None).await;
    assert!(
        a.json["error"]
            .as_str()
            .unwrap()
            .contains("did you mean \"listDomains\"")
    );
    assert_eq!(
        ctl(&t, Method::GET, "/requests?format=xml", None)
            .await
            .status,
        400
    );
    assert_eq!(
        ctl(&t, Method::GET, "/requests?op=x", None).await.status,
        400
    );
    let a = ctl(
        &t,
        Method::POST,
        "/faults",
        Some(json!({"operation": "installBareMetals", "fault": "drop-before"})),
    )
    .await;
    assert_eq!(a.status, 400);
    assert!(
        a.json["error"]
            .as_str()
            .unwrap()
            .starts_with("rule 0: operation: unknown")
    );
    assert!(matches!(
        t.sim.requests_of("nonsense"),
        Err(SimError::Config(_))
    ));
}

#[tokio::test]
async fn the_faults_endpoint_lists_every_operation_by_both_names() {
    let t = still().await;
    let a = ctl(&t, Method::GET, "/faults", None).await;
    let ops = a.json["operations"].as_array().unwrap();
    assert_eq!(ops.len(), 80);
    let install = ops
        .iter()
        .find(|o| o["operationId"] == "installBareMetal")
        .expect("installBareMetal listed");
    assert_eq!(
        install["route"],
        "POST /v1/bareMetals/{bareMetalId}/install"
    );
    assert_eq!(install["api"], "infra");
    let purge = ops
        .iter()
        .find(|o| o["operationId"] == "purgeZoneContent")
        .unwrap();
    assert_eq!(purge["path"], "/content/purge/{customer_number}/{zone_id}");
    // Every route of the statistics has its row.
    for route in Sim::operations() {
        assert!(ops.iter().any(|o| o["route"] == route), "{route}");
    }
}

#[tokio::test]
async fn a_dns_create_entry_shows_what_was_sent_and_what_was_answered() {
    let t = still().await;
    let a = t
        .post(
            "/v1/domains/acme-1.com/dnsRecords",
            &[
                ("host", "new.acme-1.com"),
                ("type", "TXT"),
                ("content", "v=spf1 -all"),
            ],
        )
        .await;
    assert_eq!(a.status, 200, "{}", a.json);
    let e = t
        .sim
        .requests(Some("createDnsRecord"))
        .pop()
        .expect("journaled");
    assert_eq!(e.operation, "createDnsRecord");
    assert_eq!(e.status, Some(200));
    let req = e.request.expect("request body kept");
    let form = req.form.expect("as a form");
    assert_eq!(form["content"], "v=spf1 -all");
    assert_eq!(form["type"], "TXT");
    assert!(
        req.content_type
            .unwrap()
            .starts_with("application/x-www-form-urlencoded")
    );
    let answer = e.answer.expect("answer body kept");
    assert_eq!(
        answer.text.as_deref().map(str::as_bytes),
        Some(&a.bytes[..])
    );

    // A CDN purge's JSON body is kept as JSON; the signature is not kept.
    let c = t.customer();
    let a = t
        .cdn(
            Method::POST,
            &format!("/content/purge/{c}/1001"),
            Some((
                "application/json",
                json!({"urls": ["/img/a.png"]}).to_string(),
            )),
        )
        .await;
    assert!(a.status < 300, "{}", a.json);
    let e = t.sim.requests(Some("purgeZoneContent")).pop().unwrap();
    assert_eq!(e.request.unwrap().json.unwrap()["urls"][0], "/img/a.png");
    assert!(e.path.ends_with("/REDACTED"), "{}", e.path);
}

#[tokio::test]
async fn secrets_never_reach_the_journal() {
    let t = still().await;
    // Refused (unknown fields), and journaled all the same.
    let key = t.sim.api_key().to_string();
    let a = t
        .post(
            "/v1/domains/acme-1.com/dnsRecords",
            &[("rootPassword", "hunter2-secret"), ("content", &key)],
        )
        .await;
    assert_eq!(a.status, 400);
    let r = t
        .http
        .get(t.url(&format!("/v1/domains?api_key={key}")))
        .header("X-Svc-Auth", &key)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 400, "api_key is no parameter of listDomains");
    let dump = ctl(&t, Method::GET, "/requests?format=ndjson", None).await;
    let text = String::from_utf8(dump.bytes).unwrap();
    assert!(!text.contains("hunter2"), "{text}");
    assert!(!text.contains(&key), "{text}");
    assert!(text.contains("REDACTED"));
}

#[tokio::test]
async fn the_ndjson_export_is_one_entry_per_line() {
    let t = still().await;
    t.get("/v1/domains").await;
    t.put("/v1/domains/acme-1.com", &[("ttl", "7200")]).await;
    let r = t
        .http
        .get(format!("{}/requests?format=ndjson", t.sim.control_url()))
        .send()
        .await
        .unwrap();
    assert_eq!(r.headers()["content-type"], "application/x-ndjson");
    let text = r.text().await.unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[1]["operation"], "updateDomainTtl");
    assert_eq!(lines[1]["request"]["form"]["ttl"], "7200");
    assert_eq!(hostapi_sim::read_script(&text).unwrap().len(), 2);
}

#[tokio::test]
async fn clock_advance_refuses_unknown_fields() {
    let t = still().await;
    let a = ctl(
        &t,
        Method::POST,
        "/clock/advance",
        Some(json!({"seconds": 5, "secs": 5})),
    )
    .await;
    assert_eq!(a.status, 400);
    assert_eq!(a.json["error"], "secs: unknown field (seconds is accepted)");
    let a = ctl(&t, Method::POST, "/clock/advance", Some(json!([5]))).await;
    assert_eq!(a.status, 400);
    let a = ctl(
        &t,
        Method::POST,
        "/clock/advance",
        Some(json!({"seconds": 5})),
    )
    .await;
    assert_eq!(a.status, 200, "{}", a.json);
}

#[tokio::test]
async fn latency_is_capped_with_a_clear_error() {
    let cfg = SimConfig::default().with_faults(FaultConfig {
        latency_ms: hostapi_sim::MAX_LATENCY_MS + 1,
        ..FaultConfig::default()
    });
    let e = Sim::start(cfg).await.unwrap_err();
    assert!(e.to_string().contains("latency: at most 60000 ms"), "{e}");
    let t = still().await;
    let a = t
        .call_h(
            Method::GET,
            "/v1/domains",
            None,
            &[("X-Sim-Fault", "latency=70000")],
        )
        .await;
    assert_eq!(a.status, 400);
    assert!(
        a.json["errorMessage"]
            .as_str()
            .unwrap()
            .contains("at most 60000 ms")
    );
}

#[tokio::test]
async fn every_error_answer_has_its_own_correlation_id_even_across_runs() {
    let first = |a: &Ans| a.json["correlationId"].as_str().unwrap().to_string();
    let t = still().await;
    let a = first(&t.get("/v1/domains/none.example").await);
    let b = first(&t.get("/v1/domains/none.example").await);
    assert_ne!(a, b);
    // A second simulator of the same seed (a sandbox restarted on its state
    // file) does not repeat the first one's ids.
    let u = still().await;
    assert_ne!(first(&u.get("/v1/domains/none.example").await), a);
}
