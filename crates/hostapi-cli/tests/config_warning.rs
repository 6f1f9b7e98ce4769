//! Every command warns once when the config file holds secrets and others can read
//! it: those that read its settings, those that only list or change it (`config
//! profiles`, `config use`), and those that do not read it at all (`--sandbox`).

mod common;

use std::os::unix::fs::PermissionsExt;

use common::{TempDir, run_in};

const WARNING: &str = "holds secrets and others can read it";

#[test]
fn every_command_warns_about_a_config_file_others_can_read() {
    let home = TempDir::new("config-warning");
    let dir = home.path().join(".config/hostapi");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("config.toml");
    std::fs::write(
        &file,
        "[profiles.default]\nbase_url = \"https://api.example.com\"\napi_key = \"k\"\n\n\
         [profiles.staging]\nbase_url = \"https://api2.example.com\"\n",
    )
    .unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
    for line in [
        &["config", "profiles"][..],
        &["config", "show"],
        &["--sandbox", "domains", "get", "acme-1.com"],
        // Last: it writes the file back readable by its owner only.
        &["config", "use", "staging"],
    ] {
        let run = run_in(home.path(), line, &[]);
        assert_eq!(
            run.stderr.matches(WARNING).count(),
            1,
            "{line:?} (exit {}): {}",
            run.code,
            run.stderr
        );
    }
    // Readable by its owner only: no warning.
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
    let run = run_in(home.path(), &["config", "profiles"], &[]).ok();
    assert!(!run.stderr.contains(WARNING), "{}", run.stderr);
}
