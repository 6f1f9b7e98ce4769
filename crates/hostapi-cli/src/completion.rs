//! Shell completion that knows the account: ids of servers and domains, profile names
//! and the values of open sets, computed when the user presses Tab.
//!
//! clap_complete's dynamic completion: the script `hostapi completions SHELL` prints
//! only registers the binary with the shell; on Tab the shell runs
//! `COMPLETE=SHELL hostapi -- <the line so far>`, and [`complete_if_asked`] answers
//! with the candidates and exits. Candidates for ids come from the configured account
//! (flags are not seen at that point: the environment and the config file are), read
//! with a short deadline so a slow or unreachable service never hangs the shell.

use std::time::Duration;

use clap::{CommandFactory, Parser};
use clap_complete::CompletionCandidate;
use clap_complete::env::{Bash, Elvish, EnvCompleter, Fish, Powershell, Zsh};

use crate::cli::{Cli, GlobalArgs};

/// The variable the shell sets to ask for completions.
const VAR: &str = "COMPLETE";
/// How long a completion may wait for the service.
const DEADLINE: Duration = Duration::from_secs(3);

/// When the shell is asking for completions (`COMPLETE` is set), prints them and exits;
/// otherwise returns at once.
pub(crate) fn complete_if_asked() {
    clap_complete::CompleteEnv::with_factory(Cli::command)
        .var(VAR)
        .complete();
}

/// The script that registers `hostapi` with `shell` for dynamic completion.
pub(crate) fn registration(shell: clap_complete::Shell) -> Vec<u8> {
    let completer: &dyn EnvCompleter = match shell {
        clap_complete::Shell::Bash => &Bash,
        clap_complete::Shell::Zsh => &Zsh,
        clap_complete::Shell::Fish => &Fish,
        clap_complete::Shell::Elvish => &Elvish,
        clap_complete::Shell::PowerShell => &Powershell,
        // A shell clap_complete adds later: fall back to bash's script.
        _ => &Bash,
    };
    let mut script = Vec::new();
    // Writing into a Vec cannot fail.
    let _ = completer.write_registration(VAR, "hostapi", "hostapi", "hostapi", &mut script);
    script
}

/// The profiles of the config file (`--profile`, `config use`).
pub(crate) fn profiles() -> Vec<CompletionCandidate> {
    let Some(global) = global_args() else {
        return Vec::new();
    };
    let Ok(path) = crate::config::path(&global) else {
        return Vec::new();
    };
    let Ok(file) = crate::config::load(&path) else {
        return Vec::new();
    };
    file.profiles.keys().map(CompletionCandidate::new).collect()
}

/// DNS record types, as the documents name them.
pub(crate) fn record_types() -> Vec<CompletionCandidate> {
    hostapi::DnsRecordType::KNOWN
        .iter()
        .map(|name| CompletionCandidate::new(name.to_ascii_uppercase()))
        .collect()
}

/// Bare metal server ids, with their names.
pub(crate) fn bare_metal_ids() -> Vec<CompletionCandidate> {
    listed(|client| async move {
        let servers = client.bare_metals().list().await?;
        Ok(servers
            .iter()
            .map(|s| candidate(s.id.as_str(), s.name.as_deref()))
            .collect())
    })
}

/// v1 virtual server ids, with their names.
pub(crate) fn virtual_server_ids() -> Vec<CompletionCandidate> {
    listed(|client| async move {
        let servers = client.virtual_servers().list().await?;
        Ok(servers
            .iter()
            .map(|s| candidate(s.id.as_str(), s.name.as_deref()))
            .collect())
    })
}

/// Cloud server ids, with their references.
pub(crate) fn cloud_server_ids() -> Vec<CompletionCandidate> {
    listed(|client| async move {
        let servers = client.cloud_servers().list().await?;
        Ok(servers
            .iter()
            .map(|s| candidate(s.id.as_str(), s.reference.as_deref()))
            .collect())
    })
}

/// Domain names.
pub(crate) fn domain_names() -> Vec<CompletionCandidate> {
    listed(|client| async move {
        let domains = client.domains().list().await?;
        Ok(domains
            .iter()
            .map(|d| candidate(d.name.as_str(), None))
            .collect())
    })
}

fn candidate(value: &str, help: Option<&str>) -> CompletionCandidate {
    let candidate = CompletionCandidate::new(value);
    match help {
        Some(help) => candidate.help(Some(help.to_owned().into())),
        None => candidate,
    }
}

/// The settings completion can see: the environment and the config file (the line's
/// flags are not parsed while completing it).
fn global_args() -> Option<GlobalArgs> {
    #[derive(Parser)]
    struct OnlyGlobal {
        #[command(flatten)]
        global: GlobalArgs,
    }
    OnlyGlobal::try_parse_from(["hostapi"])
        .ok()
        .map(|only| only.global)
}

/// Runs `list` against the configured account within [`DEADLINE`]; nothing when the
/// settings are incomplete, the service fails or the deadline passes.
fn listed<F, Fut>(list: F) -> Vec<CompletionCandidate>
where
    F: FnOnce(hostapi::Client) -> Fut,
    Fut: Future<Output = Result<Vec<CompletionCandidate>, hostapi::Error>>,
{
    let Some(global) = global_args() else {
        return Vec::new();
    };
    let Ok(client) = crate::app::client_from_settings(&global) else {
        return Vec::new();
    };
    let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    else {
        return Vec::new();
    };
    runtime
        .block_on(async { tokio::time::timeout(DEADLINE, list(client)).await })
        .ok()
        .and_then(Result::ok)
        .unwrap_or_default()
}
