//! The state file's change log: every write appends one record (see
//! [`crate::change`]) to `FILE.log`, and is answered once the log is
//! flushed to disk. One thread writes the files: it flushes whatever
//! records are waiting with one `fsync` (so concurrent writes share it),
//! and now and then, and at shutdown, writes the whole state as a new
//! snapshot (`FILE`) and empties the log.
//!
//! A write is applied in memory first, under the state lock, and committed
//! there: its record is queued with what undoes it. When the disk refuses
//! the record (or a snapshot), every write still waiting is undone, newest
//! first, and answered 503; the log is cut back to its last good length.

use std::collections::VecDeque;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, Weak};

use tokio::sync::oneshot;

use crate::change::{self, Undo};
use crate::server::Inner;
use crate::state::{State, lock, wall_now};

/// The log grows to at least this many bytes before it is compacted.
const COMPACT_MIN_BYTES: u64 = 16 << 20;

/// The answer a waiting write gets: saved, or why not.
pub(crate) type Saved = Result<(), String>;

/// What became of a committed write.
pub(crate) enum Verdict {
    /// Nothing to wait for (no state file).
    Done,
    /// Saved when this answers.
    Wait(oneshot::Receiver<Saved>),
    /// Refused and undone (the state would grow past its cap).
    Refused(String),
}

/// Why a request's change is not kept.
pub(crate) enum Unsaved {
    /// The state would grow past its cap (409).
    Refused(String),
    /// The disk refused it (503).
    Failed(String),
}

struct Pending {
    seq: u64,
    undo: Undo,
    done: Option<oneshot::Sender<Saved>>,
}

#[derive(Default)]
struct Queue {
    /// Encoded records not yet written, oldest first.
    bytes: Vec<u8>,
    /// Seq of the newest record in `bytes`.
    last: u64,
    /// Commits not yet on disk, oldest first.
    pending: VecDeque<Pending>,
    /// Reads that saw state not yet on disk: answered when it is.
    readers: Vec<(u64, oneshot::Sender<Saved>)>,
    /// Every commit up to this one is on disk.
    durable: u64,
    /// A reset or import waits for a snapshot.
    snapshot_wanted: bool,
    stop: bool,
}

struct Shared {
    q: Mutex<Queue>,
    wake: Condvar,
}

/// The change log of a simulator with a state file (or the bookkeeping
/// of one without).
pub(crate) struct Log {
    path: Option<PathBuf>,
    shared: Arc<Shared>,
    /// Seq of the newest commit (written under the state lock).
    assigned: AtomicU64,
    thread: Mutex<Option<std::thread::JoinHandle<()>>>,
}

/// `FILE.log` beside the state file.
pub(crate) fn log_path(path: &Path) -> PathBuf {
    let mut p = path.as_os_str().to_owned();
    p.push(".log");
    PathBuf::from(p)
}

impl Log {
    pub(crate) fn new(path: Option<PathBuf>) -> Log {
        Log {
            path,
            shared: Arc::new(Shared {
                q: Mutex::new(Queue::default()),
                wake: Condvar::new(),
            }),
            assigned: AtomicU64::new(0),
            thread: Mutex::new(None),
        }
    }

    /// Seq of the newest commit.
    pub(crate) fn assigned(&self) -> u64 {
        self.assigned.load(Ordering::Acquire)
    }

    /// After a load: `seq` is on disk.
    pub(crate) fn set_durable(&self, seq: u64) {
        self.assigned.store(seq, Ordering::Release);
        let mut q = lock(&self.shared.q);
        q.durable = seq;
        q.last = seq;
    }

    /// Start the thread that writes the files (with a state file).
    pub(crate) fn start(&self, inner: Weak<Inner>, log: File, snap_len: u64) {
        let Some(path) = self.path.clone() else {
            return;
        };
        let shared = self.shared.clone();
        let handle = std::thread::Builder::new()
            .name("hostapi-sim-log".into())
            .spawn(move || {
                Writer {
                    shared,
                    inner,
                    path,
                    log,
                    log_len: 0,
                    snap_len,
                    broken: false,
                }
                .run()
            });
        match handle {
            Ok(h) => *lock(&self.thread) = Some(h),
            Err(e) => tracing::error!(error = %e, "cannot start the state file writer"),
        }
    }

