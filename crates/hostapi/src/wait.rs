//! Waiting for asynchronous work: poll until a state is reached, with an interval, a
//! deadline kept exactly, and a progress callback.
//!
//! Every waiter of every resource group takes `&WaitOptions` and runs on
//! [`poll_until`], which is public for waits of your own. Waiters prove the transition
//! they wait for: a waiter started right after a call does not accept the state from
//! before the call as the result of the call (see each waiter's docs for what it must
//! see first).

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;

use crate::Error;
use crate::error::WaitError;

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
    /// The shortest interval between polls a waiter accepts (100 ms): polling faster
    /// only loads the service.
    pub const MIN_INTERVAL: Duration = Duration::from_millis(100);

    /// Poll every 5 s for at most 30 min, telling no one.
    pub fn new() -> Self {
        Self {
            interval: Duration::from_secs(5),
            timeout: Duration::from_secs(30 * 60),
            progress: None,
        }
    }

    /// Time between polls (at least [`WaitOptions::MIN_INTERVAL`]: a waiter refuses a
    /// shorter one before polling).
    pub fn interval(mut self, interval: Duration) -> Self {
        self.interval = interval;
        self
    }

    /// How long to wait in all before giving up with [`Error::WaitTimeout`]. The
    /// waiter polls one last time at the deadline, and never waits past it (beyond the
    /// time of that last poll).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Called after every poll that has not reached the goal.
    pub fn on_progress(mut self, progress: impl Fn(&WaitProgress) + Send + Sync + 'static) -> Self {
        self.progress = Some(Arc::new(progress));
        self
    }

    /// The time between polls.
    pub fn poll_interval(&self) -> Duration {
        self.interval
    }

    /// The deadline, counted from the first poll.
    pub fn deadline(&self) -> Duration {
        self.timeout
    }

    fn check(&self) -> Result<(), Error> {
        if self.interval < Self::MIN_INTERVAL {
            return Err(Error::invalid(
                "interval",
                format!(
                    "{} is shorter than the {} floor between polls",
                    human_duration(self.interval),
                    human_duration(Self::MIN_INTERVAL)
                ),
            ));
        }
        Ok(())
    }
}

/// What a waiter has seen so far; passed to the progress callback after each poll.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct WaitProgress {
    /// What is awaited, e.g. `bare metal 20001 to be installed`.
    pub what: String,
    /// The state seen at the last poll.
    pub state: String,
    /// Time since waiting began.
    pub elapsed: Duration,
    /// Polls made so far.
    pub polls: u32,
}

/// What one poll of [`poll_until`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Polled<T> {
    /// The goal is reached: the wait ends with this value.
    Done(T),
    /// Not yet; the state seen (told to the progress callback, and kept in the
    /// timeout error as the last state seen).
    Pending(String),
    /// A state that may be a passing glitch (a service's `UNKNOWN`, a member not yet
    /// listed): tolerated for three polls in a row, then the wait fails with it
    /// ([`Error::WaitFailed`]).
    Unsure(String),
    /// The goal cannot be reached from here; the state seen. The wait fails at once
    /// ([`Error::WaitFailed`]).
    Failed(String),
}

/// How many polls in a row may see an unsure state.
pub(crate) const UNSURE_POLLS: u32 = 3;

