//! The HTTP server: an accept loop of hyper connections serving an axum
//! router, with fault injection around every request.
//!
//! The accept loop is hand-written (rather than `axum::serve`) so a fault
//! can close a connection without any answer: when the router marks a
//! response with [`DropMarker`], the hyper service returns an error and
//! hyper closes the socket without writing a byte.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::State as AxState;
use axum::http::{HeaderValue, Request, StatusCode, header};
use axum::response::Response;
use bytes::Bytes;
use futures::StreamExt;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::TokioIo;
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio::sync::watch;

use crate::error::{self, ApiError, ErrStyle};
use crate::faults::{self, FaultConfig, FaultKind, Plan};
use crate::journal::{Journal, JournalEntry};
use crate::rules::Rules;
use crate::state::{Clock, Cx, Dataset, State, lock};
use crate::util::{self, Req, hash3, kind};
use crate::{Sim, SimConfig, SimError, Stats};

/// Shared by every request.
pub(crate) struct Inner {
    /// The dataset; replaced by a reset with a new seed or size, or an
    /// import.
    pub(crate) ds: Mutex<Arc<Dataset>>,
    pub(crate) api_key: String,
    pub(crate) cdn_secret: String,
    pub(crate) cdn_customer: String,
    pub(crate) clock: Clock,
    pub(crate) state: Mutex<State>,
    pub(crate) stats: Mutex<Stats>,
    pub(crate) faults: FaultConfig,
    pub(crate) fault_rng: Mutex<Pcg64Mcg>,
    pub(crate) corr: AtomicU64,
    /// Drawn at start, so correlation ids differ between runs (a sandbox
    /// restarted on the same state file does not repeat its ids).
    pub(crate) corr_nonce: u64,
    /// Per-operation fault rules.
    pub(crate) rules: Mutex<Rules>,
    /// The request journal.
    pub(crate) journal: Mutex<Journal>,
    /// Where the state is persisted, if anywhere.
    pub(crate) state_file: Option<std::path::PathBuf>,
    /// The change log: commits writes and saves them.
    pub(crate) log: crate::changelog::Log,
    /// Accepted distance of a CDN timestamp from the CDN clock, seconds.
    pub(crate) cdn_max_skew: i64,
    /// Check CDN timestamps against simulated time (else the wall clock).
    pub(crate) cdn_clock_sim: bool,
    /// The token the control API requires, if any.
    pub(crate) control_token: Option<String>,
    /// The script served instead of the interfaces, if any.
    pub(crate) replay: Option<Mutex<crate::replay::Replay>>,
}

impl Inner {
    /// The current dataset.
    pub(crate) fn dataset(&self) -> Arc<Dataset> {
        lock(&self.ds).clone()
    }

    /// A fresh state for `ds` (the generated dataset, nothing changed).
    pub(crate) fn fresh_state(&self, ds: &Dataset) -> State {
        let mut st = State::default();
        crate::v1::init(ds, &mut st);
        crate::cdn::init(ds, &self.cdn_customer, &mut st);
        st
    }

    /// A fresh correlation id for each error answer: unique within a run
    /// (a counter) and between runs (a nonce drawn at start).
    pub(crate) fn correlation_id(&self) -> String {
        let n = self.corr.fetch_add(1, Ordering::Relaxed);
        let seed = self.dataset().seed ^ self.corr_nonce;
        let h = hash3(seed, kind::JOB, n | (1 << 62));
        let g = hash3(seed, kind::JOB, n | (1 << 61));
        format!(
            "{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}",
            h >> 32,
            (h >> 16) & 0xffff,
            h & 0xfff,
            (g >> 48) & 0xfff,
            g & 0xffff_ffff_ffff
        )
    }
}

/// A number that differs between runs: the wall clock's nanoseconds and the
/// process id, hashed with the process's random hash keys.
fn start_nonce() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    h.write_u32(std::process::id());
    h.finish()
}

fn generated_secret(seed: u64, which: u64, len: usize) -> String {
    let mut r = util::rng(seed, kind::SECRET, which);
    util::hex_digits(&mut r, len)
}

