//! Running the built `hostapi` binary in tests: a clean environment (no HOSTAPI_*
//! variables, a temporary HOME, no colour, a fixed width), a deadline on every run,
//! and the sandbox at a high time scale so waits take milliseconds.

#![allow(dead_code, unreachable_pub)]

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_hostapi");

/// Simulated seconds per real second in sandbox runs: a five-minute installation
/// takes 3 ms.
pub const TIME_SCALE: &str = "100000";

/// The variable that sets the sandbox's time scale (there is no flag: it would show in
/// the completion scripts).
pub const TIME_SCALE_VAR: &str = "HOSTAPI_SANDBOX_TIME_SCALE";

/// No run may take longer than this.
const DEADLINE: Duration = Duration::from_secs(60);

/// A simulator on a runtime of its own, serving while the test thread runs the binary.
pub struct LiveSim {
    pub sim: hostapi_sim::Sim,
    _runtime: tokio::runtime::Runtime,
}

impl LiveSim {
    pub fn start(config: hostapi_sim::SimConfig) -> Self {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("runtime");
        let sim = runtime
            .block_on(hostapi_sim::Sim::start(config))
            .expect("simulator");
        Self {
            sim,
            _runtime: runtime,
        }
    }
}

/// What a run left behind.
#[derive(Debug)]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// Stdout as JSON; panics with both streams when it is not.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| {
            panic!(
                "stdout is not JSON ({e})\n--- stdout\n{}\n--- stderr\n{}",
                self.stdout, self.stderr
            )
        })
    }

    /// Panics unless the run exited 0.
    pub fn ok(self) -> Self {
        assert_eq!(
            self.code, 0,
            "exit {}\n--- stdout\n{}\n--- stderr\n{}",
            self.code, self.stdout, self.stderr
        );
        self
    }

    /// Panics unless the run exited with `code`.
    pub fn code(self, code: i32) -> Self {
        assert_eq!(
            self.code, code,
            "expected exit {code}, got {}\n--- stdout\n{}\n--- stderr\n{}",
            self.code, self.stdout, self.stderr
        );
        self
    }
}

/// A temporary directory removed when dropped.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(name: &str) -> Self {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let path = std::env::temp_dir().join(format!(
            "hostapi-cli-test-{name}-{}-{}",
            std::process::id(),
            COUNT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("temp dir");
        Self(path)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The binary with a clean environment: HOME (and so the default config file) in
/// `home`, no HOSTAPI_* variables, no colour, 100 columns.
pub fn command(home: &Path) -> Command {
    let mut command = Command::new(BIN);
    clean(&mut command, home);
    command
}

/// `sh -c script` in `home` with the clean environment of [`command`].
pub fn shell(home: &Path, script: &str) -> Command {
    let mut command = Command::new("sh");
    clean(&mut command, home);
    command.arg("-c").arg(script);
    command
}

fn clean(command: &mut Command, home: &Path) {
    for (key, _) in std::env::vars_os() {
        let key = key.to_string_lossy().into_owned();
        // XDG_STATE_HOME too: the sandbox keeps its state under HOME, so each
        // test's fresh HOME gives it a fresh dataset.
        if key.starts_with("HOSTAPI_")
            || key == "XDG_CONFIG_HOME"
            || key == "XDG_STATE_HOME"
            || key == "RUST_LOG"
        {
            command.env_remove(&key);
        }
    }
    // A fresh sandbox every run, as the tests expect (the sandbox helper and the
    // tests of remembering choose otherwise).
    command.env("HOSTAPI_SANDBOX_STATE", "none");
    command
        .env("HOME", home)
        .env("NO_COLOR", "1")
        .env("COLUMNS", "100")
        .env(TIME_SCALE_VAR, TIME_SCALE)
        .current_dir(home)
        .stdin(Stdio::null());
}

/// Runs a command to its end (at most [`DEADLINE`]), reading both streams.
pub fn finish(mut command: Command) -> Run {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut stdout = child.stdout.take().expect("stdout");
    let mut stderr = child.stderr.take().expect("stderr");
    let out = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stdout.read_to_string(&mut text);
        text
    });
    let err = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if started.elapsed() > DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{command:?} ran past {DEADLINE:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    Run {
        code: status.code().unwrap_or(-1),
        stdout: out.join().expect("stdout reader"),
        stderr: err.join().expect("stderr reader"),
    }
}

/// Runs `hostapi --sandbox <args>` at a high time scale in a fresh HOME.
pub fn sandbox(args: &[&str]) -> Run {
    let home = TempDir::new("sandbox");
    let mut command = command(home.path());
    // The state file in this test's own temp dir: remembered, yet independent.
    command
        .env("HOSTAPI_SANDBOX_STATE", home.path().join("sandbox.json"))
        .arg("--sandbox")
        .args(args);
    finish(command)
}

