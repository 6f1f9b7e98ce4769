//! Domains and their DNS records: list, read, change the TTL; list, read, create,
//! update and delete records.
//!
//! The handle is [`Domains`], from [`Client::domains`]; [`Domains::records`] gives the
//! [`DnsRecords`] of one domain, which create records from a [`NewDnsRecord`].

mod model;
pub(crate) mod read;

pub use model::*;

use hostapi_raw_infra::types as raw;

use crate::handle::{Handle, retry_unsafe_option};
use crate::list::List;
use crate::model::{DnsRecordId, DomainName};
use crate::outcome::Confirmation;
use crate::wait::{Polled, WaitOptions, poll_until};
use crate::{Client, Error, validate};

impl Client {
    /// The domain names of the account (`/v1/domains`) and their DNS records.
    pub fn domains(&self) -> Domains {
        Domains {
            handle: Handle::new(self),
        }
    }
}

/// Domain names (`/v1/domains`). The records of one domain are reached with
/// [`Domains::records`].
///
/// ```no_run
/// # async fn run(client: hostapi::Client) -> Result<(), hostapi::Error> {
/// let domain: hostapi::types::DomainName = "example.com".parse()?;
/// let updated = client.domains().set_ttl(&domain, 3600).await?;
/// for record in client.domains().records(&domain).list().await? {
///     println!("{} {:?} {}", record.name, record.record_type, record.content);
/// }
/// # let _ = updated;
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct Domains {
    handle: Handle,
}

impl Domains {
    retry_unsafe_option!();

    /// Lists every domain. A domain in an error state (a `code` other than 1000) is
    /// listed like the others; see [`Domain::is_normal`].
    pub fn list(&self) -> List<Domain> {
        let handle = self.handle.clone();
        List::once(async move {
            let infra = handle.infra();
            let answer = handle.call(|| infra.list_domains()).await?;
            answer.list_at(read::DOMAINS, read::wrapped_domain)
        })
    }

    /// Reads one domain. A domain in an error state is returned as it is; see
    /// [`Domain::is_normal`].
    pub async fn get(&self, domain: &DomainName) -> Result<Domain, Error> {
        let infra = self.handle.infra();
        let answer = self
            .handle
            .call(|| infra.get_domain().domainname(domain.as_str()))
            .await?;
        answer.one(read::wrapped_domain)
    }

    /// Changes the TTL of a domain, in seconds, and answers the domain as it now is.
    ///
    /// The documents give no range, so none is enforced here. The answer's `code` is
    /// the domain's state, not the outcome of the call: a domain in an error state
    /// comes back as it is, with [`Domain::is_normal`] false.
    pub async fn set_ttl(&self, domain: &DomainName, ttl: u32) -> Result<Domain, Error> {
        let infra = self.handle.infra();
        let answer = self
            .handle
            .call(|| {
                infra.update_domain_ttl().domainname(domain.as_str()).body(
                    raw::UpdateDomainTtlForm {
                        ttl: i64::from(ttl),
                    },
                )
            })
            .await?;
        answer.one(read::wrapped_domain)
    }

    /// After [`set_ttl`](Self::set_ttl) failed with an unknown outcome: reads the
    /// domain and says whether its TTL is now `ttl`.
    pub async fn confirm_ttl(
        &self,
        domain: &DomainName,
        ttl: u32,
    ) -> Result<Confirmation<Domain>, Error> {
        let current = self.get(domain).await?;
        Ok(if current.ttl == Some(ttl) {
            Confirmation::Applied(current)
        } else {
            Confirmation::NotApplied
        })
    }

    /// The DNS records of one domain.
    pub fn records(&self, domain: &DomainName) -> DnsRecords {
        DnsRecords {
            handle: self.handle.clone(),
            domain: domain.clone(),
        }
    }
}

/// The DNS records of one domain (`/v1/domains/{domain}/dnsRecords`), from
/// [`Domains::records`].
#[derive(Debug, Clone)]
pub struct DnsRecords {
    handle: Handle,
    domain: DomainName,
}

