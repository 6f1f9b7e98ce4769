//! Shell completion that knows the account: ids of servers and domains, profile names
//! and the values of open sets, computed when the user presses Tab.
//!
//! clap_complete's dynamic completion: the script `hostapi completions SHELL` prints
//! only registers the binary with the shell; on Tab the shell runs
//! `COMPLETE=SHELL hostapi -- <the line so far>`, and [`complete_if_asked`] answers
//! with the candidates and exits. Candidates for ids come from the configured account
//! (flags are not seen at that point: the environment and the config file are), read
//! with a short deadline so a slow or unreachable service never hangs the shell.
//!
//! What the service sends is not trusted: an id is offered only when the argument's
//! own parser accepts it (the SDK's id rule), and only when it needs no quoting in
//! any shell (a candidate is inserted into the command line as it is); a description
//! has its control characters shown escaped, so it cannot move the cursor or run
//! terminal commands.

use std::time::Duration;

use clap::{CommandFactory, Parser};
use clap_complete::CompletionCandidate;
use clap_complete::env::{Bash, Elvish, EnvCompleter, Fish, Powershell, Zsh};

use crate::cli::{Cli, GlobalArgs};
use crate::commands::{CliId, parse_id};

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
    file.profiles
        .keys()
        .filter(|name| shell_safe(name))
        .map(CompletionCandidate::new)
        .collect()
}

/// DNS record types, as the documents name them, but SOA (the command line never
/// writes one: the zone's SOA is the provider's).
pub(crate) fn record_types() -> Vec<CompletionCandidate> {
    hostapi::domains::DnsRecordType::KNOWN
        .iter()
        .filter(|name| !name.eq_ignore_ascii_case("soa"))
        .map(|name| CompletionCandidate::new(name.to_ascii_uppercase()))
        .collect()
}

/// Bare metal server ids, with their names.
pub(crate) fn bare_metal_ids() -> Vec<CompletionCandidate> {
    listed(|client| async move {
        let servers = client.bare_metals().list().await?;
        Ok(servers
            .iter()
            .filter_map(|s| {
                candidate::<hostapi::types::BareMetalId>(s.id.as_str(), s.name.as_deref())
            })
            .collect())
    })
}

/// v1 virtual server ids, with their names.
pub(crate) fn virtual_server_ids() -> Vec<CompletionCandidate> {
    listed(|client| async move {
        let servers = client.virtual_servers().list().await?;
        Ok(servers
            .iter()
            .filter_map(|s| {
                candidate::<hostapi::types::VirtualServerId>(s.id.as_str(), s.name.as_deref())
            })
            .collect())
    })
}

/// Cloud server ids, with their references.
pub(crate) fn cloud_server_ids() -> Vec<CompletionCandidate> {
    listed(|client| async move {
        let servers = client.cloud_servers().list().await?;
        Ok(servers
            .iter()
            .filter_map(|s| {
                candidate::<hostapi::types::CloudServerId>(s.id.as_str(), s.reference.as_deref())
            })
            .collect())
    })
}

/// Domain names.
pub(crate) fn domain_names() -> Vec<CompletionCandidate> {
    listed(|client| async move {
        let domains = client.domains().list().await?;
        Ok(domains
            .iter()
            .filter_map(|d| candidate::<hostapi::types::DomainName>(d.name.as_str(), None))
            .collect())
    })
}

/// A candidate for an argument of type `T`: offered only when the argument's parser
/// accepts `value` as it is and the shell would insert it as one plain word; its
/// description shown with control characters escaped.
fn candidate<T: CliId>(value: &str, help: Option<&str>) -> Option<CompletionCandidate> {
    if value.trim() != value || parse_id::<T>(value).is_err() || !shell_safe(value) {
        return None;
    }
    let candidate = CompletionCandidate::new(value);
    Some(match help {
        Some(help) => candidate.help(Some(described(help).into())),
        None => candidate,
    })
}

/// Whether every shell takes `value` as one word, as it is: letters, digits and
/// `.`, `_`, `-`, `:`, `@`, `+` (no quoting, expansion, globbing or separators), not
/// starting with `-` or `~`.
fn shell_safe(value: &str) -> bool {
    !value.is_empty()
        && !value.starts_with(['-', '~'])
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | ':' | '@' | '+'))
}

/// The longest description offered, in characters.
const MAX_DESCRIPTION: usize = 80;

/// A description as the shell shows it: one line, control characters (C0, C1, DEL)
/// and bidirectional overrides shown escaped (`\u{1b}`), at most
/// [`MAX_DESCRIPTION`] characters.
fn described(help: &str) -> String {
    let mut shown = String::new();
    for c in help.chars() {
        if shown.chars().count() >= MAX_DESCRIPTION {
            shown.push('…');
            break;
        }
        if c.is_control()
            || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
        {
            shown.extend(c.escape_unicode());
        } else {
            shown.push(c);
        }
    }
    shown
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_ids_the_parser_takes_are_offered() {
        for hostile in [
            "1000$(touch${IFS}pwned)",
            "1000\n",
            "10\n00",
            "..",
            " 1000",
            "1000;ls",
        ] {
            assert!(
                candidate::<hostapi::types::BareMetalId>(hostile, None).is_none(),
                "{hostile:?}"
            );
            assert!(
                candidate::<hostapi::types::CloudServerId>(hostile, None).is_none(),
                "{hostile:?}"
            );
        }
        assert!(candidate::<hostapi::types::BareMetalId>("20001", Some("web")).is_some());
        assert!(candidate::<hostapi::types::DomainName>("acme-1.com", None).is_some());
        assert!(!shell_safe("-rf"));
        assert!(!shell_safe("a b"));
        assert!(!shell_safe("$HOME"));
    }

    #[test]
    fn descriptions_show_control_characters_escaped() {
        let shown = described("web\u{1b}]0;owned\u{7}\r\u{202e}x\nnext");
        assert!(!shown.chars().any(char::is_control), "{shown:?}");
        assert!(!shown.contains('\u{202e}'), "{shown:?}");
        assert!(shown.contains("\\u{1b}"), "{shown:?}");
        assert!(described(&"x".repeat(500)).chars().count() <= MAX_DESCRIPTION + 1);
    }

    #[test]
    fn soa_is_not_offered() {
        let types: Vec<String> = record_types()
            .iter()
            .map(|c| c.get_value().to_string_lossy().into_owned())
            .collect();
        assert!(!types.iter().any(|t| t == "SOA"), "{types:?}");
        assert!(types.iter().any(|t| t == "MX"), "{types:?}");
    }
}
