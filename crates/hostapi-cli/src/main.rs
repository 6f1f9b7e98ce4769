//! `hostapi`: the command line for the hosting provider's v1 infrastructure, cloud v2 and
//! CDN APIs, built on the `hostapi` crate. `--sandbox` runs any command against an
//! embedded simulator, no account needed.

mod app;
mod chart;
mod cli;
mod commands;
mod completion;
mod config;
mod confirm;
mod failure;
mod outcome;
mod output;
mod progress;
mod query;
mod sandbox;
mod untrusted;

use std::process::ExitCode;

use clap::Parser;
use tracing_subscriber::filter::Targets;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

fn main() -> ExitCode {
    // On Tab the shell runs `COMPLETE=<shell> hostapi -- <line>`: answer and exit.
    completion::complete_if_asked();
    let cli = match cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            // --help and --version are "errors" to clap; they print and exit 0.
            let _ = error.print();
            return ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(failure::USAGE));
        }
    };
    init_logging(cli.global.verbose);
    failure::set_verbose(cli.global.verbose > 0);
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
    // `target=level` directives (as in RUST_LOG) without EnvFilter's span and regex
    // filters, which would build the regex engine into the binary for nothing.
    let filter: Targets = std::env::var("RUST_LOG")
        .ok()
        .and_then(|directives| directives.parse().ok())
        .unwrap_or_else(|| default.parse().unwrap_or_default());
    let _ = tracing_subscriber::registry()
        .with(
            tracing_subscriber::fmt::layer()
                .with_writer(std::io::stderr)
                .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
                .with_target(false),
        )
        .with(filter)
        .try_init();
}