pub(crate) async fn start(cfg: SimConfig) -> Result<Sim, SimError> {
    if !(cfg.time_scale.is_finite() && cfg.time_scale > 0.0) {
        return Err(SimError::Config(format!(
            "time_scale must be a positive number, got {}",
            cfg.time_scale
        )));
    }
    if !(0.0..=1.0).contains(&cfg.faults.rate) {
        return Err(SimError::Config(format!(
            "fault rate must be within 0.0–1.0, got {}",
            cfg.faults.rate
        )));
    }
    if cfg.faults.latency_ms > faults::MAX_LATENCY_MS {
        return Err(SimError::Config(format!(
            "latency: at most {} ms, got {}",
            faults::MAX_LATENCY_MS,
            cfg.faults.latency_ms
        )));
    }
    crate::check_size(cfg.size).map_err(SimError::Config)?;
    let control_token = match &cfg.control_token {
        Some(t) if t.trim().is_empty() || !t.bytes().all(|b| b.is_ascii_graphic()) => {
            return Err(SimError::Config(
                "control token: must be non-empty printable ASCII without spaces".into(),
            ));
        }
        Some(t) => Some(t.clone()),
        None if !cfg.host.is_loopback() => Some(util::hex_digits(
            &mut util::rng(start_nonce(), kind::SECRET, 9),
            32,
        )),
        None => None,
    };
    let tls = match &cfg.tls {
        Some(t) => Some(crate::tls::make(&t.names, t.dir.as_deref())?),
        None => None,
    };
    let ds = Dataset::new(cfg.seed, cfg.size);
    let cdn_customer = cfg
        .cdn_customer
        .clone()
        .unwrap_or_else(|| format!("{}", 100_000 + hash3(cfg.seed, kind::SECRET, 3) % 900_000));
    let clock = Clock::new(cfg.time_scale);
    let inner = Arc::new(Inner {
        api_key: cfg
            .api_key
            .clone()
            .unwrap_or_else(|| generated_secret(cfg.seed, 1, 40)),
        cdn_secret: cfg
            .cdn_secret
            .clone()
            .unwrap_or_else(|| generated_secret(cfg.seed, 2, 32)),
        cdn_customer,
        ds: Mutex::new(Arc::new(ds)),
        clock,
        state: Mutex::new(State::default()),
        stats: Mutex::new(Stats::default()),
        fault_rng: Mutex::new(Pcg64Mcg::seed_from_u64(hash3(cfg.seed, kind::FAULTS, 0))),
        faults: cfg.faults.clone(),
        corr: AtomicU64::new(0),
        corr_nonce: start_nonce(),
        rules: Mutex::new(Rules::default()),
        journal: Mutex::new(Journal::default()),
        state_file: cfg.state_file.clone(),
        log: crate::changelog::Log::new(cfg.state_file.clone()),
        cdn_max_skew: cfg.cdn_clock_skew_secs,
        cdn_clock_sim: cfg.cdn_clock_sim,
        control_token,
        replay: cfg
            .replay
            .clone()
            .map(|script| Mutex::new(crate::replay::Replay::new(script))),
    });
    match &cfg.state_file {
        Some(path) => {
            let loaded = crate::persist::load(&inner, path)?;
            inner
                .log
                .start(Arc::downgrade(&inner), loaded.log, loaded.snap_len);
        }
        None => {
            let ds = inner.dataset();
            let mut st = inner.fresh_state(&ds);
            crate::change::rebase(&mut st);
            *lock(&inner.state) = st;
        }
    }
    let bind_err = |source| SimError::Bind {
        host: cfg.host,
        port: cfg.port,
        source,
    };
    let listener = TcpListener::bind((cfg.host, cfg.port))
        .await
        .map_err(bind_err)?;
    let addr = listener.local_addr().map_err(bind_err)?;
    let (tx, rx) = watch::channel(false);
    let acceptor = tls.as_ref().map(|t| t.acceptor.clone());
    let task = tokio::spawn(serve(listener, acceptor, inner.clone(), rx));
    tracing::info!(%addr, tls = tls.is_some(), seed = cfg.seed, size = cfg.size, "simulator listening");
    Ok(Sim {
        inner,
        addr,
        ca: tls.map(|t| (t.ca_pem, t.ca_file)),
        stop: Some(tx),
        task: Some(task),
        thread: None,
    })
}

