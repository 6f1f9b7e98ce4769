//! Where settings come from: flags, then the environment, then a profile of the
//! config file.
//!
//! ```toml
//! # ~/.config/hostapi/config.toml
//! default_profile = "work"
//!
//! [profiles.work]
//! base_url = "https://api.example.com"
//! api_key = "…"
//! cdn_base_url = "https://cdn-api.example.com"
//! cdn_secret = "…"
//! cdn_customer = "C123456"
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::cli::GlobalArgs;
use crate::failure::Failure;

/// The settings a client is built from, after precedence is applied.
#[derive(Default)]
pub(crate) struct Settings {
    pub(crate) base_url: Option<String>,
    pub(crate) api_key: Option<String>,
    pub(crate) cdn_base_url: Option<String>,
    pub(crate) cdn_secret: Option<String>,
    pub(crate) cdn_customer: Option<String>,
    /// `--ca-file` / `HOSTAPI_CA_FILE`.
    pub(crate) ca_file: Option<PathBuf>,
}

impl Settings {
    /// A client builder holding these settings (checked when it is built).
    pub(crate) fn builder(&self) -> hostapi::ClientBuilder {
        let mut builder = hostapi::Client::builder();
        if let Some(url) = &self.base_url {
            builder = builder.base_url(url);
        }
        if let Some(key) = &self.api_key {
            builder = builder.api_key(key);
        }
        if let Some(url) = &self.cdn_base_url {
            builder = builder.cdn_base_url(url);
        }
        if let Some(secret) = &self.cdn_secret {
            builder = builder.cdn_secret(secret);
        }
        if let Some(customer) = &self.cdn_customer {
            builder = builder.cdn_customer(customer);
        }
        if let Some(path) = &self.ca_file {
            builder = builder.ca_file(path);
        }
        builder
    }
}

impl From<&Profile> for Settings {
    fn from(profile: &Profile) -> Self {
        Self {
            base_url: profile.base_url.clone(),
            api_key: profile.api_key.clone(),
            cdn_base_url: profile.cdn_base_url.clone(),
            cdn_secret: profile.cdn_secret.clone(),
            cdn_customer: profile.cdn_customer.clone(),
            ca_file: None,
        }
    }
}

/// Where a setting came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Source {
    /// A command line flag.
    Flag(&'static str),
    /// An environment variable.
    Env(&'static str),
    /// A profile of the config file.
    Profile(String),
    /// Nowhere: not set.
    Unset,
}

impl std::fmt::Display for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Source::Flag(flag) => write!(f, "flag {flag}"),
            Source::Env(var) => write!(f, "environment {var}"),
            Source::Profile(name) => write!(f, "config profile {name}"),
            Source::Unset => f.write_str("not set"),
        }
    }
}

/// The settings with where each came from, the config file and the profile used.
pub(crate) struct Resolved {
    pub(crate) settings: Settings,
    /// (setting name, source), in the order of [`Settings`]'s fields.
    pub(crate) sources: Vec<(&'static str, Source)>,
    /// The config file consulted (it may not exist).
    pub(crate) file: Option<PathBuf>,
    /// Whether that file exists.
    pub(crate) file_exists: bool,
    /// The profile used, when the file has one to use.
    pub(crate) profile: Option<String>,
    /// Whether the file holds a secret and others than its owner may read it.
    pub(crate) readable_by_others: bool,
}

/// The config file.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ConfigFile {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) default_profile: Option<String>,
    #[serde(default)]
    pub(crate) profiles: BTreeMap<String, Profile>,
}

/// One profile of the config file.
#[derive(Debug, Default, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Profile {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) base_url: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) api_key: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) cdn_base_url: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) cdn_secret: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) cdn_customer: Option<String>,
}

/// The settings a profile holds, by the names `config set` takes: (name, secret).
pub(crate) const KEYS: [(&str, bool); 5] = [
    ("base_url", false),
    ("api_key", true),
    ("cdn_base_url", false),
    ("cdn_secret", true),
    ("cdn_customer", false),
];

