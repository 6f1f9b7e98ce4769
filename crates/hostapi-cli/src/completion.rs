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

/// DNS record ids of the domain named on the line being completed (`dns get DOMAIN
/// <Tab>`), with their name, type and content; none until the domain is there.
pub(crate) fn dns_record_ids() -> Vec<CompletionCandidate> {
    let Some(domain) = domain_on_line(&line_words()) else {
        return Vec::new();
    };
    listed(|client| async move {
        let records = client.domains().records(&domain).list().await?;
        Ok(records
            .iter()
            .filter_map(|r| {
                let kind = r.record_type.as_ref().map(ToString::to_string);
                let help = format!(
                    "{} {} {}",
                    r.name,
                    kind.as_deref().unwrap_or("?"),
                    r.content
                );
                candidate::<hostapi::types::DnsRecordId>(r.id.as_str(), Some(&help))
            })
            .collect())
    })
}

/// CDN origin ids, with their labels.
pub(crate) fn origin_ids() -> Vec<CompletionCandidate> {
    listed(|client| async move {
        let origins = client.cdn().origins().list().await?;
        Ok(origins
            .iter()
            .filter_map(|o| {
                candidate::<hostapi::types::OriginId>(o.id.as_str(), o.label.as_deref())
            })
            .collect())
    })
}

/// Private network ids, with their names.
pub(crate) fn private_network_ids() -> Vec<CompletionCandidate> {
    listed(|client| async move {
        let networks = client.private_networks().list().await?;
        Ok(networks
            .iter()
            .filter_map(|n| {
                candidate::<hostapi::types::PrivateNetworkId>(n.id.as_str(), n.name.as_deref())
            })
            .collect())
    })
}

/// Private rack ids, with their names.
pub(crate) fn private_rack_ids() -> Vec<CompletionCandidate> {
    listed(|client| async move {
        let racks = client.private_racks().list().await?;
        Ok(racks
            .iter()
            .filter_map(|r| {
                candidate::<hostapi::types::PrivateRackId>(r.id.as_str(), r.name.as_deref())
            })
            .collect())
    })
}

/// Private cloud ids, with their data centres.
pub(crate) fn private_cloud_ids() -> Vec<CompletionCandidate> {
    listed(|client| async move {
        let clouds = client.private_clouds().list().await?;
        Ok(clouds
            .iter()
            .filter_map(|c| {
                candidate::<hostapi::types::PrivateCloudId>(c.id.as_str(), c.data_center.as_deref())
            })
            .collect())
    })
}

/// Operating system ids of the catalogue, with their names.
pub(crate) fn operating_system_ids() -> Vec<CompletionCandidate> {
    listed(|client| async move {
        let systems = client.catalog().operating_systems().list().await?;
        Ok(systems
            .iter()
            .filter_map(|o| {
                candidate::<hostapi::types::OperatingSystemId>(o.id.as_str(), o.name.as_deref())
            })
            .collect())
    })
}

/// Rescue image ids of the catalogue, with their names.
pub(crate) fn rescue_image_ids() -> Vec<CompletionCandidate> {
    listed(|client| async move {
        let images = client.catalog().rescue_images().list().await?;
        Ok(images
            .iter()
            .filter_map(|i| {
                candidate::<hostapi::types::RescueImageId>(i.id.as_str(), i.name.as_deref())
            })
            .collect())
    })
}

/// The words of the line being completed: what the shell passes after `--` when it
/// asks (`COMPLETE=bash hostapi -- hostapi dns get acme-1.com ''`).
fn line_words() -> Vec<String> {
    std::env::args()
        .skip_while(|word| word != "--")
        .skip(1)
        .collect()
}

/// The domain a `dns` command on `words` names: the first word after `dns ACTION`
/// that is not a flag and reads as a domain name.
fn domain_on_line(words: &[String]) -> Option<hostapi::types::DomainName> {
    let at = words.iter().position(|word| word == "dns")?;
    words
        .iter()
        .skip(at + 2)
        .filter(|word| !word.starts_with('-'))
        .find_map(|word| parse_id::<hostapi::types::DomainName>(word).ok())
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
    fn the_domain_of_a_dns_command_is_read_from_the_line() {
        let words = |line: &str| {
            line.split_whitespace()
                .map(str::to_owned)
                .collect::<Vec<_>>()
        };
        let domain = |line: &str| domain_on_line(&words(line)).map(|d| d.to_string());
        assert_eq!(
            domain("hostapi dns get acme-1.com"),
            Some("acme-1.com".into())
        );
        assert_eq!(
            domain("hostapi -o json dns delete --yes acme-1.com 1000"),
            Some("acme-1.com".into())
        );
        assert_eq!(domain("hostapi dns get"), None);
        assert_eq!(domain("hostapi domains get acme-1.com"), None);
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