/// Runs `hostapi --sandbox <args>` in a fresh HOME at another time scale (a slower
/// one lets the polls of a wait see a state that lasts a few milliseconds otherwise).
pub fn sandbox_scaled(scale: &str, args: &[&str]) -> Run {
    let home = TempDir::new("sandbox");
    let mut command = command(home.path());
    command
        .env(TIME_SCALE_VAR, scale)
        .arg("--sandbox")
        .args(args);
    finish(command)
}

/// Runs `hostapi <line>` in `home` at a time scale of its own.
pub fn line_scaled(home: &Path, scale: &str, line: &str) -> Run {
    let mut command = command(home);
    command
        .env(TIME_SCALE_VAR, scale)
        .args(line.split_whitespace());
    finish(command)
}

/// Runs `hostapi --sandbox <line>`, the line split at white space.
pub fn sandbox_line(line: &str) -> Run {
    sandbox(&line.split_whitespace().collect::<Vec<_>>())
}

/// Runs `hostapi <line>` (the line split at white space) in `home`, as is.
pub fn line_in(home: &Path, line: &str) -> Run {
    let mut command = command(home);
    command.args(line.split_whitespace());
    finish(command)
}

/// A snapshot name from a command line: words joined by `_`, no dashes.
pub fn slug(line: &str) -> String {
    line.split_whitespace()
        .map(|w| w.trim_start_matches('-'))
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join("_")
        .replace(['/', ':', '.'], "-")
}

/// Runs `hostapi <args>` (no sandbox) in `home`, with extra environment variables.
pub fn run_in(home: &Path, args: &[&str], env: &[(&str, &str)]) -> Run {
    let mut command = command(home);
    command.args(args);
    for (key, value) in env {
        command.env(key, value);
    }
    finish(command)
}

/// Maps `items` with `f` on a few threads (each run is a process that mostly waits on
/// its own start-up), keeping the order.
pub fn par_map<T: Send, R: Send>(items: Vec<T>, f: impl Fn(T) -> R + Sync) -> Vec<R> {
    let workers = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .clamp(2, 4);
    let queue = std::sync::Mutex::new(items.into_iter().enumerate().collect::<Vec<_>>());
    let results = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let next = queue.lock().unwrap_or_else(|e| e.into_inner()).pop();
                    let Some((index, item)) = next else { break };
                    let result = f(item);
                    results
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push((index, result));
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.sort_by_key(|(index, _)| *index);
    results.into_iter().map(|(_, result)| result).collect()
}

/// Runs `hostapi --sandbox <args>` in `home` with the sandbox's state file there too:
/// a sandbox that remembers between the runs of one test, and no other's.
pub fn sandbox_at(home: &Path, args: &[&str]) -> Run {
    let mut command = command(home);
    command
        .env("HOSTAPI_SANDBOX_STATE", home.join("sandbox.json"))
        .arg("--sandbox")
        .args(args);
    finish(command)
}

/// Writes `text` to `home/name`; answers the path.
pub fn write_file(home: &Path, name: &str, text: &str) -> String {
    let path = home.join(name);
    std::fs::write(&path, text).expect("write");
    path.display().to_string()
}

/// Starts `hostapi --sandbox bare-metal install 20001 --os 9 --yes --wait` at real
/// time, sends it Ctrl-C once its wait begins, and answers its exit code and stderr.
pub fn interrupt_a_wait(home: &Path) -> (i32, String) {
    let mut run = command(home);
    run.env(TIME_SCALE_VAR, "1")
        .args("--sandbox bare-metal install 20001 --os 9 --yes --wait".split_whitespace())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let mut child = run.spawn().expect("starts");
    let stderr = child.stderr.take().expect("stderr");
    let (lines, seen) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut all = String::new();
        for line in std::io::BufRead::lines(std::io::BufReader::new(stderr)) {
            let line = line.unwrap_or_default();
            let _ = lines.send(line.clone());
            all.push_str(&line);
            all.push('\n');
        }
        all
    });
    while !seen
        .recv_timeout(Duration::from_secs(20))
        .expect("the wait begins")
        .starts_with("waiting for installation")
    {}
    // A moment more for the Ctrl-C handler to be in place.
    std::thread::sleep(Duration::from_millis(200));
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "Ctrl-C did not stop the wait"
        );
        std::thread::sleep(Duration::from_millis(10));
    };
    (
        status.code().unwrap_or(-1),
        reader.join().expect("stderr reader"),
    )
}