    /// Stop the writer after it has saved everything (a final snapshot).
    pub(crate) fn close(&self) {
        lock(&self.shared.q).stop = true;
        self.shared.wake.notify_all();
        if let Some(h) = lock(&self.thread).take() {
            let _ = h.join();
        }
    }

    fn queue(&self, seq: u64, bytes: Option<Vec<u8>>, undo: Undo, snapshot: bool) -> Verdict {
        if self.path.is_none() {
            self.assigned.store(seq, Ordering::Release);
            return Verdict::Done;
        }
        let (tx, rx) = oneshot::channel();
        if lock(&self.thread).is_none() {
            // Stopped (or not started): nothing can be saved any more.
            let _ = tx.send(Err("the simulator is shutting down".into()));
            return Verdict::Wait(rx);
        }
        {
            let mut q = lock(&self.shared.q);
            if let Some(b) = bytes {
                q.bytes.extend_from_slice(&b);
            }
            q.last = seq;
            q.snapshot_wanted |= snapshot;
            q.pending.push_back(Pending {
                seq,
                undo,
                done: Some(tx),
            });
        }
        self.assigned.store(seq, Ordering::Release);
        self.shared.wake.notify_one();
        Verdict::Wait(rx)
    }

    /// Commit what changed in `st` (under the state lock): a log record
    /// of it is queued, or nothing when the state would grow past
    /// [`crate::MAX_STATE_BYTES`] (then the change is undone).
    pub(crate) fn commit(&self, st: &mut State, sim_time: f64, advanced: f64) -> Verdict {
        let seq = self.assigned() + 1;
        let (c, mut u) = change::take(st, seq, sim_time, wall_now());
        u.advanced = advanced;
        if st.base.bytes > crate::MAX_STATE_BYTES && st.base.bytes > u.bytes {
            change::undo_keys(st, u);
            return Verdict::Refused(format!(
                "the simulator holds at most {} MiB of state: delete something first",
                crate::MAX_STATE_BYTES >> 20
            ));
        }
        let bytes = self.path.as_ref().map(|_| {
            let mut b = serde_json::to_vec(&c).unwrap_or_default();
            b.push(b'\n');
            b
        });
        self.queue(seq, bytes, Undo::Keys(Box::new(u)), false)
    }

    /// Commit a replaced state (reset, import): saved as a new snapshot.
    pub(crate) fn commit_whole(&self, undo: Undo) -> Verdict {
        let seq = self.assigned() + 1;
        self.queue(seq, None, undo, true)
    }

    /// Wait until this request's write (or, for a read, every write it
    /// saw) is saved.
    pub(crate) async fn settle(&self, commit: Option<Verdict>, seen: u64) -> Result<(), Unsaved> {
        let rx = match commit {
            Some(Verdict::Done) => return Ok(()),
            Some(Verdict::Refused(e)) => return Err(Unsaved::Refused(e)),
            Some(Verdict::Wait(rx)) => rx,
            None => match self.reader(seen) {
                Some(rx) => rx,
                None => return Ok(()),
            },
        };
        match rx.await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(Unsaved::Failed(e)),
            Err(_) => Err(Unsaved::Failed(
                "the simulator stopped before saving the change".into(),
            )),
        }
    }

    /// Wait until what a read saw (commits up to `seen`) is on disk.
    pub(crate) fn reader(&self, seen: u64) -> Option<oneshot::Receiver<Saved>> {
        let mut q = lock(&self.shared.q);
        if q.durable >= seen || q.pending.front().is_none_or(|p| p.seq > seen) {
            return None;
        }
        let (tx, rx) = oneshot::channel();
        q.readers.push((seen, tx));
        Some(rx)
    }
}

impl Drop for Log {
    fn drop(&mut self) {
        lock(&self.shared.q).stop = true;
        self.shared.wake.notify_all();
    }
}