/// [`start`] on a thread of its own with a current-thread runtime, which
/// serves until the [`Sim`] is dropped.
pub(crate) fn start_blocking(cfg: SimConfig) -> Result<Sim, SimError> {
    let (tx, rx) = std::sync::mpsc::channel();
    let thread = std::thread::Builder::new()
        .name("hostapi-sim".into())
        .spawn(move || {
            let rt = match tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            {
                Ok(rt) => rt,
                Err(e) => {
                    let _ = tx.send(Err(SimError::Config(format!(
                        "cannot build a tokio runtime: {e}"
                    ))));
                    return;
                }
            };
            let mut sim = match rt.block_on(start(cfg)) {
                Ok(sim) => sim,
                Err(e) => {
                    let _ = tx.send(Err(e));
                    return;
                }
            };
            // The server task stays here; the caller's Sim stops it.
            let task = sim.task.take();
            if tx.send(Ok(sim)).is_err() {
                return;
            }
            if let Some(task) = task {
                let _ = rt.block_on(task);
            }
        })
        .map_err(|e| SimError::Config(format!("cannot start the simulator's thread: {e}")))?;
    match rx.recv() {
        Ok(Ok(mut sim)) => {
            sim.thread = Some(thread);
            Ok(sim)
        }
        Ok(Err(e)) => {
            let _ = thread.join();
            Err(e)
        }
        Err(_) => {
            let _ = thread.join();
            Err(SimError::Config(
                "the simulator's thread ended at start".into(),
            ))
        }
    }
}

async fn serve(
    listener: TcpListener,
    tls: Option<tokio_rustls::TlsAcceptor>,
    inner: Arc<Inner>,
    mut stop: watch::Receiver<bool>,
) {
    let router = Router::new().fallback(entry).with_state(inner.clone());
    let graceful = GracefulShutdown::new();
    loop {
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, peer)) => {
                    let _ = stream.set_nodelay(true);
                    let svc = SimService { svc: TowerToHyperService::new(router.clone()), peer };
                    let watcher = graceful.watcher();
                    let tls = tls.clone();
                    tokio::spawn(async move {
                        match tls {
                            None => {
                                let conn = http1::Builder::new()
                                    .serve_connection(TokioIo::new(stream), svc);
                                let _ = watcher.watch(conn).await;
                            }
                            Some(acceptor) => {
                                let handshake = tokio::time::timeout(
                                    Duration::from_secs(10),
                                    acceptor.accept(stream),
                                );
                                match handshake.await {
                                    Ok(Ok(stream)) => {
                                        let conn = http1::Builder::new()
                                            .serve_connection(TokioIo::new(stream), svc);
                                        let _ = watcher.watch(conn).await;
                                    }
                                    Ok(Err(e)) => tracing::debug!(error = %e, %peer, "TLS handshake failed"),
                                    Err(_) => tracing::debug!(%peer, "TLS handshake timed out"),
                                }
                            }
                        }
                    });
                }
                Err(e) => {
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
            },
            _ = stop.changed() => break,
        }
    }
    drop(listener);
    // Open requests get a short grace; a stopping simulator (SIGTERM in CI)
    // must not wait on a slow client or an injected latency.
    let grace = Duration::from_millis(crate::SHUTDOWN_GRACE_MS);
    if tokio::time::timeout(grace, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::info!(
            grace_ms = crate::SHUTDOWN_GRACE_MS,
            "requests still open at shutdown; closing their connections"
        );
    }
    // Save everything as a snapshot and stop the state file's writer.
    let _ = tokio::task::spawn_blocking(move || inner.log.close()).await;
    tracing::info!("simulator stopped");
}

/// Marks a response whose connection must be closed without an answer.
#[derive(Debug, Clone, Copy)]
struct DropMarker;

/// The error that makes hyper close a connection.
#[derive(Debug)]
struct Dropped;

impl std::fmt::Display for Dropped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("connection dropped by fault injection")
    }
}

impl std::error::Error for Dropped {}

#[derive(Clone)]
struct SimService {
    svc: TowerToHyperService<Router>,
    peer: std::net::SocketAddr,
}

/// The address a request came from.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Peer(pub(crate) std::net::SocketAddr);

impl hyper::service::Service<Request<Incoming>> for SimService {
    type Response = Response;
    type Error = Dropped;
    type Future = Pin<Box<dyn Future<Output = Result<Response, Dropped>> + Send>>;

