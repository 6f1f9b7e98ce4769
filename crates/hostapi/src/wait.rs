//! Waiting for asynchronous work: poll until a state is reached, with an interval, a
//! deadline and a progress callback.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;

use crate::Error;

/// How a waiter polls: how often, for how long, and whom it tells.
///
/// ```
/// use std::time::Duration;
/// let options = hostapi::WaitOptions::new()
///     .interval(Duration::from_secs(2))
///     .timeout(Duration::from_secs(600))
///     .on_progress(|p| eprintln!("{}: {} after {:?}", p.what, p.state, p.elapsed));
/// # let _ = options;
/// ```
#[derive(Clone)]
pub struct WaitOptions {
    interval: Duration,
    timeout: Duration,
    progress: Option<ProgressCallback>,
}

/// A callback told of each poll.
type ProgressCallback = Arc<dyn Fn(&WaitProgress) + Send + Sync>;

impl fmt::Debug for WaitOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WaitOptions")
            .field("interval", &self.interval)
            .field("timeout", &self.timeout)
            .field("progress", &self.progress.as_ref().map(|_| "callback"))
            .finish()
    }
}

impl Default for WaitOptions {
    fn default() -> Self {
        Self::new()
    }
}

impl WaitOptions {
    /// Poll every 5 s for at most 30 min, telling no one.
    pub fn new() -> Self {
        Self {
            interval: Duration::from_secs(5),
            timeout: Duration::from_secs(30 * 60),
            progress: None,
        }
    }

    /// Time between polls.
    pub fn interval(mut self, interval: Duration) -> Self {
        self.interval = interval;
        self
    }

    /// How long to wait in all before giving up with [`Error::WaitTimeout`].
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Called after every poll that has not reached the goal.
    pub fn on_progress(mut self, progress: impl Fn(&WaitProgress) + Send + Sync + 'static) -> Self {
        self.progress = Some(Arc::new(progress));
        self
    }
}

/// What a waiter has seen so far; passed to the progress callback after each poll.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WaitProgress {
    /// What is awaited, e.g. `installation of bare metal 1234`.
    pub what: String,
    /// The state seen at the last poll.
    pub state: String,
    /// Time since waiting began.
    pub elapsed: Duration,
    /// Polls made so far.
    pub polls: u32,
}

/// The outcome of one poll.
pub(crate) enum Poll<T> {
    /// The goal is reached.
    Done(T),
    /// Not yet; the state seen.
    Pending(String),
    /// The goal cannot be reached from here; the state seen.
    Failed(String),
}

/// Polls until `poll` reports done or failed, or the deadline passes. Errors of a
/// poll end the wait (the calls themselves already retried what may pass).
pub(crate) async fn poll_until<T, F, Fut>(
    what: String,
    options: &WaitOptions,
    mut poll: F,
) -> Result<T, Error>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<Poll<T>, Error>>,
{
    let started = Instant::now();
    let mut polls = 0u32;
    loop {
        polls += 1;
        let state = match poll().await? {
            Poll::Done(value) => return Ok(value),
            Poll::Failed(state) => return Err(Error::WaitFailed { what, state }),
            Poll::Pending(state) => state,
        };
        let elapsed = started.elapsed();
        tracing::debug!(what = %what, state = %state, polls, "hostapi: still waiting");
        if let Some(progress) = &options.progress {
            progress(&WaitProgress {
                what: what.clone(),
                state: state.clone(),
                elapsed,
                polls,
            });
        }
        if elapsed.saturating_add(options.interval) > options.timeout {
            return Err(Error::WaitTimeout {
                what,
                waited: elapsed,
                last_seen: state,
            });
        }
        tokio::time::sleep(options.interval).await;
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;

    #[tokio::test(start_paused = true)]
    async fn reports_progress_until_done() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = seen.clone();
        let options = WaitOptions::new()
            .interval(Duration::from_secs(1))
            .on_progress(move |p| log.lock().unwrap().push((p.state.clone(), p.polls)));
        let mut states = vec![
            Poll::Done(7),
            Poll::Pending("B".into()),
            Poll::Pending("A".into()),
        ];
        let value = poll_until("thing".into(), &options, || {
            let next = states.pop().unwrap();
            async move { Ok(next) }
        })
        .await
        .unwrap();
        assert_eq!(value, 7);
        assert_eq!(
            *seen.lock().unwrap(),
            [("A".to_owned(), 1), ("B".to_owned(), 2)]
        );
    }

    #[tokio::test(start_paused = true)]
    async fn gives_up_at_the_deadline_naming_the_last_state() {
        let options = WaitOptions::new()
            .interval(Duration::from_secs(10))
            .timeout(Duration::from_secs(35));
        let err = poll_until::<(), _, _>("install".into(), &options, || async {
            Ok(Poll::Pending("Installing".into()))
        })
        .await
        .unwrap_err();
        match err {
            Error::WaitTimeout {
                what,
                last_seen,
                waited,
            } => {
                assert_eq!(
                    (what.as_str(), last_seen.as_str()),
                    ("install", "Installing")
                );
                assert_eq!(waited, Duration::from_secs(30));
            }
            other => panic!("{other}"),
        }
    }

    #[tokio::test(start_paused = true)]
    async fn a_failed_state_ends_the_wait() {
        let err = poll_until::<(), _, _>("power on".into(), &WaitOptions::new(), || async {
            Ok(Poll::Failed("UNKNOWN".into()))
        })
        .await
        .unwrap_err();
        assert!(
            matches!(err, Error::WaitFailed { ref state, .. } if state == "UNKNOWN"),
            "{err}"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn an_interval_too_long_to_add_gives_up_instead_of_overflowing() {
        let options = WaitOptions::new().interval(Duration::MAX);
        let err = poll_until::<(), _, _>("forever".into(), &options, || async {
            Ok(Poll::Pending("waiting".into()))
        })
        .await
        .unwrap_err();
        assert!(matches!(err, Error::WaitTimeout { .. }), "{err}");
    }
}
