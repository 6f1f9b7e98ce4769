//! `hostapi config`: the settings in effect and where each comes from (flags, then
//! the environment, then a profile of the config file); writing the file (`init`,
//! `set`, `use`) and listing its profiles. Nothing is sent. `hostapi whoami` checks
//! the credentials with one call per interface.

use std::io::{BufRead, IsTerminal, Write};
use std::path::Path;

use clap::Subcommand;
use serde_json::{Value, json};

use super::Context;
use crate::cli::GlobalArgs;
use crate::config::{self, ConfigFile, KEYS, Profile, Settings, Source};
use crate::failure::Failure;
use crate::output::{Printer, col};

#[derive(Debug, Subcommand)]
pub(crate) enum ConfigCommand {
    /// Show each setting, where it comes from, the config file and the profile
    /// (secrets [REDACTED] unless --show-secrets).
    #[command(after_help = "Examples:\n  hostapi config show\n  hostapi config show --output json")]
    Show,
    /// Write a profile of the config file (mode 0600): asks for each setting on a
    /// terminal; otherwise takes the flags (--base-url, --api-key, --cdn-base-url,
    /// --cdn-secret, --cdn-customer) and HOSTAPI_* variables. --profile names it
    /// (default: `default`); the first profile written becomes the default one.
    #[command(
        after_help = "Examples:\n  HOSTAPI_API_KEY=my-key hostapi config init --base-url https://api.example.com\n  HOSTAPI_API_KEY=key2 hostapi config init --profile staging --base-url https://api2.example.com\n\nOn a terminal, `hostapi config init` asks for each setting (secrets without echo).\nThen check them: hostapi whoami"
    )]
    Init,
    /// Set one setting of a profile (--profile, else the default one); `-` as the
    /// value reads it from stdin, which keeps a secret out of the shell's history.
    #[command(
        after_help = "Examples:\n  hostapi config set base_url https://api.example.com\n  hostapi config set cdn_customer C123456 --profile staging\n\nA secret from a file or a password manager, out of the shell's history:\n  hostapi config set api_key - < api-key.txt"
    )]
    Set {
        /// The setting: base_url, api_key, cdn_base_url, cdn_secret or cdn_customer.
        #[arg(value_parser = parse_key)]
        key: String,
        /// Its value ("" removes it; - reads it from stdin).
        value: String,
    },
    /// List the profiles of the config file (secrets only as set or not).
    #[command(after_help = "Example:\n  hostapi config profiles")]
    Profiles,
    /// Make a profile the default one (the file's `default_profile`).
    #[command(after_help = "Example:\n  hostapi config use staging")]
    Use {
        /// The profile's name (see `hostapi config profiles`).
        #[arg(add = clap_complete::ArgValueCandidates::new(crate::completion::profiles))]
        profile: String,
    },
}

/// Parses a setting's name: snake case as in the file, or with hyphens as the flags.
fn parse_key(value: &str) -> Result<String, String> {
    let key = value.trim().replace('-', "_").to_ascii_lowercase();
    if KEYS.iter().any(|(name, _)| *name == key) {
        Ok(key)
    } else {
        let names: Vec<&str> = KEYS.iter().map(|(name, _)| *name).collect();
        Err(format!(
            "`{value}` is not a setting: use one of {}",
            names.join(", ")
        ))
    }
}