impl Profile {
    /// The setting named `key` (one of [`KEYS`]).
    pub(crate) fn slot(&mut self, key: &str) -> Option<&mut Option<String>> {
        Some(match key {
            "base_url" => &mut self.base_url,
            "api_key" => &mut self.api_key,
            "cdn_base_url" => &mut self.cdn_base_url,
            "cdn_secret" => &mut self.cdn_secret,
            "cdn_customer" => &mut self.cdn_customer,
            _ => return None,
        })
    }

    fn holds_secrets(&self) -> bool {
        self.api_key.is_some() || self.cdn_secret.is_some()
    }
}

impl ConfigFile {
    /// The profile commands use: the file's `default_profile`, else `default`.
    pub(crate) fn default_name(&self) -> &str {
        self.default_profile.as_deref().unwrap_or("default")
    }
}

/// The config file the flags name: `--config` / HOSTAPI_CONFIG, else the default place.
pub(crate) fn path(global: &GlobalArgs) -> Result<PathBuf, Failure> {
    global.config.clone().or_else(default_path).ok_or_else(|| {
        Failure::usage(
            "cannot find a place for the config file: neither HOME nor XDG_CONFIG_HOME is set",
        )
        .hint("name one with --config FILE or HOSTAPI_CONFIG")
    })
}

/// The config file at `path` to change: its contents, or an empty file when there is none.
pub(crate) fn load(path: &Path) -> Result<ConfigFile, Failure> {
    if path.exists() {
        read(path)
    } else {
        Ok(ConfigFile::default())
    }
}

/// Writes the config file readable by its owner only (mode 0600, its directory 0700
/// when created), through a file beside it renamed over it, so a reader never sees
/// half of it and the secrets are never readable by others, not even for a moment.
pub(crate) fn write(path: &Path, file: &ConfigFile) -> Result<(), Failure> {
    let cannot = |what: &str, e: std::io::Error| {
        Failure::usage(format!("cannot {what} {}: {e}", path.display()))
    };
    let text = toml::to_string_pretty(file).map_err(|e| {
        Failure::new(
            crate::failure::API,
            format!("cannot write the config file: {e}"),
        )
    })?;
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    if !dir.exists() {
        let mut builder = std::fs::DirBuilder::new();
        builder.recursive(true);
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        builder
            .create(dir)
            .map_err(|e| cannot("create the directory of", e))?;
    }
    let name = path
        .file_name()
        .map_or("config.toml".into(), |n| n.to_string_lossy().into_owned());
    let temp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let written = options.open(&temp).and_then(|mut out| {
        use std::io::Write;
        out.write_all(text.as_bytes())?;
        out.sync_all()
    });
    if let Err(e) = written.and_then(|()| std::fs::rename(&temp, path)) {
        let _ = std::fs::remove_file(&temp);
        return Err(cannot("write", e));
    }
    Ok(())
}

/// Whether others than the owner may read the file at `path` (group or world bits).
pub(crate) fn readable_by_others(path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o044 != 0)
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        false
    }
}

/// Warns on stderr when the config file the flags name holds secrets and others may
/// read it. Every command calls it once, before anything else (whether or not it
/// reads the file's settings: `config profiles`, `--sandbox`…); a file that cannot be
/// read is left to the command that reads it.
pub(crate) fn warn_if_readable_by_others(global: &GlobalArgs) {
    let Ok(path) = path(global) else {
        return;
    };
    if !path.exists() || !readable_by_others(&path) {
        return;
    }
    if read(&path).is_ok_and(|file| file.profiles.values().any(Profile::holds_secrets)) {
        eprintln!(
            "warning: {} holds secrets and others can read it; run `chmod 600 {}`",
            path.display(),
            path.display()
        );
    }
}

/// The default place of the config file.
pub(crate) fn default_path() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|v| !v.is_empty())
                .map(|home| PathBuf::from(home).join(".config"))
        })?;
    Some(base.join("hostapi").join("config.toml"))
}

/// Applies precedence: a flag wins over the environment, which wins over the profile.
pub(crate) fn resolve(global: &GlobalArgs) -> Result<Settings, Failure> {
    resolve_with_sources(global).map(|resolved| resolved.settings)
}

