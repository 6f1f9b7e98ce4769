//! When a failed attempt is tried again, and after how long. The decisions are pure
//! functions of the failure, the method, the attempt count and the time spent, so they
//! are tested here without a network; `send` applies them.

use std::time::Duration;

use crate::Error;

/// How the client retries a call that failed for a reason that may pass: a connection
/// that could not be made, a timeout, an answer cut short or a connection closed
/// without one, `429 Too Many Requests`, `502`, `503`, `504`.
///
/// Reads and idempotent writes (GET, PUT, DELETE) are retried on all of those. Other
/// writes (POST: power, purge, create, install) are retried only when the request
/// provably never reached the server (the connection could not be made), unless the
/// call opts in (see the `retry_unsafe()` method of each resource handle).
///
/// The delay doubles from `initial_backoff` up to `max_backoff`, with full jitter (a
/// random delay between zero and that), and is never shorter than the server's
/// `Retry-After`. `deadline` bounds the whole call: every attempt and every pause
/// between attempts. An attempt still running at the deadline is cut off (and reported
/// as a timeout), and no retry is made whose pause would reach the deadline —
/// so a `Retry-After` longer than the time left ends the call with the server's answer
/// at once rather than sleeping past the deadline.
///
/// The client's `timeout` limits each attempt on its own; the deadline limits their
/// sum.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct RetryPolicy {
    /// Attempts in all, the first included (1 disables retries; must be at least 1).
    pub max_attempts: u32,
    /// The delay before the first retry, before jitter.
    pub initial_backoff: Duration,
    /// The longest delay between attempts, before `Retry-After`.
    pub max_backoff: Duration,
    /// The longest a call may take, all attempts and pauses included, counted from the
    /// start of its first attempt (must be more than zero).
    pub deadline: Duration,
}

impl Default for RetryPolicy {
    /// Four attempts, backoff from 200 ms up to 5 s, a 60 s deadline.
    fn default() -> Self {
        Self {
            max_attempts: 4,
            initial_backoff: Duration::from_millis(200),
            max_backoff: Duration::from_secs(5),
            deadline: Duration::from_secs(60),
        }
    }
}

impl RetryPolicy {
    /// A policy that never retries (the deadline stays the default's 60 s).
    pub fn never() -> Self {
        Self::default().max_attempts(1)
    }

    /// Attempts in all, the first included (1 disables retries).
    pub fn max_attempts(mut self, attempts: u32) -> Self {
        self.max_attempts = attempts;
        self
    }

    /// The delay before the first retry (doubled each time up to `max_backoff`).
    pub fn initial_backoff(mut self, delay: Duration) -> Self {
        self.initial_backoff = delay;
        self
    }

    /// The longest delay between attempts, before `Retry-After`.
    pub fn max_backoff(mut self, delay: Duration) -> Self {
        self.max_backoff = delay;
        self
    }

    /// The longest a call may take, every attempt and pause included.
    pub fn deadline(mut self, deadline: Duration) -> Self {
        self.deadline = deadline;
        self
    }

    /// Checks the policy: at least one attempt, and a deadline above zero.
    pub(crate) fn check(&self) -> Result<(), Error> {
        if self.max_attempts == 0 {
            return Err(Error::invalid(
                "retry_policy.max_attempts",
                "is 0; a call makes at least one attempt (1 disables retries)",
            ));
        }
        if self.deadline.is_zero() {
            return Err(Error::invalid(
                "retry_policy.deadline",
                "is zero; no call could finish within it",
            ));
        }
        Ok(())
    }

    /// The backoff before retry number `retry` (1 for the first retry), before jitter.
    pub(crate) fn backoff(&self, retry: u32) -> Duration {
        let factor = 2u32.saturating_pow(retry.saturating_sub(1));
        self.initial_backoff
            .saturating_mul(factor)
            .min(self.max_backoff)
    }

    /// What to do after attempt number `attempt` (1 for the first) failed with
    /// `failure`, `elapsed` after the first attempt started. `resend` says whether a
    /// request that may have reached the server can be sent again (an idempotent
    /// method, or a call that opted in). `jitter` is a number in `[0, 1)` that scales
    /// the backoff.
    pub(crate) fn decide(
        &self,
        attempt: u32,
        failure: &Failure,
        resend: bool,
        elapsed: Duration,
        jitter: f64,
    ) -> Decision {
        if !failure.may_pass() {
            return Decision::Stop(StopReason::Permanent);
        }
        if !failure.never_sent() && !resend {
            return Decision::Stop(StopReason::MayHaveReachedServer);
        }
        if attempt >= self.max_attempts {
            return Decision::Stop(StopReason::Attempts);
        }
        let jittered = self.backoff(attempt).mul_f64(jitter.clamp(0.0, 1.0));
        let delay = match failure.retry_after() {
            Some(server) => server.max(jittered),
            None => jittered,
        };
        // `>=`: a retry starting exactly at the deadline would have no time to run.
        match elapsed.checked_add(delay) {
            Some(start) if start < self.deadline => Decision::Retry(delay),
            _ => Decision::Stop(StopReason::Deadline),
        }
    }
}

