//! One call: attempts, each read to the end (bounded), retried by the policy, and the
//! outcome told truthfully (see the write rules on [`Transport::call`]).

use std::time::Duration;

use bytes::Bytes;
use hostapi_raw_operation::BuiltRequest;
use progenitor_client::Error as RawError;
use tokio::time::Instant;

use super::credentials::{Credentials, PREPARE_ERROR_SEPARATOR, Sent};
use super::retry::{Decision, Failure, RetryPolicy, retry_after};
use crate::error::{
    CallInfo, ErrorBody, RedirectError, StatusError, TooLargeError, TransportCause, TransportError,
};
use crate::read::{ReadMode, Reading};
use crate::scrub::Scrubber;
use crate::{Error, Listing};

/// How every call of one client is made and read.
#[derive(Debug, Clone)]
pub(crate) struct Transport {
    pub(crate) retry: RetryPolicy,
    /// The longest one attempt may take, from sending to the end of the answer.
    pub(crate) attempt_timeout: Duration,
    /// The largest success answer read.
    pub(crate) max_answer_bytes: usize,
    pub(crate) mode: ReadMode,
    pub(crate) scrub: Scrubber,
}

/// Per-call options the caller chose.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct CallOptions {
    /// Retry this call even though it is not idempotent.
    pub(crate) retry_unsafe: bool,
    /// Keep the headers of a success answer (a raw request shows them).
    pub(crate) keep_headers: bool,
}

/// A successful answer, to be read.
#[derive(Debug)]
pub(crate) struct Answer {
    /// The `Content-Type` the server gave (kept as it came: only a graph's answer
    /// reads it).
    pub(crate) content_type: Option<reqwest::header::HeaderValue>,
    /// The status (`2XX`; 404 for a retried DELETE that found its resource gone).
    pub(crate) status: u16,
    /// The answer's headers, when the call asked to keep them
    /// ([`CallOptions::keep_headers`]).
    pub(crate) headers: Option<Box<reqwest::header::HeaderMap>>,
    pub(crate) body: Bytes,
    pub(crate) call: CallInfo,
    /// Whether the call was a write: then an answer that cannot be read leaves the
    /// outcome unknown.
    write: bool,
    mode: ReadMode,
    scrub: Scrubber,
}

/// One attempt, read.
enum Attempt {
    /// A `2XX` answer, whole.
    Answer {
        status: u16,
        content_type: Option<reqwest::header::HeaderValue>,
        headers: Option<Box<reqwest::header::HeaderMap>>,
        body: Bytes,
    },
    /// A `2XX` answer larger than the limit (the rest was not read).
    TooLarge { status: u16 },
    /// Another status, with at most [`ErrorBody::MAX_LEN`] of its body.
    Status {
        status: u16,
        body: Bytes,
        truncated: bool,
        retry_after: Option<Duration>,
        location: Option<String>,
    },
    /// No (whole) answer.
    Transport {
        cause: TransportCause,
        source: Option<reqwest::Error>,
    },
    /// Stopped before sending: a missing setting, a request that cannot be built.
    NotSent(Error),
}

impl Attempt {
    /// Whether this attempt's request may have been applied, for a write.
    fn may_have_applied(&self) -> bool {
        match self {
            Self::Answer { .. } | Self::TooLarge { .. } => true,
            // A redirect may come after the write was done (POST, then 303 to the
            // result), and a server error may come from anywhere in the handling.
            Self::Status { status, .. } => *status >= 500 || (300..400).contains(status),
            Self::Transport { cause, .. } => cause.may_have_reached_server(),
            Self::NotSent(_) => false,
        }
    }

    /// How a failed attempt failed, as far as retrying goes.
    fn failure(&self) -> Failure {
        match self {
            Self::Answer { .. } | Self::TooLarge { .. } | Self::NotSent(_) => Failure::Other,
            Self::Status {
                status,
                retry_after,
                ..
            } => Failure::from_status(*status, *retry_after).unwrap_or(Failure::Other),
            Self::Transport { cause, .. } if !cause.is_retryable() => Failure::Other,
            Self::Transport { cause, .. } if !cause.may_have_reached_server() => Failure::Connect,
            Self::Transport {
                cause: TransportCause::Timeout,
                ..
            } => Failure::Timeout,
            Self::Transport { .. } => Failure::Interrupted,
        }
    }
}