    fn call(&self, mut req: Request<Incoming>) -> Self::Future {
        req.extensions_mut().insert(Peer(self.peer));
        let fut = self.svc.call(req);
        Box::pin(async move {
            let resp = match fut.await {
                Ok(r) => r,
                Err(never) => match never {},
            };
            if resp.extensions().get::<DropMarker>().is_some() {
                return Err(Dropped);
            }
            Ok(resp)
        })
    }
}

pub(crate) fn drop_response() -> Response {
    let mut r = Response::new(Body::empty());
    r.extensions_mut().insert(DropMarker);
    r
}

pub(crate) fn style_of(path: &str) -> ErrStyle {
    if path.starts_with("/cloud/") {
        ErrStyle::Cloud
    } else if path.starts_with("/cdn/") {
        ErrStyle::Cdn
    } else if path.starts_with("/v1/bareMetals") {
        ErrStyle::V1Integer
    } else {
        ErrStyle::V1String
    }
}

fn count(inner: &Inner, f: impl FnOnce(&mut Stats)) {
    f(&mut lock(&inner.stats));
}

async fn entry(AxState(inner): AxState<Arc<Inner>>, req: Request<Body>) -> Response {
    let (parts, body) = req.into_parts();
    let path = parts.uri.path().to_string();
    if path == "/_sim" || path.starts_with("/_sim/") {
        return crate::control::handle(&inner, parts, body).await;
    }
    if inner.replay.is_some() {
        return crate::replay::serve(&inner, &parts);
    }
    count(&inner, |s| s.requests += 1);
    let style = style_of(&path);
    let secrets = [inner.api_key.as_str(), inner.cdn_secret.as_str()];
    let (jpath, jquery) = crate::journal::redact(&path, parts.uri.query(), &secrets);
    let body = axum::body::to_bytes(body, crate::MAX_BODY_BYTES).await;
    let recorded = body
        .as_ref()
        .ok()
        .and_then(|b| crate::journal::record_request(b, content_type(&parts.headers), &secrets));
    // Journal a request of the operation `route` (`""` for none).
    let journal = |route: &str,
                   status: Option<u16>,
                   fault: Option<&str>,
                   answer: Option<crate::journal::RecordedBody>| {
        let op = crate::operations::by_route(route);
        lock(&inner.journal).push(JournalEntry {
            seq: 0,
            sim_time: inner.clock.now(),
            method: parts.method.to_string(),
            path: jpath.clone(),
            query: jquery.clone(),
            operation: op.map_or("", |o| o.operation_id).to_string(),
            api: op.map_or("", |o| o.api).to_string(),
            route: route.to_string(),
            status,
            fault: fault.map(str::to_string),
            request: recorded.clone(),
            answer,
        });
    };

    let body = match body {
        Ok(b) => b,
        Err(_) => {
            let e = ApiError {
                status: StatusCode::PAYLOAD_TOO_LARGE,
                message: format!(
                    "the request body is larger than {} KiB, or unreadable",
                    crate::MAX_BODY_BYTES >> 10
                ),
                field: None,
            };
            let (r, answer) = recorded_answer(
                error::response(style, &e, &inner.correlation_id(), ""),
                &secrets,
            )
            .await;
            journal("", Some(413), None, answer);
            return r;
        }
    };
    let segs = path
        .split('/')
        .filter(|s| !s.is_empty())
        .map(|s| {
            percent_encoding::percent_decode_str(s)
                .decode_utf8_lossy()
                .into_owned()
        })
        .collect();
    let query = parts
        .uri
        .query()
        .map(|q| {
            form_urlencoded::parse(q.as_bytes())
                .map(|(k, v)| (k.into_owned(), v.into_owned()))
                .collect()
        })
        .unwrap_or_default();
    let req = Req {
        method: parts.method.clone(),
        segs,
        raw_path: path.clone(),
        query,
        headers: parts.headers.clone(),
        body,
    };
    let ds = inner.dataset();
    // Name the operation first: fault rules are per operation.
    let named = {
        let cx = Cx::new(&inner, ds.clone(), true, inner.clock.now());
        crate::router::dispatch(&cx, &req);
        cx.op.get()
    };

    let plan: Plan = match parts.headers.get("x-sim-fault") {
        Some(v) => match faults::parse_header(v.to_str().unwrap_or("\u{fffd}"), &inner.faults) {
            Ok(p) => p,
            Err(msg) => {
                let e = ApiError::bad_field("X-Sim-Fault", &msg);
                let r = error::response(style, &e, &inner.correlation_id(), "fault");
                let (r, answer) = recorded_answer(r, &secrets).await;
                count(&inner, |s| *s.statuses.entry(400).or_default() += 1);
                journal(named, Some(400), None, answer);
                return r;
            }
        },
        None => {
            let base = faults::draw(&mut lock(&inner.fault_rng), &inner.faults);
            lock(&inner.rules)
                .decide(ds.seed, named, &base)
                .unwrap_or(base)
        }
    };
    if plan.latency_ms > 0 {
        count(&inner, |s| {
            *s.faults.entry("latency".into()).or_default() += 1
        });
        tokio::time::sleep(Duration::from_millis(plan.latency_ms)).await;
    }
    let fault_name = |k: FaultKind| -> String {
        match plan.status {
            Some(s) if k.before_handling() && k != FaultKind::DropBefore => s.to_string(),
            _ => k.name().to_string(),
        }
    };
    let latency_only = (plan.latency_ms > 0 && plan.kind.is_none()).then_some("latency");
    if let Some(k) = plan.kind {
        count(&inner, |s| {
            *s.faults.entry(k.name().into()).or_default() += 1
        });
        tracing::debug!(fault = k.name(), %path, "injecting fault");
        if k.before_handling() {
            let r = status_fault(&inner, k, &plan, style);
            let status = (k != FaultKind::DropBefore).then(|| r.status().as_u16());
            if let Some(code) = status {
                count(&inner, |s| *s.statuses.entry(code).or_default() += 1);
            }
            let (r, answer) = match status {
                Some(_) => recorded_answer(r, &secrets).await,
                None => (r, None),
            };
            journal(named, status, Some(&fault_name(k)), answer);
            return r;
        }
    }

    let (resp, op, commit, seen) = {
        let cx = Cx::new(&inner, ds, false, inner.clock.now());
        let resp = crate::router::dispatch(&cx, &req);
        (resp, cx.op.get(), cx.commit.take(), cx.seen.get())
    };
    tracing::debug!(method = %req.method, path = %req.raw_path, status = resp.status().as_u16(), op, "request");
    if !op.is_empty() {
        count(&inner, |s| {
            *s.operations.entry(op.to_string()).or_default() += 1
        });
    }
    // Answer only what is saved: a write once its change is on disk, a
    // read once every write it saw is.
    if let Err(unsaved) = inner.log.settle(commit, seen).await {
        let e = match unsaved {
            crate::changelog::Unsaved::Refused(msg) => ApiError::conflict(msg),
            crate::changelog::Unsaved::Failed(msg) => {
                ApiError::new(StatusCode::SERVICE_UNAVAILABLE, msg)
            }
        };
        let r = error::response(style, &e, &inner.correlation_id(), op);
        let code = r.status().as_u16();
        count(&inner, |s| *s.statuses.entry(code).or_default() += 1);
        let (r, answer) = recorded_answer(r, &secrets).await;
        journal(op, Some(code), None, answer);
        return r;
    }
    let status = resp.status().as_u16();
    let (resp, answer) = recorded_answer(resp, &secrets).await;
    let resp = match plan.kind {
        Some(FaultKind::DropAfter) => {
            journal(op, None, Some("drop-after"), answer);
            return drop_response();
        }
        Some(FaultKind::Truncate) => truncate(resp).await,
        Some(FaultKind::Malformed) => malform(resp).await,
        _ => resp,
    };
    count(&inner, |s| {
        *s.statuses.entry(resp.status().as_u16()).or_default() += 1
    });
    let fault = plan.kind.map(fault_name);
    journal(op, Some(status), fault.as_deref().or(latency_only), answer);
    resp
}

