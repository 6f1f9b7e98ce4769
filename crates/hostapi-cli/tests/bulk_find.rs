//! Bulk reads and search through the built binary: `get` with several ids (bare
//! metal, vps, cloud, racks) in the order given, with the ids that cannot be read
//! reported each; `list --details` filling the site and IP columns; a progress bar
//! on a terminal only; `find` across bare metal, vps, cloud and domains.

mod common;

use common::{TempDir, sandbox};
use serde_json::Value;

const CLOUD_A: &str = "c90e8a9c-09ba-46e2-ae8a-0c71c86fa728";
const CLOUD_B: &str = "be38016d-e266-4420-a801-0c71c86fa729";

fn ids(value: &Value) -> Vec<&str> {
    value
        .as_array()
        .unwrap_or_else(|| panic!("not a list: {value}"))
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect()
}

#[test]
fn get_reads_several_ids_in_the_order_given() {
    let run = sandbox(&["bare-metal", "get", "20003", "20001", "20002", "-o", "json"]).ok();
    let servers = run.json();
    assert_eq!(ids(&servers), ["20003", "20001", "20002"]);
    // In detail, as `get` shows one.
    assert!(
        servers
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["location"]["site"].is_string())
    );
    let run = sandbox(&["vps", "get", "100002", "100001", "-o", "json"]).ok();
    assert_eq!(ids(&run.json()), ["100002", "100001"]);
    let run = sandbox(&["cloud", "get", CLOUD_B, CLOUD_A, "-o", "json"]).ok();
    assert_eq!(ids(&run.json()), [CLOUD_B, CLOUD_A]);
    let run = sandbox(&["racks", "get", "7002", "7001", "-o", "json"]).ok();
    assert_eq!(ids(&run.json()), ["7002", "7001"]);
    // One id prints one record, as before.
    let one = sandbox(&["bare-metal", "get", "20001", "-o", "json"])
        .ok()
        .json();
    assert_eq!(one["id"], "20001");
    // A table of several, one row each.
    let table = sandbox(&["bare-metal", "get", "20001", "20002", "-o", "table"]).ok();
    assert!(
        table.stdout.contains("SITE") && table.stdout.contains("AMS-01"),
        "{table:?}"
    );
    assert_eq!(table.stdout.lines().count(), 3, "{table:?}");
    // Every id is checked locally before anything is sent.
    sandbox(&["bare-metal", "get", "20001", "abc"]).code(2);
}

#[test]
fn ids_that_cannot_be_read_are_reported_and_the_others_printed() {
    let run = sandbox(&["bare-metal", "get", "20001", "99999", "20002", "-o", "json"]).code(4);
    assert_eq!(ids(&run.json()), ["20001", "20002"]);
    assert!(run.stderr.contains("bare metal server 99999"), "{run:?}");
    assert!(run.stderr.contains("1 of 3 could not be read"), "{run:?}");
    // Nothing printed on stderr but the failures: no progress bar off a terminal.
    assert_eq!(
        run.stderr
            .lines()
            .filter(|l| l.starts_with("error:"))
            .count(),
        2,
        "{run:?}"
    );
    assert!(!run.stderr.contains("reading"), "{run:?}");
    // A single id that is not there fails as before.
    sandbox(&["vps", "get", "999999"]).code(4);
}

#[test]
fn list_details_fills_site_and_ips() {
    let run = sandbox(&["bare-metal", "list", "--details", "-o", "json"]).ok();
    let servers = run.json();
    let plain = sandbox(&["bare-metal", "list", "-o", "json"]).ok().json();
    assert_eq!(ids(&servers), ids(&plain));
    let first = &servers[0];
    assert_eq!(first["id"], "20001");
    assert_eq!(first["location"]["site"], "AMS-01");
    assert_eq!(first["ips"][0]["ip"], "85.17.0.10");
    // The detail columns, shaped by JSON names like every list.
    let table = sandbox(&[
        "bare-metal",
        "list",
        "--details",
        "--filter",
        "location.site=AMS-01",
        "-o",
        "table",
    ])
    .ok();
    let header = table.stdout.lines().next().unwrap_or_default();
    assert!(
        header.contains("SITE") && header.contains("IPS"),
        "{table:?}"
    );
    assert!(table.stdout.contains("85.17.0.10"), "{table:?}");
    assert!(
        table.stdout.lines().skip(1).all(|l| l.contains("AMS-01")),
        "{table:?}"
    );
    let racks = sandbox(&["racks", "list", "--details", "-o", "json"])
        .ok()
        .json();
    assert!(
        racks
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["location"]["site"].is_string())
    );
}

