//! Domains and their DNS records: list, read, change the TTL; list, read, create,
//! update and delete records.

mod model;
pub(crate) mod normalize;

pub use model::*;

use crate::handle::{Handle, retry_unsafe_option};
use crate::model::DnsRecordId;
use crate::{Client, Error, validate};

impl Client {
    /// The domain names of the account and their DNS records.
    pub fn domains(&self) -> Domains<'_> {
        Domains {
            handle: Handle::new(self),
        }
    }
}

/// Domain names (`/v1/domains`). The records of one domain are reached with
/// [`Domains::records`].
#[derive(Debug, Clone, Copy)]
pub struct Domains<'a> {
    handle: Handle<'a>,
}

impl<'a> Domains<'a> {
    retry_unsafe_option!();

    /// Lists every domain. A domain in an error state (a `code` other than 1000) is
    /// listed like the others; see [`Domain::is_normal`].
    pub async fn list(&self) -> Result<Vec<Domain>, Error> {
        let call = self.handle.infra().list_domains().send();
        self.handle
            .records("listDomains", call, &normalize::LIST)
            .await
    }

    /// Reads one domain by name. Validates the name (a domain name such as `example.com`)
    /// before sending. A domain in an error state is returned as it is; see
    /// [`Domain::is_normal`].
    pub async fn get(&self, domain: &str) -> Result<Domain, Error> {
        validate_domain(domain)?;
        let call = self.handle.infra().get_domain().domainname(domain).send();
        self.handle
            .json("getDomain", call)
            .await?
            .normalize(normalize::single)
    }

    /// Changes the TTL of a domain, in seconds, and answers the domain as it now is.
    ///
    /// The API documents no range; the facade accepts [`TTL_RANGE`] (60 to 86 400
    /// seconds, one minute to one day) and refuses other values, and a name that is
    /// not a domain name, before sending. The answer's `code` is the domain's state,
    /// not the outcome of the call (the service answers 200 and the TTL is changed): a
    /// domain in an error state comes back as it is, with [`Domain::is_normal`] false.
    pub async fn set_ttl(&self, domain: &str, ttl: u32) -> Result<Domain, Error> {
        validate_domain(domain)?;
        if !TTL_RANGE.contains(&ttl) {
            return Err(Error::invalid(
                "ttl",
                format!(
                    "{ttl} is outside {}..={} seconds",
                    TTL_RANGE.start(),
                    TTL_RANGE.end()
                ),
            ));
        }
        let form = hostapi_raw_infra::types::UpdateDomainTtlForm {
            ttl: i64::from(ttl),
        };
        let call = self
            .handle
            .infra()
            .update_domain_ttl()
            .domainname(domain)
            .body(form)
            .send();
        self.handle
            .json("updateDomainTtl", call)
            .await?
            .normalize(normalize::single)
    }

    /// The DNS records of one domain. Nothing is sent until a method of the returned
    /// handle is called; the name is validated then.
    pub fn records(&self, domain: &str) -> DnsRecords<'a> {
        DnsRecords {
            handle: self.handle,
            domain: domain.to_owned(),
        }
    }
}

/// The DNS records of one domain (`/v1/domains/{domain}/dnsRecords`), from
/// [`Domains::records`].
#[derive(Debug, Clone)]
pub struct DnsRecords<'a> {
    handle: Handle<'a>,
    domain: String,
}

impl DnsRecords<'_> {
    /// The same handle, with calls that are not idempotent (POST: create) retried like
    /// reads when they fail in a way that may pass. By default they are retried only
    /// when the request provably never reached the server; opt in when a duplicate
    /// record is harmless to you.
    pub fn retry_unsafe(self) -> Self {
        Self {
            handle: self.handle.retrying_unsafe(),
            domain: self.domain,
        }
    }

    /// The domain these records belong to.
    pub fn domain(&self) -> &str {
        &self.domain
    }

    /// Lists the domain's records.
    pub async fn list(&self) -> Result<Vec<DnsRecord>, Error> {
        validate_domain(&self.domain)?;
        let call = self
            .handle
            .infra()
            .list_dns_records()
            .domainname(self.domain.as_str())
            .send();
        self.handle
            .records("listDnsRecords", call, &normalize::RECORDS)
            .await
    }

    /// Reads one record.
    pub async fn get(&self, id: &DnsRecordId) -> Result<DnsRecord, Error> {
        validate_domain(&self.domain)?;
        validate::path_segment("id", id.as_str())?;
        let call = self
            .handle
            .infra()
            .get_dns_record()
            .domainname(self.domain.as_str())
            .record_id(id.as_str())
            .send();
        self.handle
            .json("getDnsRecord", call)
            .await?
            .normalize(normalize::single_record)
    }

    /// Creates a record and answers it as the service stored it.
    ///
    /// Sends the form `host`, `type`, `content` and, for MX and SRV records,
    /// `priority`. Validated before sending: the name and value are not blank, an A
    /// record holds an IPv4 address and an AAAA record an IPv6 address, and a priority
    /// is given for MX and SRV records and for no other type.
    pub async fn create(&self, record: &NewDnsRecord) -> Result<DnsRecord, Error> {
        validate_domain(&self.domain)?;
        validate_record(
            &record.name,
            &record.record_type,
            &record.content,
            record.priority,
        )?;
        let call = self
            .handle
            .infra()
            .create_dns_record()
            .domainname(self.domain.as_str())
            .body(normalize::create_form(record))
            .send();
        self.handle
            .json("createDnsRecord", call)
            .await?
            .normalize(normalize::single_record)
    }

    /// Replaces a record's name, type, value and priority, and answers the record as
    /// it now is.
    ///
    /// The docs name the form fields `id, name, type, data, priority` while their
    /// sample sends `id, host, type, content, priority`; the facade sends both
    /// spellings with the same values (`id`, `type`, `name` and `host`, `data` and
    /// `content`, and `priority` for MX and SRV records), so either reading of the
    /// server works. The id must be numeric (the form's `id` is an integer); the
    /// record is validated as for [`DnsRecords::create`].
    pub async fn update(
        &self,
        id: &DnsRecordId,
        update: &DnsRecordUpdate,
    ) -> Result<DnsRecord, Error> {
        validate_domain(&self.domain)?;
        let numeric_id = validate::integer_id("id", id.as_str())?;
        validate_record(
            &update.name,
            &update.record_type,
            &update.content,
            update.priority,
        )?;
        let call = self
            .handle
            .infra()
            .update_dns_record()
            .domainname(self.domain.as_str())
            .record_id(id.as_str())
            .body(normalize::update_form(numeric_id, update))
            .send();
        self.handle
            .json("updateDnsRecord", call)
            .await?
            .normalize(normalize::single_record)
    }

    /// Deletes a record. The service answers 200 with no body.
    pub async fn delete(&self, id: &DnsRecordId) -> Result<(), Error> {
        validate_domain(&self.domain)?;
        validate::path_segment("id", id.as_str())?;
        let call = self
            .handle
            .infra()
            .delete_dns_record()
            .domainname(self.domain.as_str())
            .record_id(id.as_str())
            .send();
        self.handle.empty("deleteDnsRecord", call).await
    }
}

/// A domain name that goes into a path: a valid name, and one path segment.
fn validate_domain(domain: &str) -> Result<(), Error> {
    validate::domain_name("domain", domain)?;
    validate::path_segment("domain", domain)
}