/// How one attempt failed, as far as retrying is concerned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Failure {
    /// The connection could not be made: the request never left.
    Connect,
    /// No answer (or not all of it) within the attempt's time.
    Timeout,
    /// The connection failed after the request may have been sent: closed without an
    /// answer, or the answer's body cut short.
    Interrupted,
    /// The server answered with a status that may pass (429, 502, 503, 504), and
    /// perhaps a `Retry-After`.
    Status {
        /// The status.
        status: u16,
        /// The server's `Retry-After`, read.
        retry_after: Option<Duration>,
    },
    /// Anything else: a status that will not pass, a request that cannot be built.
    Other,
}

impl Failure {
    /// The failure an answer's status is, if it is one: `None` for a status that is
    /// not retried (success or not).
    pub(crate) fn from_status(status: u16, retry_after: Option<Duration>) -> Option<Self> {
        is_retryable_status(status).then_some(Self::Status {
            status,
            retry_after,
        })
    }

    fn may_pass(&self) -> bool {
        !matches!(self, Self::Other)
    }

    /// Whether the request provably never reached the server.
    fn never_sent(&self) -> bool {
        matches!(self, Self::Connect)
    }

    fn retry_after(&self) -> Option<Duration> {
        match self {
            Self::Status { retry_after, .. } => *retry_after,
            _ => None,
        }
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Connect => f.write_str("could not connect"),
            Self::Timeout => f.write_str("timed out"),
            Self::Interrupted => f.write_str("connection closed before the whole answer came"),
            Self::Status { status, .. } => write!(f, "status {status}"),
            Self::Other => f.write_str("failed"),
        }
    }
}

/// What to do after a failed attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Decision {
    /// Try again after this pause.
    Retry(Duration),
    /// Give the failure to the caller.
    Stop(StopReason),
}

/// Why a failure is not retried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StopReason {
    /// It will not pass by trying again.
    Permanent,
    /// The request may have reached the server and the call may not be repeated.
    MayHaveReachedServer,
    /// The attempts are used up.
    Attempts,
    /// The pause would reach the call's deadline.
    Deadline,
}

impl StopReason {
    /// Words for logs.
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Self::Permanent => "not a failure that may pass",
            Self::MayHaveReachedServer => {
                "the request may have reached the server and the call is not idempotent \
                 (use retry_unsafe() to allow it)"
            }
            Self::Attempts => "no attempts left",
            Self::Deadline => "the next attempt would start at or after the deadline",
        }
    }
}

/// Whether an answer's status is one that may pass.
pub(crate) fn is_retryable_status(status: u16) -> bool {
    matches!(status, 429 | 502 | 503 | 504)
}

