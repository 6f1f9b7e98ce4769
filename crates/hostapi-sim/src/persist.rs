//! State export and import (`GET`/`PUT /_sim/state`) and the state file
//! (`--state FILE`): the same document, saved atomically after every change.

use std::io::Write;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::SimError;
use crate::server::Inner;
use crate::state::{Dataset, State, lock};

/// The `format` field of a state document.
pub const STATE_FORMAT: &str = "hostapi-sim-state";
/// The `version` field this simulator writes and reads.
pub const STATE_VERSION: u32 = 1;

#[derive(Serialize)]
struct DocRef<'a> {
    format: &'static str,
    version: u32,
    seed: u64,
    size: usize,
    #[serde(rename = "simTime")]
    sim_time: f64,
    state: &'a State,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Doc {
    format: String,
    version: u32,
    seed: u64,
    size: usize,
    #[serde(rename = "simTime")]
    sim_time: f64,
    state: State,
}

/// Everything needed to rebuild the simulator: seed, size, simulated time
/// (pending transitions are timestamps in it) and the changed state.
pub(crate) fn export(inner: &Inner) -> Value {
    let ds = inner.dataset();
    let st = lock(&inner.state);
    let doc = DocRef {
        format: STATE_FORMAT,
        version: STATE_VERSION,
        seed: ds.seed,
        size: ds.size,
        sim_time: inner.clock.now(),
        state: &st,
    };
    serde_json::to_value(&doc).unwrap_or(Value::Null)
}

/// Replace the dataset, the state and the simulated time by a document's.
pub(crate) fn import(inner: &Inner, doc: Value) -> Result<(), String> {
    let doc: Doc = serde_json::from_value(doc).map_err(|e| format!("state document: {e}"))?;
    if doc.format != STATE_FORMAT || doc.version != STATE_VERSION {
        return Err(format!(
            "state document: expected format {STATE_FORMAT:?} version {STATE_VERSION}, got {:?} version {}",
            doc.format, doc.version
        ));
    }
    if !doc.sim_time.is_finite() {
        return Err("simTime: must be a finite number".into());
    }
    crate::check_size(doc.size)?;
    let ds = Arc::new(Dataset::new(doc.seed, doc.size));
    let mut st = lock(&inner.state);
    *lock(&inner.ds) = ds;
    *st = doc.state;
    inner.clock.set(doc.sim_time);
    inner.dirty.store(true, Ordering::Relaxed);
    Ok(())
}

/// Load `path` if it exists (true), or leave the state alone (false).
pub(crate) fn load(inner: &Inner, path: &Path) -> Result<bool, SimError> {
    let text = match std::fs::read(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(SimError::State(format!("{}: {e}", path.display()))),
    };
    let doc: Value = serde_json::from_slice(&text)
        .map_err(|e| SimError::State(format!("{}: {e}", path.display())))?;
    import(inner, doc).map_err(|e| SimError::State(format!("{}: {e}", path.display())))?;
    inner.dirty.store(false, Ordering::Relaxed);
    Ok(true)
}

/// Save the state file if anything changed since the last save. Returns
/// once every change made before the call is on disk.
pub(crate) fn save(inner: &Inner) -> std::io::Result<()> {
    let Some(path) = &inner.state_file else {
        inner.dirty.store(false, Ordering::Relaxed);
        return Ok(());
    };
    let _g = lock(&inner.save_lock);
    if !inner.dirty.swap(false, Ordering::Relaxed) {
        return Ok(());
    }
    write_atomically(path, &export(inner)).inspect_err(|_| {
        inner.dirty.store(true, Ordering::Relaxed);
    })
}

/// Save the state file now.
pub(crate) fn save_now(inner: &Inner) -> std::io::Result<()> {
    inner.dirty.store(true, Ordering::Relaxed);
    save(inner)
}

/// Write to a temporary file beside `path`, flush it to disk, rename it
/// over `path`.
fn write_atomically(path: &Path, doc: &Value) -> std::io::Result<()> {
    let bytes = serde_json::to_vec(doc).map_err(std::io::Error::other)?;
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".tmp.{}", std::process::id()));
    let tmp = std::path::PathBuf::from(tmp);
    {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(&bytes)?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path)?;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
        && let Ok(d) = std::fs::File::open(dir)
    {
        let _ = d.sync_all();
    }
    Ok(())
}
