//! The command line grammar: `hostapi [global flags] <group> [<subgroup>] <action> [ARGS]`.
//! Global flags may stand anywhere on the line.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::commands;

/// What the exit codes mean; shown under `hostapi --help` (a macro, so `concat!` can
/// join it to the examples). The README's table says the same, word for word (the
/// test `exit_codes` holds them together and runs a command for each code).
macro_rules! exit_codes {
    () => {
        "Exit codes:
  0   success
  1   the API, the network or a local file failed; no change was applied
  2   usage or configuration: a bad flag, argument or file; nothing was written
  3   authentication: missing or refused credentials
  4   not found
  5   a wait ended without reaching its goal (deadline, or a failed state)
  6   outcome unknown: the answer to a change was lost, so it may have been applied;
      check before repeating it
  7   partial: an apply applied some changes and not others (`plan` shows what is left)
  8   drift: `plan --expect-no-changes` found changes to make
  9   refused: an apply's plan is stale or over the safety threshold; nothing was
      written
  130 interrupted (Ctrl-C)"
    };
}

/// The examples of `hostapi --help`.
macro_rules! examples {
    () => {
        "Examples:
  hostapi --sandbox tour
  hostapi --sandbox bare-metal list
  hostapi --sandbox vps get 100001 --output json
"
    };
}

#[derive(Debug, Parser)]
#[command(
    name = "hostapi",
    version,
    about = "Manage virtual servers, domains, bare metal, private networks, cloud servers and the CDN.",
    long_about = "Manage virtual servers, domains, bare metal, private networks, cloud servers and the CDN \
                  through the provider's v1, cloud v2 and CDN APIs.\n\n\
                  Credentials come from flags, then the environment (HOSTAPI_API_KEY, HOSTAPI_BASE_URL, \
                  HOSTAPI_CDN_SECRET, HOSTAPI_CDN_CUSTOMER, HOSTAPI_CDN_BASE_URL), then a profile of \
                  ~/.config/hostapi/config.toml. Try everything without an account: --sandbox.",
    after_help = concat!(examples!(), "\nExit codes: see `hostapi --help`."),
    after_long_help = concat!(examples!(), "\n", exit_codes!()),
    max_term_width = 100,
    propagate_version = true
)]
pub(crate) struct Cli {
    #[command(flatten)]
    pub(crate) global: GlobalArgs,
    #[command(subcommand)]
    pub(crate) command: Command,
}