/// Runs a `config` command; it needs no client.
pub(crate) fn run(
    global: &GlobalArgs,
    printer: &Printer,
    command: ConfigCommand,
) -> Result<(), Failure> {
    match command {
        ConfigCommand::Init => init(global, printer),
        ConfigCommand::Set { key, value } => set(global, printer, &key, &value),
        ConfigCommand::Profiles => {
            let path = config::path(global)?;
            let file = config::load(&path)?;
            if file.profiles.is_empty() {
                eprintln!("no profiles in {}", path.display());
            }
            let items = file
                .profiles
                .iter()
                .map(|(name, profile)| describe_profile(&file, name, profile))
                .collect();
            printer.shaped_list(
                items,
                &[
                    col("NAME", "name"),
                    col("DEFAULT", "default"),
                    col("BASE_URL", "base_url"),
                    col("API_KEY_SET", "api_key_set"),
                    col("CDN_BASE_URL", "cdn_base_url"),
                    col("CDN_CUSTOMER", "cdn_customer"),
                    col("CDN_SECRET_SET", "cdn_secret_set"),
                ],
            )
        }
        ConfigCommand::Use { profile } => {
            let path = config::path(global)?;
            let mut file = config::load(&path)?;
            let Some(chosen) = file.profiles.get(&profile).cloned() else {
                return Err(unknown_profile(&file, &profile, &path));
            };
            file.default_profile = Some(profile.clone());
            config::write(&path, &file)?;
            eprintln!(
                "profile `{profile}` is now the default one ({})",
                path.display()
            );
            printer.value(&describe_profile(&file, &profile, &chosen))
        }
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
                "config_file_readable_by_others": resolved.readable_by_others,
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
            Some(_) if secret && !show_secrets => {
                Value::String(hostapi::types::REDACTED.to_owned())
            }
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

/// A profile as `config profiles` lists it (`CliProfile` in the JSON Schema): the
/// secrets only as set or not.
fn describe_profile(file: &ConfigFile, name: &str, profile: &Profile) -> Value {
    json!({
        "name": name,
        "default": file.default_name() == name,
        "base_url": profile.base_url,
        "api_key_set": profile.api_key.is_some(),
        "cdn_base_url": profile.cdn_base_url,
        "cdn_customer": profile.cdn_customer,
        "cdn_secret_set": profile.cdn_secret.is_some(),
    })
}

fn unknown_profile(file: &ConfigFile, name: &str, path: &Path) -> Failure {
    let known: Vec<&str> = file.profiles.keys().map(String::as_str).collect();
    Failure::usage(format!("no profile `{name}` in {}", path.display())).hint(if known.is_empty() {
        format!("create it: hostapi config init --profile {name}")
    } else {
        format!("known profiles: {}", known.join(", "))
    })
}

/// A profile's name: letters, digits, `-` and `_` (it is a TOML table's key).
fn check_profile_name(name: &str) -> Result<(), Failure> {
    if !name.is_empty()
        && name.len() <= 64
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    {
        Ok(())
    } else {
        Err(Failure::usage(format!(
            "`{}` is not a profile name (letters, digits, - and _)",
            name.escape_debug()
        )))
    }
}

/// Checks a profile's settings as the client would, before anything is written.
fn check_profile(profile: &Profile) -> Result<(), Failure> {
    if profile.api_key.is_none() && profile.cdn_secret.is_none() {
        return Ok(());
    }
    crate::config::Settings::from(profile)
        .builder()
        .build()
        .map(drop)
        .map_err(|e| {
            let mut failure = Failure::from(e);
            failure.code = crate::failure::USAGE;
            failure.hint = Some("nothing was written; fix the value and run it again".into());
            failure
        })
}

/// `config init`: one profile, from prompts on a terminal or from flags and the
/// environment otherwise.
fn init(global: &GlobalArgs, printer: &Printer) -> Result<(), Failure> {
    let path = config::path(global)?;
    let mut file = config::load(&path)?;
    let name = global
        .profile
        .clone()
        .unwrap_or_else(|| "default".to_owned());
    check_profile_name(&name)?;
    let existing = file.profiles.get(&name).cloned();
    let mut profile = existing.clone().unwrap_or_default();
    let given = [
        global.base_url.clone(),
        global.api_key.clone(),
        global.cdn_base_url.clone(),
        global.cdn_secret.clone(),
        global.cdn_customer.clone(),
    ];
    let vars = [
        hostapi::client::ENV_BASE_URL,
        hostapi::client::ENV_API_KEY,
        hostapi::client::ENV_CDN_BASE_URL,
        hostapi::client::ENV_CDN_SECRET,
        hostapi::client::ENV_CDN_CUSTOMER,
    ];
    let interactive = std::io::stdin().is_terminal() && std::io::stderr().is_terminal();
    let mut changed = false;
    if interactive {
        eprintln!(
            "Writing profile `{name}` of {} (Enter keeps the value in brackets; - clears it).",
            path.display()
        );
    }
    for (((key, secret), flag), var) in KEYS.iter().zip(given).zip(vars) {
        let from_env = std::env::var(var).ok().filter(|v| !v.trim().is_empty());
        let slot = profile
            .slot(key)
            .expect("KEYS names the profile's settings");
        let value = match flag.or(from_env) {
            Some(value) => Some(value),
            None if interactive => prompt(key, *secret, slot.as_deref())?,
            None => None,
        };
        if let Some(value) = value {
            *slot = (!value.is_empty()).then_some(value);
            changed = true;
        }
    }
    if !changed && existing.is_none() {
        return Err(Failure::usage(format!(
            "nothing to write to profile `{name}`: not on a terminal, and no setting given"
        ))
        .hint("give them as flags or variables, e.g. HOSTAPI_API_KEY=… hostapi config init --base-url https://api.example.com"));
    }
    if profile.api_key.is_none() && profile.cdn_secret.is_none() {
        return Err(Failure::usage(format!(
            "profile `{name}` would hold no credentials: it needs an API key or a CDN secret"
        ))
        .hint("give --api-key (or HOSTAPI_API_KEY) or --cdn-secret (or HOSTAPI_CDN_SECRET)"));
    }
    check_profile(&profile)?;
    file.profiles.insert(name.clone(), profile.clone());
    if file.default_profile.is_none() && !file.profiles.contains_key("default") {
        file.default_profile = Some(name.clone());
    }
    config::write(&path, &file)?;
    eprintln!(
        "wrote profile `{name}` to {} (readable by you only)\nnext: `hostapi whoami` checks the credentials",
        path.display()
    );
    printer.value(&describe_profile(&file, &name, &profile))
}

/// Asks for one setting on the terminal; `None` keeps the current one. Secrets are
/// read without echo and their current value is never shown.
fn prompt(key: &str, secret: bool, current: Option<&str>) -> Result<Option<String>, Failure> {
    let shown = match current {
        Some(_) if secret => " [set]".to_owned(),
        Some(value) => format!(" [{value}]"),
        None => String::new(),
    };
    eprint!("{key}{shown}: ");
    let _ = std::io::stderr().flush();
    let answer = if secret {
        console::Term::stderr().read_secure_line()
    } else {
        let mut line = String::new();
        std::io::stdin().lock().read_line(&mut line).map(|_| line)
    }
    .map_err(|e| Failure::usage(format!("cannot read the answer: {e}")))?;
    Ok(match answer.trim() {
        "" => None,
        "-" => Some(String::new()),
        value => Some(value.to_owned()),
    })
}

/// `config set KEY VALUE`.
fn set(global: &GlobalArgs, printer: &Printer, key: &str, value: &str) -> Result<(), Failure> {
    let path = config::path(global)?;
    let mut file = config::load(&path)?;
    let name = global
        .profile
        .clone()
        .unwrap_or_else(|| file.default_name().to_owned());
    check_profile_name(&name)?;
    let value = if value == "-" {
        let mut line = String::new();
        std::io::stdin()
            .lock()
            .read_line(&mut line)
            .map_err(|e| Failure::usage(format!("cannot read the value from stdin: {e}")))?;
        let line = line.trim_end_matches(['\r', '\n']).to_owned();
        if line.trim().is_empty() {
            return Err(Failure::usage("no value on stdin").hint(format!(
                "to remove {key}, give \"\" as the value: hostapi config set {key} \"\""
            )));
        }
        line
    } else {
        value.to_owned()
    };
    let mut profile = file.profiles.get(&name).cloned().unwrap_or_default();
    let slot = profile
        .slot(key)
        .ok_or_else(|| Failure::usage(format!("`{key}` is not a setting")))?;
    let removed = value.trim().is_empty();
    *slot = (!removed).then(|| value.trim().to_owned());
    check_profile(&profile)?;
    file.profiles.insert(name.clone(), profile.clone());
    if file.default_profile.is_none() && !file.profiles.contains_key("default") {
        file.default_profile = Some(name.clone());
    }
    config::write(&path, &file)?;
    eprintln!(
        "{} {key} of profile `{name}` in {}",
        if removed { "removed" } else { "set" },
        path.display()
    );
    printer.value(&describe_profile(&file, &name, &profile))
}

/// `hostapi whoami`: one cheap authenticated call per interface (v1, cloud, CDN),
/// run at once; prints what each says (`CliCheck` in the JSON Schema). Exits 0 when
/// every configured interface answers; an interface without settings is reported
/// and skipped, unless none is configured.
pub(crate) async fn whoami(context: &Context) -> Result<(), Failure> {
    let client = &context.client;
    let (v1, cloud, cdn) = futures::join!(
        async {
            client
                .catalog()
                .operating_systems()
                .list()
                .await
                .map(|systems| format!("{} operating systems in the catalogue", systems.len()))
        },
        async {
            client
                .cloud_servers()
                .list()
                .await
                .map(|servers| format!("{} cloud servers", servers.len()))
        },
        async {
            client
                .cdn()
                .customers()
                .get()
                .await
                .map(|customer| format!("CDN customer {}", customer_name(&customer)))
        },
    );
    let checks = [
        ("v1", "list operating systems", v1),
        ("cloud", "list cloud servers", cloud),
        ("cdn", "read the CDN customer", cdn),
    ];
    let mut first_failure = None;
    let mut working = 0;
    let mut items = Vec::new();
    for (interface, call, result) in checks {
        let (ok, detail) = match result {
            Ok(detail) => {
                working += 1;
                (true, format!("works: {detail}"))
            }
            // Refused before sending: the interface has no settings.
            Err(error @ hostapi::Error::InvalidInput { .. }) => (
                false,
                format!("not configured: {}", Failure::from(error).message),
            ),
            Err(error) => {
                let failure = Failure::from(error);
                let detail = format!("fails: {}", failure.message);
                first_failure.get_or_insert(failure);
                (false, detail)
            }
        };
        items.push(json!({"interface": interface, "ok": ok, "call": call, "detail": detail}));
    }
    context.printer.shaped_list(
        items,
        &[
            col("INTERFACE", "interface"),
            col("OK", "ok"),
            col("DETAIL", "detail"),
        ],
    )?;
    match first_failure {
        Some(failure) => Err(failure),
        None if working == 0 => Err(Failure::new(
            crate::failure::AUTH,
            "no interface is configured",
        )
        .hint("run `hostapi config init`")),
        None => Ok(()),
    }
}

/// How a CDN customer is named in a check: its number and company.
fn customer_name(customer: &hostapi::cdn::CdnCustomer) -> String {
    match (&customer.customer_number, &customer.company_name) {
        (Some(number), Some(company)) => format!("{number} ({company})"),
        (Some(number), None) => number.to_string(),
        (None, Some(company)) => company.clone(),
        (None, None) => "read".to_owned(),
    }
}