impl DnsRecords {
    retry_unsafe_option!();

    /// The domain these records belong to.
    pub fn domain(&self) -> &DomainName {
        &self.domain
    }

    /// Lists the domain's records.
    pub fn list(&self) -> List<DnsRecord> {
        let handle = self.handle.clone();
        let domain = self.domain.clone();
        List::once(async move {
            let infra = handle.infra();
            let answer = handle
                .call(|| infra.list_dns_records().domainname(domain.as_str()))
                .await?;
            answer.list_at(read::RECORDS, read::wrapped_record)
        })
    }

    /// Reads one record.
    pub async fn get(&self, id: &DnsRecordId) -> Result<DnsRecord, Error> {
        let infra = self.handle.infra();
        let answer = self
            .handle
            .call(|| {
                infra
                    .get_dns_record()
                    .domainname(self.domain.as_str())
                    .record_id(id.as_str())
            })
            .await?;
        answer.one(read::wrapped_record)
    }

    /// Creates a record and answers it as the service stored it.
    ///
    /// Sends the form `host`, `type`, `content` and, for MX and SRV records,
    /// `priority`. Checked before sending: the name and value are not blank, an A
    /// record holds an IPv4 address and an AAAA record an IPv6 address, and a priority
    /// is given for MX and SRV records and for no other type. Not retried once it may
    /// have reached the service (a second create would make a second record), unless
    /// [`retry_unsafe`](Self::retry_unsafe); see [`confirm_create`](Self::confirm_create).
    pub async fn create(&self, record: &NewDnsRecord) -> Result<DnsRecord, Error> {
        validate_record(
            &record.name,
            &record.record_type,
            &record.content,
            record.priority,
        )?;
        let infra = self.handle.infra();
        let answer = self
            .handle
            .call(|| {
                infra
                    .create_dns_record()
                    .domainname(self.domain.as_str())
                    .body(raw::CreateDnsRecordForm {
                        host: record.name.clone(),
                        // Sent as DNS writes types, whatever case a type not named came in.
                        type_: record.record_type.as_wire().to_ascii_uppercase(),
                        content: record.content.clone(),
                        priority: record.priority.map(i64::from),
                    })
            })
            .await?;
        answer.one(read::wrapped_record)
    }

    /// Replaces a record's name, type, value and priority, and answers the record as
    /// it now is.
    ///
    /// The documents name the form fields `id, name, type, data, priority` while their
    /// sample sends `id, host, type, content, priority`; both spellings are sent with
    /// the same values, so either reading of the server works. The id must be numeric
    /// (the form's `id` is an integer); the record is checked as for
    /// [`create`](Self::create).
    pub async fn update(
        &self,
        id: &DnsRecordId,
        update: &NewDnsRecord,
    ) -> Result<DnsRecord, Error> {
        let numeric_id = validate::integer_id("id", id.as_str())?;
        validate_record(
            &update.name,
            &update.record_type,
            &update.content,
            update.priority,
        )?;
        let infra = self.handle.infra();
        let answer = self
            .handle
            .call(|| {
                infra
                    .update_dns_record()
                    .domainname(self.domain.as_str())
                    .record_id(id.as_str())
                    .body(raw::UpdateDnsRecordForm {
                        id: numeric_id,
                        // Sent as DNS writes types, whatever case a type not named came in.
                        type_: update.record_type.as_wire().to_ascii_uppercase(),
                        name: Some(update.name.clone()),
                        host: Some(update.name.clone()),
                        data: Some(update.content.clone()),
                        content: Some(update.content.clone()),
                        priority: update.priority.map(i64::from),
                    })
            })
            .await?;
        answer.one(read::wrapped_record)
    }

