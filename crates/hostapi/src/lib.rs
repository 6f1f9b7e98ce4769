//! # hostapi
//!
//! One Rust client for the hosting provider's three HTTP interfaces: the v1
//! infrastructure API (virtual servers, domains and DNS, bare metal servers, private
//! racks, IPs, catalogues, private networks), the cloud v2 API (virtual servers, jobs,
//! credentials, metrics, private clouds) and the CDN API (purges, customers, ACLs,
//! origins, signed URLs).
//!
//! The interfaces are quirky: ids that are strings in one view and integers in
//! another, numbers sent as strings, five date formats, a misspelt `succes` key,
//! wrappers of every kind. None of that reaches you: you get typed ids, enums that keep
//! values they do not know (`Unknown(String)`), real dates, exact decimals for money,
//! quantities with units, one shape per concept, and every field the model does not
//! name kept in the record's `extra` map.
//!
//! ## Getting started
//!
//! ```no_run
//! # async fn run() -> Result<(), hostapi::Error> {
//! // HOSTAPI_API_KEY, HOSTAPI_BASE_URL, and for the CDN HOSTAPI_CDN_SECRET,
//! // HOSTAPI_CDN_CUSTOMER, HOSTAPI_CDN_BASE_URL.
//! let client = hostapi::Client::from_env()?;
//! // Or explicitly:
//! let client = hostapi::Client::builder()
//!     .base_url("https://api.example.com")
//!     .api_key("…")
//!     .timeout(std::time::Duration::from_secs(30))
//!     .build()?;
//! # let _ = client;
//! # Ok(())
//! # }
//! ```
//!
//! A [`Client`] is cheap to clone (an `Arc` inside) and every handle it gives out owns
//! such a clone, so handles, lists and streams can be stored, moved into tasks and
//! spawned (`'static + Send`). Base URLs must be `https://`, except loopback hosts.
//!
//! ## One shape for every resource group
//!
//! Each group is a handle from the client: `client.bare_metals()`,
//! `client.virtual_servers()`, `client.cloud_servers()`, `client.domains()` (and
//! `.records(&domain)` for its DNS records), `client.private_racks()`,
//! `client.private_networks()`, `client.ips()`, `client.catalog()`,
//! `client.private_clouds()`, `client.cdn()` (`.customers()`, `.sub_customers()`,
//! `.acl()`, `.origins()`, and the purge calls). Each offers what the service allows of
//! `list()`, `get(id)`, `create`, `update`, `delete`, verbs for actions (`power_on`,
//! `reboot`, `install`, `purge`), `wait_*` waiters that take `&WaitOptions`, and
//! `confirm_*` read-backs for writes whose outcome is unknown (below). Arguments are
//! typed: ids ([`types::BareMetalId`],
//! [`types::CloudServerId`], …), [`types::DomainName`],
//! [`types::MacAddress`], [`std::net::IpAddr`]; each parses and checks its
//! text, so a bad value is refused before anything is sent.
//!
//! Each id type has one rule of what it may be, in one table,
//! [`types::ID_RULES`] (a number,
//! a token of `[A-Za-z0-9._-]` that is not `.` or `..`, a UUID-like token, a domain
//! name, …, following the API documents and the specs). The same rule checks an id
//! you make ([`types::TypedId`], `FromStr`), an id read from an answer (one that breaks it
//! makes its record unreadable), and the command line's arguments and completion. And
//! every request is checked against its operation's path template before it is sent:
//! no value can make a request reach another path.
//!
//! ```no_run
//! # async fn run(client: hostapi::Client) -> Result<(), hostapi::Error> {
//! let id: hostapi::types::BareMetalId = "20001".parse()?;
//! let server = client.bare_metals().get(&id).await?;
//! println!("{:?} in {:?}", server.name, server.location);
//!
//! let domain: hostapi::types::DomainName = "example.com".parse()?;
//! for record in client.domains().records(&domain).list().await? {
//!     println!("{} {:?} {}", record.name, record.record_type, record.content);
//! }
//! # Ok(())
//! # }
//! ```
//!
//! ## Where things are
//!
//! The crate's root holds what every program uses: [`Client`] and [`ClientBuilder`],
//! [`Error`] and [`Result`], the list types ([`List`], [`Listing`], [`Unreadable`]),
//! [`WaitOptions`], [`Confirmation`] and [`Secret`]. Everything else is in a module
//! named for what it is about, holding its handle, its models and its request types:
//!
//! | Module | What it holds |
//! |---|---|
//! | [`bare_metal`] | servers, installs, power, network usage, their IPs and DHCP leases |
//! | [`virtual_servers`] | v1 virtual servers |
//! | [`cloud`] | cloud v2 servers, credentials, metrics, private clouds |
//! | [`domains`] | domains and their DNS records |
//! | [`private_racks`], [`private_networks`] | racks; networks between bare metal servers |
//! | [`ips`] | IP addresses, as every group shows them |
//! | [`catalog`] | operating systems, control panels, rescue images, services |
//! | [`cdn`] | purges, customers, the ACL, origins |
//! | [`types`] | ids and their rules, money, sizes, contract terms, jobs, `extra`; the re-exported [`types::chrono`], [`types::rust_decimal`], [`types::serde_json`] |
//! | [`error`] | the parts of an [`Error`] |
//! | [`client`] | the environment variables, [`client::RetryPolicy`] |
//! | [`bulk`](mod@bulk), [`wait`], [`signing`] | many reads at once; waiting; CDN signatures and clocks |
//!
//! ```
//! use hostapi::bare_metal::{BareMetalServer, InstallRequest};
//! use hostapi::types::{BareMetalId, OperatingSystemId};
//!
//! let id: BareMetalId = "20001".parse()?;
//! let os: OperatingSystemId = "867".parse()?;
//! let request = InstallRequest::new(os);
//! # let _ = (id, request, None::<BareMetalServer>);
//! # Ok::<(), hostapi::Error>(())
//! ```
//!
//! ## Lists and paging
//!
//! `list()` returns a [`List`] builder. Await it for a [`Listing`] of every record
//! (it dereferences to a slice), call [`List::stream`] for the records as the pages
//! arrive, or [`List::pages`] for the pages themselves. Every list whose answer
//! carries `_metadata {totalCount, limit, offset}` is read to its end, page by page:
//! cloud servers and credentials (whose documents name `limit`/`offset`), and private
//! networks, private clouds and DHCP leases (whose documents name no paging
//! parameters: their first request sends none, and `limit`/`offset` ask for the rest
//! only when `totalCount` says there is more). [`Listing::total_count`] tells how many
//! records the whole list holds.
//!
//! [`List::limit`] stops a list once it holds that many records, asking for no page
//! it does not need. The pager proves progress, so no server can make a list run for
//! ever: it stops with [`Error::Paging`] when a server repeats records (it ignores
//! `offset`), sends more pages than its count allows, or announces or sends more
//! records than the list's ceiling ([`List::max_records`]; one million by default,
//! [`ClientBuilder::max_list_records`] for every list of a client) — then before
//! asking for any further page.
//!
//! ```no_run
//! # async fn run(client: hostapi::Client) -> Result<(), hostapi::Error> {
//! use futures::StreamExt;
//! let mut servers = client.cloud_servers().list().page_size(50).stream();
//! while let Some(server) = servers.next().await {
//!     let server = server?;
//!     println!("{} {:?}", server.id, server.state);
//! }
//! // The first five, in one request, and how many there are in all.
//! let first = client.cloud_servers().list().limit(5).await?;
//! println!("{} of {:?}", first.len(), first.total_count());
//! # Ok(())
//! # }
//! ```
//!
//! A record whose id cannot be read does not fail the list: it is an entry of
//! [`Listing::unreadable`], in its place, and the other records are returned.
//!
//! ## Reading the wire
//!
//! Every field of every answer is read by the same rules:
//!
//! - a number may come as a JSON number or numeric text, an id as either (and an id
//!   must pass its rule in [`types::ID_RULES`]: one that does not fails its record);
//! - a boolean as `true`/`false`, `"true"`/`"false"`, `1`/`0`, `"1"`/`"0"`,
//!   `"Yes"`/`"No"`, in any letter case;
//! - an optional value as `null`, `""` or absent;
//! - enum-like values in any letter case; an unknown value is kept as `Unknown`;
//! - nothing is guessed: bits and bytes differ by letter case (`Gb` is not `GB`), and a
//!   number whose comma could be a thousands or a decimal separator is not read.
//!
//! A field that still cannot be read costs that field, not the record or the call: it
//! reads as `None` (or unknown), its raw value stays in the record's `extra`, and a
//! warning naming its JSON path is logged with `tracing` (target `hostapi`). Only a
//! record's id is required. [`ClientBuilder::strict`] turns those warnings back into
//! errors, for tests. What the client sends stays exact and documented.
//!
//! ## Errors
//!
//! Every call fails with one [`Error`]. Each failure keeps the call it happened in
//! ([`error::CallInfo`]: operation, method, path, attempts, time) and its cause as
//! [`std::error::Error::source`]; an error status keeps the service's code, message,
//! correlation id and `Retry-After`. Ask [`Error::is_not_found`], [`Error::is_auth`],
//! [`Error::is_retryable`] or [`Error::is_outcome_unknown`] rather than matching on
//! codes. No error, log line or `Debug` output holds a credential: texts taken from
//! answers are scrubbed of the configured API key and CDN secret, and secrets the
//! service returns are [`Secret`]s.
//!
//! ```no_run
//! # async fn run(client: hostapi::Client) -> Result<(), hostapi::Error> {
//! let id: hostapi::types::VirtualServerId = "999999".parse()?;
//! match client.virtual_servers().get(&id).await {
//!     Ok(server) => println!("{:?}", server.name),
//!     Err(e) if e.is_not_found() => println!("no such server"),
//!     Err(e) => return Err(e),
//! }
//! # Ok(())
//! # }
//! ```
//!
//! Redirects are never followed (credentials stay with the configured host: a 3xx is
//! [`Error::Redirect`], and after a write [`Error::OutcomeUnknown`] with that cause),
//! the environment's proxy is used only for https hosts that are not loopback, and
//! answers are bounded ([`ClientBuilder::max_answer_bytes`],
//! 64 MiB by default; past it, [`Error::AnswerTooLarge`]).
//!
//! ## Writes: applied, not applied, or unknown
//!
//! A write that returns `Ok` was applied. An error other than
//! [`Error::OutcomeUnknown`] means it was not. `OutcomeUnknown` means the request may
//! have reached the service but its answer was lost, cut, garbled or a server error:
//! the change may have happened. Where one read can tell, the group offers a
//! `confirm_*` method that reads back and answers a [`Confirmation`]. A retried
//! `DELETE` that finds the resource gone counts as applied.
//!
//! ```no_run
//! # async fn run(client: hostapi::Client) -> Result<(), hostapi::Error> {
//! # let domain: hostapi::types::DomainName = "example.com".parse()?;
//! let records = client.domains().records(&domain);
//! use hostapi::domains::{DnsRecordType, NewDnsRecord};
//! let wanted = NewDnsRecord::new("www.example.com", DnsRecordType::A, "192.0.2.10");
//! match records.create(&wanted).await {
//!     Ok(record) => println!("created {}", record.id),
//!     Err(e) if e.is_outcome_unknown() => match records.confirm_create(&wanted).await? {
//!         hostapi::Confirmation::Applied(record) => println!("created {} after all", record.id),
//!         _ => println!("not created; safe to try again"),
//!     },
//!     Err(e) => return Err(e),
//! }
//! # Ok(())
//! # }
//! ```
//!
//! ## Waiting
//!
//! Waiters poll until a state is reached, and prove the transition: an install wait
//! first sees the installation start, a reboot wait first sees the server leave
//! `RUNNING`. They take a [`WaitOptions`] (interval, at least
//! [`WaitOptions::MIN_INTERVAL`]; timeout, kept exactly; a progress callback) and end
//! with [`Error::WaitTimeout`] or [`Error::WaitFailed`] when the goal is not reached.
//!
//! ```no_run
//! # async fn run(client: hostapi::Client) -> Result<(), hostapi::Error> {
//! use std::time::Duration;
//! let id: hostapi::types::CloudServerId = "c90e8a9c-09ba-46e2-ae8a-0c71c86fa728".parse()?;
//! let options = hostapi::WaitOptions::new()
//!     .interval(Duration::from_secs(2))
//!     .timeout(Duration::from_secs(300))
//!     .on_progress(|p| eprintln!("{p:?}"));
//! let server = client.cloud_servers().reboot_and_wait(&id, &options).await?;
//! println!("{} is {:?}", server.id, server.state);
//! # Ok(())
//! # }
//! ```
//!
//! [`DnsRecords::wait_visible`] waits for a created or updated DNS record to read back
//! with its values. For a wait of your own, [`poll_until`] runs the same loop: the
//! closure polls and says [`Polled::Done`], `Pending`, `Unsure` or `Failed`.
//!
//! ## Many reads at once
//!
//! `get_many` (bare metal, virtual servers, cloud servers, racks) and
//! [`bulk::bulk`] run reads with a bound on how many are in flight, and answer one
//! [`bulk::BulkItem`] per input, so one failure is that item's error.
//!
//! ## Testing against the simulator
//!
//! The `hostapi-sim` crate serves all three interfaces on loopback, quirks included.
//! Start one per test and point a client at it:
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let sim = hostapi_sim::Sim::start(hostapi_sim::SimConfig::default().with_seed(7)).await?;
//! let client = hostapi::Client::builder()
//!     .base_url(sim.base_url())
//!     .api_key(sim.api_key())
//!     .cdn_base_url(sim.cdn_base_url())
//!     .cdn_secret(sim.cdn_secret())
//!     .cdn_customer(sim.cdn_customer())
//!     .strict(true) // in tests, every field must be read
//!     .build()?;
//! let servers = client.bare_metals().list().await?;
//! assert!(!servers.is_empty());
//! sim.shutdown().await;
//! # Ok(())
//! # }
//! ```
//!
//! ## Testing code that uses hostapi
//!
//! Code that takes the SDK's records can also be tested without a server, with records
//! built by hand or kept as JSON fixtures:
//!
//! - **Built by hand.** The models are `#[non_exhaustive]` (a field the service adds is
//!   not a breaking change), so outside this crate they cannot be written as struct
//!   literals. Each has `new(…)` taking what it cannot be without (an id, a name), with
//!   every other field empty; set the public fields you need. Parts with nothing
//!   required ([`BareMetalHardware`], [`HostingContract`], [`CdnCustomer`], …) implement
//!   `Default`.
//! - **Read from JSON.** Every model implements `Deserialize`, reading what its
//!   `Serialize` writes (the CLI's `--output json` too) back into an equal value. Ids are
//!   checked by their rule in [`ID_RULES`] on the way in (a bad id is an error, not a
//!   panic); an unknown enum value reads back as the same `Unknown`, in its letter case;
//!   `extra` as written. This reads the SDK's own form, not the service's answers.
//! - **Secrets.** Serialised output shows [`REDACTED`] in place of each [`Secret`]
//!   unless written inside [`expose_secrets`]. [`REDACTED`] reads back as a placeholder
//!   ([`Secret::is_redacted`]) that equals no secret, so a record written without
//!   `expose_secrets` reads back with placeholders where its secrets were. Write
//!   fixtures that must keep their secrets inside `expose_secrets`.
//!
//! ```
//! use hostapi::{bare_metal::BareMetalHardware, types::BareMetalId, bare_metal::BareMetalServer, domains::DnsRecord, domains::DnsRecordType};
//!
//! let mut server = BareMetalServer::new(BareMetalId::new("20001")?);
//! server.name = Some("web-1".into());
//! let mut hardware = BareMetalHardware::default();
//! hardware.cpu_count = Some(2);
//! server.hardware = Some(hardware);
//!
//! // Through JSON and back: the same value.
//! let json = serde_json::to_string(&server)?;
//! assert_eq!(serde_json::from_str::<BareMetalServer>(&json)?, server);
//!
//! // A fixture; an id that breaks its rule is an error.
//! let record: DnsRecord = serde_json::from_str(
//!     r#"{"id": "7", "name": "www", "type": "A", "content": "192.0.2.10", "priority": null}"#,
//! )?;
//! assert_eq!(record.record_type, Some(DnsRecordType::A));
//! let bad = r#"{"id": "7/..", "name": "www", "type": "A", "content": "192.0.2.10", "priority": null}"#;
//! assert!(serde_json::from_str::<DnsRecord>(bad).is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The JSON Schema of the models (`schemars::JsonSchema` on each) comes with the
//! `schema` feature.
//!
//! Runnable programs, one per resource group, are in the crate's `examples/`.

