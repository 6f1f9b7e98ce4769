//! Every documented alternative the simulator varies over (its quirk keys,
//! [`hostapi_sim::quirks`]) is seen **on the wire** at each of three seeds,
//! read from the answers alone; and a record reads the same way twice.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use common::{T, start};
use hostapi_sim::SimConfig;
use reqwest::Method;
use serde_json::{Value, json};

/// Observed `key → alternatives`.
#[derive(Default)]
struct Seen(BTreeMap<&'static str, BTreeSet<String>>);

impl Seen {
    fn add(&mut self, key: &'static str, alt: impl Into<String>) {
        self.0.entry(key).or_default().insert(alt.into());
    }

    /// `number` or `string` for a number field (nothing for other shapes).
    fn number(&mut self, key: &'static str, v: &Value) {
        match v {
            Value::Number(_) => self.add(key, "number"),
            Value::String(s) if s.parse::<f64>().is_ok() => self.add(key, "string"),
            _ => {}
        }
    }

    /// `text`, `null` or `empty` for a reference.
    fn reference(&mut self, key: &'static str, v: &Value) {
        match v {
            Value::Null => self.add(key, "null"),
            Value::String(s) if s.is_empty() => self.add(key, "empty"),
            Value::String(_) => self.add(key, "text"),
            _ => {}
        }
    }

    /// `null`, `empty`, `date` or `absent` for an optional end date.
    fn end_date(&mut self, key: &'static str, parent: &Value, field: &str) {
        match parent.get(field) {
            None => self.add(key, "absent"),
            Some(Value::Null) => self.add(key, "null"),
            Some(Value::String(s)) if s.is_empty() => self.add(key, "empty"),
            Some(Value::String(_)) => self.add(key, "date"),
            Some(_) => {}
        }
    }
}

/// `upper`, `lower` or `mixed` letter case of a MAC address (nothing when it
/// has too few letters to tell).
fn mac_case(mac: &str) -> Option<&'static str> {
    let letters: Vec<char> = mac.chars().filter(char::is_ascii_alphabetic).collect();
    let upper = letters.iter().any(char::is_ascii_uppercase);
    let lower = letters.iter().any(char::is_ascii_lowercase);
    match (upper, lower) {
        (true, true) => Some("mixed"),
        // util::mac's mixed style lowers every other character: one case
        // only over enough letters is a plain style.
        (true, false) if letters.len() >= 4 => Some("upper"),
        (false, true) if letters.len() >= 4 => Some("lower"),
        _ => None,
    }
}

fn array(v: &Value) -> &Vec<Value> {
    v.as_array().unwrap_or_else(|| panic!("not an array: {v}"))
}

