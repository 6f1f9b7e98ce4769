//! Tables at 60, 80, 120 and 200 columns with long values: a 440-character DKIM TXT
//! record and an 81-character name in a zone, and `vps list`. Long values are
//! shortened with `…` (ids never); columns chosen with `--columns` always show; the
//! command's own columns are left out only when shortening cannot make room.

mod common;

use common::{Run, TempDir, run_in};
use unicode_width::UnicodeWidthStr;

const WIDTHS: [usize; 4] = [60, 80, 120, 200];

/// A DKIM key record of 440 characters, as providers publish them.
fn dkim() -> String {
    let alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut text = String::from("v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA");
    for c in alphabet.chars().cycle() {
        if text.len() == 440 {
            break;
        }
        text.push(c);
    }
    text
}

/// A name of 81 characters in the zone.
const LONG_NAME: &str =
    "build-artifacts-cache-eu-west-1.storage.internal-services.ci-runners-1.acme-1.com";

/// A sandbox whose state (kept in `home`) has the zone's two long records.
struct Zone {
    home: TempDir,
}

impl Zone {
    fn new() -> Self {
        let zone = Self {
            home: TempDir::new("table-fit"),
        };
        let dkim = dkim();
        let txt = [
            "dns",
            "create",
            "acme-1.com",
            "--name",
            "selector1._domainkey.acme-1.com",
            "--type",
            "TXT",
            "--content",
            &dkim,
        ];
        zone.run(200, &txt).ok();
        let cname = [
            "dns",
            "create",
            "acme-1.com",
            "--name",
            LONG_NAME,
            "--type",
            "CNAME",
            "--content",
            "cdn.example.net",
        ];
        zone.run(200, &cname).ok();
        zone
    }

    /// `hostapi --sandbox <args> -o table` at `width` columns.
    fn run(&self, width: usize, args: &[&str]) -> Run {
        let state = self.home.path().join("sandbox.json");
        let mut all = vec!["--sandbox"];
        all.extend(args);
        all.extend(["-o", "table"]);
        run_in(
            self.home.path(),
            &all,
            &[
                (
                    "HOSTAPI_SANDBOX_STATE",
                    state.to_str().expect("a UTF-8 path"),
                ),
                ("COLUMNS", &width.to_string()),
            ],
        )
    }
}

/// The headers of a table (its first line).
fn headers(run: &Run) -> Vec<&str> {
    run.stdout
        .lines()
        .next()
        .unwrap_or_default()
        .split_whitespace()
        .collect()
}

/// Stderr's notes and the table, as a snapshot.
fn shown(run: &Run) -> String {
    format!("{}{}", run.stderr, run.stdout)
}

fn assert_fits(run: &Run, width: usize, what: &str) {
    for line in run.stdout.lines() {
        assert!(line.width() <= width, "{what}: wider than {width}: {line}");
    }
}

#[test]
fn a_zone_with_long_values_keeps_its_columns() {
    assert_eq!(dkim().len(), 440);
    assert_eq!(LONG_NAME.len(), 81);
    let zone = Zone::new();
    for width in WIDTHS {
        let run = zone.run(width, &["dns", "list", "acme-1.com"]).ok();
        assert_fits(&run, width, "dns list");
        insta::assert_snapshot!(format!("dns_list_{width}"), shown(&run));
        if width >= 80 {
            assert_eq!(
                headers(&run),
                ["ID", "NAME", "TYPE", "CONTENT", "PRIORITY"],
                "{width}"
            );
        }
        // The TXT shortened, not left out.
        assert!(
            run.stdout.contains("v=DKIM1; k=rsa…") || run.stdout.contains("v=DKIM1; k=rsa; p=MIIB"),
            "{width}"
        );
        assert!(!run.stdout.contains(&dkim()), "{width}: the TXT is whole");
        // Ids are never shortened.
        for line in run.stdout.lines().skip(1) {
            let id = line.split_whitespace().next().unwrap_or_default();
            assert!(id.chars().all(|c| c.is_ascii_digit()), "{id}");
        }
    }
}

#[test]
fn chosen_columns_always_show() {
    let zone = Zone::new();
    for width in WIDTHS {
        let line = [
            "dns",
            "list",
            "acme-1.com",
            "--columns",
            "name,type,content",
        ];
        let run = zone.run(width, &line).ok();
        assert_fits(&run, width, "--columns name,type,content");
        assert_eq!(headers(&run), ["NAME", "TYPE", "CONTENT"], "{width}");
        assert!(run.stderr.is_empty(), "{}", run.stderr);
        insta::assert_snapshot!(format!("dns_list_columns_{width}"), shown(&run));
    }
}

#[test]
fn wide_shows_values_whole() {
    let zone = Zone::new();
    let run = zone.run(60, &["dns", "list", "acme-1.com", "--wide"]).ok();
    assert!(run.stdout.contains(&dkim()));
    assert!(run.stdout.contains(LONG_NAME));
    assert_eq!(headers(&run), ["ID", "NAME", "TYPE", "CONTENT", "PRIORITY"]);
}

#[test]
fn vps_list_shortens_before_leaving_columns_out() {
    let zone = Zone::new();
    for width in WIDTHS {
        let run = zone.run(width, &["vps", "list"]).ok();
        insta::assert_snapshot!(format!("vps_list_{width}"), shown(&run));
        if width >= 80 {
            assert_fits(&run, width, "vps list");
            assert_eq!(
                headers(&run),
                ["ID", "NAME", "STATE", "TEMPLATE", "IPS", "REFERENCE"],
                "{width}"
            );
        }
    }
}