pub mod bare_metal;
pub mod bulk;
pub mod catalog;
pub mod cdn;
pub mod client;
pub mod cloud;
mod config;
pub mod domains;
pub mod error;
mod handle;
#[cfg(feature = "internal")]
pub mod internal;
pub mod ips;
mod list;
mod model;
mod outcome;
mod paging;
pub mod private_networks;
pub mod private_racks;
mod proxy;
mod raw;
mod read;
mod scrub;
mod secret;
pub mod signing;
mod transport;
pub mod types;
mod validate;
pub mod virtual_servers;
pub mod wait;

pub use client::{Client, ClientBuilder};
pub use error::Error;
pub use list::{List, Listing, Unreadable};
pub use outcome::Confirmation;
pub use secret::Secret;
pub use wait::WaitOptions;

/// `Result<T, hostapi::Error>`: what every call of the crate returns.
pub type Result<T, E = Error> = std::result::Result<T, E>;

// Inside the crate every public item keeps its short path (`crate::BareMetalId`,
// `crate::Extra`), whichever public module users reach it through: the crate's own
// code does not depend on how the public API is grouped. Not every group is named
// through this today, hence the `allow`.
#[allow(unused_imports)]
pub(crate) use {
    bare_metal::*,
    bulk::*,
    catalog::*,
    cdn::*,
    client::*,
    cloud::*,
    domains::*,
    error::*,
    model::*,
    private_networks::*,
    private_racks::*,
    signing::*,
    types::{CdnCustomerId, REDACTED, VirtualServerId, expose_secrets},
    virtual_servers::*,
    wait::*,
};