async fn observe(t: &T) -> Seen {
    let mut seen = Seen::default();

    // ---- v1 virtual servers
    let vs = t.get("/v1/virtualServers").await.json;
    for v in array(&vs["virtualServers"]) {
        let ips = &v["ipAddresses"];
        let addresses: Vec<String> = match ips {
            Value::Array(a) => {
                seen.add("v1.vs.ipAddresses.shape", "array");
                a.iter()
                    .map(|e| e["ip"].as_str().unwrap().to_string())
                    .collect()
            }
            Value::Object(m) => {
                seen.add("v1.vs.ipAddresses.shape", "object");
                m.keys().cloned().collect()
            }
            other => panic!("ipAddresses {other}"),
        };
        let set = if addresses.is_empty() {
            "none"
        } else if addresses.iter().any(|a| a.contains(':')) {
            "ipv4+ipv6"
        } else {
            "ipv4"
        };
        seen.add("v1.vs.ipAddresses.set", set);
        match v.get("type") {
            None => seen.add("v1.vs.type", "absent"),
            Some(ty) => {
                let key = if ty.get("Id").is_some() { "Id" } else { "id" };
                seen.add("v1.vs.type", key);
                seen.number("v1.vs.type.id", &ty[key]);
            }
        }
        seen.end_date("v1.vs.endDate", &v["administrativeInfo"], "endDate");
        seen.reference("v1.vs.reference", &v["reference"]);
        if let Some(c) = mac_case(v["macAddress"].as_str().unwrap()) {
            seen.add("v1.vs.macAddress.case", c);
        }
        seen.number("v1.vs.dataTrafficLimit", &v["dataTrafficLimit"]);
    }

    // ---- domains and DNS records
    let ds = t.get("/v1/domains").await.json;
    for d in array(&ds["domains"]) {
        let d = &d["domain"];
        let name = d["domain"].as_str().unwrap();
        seen.add(
            "v1.domain.contractTerm",
            if d["contractTerm"].is_string() {
                "string"
            } else {
                "number"
            },
        );
        seen.add(
            "v1.domain.monthlyPrice",
            if d["monthlyPrice"].is_string() {
                "string"
            } else {
                "number"
            },
        );
        seen.add(
            "v1.domain.isEditable",
            if d["isEditable"].is_string() {
                "string"
            } else {
                "boolean"
            },
        );
        seen.number("v1.domain.ttl", &d["ttl"]);
        let recs = t.get(&format!("/v1/domains/{name}/dnsRecords")).await.json;
        for r in array(&recs["dnsRecords"]) {
            let id = &r["dnsRecord"]["id"];
            seen.number("v1.dns.id.list", id);
            let id = id.as_str().map(str::to_string).unwrap_or(id.to_string());
            let one = t.get(&format!("/v1/domains/{name}/dnsRecords/{id}")).await;
            seen.number("v1.dns.id.single", &one.json["dnsRecord"]["id"]);
        }
    }

    // ---- bare metals
    let list = t.get("/v1/bareMetals").await.json;
    for b in array(&list["bareMetals"]) {
        let b = &b["bareMetal"];
        seen.number("v1.bm.list.bareMetalId", &b["bareMetalId"]);
        seen.reference("v1.bm.reference", &b["reference"]);
        let id = b["bareMetalId"].to_string().replace('"', "");
        let d = t.get(&format!("/v1/bareMetals/{id}")).await.json["bareMetal"].clone();
        seen.number("v1.bm.bareMetalId", &d["bareMetalId"]);
        let pack = &d["serverHostingPack"];
        seen.number("v1.bm.serverHostingPack.bareMetalId", &pack["bareMetalId"]);
        seen.end_date("v1.bm.serverHostingPack.endDate", pack, "endDate");
        seen.number("v1.bm.serverHostingPack.serverPrice", &pack["serverPrice"]);
        let net = &d["network"];
        seen.number("v1.bm.network.excessIpsPrice", &net["excessIpsPrice"]);
        seen.number("v1.bm.network.pricePerMonth", &net["pricePerMonth"]);
        seen.number(
            "v1.bm.network.dataPackExcess.value",
            &net["dataPackExcess"]["value"],
        );
        seen.number("v1.bm.network.ipCounts", &net["ipsAssigned"]);
        seen.number("v1.bm.server.cpuCounts", &d["server"]["numberOfCpus"]);
        seen.number(
            "v1.bm.serviceLevelAgreement.pricePerMonth",
            &d["serviceLevelAgreement"]["pricePerMonth"],
        );
        for mac in array(&net["macAddresses"]["mac"]) {
            if let Some(c) = mac_case(mac.as_str().unwrap()) {
                seen.add("v1.bm.macAddresses.case", c);
            }
        }
        let s = t
            .get(&format!("/v1/bareMetals/{id}/installationStatus"))
            .await
            .json["installationStatus"]
            .clone();
        seen.number("v1.bm.installationStatus.serverPackId", &s["serverPackId"]);
        for key in ["serverName", "serverPackName"] {
            if s.get(key).is_some() {
                seen.add("v1.bm.installationStatus.nameKey", key);
            }
        }
        seen.add(
            "v1.bm.installationStatus.code",
            if s["code"] == 1000 { "normal" } else { "error" },
        );
        let pw = t
            .get(&format!("/v1/bareMetals/{id}/rootPassword"))
            .await
            .json;
        for key in ["rootPassword", "rootpassword"] {
            if pw.get(key).is_some() {
                seen.add("v1.bm.rootPassword.key", key);
            }
        }
        // A lease for every server (those without one get one), then the
        // list and a single lease.
        let leases = t.get(&format!("/v1/bareMetals/{id}/leases")).await.json;
        let wrapped = leases.is_array();
        seen.add(
            "v1.bm.leases.wrapping",
            if wrapped { "array" } else { "object" },
        );
        let inner = if wrapped { &leases[0] } else { &leases };
        if array(&inner["leases"]).is_empty() {
            let a = t
                .post(
                    &format!("/v1/bareMetals/{id}/leases"),
                    &[
                        ("bootFileName", "http://boot.example/x.ipxe"),
                        ("bootServerHostName", "10.0.0.5"),
                        ("domainNameServerIp", "10.0.0.53"),
                    ],
                )
                .await;
            assert_eq!(a.status, 204);
        }
        let mac = net["macAddresses"]["mac"][0].as_str().unwrap();
        let one = t.get(&format!("/v1/bareMetals/{id}/leases/{mac}")).await;
        assert_eq!(one.status, 200, "{}", one.json);
        seen.add(
            "v1.bm.lease.wrapping",
            if one.json.is_array() {
                "array"
            } else {
                "object"
            },
        );
        // IPs.
        let ips = t.get(&format!("/v1/bareMetals/{id}/ips")).await.json;
        for ip in array(&ips["ips"]) {
            let ip = &ip["ip"];
            for key in ["mask", "netmask"] {
                if ip["ipDetails"].get(key).is_some() {
                    seen.add("v1.ip.ipDetails.maskKey", key);
                }
            }
            let end = &ip["billingInformation"]["endDate"];
            seen.add(
                "v1.ip.billingInformation.endDate",
                if end.is_null() { "null" } else { "empty" },
            );
        }
    }

    // ---- private racks
    let racks = t.get("/v1/privateRacks").await.json;
    for r in array(&racks["privateRacks"]) {
        let id = &r["privateRack"]["privateRackId"];
        seen.number("v1.rack.list.privateRackId", id);
        let id = id.to_string().replace('"', "");
        let d = t.get(&format!("/v1/privateRacks/{id}")).await.json["privateRack"].clone();
        seen.number("v1.rack.privateRackId", &d["privateRackId"]);
        let pack = &d["serverHostingPack"];
        seen.number(
            "v1.rack.serverHostingPack.privateRackId",
            &pack["privateRackId"],
        );
        seen.end_date("v1.rack.serverHostingPack.endDate", pack, "endDate");
        seen.reference("v1.rack.reference", &pack["reference"]);
        let ips = t.get(&format!("/v1/privateRacks/{id}/ips")).await.json;
        seen.number(
            "v1.rack.ip.privateRackId",
            &ips["ips"][0]["ip"]["privateRackId"],
        );
    }

    // ---- cloud
    let cs = t.get("/cloud/v2/virtualServers?limit=500").await.json;
    for c in array(&cs["virtualServers"]) {
        seen.number(
            "cloud.vs.contract.pricePerFrequency",
            &c["contract"]["pricePerFrequency"],
        );
        match c.get("networkTraffic") {
            None => seen.add("cloud.vs.networkTraffic", "absent"),
            Some(n) => {
                seen.add("cloud.vs.networkTraffic", "present");
                seen.number(
                    "cloud.vs.networkTraffic.datatrafficLimit",
                    &n["datatrafficLimit"],
                );
            }
        }
        seen.add(
            "cloud.vs.ips",
            if array(&c["ips"]).is_empty() {
                "none"
            } else {
                "some"
            },
        );
        seen.reference("cloud.vs.reference", &c["reference"]);
        seen.add(
            "cloud.vs.hardware.memory.unit",
            c["hardware"]["memory"]["unit"].as_str().unwrap(),
        );
    }
    let pcs = t.get("/cloud/v2/privateClouds?limit=500").await.json;
    for p in array(&pcs["privateClouds"]) {
        seen.number(
            "cloud.privateCloud.contract.pricePerFrequency",
            &p["contract"]["pricePerFrequency"],
        );
    }

    // ---- CDN
    let c = t.customer();
    for id in 101..=104 {
        let o = t
            .cdn(Method::GET, &format!("/origins/{c}/{id}"), None)
            .await
            .json;
        for key in ["succes", "success"] {
            if o.get(key).is_some() {
                seen.add("cdn.origin.payloadKey", key);
            }
        }
    }
    // A purge of many files, followed until done: between start and end its
    // entries are mixed (the early ones done, the late ones queued).
    let urls: Vec<String> = (0..16).map(|k| format!("/file-{k}.css")).collect();
    let job = t
        .cdn(
            Method::POST,
            &format!("/content/purge/{c}/1001"),
            Some(("application/json", json!({ "urls": urls }).to_string())),
        )
        .await
        .json["success"]
        .as_u64()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let a = t
            .cdn(Method::GET, &format!("/content/purge/{c}/1001/{job}"), None)
            .await;
        let states: BTreeSet<String> = array(&a.json["success"])
            .iter()
            .flat_map(|e| e.as_object().unwrap().values())
            .map(|s| s.as_str().unwrap().to_string())
            .collect();
        if states.len() == 2 {
            seen.add("cdn.purge.entryPace", "early");
            seen.add("cdn.purge.entryPace", "late");
        }
        if states.len() == 1 && states.contains("Done") {
            break;
        }
        assert!(Instant::now() < deadline, "the purge never finished");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    seen
}

