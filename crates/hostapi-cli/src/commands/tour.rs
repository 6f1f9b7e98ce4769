//! `hostapi --sandbox tour`: a guided walk through the three APIs against a fresh
//! embedded simulator — lists, a search, a DNS change, a cloud power cycle with
//! waiting, a bare metal installation with progress, a CDN purge.
//!
//! Each step shows a command line and then runs that very line: it is parsed by the
//! same grammar and run by the same code as when typed, so the tour prints exactly
//! what the command prints. Only the ids it needs next (the record it created, a
//! running cloud server) are read through the client.

use clap::Parser;
use hostapi::cloud::CloudServerState;
use hostapi::types::DomainName;

use super::Context;
use crate::cli::{Cli, OutputFormat};
use crate::failure::{API, Failure};
use crate::output::Printer;

/// The domain and server the tour changes.
const DOMAIN: &str = "acme-1.com";
const BARE_METAL: &str = "20001";

pub(crate) async fn run(context: &Context) -> Result<(), Failure> {
    // `app::run` refuses the tour outside the sandbox before any client exists; this
    // keeps the promise should the tour be reached another way.
    if !context.sandbox {
        return Err(Failure::usage("the tour runs only in the sandbox")
            .hint("run `hostapi --sandbox tour`"));
    }
    let tour = Tour { context };
    tour.say(
        "hostapi tour: the v1, cloud v2 and CDN APIs, against the embedded simulator.\n\
         Each step shows a command and runs it: what follows is what it prints. The\n\
         tour runs on a fresh simulator of its own; your `--sandbox` commands share one\n\
         that remembers their changes (`hostapi sandbox reset` starts it afresh).",
    )?;
    tour.lists().await?;
    tour.dns().await?;
    tour.cloud().await?;
    tour.bare_metal().await?;
    tour.cdn().await?;
    tour.say(
        "\nThat was the tour. Every group has more: `hostapi --help`, then e.g.\n\
         `hostapi bare-metal --help`. Add `--output json` to any command for the SDK's JSON.",
    )
}

struct Tour<'a> {
    context: &'a Context,
}

impl Tour<'_> {
    fn say(&self, text: &str) -> Result<(), Failure> {
        self.context.printer.text(text)
    }

    fn heading(&self, text: &str) -> Result<(), Failure> {
        self.say(&format!("\n== {text} =="))
    }

    /// Shows `hostapi --sandbox LINE` and runs it as typed: the same grammar, the same
    /// handler and the same printer (a table, shaped by the line's own flags).
    async fn command(&self, line: &str) -> Result<(), Failure> {
        self.say(&format!("\n$ hostapi --sandbox {line}"))?;
        let words = ["hostapi", "--sandbox"]
            .into_iter()
            .chain(line.split_whitespace());
        let Cli { global, command } = Cli::try_parse_from(words).map_err(|e| {
            Failure::new(
                API,
                format!("the tour's command `{line}` does not parse: {e}"),
            )
        })?;
        let step = Context {
            client: self.context.client.clone(),
            printer: Printer::new(Some(OutputFormat::Table), global.show_secrets)
                .shaped(global.shape()),
            yes: global.yes,
            wait: self.context.wait,
            sandbox: true,
        };
        Box::pin(super::run(&step, command)).await
    }

    async fn lists(&self) -> Result<(), Failure> {
        self.heading("1. Lists, one per interface (--limit keeps the first rows)")?;
        for line in [
            "vps list --limit 5",
            "bare-metal list --details --limit 5",
            "cloud list --limit 5",
            "domains list --limit 5",
            "cdn origins list",
        ] {
            self.command(line).await?;
        }
        self.heading("2. Several at once, and a search across every interface")?;
        self.command("bare-metal get 20001 20002 20003").await?;
        self.command("find 85.17.0.10").await?;
        self.command("find web-*").await
    }

    async fn dns(&self) -> Result<(), Failure> {
        self.heading("3. DNS: create a record, change it, read it back, delete it")?;
        let name = format!("tour.{DOMAIN}");
        self.command(&format!(
            "dns create {DOMAIN} --name {name} --type A --content 192.0.2.10"
        ))
        .await?;
        let domain = DomainName::new(DOMAIN)?;
        let records = self.context.client.domains().records(&domain);
        let Some(id) = records
            .list()
            .await?
            .iter()
            .find(|r| r.name == name)
            .map(|r| r.id.clone())
        else {
            return Err(Failure::new(
                API,
                format!("the record {name} is not listed after its creation"),
            ));
        };
        self.command(&format!("dns update {DOMAIN} {id} --content 192.0.2.20"))
            .await?;
        self.command(&format!("dns get {DOMAIN} {id}")).await?;
        self.command(&format!("dns delete {DOMAIN} {id} --yes"))
            .await?;
        if records.list().await?.iter().any(|r| r.id == id) {
            return Err(Failure::new(
                API,
                format!("record {id} is still listed after its deletion"),
            ));
        }
        Ok(())
    }

    async fn cloud(&self) -> Result<(), Failure> {
        self.heading("4. Cloud: a power cycle, waiting for each state")?;
        let all = self.context.client.cloud_servers().list().await?;
        let Some(server) = all
            .iter()
            .find(|s| s.state == Some(CloudServerState::Running))
        else {
            return self.say("(no running cloud server to power cycle)");
        };
        let id = server.id.clone();
        self.command(&format!(
            "cloud power-off {id} --yes --wait --columns id,reference,state"
        ))
        .await?;
        self.command(&format!(
            "cloud power-on {id} --wait --columns id,reference,state"
        ))
        .await?;
        self.command(&format!(
            "cloud metrics datatraffic {id} --from 2024-01-01 --to 2024-01-15"
        ))
        .await
    }

    async fn bare_metal(&self) -> Result<(), Failure> {
        self.heading("5. Bare metal: install an operating system, with progress")?;
        let systems = self
            .context
            .client
            .catalog()
            .operating_systems()
            .list()
            .await?;
        let Some(os) = systems.first() else {
            return self.say("(no operating system in the catalogue)");
        };
        self.say(&format!(
            "(operating system {}: {})",
            os.id,
            os.name.as_deref().unwrap_or("unnamed")
        ))?;
        self.command(&format!(
            "bare-metal install {BARE_METAL} --os {} --yes --wait",
            os.id
        ))
        .await
    }

    async fn cdn(&self) -> Result<(), Failure> {
        self.heading("6. CDN: purge two files and wait until they are purged")?;
        self.command("cdn purge 1001 /index.html /css/site.css --wait")
            .await
    }
}
