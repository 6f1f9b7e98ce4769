//! `hostapi sandbox reset|status|serve`: the remembering sandbox's state.

use clap::Subcommand;
use serde_json::{Value, json};

use crate::cli::{GlobalArgs, OutputFormat};
use crate::failure::{API, Failure};
use crate::sandbox;

/// What to do with the sandbox.
#[derive(Debug, Clone, Subcommand)]
pub(crate) enum SandboxCommand {
    /// Forget every change: the next `--sandbox` command starts from the
    /// generated data.
    #[command(after_help = "Example:\n  hostapi sandbox reset")]
    Reset,
    /// Where the state file is, the seed, the simulated time and the writes so far.
    #[command(
        after_help = "Examples:\n  hostapi sandbox status\n  hostapi sandbox status --output json"
    )]
    Status,
    /// Run the sandbox in the foreground for other tools, printing its URLs and
    /// credentials, until Ctrl-C (or --stop-after). Other `--sandbox` commands wait
    /// meanwhile (at most 30 s).
    #[command(
        after_help = "Examples:\n  hostapi sandbox serve --stop-after 1\n  hostapi sandbox serve --port 0 --stop-after 1 --output json"
    )]
    Serve {
        /// Port on 127.0.0.1 (0 = any free port).
        #[arg(long, default_value_t = 0)]
        port: u16,
        /// Stop after this many seconds (for a CI job); default: until Ctrl-C.
        #[arg(long, value_name = "SECS")]
        stop_after: Option<u64>,
    },
}

fn print(global: &GlobalArgs, v: &Value, text: String) -> Result<(), Failure> {
    let out = if global.output == Some(OutputFormat::Json) {
        serde_json::to_string_pretty(v).unwrap_or_default()
    } else {
        text
    };
    crate::output::emit_bytes(format!("{out}\n").as_bytes())
}

pub(crate) async fn run(global: &GlobalArgs, command: SandboxCommand) -> Result<(), Failure> {
    let file = sandbox::state_file()?;
    let shown = file.as_ref().map_or_else(
        || format!("none ({} is `none`: fresh every run)", sandbox::STATE_ENV),
        |f| f.display().to_string(),
    );
    match (command, file) {
        (SandboxCommand::Reset | SandboxCommand::Status, None) => {
            let v = json!({"stateFile": null});
            print(global, &v, format!("state file: {shown}"))
        }
        (SandboxCommand::Reset, Some(file)) => {
            let _lock = sandbox::lock(&file)?;
            match std::fs::remove_file(&file) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => {
                    return Err(Failure::new(
                        API,
                        format!("cannot remove {}: {e}", file.display()),
                    ));
                }
            }
            let v = json!({"stateFile": file.display().to_string(), "reset": true});
            print(global, &v, format!("sandbox reset: {}", file.display()))
        }
        (SandboxCommand::Status, Some(file)) => {
            let _lock = sandbox::lock(&file)?;
            let doc: Option<Value> = match std::fs::read(&file) {
                Ok(bytes) => Some(serde_json::from_slice(&bytes).map_err(|e| {
                    Failure::new(API, format!("{} is not a state file: {e}", file.display()))
                        .hint("`hostapi sandbox reset` starts it afresh")
                })?),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
                Err(e) => {
                    return Err(Failure::new(
                        API,
                        format!("cannot read {}: {e}", file.display()),
                    ));
                }
            };
            let seed = doc
                .as_ref()
                .and_then(|d| d["seed"].as_u64())
                .unwrap_or(sandbox::SEED);
            let sim_time = doc.as_ref().and_then(|d| d["simTime"].as_f64());
            let writes = doc
                .as_ref()
                .and_then(|d| d["state"]["write_seq"].as_u64())
                .unwrap_or(0);
            let when = sim_time
                .and_then(|t| chrono::DateTime::from_timestamp(t as i64, 0))
                .map(|t| t.format("%Y-%m-%d %H:%M:%S UTC").to_string());
            let v = json!({
                "stateFile": file.display().to_string(),
                "exists": doc.is_some(),
                "seed": seed,
                "simTime": sim_time,
                "writes": writes,
            });
            let text = format!(
                "state file:     {}{}\nseed:           {seed}\nsimulated time: {}\nwrites:         {writes}",
                file.display(),
                if doc.is_some() {
                    ""
                } else {
                    " (not yet written: fresh data)"
                },
                when.as_deref().unwrap_or("starts at the real time")
            );
            print(global, &v, text)
        }
        (SandboxCommand::Serve { port, stop_after }, _) => {
            let sb = sandbox::start_sim(global.sandbox_time_scale, true, port).await?;
            let sim = &sb.sim;
            let v = json!({
                "base_url": sim.base_url(),
                "cdn_base_url": sim.cdn_base_url(),
                "control_url": sim.control_url(),
                "api_key": sim.api_key(),
                "cdn_secret": sim.cdn_secret(),
                "cdn_customer": sim.cdn_customer(),
                "state_file": sb.state_file.as_ref().map(|f| f.display().to_string()),
            });
            let text = format!(
                "sandbox serving (Ctrl-C stops it)\nbase URL:      {}\nCDN base URL:  {}\ncontrol API:   {}\nAPI key:       {}\nCDN secret:    {}\nCDN customer:  {}\nstate file:    {}",
                sim.base_url(),
                sim.cdn_base_url(),
                sim.control_url(),
                sim.api_key(),
                sim.cdn_secret(),
                sim.cdn_customer(),
                shown
            );
            print(global, &v, text)?;
            match stop_after {
                Some(secs) => tokio::time::sleep(std::time::Duration::from_secs(secs)).await,
                None => tokio::signal::ctrl_c()
                    .await
                    .map_err(|e| Failure::new(API, format!("cannot wait for Ctrl-C: {e}")))?,
            }
            sb.sim.shutdown().await;
            Ok(())
        }
    }
}
