//! `--columns`, `--sort` and `--filter` name fields as the JSON does; a name the
//! command's records do not have is a usage error (exit 2) that lists the valid ones,
//! and prints nothing.

mod common;

use common::sandbox;

#[test]
fn an_unknown_field_is_refused_with_the_valid_ones() {
    for flags in [
        &["--sort", "nosuch"][..],
        &["--sort=-nosuch"],
        &["--filter", "nosuch=x"],
        &["--columns", "id,nosuch"],
        &["--columns", "ips.ip"],
    ] {
        let run = sandbox(&[&["vps", "list"][..], flags].concat()).code(2);
        assert!(run.stdout.is_empty(), "{flags:?}: {}", run.stdout);
        let flag = flags[0].split('=').next().unwrap_or_default();
        assert!(
            run.stderr.contains(&format!("error: {flag}: `")),
            "{flags:?}: {}",
            run.stderr
        );
        assert!(
            run.stderr.contains("is not a field of these records"),
            "{}",
            run.stderr
        );
        assert!(
            run.stderr.contains(
                "hint: the fields: administrative, attached_iso, data_traffic_limit, \
                 data_traffic_pack, extra, id, ips, mac_address, name, platform, \
                 reference, sla, state, template; nested: "
            ),
            "{}",
            run.stderr
        );
        assert!(run.stderr.contains("ips[].ip"), "{}", run.stderr);
    }
}

#[test]
fn known_fields_nested_paths_and_extra_names_pass() {
    for flags in [
        &["--sort", "name"][..],
        &["--sort=-sla.name"],
        &["--filter", "ips[].ip=37.48.*"],
        &["--columns", "id,sla.name,ips[].ip,extra.anything"],
    ] {
        sandbox(&[&["vps", "list", "-o", "json"][..], flags].concat()).ok();
    }
}

#[test]
fn every_kind_of_record_is_checked() {
    let cases: [&[&str]; 6] = [
        // One record of the SDK.
        &["vps", "get", "100001", "--columns", "nosuch"],
        // Records kept as the service sent them.
        &["catalog", "services", "list", "--sort", "nosuch"],
        // Records the CLI puts together.
        &["find", "85.17.0.10", "--columns", "kind,nosuch"],
        &["whoami", "--columns", "nosuch"],
        &["bare-metal", "list", "--details", "--filter", "nosuch=1"],
        // What a write did.
        &[
            "bare-metal",
            "power",
            "cycle",
            "20001",
            "--yes",
            "--columns",
            "nosuch",
        ],
    ];
    for args in cases {
        let run = sandbox(args).code(2);
        assert!(
            run.stderr.contains("`nosuch` is not a field"),
            "{args:?}: {}",
            run.stderr
        );
    }
    let run = sandbox(&["find", "85.17.0.10", "--columns", "kind,nosuch"]).code(2);
    assert!(
        run.stderr
            .contains("hint: the fields: field, id, kind, name, value"),
        "{}",
        run.stderr
    );
    sandbox(&["vps", "get", "100001", "--columns", "id,sla.name,extra.x"]).ok();
    sandbox(&["find", "85.17.0.10", "--columns", "kind,id"]).ok();
}
