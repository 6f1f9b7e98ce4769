//! What a file, a proxy setting or a server supplies stays data, through the binary:
//! files are bounded and regular, their parse errors quote no secret, loopback is
//! never proxied, a redirected write is an unknown outcome (exit 6), secrets given as
//! flags warn and key files work, and the sandbox's files are private. The servers are
//! small ones of the test's own on 127.0.0.1.

mod common;

use std::io::{Read, Write};
use std::net::TcpListener;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use common::{LiveSim, TempDir, command, finish, shell};
use hostapi_sim::SimConfig;

/// A listener on 127.0.0.1 that counts the connections it gets (each closed at once)
/// until dropped.
struct Counter {
    url: String,
    count: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Counter {
    fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.set_nonblocking(true).expect("non-blocking");
        let url = format!("http://{}", listener.local_addr().expect("address"));
        let count = Arc::new(AtomicUsize::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let (counted, stopped) = (count.clone(), stop.clone());
        let thread = std::thread::spawn(move || {
            // Ends when the test drops the counter (or after a minute at most).
            let deadline = Instant::now() + Duration::from_secs(60);
            while !stopped.load(Ordering::Relaxed) && Instant::now() < deadline {
                match listener.accept() {
                    Ok(_) => {
                        counted.fetch_add(1, Ordering::Relaxed);
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(5)),
                }
            }
        });
        Self {
            url,
            count,
            stop,
            thread: Some(thread),
        }
    }

    fn count(&self) -> usize {
        self.count.load(Ordering::Relaxed)
    }
}

impl Drop for Counter {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// A server on 127.0.0.1 answering every request with `answer` (a whole HTTP
/// response), counting the requests, until dropped.
struct Scripted {
    url: String,
    count: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Scripted {
    fn start(answer: &'static str) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.set_nonblocking(true).expect("non-blocking");
        let url = format!("http://{}", listener.local_addr().expect("address"));
        let count = Arc::new(AtomicUsize::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let (counted, stopped) = (count.clone(), stop.clone());
        let thread = std::thread::spawn(move || {
            let deadline = Instant::now() + Duration::from_secs(60);
            while !stopped.load(Ordering::Relaxed) && Instant::now() < deadline {
                let Ok((mut socket, _)) = listener.accept() else {
                    std::thread::sleep(Duration::from_millis(5));
                    continue;
                };
                counted.fetch_add(1, Ordering::Relaxed);
                let _ = socket.set_nonblocking(false);
                let _ = socket.set_read_timeout(Some(Duration::from_secs(5)));
                // Read the head (and a small body), then answer.
                let mut seen = Vec::new();
                let mut buffer = [0u8; 4096];
                while !seen.windows(4).any(|w| w == b"\r\n\r\n") && seen.len() < 65536 {
                    match socket.read(&mut buffer) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => seen.extend_from_slice(&buffer[..n]),
                    }
                }
                let _ = socket.write_all(answer.as_bytes());
            }
        });
        Self {
            url,
            count,
            stop,
            thread: Some(thread),
        }
    }
}

impl Drop for Scripted {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

#[test]
fn loopback_is_never_proxied() {
    let live = LiveSim::start(SimConfig::default());
    let proxy = Counter::start();
    let home = TempDir::new("proxy");
    let mut run = command(home.path());
    for var in [
        "HTTP_PROXY",
        "http_proxy",
        "HTTPS_PROXY",
        "https_proxy",
        "ALL_PROXY",
        "all_proxy",
    ] {
        run.env(var, &proxy.url);
    }
    run.env_remove("NO_PROXY").env_remove("no_proxy");
    run.env("HOSTAPI_API_KEY", live.sim.api_key()).args([
        "--base-url",
        &live.sim.base_url(),
        "vps",
        "list",
        "-o",
        "json",
    ]);
    let run = finish(run).ok();
    assert!(run.json().is_array(), "{}", run.stdout);
    assert_eq!(
        proxy.count(),
        0,
        "the proxy was reached for a loopback URL:\n{}",
        run.stderr
    );
}

#[test]
fn a_redirected_write_is_an_unknown_outcome() {
    let server = Scripted::start(
        "HTTP/1.1 302 Found\r\nlocation: http://127.0.0.1:9/elsewhere\r\ncontent-length: 0\r\nconnection: close\r\n\r\n",
    );
    let home = TempDir::new("redirect");
    let mut run = command(home.path());
    run.env("HOSTAPI_API_KEY", "redirect-key").args([
        "--base-url",
        &server.url,
        "--yes",
        "vps",
        "reboot",
        "100001",
    ]);
    let run = finish(run).code(6);
    assert!(run.stderr.contains("302"), "{}", run.stderr);
    assert_eq!(server.count.load(Ordering::Relaxed), 1, "not retried");
}

#[test]
fn more_than_100_headers_is_one_attempt_and_a_clear_error() {
    static ANSWER: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let answer = ANSWER.get_or_init(|| {
        let mut head = "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n".to_owned();
        for i in 0..150 {
            head.push_str(&format!("x-filler-{i}: {i}\r\n"));
        }
        head + "content-length: 2\r\nconnection: close\r\n\r\n[]"
    });
    let server = Scripted::start(answer);
    let home = TempDir::new("headers");
    let mut run = command(home.path());
    run.env("HOSTAPI_API_KEY", "headers-key")
        .args(["--base-url", &server.url, "vps", "list"]);
    let run = finish(run).code(1);
    assert!(
        run.stderr.contains("more than 100 headers"),
        "{}",
        run.stderr
    );
    assert_eq!(
        server.count.load(Ordering::Relaxed),
        1,
        "retried: {}",
        run.stderr
    );
}

#[test]
fn secrets_on_the_command_line_warn_and_key_files_work() {
    let live = LiveSim::start(SimConfig::default());
    let home = TempDir::new("keys");
    let base = live.sim.base_url();

    let mut run = command(home.path());
    run.args(["--base-url", &base, "--api-key", live.sim.api_key()])
        .args(["vps", "list", "-o", "json"]);
    let run = finish(run).ok();
    assert!(
        run.stderr
            .contains("--api-key on the command line is visible"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("--api-key-file"), "{}", run.stderr);

    let key_file = home.path().join("key");
    std::fs::write(&key_file, format!("{}\n", live.sim.api_key())).unwrap();
    let mut run = command(home.path());
    run.args(["--base-url", &base, "--api-key-file"])
        .arg(&key_file)
        .args(["vps", "list", "-o", "json"]);
    let run = finish(run).ok();
    assert!(!run.stderr.contains("warning"), "{}", run.stderr);

    // From standard input.
    let script = format!(
        "printf '%s' '{}' | '{}' --base-url '{base}' --api-key-file - vps list -o json",
        live.sim.api_key(),
        common::BIN
    );
    let run = finish(shell(home.path(), &script)).ok();
    assert!(run.json().is_array(), "{}", run.stderr);

    // A key file that is not a file.
    let mut run = command(home.path());
    run.args([
        "--base-url",
        &base,
        "--api-key-file",
        "/dev/zero",
        "vps",
        "list",
    ]);
    let run = finish(run).code(2);
    assert!(run.stderr.contains("character device"), "{}", run.stderr);
}

/// A `.env` file, its lines holding the configured credentials.
fn dot_env(key: &str, secret: &str) -> String {
    format!("HOSTAPI_API_KEY={key}\nHOSTAPI_CDN_SECRET={secret}\n")
}

#[test]
fn a_wrong_file_never_shows_the_configured_secrets() {
    let home = TempDir::new("dotenv");
    let key = "k3y-abcdef0123";
    let secret = "s3cr3t-abcdef0123";
    let files = [
        ("env.yaml", dot_env(key, secret)),
        ("env.toml", dot_env(key, secret)),
        ("env.zone", dot_env(key, secret)),
        ("first.yaml", format!("{key} {secret}\n")),
        ("records.yaml", format!("records: {key}\n")),
        ("records.toml", format!("records = \"{secret}\"\n")),
    ];
    for (name, text) in files {
        let path = home.path().join(name);
        std::fs::write(&path, text).unwrap();
        for cdn in [false, true] {
            if cdn && name.ends_with(".zone") {
                continue;
            }
            let mut run = command(home.path());
            run.env("HOSTAPI_API_KEY", key)
                .env("HOSTAPI_CDN_SECRET", secret)
                .args(["--base-url", "http://127.0.0.1:9"]);
            if cdn {
                run.args(["--cdn-base-url", "http://127.0.0.1:9", "cdn", "plan"]);
            } else {
                run.args(["dns", "plan", "example.com"]);
            }
            run.arg(&path);
            let run = finish(run).code(2);
            assert!(
                !run.stderr.contains(key) && !run.stderr.contains(secret),
                "{name}: {}",
                run.stderr
            );
            assert!(run.stderr.contains(name), "{name}: {}", run.stderr);
        }
    }
}

#[test]
fn only_regular_files_of_bounded_size_are_read() {
    let home = TempDir::new("files");
    let started = Instant::now();
    let mut run = command(home.path());
    run.env("HOSTAPI_API_KEY", "k")
        .args(["--base-url", "http://127.0.0.1:9"])
        .args([
            "dns",
            "plan",
            "example.com",
            "/dev/zero",
            "--format",
            "yaml",
        ]);
    let run = finish(run).code(2);
    assert!(run.stderr.contains("character device"), "{}", run.stderr);

    let fifo = home.path().join("pipe.yaml");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let mut run = command(home.path());
    run.env("HOSTAPI_API_KEY", "k")
        .args([
            "--base-url",
            "http://127.0.0.1:9",
            "dns",
            "plan",
            "example.com",
        ])
        .arg(&fifo);
    let run = finish(run).code(2);
    assert!(run.stderr.contains("FIFO"), "{}", run.stderr);

    let big = home.path().join("big.yaml");
    std::fs::write(&big, "records: []\n".repeat(2000)).unwrap();
    let mut run = command(home.path());
    run.env("HOSTAPI_API_KEY", "k")
        .args([
            "--base-url",
            "http://127.0.0.1:9",
            "dns",
            "plan",
            "example.com",
        ])
        .arg(&big)
        .args(["--max-file-size", "1K"]);
    let run = finish(run).code(2);
    assert!(
        run.stderr.contains("larger than the limit of 1024 bytes"),
        "{}",
        run.stderr
    );
    assert!(started.elapsed() < Duration::from_secs(30));
}

#[test]
fn sandbox_files_are_private() {
    use std::os::unix::fs::PermissionsExt;
    let home = TempDir::new("private");
    let dir = home.path().join("state").join("hostapi");
    let state = dir.join("sandbox.json");
    let mut run = command(home.path());
    run.env("HOSTAPI_SANDBOX_STATE", &state).args([
        "--sandbox",
        "domains",
        "set-ttl",
        "acme-1.com",
        "7200",
    ]);
    finish(run).ok();
    let mode =
        |path: &std::path::Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&dir), 0o700, "{}", dir.display());
    let lock = dir.join("sandbox.json.lock");
    assert_eq!(mode(&lock), 0o600, "{}", lock.display());

    // Files an older version left readable are made private.
    std::fs::set_permissions(&lock, std::fs::Permissions::from_mode(0o644)).unwrap();
    let mut run = command(home.path());
    run.env("HOSTAPI_SANDBOX_STATE", &state)
        .args(["sandbox", "status"]);
    finish(run).ok();
    assert_eq!(mode(&lock), 0o600);
    assert_eq!(mode(&state), 0o600, "{}", state.display());
}