#[tokio::test]
async fn every_alternative_occurs_on_the_wire_at_three_seeds() {
    let expected: BTreeMap<&str, BTreeSet<String>> = hostapi_sim::quirks()
        .map(|(k, alts)| (k, alts.into_iter().map(str::to_string).collect()))
        .collect();
    for seed in [0, 1, 2] {
        // 10 simulated seconds per real second: a purge's mixed phase lasts
        // half a second.
        let t = start(SimConfig::default().with_seed(seed).with_time_scale(10.0)).await;
        let seen = observe(&t).await;
        for (key, alts) in &expected {
            assert_eq!(
                seen.0.get(key),
                Some(alts),
                "seed {seed}: quirk {key} (expected every alternative)"
            );
        }
        let unknown: Vec<&&str> = seen
            .0
            .keys()
            .filter(|k| !expected.contains_key(**k))
            .collect();
        assert!(unknown.is_empty(), "{unknown:?}");
    }
}

#[tokio::test]
async fn a_record_reads_the_same_way_twice() {
    let t = start(SimConfig::default().with_seed(5)).await;
    for path in [
        "/v1/virtualServers",
        "/v1/domains",
        "/v1/bareMetals",
        "/v1/bareMetals/20003",
        "/v1/bareMetals/20003/leases",
        "/v1/bareMetals/20003/installationStatus",
        "/v1/privateRacks/7002",
        "/cloud/v2/virtualServers?limit=40",
        "/cloud/v2/privateClouds",
    ] {
        let first = t.get(path).await.json;
        let second = t.get(path).await.json;
        assert_eq!(first, second, "{path}");
    }
    // Another simulator of the same seed answers alike (no state, no arrival
    // order in the choice).
    let u = start(SimConfig::default().with_seed(5)).await;
    assert_eq!(
        t.get("/v1/bareMetals/20007").await.json,
        u.get("/v1/bareMetals/20007").await.json
    );
}

#[tokio::test]
async fn seeds_differ_in_their_spellings() {
    let a = start(SimConfig::default().with_seed(0)).await;
    let b = start(SimConfig::default().with_seed(1)).await;
    let shape = |v: &Value| -> Vec<bool> {
        array(&v["virtualServers"])
            .iter()
            .map(|s| s["ipAddresses"].is_array())
            .collect()
    };
    assert_ne!(
        shape(&a.get("/v1/virtualServers").await.json),
        shape(&b.get("/v1/virtualServers").await.json)
    );
}
