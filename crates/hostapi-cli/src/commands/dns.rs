//! `hostapi dns`: the DNS records of a domain.

use clap::Subcommand;
use hostapi::domains::{DnsRecordType, NewDnsRecord};
use hostapi::types::{DnsRecordId, DomainName};

use super::{Context, parse_id};
use crate::confirm::confirm;
use crate::failure::Failure;
use crate::outcome::settle;
use crate::output::{Column, col};

#[derive(Debug, Subcommand)]
pub(crate) enum DnsCommand {
    /// List a domain's records.
    #[command(after_help = "Example:\n  hostapi --sandbox dns list acme-1.com")]
    List {
        /// The domain name.
        #[arg(value_parser = parse_id::<DomainName>, add = clap_complete::ArgValueCandidates::new(crate::completion::domain_names))]
        domain: DomainName,
    },
    /// Show one record.
    #[command(after_help = "Example:\n  hostapi --sandbox dns get acme-1.com 1000000")]
    Get {
        /// The domain name.
        #[arg(value_parser = parse_id::<DomainName>, add = clap_complete::ArgValueCandidates::new(crate::completion::domain_names))]
        domain: DomainName,
        /// The record's id (see `dns list`).
        #[arg(value_parser = parse_id::<DnsRecordId>, add = clap_complete::ArgValueCandidates::new(crate::completion::dns_record_ids))]
        id: DnsRecordId,
    },
    /// Create a record.
    #[command(
        after_help = "Examples:\n  hostapi --sandbox dns create acme-1.com --name api.acme-1.com --type A --content 192.0.2.10\n  hostapi --sandbox dns create acme-1.com --name acme-1.com --type MX --content mail.acme-1.com \\\n    --priority 10"
    )]
    Create {
        /// The domain name.
        #[arg(value_parser = parse_id::<DomainName>, add = clap_complete::ArgValueCandidates::new(crate::completion::domain_names))]
        domain: DomainName,
        /// The record's name (host).
        #[arg(long)]
        name: String,
        /// The record's type: A, AAAA, CNAME, MX, SRV, TXT, NS, CAA, … (any type the
        /// service takes).
        #[arg(long = "type", value_name = "TYPE", value_parser = parse_type, add = clap_complete::ArgValueCandidates::new(crate::completion::record_types))]
        record_type: DnsRecordType,
        /// The record's value (an address for A and AAAA).
        #[arg(long)]
        content: String,
        /// The priority (MX and SRV records only, where it is required).
        #[arg(long)]
        priority: Option<u16>,
    },
    /// Change a record: the fields not given keep their current value.
    #[command(
        after_help = "Example:\n  hostapi --sandbox dns update acme-1.com 1000000 --content 192.0.2.20"
    )]
    Update {
        /// The domain name.
        #[arg(value_parser = parse_id::<DomainName>, add = clap_complete::ArgValueCandidates::new(crate::completion::domain_names))]
        domain: DomainName,
        /// The record's id (numeric).
        #[arg(value_parser = parse_id::<DnsRecordId>, add = clap_complete::ArgValueCandidates::new(crate::completion::dns_record_ids))]
        id: DnsRecordId,
        /// The new name (host).
        #[arg(long)]
        name: Option<String>,
        /// The new type.
        #[arg(long = "type", value_name = "TYPE", value_parser = parse_type, add = clap_complete::ArgValueCandidates::new(crate::completion::record_types))]
        record_type: Option<DnsRecordType>,
        /// The new value.
        #[arg(long)]
        content: Option<String>,
        /// The new priority (MX and SRV records only).
        #[arg(long)]
        priority: Option<u16>,
    },
    /// Delete a record (asks first; --yes when not on a terminal).
    #[command(after_help = "Example:\n  hostapi --sandbox dns delete acme-1.com 1000000 --yes")]
    Delete {
        /// The domain name.
        #[arg(value_parser = parse_id::<DomainName>, add = clap_complete::ArgValueCandidates::new(crate::completion::domain_names))]
        domain: DomainName,
        /// The record's id.
        #[arg(value_parser = parse_id::<DnsRecordId>, add = clap_complete::ArgValueCandidates::new(crate::completion::dns_record_ids))]
        id: DnsRecordId,
    },
    /// Print the domain's records as a zone file (or --format yaml|toml).
    #[command(after_help = "Example:\n  hostapi --sandbox dns export acme-1.com > acme-1.com.zone")]
    Export(super::dns_sync::ExportArgs),
    /// Show what applying FILE would change: + create, ~ update, - delete.
    #[command(after_help = "Example:\n  hostapi --sandbox dns plan acme-1.com acme-1.com.zone")]
    Plan(super::dns_sync::PlanCommand),
    /// Make the domain match FILE (asks first; --yes when not on a terminal).
    #[command(
        after_help = "Example:\n  hostapi --sandbox dns apply acme-1.com acme-1.com.zone --yes"
    )]
    Apply(super::dns_sync::ApplyArgs),
}

