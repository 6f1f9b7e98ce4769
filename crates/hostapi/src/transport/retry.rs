//! When a failed attempt is tried again, and after how long.

use std::time::Duration;

/// How the client retries a call that failed for a reason that may pass: a connection
/// that could not be made, a timeout, `429 Too Many Requests`, `502`, `503`, `504`.
///
/// Reads and idempotent writes (GET, PUT, DELETE) are retried on all of those. Other
/// writes (POST: power, purge, create, install) are retried only when the request
/// provably never reached the server (the connection could not be made), unless the
/// call opts in (see the `retry_unsafe` option of the calls that offer it).
///
/// The delay doubles from `initial_backoff` up to `max_backoff`, with full jitter, and
/// is never shorter than the server's `Retry-After`. No retry starts after `deadline`
/// (counted from the call's first attempt).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Attempts in all, the first included (1 disables retries).
    pub max_attempts: u32,
    /// The delay before the first retry, before jitter.
    pub initial_backoff: Duration,
    /// The longest delay between attempts, before `Retry-After`.
    pub max_backoff: Duration,
    /// No retry begins later than this after the first attempt.
    pub deadline: Duration,
}

impl Default for RetryPolicy {
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
    /// A policy that never retries.
    pub fn never() -> Self {
        Self {
            max_attempts: 1,
            ..Self::default()
        }
    }

    /// The backoff before retry number `retry` (1 for the first retry), before jitter.
    pub(crate) fn backoff(&self, retry: u32) -> Duration {
        let factor = 2u32.saturating_pow(retry.saturating_sub(1));
        self.initial_backoff
            .saturating_mul(factor)
            .min(self.max_backoff)
    }
}

/// Whether an answer's status is one that may pass.
pub(crate) fn is_retryable_status(status: u16) -> bool {
    matches!(status, 429 | 502 | 503 | 504)
}

/// Parses `Retry-After`: delay-seconds or an HTTP date.
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

    #[test]
    fn backoff_doubles_up_to_the_cap() {
        let policy = RetryPolicy {
            initial_backoff: Duration::from_millis(100),
            max_backoff: Duration::from_millis(350),
            ..RetryPolicy::default()
        };
        let delays: Vec<u128> = (1..=4).map(|n| policy.backoff(n).as_millis()).collect();
        assert_eq!(delays, [100, 200, 350, 350]);
        assert_eq!(policy.backoff(200), Duration::from_millis(350));
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
    }
}
