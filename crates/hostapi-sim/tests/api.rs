//! Every operation and its documented shape, aliases, authentication and
//! unknown ids.

mod common;

use common::{T, fast, int, unwrap1};
use reqwest::Method;
use serde_json::json;

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