/// Parses `Retry-After`: delay-seconds or an HTTP date (a date in the past is no
/// delay). Anything else is ignored.
pub(crate) fn retry_after(value: &str, now: chrono::DateTime<chrono::Utc>) -> Option<Duration> {
    let value = value.trim();
    if let Ok(seconds) = value.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let date = chrono::DateTime::parse_from_rfc2822(value).ok()?;
    let delta = date.with_timezone(&chrono::Utc) - now;
    Some(delta.to_std().unwrap_or(Duration::ZERO))
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    fn policy() -> RetryPolicy {
        RetryPolicy {
            max_attempts: 4,
            initial_backoff: 100 * MS,
            max_backoff: 350 * MS,
            deadline: Duration::from_secs(10),
        }
    }

    fn status(status: u16) -> Failure {
        Failure::from_status(status, None).expect("a status that may pass")
    }

    #[test]
    fn backoff_doubles_up_to_the_cap() {
        let delays: Vec<u128> = (1..=4).map(|n| policy().backoff(n).as_millis()).collect();
        assert_eq!(delays, [100, 200, 350, 350]);
        assert_eq!(policy().backoff(200), 350 * MS);
        assert_eq!(policy().backoff(u32::MAX), 350 * MS);
    }

    #[test]
    fn retry_after_takes_seconds_or_a_date() {
        let now = chrono::DateTime::parse_from_rfc3339("2026-01-01T00:00:00Z")
            .unwrap()
            .to_utc();
        assert_eq!(retry_after("7", now), Some(Duration::from_secs(7)));
        assert_eq!(
            retry_after("Thu, 01 Jan 2026 00:00:03 GMT", now),
            Some(Duration::from_secs(3))
        );
        assert_eq!(
            retry_after("Wed, 31 Dec 2025 23:00:00 GMT", now),
            Some(Duration::ZERO)
        );
        assert_eq!(retry_after("soon", now), None);
        assert_eq!(retry_after("-3", now), None);
        assert_eq!(
            retry_after("18446744073709551615", now),
            Some(Duration::from_secs(u64::MAX))
        );
    }

    #[test]
    fn which_failures_are_retried_for_which_calls() {
        let p = policy();
        let retried = |failure: &Failure, resend: bool| {
            matches!(
                p.decide(1, failure, resend, Duration::ZERO, 0.5),
                Decision::Retry(_)
            )
        };
        // (failure, retried for GET/PUT/DELETE or an opted-in call, retried for POST)
        let table = [
            (Failure::Connect, true, true),
            (Failure::Timeout, true, false),
            (Failure::Interrupted, true, false),
            (status(429), true, false),
            (status(502), true, false),
            (status(503), true, false),
            (status(504), true, false),
            (Failure::Other, false, false),
        ];
        for (failure, idempotent, post) in table {
            assert_eq!(retried(&failure, true), idempotent, "{failure} idempotent");
            assert_eq!(retried(&failure, false), post, "{failure} POST");
        }
        for code in [200, 201, 204, 400, 401, 403, 404, 409, 500, 501, 505] {
            assert_eq!(Failure::from_status(code, None), None, "{code}");
        }
        assert_eq!(
            p.decide(1, &status(503), false, Duration::ZERO, 0.5),
            Decision::Stop(StopReason::MayHaveReachedServer)
        );
        assert_eq!(
            p.decide(1, &Failure::Other, true, Duration::ZERO, 0.5),
            Decision::Stop(StopReason::Permanent)
        );
    }

    #[test]
    fn attempts_are_counted_with_the_first_included() {
        let p = policy();
        for attempt in 1..4 {
            assert!(matches!(
                p.decide(attempt, &Failure::Timeout, true, Duration::ZERO, 0.0),
                Decision::Retry(_)
            ));
        }
        assert_eq!(
            p.decide(4, &Failure::Timeout, true, Duration::ZERO, 0.0),
            Decision::Stop(StopReason::Attempts)
        );
        let never = RetryPolicy::never();
        assert_eq!(
            never.decide(1, &Failure::Connect, true, Duration::ZERO, 0.0),
            Decision::Stop(StopReason::Attempts)
        );
    }

    #[test]
    fn the_delay_is_jittered_backoff_and_never_shorter_than_retry_after() {
        let p = policy();
        // Full jitter: zero to the backoff.
        assert_eq!(
            p.decide(2, &Failure::Timeout, true, Duration::ZERO, 0.0),
            Decision::Retry(Duration::ZERO)
        );
        assert_eq!(
            p.decide(2, &Failure::Timeout, true, Duration::ZERO, 0.5),
            Decision::Retry(100 * MS)
        );
        // Jitter outside [0, 1) is clamped rather than trusted.
        assert_eq!(
            p.decide(1, &Failure::Timeout, true, Duration::ZERO, 7.0),
            Decision::Retry(100 * MS)
        );
        // Retry-After wins over a shorter backoff, and is not capped by max_backoff.
        let limited = Failure::from_status(429, Some(Duration::from_secs(2))).unwrap();
        assert_eq!(
            p.decide(1, &limited, true, Duration::ZERO, 0.9),
            Decision::Retry(Duration::from_secs(2))
        );
        // A shorter Retry-After does not shorten the backoff.
        let soon = Failure::from_status(503, Some(Duration::ZERO)).unwrap();
        assert_eq!(
            p.decide(3, &soon, true, Duration::ZERO, 0.5),
            Decision::Retry(175 * MS)
        );
    }

    #[test]
    fn no_retry_reaches_the_deadline() {
        let p = policy();
        // Retry-After beyond the time left: stop now instead of sleeping past it.
        let later = Failure::from_status(503, Some(Duration::from_secs(9))).unwrap();
        assert_eq!(
            p.decide(1, &later, true, Duration::from_secs(1), 0.0),
            Decision::Stop(StopReason::Deadline)
        );
        assert_eq!(
            p.decide(1, &later, true, Duration::from_millis(999), 0.0),
            Decision::Retry(Duration::from_secs(9))
        );
        // A Retry-After so large that adding it overflows is a stop, not a panic.
        let never = Failure::from_status(429, Some(Duration::MAX)).unwrap();
        assert_eq!(
            p.decide(1, &never, true, Duration::from_secs(1), 0.0),
            Decision::Stop(StopReason::Deadline)
        );
        // The deadline already passed (a slow attempt): no retry.
        assert_eq!(
            p.decide(1, &Failure::Timeout, true, Duration::from_secs(10), 0.0),
            Decision::Stop(StopReason::Deadline)
        );
    }

    #[test]
    fn a_policy_must_allow_one_attempt_within_a_deadline() {
        assert!(policy().check().is_ok());
        assert!(RetryPolicy::never().check().is_ok());
        for (bad, argument) in [
            (
                RetryPolicy {
                    max_attempts: 0,
                    ..policy()
                },
                "retry_policy.max_attempts",
            ),
            (
                RetryPolicy {
                    deadline: Duration::ZERO,
                    ..policy()
                },
                "retry_policy.deadline",
            ),
        ] {
            match bad.check() {
                Err(Error::InvalidInput { argument: a, .. }) => assert_eq!(a, argument),
                other => panic!("{other:?}"),
            }
        }
    }
}