impl Transport {
    /// Makes one call: `build` makes the request (it is called again for each retry),
    /// `credentials` prepare it (a CDN signature is made fresh each time),
    /// `http` sends it, and its answer is read to the end, at most
    /// [`Transport::max_answer_bytes`] of it.
    ///
    /// Retries follow the [`RetryPolicy`]: reads and idempotent writes (PUT, DELETE)
    /// on every failure that may pass; POST only when the request never left, unless
    /// the call opted in (`retry_unsafe`). The call's deadline bounds every attempt and
    /// pause.
    ///
    /// For writes, the outcome is told truthfully:
    /// - a `2XX` answer: applied;
    /// - a `3XX` answer (never followed): [`Error::OutcomeUnknown`], as the service
    ///   may have done the write before redirecting;
    /// - a DELETE answered 404 after an earlier attempt may have gone through: applied
    ///   (the resource is gone, which is what was asked);
    /// - a failure after a request that may have reached the service (a server error,
    ///   an answer lost or cut): [`Error::OutcomeUnknown`], keeping the cause;
    /// - anything else: the error, and nothing was applied.
    pub(crate) async fn call(
        &self,
        operation: &'static str,
        options: CallOptions,
        credentials: &Credentials,
        http: &reqwest::Client,
        mut build: impl FnMut() -> BuiltRequest,
    ) -> Result<Answer, Error> {
        let started = Instant::now();
        let mut attempts = 0u32;
        let mut may_have_applied = false;
        loop {
            attempts += 1;
            let budget = self
                .retry
                .deadline
                .saturating_sub(started.elapsed())
                .min(self.attempt_timeout);
            // Sent (handed to reqwest) in a statement of its own, so that the request
            // and its preparation are not kept in the call's future while it waits.
            let (sending, sent) = match prepared(build(), credentials) {
                Ok((request, sent)) => (Ok(http.execute(request)), sent),
                Err(error) => (Err(error), Sent::default()),
            };
            let outcome = match sending {
                Ok(pending) => {
                    match tokio::time::timeout(budget, self.attempt(pending, options.keep_headers))
                        .await
                    {
                        Ok(outcome) => outcome,
                        Err(_) => Attempt::Transport {
                            cause: TransportCause::Timeout,
                            source: None,
                        },
                    }
                }
                Err(error) => Attempt::NotSent(error),
            };
            let write = !matches!(sent.method, "GET" | "HEAD" | "");
            let delete = sent.method == "DELETE";
            let idempotent_write = delete || sent.method == "PUT";
            let call = CallInfo {
                operation,
                method: sent.method,
                path: sent.path,
                attempts,
                elapsed: started.elapsed(),
            };
            // A DELETE that finds the resource gone after an earlier attempt may have
            // removed it has done what was asked.
            if let Attempt::Status { status: 404, .. } = outcome
                && delete
                && may_have_applied
            {
                tracing::info!(
                    operation,
                    "hostapi: an earlier attempt of this DELETE may have gone through, and \
                     the resource is gone: applied"
                );
                log_call(&call, Some(404), "applied");
                return Ok(self.answer(404, Bytes::new(), call, write));
            }
            let outcome = match outcome {
                Attempt::Answer {
                    status,
                    content_type,
                    headers,
                    body,
                } => {
                    log_call(&call, Some(status), "ok");
                    let mut answer = self.answer(status, body, call, write);
                    answer.content_type = content_type;
                    answer.headers = headers;
                    return Ok(answer);
                }
                failed => failed,
            };
            let applied_here = write && outcome.may_have_applied();
            let failure = outcome.failure();
            let resend = !write || idempotent_write || options.retry_unsafe;
            let decision = self.retry.decide(
                attempts,
                &failure,
                resend,
                started.elapsed(),
                rand::random::<f64>(),
            );
            may_have_applied |= applied_here;
            match decision {
                Decision::Retry(delay) => {
                    tracing::info!(
                        operation,
                        attempt = attempts,
                        reason = %failure,
                        delay_ms = u64::try_from(delay.as_millis()).unwrap_or(u64::MAX),
                        "hostapi: retrying"
                    );
                    tokio::time::sleep(delay).await;
                }
                Decision::Stop(why) => {
                    tracing::debug!(operation, attempt = attempts, reason = %failure, why = why.describe(), "hostapi: not retrying");
                    let status = match &outcome {
                        Attempt::Status { status, .. } | Attempt::TooLarge { status } => {
                            Some(*status)
                        }
                        _ => None,
                    };
                    let error = self.error(outcome, &call);
                    if write && may_have_applied {
                        log_call(&call, status, "outcome unknown");
                        return Err(error.outcome_unknown(call));
                    }
                    log_call(&call, status, "failed");
                    return Err(error);
                }
            }
        }
    }