/// Wait for a verdict from a thread outside the runtime's async code.
pub(crate) fn wait(v: Verdict) -> Saved {
    match v {
        Verdict::Done => Ok(()),
        Verdict::Refused(e) => Err(e),
        Verdict::Wait(rx) => futures::executor::block_on(rx)
            .unwrap_or_else(|_| Err("the simulator stopped before saving".into())),
    }
}

/// The thread that writes the state file and its log.
struct Writer {
    shared: Arc<Shared>,
    inner: Weak<Inner>,
    path: PathBuf,
    log: File,
    /// Bytes of the log known good.
    log_len: u64,
    /// Bytes of the last snapshot.
    snap_len: u64,
    /// A write failed: the log's tail may be bad, so the next save is a
    /// snapshot.
    broken: bool,
}

impl Writer {
    fn run(mut self) {
        loop {
            let (snapshot, stop, waiting) = {
                let mut q = lock(&self.shared.q);
                while q.bytes.is_empty() && !q.snapshot_wanted && !q.stop {
                    q = self.shared.wake.wait(q).unwrap_or_else(|e| e.into_inner());
                }
                (q.snapshot_wanted, q.stop, !q.bytes.is_empty())
            };
            if stop && !snapshot && !waiting && self.log_len == 0 && !self.broken {
                return;
            }
            // At shutdown the log is folded into a snapshot.
            let compact = snapshot
                || stop
                || self.broken
                || self.log_len > COMPACT_MIN_BYTES.max(2 * self.snap_len);
            let result = if compact {
                self.compact()
            } else {
                self.append()
            };
            if let Err(e) = result {
                tracing::error!(error = %e, "cannot save the state file");
                self.broken = true;
                self.roll_back(&e);
            }
            if stop {
                return;
            }
        }
    }

    /// Write the waiting records, flush them, answer their writes.
    fn append(&mut self) -> Result<(), String> {
        let (bytes, upto) = {
            let mut q = lock(&self.shared.q);
            (std::mem::take(&mut q.bytes), q.last)
        };
        let written = self
            .log
            .write_all(&bytes)
            .and_then(|()| self.log.sync_data());
        if let Err(e) = written {
            let _ = self.log.set_len(self.log_len);
            return Err(format!("{}: {e}", log_path(&self.path).display()));
        }
        self.log_len += bytes.len() as u64;
        self.settle(upto);
        Ok(())
    }

    /// Write the whole state as a new snapshot, empty the log, answer every
    /// write in it.
    fn compact(&mut self) -> Result<(), String> {
        let Some(inner) = self.inner.upgrade() else {
            // The simulator is gone: the log holds everything.
            return self.append();
        };
        let (doc, upto) = {
            let st = lock(&inner.state);
            let mut q = lock(&self.shared.q);
            let upto = q.last;
            q.bytes.clear();
            q.snapshot_wanted = false;
            (crate::persist::snapshot_bytes(&inner, &st, upto), upto)
        };
        drop(inner);
        let doc = doc.map_err(|e| format!("{}: {e}", self.path.display()))?;
        write_atomically(&self.path, &doc).map_err(|e| format!("{}: {e}", self.path.display()))?;
        self.snap_len = doc.len() as u64;
        // Records up to `upto` are in the snapshot (and skipped on load if
        // this cut does not reach the disk).
        if let Err(e) = self.log.set_len(0) {
            return Err(format!("{}: {e}", log_path(&self.path).display()));
        }
        self.log_len = 0;
        self.broken = false;
        self.settle(upto);
        Ok(())
    }

    /// Everything up to `upto` is on disk.
    fn settle(&self, upto: u64) {
        let mut q = lock(&self.shared.q);
        q.durable = q.durable.max(upto);
        while q.pending.front().is_some_and(|p| p.seq <= upto) {
            if let Some(mut p) = q.pending.pop_front()
                && let Some(tx) = p.done.take()
            {
                let _ = tx.send(Ok(()));
            }
        }
        let durable = q.durable;
        let first_pending = q.pending.front().map(|p| p.seq);
        for (seen, tx) in std::mem::take(&mut q.readers) {
            if seen <= durable || first_pending.is_none_or(|f| f > seen) {
                let _ = tx.send(Ok(()));
            } else {
                q.readers.push((seen, tx));
            }
        }
    }

