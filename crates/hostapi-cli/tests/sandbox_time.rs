//! The remembered sandbox keeps time: what one run waited for is done in the
//! next (simulated time goes on between runs).

mod common;

use std::path::Path;

use common::TempDir;

/// `hostapi <line>` remembering under HOME, 600 simulated seconds per second
/// (an installation takes half a second).
fn remembering(home: &Path, line: &str) -> common::Run {
    let mut c = common::command(home);
    c.env_remove("HOSTAPI_SANDBOX_STATE")
        .env(common::TIME_SCALE_VAR, "600")
        .args(line.split_whitespace());
    common::finish(c)
}

#[test]
fn an_install_waited_for_in_one_run_is_done_in_the_next() {
    let home = TempDir::new("sandbox-time");
    let run = remembering(
        home.path(),
        "--sandbox bare-metal install 20001 --os 9 --yes --wait",
    )
    .ok();
    assert_eq!(run.json()["description"], "normal", "{}", run.stdout);
    let next = remembering(home.path(), "--sandbox bare-metal installation get 20001").ok();
    assert_eq!(next.json()["description"], "normal", "{}", next.stdout);
    // Nothing runs, so a new installation is accepted (not 409).
    remembering(
        home.path(),
        "--sandbox bare-metal install 20001 --os 9 --yes",
    )
    .ok();
}
