//! Purging cached files of a zone, and reading the status of a purge job.

use hostapi_raw_cdn::types as raw;
use schemars::JsonSchema;
use serde::Serialize;

use super::{Cdn, segment};
use crate::model::macros::open_enum;
use crate::model::{PurgeJobId, ZoneId};
use crate::wait::{Poll, WaitOptions, poll_until};
use crate::wire::FieldError;
use crate::{Error, validate};

open_enum! {
    /// Where the purge of one file is. The docs show only `Queued` and describe no
    /// transitions; any other value the service sends is kept as
    /// [`PurgeStatus::Unknown`].
    PurgeStatus {
        /// Waiting to be purged (the one value the docs show).
        Queued = "Queued" => "queued",
        /// Purged. Not named by the docs: the value other readings of the service
        /// (the simulator) use for a finished purge.
        Done = "Done" => "done",
    }
}

/// One file of a purge job and where its purge is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct PurgeEntry {
    /// The file, as the service names it (the path or URL that was purged).
    pub url: String,
    /// Where its purge is.
    pub status: PurgeStatus,
}

impl Cdn<'_> {
    /// Purges the listed files of a zone from the cache, and answers the id of the
    /// purge job (follow it with [`Cdn::purge_status`]). Sent as the JSON body
    /// `{"urls": [...]}`.
    ///
    /// `paths` are the files' paths (`/css/site.css`), as the docs call them; they are
    /// sent as given. Refused before sending: an empty list, a blank path, and a path
    /// `*` — purging every cached file is [`Cdn::purge_everything`], never the result
    /// of a list. Not retried after it may have reached the server unless the handle
    /// is [`retry_unsafe`](Cdn::retry_unsafe).
    pub async fn purge<S: AsRef<str>>(
        &self,
        zone: &ZoneId,
        paths: &[S],
    ) -> Result<PurgeJobId, Error> {
        let urls = purge_paths(paths)?;
        self.send_purge(zone, urls).await
    }

    /// Purges **every** cached file of a zone at once (the body `{"urls":["*"]}`), and
    /// answers the id of the purge job.
    ///
    /// The purge takes effect immediately, and every file is then fetched from the
    /// origins again: this can load the origin servers hard. Purge the files that
    /// changed with [`Cdn::purge`] where you can.
    pub async fn purge_everything(&self, zone: &ZoneId) -> Result<PurgeJobId, Error> {
        self.send_purge(zone, vec!["*".to_owned()]).await
    }

    async fn send_purge(&self, zone: &ZoneId, urls: Vec<String>) -> Result<PurgeJobId, Error> {
        segment("zone", zone.as_str())?;
        let signed = self.signed()?;
        let call = self
            .handle
            .cdn()
            .purge_zone_content()
            .customer_number(signed.customer)
            .zone_id(zone.as_str())
            .timestamp(signed.timestamp)
            .signature(signed.signature)
            .body(raw::PurgeRequest { urls })
            .send();
        self.handle
            .json("purgeZoneContent", call)
            .await?
            .normalize(|raw| Ok(PurgeJobId::from_wire(raw.success.to_string())))
    }

    /// Reads where a purge job is: one entry per file, in the order the service lists
    /// them. The job id must be numeric (as [`Cdn::purge`] answers it).
    pub async fn purge_status(
        &self,
        zone: &ZoneId,
        job: &PurgeJobId,
    ) -> Result<Vec<PurgeEntry>, Error> {
        segment("zone", zone.as_str())?;
        let job = validate::integer_id("job", job.as_str())?;
        let signed = self.signed()?;
        let call = self
            .handle
            .cdn()
            .get_purge_job()
            .customer_number(signed.customer)
            .zone_id(zone.as_str())
            .job_id(job)
            .timestamp(signed.timestamp)
            .signature(signed.signature)
            .send();
        self.handle
            .json("getPurgeJob", call)
            .await?
            .normalize(entries)
    }

    /// Waits until no file of a purge job is queued: polls [`Cdn::purge_status`] every
    /// `options` interval and answers the entries as last read. The docs name only the
    /// `Queued` status, so any other status counts as no longer queued; the deadline
    /// ends the wait with [`Error::WaitTimeout`] naming how many files were still
    /// queued.
    pub async fn wait_purged(
        &self,
        zone: &ZoneId,
        job: &PurgeJobId,
        options: &WaitOptions,
    ) -> Result<Vec<PurgeEntry>, Error> {
        poll_until(
            format!("purge job {job} of zone {zone}"),
            options,
            || async {
                let entries = self.purge_status(zone, job).await?;
                let queued = entries
                    .iter()
                    .filter(|e| e.status == PurgeStatus::Queued)
                    .count();
                Ok(if queued == 0 {
                    Poll::Done(entries)
                } else {
                    Poll::Pending(format!("{queued} of {} files queued", entries.len()))
                })
            },
        )
        .await
    }
}

/// Checks the paths of a purge: at least one, none blank, none `*`.
fn purge_paths<S: AsRef<str>>(paths: &[S]) -> Result<Vec<String>, Error> {
    if paths.is_empty() {
        return Err(Error::invalid(
            "paths",
            "is empty: name at least one file (purge_everything purges the whole zone)",
        ));
    }
    paths
        .iter()
        .enumerate()
        .map(|(index, path)| {
            let path = path.as_ref();
            if path.trim().is_empty() {
                Err(Error::invalid("paths", format!("path {index} is blank")))
            } else if path.trim() == "*" {
                Err(Error::invalid(
                    "paths",
                    format!(
                        "path {index} is `*`, which purges every cached file of the zone: \
                         call purge_everything to do that"
                    ),
                ))
            } else {
                Ok(path.to_owned())
            }
        })
        .collect()
}

/// `{success: [{<url>: <status>}, …]}` → one entry per URL, in wire order (an entry
/// object with several URLs gives several entries).
pub(crate) fn entries(raw: raw::PurgeJobStatus) -> Result<Vec<PurgeEntry>, FieldError> {
    Ok(raw
        .success
        .into_iter()
        .flat_map(|entry| entry.0.into_iter())
        .map(|(url, status)| PurgeEntry {
            url,
            status: PurgeStatus::from_wire(&status),
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn purge_paths_refuse_empty_blank_and_star() {
        let none: [&str; 0] = [];
        for (paths, reason) in [
            (&none[..], "is empty"),
            (&["/a", " "][..], "path 1 is blank"),
            (&["/a", "*"][..], "path 1 is `*`"),
            (&[" * "][..], "path 0 is `*`"),
        ] {
            match purge_paths(paths).unwrap_err() {
                Error::InvalidInput {
                    argument,
                    reason: why,
                } => {
                    assert_eq!(argument, "paths");
                    assert!(why.starts_with(reason), "{why}");
                }
                other => panic!("{other}"),
            }
        }
        assert_eq!(
            purge_paths(&["/a.css", "/img/*.png"]).unwrap(),
            ["/a.css", "/img/*.png"]
        );
    }
}
