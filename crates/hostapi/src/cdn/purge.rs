//! Purging cached files of a zone, and reading the status of a purge job.

use hostapi_raw_cdn::types as raw;
#[cfg(feature = "schema")]
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Cdn, payload, segment, signing};
use crate::model::macros::{constructor, open_enum};
use crate::model::{Extra, PurgeJobId, ZoneId};
use crate::read::{Cursor, FieldError, Json};
use crate::wait::{Polled, WaitOptions, poll_until};
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
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct PurgeEntry {
    /// The file, as the service names it (the path or URL that was purged).
    pub url: String,
    /// Where its purge is.
    pub status: PurgeStatus,
}

/// A purge the service accepted: its job, and what it purges. What the CLI prints for a
/// purge, and what [`Cdn::wait_purged`] completes with each file's status.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(JsonSchema))]
#[non_exhaustive]
pub struct PurgeJob {
    /// The job's id.
    #[serde(rename = "job_id")]
    pub id: PurgeJobId,
    /// The zone purged.
    pub zone: ZoneId,
    /// The files purged, as sent (`*` for everything).
    pub urls: Vec<String>,
    /// Each file and where its purge is, when read (empty right after the purge).
    pub entries: Vec<PurgeEntry>,
    /// Members of the answer the model does not name.
    #[serde(default, skip_serializing_if = "Extra::is_empty")]
    pub extra: Extra,
}

constructor! {
    /// A job of a zone, before any file is known (set the other fields as needed).
    PurgeJob(id: PurgeJobId, zone: ZoneId) { urls, entries, extra }
}

crate::read::shapes::has_extra!(PurgeJob);

impl PurgeJob {
    /// Whether no file is still queued (and the status has been read).
    pub fn is_done(&self) -> bool {
        !self.entries.is_empty() && self.entries.iter().all(|e| e.status != PurgeStatus::Queued)
    }
}

impl Cdn {
    /// Purges cached files of a zone, and answers the job. Each path names one file as
    /// the CDN serves it (`/index.html`).
    ///
    /// A purge only makes the CDN fetch the files again, so repeating one is harmless:
    /// it is retried like a read. Refused before sending: no paths, a blank path, and
    /// `*` (which purges the whole zone at once and loads the origins hard: call
    /// [`purge_everything`](Self::purge_everything) for that, explicitly).
    pub async fn purge<S: AsRef<str>>(
        &self,
        zone: &ZoneId,
        paths: &[S],
    ) -> Result<PurgeJob, Error> {
        let urls = purge_paths(paths)?;
        self.send_purge(zone, urls).await
    }

    /// Purges every cached file of a zone at once (the wire's `*`). The origins then
    /// serve every request until the cache fills again.
    pub async fn purge_everything(&self, zone: &ZoneId) -> Result<PurgeJob, Error> {
        self.send_purge(zone, vec!["*".to_owned()]).await
    }

    async fn send_purge(&self, zone: &ZoneId, urls: Vec<String>) -> Result<PurgeJob, Error> {
        segment("zone", zone.as_str())?;
        let signed = signing(&self.handle)?;
        let cdn = self.handle.cdn();
        // Repeating a purge is harmless: retried like a read.
        let handle = self.handle.clone().retrying_unsafe();
        let answer = handle
            .call_cdn(|| {
                cdn.purge_zone_content()
                    .customer_number(signed.customer)
                    .zone_id(zone.as_str())
                    .timestamp(signed.timestamp())
                    .signature(signed.signature())
                    .body(raw::PurgeRequest { urls: urls.clone() })
            })
            .await?;
        answer.one(|cursor, body| purge_answer(cursor, body, zone, &urls))
    }

    /// Reads where each file of a purge job is: the job, its `entries` filled in.
    pub async fn purge_status(&self, zone: &ZoneId, job: &PurgeJobId) -> Result<PurgeJob, Error> {
        segment("zone", zone.as_str())?;
        let job_number = validate::integer_id("job", job.as_str())?;
        let signed = signing(&self.handle)?;
        let cdn = self.handle.cdn();
        let answer = self
            .handle
            .call_cdn(|| {
                cdn.get_purge_job()
                    .customer_number(signed.customer)
                    .zone_id(zone.as_str())
                    .job_id(job_number)
                    .timestamp(signed.timestamp())
                    .signature(signed.signature())
            })
            .await?;
        answer.one(|cursor, body| status_answer(cursor, body, zone, job))
    }

    /// Polls a purge job until no file is queued, and answers the job with each file's
    /// status. A file whose status the documents do not name (neither `Queued` nor
    /// `Done`) counts as no longer queued.
    pub async fn wait_purged(
        &self,
        zone: &ZoneId,
        job: &PurgeJobId,
        options: &WaitOptions,
    ) -> Result<PurgeJob, Error> {
        poll_until(
            format!("purge job {job} of zone {zone}"),
            options,
            || async {
                let status = self.purge_status(zone, job).await?;
                let queued = status
                    .entries
                    .iter()
                    .filter(|e| e.status == PurgeStatus::Queued)
                    .count();
                Ok(if status.entries.is_empty() {
                    Polled::Unsure("no files listed yet".to_owned())
                } else if queued == 0 {
                    Polled::Done(status)
                } else {
                    Polled::Pending(format!("{queued} of {} files queued", status.entries.len()))
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

/// `{success: <job id>}` → the job just started.
pub(crate) fn purge_answer(
    cursor: &mut Cursor,
    body: Json<'_>,
    zone: &ZoneId,
    urls: &[String],
) -> Result<PurgeJob, FieldError> {
    payload(cursor, body, |cursor, job| {
        let id = crate::read::fields::id_of(&job)
            .and_then(<PurgeJobId as crate::model::WireId>::from_wire)
            .map_err(|message| cursor.error("", message))?;
        Ok(PurgeJob {
            id,
            zone: zone.clone(),
            urls: urls.to_vec(),
            entries: Vec::new(),
            extra: Extra::new(),
        })
    })
}

/// `{success: [{<url>: status}, …]}` → the job with its entries.
pub(crate) fn status_answer(
    cursor: &mut Cursor,
    body: Json<'_>,
    zone: &ZoneId,
    job: &PurgeJobId,
) -> Result<PurgeJob, FieldError> {
    payload(cursor, body, |cursor, json| {
        let entries = entries(cursor, json)?;
        Ok(PurgeJob {
            id: job.clone(),
            zone: zone.clone(),
            urls: entries.iter().map(|e| e.url.clone()).collect(),
            entries,
            extra: Extra::new(),
        })
    })
}

/// `[{<url>: status}, …]` → the entries (each object may hold several files).
pub(crate) fn entries(cursor: &mut Cursor, json: Json<'_>) -> Result<Vec<PurgeEntry>, FieldError> {
    let items = match json {
        Json::Array(items) => items,
        Json::Null => Vec::new(),
        object @ Json::Object(_) => vec![object],
        other => {
            return Err(cursor.error(
                "",
                format!("expected a list of files, found {}", other.shown()),
            ));
        }
    };
    let mut out = Vec::new();
    for (index, item) in items.into_iter().enumerate() {
        let Json::Object(members) = item else {
            return Err(cursor.error(
                &format!("[{index}]"),
                "expected an object mapping a file to its status",
            ));
        };
        for (url, status) in members {
            let status = crate::read::fields::text_of(&status)
                .ok()
                .flatten()
                .map_or_else(
                    || PurgeStatus::from_wire(""),
                    |s| PurgeStatus::from_wire(&s),
                );
            out.push(PurgeEntry {
                url: url.into_owned(),
                status,
            });
        }
    }
    Ok(out)
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
