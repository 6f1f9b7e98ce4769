//! `hostapi-sim`: run the simulator stand-alone. Prints one JSON line with
//! the base URLs and credentials on stdout (and, when they apply, the
//! certificate authority's file and the control token), then serves until
//! Ctrl-C (or SIGTERM). Logs go to stderr (`RUST_LOG` filters them;
//! default `info`). docs/simulator.md is the user's guide.

use std::io::Write;

use clap::Parser;
use hostapi_sim::{FaultConfig, Sim, SimConfig, TlsConfig};
use tracing_subscriber::filter::Targets;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

const CONTROL_HELP: &str = "\
Control API (JSON, under the base URL; loopback clients only, or with
--host other than loopback, or --control-token, whoever sends
Authorization: Bearer TOKEN). Operations are named by operationId
(listDomains, cloud.listVirtualServers) or METHOD /path (GET /v1/domains):
  GET    /_sim/health           status, seed, size, simulated time
  POST   /_sim/reset            fresh data; optional {\"seed\": N, \"size\": N}
  GET    /_sim/state            export everything (the --state file format)
  PUT    /_sim/state            import an exported state
  GET    /_sim/clock            simulated and wall time
  POST   /_sim/clock/advance    {\"seconds\": N}: pending transitions complete
  GET    /_sim/faults           the fault rules, and every operation's names
  POST   /_sim/faults           add a rule (or an array of rules), e.g.
      {\"operation\": \"installBareMetal\",
       \"fault\": \"status\", \"status\": 503, \"retry_after\": 2, \"times\": 2}
      faults: status, latency (latency_ms), drop-before, drop-after,
      truncate, malformed; times and probability count per operation,
      decided by the seed
  DELETE /_sim/faults[/ID]      remove every rule (or one)
  GET    /_sim/requests         the journal (newest 1000, with bodies, secrets
                                redacted); ?operation=OP filters,
                                ?format=ndjson exports (for --replay)
  DELETE /_sim/requests         clear the journal
  GET    /_sim/replay           with --replay: how far the script went

docs/simulator.md has examples of every endpoint and how to run the
simulator in CI.";

/// A stateful fake server of the infra v1, cloud v2 and CDN interfaces.
#[derive(Debug, Parser)]
#[command(name = "hostapi-sim", version, about, after_help = CONTROL_HELP)]
struct Args {
    /// Address to bind. Any address but loopback (0.0.0.0 in a container)
    /// is reachable from other hosts: a warning is printed and the control
    /// API then requires a token (--control-token, or one generated and
    /// printed).
    #[arg(long, default_value = "127.0.0.1", value_name = "ADDR")]
    host: std::net::IpAddr,
    /// Port to bind (0 = any free port).
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// The token the control API requires (Authorization: Bearer TOKEN).
    /// Given, it is required on loopback too.
    #[arg(
        long,
        env = "HOSTAPI_SIM_CONTROL_TOKEN",
        hide_env_values = true,
        value_name = "TOKEN"
    )]
    control_token: Option<String>,
    /// Serve https: a certificate authority is made at start, its
    /// certificate written to DIR/ca.pem (printed as `ca_file`) for clients
    /// to trust (hostapi --ca-file, HOSTAPI_CA_FILE).
    #[arg(long)]
    tls: bool,
    /// A name the certificate covers besides localhost, 127.0.0.1 and ::1,
    /// e.g. the service name in docker-compose (repeat for several).
    #[arg(long, value_name = "NAME", requires = "tls")]
    tls_name: Vec<String>,
    /// Where --tls writes ca.pem (default: a new temporary directory).
    #[arg(long, value_name = "DIR", requires = "tls")]
    tls_dir: Option<std::path::PathBuf>,
    /// Serve a recorded journal (NDJSON, from GET
    /// /_sim/requests?format=ndjson) back in order instead of simulating:
    /// each request must match the next entry's method and path.
    #[arg(long, value_name = "FILE", conflicts_with = "state")]
    replay: Option<std::path::PathBuf>,
    /// Seed of the dataset and of random faults. Ids and names do not depend
    /// on it; values do, and so does which documented spelling each field of
    /// each record is sent in (string or number, array or object, …): run
    /// several seeds to meet them all.
    #[arg(long, env = "HOSTAPI_SIM_SEED", default_value_t = 0)]
    seed: u64,
    /// Size knob: N cloud servers, N/10 v1 virtual servers, N/100 bare
    /// metals (0 = default, 40).
    #[arg(long, default_value_t = 0)]
    size: usize,
    /// API key expected in X-Svc-Auth (generated from the seed if absent).
    #[arg(long, env = "HOSTAPI_SIM_API_KEY", hide_env_values = true)]
    api_key: Option<String>,
    /// CDN signing secret (generated from the seed if absent).
    #[arg(long, env = "HOSTAPI_SIM_CDN_SECRET", hide_env_values = true)]
    cdn_secret: Option<String>,
    /// CDN customer number (generated from the seed if absent).
    #[arg(long, env = "HOSTAPI_SIM_CDN_CUSTOMER")]
    cdn_customer: Option<String>,
    /// Simulated seconds per real second.
    #[arg(long, default_value_t = 1.0)]
    time_scale: f64,
    /// Probability (0.0–1.0) of a random fault per request, all kinds equally
    /// weighted.
    #[arg(long, default_value_t = 0.0)]
    fault_rate: f64,
    /// Latency added to every request, in milliseconds (at most 60000).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(..=hostapi_sim::MAX_LATENCY_MS))]
    latency_ms: u64,
    /// Keep the state in FILE and its change log FILE.log (mode 0600):
    /// loaded at start when it exists; every write is on disk before it is
    /// answered, so a crash loses nothing that was answered. Simulated time
    /// goes on while the simulator is stopped (wall time x time scale), so
    /// pending transitions complete as they would have.
    #[arg(long, value_name = "FILE")]
    state: Option<std::path::PathBuf>,
    /// Largest accepted distance, in seconds, between a CDN timestamp and
    /// the CDN clock.
    #[arg(long, default_value_t = hostapi_sim::CDN_MAX_SKEW_SECS, value_parser = clap::value_parser!(i64).range(0..))]
    cdn_clock_skew: i64,
    /// The clock CDN timestamps are checked against: `wall` (the real
    /// clock) or `sim` (simulated time, for clients with an injected clock).
    #[arg(long, default_value = "wall", value_parser = ["wall", "sim"])]
    cdn_clock: String,
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    // `target=level` directives from RUST_LOG (no EnvFilter: it builds a regex engine).
    let filter: Targets = std::env::var("RUST_LOG")
        .ok()
        .and_then(|directives| directives.parse().ok())
        .unwrap_or_else(|| Targets::new().with_default(tracing::Level::INFO));
    tracing_subscriber::registry()
        .with(tracing_subscriber::fmt::layer().with_writer(std::io::stderr))
        .with(filter)
        .init();
    let args = Args::parse();
    let replay = match &args.replay {
        None => None,
        Some(path) => match std::fs::read_to_string(path)
            .map_err(|e| e.to_string())
            .and_then(|text| hostapi_sim::read_script(&text))
        {
            Ok(script) => Some(script),
            Err(e) => {
                eprintln!("hostapi-sim: --replay {}: {e}", path.display());
                return std::process::ExitCode::from(2);
            }
        },
    };
    if !args.host.is_loopback() {
        eprintln!(
            "hostapi-sim: warning: listening on {}, reachable from other hosts; the control \
             API (/_sim/*) requires its token",
            args.host
        );
    }
    let config = SimConfig {
        host: args.host,
        port: args.port,
        control_token: args.control_token,
        tls: args.tls.then_some(TlsConfig {
            names: args.tls_name,
            dir: args.tls_dir,
        }),
        replay,
        seed: args.seed,
        size: args.size,
        api_key: args.api_key,
        cdn_secret: args.cdn_secret,
        cdn_customer: args.cdn_customer,
        time_scale: args.time_scale,
        faults: FaultConfig {
            rate: args.fault_rate,
            latency_ms: args.latency_ms,
            ..FaultConfig::default()
        },
        state_file: args.state,
        cdn_clock_skew_secs: args.cdn_clock_skew,
        cdn_clock_sim: args.cdn_clock == "sim",
    };
    let sim = match Sim::start(config).await {
        Ok(s) => s,
        Err(e) => {
            eprintln!("hostapi-sim: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let mut line = serde_json::json!({
        "base_url": sim.base_url(),
        "cdn_base_url": sim.cdn_base_url(),
        "api_key": sim.api_key(),
        "cdn_secret": sim.cdn_secret(),
        "cdn_customer": sim.cdn_customer(),
    });
    if let Some(ca) = sim.ca_file() {
        line["ca_file"] = ca.display().to_string().into();
        eprintln!("hostapi-sim: https; clients trust {}", ca.display());
    }
    if let Some(token) = sim.control_token() {
        line["control_token"] = token.into();
    }
    {
        let mut out = std::io::stdout().lock();
        if writeln!(out, "{line}").and_then(|()| out.flush()).is_err() {
            return std::process::ExitCode::FAILURE;
        }
    }
    wait_for_signal().await;
    tracing::info!("signal received: shutting down");
    sim.shutdown().await;
    std::process::ExitCode::SUCCESS
}

/// Ctrl-C (SIGINT), or SIGTERM on Unix.
async fn wait_for_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                r = tokio::signal::ctrl_c() => {
                    if let Err(e) = r {
                        eprintln!("hostapi-sim: cannot wait for Ctrl-C: {e}");
                    }
                }
                _ = term.recv() => {}
            }
            return;
        }
    }
    if let Err(e) = tokio::signal::ctrl_c().await {
        eprintln!("hostapi-sim: cannot wait for Ctrl-C: {e}");
    }
}