    /// Deletes a record. The service answers 200 with no body. A retried delete that
    /// finds the record gone, after an earlier attempt may have removed it, succeeds.
    pub async fn delete(&self, id: &DnsRecordId) -> Result<(), Error> {
        let infra = self.handle.infra();
        self.handle
            .call(|| {
                infra
                    .delete_dns_record()
                    .domainname(self.domain.as_str())
                    .record_id(id.as_str())
            })
            .await?;
        Ok(())
    }

    /// Waits until the record reads back as `record` holds it, and answers it as last
    /// read: after [`create`](Self::create) or [`update`](Self::update), pass the
    /// record the call answered (or that record with the content you expect).
    ///
    /// Each poll reads the record by `record.id` ([`get`](Self::get)). The wait ends
    /// when it holds `record`'s name, type, value and priority, compared as
    /// [`NewDnsRecord::matches`] compares them (names without regard to letter case or
    /// a final dot); its other fields (`extra`) are not compared. A record not found
    /// (404) or holding other values keeps the wait going, its state reported to the
    /// progress callback (`not found`, or the type and value it holds). Any other error
    /// ends the wait; the deadline ends it with [`Error::WaitTimeout`]. A `record`
    /// without a type is refused before polling ([`Error::InvalidInput`]): there would
    /// be nothing to compare the type with.
    ///
    /// This is the record as the API serves it, not as the domain's name servers answer
    /// for it: they follow within the zone's TTL.
    pub async fn wait_visible(
        &self,
        record: &DnsRecord,
        options: &WaitOptions,
    ) -> Result<DnsRecord, Error> {
        let wanted = NewDnsRecord::from_record(record).ok_or_else(|| {
            Error::invalid(
                "record",
                format!(
                    "record {} has no type: its read-back cannot be compared",
                    record.id
                ),
            )
        })?;
        let what = format!(
            "DNS record {} of {} to read back as {} {}",
            record.id, self.domain, wanted.record_type, wanted.content
        );
        poll_until(what, options, || async {
            match self.get(&record.id).await {
                Ok(current) if wanted.matches(&current) => Ok(Polled::Done(current)),
                Ok(current) => Ok(Polled::Pending(match &current.record_type {
                    Some(record_type) => format!("{record_type} {}", current.content),
                    None => format!("no type, {}", current.content),
                })),
                Err(error) if error.is_not_found() => Ok(Polled::Pending("not found".to_owned())),
                Err(error) => Err(error),
            }
        })
        .await
    }

    /// The record holding exactly `record`'s name, type, value and priority, if there
    /// is one.
    pub async fn find(&self, record: &NewDnsRecord) -> Result<Option<DnsRecord>, Error> {
        let records = self.list().await?;
        Ok(records.into_iter().find(|r| record.matches(r)))
    }

    /// After [`create`](Self::create) failed with an unknown outcome: whether a record
    /// like `record` now exists.
    pub async fn confirm_create(
        &self,
        record: &NewDnsRecord,
    ) -> Result<Confirmation<DnsRecord>, Error> {
        Ok(match self.find(record).await? {
            Some(found) => Confirmation::Applied(found),
            None => Confirmation::NotApplied,
        })
    }

    /// After [`update`](Self::update) failed with an unknown outcome: whether the
    /// record now holds `update`.
    pub async fn confirm_update(
        &self,
        id: &DnsRecordId,
        update: &NewDnsRecord,
    ) -> Result<Confirmation<DnsRecord>, Error> {
        let current = self.get(id).await?;
        Ok(if update.matches(&current) {
            Confirmation::Applied(current)
        } else {
            Confirmation::NotApplied
        })
    }

    /// After [`delete`](Self::delete) failed with an unknown outcome: whether the
    /// record is gone.
    pub async fn confirm_delete(&self, id: &DnsRecordId) -> Result<Confirmation<()>, Error> {
        match self.get(id).await {
            Ok(_) => Ok(Confirmation::NotApplied),
            Err(error) if error.is_not_found() => Ok(Confirmation::Applied(())),
            Err(error) => Err(error),
        }
    }
}