fn content_type(headers: &axum::http::HeaderMap) -> Option<&str> {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
}

/// The answer, and its body as the journal records it. Answers are built
/// whole in memory, so reading the body back costs no copy.
async fn recorded_answer(
    resp: Response,
    secrets: &[&str],
) -> (Response, Option<crate::journal::RecordedBody>) {
    let (parts, bytes) = take_body(resp).await;
    let rec = crate::journal::record_answer(&bytes, content_type(&parts.headers), secrets);
    (Response::from_parts(parts, Body::from(bytes)), rec)
}

fn status_fault(inner: &Inner, k: FaultKind, plan: &Plan, style: ErrStyle) -> Response {
    let corr = inner.correlation_id();
    match k {
        FaultKind::DropBefore => drop_response(),
        FaultKind::BadGateway if plan.status.is_none_or(|s| s == 502) => {
            let mut r = Response::new(Body::from(
                "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n",
            ));
            *r.status_mut() = StatusCode::BAD_GATEWAY;
            r.headers_mut()
                .insert(header::CONTENT_TYPE, HeaderValue::from_static("text/html"));
            r
        }
        _ => {
            let (status, msg) = match (k, plan.status) {
                (_, Some(s)) => (
                    StatusCode::from_u16(s).unwrap_or(StatusCode::SERVICE_UNAVAILABLE),
                    "Injected fault",
                ),
                (FaultKind::TooManyRequests, None) => {
                    (StatusCode::TOO_MANY_REQUESTS, "Rate limit exceeded")
                }
                (FaultKind::ServiceUnavailable, None) => (
                    StatusCode::SERVICE_UNAVAILABLE,
                    "Service temporarily unavailable",
                ),
                _ => (StatusCode::INTERNAL_SERVER_ERROR, "Internal server error"),
            };
            let e = ApiError {
                status,
                message: msg.into(),
                field: None,
            };
            let mut r = error::response(style, &e, &corr, "");
            if (k == FaultKind::TooManyRequests || plan.send_retry_after)
                && let Ok(v) = HeaderValue::from_str(&plan.retry_after.to_string())
            {
                r.headers_mut().insert(header::RETRY_AFTER, v);
            }
            r
        }
    }
}

