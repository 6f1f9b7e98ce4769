//! `hostapi`: the command line for the hosting provider's v1 infrastructure, cloud v2 and
//! CDN APIs, built on the `hostapi` crate. `--sandbox` runs any command against an
//! embedded simulator, no account needed.

mod app;
mod chart;
mod cli;
mod commands;
mod config;
mod confirm;
mod failure;
mod output;
mod progress;
mod sandbox;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = match cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            // --help and --version are "errors" to clap; they print and exit 0.
            let _ = error.print();
            return ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(failure::USAGE));
        }
    };
    init_logging(cli.global.verbose);
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("error: cannot start the async runtime: {error}");
            return ExitCode::from(failure::API);
        }
    };
    match runtime.block_on(app::run(cli)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            failure.print();
            ExitCode::from(failure.code)
        }
    }
}

/// Logs go to stderr, never stdout: `-v` shows each call, `-vv` everything the SDK
/// logs; `RUST_LOG` overrides.
fn init_logging(verbose: u8) {
    let default = match verbose {
        0 => "warn",
        1 => "warn,hostapi=debug",
        _ => "debug",
    };
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_target(false)
        .try_init();
}