/// Applies precedence (see [`resolve`]) and tells where each setting came from.
pub(crate) fn resolve_with_sources(global: &GlobalArgs) -> Result<Resolved, Failure> {
    let explicit_file = global.config.clone();
    let path = explicit_file.clone().or_else(default_path);
    let file_exists = path.as_deref().is_some_and(Path::exists);
    let file = match &path {
        Some(path) if file_exists => read(path)?,
        Some(path) if explicit_file.is_some() => {
            return Err(
                Failure::usage(format!("config file {} does not exist", path.display()))
                    .hint("check --config / HOSTAPI_CONFIG, or create the file"),
            );
        }
        _ => ConfigFile::default(),
    };
    let readable_by_others = file_exists
        && file.profiles.values().any(Profile::holds_secrets)
        && path.as_deref().is_some_and(readable_by_others);
    let profile_name = global.profile.clone().or(file.default_profile.clone());
    let (profile_used, profile) = match &profile_name {
        Some(name) => {
            let profile = file.profiles.get(name).cloned().ok_or_else(|| {
                let known: Vec<&str> = file.profiles.keys().map(String::as_str).collect();
                Failure::usage(format!("no profile `{name}` in the config file")).hint(
                    if known.is_empty() {
                        format!(
                            "add [profiles.{name}] to {}",
                            path.as_deref()
                                .map_or("the config file".into(), |p| p.display().to_string())
                        )
                    } else {
                        format!("known profiles: {}", known.join(", "))
                    },
                )
            })?;
            (Some(name.clone()), profile)
        }
        None => match file.profiles.get("default") {
            Some(profile) => (Some("default".to_owned()), profile.clone()),
            None => (None, Profile::default()),
        },
    };
    let env = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
    let (api_key_flag, api_key_flag_name) = secret_flag(
        &global.api_key,
        "--api-key",
        global.api_key_file.as_deref(),
        "--api-key-file",
        hostapi::client::ENV_API_KEY,
    )?;
    let (cdn_secret_flag, cdn_secret_flag_name) = secret_flag(
        &global.cdn_secret,
        "--cdn-secret",
        global.cdn_secret_file.as_deref(),
        "--cdn-secret-file",
        hostapi::client::ENV_CDN_SECRET,
    )?;
    let mut sources = Vec::new();
    let mut pick = |name: &'static str,
                    flag_name: &'static str,
                    flag: &Option<String>,
                    var: &'static str,
                    from_profile: Option<String>| {
        let (value, source) = if let Some(value) = flag.clone() {
            (Some(value), Source::Flag(flag_name))
        } else if let Some(value) = env(var) {
            (Some(value), Source::Env(var))
        } else if let Some(value) = from_profile {
            let name = profile_used.clone().unwrap_or_default();
            (Some(value), Source::Profile(name))
        } else {
            (None, Source::Unset)
        };
        sources.push((name, source));
        value
    };
    let settings = Settings {
        base_url: pick(
            "base_url",
            "--base-url",
            &global.base_url,
            hostapi::client::ENV_BASE_URL,
            profile.base_url,
        ),
        api_key: pick(
            "api_key",
            api_key_flag_name,
            &api_key_flag,
            hostapi::client::ENV_API_KEY,
            profile.api_key,
        ),
        cdn_base_url: pick(
            "cdn_base_url",
            "--cdn-base-url",
            &global.cdn_base_url,
            hostapi::client::ENV_CDN_BASE_URL,
            profile.cdn_base_url,
        ),
        cdn_secret: pick(
            "cdn_secret",
            cdn_secret_flag_name,
            &cdn_secret_flag,
            hostapi::client::ENV_CDN_SECRET,
            profile.cdn_secret,
        ),
        cdn_customer: pick(
            "cdn_customer",
            "--cdn-customer",
            &global.cdn_customer,
            hostapi::client::ENV_CDN_CUSTOMER,
            profile.cdn_customer,
        ),
        ca_file: global.ca_file.clone(),
    };
    Ok(Resolved {
        settings,
        sources,
        file: path,
        file_exists,
        profile: profile_used,
        readable_by_others,
    })
}

