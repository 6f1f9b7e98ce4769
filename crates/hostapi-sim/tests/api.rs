//! Every endpoint's shape, authentication, validation, writes read back,
//! pagination and the quirks of the dataset.

mod common;

use common::{T, fast, int, unwrap1};
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

#[tokio::test]
async fn every_operation_answers_its_documented_shape() {
    let t = fast().await;
    let c = t.customer();

    // ---- v1 virtual servers (6)
    let a = t.get("/v1/virtualServers").await;
    assert_eq!(a.status, 200);
    assert_eq!(a.json["virtualServers"].as_array().unwrap().len(), 20);
    let a = t.get("/v1/virtualServers/100002").await;
    assert_eq!(a.json["virtualServers"].as_array().unwrap().len(), 1);
    assert_eq!(a.json["virtualServers"][0]["id"], 100002);
    for action in ["powerOn", "powerOff", "reboot", "reinstall"] {
        let a = t
            .post(&format!("/v1/virtualServers/100002/{action}"), &[])
            .await;
        assert_eq!(a.status, 202, "{action}");
        assert!(
            a.json["asyncjob"]["jobid"].is_string(),
            "{action}: {}",
            a.json
        );
    }

    // ---- domains and DNS records (8)
    let a = t.get("/v1/domains").await;
    assert_eq!(a.json["domains"][0]["domain"]["domain"], "acme-1.com");
    assert_eq!(a.json["domains"].as_array().unwrap().len(), 20);
    let a = t.get("/v1/domains/acme-1.com").await;
    assert_eq!(a.json["domain"]["code"], 1000);
    let a = t.put("/v1/domains/acme-1.com", &[("ttl", "7200")]).await;
    assert_eq!(int(&a.json["domain"]["ttl"]), Some(7200));
    let a = t.get("/v1/domains/acme-1.com/dnsRecords").await;
    let recs = a.json["dnsRecords"].as_array().unwrap();
    assert!(recs.len() >= 5);
    assert!(int(&recs[0]["dnsRecord"]["id"]).is_some());
    let a = t
        .post(
            "/v1/domains/acme-1.com/dnsRecords",
            &[
                ("host", "new.acme-1.com"),
                ("type", "A"),
                ("content", "192.0.2.7"),
                ("priority", ""),
            ],
        )
        .await;
    assert_eq!(a.status, 200, "{}", a.json);
    let new_id = int(&a.json["dnsRecord"]["id"]).expect("an id");
    let a = t
        .get(&format!("/v1/domains/acme-1.com/dnsRecords/{new_id}"))
        .await;
    assert_eq!(a.json["dnsRecord"]["content"], "192.0.2.7");
    assert!(a.json["dnsRecord"].get("priority").is_none());
    let a = t
        .put(
            &format!("/v1/domains/acme-1.com/dnsRecords/{new_id}"),
            &[
                ("id", &new_id.to_string()),
                ("name", "new.acme-1.com"),
                ("type", "A"),
                ("data", "192.0.2.8"),
            ],
        )
        .await;
    assert_eq!(a.status, 200, "{}", a.json);
    assert_eq!(a.json["dnsRecord"]["content"], "192.0.2.8");
    let a = t
        .delete(&format!("/v1/domains/acme-1.com/dnsRecords/{new_id}"))
        .await;
    assert_eq!(a.status, 200);
    assert!(a.bytes.is_empty());

    // ---- bare metals (23)
    let a = t.get("/v1/bareMetals").await;
    assert_eq!(
        int(&a.json["bareMetals"][0]["bareMetal"]["bareMetalId"]),
        Some(20001)
    );
    let a = t.get("/v1/bareMetals/20001").await;
    assert_eq!(int(&a.json["bareMetal"]["bareMetalId"]), Some(20001));
    for key in [
        "location",
        "server",
        "network",
        "serverHostingPack",
        "serviceLevelAgreement",
    ] {
        assert!(a.json["bareMetal"][key].is_object(), "{key}");
    }
    let a = t
        .put("/v1/bareMetals/20001", &[("reference", "db-primary")])
        .await;
    assert_eq!(a.json["bareMetal"]["reference"], "db-primary");
    let a = t.get("/v1/bareMetals/20001/switchPort").await;
    assert!(a.json["switchPort"]["switchNode"].is_u64());
    let a = t.post("/v1/bareMetals/20001/switchPort/close", &[]).await;
    assert_eq!(a.json["switchPort"]["status"], "closed");
    let a = t.post("/v1/bareMetals/20001/switchPort/open", &[]).await;
    assert_eq!(a.json["switchPort"]["status"], "open");
    let a = t.get("/v1/bareMetals/20001/powerStatus").await;
    assert_eq!(a.json["powerStatus"]["status"], "on");
    let a = t.post("/v1/bareMetals/20001/powerCycle", &[]).await;
    assert_eq!((a.status, a.json.clone()), (202, json!({})));
    let a = t
        .post("/v1/bareMetals/20001/install", &[("osId", "205")])
        .await;
    assert_eq!(a.status, 200, "{}", a.json);
    assert!(a.bytes.is_empty());
    let a = t
        .post("/v1/bareMetals/20002/rescueMode", &[("osId", "121")])
        .await;
    assert_eq!(a.status, 200, "{}", a.json);
    let a = t.get("/v1/bareMetals/20003/installationStatus").await;
    // Normal, or (some servers at some seeds) an error code before any install.
    let code = &a.json["installationStatus"]["code"];
    assert!(*code == 1000 || *code == 1003, "{}", a.json);
    let a = t.get("/v1/bareMetals/20003/rootPassword").await;
    assert!(a.json["rootPassword"].is_string() || a.json["rootpassword"].is_string());
    assert!(a.json["rescueModePassword"].is_string());
    let q = "?dateFrom=01-03-2024&dateTo=31-03-2024";
    let a = t
        .get(&format!("/v1/bareMetals/20003/networkUsage{q}"))
        .await;
    assert!(
        a.json["bandwidth"].is_object() && a.json["dataTraffic"].is_object(),
        "{}",
        a.json
    );
    assert_eq!(
        a.json["dataTraffic"]["interval"],
        json!({"from": "01-03-2024", "to": "31-03-2024"})
    );
    let a = t
        .get(&format!("/v1/bareMetals/20003/networkUsage/bandwidth{q}"))
        .await;
    assert!(
        a.json["bandwidth"]["measurement"]["average"]
            .as_str()
            .unwrap()
            .ends_with(" Mbps")
    );
    let a = t
        .get(&format!("/v1/bareMetals/20003/networkUsage/datatraffic{q}"))
        .await;
    assert!(
        a.json["datatraffic"]["measurement"]["total"]
            .as_str()
            .unwrap()
            .ends_with(" GB")
    );
    let a = t.get("/v1/bareMetals/20004/ips").await;
    let ips = a.json["ips"].as_array().unwrap();
    assert_eq!(ips.len(), 4);
    let ip = ips[1]["ip"]["ip"].as_str().unwrap().to_string();
    let a = t.get(&format!("/v1/bareMetals/20004/ips/{ip}")).await;
    let details = &a.json["ip"]["ipDetails"];
    assert_eq!(
        details.get("mask").or(details.get("netmask")),
        Some(&json!("255.255.255.0"))
    );
    let a = t
        .put(
            &format!("/v1/bareMetals/20004/ips/{ip}"),
            &[("nullRouted", "1")],
        )
        .await;
    assert_eq!(a.json["ip"]["nullRouted"], true);
    let a = t.get("/v1/bareMetals/20001/leases").await;
    // Index 0: a lease for each of its two MACs.
    assert_eq!(unwrap1(&a.json)["_metadata"]["totalCount"], 2);
    let mac = unwrap1(&a.json)["leases"][0]["mac"]
        .as_str()
        .unwrap()
        .to_string();
    let a = t.get(&format!("/v1/bareMetals/20001/leases/{mac}")).await;
    assert_eq!(unwrap1(&a.json)["mac"], mac.as_str());
    let a = t
        .delete(&format!("/v1/bareMetals/20001/leases/{mac}"))
        .await;
    assert_eq!(a.status, 204);
    let a = t
        .post(
            "/v1/bareMetals/20001/leases",
            &[
                ("bootFileName", "http://boot.example/x.ipxe"),
                ("bootServerHostName", "10.0.0.5"),
                ("domainNameServerIp", "10.0.0.53"),
            ],
        )
        .await;
    assert_eq!(a.status, 204, "{}", a.json);
    let a = t.delete("/v1/bareMetals/20001/leases").await;
    assert_eq!(a.status, 204);

    // ---- private racks (6)
    let a = t.get("/v1/privateRacks").await;
    assert_eq!(
        int(&a.json["privateRacks"][0]["privateRack"]["privateRackId"]),
        Some(7001)
    );
    let a = t.get("/v1/privateRacks/7001").await;
    assert_eq!(int(&a.json["privateRack"]["privateRackId"]), Some(7001));
    let a = t.get("/v1/privateRacks/7001/ips").await;
    let rip = a.json["ips"][0]["ip"]["ip"].as_str().unwrap().to_string();
    assert!(a.json["ips"][0]["ip"].get("reverseLookup").is_none());
    let a = t.get(&format!("/v1/privateRacks/7001/ips/{rip}")).await;
    assert!(a.json["ip"]["reverseLookup"].is_string());
    let a = t
        .put(
            &format!("/v1/privateRacks/7001/ips/{rip}"),
            &[("reverseLookup", "rack.example.com")],
        )
        .await;
    assert_eq!(a.json["ip"]["reverseLookup"], "rack.example.com");
    let a = t.get("/v1/privateRacks/7001/networkUsage").await;
    assert_eq!(a.status, 200);
    assert!(a.json.is_object());

    // ---- IPs (1)
    let a = t
        .put(
            &format!("/v1/ips/{ip}"),
            &[("reverseLookup", "mail.example.com")],
        )
        .await;
    assert_eq!(a.json["ip"]["serverId"], 20004);
    assert_eq!(a.json["ip"]["serverType"], "Bare Metal");

    // ---- catalogues (7)
    let a = t.get("/v1/rescueImages").await;
    assert_eq!(a.json["rescueImages"][0]["rescueImage"]["id"], 121);
    let a = t.get("/v1/operatingSystems").await;
    assert!(a.json["operatingSystems"].as_array().unwrap().len() >= 10);
    let a = t.get("/v1/operatingSystems/205").await;
    assert_eq!(a.json["operatingSystem"]["name"], "Debian 12 (amd64)");
    let a = t.get("/v1/operatingSystems/205/controlPanels").await;
    let cp = a.json["controlPanels"][0]["controlPanel"]["id"]
        .as_u64()
        .unwrap();
    let a = t
        .get(&format!("/v1/operatingSystems/205/controlPanels/{cp}"))
        .await;
    assert_eq!(a.json["controlPanel"]["id"], cp);
    let a = t
        .get("/v1/operatingSystems/205/partitionSchema?serverPackId=20001")
        .await;
    let p = &a.json["partitionSchema"];
    assert_eq!(p["disks"]["disk"][0], "/dev/sda");
    assert_eq!(p["suggestion"]["hdd"]["partition"][1]["mountpoint"], "");
    assert_eq!(p["suggestion"]["hdd"]["partition"][2]["size"], "*");
    assert!(
        p["filesystemTypes"]["type"]
            .as_array()
            .unwrap()
            .contains(&json!("swap"))
    );
    let a = t.get("/v1/services").await;
    assert_eq!(a.status, 200);
    assert!(a.json.is_object());

    // ---- private networks (6)
    let a = t.get("/v1/privateNetworks").await;
    assert_eq!(a.json["_metadata"]["totalCount"], 2);
    assert_eq!(a.json["privateNetworks"][0]["serverCount"], 2);
    let a = t.post("/v1/privateNetworks", &[]).await;
    let nid = a.json["id"].as_u64().unwrap();
    assert!(a.json["message"].is_string());
    let a = t
        .post(
            &format!("/v1/privateNetworks/{nid}/bareMetals"),
            &[("bareMetalId", "20005")],
        )
        .await;
    assert_eq!(a.status, 204, "{}", a.json);
    let a = t.get(&format!("/v1/privateNetworks/{nid}")).await;
    assert_eq!(a.json[0]["bareMetals"][0]["id"], 20005);
    let a = t
        .delete(&format!("/v1/privateNetworks/{nid}/bareMetals/20005"))
        .await;
    assert_eq!(a.status, 204);
    let a = t.delete(&format!("/v1/privateNetworks/{nid}")).await;
    assert!(a.json["message"].is_string());

    // ---- cloud (11)
    let id = first_cloud_id(&t).await;
    let a = t.get(CLOUD).await;
    assert_eq!(
        a.json["_metadata"],
        json!({"totalCount": 40, "limit": 10, "offset": 0})
    );
    let a = t.get(&format!("{CLOUD}/{id}")).await;
    assert_eq!(a.json["id"], id.as_str());
    let a = t
        .http
        .put(t.url(&format!("{CLOUD}/{id}")))
        .header("X-Svc-Auth", t.sim.api_key())
        .json(&json!({"reference": "edge-1"}))
        .send()
        .await
        .unwrap();
    let a = common::read(a).await;
    assert_eq!(a.json["reference"], "edge-1");
    for action in ["powerOn", "powerOff", "reboot", "reinstall"] {
        let a = t.post(&format!("{CLOUD}/{id}/{action}"), &[]).await;
        assert_eq!(a.status, 202);
        assert_eq!(a.json["status"], "PENDING");
        assert_eq!(a.json["name"], format!("virtualServers.{action}"));
    }
    let a = t
        .get(&format!("{CLOUD}/{id}/credentials/OPERATING_SYSTEM"))
        .await;
    assert_eq!(
        a.json["credentials"][0],
        json!({"type": "OPERATING_SYSTEM", "username": "root"})
    );
    assert!(a.json["_metadata"]["totalCount"].is_u64());
    let a = t
        .get(&format!("{CLOUD}/{id}/credentials/OPERATING_SYSTEM/root"))
        .await;
    assert!(a.json["password"].is_string());
    let a = t
        .get(&format!(
            "{CLOUD}/{id}/metrics/datatraffic?from=2024-01-01T00:00:00Z&to=2024-01-04T00:00:00Z&aggregation=SUM&granularity=DAY"
        ))
        .await;
    assert_eq!(
        a.json["metrics"]["DATATRAFFIC_UP"]["values"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    assert_eq!(a.json["metrics"]["DATATRAFFIC_DOWN"]["unit"], "B");
    assert_eq!(a.json["_metadata"]["aggregation"], "SUM");
    let a = t.get("/cloud/v2/privateClouds").await;
    assert_eq!(a.json["privateClouds"][0]["serviceOffering"], "FLAT_FEE");

    // ---- CDN (12)
    let a = t
        .cdn(
            Method::POST,
            &format!("/content/purge/{c}/1001"),
            Some((
                "application/json",
                json!({"urls": ["/a.css", "/b.js"]}).to_string(),
            )),
        )
        .await;
    let job = a.json["success"].as_u64().expect("job id");
    let a = t
        .cdn(Method::GET, &format!("/content/purge/{c}/1001/{job}"), None)
        .await;
    assert_eq!(a.json["success"].as_array().unwrap().len(), 2);
    let a = t
        .cdn(Method::GET, &format!("/customers/{c}/20/0"), None)
        .await;
    assert_eq!(a.json["success"]["customer_number"], c.as_str());
    assert!(a.json["success"]["created_at"].is_i64());
    let a = t
        .cdn(Method::GET, &format!("/customers/reseller/{c}/{c}"), None)
        .await;
    assert_eq!(
        a.json["success"][&c]["1"]["customer_number"],
        format!("{c}02")
    );
    let sub = format!("{c}77");
    let a = t
        .cdn_form(
            Method::POST,
            &format!("/customers/reseller/{c}/{sub}"),
            &[("active", "1"), ("ftp_quota", "2048")],
        )
        .await;
    assert_eq!(a.json["success"][&c]["0"]["ftp_quota"], 2048);
    let a = t
        .cdn(Method::GET, &format!("/customers/acl/{c}"), None)
        .await;
    assert_eq!(a.json["success"][&c]["content"]["GET"], true);
    let acl = json!({"content": {"GET": true}, "stats": {"GET": 1}}).to_string();
    let a = t
        .cdn_form(
            Method::POST,
            &format!("/customers/acl/{c}"),
            &[("acl", &acl)],
        )
        .await;
    assert_eq!(a.json["success"][&c]["stats"]["GET"], true);
    assert_eq!(a.json["success"][&c]["content"]["POST"], false);
    let a = t
        .cdn(Method::DELETE, &format!("/customers/acl/{c}"), None)
        .await;
    assert_eq!(a.json["success"][&c]["content"]["GET"], false);
    let a = t.cdn(Method::GET, &format!("/origins/{c}"), None).await;
    assert_eq!(a.json["succes"].as_array().unwrap().len(), 4);
    let a = t
        .cdn_form(
            Method::POST,
            &format!("/origins/{c}"),
            &[
                ("label", "img"),
                ("origin", "https://img.example.com"),
                ("refresh_every", "600"),
                ("ignore_cache_refresh", "1"),
            ],
        )
        .await;
    let oid = a.json["succes"]["id"].as_u64().expect("origin id");
    assert_eq!(a.json["succes"]["ignore_cache_control"], 1);
    let a = t
        .cdn(Method::GET, &format!("/origins/{c}/{oid}"), None)
        .await;
    // Under `succes` or `success`, per origin and seed.
    let body = a.json.get("succes").or(a.json.get("success")).unwrap();
    assert_eq!(body["label"], "img", "{}", a.json);
    let a = t
        .cdn_form(
            Method::PUT,
            &format!("/origins/{c}/{oid}"),
            &[("label", "images")],
        )
        .await;
    assert_eq!(a.json, json!({"success": ""}));

    // 57 + 11 + 12 distinct operations ran.
    let stats = t.sim.stats();
    assert_eq!(stats.operations.len(), 80, "{:#?}", stats.operations.keys());
    assert_eq!(
        stats
            .operations
            .keys()
            .filter(|k| k.contains(" /v1/"))
            .count(),
        57
    );
    assert_eq!(
        stats
            .operations
            .keys()
            .filter(|k| k.contains(" /cloud/v2/"))
            .count(),
        11
    );
}

#[tokio::test]
async fn aliases_map_to_the_documented_operations() {
    let t = fast().await;
    let c = t.customer();
    let a = t.post("/v1/bareMetals/20006/reboot", &[]).await;
    assert_eq!(a.status, 202);
    let a = t
        .post("/v1/bareMetals/20006/rescue", &[("osId", "122")])
        .await;
    assert_eq!(a.status, 200, "{}", a.json);
    let sub = format!("{c}55");
    let a = t
        .cdn_form(
            Method::POST,
            &format!("/customers/{c}/{sub}"),
            &[("active", "0")],
        )
        .await;
    assert_eq!(a.json["success"][&c]["0"]["active"], 0, "{}", a.json);
    let a = t
        .cdn(Method::GET, &format!("/customers/reseller/{c}/{sub}"), None)
        .await;
    assert_eq!(a.json["success"][&c]["0"]["customer_number"], sub.as_str());
    let ops = t.sim.stats().operations;
    assert_eq!(ops["POST /v1/bareMetals/{bareMetalId}/powerCycle"], 1);
    assert_eq!(ops["POST /v1/bareMetals/{bareMetalId}/rescueMode"], 1);
    assert_eq!(
        ops["POST /customers/reseller/{customer_number}/{sub_customer_number}"],
        1
    );
}

#[tokio::test]
async fn authentication() {
    let t = fast().await;
    // v1: missing key → 401, wrong key → 403, with a string errorCode.
    let r = t.http.get(t.url("/v1/domains")).send().await.unwrap();
    let a = common::read(r).await;
    assert_eq!(a.status, 401);
    assert_eq!(a.json["errorCode"], "401");
    for key in [
        "errorMessage",
        "userMessage",
        "correlationId",
        "errorDetails",
    ] {
        assert!(a.json.get(key).is_some(), "{key}");
    }
    let r = t
        .http
        .get(t.url("/v1/bareMetals"))
        .header("X-Svc-Auth", "nope")
        .send()
        .await
        .unwrap();
    let a = common::read(r).await;
    assert_eq!((a.status, a.json["errorCode"].clone()), (403, json!(403)));
    // Header names are case-insensitive.
    let r = t
        .http
        .get(t.url("/v1/domains"))
        .header("x-svc-auth", t.sim.api_key())
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    // Cloud: integer errorCode, errorDetails an array.
    let r = t.http.get(t.url(CLOUD)).send().await.unwrap();
    let a = common::read(r).await;
    assert_eq!(a.status, 401);
    assert_eq!(a.json["errorCode"], 401);
    assert!(a.json["errorDetails"].is_array());

    // CDN: good signature works; bad, stale, missing → 403; other customer → 403.
    let c = t.customer();
    let res = format!("/origins/{c}");
    let ok = t.http.get(t.sim.cdn_url(&res)).send().await.unwrap();
    assert_eq!(ok.status(), 200);
    let now = chrono::Utc::now().timestamp();
    let secret = t.sim.cdn_secret().to_string();
    let url = |ts: i64, sig: &str| format!("{}{res}/{ts}/{sig}", t.sim.cdn_base_url());
    let good = hostapi_sim::sign_cdn_path(&secret, now, &res);
    let bad = hostapi_sim::sign_cdn_path("wrong-secret", now, &res);
    let stale_ts = now - 301;
    let stale = hostapi_sim::sign_cdn_path(&secret, stale_ts, &res);
    let future_ts = now + 400;
    let future = hostapi_sim::sign_cdn_path(&secret, future_ts, &res);
    assert_eq!(
        t.http.get(url(now, &good)).send().await.unwrap().status(),
        200
    );
    assert_eq!(
        t.http.get(url(now, &bad)).send().await.unwrap().status(),
        403
    );
    assert_eq!(
        t.http
            .get(url(stale_ts, &stale))
            .send()
            .await
            .unwrap()
            .status(),
        403
    );
    assert_eq!(
        t.http
            .get(url(future_ts, &future))
            .send()
            .await
            .unwrap()
            .status(),
        403
    );
    assert_eq!(
        t.http
            .get(url(now, &good.to_uppercase()))
            .send()
            .await
            .unwrap()
            .status(),
        403
    );
    let r = t
        .http
        .get(format!("{}{res}", t.sim.cdn_base_url()))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 403);
    // Signed over a different path (the base's /cdn included) → 403.
    let wrong_path = hostapi_sim::sign_cdn_path(&secret, now, &format!("/cdn{res}"));
    assert_eq!(
        t.http
            .get(url(now, &wrong_path))
            .send()
            .await
            .unwrap()
            .status(),
        403
    );
    let r = t
        .http
        .get(t.sim.cdn_url("/origins/999999"))
        .send()
        .await
        .unwrap();
    let a = common::read(r).await;
    assert_eq!(a.status, 403);
    assert_eq!(a.json["errorCode"], "403");
    // A CDN call needs no X-Svc-Auth, and a v1 call is not accepted with a CDN signature.
    let r = t
        .http
        .get(t.url("/v1/domains/123/1/abc"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 401);
}

#[tokio::test]
async fn unknown_ids_are_404() {
    let t = fast().await;
    let c = t.customer();
    for p in [
        "/v1/virtualServers/99",
        "/v1/virtualServers/100021",
        "/v1/domains/nosuch.example",
        "/v1/domains/acme-2.com",
        "/v1/domains/acme-1.com/dnsRecords/5",
        "/v1/bareMetals/20021",
        "/v1/bareMetals/abc",
        "/v1/bareMetals/20001/ips/85.17.0.99",
        "/v1/bareMetals/20002/leases/00:00:00:00:00:00",
        "/v1/privateRacks/7011",
        "/v1/operatingSystems/1",
        "/v1/operatingSystems/176/controlPanels/1",
        "/v1/privateNetworks/9999",
        "/cloud/v2/virtualServers/00000000-0000-4000-a000-000000000000",
        "/v1/nothing",
    ] {
        let a = t.get(p).await;
        assert_eq!(a.status, 404, "{p}: {}", a.json);
        assert!(a.json["errorMessage"].is_string(), "{p}");
    }
    let id = first_cloud_id(&t).await;
    let a = t
        .get(&format!("{CLOUD}/{id}/credentials/CONTROL_PANEL/nobody"))
        .await;
    assert_eq!(a.status, 404);
    for res in [
        format!("/content/purge/{c}/1001/424242"),
        format!("/content/purge/{c}/9/5001"),
        format!("/origins/{c}/4242"),
    ] {
        let a = t.cdn(Method::GET, &res, None).await;
        assert_eq!(a.status, 404, "{res}");
        assert_eq!(a.json["errorCode"], "404");
    }
    let a = t
        .cdn(Method::GET, &format!("/customers/reseller/{c}/999"), None)
        .await;
    assert_eq!(a.status, 404);
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

#[tokio::test]
async fn writes_are_read_back() {
    let t = fast().await;
    let c = t.customer();
    // TTL.
    t.put("/v1/domains/bluebird-2.net", &[("ttl", "600")]).await;
    assert_eq!(
        int(&t.get("/v1/domains/bluebird-2.net").await.json["domain"]["ttl"]),
        Some(600)
    );
    let list = t.get("/v1/domains").await.json;
    assert_eq!(int(&list["domains"][1]["domain"]["ttl"]), Some(600));
    // DNS create / update (sample field names) / delete.
    let d = "/v1/domains/bluebird-2.net/dnsRecords";
    let a = t
        .post(
            d,
            &[
                ("host", "bluebird-2.net"),
                ("type", "MX"),
                ("content", "mx2.bluebird-2.net"),
                ("priority", "20"),
            ],
        )
        .await;
    let rid = a.json["dnsRecord"]["id"].as_u64().unwrap();
    let rid_s = rid.to_string();
    assert_eq!(a.json["dnsRecord"]["priority"], 20);
    let a = t
        .put(
            &format!("{d}/{rid}"),
            &[
                ("id", &rid.to_string()),
                ("host", "bluebird-2.net"),
                ("type", "MX"),
                ("content", "mx3.bluebird-2.net"),
                ("priority", "30"),
            ],
        )
        .await;
    assert_eq!(a.status, 200, "{}", a.json);
    let list = t.get(d).await.json;
    let found = list["dnsRecords"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| int(&r["dnsRecord"]["id"]).map(|n| n.to_string()) == Some(rid_s.clone()))
        .unwrap()
        .clone();
    assert_eq!(found["dnsRecord"]["content"], "mx3.bluebird-2.net");
    assert_eq!(found["dnsRecord"]["priority"], 30);
    t.delete(&format!("{d}/{rid}")).await;
    assert_eq!(t.get(&format!("{d}/{rid}")).await.status, 404);
    // A non-editable domain refuses writes.
    assert_eq!(
        t.put("/v1/domains/cobalt-3.org", &[("ttl", "600")])
            .await
            .status,
        403
    );
    // Bare metal reference, IP reverse lookup and null routing (three views agree).
    t.put("/v1/bareMetals/20003", &[("reference", "")]).await;
    assert_eq!(
        t.get("/v1/bareMetals/20003").await.json["bareMetal"]["reference"],
        ""
    );
    let ip = t.get("/v1/bareMetals/20003/ips").await.json["ips"][2]["ip"]["ip"]
        .as_str()
        .unwrap()
        .to_string();
    t.put(
        &format!("/v1/bareMetals/20003/ips/{ip}"),
        &[("reverseLookup", "a.example.com"), ("nullRouted", "1")],
    )
    .await;
    let a = t.get(&format!("/v1/bareMetals/20003/ips/{ip}")).await;
    assert_eq!(
        (
            a.json["ip"]["reverseLookup"].clone(),
            a.json["ip"]["nullRouted"].clone()
        ),
        (json!("a.example.com"), json!(true))
    );
    let a = t
        .put(&format!("/v1/ips/{ip}"), &[("nullRouted", "0")])
        .await;
    assert_eq!(a.json["ip"]["nullRouted"], false);
    assert_eq!(
        t.get(&format!("/v1/bareMetals/20003/ips/{ip}")).await.json["ip"]["nullRouted"],
        false
    );
    // /v1/ips reaches rack and v1 virtual server addresses too.
    let vs = t.get("/v1/virtualServers/100001").await.json;
    let vip = vs["virtualServers"][0]["ipAddresses"][0]["ip"]
        .as_str()
        .unwrap()
        .to_string();
    let a = t
        .put(&format!("/v1/ips/{vip}"), &[("nullRouted", "1")])
        .await;
    assert_eq!(a.json["ip"]["serverType"], "Virtual Server");
    let vs = t.get("/v1/virtualServers/100001").await.json;
    assert_eq!(vs["virtualServers"][0]["ipAddresses"][0]["isNulled"], true);
    // v1 virtual server power: asynchronous, done after V1_POWER_SECS.
    t.post("/v1/virtualServers/100001/powerOff", &[]).await;
    t.sim.advance_clock(hostapi_sim::V1_POWER_SECS).unwrap();
    assert_eq!(
        t.get("/v1/virtualServers/100001").await.json["virtualServers"][0]["state"],
        "Stopped"
    );
    t.post("/v1/virtualServers/100001/powerOn", &[]).await;
    t.sim.advance_clock(hostapi_sim::V1_POWER_SECS).unwrap();
    assert_eq!(
        t.get("/v1/virtualServers/100001").await.json["virtualServers"][0]["state"],
        "Running"
    );
    // Leases: create on a server with none, then delete all.
    assert_eq!(
        unwrap1(&t.get("/v1/bareMetals/20002/leases").await.json)["_metadata"]["totalCount"],
        0
    );
    t.post(
        "/v1/bareMetals/20002/leases",
        &[
            ("bootFileName", "http://pxe.example/b"),
            ("bootServerHostName", "10.1.1.1"),
            ("domainNameServerIp", "10.1.1.2"),
        ],
    )
    .await;
    let l = t.get("/v1/bareMetals/20002/leases").await.json;
    let l = unwrap1(&l);
    assert_eq!(
        l["leases"][0]["options"][0]["value"],
        "http://pxe.example/b"
    );
    let mac = l["leases"][0]["mac"].as_str().unwrap().to_lowercase();
    assert_eq!(
        t.get(&format!("/v1/bareMetals/20002/leases/{mac}"))
            .await
            .status,
        200,
        "MACs compare case-insensitively"
    );
    t.delete("/v1/bareMetals/20002/leases").await;
    assert_eq!(
        unwrap1(&t.get("/v1/bareMetals/20002/leases").await.json)["leases"],
        json!([])
    );
    // Private networks and membership.
    let n = t.post("/v1/privateNetworks", &[("name", "db")]).await.json["id"]
        .as_u64()
        .unwrap();
    assert_eq!(
        t.get("/v1/privateNetworks").await.json["_metadata"]["totalCount"],
        3
    );
    t.post(
        &format!("/v1/privateNetworks/{n}/bareMetals"),
        &[("bareMetalId", "20010")],
    )
    .await;
    assert_eq!(
        t.post(
            &format!("/v1/privateNetworks/{n}/bareMetals"),
            &[("bareMetalId", "20010")]
        )
        .await
        .status,
        409
    );
    t.delete(&format!("/v1/privateNetworks/{n}")).await;
    assert_eq!(t.get(&format!("/v1/privateNetworks/{n}")).await.status, 404);
    // Cloud reference.
    let id = first_cloud_id(&t).await;
    t.put(&format!("{CLOUD}/{id}"), &[("reference", "form-ref")])
        .await;
    assert_eq!(
        t.get(&format!("{CLOUD}/{id}")).await.json["reference"],
        "form-ref"
    );
    assert_eq!(
        t.get(&format!("{CLOUD}?limit=1")).await.json["virtualServers"][0]["reference"],
        "form-ref"
    );
    // Cloud reinstall changes the OS password.
    let before = os_password(&t, &id).await;
    t.post(&format!("{CLOUD}/{id}/reinstall"), &[]).await;
    assert_ne!(os_password(&t, &id).await, before);
    // CDN: sub-customer update, origin update.
    let sub = format!("{c}01");
    t.cdn_form(
        Method::POST,
        &format!("/customers/reseller/{c}/{sub}"),
        &[("ftp_quota", "99")],
    )
    .await;
    let a = t
        .cdn(Method::GET, &format!("/customers/reseller/{c}/{sub}"), None)
        .await;
    assert_eq!(a.json["success"][&c]["0"]["ftp_quota"], 99);
    t.cdn_form(
        Method::PUT,
        &format!("/origins/{c}/101"),
        &[("ignore_cache_control", "1"), ("label", "www2")],
    )
    .await;
    let a = t.cdn(Method::GET, &format!("/origins/{c}/101"), None).await;
    assert_eq!(a.json["success"]["label"], "www2", "{}", a.json);
    assert_eq!(a.json["success"]["ignore_cache_control"], 1);
    // The write log names each write once.
    let log = t.sim.write_log();
    assert!(log.windows(2).all(|w| w[1].seq == w[0].seq + 1));
    assert_eq!(
        log.iter()
            .filter(|w| w.operation == "PUT /v1/domains/{domainname}")
            .count(),
        1
    );
    let snap = t.sim.snapshot();
    assert_eq!(snap["v1"]["domains"]["bluebird-2.net"]["ttl"], 600);
    assert_eq!(
        snap["cloud"]["virtualServers"][&id]["reference"],
        "form-ref"
    );
    assert_eq!(snap["cdn"]["subCustomers"][&sub]["ftp_quota"], 99);
}

async fn os_password(t: &T, id: &str) -> Value {
    let p = format!("{CLOUD}/{id}/credentials/OPERATING_SYSTEM/root");
    t.get(&p).await.json["password"].clone()
}

#[tokio::test]
async fn pagination() {
    let t = fast().await;
    let a = t.get(&format!("{CLOUD}?limit=5&offset=3")).await;
    assert_eq!(a.json["virtualServers"].as_array().unwrap().len(), 5);
    assert_eq!(
        a.json["_metadata"],
        json!({"totalCount": 40, "limit": 5, "offset": 3})
    );
    let all = t.get(&format!("{CLOUD}?limit=40")).await.json;
    assert_eq!(a.json["virtualServers"][0], all["virtualServers"][3]);
    let a = t.get(CLOUD).await;
    assert_eq!(a.json["virtualServers"].as_array().unwrap().len(), 10);
    let a = t.get(&format!("{CLOUD}?limit=100000")).await;
    assert_eq!(a.json["_metadata"]["limit"], 500);
    assert_eq!(a.json["virtualServers"].as_array().unwrap().len(), 40);
    let a = t.get(&format!("{CLOUD}?offset=40")).await;
    assert_eq!(a.json["virtualServers"], json!([]));
    assert_eq!(t.get(&format!("{CLOUD}?limit=0")).await.status, 400);
    let a = t.get("/cloud/v2/privateClouds?limit=3&offset=8").await;
    assert_eq!(a.json["privateClouds"].as_array().unwrap().len(), 2);
    assert_eq!(
        a.json["_metadata"],
        json!({"totalCount": 10, "limit": 3, "offset": 8})
    );
    // Credentials: server index 0 has root and admin.
    let id = first_cloud_id(&t).await;
    let a = t
        .get(&format!(
            "{CLOUD}/{id}/credentials/OPERATING_SYSTEM?limit=1&offset=1"
        ))
        .await;
    assert_eq!(
        a.json["credentials"],
        json!([{"type": "OPERATING_SYSTEM", "username": "admin"}])
    );
    assert_eq!(a.json["_metadata"]["totalCount"], 2);
    // v1 lists with _metadata.
    let a = t.get("/v1/privateNetworks?limit=1&offset=1").await;
    assert_eq!(a.json["privateNetworks"][0]["id"], 502);
    assert_eq!(
        a.json["_metadata"],
        json!({"totalCount": 2, "limit": 1, "offset": 1})
    );
    let a = t.get("/v1/bareMetals/20001/leases?limit=0").await;
    assert_eq!(a.status, 400);
}

#[tokio::test]
async fn dataset_quirks_are_present() {
    let t = fast().await;
    // The spellings (which alternative each record is sent in) are the
    // chooser's, per seed: tests/variants.rs sees them all. Here: the facts.
    // v1 virtual servers.
    let vs = t.get("/v1/virtualServers").await.json["virtualServers"]
        .as_array()
        .unwrap()
        .clone();
    let created = vs[0]["administrativeInfo"]["createdAt"].as_str().unwrap();
    assert!(
        chrono::NaiveDateTime::parse_from_str(created, "%Y-%m-%dT%H:%M:%S").is_ok(),
        "{created}"
    );
    let macs: Vec<&str> = vs
        .iter()
        .map(|v| v["macAddress"].as_str().unwrap())
        .collect();
    assert!(
        macs.iter()
            .any(|m| m.chars().any(|c| c.is_ascii_lowercase()))
    );
    assert!(
        macs.iter()
            .any(|m| m.chars().any(|c| c.is_ascii_uppercase()))
    );
    assert!(
        vs.iter().any(|v| v["attachedISO"].is_string())
            && vs.iter().any(|v| v["attachedISO"].is_null())
    );
    // Domains.
    let ds = t.get("/v1/domains").await.json["domains"]
        .as_array()
        .unwrap()
        .clone();
    let d = |i: usize| ds[i]["domain"].clone();
    // Terms 1, 1, 2, 2 years and editable, editable, not, not by i % 4.
    let term =
        |v: &Value| int(v).or_else(|| v.as_str().and_then(|s| int(&json!(s.split(' ').next()))));
    let editable = |v: &Value| v == &json!(true) || v == &json!("true");
    for (i, years, edit) in [(0, 1, true), (1, 1, true), (2, 2, false), (3, 2, false)] {
        assert_eq!(term(&d(i)["contractTerm"]), Some(years), "{}", d(i));
        assert_eq!(editable(&d(i)["isEditable"]), edit, "{}", d(i));
    }
    assert_eq!(d(12)["code"], 1001);
    let sd = d(0)["startDate"].as_str().unwrap().to_string();
    assert!(
        chrono::NaiveDate::parse_from_str(&sd, "%b %-d, %Y").is_ok(),
        "{sd}"
    );
    // DNS: string ids in the list, integer in the single view; priority only on MX/SRV; CAA/NS.
    let recs = t.get("/v1/domains/driftwood-4.eu/dnsRecords").await.json["dnsRecords"]
        .as_array()
        .unwrap()
        .clone();
    let types: Vec<&str> = recs
        .iter()
        .map(|r| r["dnsRecord"]["type"].as_str().unwrap())
        .collect();
    assert!(
        types.contains(&"CAA") && types.contains(&"NS") && types.contains(&"SRV"),
        "{types:?}"
    );
    for r in &recs {
        let has = r["dnsRecord"].get("priority").is_some();
        assert_eq!(
            has,
            matches!(r["dnsRecord"]["type"].as_str(), Some("MX" | "SRV")),
            "{r}"
        );
    }
    // Bare metal.
    let b0 = t.get("/v1/bareMetals/20001").await.json["bareMetal"].clone();
    let b1 = t.get("/v1/bareMetals/20002").await.json["bareMetal"].clone();
    let b3 = t.get("/v1/bareMetals/20004").await.json["bareMetal"].clone();
    assert_eq!(int(&b1["bareMetalId"]), Some(20002));
    assert_eq!(int(&b0["serverHostingPack"]["bareMetalId"]), Some(20001));
    assert_eq!(
        (b0["server"]["kvm"].clone(), b1["server"]["kvm"].clone()),
        (json!("Yes"), json!("No"))
    );
    assert!(matches!(
        b0["server"]["hardwareRaid"].as_str(),
        Some("Yes" | "No")
    ));
    assert!(b1["server"]["hardDisks"].as_str().unwrap().contains(", "));
    assert_eq!(b1["server"]["hardDiskList"].as_array().unwrap().len(), 2);
    assert!(b0["network"]["macAddresses"]["mac"].is_array());
    assert!(b3["server"]["hardDisks"].is_string());
    let s0 = t.get("/v1/bareMetals/20001/installationStatus").await.json;
    assert_eq!(int(&s0["installationStatus"]["serverPackId"]), Some(20001));
    let u = t
        .get("/v1/bareMetals/20002/networkUsage?dateFrom=01-01-2024&dateTo=15-01-2024")
        .await
        .json;
    assert!(u.get("dataTraffic").is_some() && u.get("datatraffic").is_none());
    assert_eq!(
        u["bandwidth"]["measurement"]["node"]
            .as_object()
            .unwrap()
            .len(),
        2
    );
    let own = t
        .get("/v1/bareMetals/20002/networkUsage/datatraffic?dateFrom=01-01-2024&dateTo=15-01-2024")
        .await
        .json;
    assert_eq!(own["datatraffic"], u["dataTraffic"]);
    assert_eq!(u["dataTraffic"]["interval"]["from"], "01-01-2024");
    // Leases: policyName null on some options.
    let l = t.get("/v1/bareMetals/20003/leases").await.json;
    let l = unwrap1(&l);
    assert!(l["leases"].is_array());
    assert!(
        l["leases"][0]["options"]
            .as_array()
            .unwrap()
            .iter()
            .any(|o| o["policyName"].is_null())
    );
    // Private networks: +hhmm dates, detail as an array.
    let n = t.get("/v1/privateNetworks").await.json;
    let created = n["privateNetworks"][0]["createdAt"].as_str().unwrap();
    assert!(
        chrono::DateTime::parse_from_str(created, "%Y-%m-%dT%H:%M:%S%z").is_ok()
            && !created.contains("+01:00"),
        "{created}"
    );
    assert!(t.get("/v1/privateNetworks/501").await.json.is_array());
    assert_eq!(
        t.get("/v1/privateNetworks/501").await.json[0]["bareMetals"][0]["status"],
        "CONFIGURED"
    );
    // Cloud.
    let cs = t.get(&format!("{CLOUD}?limit=40")).await.json["virtualServers"]
        .as_array()
        .unwrap()
        .clone();
    assert!(cs[0]["iso"].is_null() && cs[1]["iso"].is_object());
    assert!(cs[4]["contract"]["endsAt"].is_null());
    assert_eq!(cs[22]["state"], "UNKNOWN");
    assert_eq!(cs[28]["state"], "MAINTENANCE");
    assert_eq!(cs[30]["firewallState"], "UNKNOWN");
    let units: Vec<&str> = cs
        .iter()
        .flat_map(|c| {
            [
                c["hardware"]["memory"]["unit"].as_str().unwrap(),
                c["hardware"]["storage"]["unit"].as_str().unwrap(),
            ]
        })
        .collect();
    for u in ["MB", "GB", "TB"] {
        assert!(units.contains(&u), "{u}");
    }
    let starts = cs[0]["contract"]["startsAt"].as_str().unwrap();
    assert!(
        chrono::DateTime::parse_from_str(starts, "%Y-%m-%dT%H:%M:%S%z").is_ok(),
        "{starts}"
    );
    let id = cs[0]["id"].as_str().unwrap();
    let m = t.get(&format!("{CLOUD}/{id}/metrics/datatraffic?from=2024-01-01T00:00:00Z&to=2024-01-01T03:00:00Z&aggregation=SUM&granularity=HOUR")).await.json;
    let ts = m["metrics"]["DATATRAFFIC_UP"]["values"][0]["timestamp"]
        .as_str()
        .unwrap();
    assert!(chrono::DateTime::parse_from_rfc3339(ts).is_ok(), "{ts}");
    // CDN.
    let c = t.customer();
    let cust = t
        .cdn(Method::GET, &format!("/customers/{c}/20/0"), None)
        .await
        .json;
    assert!(cust["success"]["active"].is_i64() && cust["success"]["reseller"].is_i64());
    let o102 = t
        .cdn(Method::GET, &format!("/origins/{c}/102"), None)
        .await
        .json;
    let o102 = o102.get("succes").or(o102.get("success")).unwrap();
    assert!(o102["ignore_cache_control"].is_i64());
    let subs = t
        .cdn(Method::GET, &format!("/customers/reseller/{c}/{c}"), None)
        .await
        .json;
    let inner = subs["success"][&c].as_object().unwrap();
    assert_eq!(
        inner.keys().cloned().collect::<Vec<_>>(),
        vec!["0", "1", "2"]
    );
}

#[tokio::test]
async fn png_answers() {
    let t = fast().await;
    for which in ["bandwidth", "datatraffic"] {
        let a = t
            .call_h(
                Method::GET,
                &format!("/v1/bareMetals/20001/networkUsage/{which}"),
                None,
                &[("Accept", "image/png")],
            )
            .await;
        assert_eq!(a.status, 200);
        assert_eq!(a.headers["content-type"], "image/png");
        assert!(a.bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "{which}");
        assert!(a.bytes.len() > 100);
        let a = t
            .call_h(
                Method::GET,
                &format!("/v1/bareMetals/20001/networkUsage/{which}"),
                None,
                &[("Accept", "application/json")],
            )
            .await;
        assert_eq!(a.headers["content-type"], "application/json");
        assert!(a.json.is_object());
    }
}
