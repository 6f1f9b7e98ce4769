//! `hostapi config`: the settings in effect and where each comes from (flags, then
//! the environment, then a profile of the config file). Nothing is sent.

use clap::Subcommand;
use serde_json::{Value, json};

use crate::cli::GlobalArgs;
use crate::config::{self, Settings, Source};
use crate::failure::Failure;
use crate::output::Printer;

#[derive(Debug, Subcommand)]
pub(crate) enum ConfigCommand {
    /// Show each setting, where it comes from, the config file and the profile
    /// (secrets [REDACTED] unless --show-secrets).
    #[command(after_help = "Examples:\n  hostapi config show\n  hostapi config show --output json")]
    Show,
}

/// Runs a `config` command; it needs no client.
pub(crate) fn run(
    global: &GlobalArgs,
    printer: &Printer,
    command: ConfigCommand,
) -> Result<(), Failure> {
    match command {
        ConfigCommand::Show => {
            if global.sandbox {
                return Err(Failure::usage(
                    "--sandbox uses the embedded simulator's settings, not these",
                )
                .hint("run `hostapi config show` without --sandbox"));
            }
            let resolved = config::resolve_with_sources(global)?;
            let shown = describe(&resolved.settings, &resolved.sources, global.show_secrets);
            let json = json!({
                "config_file": resolved.file.as_ref().map(|p| p.display().to_string()),
                "config_file_exists": resolved.file_exists,
                "profile": resolved.profile,
                "settings": shown,
            });
            if printer.is_json() {
                return printer.value(&json);
            }
            let rows = resolved
                .sources
                .iter()
                .map(|(name, source)| {
                    let value = json["settings"][name]["value"]
                        .as_str()
                        .unwrap_or("")
                        .to_owned();
                    vec![(*name).to_owned(), value, source.to_string()]
                })
                .collect();
            printer.rows(&["SETTING", "VALUE", "FROM"], rows)?;
            let file = match (&resolved.file, resolved.file_exists) {
                (Some(path), true) => format!("config file: {}", path.display()),
                (Some(path), false) => format!("config file: {} (none there)", path.display()),
                (None, _) => "config file: none (no HOME nor XDG_CONFIG_HOME)".to_owned(),
            };
            let profile = resolved
                .profile
                .map_or("profile: none".to_owned(), |p| format!("profile: {p}"));
            printer.text(&format!("{file}\n{profile}"))
        }
    }
}

/// `{name: {value, source}}` for each setting; the API key and CDN secret show as
/// `[REDACTED]` unless `show_secrets`.
fn describe(settings: &Settings, sources: &[(&'static str, Source)], show_secrets: bool) -> Value {
    let values = [
        ("base_url", settings.base_url.as_deref(), false),
        ("api_key", settings.api_key.as_deref(), true),
        ("cdn_base_url", settings.cdn_base_url.as_deref(), false),
        ("cdn_secret", settings.cdn_secret.as_deref(), true),
        ("cdn_customer", settings.cdn_customer.as_deref(), false),
    ];
    let mut out = serde_json::Map::new();
    for (name, value, secret) in values {
        let source = sources
            .iter()
            .find(|(n, _)| *n == name)
            .map_or(Source::Unset, |(_, s)| s.clone());
        let shown = match value {
            Some(_) if secret && !show_secrets => Value::String(hostapi::REDACTED.to_owned()),
            Some(value) => Value::String(value.to_owned()),
            None => Value::Null,
        };
        out.insert(
            name.to_owned(),
            json!({"value": shown, "source": source.to_string()}),
        );
    }
    Value::Object(out)
}
