//! The command line for daily and scripted use: exit codes and messages in the user's
//! words, JSON for scripts, tables that fit, output shaping, waiting, confirmations,
//! completions, onboarding, bulk reads and search.

mod common;

use common::{TempDir, run_in, sandbox};

/// Configuration and URL problems exit 2, with the flag and environment names.
#[test]
fn configuration_and_url_problems_exit_2_in_the_users_words() {
    let home = TempDir::new("exit-config");
    for (args, env, words) in [
        (
            vec!["--base-url", "http://example.com", "vps", "list"],
            vec![("HOSTAPI_API_KEY", "k")],
            "--base-url",
        ),
        (
            vec!["--base-url", "not a url", "vps", "list"],
            vec![("HOSTAPI_API_KEY", "k")],
            "HOSTAPI_BASE_URL",
        ),
        (
            vec!["vps", "list"],
            vec![("HOSTAPI_API_KEY", "k")],
            "HOSTAPI_BASE_URL",
        ),
        (
            vec!["cdn", "origins", "list"],
            vec![("HOSTAPI_CDN_SECRET", "s"), ("HOSTAPI_CDN_CUSTOMER", "1")],
            "HOSTAPI_CDN_BASE_URL",
        ),
    ] {
        let run = run_in(home.path(), &args, &env).code(2);
        assert!(run.stderr.contains(words), "{args:?}: {}", run.stderr);
        assert!(
            !run.stderr.contains("credentials"),
            "{args:?}: {}",
            run.stderr
        );
        assert!(
            !run.stderr.contains("base_url:"),
            "{args:?}: {}",
            run.stderr
        );
    }
    // Missing credentials remain an authentication failure (3).
    let run = run_in(home.path(), &["vps", "list"], &[]).code(3);
    assert!(run.stderr.contains("HOSTAPI_API_KEY"), "{}", run.stderr);
}

/// Every id is checked locally, the same way, before anything is sent: a sandbox that
/// would answer 404 never sees the call (exit 2, not 4), and no Rust type names.
#[test]
fn every_id_is_checked_locally_in_the_same_way() {
    for (args, noun) in [
        (vec!["bare-metal", "get", "abc"], "bare metal server id"),
        (vec!["vps", "get", "abc"], "virtual server id"),
        (vec!["racks", "get", "x"], "private rack id"),
        (vec!["networks", "get", "x"], "private network id"),
        (vec!["cdn", "origins", "get", "x"], "origin id"),
        (vec!["cloud", "get", "a/b"], "cloud server id"),
        (vec!["vps", "get", "../x"], "virtual server id"),
        (
            vec!["bare-metal", "ips", "list", "20001x"],
            "bare metal server id",
        ),
        (
            vec!["catalog", "partition-schema", "get", "x", "20001"],
            "operating system id",
        ),
        (
            vec!["bare-metal", "leases", "get", "20001", "zz"],
            "MAC address",
        ),
    ] {
        let run = sandbox(&args).code(2);
        assert!(run.stderr.contains(noun), "{args:?}: {}", run.stderr);
        for leak in [
            "Id:",
            "Id`",
            "BareMetalId",
            "VirtualServerId",
            "CloudServerId",
        ] {
            assert!(!run.stderr.contains(leak), "{args:?}: {}", run.stderr);
        }
        assert!(run.stdout.is_empty(), "{args:?}: {}", run.stdout);
    }
}

/// The API call's operation name shows only with -v.
#[test]
fn the_operation_name_shows_only_with_verbose() {
    let quiet = sandbox(&["bare-metal", "get", "99999"]).code(4);
    assert!(!quiet.stderr.contains("getBareMetal"), "{}", quiet.stderr);
    let loud = sandbox(&["-v", "bare-metal", "get", "99999"]).code(4);
    assert!(
        loud.stderr
            .contains("call: getBareMetal (GET /v1/bareMetals/99999)"),
        "{}",
        loud.stderr
    );
}