#[test]
fn a_progress_bar_shows_on_a_terminal() {
    if std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("skipped: no `script` to give the binary a terminal");
        return;
    }
    let home = TempDir::new("bar");
    let ids: Vec<String> = (20001..=20020).map(|id| id.to_string()).collect();
    let line = format!(
        "{} --sandbox -o json bare-metal get {}",
        common::BIN,
        ids.join(" ")
    );
    let out = std::process::Command::new("script")
        .args(["-qec", &line, "/dev/null"])
        .env("HOME", home.path())
        .stdin(std::process::Stdio::null())
        .output()
        .expect("script runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("reading bare metal servers"), "{text}");
    assert!(text.contains("/20"), "{text}");
}

/// (kind, id, field) of each hit of `find TEXT`.
fn find(text: &str) -> Vec<(String, String, String)> {
    let run = sandbox(&["find", text, "-o", "json"]).ok();
    run.json()
        .as_array()
        .unwrap()
        .iter()
        .map(|hit| {
            (
                hit["kind"].as_str().unwrap().to_owned(),
                hit["id"].as_str().unwrap().to_owned(),
                hit["field"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn hit(kind: &str, id: &str, field: &str) -> (String, String, String) {
    (kind.to_owned(), id.to_owned(), field.to_owned())
}

#[test]
fn find_looks_across_bare_metal_vps_cloud_and_domains() {
    // A bare metal IP (not in the list: read in detail), a vps IP, a cloud IP.
    assert_eq!(find("85.17.0.10"), [hit("bare_metal", "20001", "ips[].ip")]);
    assert_eq!(find("37.48.0.12"), [hit("vps", "100002", "ips[].ip")]);
    assert_eq!(find("5.79.0.11"), [hit("cloud", CLOUD_B, "ips[].ip")]);
    // IPv6 in another spelling; a MAC address with dashes, upper case.
    assert_eq!(
        find("2a00:c98:2050:b000:1:0:0:10"),
        [hit("vps", "100002", "ips[].ip")]
    );
    assert_eq!(
        find("AC-1F-6B-03-88-8C"),
        [hit("bare_metal", "20001", "network.mac_addresses[]")]
    );
    assert_eq!(
        find("ac:1f:6b:2c:40:91"),
        [hit("vps", "100002", "mac_address")]
    );
    // A reference, a name, a domain, a cloud id.
    assert_eq!(find("k8s-1"), [hit("bare_metal", "20001", "reference")]);
    assert_eq!(find("LSPG20001"), [hit("bare_metal", "20001", "name")]);
    assert_eq!(find("acme-1.com"), [hit("domain", "acme-1.com", "name")]);
    assert_eq!(find(CLOUD_A), [hit("cloud", CLOUD_A, "id")]);
    // A glob finds several kinds.
    let web = find("web-*");
    assert!(
        web.iter().any(|h| h.0 == "bare_metal") && web.iter().any(|h| h.0 == "vps"),
        "{web:?}"
    );
    assert!(web.iter().all(|h| h.2 == "reference"), "{web:?}");

    // For people, where it was found.
    let table = sandbox(&["find", "85.17.0.10", "-o", "table"]).ok();
    assert!(
        table.stdout.contains("bare_metal") && table.stdout.contains("LSPG20001"),
        "{table:?}"
    );
    // Nothing found: exit 4, an empty list for scripts.
    let none = sandbox(&["find", "no-such-thing", "-o", "json"]).code(4);
    assert_eq!(none.json(), Value::Array(Vec::new()));
    assert!(none.stderr.contains("no-such-thing"), "{none:?}");
}