async fn take_body(resp: Response) -> (axum::http::response::Parts, Bytes) {
    let (parts, body) = resp.into_parts();
    let bytes = axum::body::to_bytes(body, usize::MAX)
        .await
        .unwrap_or_default();
    (parts, bytes)
}

/// Announce the full length, send half, then fail the body: hyper aborts
/// the connection and the client sees an incomplete body.
async fn truncate(resp: Response) -> Response {
    let (mut parts, bytes) = take_body(resp).await;
    if parts.status == StatusCode::NO_CONTENT || parts.status == StatusCode::NOT_MODIFIED {
        parts.status = StatusCode::OK;
    }
    let declared = bytes.len().max(32);
    let half = bytes.slice(..bytes.len() / 2);
    // The error comes after a pause, so hyper flushes the head and the
    // first half before it aborts the connection.
    let stream = futures::stream::iter(vec![Ok::<Bytes, std::io::Error>(half)]).chain(
        futures::stream::once(async {
            tokio::time::sleep(Duration::from_millis(20)).await;
            Err(std::io::Error::other("truncated by fault injection"))
        }),
    );
    parts
        .headers
        .insert(header::CONTENT_LENGTH, HeaderValue::from(declared as u64));
    Response::from_parts(parts, Body::from_stream(stream))
}

/// A complete answer whose body is not valid JSON.
async fn malform(resp: Response) -> Response {
    let (mut parts, bytes) = take_body(resp).await;
    if parts.status == StatusCode::NO_CONTENT || parts.status == StatusCode::NOT_MODIFIED {
        parts.status = StatusCode::OK;
    }
    let mut out = b"{\"".to_vec();
    out.extend_from_slice(&bytes[..bytes.len() / 2]);
    out.extend_from_slice(b"\x00<!-- malformed -->");
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    Response::from_parts(parts, Body::from(out))
}

/// Everything mutable, evaluated at the current simulated time.
pub(crate) fn snapshot(inner: &Inner) -> Value {
    let now = inner.clock.now();
    let ds = inner.dataset();
    let st = lock(&inner.state);
    json!({
        "simTime": now,
        "v1": crate::v1::snapshot(&ds, &st, now),
        "cloud": crate::cloud::snapshot(&ds, &st, now),
        "cdn": crate::cdn::snapshot(&ds, &st, now),
        "writes": serde_json::to_value(&st.writes).unwrap_or(Value::Null),
    })
}