/// Polls until `poll` reports [`Polled::Done`] or [`Polled::Failed`], or the deadline
/// of `options` passes; the loop every waiter of the crate runs, for waits of your own.
///
/// `what` names what is awaited, in the progress reports and errors (`"backup 7 to
/// finish"`). The first poll is made at once, then one every
/// [`interval`](WaitOptions::interval); the last one at the deadline, never after it.
/// The wait ends with:
/// - the value of [`Polled::Done`];
/// - [`Error::WaitFailed`] at [`Polled::Failed`], or at the fourth [`Polled::Unsure`]
///   in a row;
/// - [`Error::WaitTimeout`] when the deadline passes, with the last state seen;
/// - the error of a poll, at once (the calls themselves already retried what may
///   pass);
/// - [`Error::InvalidInput`] for an interval under [`WaitOptions::MIN_INTERVAL`],
///   before polling.
///
/// ```no_run
/// use std::time::Duration;
/// use hostapi::{Client, wait::Polled, WaitOptions, wait::poll_until};
/// # async fn run(client: Client, domain: hostapi::types::DomainName) -> Result<(), hostapi::Error> {
/// // Wait until the domain has at least ten records.
/// let records = client.domains().records(&domain);
/// let options = WaitOptions::new()
///     .interval(Duration::from_secs(2))
///     .timeout(Duration::from_secs(60));
/// let listed = poll_until(format!("10 records in {domain}"), &options, || async {
///     let listed = records.list().await?;
///     Ok(if listed.len() >= 10 {
///         Polled::Done(listed)
///     } else {
///         Polled::Pending(format!("{} records", listed.len()))
///     })
/// })
/// .await?;
/// # let _ = listed;
/// # Ok(())
/// # }
/// ```
pub async fn poll_until<T, F, Fut>(
    what: impl Into<String>,
    options: &WaitOptions,
    mut poll: F,
) -> Result<T, Error>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<Polled<T>, Error>>,
{
    let what = what.into();
    options.check()?;
    let started = Instant::now();
    let deadline = started + options.timeout;
    let mut polls = 0u32;
    let mut unsure = 0u32;
    loop {
        polls += 1;
        let state = match poll().await? {
            Polled::Done(value) => return Ok(value),
            Polled::Failed(state) => return Err(wait_failed(what, state, started.elapsed())),
            Polled::Unsure(state) => {
                unsure += 1;
                if unsure > UNSURE_POLLS {
                    return Err(wait_failed(what, state, started.elapsed()));
                }
                state
            }
            Polled::Pending(state) => {
                unsure = 0;
                state
            }
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
        let now = Instant::now();
        if now >= deadline {
            return Err(Error::WaitTimeout(Box::new(WaitError {
                what,
                last_seen: state,
                waited: options.timeout,
            })));
        }
        // The last pause ends at the deadline, for one last poll there.
        tokio::time::sleep_until(deadline.min(now + options.interval)).await;
    }
}

fn wait_failed(what: String, state: String, waited: Duration) -> Error {
    Error::WaitFailed(Box::new(WaitError {
        what,
        last_seen: state,
        waited,
    }))
}

/// A duration for people: `850ms`, `5.0s`, `2m10s`, `1h05m`.
pub fn human_duration(duration: Duration) -> String {
    let seconds = duration.as_secs();
    if seconds == 0 {
        return format!("{}ms", duration.as_millis());
    }
    if seconds < 60 {
        return format!("{:.1}s", duration.as_secs_f64());
    }
    if seconds < 3600 {
        return format!("{}m{:02}s", seconds / 60, seconds % 60);
    }
    format!("{}h{:02}m", seconds / 3600, (seconds % 3600) / 60)
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
            Polled::Done(7),
            Polled::Pending("B".into()),
            Polled::Pending("A".into()),
        ];
        let value = poll_until("thing", &options, || {
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
    async fn keeps_its_deadline_exactly() {
        let options = WaitOptions::new()
            .interval(Duration::from_secs(3))
            .timeout(Duration::from_secs(10));
        let started = Instant::now();
        let polls = Arc::new(Mutex::new(Vec::new()));
        let log = polls.clone();
        let err = poll_until::<(), _, _>("install", &options, || {
            log.lock().unwrap().push(started.elapsed().as_secs());
            async { Ok(Polled::Pending("Installing".into())) }
        })
        .await
        .unwrap_err();
        assert_eq!(
            *polls.lock().unwrap(),
            [0, 3, 6, 9, 10],
            "the last poll is at the deadline"
        );
        match err {
            Error::WaitTimeout(e) => {
                assert_eq!(
                    (e.what.as_str(), e.last_seen.as_str()),
                    ("install", "Installing")
                );
                assert_eq!(e.waited, Duration::from_secs(10));
            }
            other => panic!("{other}"),
        }
        assert_eq!(started.elapsed(), Duration::from_secs(10));
    }

    #[tokio::test(start_paused = true)]
    async fn a_failed_state_ends_the_wait_and_unsure_ones_are_tolerated_a_while() {
        let err = poll_until::<(), _, _>("power on", &WaitOptions::new(), || async {
            Ok(Polled::Failed("MAINTENANCE".into()))
        })
        .await
        .unwrap_err();
        assert!(
            matches!(&err, Error::WaitFailed(e) if e.last_seen == "MAINTENANCE"),
            "{err}"
        );

        let mut states = vec![
            Polled::Done(1),
            Polled::Unsure("UNKNOWN".into()),
            Polled::Unsure("UNKNOWN".into()),
            Polled::Pending("STARTING".into()),
            Polled::Unsure("UNKNOWN".into()),
        ];
        let done = poll_until("power on", &WaitOptions::new(), || {
            let next = states.pop().unwrap();
            async move { Ok(next) }
        })
        .await;
        assert_eq!(done.unwrap(), 1);

        let err = poll_until::<(), _, _>("power on", &WaitOptions::new(), || async {
            Ok(Polled::Unsure("UNKNOWN".into()))
        })
        .await
        .unwrap_err();
        assert!(
            matches!(&err, Error::WaitFailed(e) if e.last_seen == "UNKNOWN"),
            "{err}"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn a_polls_error_ends_the_wait_at_once() {
        let started = Instant::now();
        let mut polls = 0;
        let err = poll_until::<(), _, _>("x", &WaitOptions::new(), || {
            polls += 1;
            let outcome = if polls < 3 {
                Ok(Polled::Pending("y".into()))
            } else {
                Err(Error::invalid("poll", "broken"))
            };
            async move { outcome }
        })
        .await
        .unwrap_err();
        assert!(matches!(&err, Error::InvalidInput { argument, .. } if argument == "poll"));
        assert_eq!(polls, 3);
        assert_eq!(started.elapsed(), Duration::from_secs(10), "two intervals");
    }

    #[tokio::test(start_paused = true)]
    async fn refuses_an_interval_under_the_floor() {
        let options = WaitOptions::new().interval(Duration::ZERO);
        let err =
            poll_until::<(), _, _>("x", &options, || async { Ok(Polled::Pending("y".into())) })
                .await
                .unwrap_err();
        assert!(matches!(&err, Error::InvalidInput { argument, .. } if argument == "interval"));
    }

    #[test]
    fn durations_for_people() {
        assert_eq!(human_duration(Duration::from_millis(850)), "850ms");
        assert_eq!(human_duration(Duration::from_millis(5004)), "5.0s");
        assert_eq!(human_duration(Duration::from_secs(130)), "2m10s");
        assert_eq!(human_duration(Duration::from_secs(3900)), "1h05m");
    }
}