/// Flags every command takes, anywhere on the line.
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Global options")]
pub(crate) struct GlobalArgs {
    /// Run against an embedded simulator of the three APIs (no account needed; the
    /// config file and credentials are not read).
    #[arg(long, global = true, conflicts_with_all = ["base_url", "cdn_base_url"])]
    pub(crate) sandbox: bool,
    /// v1 and cloud base URL (https://…; http:// only for loopback hosts).
    #[arg(long, global = true, value_name = "URL")]
    pub(crate) base_url: Option<String>,
    /// CDN base URL (https://…; http:// only for loopback hosts).
    #[arg(long, global = true, value_name = "URL")]
    pub(crate) cdn_base_url: Option<String>,
    /// API key of the v1 and cloud APIs (other users see it in `ps`: prefer
    /// HOSTAPI_API_KEY, the config file or --api-key-file).
    #[arg(long, global = true, value_name = "KEY")]
    pub(crate) api_key: Option<String>,
    /// A file holding the API key (- reads it from standard input).
    #[arg(long, global = true, value_name = "FILE", conflicts_with = "api_key")]
    pub(crate) api_key_file: Option<PathBuf>,
    /// CDN customer secret (other users see it in `ps`: prefer HOSTAPI_CDN_SECRET,
    /// the config file or --cdn-secret-file).
    #[arg(long, global = true, value_name = "SECRET")]
    pub(crate) cdn_secret: Option<String>,
    /// A file holding the CDN customer secret (- reads it from standard input).
    #[arg(
        long,
        global = true,
        value_name = "FILE",
        conflicts_with = "cdn_secret"
    )]
    pub(crate) cdn_secret_file: Option<PathBuf>,
    /// CDN customer number.
    #[arg(long, global = true, value_name = "NUMBER")]
    pub(crate) cdn_customer: Option<String>,
    /// PEM file of certificate authorities to trust besides the system's (e.g. the ca.pem
    /// of `hostapi-sim --tls`).
    #[arg(long, global = true, env = "HOSTAPI_CA_FILE", value_name = "FILE")]
    pub(crate) ca_file: Option<PathBuf>,
    /// Profile of the config file to use (default: the file's `default_profile`, else `default`).
    #[arg(long, global = true, env = "HOSTAPI_PROFILE", value_name = "NAME",
          add = clap_complete::ArgValueCandidates::new(crate::completion::profiles))]
    pub(crate) profile: Option<String>,
    /// Config file (default: $XDG_CONFIG_HOME/hostapi/config.toml or ~/.config/hostapi/config.toml).
    #[arg(long, global = true, env = "HOSTAPI_CONFIG", value_name = "FILE")]
    pub(crate) config: Option<PathBuf>,
    /// Output format (default: table on a terminal, json otherwise).
    #[arg(long, short = 'o', global = true, value_enum)]
    pub(crate) output: Option<OutputFormat>,
    /// Fields to show, named as in the JSON (dotted for nested ones), e.g.
    /// --columns id,name,location.site.
    #[arg(long, global = true, value_name = "FIELDS", value_delimiter = ',')]
    pub(crate) columns: Vec<String>,
    /// No header line in tables, CSV and TSV.
    #[arg(long, global = true)]
    pub(crate) no_headers: bool,
    /// A jq filter over the JSON, e.g. --query '.[] | select(.state == "running") | .id'
    /// (strings print without quotes unless -o json).
    #[arg(long, global = true, value_name = "JQ")]
    pub(crate) query: Option<String>,
    /// Keep the records of a list whose FIELD matches VALUE (a glob: * and ?; any
    /// letter case; repeatable, all must match), e.g. --filter state=running.
    #[arg(long, global = true, value_name = "FIELD=VALUE", value_parser = parse_filter)]
    pub(crate) filter: Vec<(String, String)>,
    /// Sort a list by a JSON field (-FIELD for descending), e.g. --sort name.
    #[arg(long, global = true, value_name = "FIELD", allow_hyphen_values = true)]
    pub(crate) sort: Option<String>,
    /// Print at most N records of a list.
    #[arg(long, global = true, value_name = "N")]
    pub(crate) limit: Option<usize>,
    /// Tables: every column whole, whatever the terminal's width.
    #[arg(long, global = true)]
    pub(crate) wide: bool,
    /// CSV and TSV: write cells exactly, for programs (by default a cell a spreadsheet
    /// would run as a formula, e.g. =1+1 or @SUM(…), gets a leading ' to open as text).
    #[arg(long, global = true)]
    pub(crate) no_formula_guard: bool,
    /// Print secrets (passwords, API secrets) instead of [REDACTED].
    #[arg(long, global = true)]
    pub(crate) show_secrets: bool,
    /// Answer yes to confirmations (needed for destructive commands when not on a terminal).
    #[arg(long, short = 'y', global = true)]
    pub(crate) yes: bool,
    /// More logs on stderr (-v: each API call; -vv: everything).
    #[arg(long, short = 'v', global = true, action = clap::ArgAction::Count)]
    pub(crate) verbose: u8,
    /// Simulated seconds per real second in --sandbox (default 60: a one-minute job
    /// takes a second): not a flag, so that it shows in no help nor completion
    /// script; HOSTAPI_SANDBOX_TIME_SCALE sets it (see [`GlobalArgs::read_env`]).
    #[arg(skip = DEFAULT_TIME_SCALE)]
    pub(crate) sandbox_time_scale: f64,
}

/// Output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum OutputFormat {
    /// Aligned columns (colour unless NO_COLOR is set or stdout is not a terminal).
    Table,
    /// The SDK's JSON serialisation, and nothing else, on stdout.
    Json,
    /// The same records as YAML.
    Yaml,
    /// Comma-separated values, a header of JSON field names first.
    Csv,
    /// Tab-separated values, a header of JSON field names first.
    Tsv,
}

