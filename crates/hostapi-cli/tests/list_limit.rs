//! `--limit` is passed to the SDK's list (a paged list asks for no page it does not
//! need) and says on stderr how much was left out; paged lists come back whole; `find`
//! stops each list at the hits it prints; and a server announcing an endless list makes
//! `cloud list` end at once with an error.

mod common;

use std::io::{Read, Write};
use std::net::TcpListener;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use common::{LiveSim, TempDir, run_in};
use hostapi_sim::SimConfig;

fn env(live: &LiveSim) -> Vec<(&'static str, String)> {
    vec![
        ("HOSTAPI_BASE_URL", live.sim.base_url()),
        ("HOSTAPI_API_KEY", live.sim.api_key().to_owned()),
    ]
}

/// `hostapi <line> -o json` against the simulator: the records, and stderr.
fn json_lines(live: &LiveSim, line: &str) -> (Vec<serde_json::Value>, String) {
    let home = TempDir::new("list-limit");
    let env = env(live);
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let mut args: Vec<&str> = line.split_whitespace().collect();
    args.extend(["-o", "json"]);
    let run = run_in(home.path(), &args, &env).ok();
    let records = run.json().as_array().cloned().unwrap_or_else(|| {
        panic!("{line}: not a list: {}", run.stdout);
    });
    (records, run.stderr)
}

/// The queries of the GET requests the simulator answered for `path`.
fn queries(live: &LiveSim, path: &str) -> Vec<Option<String>> {
    live.sim
        .requests(None)
        .into_iter()
        .filter(|r| r.method == "GET" && r.path == path)
        .map(|r| r.query)
        .collect()
}

#[test]
fn paged_lists_come_back_whole_and_limit_stops_paging() {
    let live = LiveSim::start(SimConfig::default().with_seed(4).with_size(15_000));

    let (clouds, stderr) = json_lines(&live, "cloud private-clouds list");
    assert_eq!(clouds.len(), 15, "{stderr}");
    let (leases, stderr) = json_lines(&live, "bare-metal leases list 20008");
    assert_eq!(leases.len(), 25, "{stderr}");
    assert!(!stderr.contains("showing"), "{stderr}");

    live.sim.clear_requests();
    let (servers, stderr) = json_lines(&live, "cloud list --limit 5");
    assert_eq!(servers.len(), 5);
    assert!(
        stderr.contains("note: showing 5 of 15000 (--limit 5)"),
        "{stderr}"
    );
    assert_eq!(
        queries(&live, "/cloud/v2/virtualServers"),
        [Some("limit=5&offset=0".to_owned())]
    );

    live.sim.clear_requests();
    let (three, stderr) = json_lines(&live, "bare-metal leases list 20008 --limit 3");
    assert_eq!(three, leases[..3]);
    assert!(stderr.contains("showing 3 of 25"), "{stderr}");
    assert_eq!(queries(&live, "/v1/bareMetals/20008/leases"), [None]);

    // `--sort` needs the whole list first: every page is read, then cut.
    live.sim.clear_requests();
    let (sorted, stderr) = json_lines(&live, "bare-metal leases list 20008 --limit 3 --sort=-mac");
    assert_eq!(sorted.len(), 3);
    assert!(stderr.contains("showing 3 of 25"), "{stderr}");
    assert_eq!(queries(&live, "/v1/bareMetals/20008/leases").len(), 2);
}

#[test]
fn find_stops_each_list_at_the_hits_it_prints() {
    // 1000 cloud servers: ten pages of 100.
    let live = LiveSim::start(SimConfig::default().with_seed(4).with_size(1000));
    let (hits, stderr) = json_lines(&live, "find * --limit 2");
    assert_eq!(hits.len(), 2, "{stderr}");
    assert_eq!(
        queries(&live, "/cloud/v2/virtualServers").len(),
        1,
        "two hits are in the first page"
    );
}

/// A server that answers every request with a page of fresh cloud servers and a
/// `totalCount` of a trillion; counts the requests. It stops when dropped (or after a
/// minute).
struct Endless {
    url: String,
    requests: Arc<AtomicUsize>,
    stop: Arc<AtomicBool>,
}

impl Endless {
    fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.set_nonblocking(true).expect("non-blocking");
        let url = format!("http://{}", listener.local_addr().expect("address"));
        let requests = Arc::new(AtomicUsize::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let (count, stopped) = (requests.clone(), stop.clone());
        std::thread::spawn(move || {
            let deadline = Instant::now() + Duration::from_secs(60);
            while !stopped.load(Ordering::SeqCst) && Instant::now() < deadline {
                let Ok((mut stream, _)) = listener.accept() else {
                    std::thread::sleep(Duration::from_millis(2));
                    continue;
                };
                let _ = stream.set_nonblocking(false);
                let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
                let mut head = Vec::new();
                let mut byte = [0u8; 1];
                while !head.ends_with(b"\r\n\r\n") && head.len() < 16 * 1024 {
                    match stream.read(&mut byte) {
                        Ok(1) => head.push(byte[0]),
                        _ => break,
                    }
                }
                let call = count.fetch_add(1, Ordering::SeqCst);
                let head = String::from_utf8_lossy(&head);
                let limit: usize = head
                    .split(['?', '&', ' '])
                    .find_map(|part| part.strip_prefix("limit="))
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(10);
                let items: Vec<String> = (0..limit)
                    .map(|i| format!(r#"{{"id":"vs-{call}-{i}","state":"RUNNING"}}"#))
                    .collect();
                let body = format!(
                    r#"{{"virtualServers":[{}],"_metadata":{{"totalCount":1000000000000,"limit":{limit},"offset":0}}}}"#,
                    items.join(",")
                );
                let _ = write!(
                    stream,
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
            }
        });
        Self {
            url,
            requests,
            stop,
        }
    }
}

impl Drop for Endless {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
    }
}

#[test]
fn an_endless_list_ends_at_once_with_an_error() {
    let server = Endless::start();
    let home = TempDir::new("endless");
    let env = [
        ("HOSTAPI_BASE_URL", server.url.as_str()),
        ("HOSTAPI_API_KEY", "endless-key"),
    ];
    let started = Instant::now();
    let run = run_in(home.path(), &["cloud", "list", "-o", "json"], &env).code(1);
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    assert!(
        run.stderr.contains("1000000000000") && run.stderr.contains("ceiling of 1000000"),
        "{}",
        run.stderr
    );
    assert_eq!(server.requests.load(Ordering::SeqCst), 1);

    let run = run_in(
        home.path(),
        &["cloud", "list", "--limit", "5", "-o", "json"],
        &env,
    )
    .ok();
    assert_eq!(run.json().as_array().map(Vec::len), Some(5));
    assert!(
        run.stderr.contains("showing 5 of 1000000000000"),
        "{}",
        run.stderr
    );
    assert_eq!(server.requests.load(Ordering::SeqCst), 2);
}
