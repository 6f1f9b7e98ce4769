//! `hostapi domains`: domain names (list, read, change the TTL). Their DNS records are
//! `hostapi dns`.

use clap::Subcommand;

use hostapi::types::DomainName;

use super::{Context, parse_id};
use crate::failure::Failure;
use crate::outcome::settle;
use crate::output::{Column, col};

#[derive(Debug, Subcommand)]
pub(crate) enum DomainsCommand {
    /// List domains.
    #[command(after_help = "Example:\n  hostapi --sandbox domains list")]
    List,
    /// Show one domain.
    #[command(after_help = "Example:\n  hostapi --sandbox domains get acme-1.com")]
    Get {
        /// The domain name.
        #[arg(value_parser = parse_id::<DomainName>, add = clap_complete::ArgValueCandidates::new(crate::completion::domain_names))]
        domain: DomainName,
    },
    /// Change a domain's TTL, in seconds (the service says which values it accepts).
    #[command(after_help = "Example:\n  hostapi --sandbox domains set-ttl acme-1.com 3600")]
    SetTtl {
        /// The domain name.
        #[arg(value_parser = parse_id::<DomainName>, add = clap_complete::ArgValueCandidates::new(crate::completion::domain_names))]
        domain: DomainName,
        /// The TTL in seconds.
        ttl: u32,
    },
}

/// The columns of a domain list.
pub(crate) const DOMAIN_COLUMNS: &[Column] = &[
    col("DOMAIN", "name"),
    col("STATUS", "status"),
    col("TTL", "ttl"),
    col("EDITABLE", "editable"),
    col("MONTHLY PRICE", "monthly_price"),
    col("STARTED", "start_date"),
    col("CODE", "code"),
];

pub(crate) async fn run(context: &Context, command: DomainsCommand) -> Result<(), Failure> {
    let domains = context.client.domains();
    let out = &context.printer;
    match command {
        DomainsCommand::List => out.list(&out.limited(domains.list()).await?, DOMAIN_COLUMNS),
        DomainsCommand::Get { domain } => out.one(&domains.get(&domain).await?),
        DomainsCommand::SetTtl { domain, ttl } => {
            let domain = settle(domains.set_ttl(&domain, ttl).await, || {
                domains.confirm_ttl(&domain, ttl)
            })
            .await?;
            out.one(&domain)
        }
    }
}
