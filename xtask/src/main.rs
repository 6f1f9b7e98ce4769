//! Maintainer tasks for the hostapi workspace, run as `cargo xtask <task>`.

mod api;
mod bench;
mod codegen;
mod schema;
mod spec_check;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(about = "Maintainer tasks for the hostapi workspace")]
struct Args {
    #[command(subcommand)]
    task: Task,
}

#[derive(Subcommand)]
enum Task {
    /// Regenerate everything committed that derives from `spec/`, after validating
    /// the specs.
    Codegen {
        /// Change nothing; fail and name the files that are stale.
        #[arg(long)]
        check: bool,
    },
    /// Check that every spec is strict OpenAPI 3.0.3: the version, and no member
    /// OpenAPI 3.0.3 does not define at its place (beside `codegen`'s validation).
    SpecCheck,
    /// List the public API of `hostapi` and `hostapi-sync`, with signatures (from
    /// rustdoc JSON), in `docs/public-api.txt` and `docs/public-api-sync.txt`, so that a
    /// change to either shows in review.
    Api {
        /// Change nothing; fail and show the lines that differ.
        #[arg(long)]
        check: bool,
    },
    /// Run the benchmarks (release build) and print the table of ratios, each against
    /// its floor measured in the same run; the last line is the worst ratio against its
    /// target. Fails when one misses.
    Bench {
        /// Fewer samples: the same table in under a minute (after the build).
        #[arg(long)]
        quick: bool,
        /// Only the benchmarks whose name contains this (criterion's filter).
        filter: Option<String>,
    },
}

fn main() -> ExitCode {
    let args = Args::parse();
    let root = workspace_root();
    let outcome = match args.task {
        Task::Codegen { check } => codegen::run(&root, check),
        Task::SpecCheck => spec_check::run(&root),
        Task::Api { check } => api::run(&root, check),
        Task::Bench { quick, filter } => bench::run(&root, quick, filter.as_deref()),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives one level below the workspace root")
        .to_owned()
}
