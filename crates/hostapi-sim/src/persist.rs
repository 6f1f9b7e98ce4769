//! State export and import (`GET`/`PUT /_sim/state`) and the state file
//! (`--state FILE`): a snapshot document, plus the change log `FILE.log`
//! written after every write (see [`crate::changelog`]).
//!
//! A document is checked in three steps, each naming what is wrong: its
//! `format` and `version` first (a newer version is reported as such, not
//! as an unknown field), then every field's type (unknown fields refused,
//! with their JSON path), then the invariants ([`crate::validate`]).

use std::path::Path;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::SimError;
use crate::change::{self, Change, Undo};
use crate::changelog::{self, Verdict};
use crate::server::Inner;
use crate::state::{Dataset, State, lock, wall_now};

/// The `format` field of a state document.
pub const STATE_FORMAT: &str = "hostapi-sim-state";
/// The `version` this simulator writes; it reads every version from 1 to
/// this one. Version 2 added the state file's `savedAt` and `logSeq`.
pub const STATE_VERSION: u32 = 2;

#[derive(Serialize)]
struct DocRef<'a> {
    format: &'static str,
    version: u32,
    seed: u64,
    size: usize,
    #[serde(rename = "simTime")]
    sim_time: f64,
    #[serde(rename = "savedAt", skip_serializing_if = "Option::is_none")]
    saved_at: Option<f64>,
    #[serde(rename = "logSeq", skip_serializing_if = "Option::is_none")]
    log_seq: Option<u64>,
    state: &'a State,
}

/// A state document, typed.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Doc {
    #[allow(dead_code)]
    format: String,
    #[allow(dead_code)]
    version: u32,
    seed: u64,
    size: usize,
    #[serde(rename = "simTime")]
    sim_time: f64,
    /// Wall time the state file was written (the file only, not exports):
    /// simulated time goes on from it at load.
    #[serde(rename = "savedAt", default)]
    saved_at: Option<f64>,
    /// The newest change log record in this snapshot.
    #[serde(rename = "logSeq", default)]
    log_seq: Option<u64>,
    state: State,
}

/// The head of a document: read before the rest, so a newer version is
/// reported as such.
#[derive(Deserialize)]
struct Head {
    format: Option<Value>,
    version: Option<Value>,
}

fn check_head(h: Head) -> Result<(), String> {
    match h.format {
        Some(Value::String(f)) if f == STATE_FORMAT => {}
        None => return Err(format!("format: required ({STATE_FORMAT:?})")),
        Some(other) => return Err(format!("format: expected {STATE_FORMAT:?}, got {other}")),
    }
    match h.version.as_ref().map(|v| (v, v.as_u64())) {
        None => Err("version: required".into()),
        Some((_, Some(v))) if (1..=u64::from(STATE_VERSION)).contains(&v) => Ok(()),
        Some((_, Some(v))) if v > u64::from(STATE_VERSION) => Err(format!(
            "version: {v} is newer than this simulator reads (1 to {STATE_VERSION}); use a newer hostapi-sim"
        )),
        Some((v, _)) => Err(format!(
            "version: expected an integer from 1 to {STATE_VERSION}, got {v}"
        )),
    }
}

/// Parse and check a document from JSON text.
pub(crate) fn parse_slice(bytes: &[u8]) -> Result<Doc, String> {
    let head: Head = serde_json::from_slice(bytes)
        .map_err(|e| format!("state document: not a JSON object: {e}"))?;
    check_head(head)?;
    let de = &mut serde_json::Deserializer::from_slice(bytes);
    let doc: Doc = serde_path_to_error::deserialize(de).map_err(path_error)?;
    checked(doc)
}

/// Parse and check a document already parsed as JSON.
pub(crate) fn parse_value(v: Value) -> Result<Doc, String> {
    if !v.is_object() {
        return Err("state document: must be a JSON object".into());
    }
    check_head(Head {
        format: v.get("format").cloned(),
        version: v.get("version").cloned(),
    })?;
    let doc: Doc = serde_path_to_error::deserialize(v).map_err(path_error)?;
    checked(doc)
}

fn path_error<E: std::fmt::Display>(e: serde_path_to_error::Error<E>) -> String {
    format!("{}: {}", e.path(), e.inner())
}

fn checked(doc: Doc) -> Result<Doc, String> {
    crate::check_size(doc.size)?;
    crate::validate::check_time("simTime", doc.sim_time)?;
    if let Some(t) = doc.saved_at {
        crate::validate::check_time("savedAt", t)?;
    }
    let ds = Dataset::new(doc.seed, doc.size);
    crate::validate::check_state(&ds, &doc.state)?;
    Ok(doc)
}

/// The export document as JSON text, serialised straight from the state
/// (no intermediate tree).
pub(crate) fn export_bytes(inner: &Inner) -> Vec<u8> {
    let ds = inner.dataset();
    let st = lock(&inner.state);
    let doc = DocRef {
        format: STATE_FORMAT,
        version: STATE_VERSION,
        seed: ds.seed,
        size: ds.size,
        sim_time: inner.clock.now(),
        saved_at: None,
        log_seq: None,
        state: &st,
    };
    serde_json::to_vec(&doc).unwrap_or_default()
}

/// Everything needed to rebuild the simulator: seed, size, simulated time
/// (pending transitions are timestamps in it) and the changed state.
pub(crate) fn export(inner: &Inner) -> Value {
    serde_json::from_slice(&export_bytes(inner)).unwrap_or(Value::Null)
}