/// The columns of a record list.
pub(crate) const RECORD_COLUMNS: &[Column] = &[
    col("ID", "id"),
    col("NAME", "name"),
    col("TYPE", "type"),
    col("CONTENT", "content"),
    col("PRIORITY", "priority"),
];

/// Any record type: the service's list is open-ended.
fn parse_type(value: &str) -> Result<DnsRecordType, String> {
    if value.trim().is_empty() {
        return Err("the record type is empty".to_owned());
    }
    Ok(DnsRecordType::from_wire(value.trim()))
}

pub(crate) async fn run(context: &Context, command: DnsCommand) -> Result<(), Failure> {
    let domains = context.client.domains();
    let out = &context.printer;
    match command {
        DnsCommand::List { domain } => out.list(
            &out.limited(domains.records(&domain).list()).await?,
            RECORD_COLUMNS,
        ),
        DnsCommand::Get { domain, id } => out.one(&domains.records(&domain).get(&id).await?),
        DnsCommand::Create {
            domain,
            name,
            record_type,
            content,
            priority,
        } => {
            let mut record = NewDnsRecord::new(name, record_type, content);
            record.priority = priority;
            let records = domains.records(&domain);
            let created = settle(records.create(&record).await, || {
                records.confirm_create(&record)
            })
            .await?;
            out.one(&created)
        }
        DnsCommand::Update {
            domain,
            id,
            name,
            record_type,
            content,
            priority,
        } => {
            if name.is_none() && record_type.is_none() && content.is_none() && priority.is_none() {
                return Err(Failure::usage("nothing to change")
                    .hint("give at least one of --name, --type, --content, --priority"));
            }
            let records = domains.records(&domain);
            let current = records.get(&id).await?;
            let Some(record_type) = record_type.or(current.record_type) else {
                return Err(Failure::usage(format!(
                    "DNS record {id} of {domain} has no type the service names"
                ))
                .hint("give its type with --type"));
            };
            // A priority carries over only to a type that has one.
            let priority = priority.or(current.priority.filter(|_| record_type.has_priority()));
            let mut update = NewDnsRecord::new(
                name.unwrap_or(current.name),
                record_type,
                content.unwrap_or(current.content),
            );
            update.priority = priority;
            let updated = settle(records.update(&id, &update).await, || {
                records.confirm_update(&id, &update)
            })
            .await?;
            out.one(&updated)
        }
        DnsCommand::Export(args) => super::dns_sync::export(context, args).await,
        DnsCommand::Plan(args) => super::dns_sync::plan(context, args).await,
        DnsCommand::Apply(args) => super::dns_sync::apply(context, args).await,
        DnsCommand::Delete { domain, id } => {
            confirm(&format!("delete DNS record {id} of {domain}"), context.yes)?;
            let records = domains.records(&domain);
            settle(records.delete(&id).await, || records.confirm_delete(&id)).await?;
            out.outcome(&crate::output::Outcome::of(
                "delete_record",
                &id,
                "done",
                format!("deleted DNS record {id} of {domain}"),
            ))
        }
    }
}
