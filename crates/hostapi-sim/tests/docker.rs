//! The `Dockerfile` builds an image whose simulator answers — where docker
//! can run here. It skips, saying why, where there is no docker daemon or a
//! base image is not present locally (the build must need no registry but
//! crates.io, so it never pulls one).

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `docker ARGS` to its end, at most `limit`; None when it cannot start or
/// runs too long (then it is killed).
fn docker(args: &[&str], limit: Duration) -> Option<Output> {
    let mut child = Command::new("docker")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .ok()?;
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => return child.wait_with_output().ok(),
            Ok(None) if start.elapsed() < limit => std::thread::sleep(Duration::from_millis(50)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    }
}

/// The images the Dockerfile's stages start `FROM`.
fn base_images(dockerfile: &str) -> Vec<String> {
    dockerfile
        .lines()
        .filter_map(|l| l.trim().strip_prefix("FROM "))
        .filter_map(|rest| rest.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

/// Why this machine cannot run the test, if it cannot.
fn skip_reason(dockerfile: &str) -> Option<String> {
    match docker(
        &["info", "--format", "{{.ServerVersion}}"],
        Duration::from_secs(20),
    ) {
        None => return Some("no docker client".into()),
        Some(o) if !o.status.success() => {
            return Some(format!(
                "no docker daemon ({})",
                String::from_utf8_lossy(&o.stderr).trim()
            ));
        }
        Some(_) => {}
    }
    for image in base_images(dockerfile) {
        let present = docker(&["image", "inspect", &image], Duration::from_secs(20))
            .is_some_and(|o| o.status.success());
        if !present {
            return Some(format!(
                "base image {image} is not present locally, and the build may not pull it"
            ));
        }
    }
    None
}

#[test]
fn the_dockerfile_names_its_base_images() {
    let text = std::fs::read_to_string(workspace().join("Dockerfile")).unwrap();
    let images = base_images(&text);
    assert_eq!(images.len(), 2, "a build stage and a run stage: {images:?}");
    assert!(text.contains("--locked"), "the build uses Cargo.lock as is");
}

#[test]
fn the_image_builds_and_its_simulator_answers() {
    let root = workspace();
    let text = std::fs::read_to_string(root.join("Dockerfile")).unwrap();
    if let Some(why) = skip_reason(&text) {
        eprintln!("skipped: {why}");
        return;
    }
    let tag = format!("hostapi-sim-test-{}", std::process::id());
    let root_arg = root.display().to_string();
    let build = docker(
        &["build", "--pull=false", "-t", &tag, &root_arg],
        Duration::from_secs(1800),
    )
    .expect("docker build finished within 30 minutes");
    assert!(
        build.status.success(),
        "docker build failed:\n{}",
        String::from_utf8_lossy(&build.stderr)
    );
    // The image's simulator starts and prints its start line (then is
    // stopped by the timeout inside the container).
    let run = docker(
        &[
            "run",
            "--rm",
            "--network",
            "none",
            "--entrypoint",
            "timeout",
            &tag,
            "2",
            "hostapi-sim",
            "--host",
            "0.0.0.0",
            "--port",
            "8080",
        ],
        Duration::from_secs(60),
    )
    .expect("docker run finished");
    let _ = docker(&["image", "rm", "-f", &tag], Duration::from_secs(60));
    let out = String::from_utf8_lossy(&run.stdout);
    let line: serde_json::Value = serde_json::from_str(out.lines().next().unwrap_or(""))
        .unwrap_or_else(|e| panic!("{e}: {out}"));
    assert!(line["control_token"].is_string(), "{line}");
    assert!(
        line["base_url"].as_str().unwrap().ends_with(":8080"),
        "{line}"
    );
}
