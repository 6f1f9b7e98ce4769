//! Ctrl-C during `--wait` stops the waiting, not the operation: the command exits 130,
//! says the operation goes on, and names the command that resumes waiting.

mod common;

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::time::{Duration, Instant};

use common::{TempDir, command};

/// Runs `hostapi --sandbox <args>` at the sandbox's own pace (an installation takes
/// simulated minutes, so real seconds), sends SIGINT once it says it is waiting, and
/// answers its exit code and stderr.
fn interrupt_wait(args: &[&str]) -> (Option<i32>, String) {
    let home = TempDir::new("interrupted-wait");
    let mut run = command(home.path());
    run.env(common::TIME_SCALE_VAR, "1")
        .arg("--sandbox")
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let mut child = run.spawn().expect("the binary starts");
    let stderr = child.stderr.take().expect("stderr");
    let (lines, waiting) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut all = String::new();
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if line.starts_with("waiting for") {
                let _ = lines.send(());
            }
            all.push_str(&line);
            all.push('\n');
        }
        all
    });
    let started = Instant::now();
    let deadline = Duration::from_secs(60);
    if waiting.recv_timeout(deadline).is_err() {
        let _ = child.kill();
        let _ = child.wait();
        panic!(
            "no `waiting for` line within {deadline:?}: {}",
            reader.join().unwrap()
        );
    }
    // The wait polls from here on; the signal handler is in place before the line.
    let killed = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if started.elapsed() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("still running {deadline:?} after SIGINT");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    (status.code(), reader.join().expect("stderr reader"))
}

#[test]
fn ctrl_c_during_an_installation_wait_names_the_command_that_resumes() {
    let (code, stderr) = interrupt_wait(&[
        "bare-metal",
        "install",
        "20001",
        "--os",
        "9",
        "--yes",
        "--wait",
    ]);
    assert_eq!(code, Some(130), "{stderr}");
    assert!(stderr.contains("the operation goes on"), "{stderr}");
    assert!(
        stderr
            .contains("Resume waiting with: hostapi --sandbox bare-metal installation wait 20001"),
        "{stderr}"
    );
}

#[test]
fn ctrl_c_during_a_cloud_wait_names_cloud_wait() {
    let (code, stderr) = interrupt_wait(&[
        "cloud",
        "power-off",
        "c90e8a9c-09ba-46e2-ae8a-0c71c86fa728",
        "--yes",
        "--wait",
    ]);
    assert_eq!(code, Some(130), "{stderr}");
    assert!(
        stderr.contains(
            "Resume waiting with: hostapi --sandbox cloud wait c90e8a9c-09ba-46e2-ae8a-0c71c86fa728 --state stopped"
        ),
        "{stderr}"
    );
}