    fn answer(&self, status: u16, body: Bytes, call: CallInfo, write: bool) -> Answer {
        Answer {
            content_type: None,
            status,
            headers: None,
            body,
            call,
            write,
            mode: self.mode,
            scrub: self.scrub.clone(),
        }
    }

    /// Runs one attempt and reads its answer (keeping its headers if `keep_headers`).
    async fn attempt(
        &self,
        pending: impl Future<Output = reqwest::Result<reqwest::Response>>,
        keep_headers: bool,
    ) -> Attempt {
        let mut response = match pending.await {
            Ok(response) => response,
            Err(error) => return transport_failure(error),
        };
        if !response.status().is_success() {
            // Boxed: the rarer path's future would otherwise set the size of every
            // call's future.
            return Box::pin(error_answer(response)).await;
        }
        let status = response.status().as_u16();
        let content_type = response
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .cloned();
        let headers = keep_headers.then(|| Box::new(response.headers().clone()));
        // Most answers come in one chunk, kept as it came; the chunks of a longer one
        // are joined in `joined`.
        let mut first = Bytes::new();
        let mut joined = Vec::new();
        loop {
            match response.chunk().await {
                Ok(Some(chunk))
                    if first.len() + joined.len() + chunk.len() > self.max_answer_bytes =>
                {
                    // Dropping the answer closes the connection: the rest is never read.
                    return Attempt::TooLarge { status };
                }
                Ok(Some(chunk)) if first.is_empty() && joined.is_empty() => first = chunk,
                Ok(Some(chunk)) => {
                    joined.extend_from_slice(&std::mem::take(&mut first));
                    joined.extend_from_slice(&chunk);
                }
                Ok(None) => break,
                Err(error) => return transport_failure(error),
            }
        }
        Attempt::Answer {
            status,
            content_type,
            headers,
            body: if joined.is_empty() {
                first
            } else {
                Bytes::from(joined)
            },
        }
    }

    /// The error an attempt that failed ends the call with.
    fn error(&self, outcome: Attempt, call: &CallInfo) -> Error {
        match outcome {
            Attempt::Status {
                status, location, ..
            } if (300..400).contains(&status) => Error::Redirect(Box::new(RedirectError {
                call: call.clone(),
                status,
                location_host: location.as_deref().and_then(location_host),
            })),
            Attempt::Status {
                status,
                body,
                truncated,
                retry_after,
                ..
            } => Error::Status(Box::new(StatusError {
                call: call.clone(),
                status,
                retry_after,
                body: ErrorBody::read(&body, truncated, &self.scrub),
            })),
            Attempt::TooLarge { .. } => Error::AnswerTooLarge(Box::new(TooLargeError {
                call: call.clone(),
                limit: self.max_answer_bytes,
            })),
            Attempt::Transport { cause, source } => Error::Transport(Box::new(TransportError {
                call: call.clone(),
                cause,
                // Without its URL, which may hold a CDN signature.
                source: source.map(|e| Box::new(e.without_url()) as _),
            })),
            Attempt::NotSent(error) => error,
            // Not a failure: `call` hands answers on before asking for an error.
            Attempt::Answer { status, .. } => {
                Error::invalid("request", format!("answered {status}"))
            }
        }
    }
}

/// An attempt's request, built and prepared, with what it sends; or why it is not sent
/// (an argument the builder could not convert, a missing setting).
fn prepared(
    built: BuiltRequest,
    credentials: &Credentials,
) -> Result<(reqwest::Request, Sent), Error> {
    let mut request = match built.map_err(|error| *error) {
        Ok(request) => request,
        Err(RawError::Custom(message) | RawError::InvalidRequest(message)) => {
            return Err(not_sent(message));
        }
        Err(other) => return Err(Error::invalid("request", other)),
    };
    let sent = credentials.prepare(&mut request).map_err(not_sent)?;
    Ok((request, sent))
}

fn transport_failure(error: reqwest::Error) -> Attempt {
    Attempt::Transport {
        cause: TransportCause::of(&error),
        source: Some(error),
    }
}

/// A request stopped before sending: the credentials name the missing setting; the
/// generated builder names the argument it could not convert.
fn not_sent(message: String) -> Error {
    match message.split_once(PREPARE_ERROR_SEPARATOR) {
        Some((argument, reason)) if !argument.contains(' ') => Error::invalid(argument, reason),
        _ => Error::invalid("request", message),
    }
}