/// Simulated seconds per real second in the sandbox unless HOSTAPI_SANDBOX_TIME_SCALE
/// says otherwise.
const DEFAULT_TIME_SCALE: f64 = 60.0;
/// The variable that sets the sandbox's time scale (tests run it faster).
pub(crate) const ENV_SANDBOX_TIME_SCALE: &str = "HOSTAPI_SANDBOX_TIME_SCALE";

impl GlobalArgs {
    /// Reads the settings that are variables only: the sandbox's time scale. A value
    /// that is not a number is a usage error (the simulator checks the range).
    pub(crate) fn read_env(&mut self) -> Result<(), crate::failure::Failure> {
        if let Some(value) = std::env::var_os(ENV_SANDBOX_TIME_SCALE) {
            let text = value.to_string_lossy();
            self.sandbox_time_scale = text.trim().parse().map_err(|_| {
                crate::failure::Failure::usage(format!(
                    "{ENV_SANDBOX_TIME_SCALE}=`{}` is not a number of simulated seconds per second",
                    text.escape_debug()
                ))
                .hint(format!("e.g. {ENV_SANDBOX_TIME_SCALE}=600, or unset it for the default of {DEFAULT_TIME_SCALE}"))
            })?;
        }
        Ok(())
    }

    /// The output shaping the flags ask for.
    pub(crate) fn shape(&self) -> crate::output::Shape {
        crate::output::Shape {
            columns: self
                .columns
                .iter()
                .map(|c| c.trim().to_owned())
                .filter(|c| !c.is_empty())
                .collect(),
            no_headers: self.no_headers,
            query: self.query.clone(),
            filters: self.filter.clone(),
            sort: self.sort.clone(),
            limit: self.limit,
            wide: self.wide,
            no_formula_guard: self.no_formula_guard,
        }
    }
}