    /// The disk refused: undo every write not on disk, newest first, and
    /// answer them (and the reads that saw them) with `why`.
    fn roll_back(&self, why: &str) {
        let msg =
            format!("the simulator could not save its state file, so nothing was changed: {why}");
        let Some(inner) = self.inner.upgrade() else {
            let mut q = lock(&self.shared.q);
            for mut p in q.pending.drain(..) {
                if let Some(tx) = p.done.take() {
                    let _ = tx.send(Err(msg.clone()));
                }
            }
            return;
        };
        let mut st = lock(&inner.state);
        let mut q = lock(&self.shared.q);
        q.bytes.clear();
        q.snapshot_wanted = false;
        while let Some(mut p) = q.pending.pop_back() {
            undo(&inner, &mut st, p.undo);
            if let Some(tx) = p.done.take() {
                let _ = tx.send(Err(msg.clone()));
            }
        }
        for (_, tx) in q.readers.drain(..) {
            let _ = tx.send(Err(msg.clone()));
        }
    }
}

/// Undo one commit.
fn undo(inner: &Inner, st: &mut State, u: Undo) {
    match u {
        Undo::Keys(k) => {
            let advanced = k.advanced;
            change::undo_keys(st, *k);
            if advanced > 0.0 {
                inner.clock.rewind(advanced);
            }
        }
        Undo::Whole {
            state,
            ds,
            sim_time,
        } => {
            *st = *state;
            change::rebase(st);
            *lock(&inner.ds) = ds;
            inner.clock.set(sim_time);
        }
    }
}

/// Open a file for writing with mode 0600 (owner only).
pub(crate) fn open_private(path: &Path, append: bool) -> std::io::Result<File> {
    let mut o = std::fs::OpenOptions::new();
    o.create(true).write(true);
    if append {
        o.append(true);
    } else {
        o.truncate(true);
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.mode(0o600);
    }
    let f = o.open(path)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        f.set_permissions(std::fs::Permissions::from_mode(0o600))?;
    }
    Ok(f)
}

/// Write to a temporary file beside `path`, flush it to disk, rename it
/// over `path`, flush the directory.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = tmp_path(path, std::process::id());
    let written = (|| {
        let mut f = open_private(&tmp, false)?;
        f.write_all(bytes)?;
        f.sync_all()
    })();
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    if let Err(e) = std::fs::rename(&tmp, path) {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty())
        && let Ok(d) = File::open(dir)
    {
        let _ = d.sync_all();
    }
    Ok(())
}

fn tmp_path(path: &Path, pid: u32) -> PathBuf {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".tmp.{pid}"));
    PathBuf::from(tmp)
}

/// Remove `FILE.tmp.<pid>` files left by a process that died while
/// saving (not those of a process still running).
pub(crate) fn remove_stale_tmp(path: &Path) {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return;
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let prefix = format!("{}.tmp.", name.to_string_lossy());
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let proc_fs = Path::new("/proc/self").exists();
    for e in entries.flatten() {
        let fname = e.file_name();
        let Some(pid) = fname.to_str().and_then(|f| f.strip_prefix(&prefix)) else {
            continue;
        };
        let Ok(pid) = pid.parse::<u32>() else {
            continue;
        };
        let alive = pid != std::process::id()
            && proc_fs
            && Path::new("/proc").join(pid.to_string()).exists();
        if !alive {
            match std::fs::remove_file(e.path()) {
                Ok(()) => {
                    tracing::info!(file = %e.path().display(), "removed a stale temporary state file")
                }
                Err(err) => {
                    tracing::warn!(file = %e.path().display(), error = %err, "cannot remove a stale temporary state file")
                }
            }
        }
    }
}