/// Reads an error answer: its status, headers of note, and at most
/// [`ErrorBody::MAX_LEN`] of its body.
async fn error_answer(mut response: reqwest::Response) -> Attempt {
    let status = response.status().as_u16();
    let header = |name| {
        response
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    let retry_after =
        header(reqwest::header::RETRY_AFTER).and_then(|v| retry_after(&v, chrono::Utc::now()));
    let location = header(reqwest::header::LOCATION);
    let mut body = Vec::new();
    let mut truncated = false;
    loop {
        match response.chunk().await {
            Ok(Some(chunk)) => {
                let room = ErrorBody::MAX_LEN - body.len();
                if chunk.len() > room {
                    body.extend_from_slice(&chunk[..room]);
                    truncated = true;
                    break;
                }
                body.extend_from_slice(&chunk);
            }
            Ok(None) => break,
            // What arrived of an error answer is kept; the status is what matters.
            Err(_) => break,
        }
    }
    Attempt::Status {
        status,
        body: Bytes::from(body),
        truncated,
        retry_after,
        location,
    }
}

/// The host a `Location` header names, when it names one.
fn location_host(location: &str) -> Option<String> {
    url::Url::parse(location)
        .ok()
        .and_then(|url| url.host_str().map(str::to_owned))
}

/// The `-v` line of a finished call.
fn log_call(call: &CallInfo, status: Option<u16>, outcome: &'static str) {
    tracing::debug!(
        operation = call.operation,
        method = %call.method,
        path = %call.path,
        status,
        attempts = call.attempts,
        elapsed_ms = u64::try_from(call.elapsed.as_millis()).unwrap_or(u64::MAX),
        ok = outcome == "ok" || outcome == "applied",
        outcome,
        "hostapi: call"
    );
}

impl Answer {
    fn reading(&self) -> Reading<'_> {
        Reading::new(&self.call, self.mode, &self.scrub)
    }

    /// An answer a write could not read leaves its outcome unknown: the service said
    /// 2XX, but what it did cannot be shown.
    fn settle<T>(&self, read: Result<T, Error>) -> Result<T, Error> {
        match read {
            Err(error) if self.write => Err(error.outcome_unknown(self.call.clone())),
            other => other,
        }
    }

    /// The beginning of the body, scrubbed, for an error about it.
    pub(crate) fn excerpt(&self) -> String {
        crate::read::body_excerpt(&self.body, &self.scrub)
    }

    /// Whether the answer has no body (or only white space).
    pub(crate) fn is_empty(&self) -> bool {
        self.body.iter().all(u8::is_ascii_whitespace)
    }

    /// Reads the body as one value (see [`Reading::one`]).
    pub(crate) fn one<T>(
        &self,
        read: impl for<'a> FnOnce(
            &mut crate::read::Cursor,
            crate::read::Json<'a>,
        ) -> Result<T, crate::read::FieldError>,
    ) -> Result<T, Error> {
        self.settle(self.reading().one(&self.body, read))
    }

    /// Reads the body as a list (see [`Reading::list`]).
    pub(crate) fn list<T>(
        &self,
        items: impl for<'a> FnOnce(
            &mut crate::read::Cursor,
            crate::read::Json<'a>,
        ) -> Result<crate::read::Records<'a>, crate::read::FieldError>,
        read: impl for<'a> FnMut(
            &mut crate::read::Cursor,
            crate::read::Json<'a>,
        ) -> Result<T, crate::read::FieldError>,
    ) -> Result<Listing<T>, Error> {
        self.settle(self.reading().list(&self.body, items, read))
    }

    /// Reads the body as one page of a paged list: `items` finds the records and notes
    /// the answer's `totalCount` in its third argument (see [`crate::paging`]).
    pub(crate) fn page<T>(
        self,
        items: impl for<'a> FnOnce(
            &mut crate::read::Cursor,
            crate::read::Json<'a>,
            &mut Option<u64>,
        ) -> Result<crate::read::Records<'a>, crate::read::FieldError>,
        read: impl for<'a> FnMut(
            &mut crate::read::Cursor,
            crate::read::Json<'a>,
        ) -> Result<T, crate::read::FieldError>,
    ) -> Result<crate::paging::Page<T>, Error> {
        let mut total_count = None;
        let listing = self.list(|cursor, body| items(cursor, body, &mut total_count), read)?;
        Ok(crate::paging::Page {
            listing,
            total_count,
            call: self.call,
        })
    }

    /// Reads the body as the list under the member `key` of the answer object (see
    /// [`Reading::list_at`]).
    pub(crate) fn list_at<T>(
        &self,
        key: &'static str,
        read: impl for<'a> FnMut(
            &mut crate::read::Cursor,
            crate::read::Json<'a>,
        ) -> Result<T, crate::read::FieldError>,
    ) -> Result<Listing<T>, Error> {
        self.settle(self.reading().list_at(&self.body, key, read))
    }
}