/// Parses `FIELD=VALUE`.
fn parse_filter(value: &str) -> Result<(String, String), String> {
    match value.split_once('=') {
        Some((field, pattern)) if !field.trim().is_empty() => {
            Ok((field.trim().to_owned(), pattern.to_owned()))
        }
        _ => Err(format!(
            "`{value}` is not FIELD=VALUE (e.g. state=running, name=web-*)"
        )),
    }
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Virtual servers of the v1 API.
    #[command(
        subcommand,
        after_help = "Examples:\n  hostapi --sandbox vps list\n  hostapi --sandbox vps get 100001"
    )]
    Vps(commands::vps::VpsCommand),
    /// Cloud servers of the cloud v2 API: power, credentials, metrics; private clouds.
    #[command(
        subcommand,
        after_help = "Examples:\n  hostapi --sandbox cloud list\n  hostapi --sandbox cloud power-off c90e8a9c-09ba-46e2-ae8a-0c71c86fa728 --yes --wait"
    )]
    Cloud(commands::cloud::CloudCommand),
    /// Domain names: list, read, change the TTL.
    #[command(
        subcommand,
        after_help = "Examples:\n  hostapi --sandbox domains list\n  hostapi --sandbox domains set-ttl acme-1.com 3600"
    )]
    Domains(commands::domains::DomainsCommand),
    /// DNS records of a domain: list, read, create, update, delete.
    #[command(
        subcommand,
        after_help = "Examples:\n  hostapi --sandbox dns list acme-1.com\n  hostapi --sandbox dns create acme-1.com --name api.acme-1.com --type A --content 192.0.2.10"
    )]
    Dns(commands::dns::DnsCommand),
    /// Bare metal servers: power, switch port, install, rescue, leases, IPs, usage.
    #[command(
        subcommand,
        after_help = "Examples:\n  hostapi --sandbox bare-metal list\n  hostapi --sandbox bare-metal install 20001 --os 9 --yes --wait"
    )]
    BareMetal(commands::bare_metal::BareMetalCommand),
    /// Private racks: read, their IPs and network usage.
    #[command(
        subcommand,
        after_help = "Examples:\n  hostapi --sandbox racks list\n  hostapi --sandbox racks ips list 7001"
    )]
    Racks(commands::racks::RacksCommand),
    /// IP addresses (reverse DNS, null routing) of any server.
    #[command(
        subcommand,
        after_help = "Example:\n  hostapi --sandbox ips update 85.17.0.10 --reverse-lookup web.example.com"
    )]
    Ips(commands::ips::IpsCommand),
    /// Private networks between bare metal servers, and their members.
    #[command(
        subcommand,
        after_help = "Examples:\n  hostapi --sandbox networks list\n  hostapi --sandbox networks members add 502 20003 --wait"
    )]
    Networks(commands::networks::NetworksCommand),
    /// Catalogues: operating systems, control panels, rescue images, partition
    /// schemas, services.
    #[command(
        subcommand,
        after_help = "Examples:\n  hostapi --sandbox catalog operating-systems list\n  hostapi --sandbox catalog partition-schema get 9 20001"
    )]
    Catalog(commands::catalog::CatalogCommand),
    /// The CDN: purges, customer, sub-customers, access control list, origins.
    #[command(
        subcommand,
        after_help = "Examples:\n  hostapi --sandbox cdn purge 1001 /index.html --wait\n  hostapi --sandbox cdn origins list"
    )]
    Cdn(commands::cdn::CdnCommand),
    /// Find an IP address, a name, a reference, a MAC address or an id across bare
    /// metal, virtual and cloud servers and domains, and say where it is.
    #[command(
        after_help = "Examples:\n  hostapi --sandbox find 85.17.0.10\n  hostapi --sandbox find k8s-1\n  hostapi --sandbox find 'web-*'\n  hostapi --sandbox find ac:1f:6b:03:88:8c"
    )]
    Find(commands::find::FindArgs),
    /// Send a raw request to a documented path of the v1, cloud or CDN API with the
    /// configured credentials, and print the answer's body.
    #[command(
        long_about = "Send a raw request to a documented path of the v1, cloud or CDN API with the \
                      configured credentials (the API key; a CDN path is signed), and print the \
                      answer's body: pretty JSON on a terminal, as received through a pipe.\n\n\
                      -f KEY=VALUE fields go to the query of a GET and to the form body of any \
                      other method; --input FILE sends a JSON body. A path that no document has \
                      is refused unless --any-path. Redirects are not followed, answers are read \
                      to the same size limit as every call, and secrets print as [REDACTED] \
                      unless --show-secrets.",
        after_help = "Examples:\n  hostapi --sandbox api GET /v1/domains\n  hostapi --sandbox api GET /cloud/v2/virtualServers -f limit=2\n  hostapi --sandbox api PUT /v1/domains/acme-1.com -f ttl=3600\n  hostapi --sandbox api GET /origins/462427"
    )]
    Api(commands::api::ApiArgs),
    /// A guided tour of all three APIs against the sandbox (needs --sandbox).
    #[command(after_help = "Example:\n  hostapi --sandbox tour")]
    Tour,
    /// The sandbox's remembered state: where it is, reset it, serve it to other tools.
    #[command(
        subcommand,
        after_help = "Examples:\n  hostapi sandbox status\n  hostapi sandbox reset\n  hostapi sandbox serve --stop-after 1"
    )]
    Sandbox(commands::sandbox::SandboxCommand),
    /// Profiles of the config file (init, set, profiles, use) and the settings in
    /// effect (show).
    #[command(
        subcommand,
        after_help = "Examples:\n  HOSTAPI_API_KEY=my-key hostapi config init --base-url https://api.example.com\n  hostapi config profiles\n  hostapi config show"
    )]
    Config(commands::config::ConfigCommand),
    /// Check the credentials: one cheap call per interface (v1, cloud, CDN), and what
    /// works.
    #[command(
        after_help = "Examples:\n  hostapi --sandbox whoami\n  hostapi --sandbox whoami --output json"
    )]
    Whoami,
    /// Print a shell completion script.
    #[command(
        after_help = "Examples:\n  mkdir -p ~/.local/share/bash-completion/completions && \\\n    hostapi completions bash > ~/.local/share/bash-completion/completions/hostapi\n  mkdir -p ~/.zfunc && hostapi completions zsh > ~/.zfunc/_hostapi\n  mkdir -p ~/.config/fish/completions && \\\n    hostapi completions fish > ~/.config/fish/completions/hostapi.fish\n\nEach example makes its folder first. zsh reads ~/.zfunc when ~/.zshrc has\nfpath+=~/.zfunc before compinit."
    )]
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
}
