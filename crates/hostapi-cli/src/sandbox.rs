//! `--sandbox`: the embedded simulator of the three APIs, started in-process on
//! 127.0.0.1 for the duration of one command.
//!
//! The sandbox remembers: its state lives in `sandbox.json` under the user's
//! state directory (`$XDG_STATE_HOME/hostapi`, else `~/.local/state/hostapi`;
//! `HOSTAPI_SANDBOX_STATE` names another file, or `none` for a fresh sandbox
//! every run), loaded at start and saved by the simulator after every change. A
//! lock on `sandbox.json.lock` beside it is held for the whole command, so two
//! runs at once take turns and lose nothing. The tour starts a fresh simulator of
//! its own.

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use hostapi::Client;
use hostapi_sim::{Sim, SimConfig, SimError};

use crate::failure::{API, Failure};

/// The seed of the sandbox's data: the same ids every run, so examples work.
pub(crate) const SEED: u64 = 1;
/// How long a command waits for another one using the sandbox.
const LOCK_WAIT: Duration = Duration::from_secs(30);

/// A running sandbox: the simulator and, for a remembering one, the lock on its
/// state. Keep it alive while the client is used: dropping it stops the server.
pub(crate) struct Sandbox {
    pub(crate) sim: Sim,
    /// Where it remembers, if anywhere.
    pub(crate) state_file: Option<PathBuf>,
    _lock: Option<File>,
}

/// The environment variable naming the state file (`none`: remember nothing).
pub(crate) const STATE_ENV: &str = "HOSTAPI_SANDBOX_STATE";

/// The sandbox's state file, or None when it remembers nothing.
pub(crate) fn state_file() -> Result<Option<PathBuf>, Failure> {
    match std::env::var_os(STATE_ENV).filter(|v| !v.is_empty()) {
        Some(v) if v == "none" => return Ok(None),
        Some(v) => return Ok(Some(PathBuf::from(v))),
        None => {}
    }
    let base = match std::env::var_os("XDG_STATE_HOME").filter(|v| !v.is_empty()) {
        Some(dir) => PathBuf::from(dir),
        None => match std::env::var_os("HOME").filter(|v| !v.is_empty()) {
            Some(home) => PathBuf::from(home).join(".local").join("state"),
            None => {
                return Err(Failure::usage(
                    "cannot find a state directory for the sandbox: neither XDG_STATE_HOME nor HOME is set",
                )
                .hint(format!("set {STATE_ENV} to a file, or to `none`")));
            }
        },
    };
    Ok(Some(base.join("hostapi").join("sandbox.json")))
}

/// Takes the lock of the state file `state`, waiting (bounded) for another
/// command that holds it.
///
/// The sandbox's files are its user's only: a directory it creates is 0700, the lock
/// file 0600, and a state file others could read (left by an older version) is made
/// 0600.
pub(crate) fn lock(state: &Path) -> Result<File, Failure> {
    if let Some(dir) = state.parent().filter(|d| !d.as_os_str().is_empty()) {
        let mut builder = std::fs::DirBuilder::new();
        builder.recursive(true);
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        builder
            .create(dir)
            .map_err(|e| Failure::new(API, format!("cannot create {}: {e}", dir.display())))?;
    }
    let mut path = state.as_os_str().to_owned();
    path.push(".lock");
    let path = PathBuf::from(path);
    let mut options = OpenOptions::new();
    options.create(true).truncate(false).write(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let file = options
        .open(&path)
        .map_err(|e| Failure::new(API, format!("cannot open {}: {e}", path.display())))?;
    private(&file, &path)?;
    if let Ok(state_file) = File::open(state) {
        private(&state_file, state)?;
    }
    let deadline = Instant::now() + LOCK_WAIT;
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(file),
            Err(std::fs::TryLockError::WouldBlock) if Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(Failure::new(
                    API,
                    format!(
                        "the sandbox is in use by another hostapi (waited {} s for {})",
                        LOCK_WAIT.as_secs(),
                        path.display()
                    ),
                )
                .hint("a `hostapi sandbox serve` holds it until stopped"));
            }
            Err(std::fs::TryLockError::Error(e)) => {
                return Err(Failure::new(
                    API,
                    format!("cannot lock {}: {e}", path.display()),
                ));
            }
        }
    }
}

/// Makes a file of the sandbox readable and writable by its owner only, when others
/// could read or write it (the mode given at creation does not change an existing
/// file).
fn private(file: &File, path: &Path) -> Result<(), Failure> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let metadata = file
            .metadata()
            .map_err(|e| Failure::new(API, format!("cannot read {}: {e}", path.display())))?;
        if metadata.is_file() && metadata.permissions().mode() & 0o077 != 0 {
            file.set_permissions(std::fs::Permissions::from_mode(0o600))
                .map_err(|e| {
                    Failure::new(API, format!("cannot make {} private: {e}", path.display()))
                })?;
        }
    }
    #[cfg(not(unix))]
    let _ = (file, path);
    Ok(())
}

/// Starts the simulator: remembering (its state file, under the lock) or fresh.
pub(crate) async fn start_sim(
    time_scale: f64,
    remember: bool,
    port: u16,
) -> Result<Sandbox, Failure> {
    let mut config = SimConfig::default()
        .with_seed(SEED)
        .with_time_scale(time_scale);
    config.port = port;
    let file = if remember { state_file()? } else { None };
    let lock = match &file {
        Some(file) => Some(lock(file)?),
        None => None,
    };
    config.state_file = file.clone();
    let sim = Sim::start(config).await.map_err(|e| match e {
        SimError::Config(reason) => Failure::usage(format!("cannot start the sandbox: {reason}")),
        SimError::State(reason) => Failure::new(API, format!("cannot start the sandbox: {reason}"))
            .hint("`hostapi sandbox reset` starts it afresh"),
        other => Failure::new(API, format!("cannot start the sandbox: {other}")),
    })?;
    Ok(Sandbox {
        sim,
        state_file: file,
        _lock: lock,
    })
}

/// Starts the simulator and a client pointed at it; `remember` keeps the state
/// between runs (everything but the tour).
pub(crate) async fn start(time_scale: f64, remember: bool) -> Result<(Sandbox, Client), Failure> {
    let sandbox = start_sim(time_scale, remember, 0).await?;
    let sim = &sandbox.sim;
    let client = Client::builder()
        .base_url(sim.base_url())
        .api_key(sim.api_key())
        .cdn_base_url(sim.cdn_base_url())
        .cdn_secret(sim.cdn_secret())
        .cdn_customer(sim.cdn_customer())
        .build()
        .map_err(Failure::from)?;
    Ok((sandbox, client))
}