/// The state file's snapshot: the export document plus the wall time it
/// was written and the newest change log record it holds.
pub(crate) fn snapshot_bytes(
    inner: &Inner,
    st: &State,
    log_seq: u64,
) -> Result<Vec<u8>, serde_json::Error> {
    let ds = inner.dataset();
    serde_json::to_vec(&DocRef {
        format: STATE_FORMAT,
        version: STATE_VERSION,
        seed: ds.seed,
        size: ds.size,
        sim_time: inner.clock.now(),
        saved_at: Some(wall_now()),
        log_seq: Some(log_seq),
        state: st,
    })
}

/// Replace the dataset, the state and the simulated time by a checked
/// document's (its `savedAt`, if any, is not used: an import starts at its
/// `simTime`). Saved as a new snapshot.
pub(crate) fn import(inner: &Inner, doc: Doc) -> Verdict {
    let ds = Arc::new(Dataset::new(doc.seed, doc.size));
    let mut st = lock(&inner.state);
    let old = std::mem::replace(&mut *st, doc.state);
    change::rebase(&mut st);
    let old_ds = std::mem::replace(&mut *lock(&inner.ds), ds);
    let old_time = inner.clock.now();
    inner.clock.set(doc.sim_time);
    inner.log.commit_whole(Undo::Whole {
        state: Box::new(old),
        ds: old_ds,
        sim_time: old_time,
    })
}

/// What [`load`] leaves for the change log writer.
pub(crate) struct Loaded {
    pub(crate) log: std::fs::File,
    pub(crate) snap_len: u64,
}

/// Load the state file `path` and its change log, if they exist (else the
/// generated state holds), move simulated time on by the wall time since
/// they were written, write a fresh snapshot and empty the log.
pub(crate) fn load(inner: &Inner, path: &Path) -> Result<Loaded, SimError> {
    let err = |p: &Path, e: String| SimError::State(format!("{}: {e}", p.display()));
    changelog::remove_stale_tmp(path);
    let text = match std::fs::read(path) {
        Ok(t) => Some(t),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(err(path, e.to_string())),
    };
    let mut seq = 0;
    // (simulated time, wall time it was at)
    let mut anchor: Option<(f64, Option<f64>)> = None;
    let (ds, mut st) = match text {
        Some(t) => {
            let doc = parse_slice(&t).map_err(|e| err(path, e))?;
            seq = doc.log_seq.unwrap_or(0);
            anchor = Some((doc.sim_time, doc.saved_at));
            (Arc::new(Dataset::new(doc.seed, doc.size)), doc.state)
        }
        None => {
            let ds = inner.dataset();
            let st = inner.fresh_state(&ds);
            (ds, st)
        }
    };
    let log_file = changelog::log_path(path);
    // A log without its snapshot belongs to a state someone removed (a
    // reset by deleting the file): it is not replayed.
    let replayed = if anchor.is_some() {
        replay(&log_file, &mut st, &mut seq, &mut anchor)?
    } else {
        0
    };
    if replayed > 0 {
        crate::validate::check_state(&ds, &st).map_err(|e| err(&log_file, e))?;
        tracing::info!(records = replayed, "replayed the state file's change log");
    }
    change::rebase(&mut st);
    *lock(&inner.state) = st;
    *lock(&inner.ds) = ds;
    if let Some((sim, wall)) = anchor {
        let elapsed = wall.map_or(0.0, |w| (wall_now() - w).max(0.0));
        inner.clock.set(sim + elapsed * inner.clock.scale);
    }
    inner.log.set_durable(seq);
    let doc = {
        let st = lock(&inner.state);
        snapshot_bytes(inner, &st, seq).map_err(|e| err(path, e.to_string()))?
    };
    changelog::write_atomically(path, &doc).map_err(|e| err(path, e.to_string()))?;
    let log =
        changelog::open_private(&log_file, true).map_err(|e| err(&log_file, e.to_string()))?;
    log.set_len(0).map_err(|e| err(&log_file, e.to_string()))?;
    Ok(Loaded {
        log,
        snap_len: doc.len() as u64,
    })
}

/// Apply the change log's records newer than `seq`; a torn last line (a
/// write cut short, never answered) is ignored. Answers how many applied.
fn replay(
    path: &Path,
    st: &mut State,
    seq: &mut u64,
    anchor: &mut Option<(f64, Option<f64>)>,
) -> Result<usize, SimError> {
    let text = match std::fs::read(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(SimError::State(format!("{}: {e}", path.display()))),
    };
    let complete = text.last() == Some(&b'\n');
    let lines: Vec<&[u8]> = text
        .split(|b| *b == b'\n')
        .filter(|l| !l.is_empty())
        .collect();
    let mut applied = 0;
    for (n, line) in lines.iter().enumerate() {
        let last = n + 1 == lines.len();
        let de = &mut serde_json::Deserializer::from_slice(line);
        let c: Change = match serde_path_to_error::deserialize(de) {
            Ok(c) => c,
            Err(_) if last && !complete => break,
            Err(e) => {
                return Err(SimError::State(format!(
                    "{} line {}: {}",
                    path.display(),
                    n + 1,
                    path_error(e)
                )));
            }
        };
        if last && !complete {
            break;
        }
        if c.seq <= *seq {
            continue;
        }
        *seq = c.seq;
        *anchor = Some((c.sim_time, Some(c.wall_time)));
        change::apply(st, c);
        applied += 1;
    }
    Ok(applied)
}
