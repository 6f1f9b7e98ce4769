//! `hostapi --sandbox tour`: a guided walk through the three APIs against the embedded
//! simulator — lists, a DNS change, a cloud power cycle with waiting, a bare metal
//! installation with progress, a CDN purge and its status. Each step names the
//! command that does the same on its own.

use hostapi::{
    CloudServerState, DnsRecordType, DomainName, InstallRequest, Listing, NewDnsRecord, ZoneId,
};
use serde::Serialize;

use super::cloud::{SERVER_COLUMNS, TargetState, wait_for};
use super::dns::RECORD_COLUMNS;
use super::domains::DOMAIN_COLUMNS;
use super::{Context, WaitArgs, bare_metal};
use crate::chart::terminal_width;
use crate::failure::Failure;
use crate::output::{Column, col, warn_unreadable};

/// Rows each list shows.
const SHOWN: usize = 5;
/// The domain, zone and server the tour changes.
const DOMAIN: &str = "acme-1.com";
const ZONE: &str = "1001";
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
         Each step shows the command that does the same on its own. (Every `--sandbox`\n\
         run starts a fresh simulator, so changes do not carry over between commands;\n\
         the tour makes all of its changes in one run.)",
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

    fn command(&self, line: &str) -> Result<(), Failure> {
        self.say(&format!("\n$ hostapi --sandbox {line}"))
    }

    /// The first rows of a list, and how many more there are.
    fn some<T: Serialize>(&self, items: &Listing<T>, columns: &[Column]) -> Result<(), Failure> {
        let out = &self.context.printer;
        warn_unreadable(items);
        out.items(&items[..items.len().min(SHOWN)], columns)?;
        if items.len() > SHOWN {
            self.say(&format!("… and {} more", items.len() - SHOWN))?;
        }
        Ok(())
    }

    async fn lists(&self) -> Result<(), Failure> {
        let client = &self.context.client;
        self.heading("1. Lists, one per interface")?;
        self.command("vps list")?;
        self.some(
            &client.virtual_servers().list().await?,
            &[
                col("ID", "id"),
                col("NAME", "name"),
                col("STATE", "state"),
                col("TEMPLATE", "template"),
                col("IPS", "ips[].ip"),
            ],
        )?;
        self.command("bare-metal list")?;
        self.some(
            &client.bare_metals().list().await?,
            &[
                col("ID", "id"),
                col("NAME", "name"),
                col("TYPE", "server_type"),
                col("REFERENCE", "reference"),
            ],
        )?;
        self.command("cloud list")?;
        self.some(&client.cloud_servers().list().await?, SERVER_COLUMNS)?;
        self.command("domains list")?;
        self.some(&client.domains().list().await?, DOMAIN_COLUMNS)?;
        self.command("cdn origins list")?;
        self.some(
            &client.cdn().origins().list().await?,
            &[col("ID", "id"), col("LABEL", "label"), col("URL", "url")],
        )
    }

    async fn dns(&self) -> Result<(), Failure> {
        let out = &self.context.printer;
        let domain = DomainName::new(DOMAIN)?;
        let records = self.context.client.domains().records(&domain);
        self.heading("2. DNS: create a record, change it, read it back, delete it")?;
        self.command(&format!(
            "dns create {DOMAIN} --name tour.{DOMAIN} --type A --content 192.0.2.10"
        ))?;
        let created = records
            .create(&NewDnsRecord::new(
                format!("tour.{DOMAIN}"),
                DnsRecordType::A,
                "192.0.2.10",
            ))
            .await?;
        out.items(std::slice::from_ref(&created), RECORD_COLUMNS)?;
        let id = created.id.clone();
        self.command(&format!("dns update {DOMAIN} {id} --content 192.0.2.20"))?;
        let updated = records
            .update(
                &id,
                &NewDnsRecord::new(created.name.clone(), DnsRecordType::A, "192.0.2.20"),
            )
            .await?;
        out.items(std::slice::from_ref(&updated), RECORD_COLUMNS)?;
        self.command(&format!("dns get {DOMAIN} {id}"))?;
        let read = records.get(&id).await?;
        out.items(std::slice::from_ref(&read), RECORD_COLUMNS)?;
        self.command(&format!("dns delete {DOMAIN} {id} --yes"))?;
        records.delete(&id).await?;
        let left = records.list().await?;
        self.say(&format!(
            "deleted; {DOMAIN} has {} records again, none of them {id}",
            left.len()
        ))?;
        if left.iter().any(|r| r.id == id) {
            return Err(Failure::new(
                crate::failure::API,
                format!("record {id} is still listed after its deletion"),
            ));
        }
        Ok(())
    }

    async fn cloud(&self) -> Result<(), Failure> {
        let out = &self.context.printer;
        let servers = self.context.client.cloud_servers();
        self.heading("3. Cloud: a power cycle, waiting for each state")?;
        let all = servers.list().await?;
        let Some(server) = all
            .iter()
            .find(|s| s.state == Some(CloudServerState::Running))
        else {
            return self.say("(no running cloud server to power cycle)");
        };
        let id = server.id.clone();
        let wait = WaitArgs {
            wait: true,
            wait_timeout: None,
            wait_interval: None,
        };
        self.command(&format!("cloud power-off {id} --wait"))?;
        servers.power_off(&id).await?;
        let stopped = wait_for(self.context, &id, TargetState::Stopped, &wait).await?;
        out.items(std::slice::from_ref(&stopped), SERVER_COLUMNS)?;
        self.command(&format!("cloud power-on {id} --wait"))?;
        servers.power_on(&id).await?;
        let running = wait_for(self.context, &id, TargetState::Running, &wait).await?;
        out.items(std::slice::from_ref(&running), SERVER_COLUMNS)?;
        self.command(&format!(
            "cloud metrics datatraffic {id} --from 2024-01-01 --to 2024-01-15"
        ))?;
        let query = hostapi::MetricsQuery::parse("2024-01-01T00:00:00Z", "2024-01-15T00:00:00Z")?
            .granularity(hostapi::Granularity::Day);
        let metrics = servers.datatraffic(&id, &query).await?;
        self.say(&super::cloud::chart(&id, &metrics).render(terminal_width(), out.colour()))
    }

    async fn bare_metal(&self) -> Result<(), Failure> {
        let client = &self.context.client;
        self.heading("4. Bare metal: install an operating system, with progress")?;
        let systems = client.catalog().operating_systems().list().await?;
        let Some(os) = systems.first() else {
            return self.say("(no operating system in the catalogue)");
        };
        let id = hostapi::BareMetalId::new(BARE_METAL)?;
        self.say(&format!(
            "(operating system {}: {})",
            os.id,
            os.name.as_deref().unwrap_or("unnamed")
        ))?;
        self.command(&format!(
            "bare-metal install {id} --os {} --yes --wait",
            os.id
        ))?;
        let wait = WaitArgs {
            wait: true,
            wait_timeout: None,
            wait_interval: None,
        };
        bare_metal::install(
            self.context,
            &id,
            &InstallRequest::new(os.id.clone()),
            &wait,
        )
        .await
    }

    async fn cdn(&self) -> Result<(), Failure> {
        let out = &self.context.printer;
        let cdn = self.context.client.cdn();
        self.heading("5. CDN: purge two files and follow the purge")?;
        let zone = ZoneId::new(ZONE)?;
        self.command(&format!(
            "cdn purge {zone} /index.html /css/site.css --wait"
        ))?;
        let job = cdn
            .purge(&zone, &["/index.html", "/css/site.css"])
            .await?
            .id;
        self.say(&format!("purge job {job} queued"))?;
        let queued = cdn.purge_status(&zone, &job).await?;
        out.items(
            &queued.entries,
            &[col("URL", "url"), col("STATUS", "status")],
        )?;
        let wait = WaitArgs {
            wait: true,
            wait_timeout: None,
            wait_interval: None,
        };
        let done = super::cdn::wait_purged(self.context, &zone, &job, &wait).await?;
        self.command(&format!("cdn purge-status {zone} {job}"))?;
        out.items(&done.entries, &[col("URL", "url"), col("STATUS", "status")])
    }
}