/// A secret given by a flag: `--api-key VALUE` (with a warning: other users see it
/// in `ps`) or `--api-key-file FILE` (`-`: standard input); with the flag's name.
fn secret_flag(
    value: &Option<String>,
    flag: &'static str,
    file: Option<&Path>,
    file_flag: &'static str,
    var: &str,
) -> Result<(Option<String>, &'static str), Failure> {
    if value.is_some() {
        eprintln!(
            "warning: {flag} on the command line is visible to other users of this machine \
             (`ps`) and stays in the shell's history; use {var}, the config file \
             (`hostapi config set`) or {file_flag} FILE (- for standard input)"
        );
        return Ok((value.clone(), flag));
    }
    let Some(file) = file else {
        return Ok((None, flag));
    };
    let read = if file == Path::new("-") {
        hostapi_sync::read_text(
            std::io::stdin().lock(),
            "standard input",
            MAX_SECRET_FILE_BYTES,
        )
    } else {
        hostapi_sync::read_text_file(file, MAX_SECRET_FILE_BYTES)
    };
    let text = read.map_err(|e| Failure::usage(format!("{file_flag}: {e}")))?;
    // The file's last line ending is not part of the secret.
    let secret = text.strip_suffix('\n').unwrap_or(&text);
    let secret = secret.strip_suffix('\r').unwrap_or(secret);
    if secret.trim().is_empty() {
        return Err(Failure::usage(format!(
            "{file_flag}: {} is empty",
            file.display()
        )));
    }
    Ok((Some(secret.to_owned()), file_flag))
}

/// The largest file `--api-key-file` and `--cdn-secret-file` read.
const MAX_SECRET_FILE_BYTES: u64 = 64 * 1024;

/// The largest config file read.
const MAX_CONFIG_BYTES: u64 = 1024 * 1024;

fn read(path: &Path) -> Result<ConfigFile, Failure> {
    let text = hostapi_sync::read_text_file(path, MAX_CONFIG_BYTES)
        .map_err(|e| Failure::usage(format!("cannot read config file {e}")))?;
    toml::from_str(&text).map_err(|e| {
        // toml's message may quote the offending value, which may be a secret: keep
        // the position and the reason, with the file's secret values taken out.
        let reason = scrub_values(e.message().trim(), &text);
        let at = e
            .span()
            .map(|span| {
                let before = &text[..span.start.min(text.len())];
                let line = before.matches('\n').count() + 1;
                let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
                format!(" at line {line}, column {column}")
            })
            .unwrap_or_default();
        Failure::usage(format!(
            "config file {} is not valid{at}: {reason}",
            path.display()
        ))
    })
}

/// `message` with the value of every `api_key` and `cdn_secret` line of the config
/// file's `text` replaced by [REDACTED] (found line by line, so even in a file toml
/// cannot read).
fn scrub_values(message: &str, text: &str) -> String {
    let mut scrubbed = message.to_owned();
    for line in text.lines() {
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let key = key.trim().trim_matches(['"', '\'']);
        if !KEYS.iter().any(|(name, secret)| *secret && *name == key) {
            continue;
        }
        let value = value.trim().trim_matches(['"', '\'']).trim();
        if !value.is_empty() {
            scrubbed = scrubbed.replace(value, hostapi::types::REDACTED);
        }
    }
    scrubbed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profiles_parse_and_unknown_keys_are_refused() {
        let file: ConfigFile = toml::from_str(
            "default_profile = \"work\"\n[profiles.work]\nbase_url = \"https://a\"\napi_key = \"k\"\n",
        )
        .unwrap();
        assert_eq!(file.profiles["work"].api_key.as_deref(), Some("k"));
        assert!(toml::from_str::<ConfigFile>("[profiles.x]\napi_kye = \"k\"\n").is_err());
    }

    #[test]
    fn a_config_error_names_line_and_column_and_no_secret() {
        let dir = std::env::temp_dir().join(format!("hostapi-config-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("config.toml");
        for text in [
            "[profiles.x]\napi_key = 12345678901\n",
            "[profiles.x]\ncdn_secret = [\"s3cr3t-value\"]\nbase_url = 1\n",
            "[profiles.x]\napi_key = \"k-value-1\"\napi_key = \"k-value-1\"\n",
        ] {
            std::fs::write(&path, text).unwrap();
            let message = read(&path).unwrap_err().message;
            for secret in ["12345678901", "s3cr3t-value", "k-value-1"] {
                assert!(!message.contains(secret), "{message}");
            }
            assert!(message.contains(" at line "), "{message}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
