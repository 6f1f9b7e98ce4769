//! The hooks every generated call runs through: credentials, signing, retries, and the
//! record of what happened.

use std::time::{Duration, Instant};

use futures::future::BoxFuture;
use hostapi_hooks::CallHooks;
use reqwest::header::{HeaderName, HeaderValue};

use super::record::Recorder;
use super::retry::{RetryPolicy, is_retryable_status, retry_after};
use crate::signing::CdnSigner;

/// How a call proves who is calling.
#[derive(Debug)]
pub(crate) enum Auth {
    /// v1 and cloud: the `X-Svc-Auth` header (the value is marked sensitive, so it is
    /// never printed by the HTTP stack either).
    ApiKey(HeaderValue),
    /// CDN: a signed path.
    Cdn(CdnSigner),
    /// Not configured: the call stops before sending, naming the setting.
    Missing {
        /// The setting, e.g. `api_key`.
        argument: &'static str,
        /// How to provide it.
        hint: &'static str,
    },
}

/// The facade's implementation of [`CallHooks`].
#[derive(Debug)]
pub(crate) struct FacadeHooks {
    pub(crate) auth: Auth,
    pub(crate) retry: RetryPolicy,
}

const X_SVC_AUTH: HeaderName = HeaderName::from_static("x-svc-auth");

/// Separates the argument from the reason in an error raised by `prepare` (which can
/// only pass a string through the generated code).
pub(crate) const PREPARE_ERROR_SEPARATOR: &str = ": ";

impl CallHooks for FacadeHooks {
    fn prepare(
        &self,
        request: &mut reqwest::Request,
        _operation: &'static str,
    ) -> Result<(), String> {
        let mut resource_path = request.url().path().to_owned();
        match &self.auth {
            Auth::ApiKey(value) => {
                request.headers_mut().insert(X_SVC_AUTH, value.clone());
            }
            Auth::Cdn(signer) => {
                // The signature segments are credentials of a sort: keep them out of
                // the record (and so out of logs).
                let cut = resource_path.rsplitn(3, '/').nth(2).map_or(0, str::len);
                resource_path.truncate(cut);
                signer.sign(request.url_mut())?;
            }
            Auth::Missing { argument, hint } => {
                return Err(format!("{argument}{PREPARE_ERROR_SEPARATOR}{hint}"));
            }
        }
        if let Some(recorder) = Recorder::current() {
            let mut record = recorder.lock();
            record.method = Some(request.method().clone());
            record.path = Some(resource_path);
        }
        Ok(())
    }

    fn execute<'a>(
        &'a self,
        client: &'a reqwest::Client,
        request: reqwest::Request,
        operation: &'static str,
    ) -> BoxFuture<'a, reqwest::Result<reqwest::Response>> {
        Box::pin(self.send_with_retries(client, request, operation))
    }
}

impl FacadeHooks {
    async fn send_with_retries(
        &self,
        client: &reqwest::Client,
        mut request: reqwest::Request,
        operation: &'static str,
    ) -> reqwest::Result<reqwest::Response> {
        let recorder = Recorder::current();
        let options = recorder
            .as_ref()
            .map(|r| r.lock().options)
            .unwrap_or_default();
        let idempotent = matches!(
            *request.method(),
            reqwest::Method::GET
                | reqwest::Method::PUT
                | reqwest::Method::DELETE
                | reqwest::Method::HEAD
        );
        let retry_after_sending = idempotent || options.retry_unsafe;
        let started = Instant::now();
        let mut attempt = 0;
        loop {
            attempt += 1;
            let spare = request.try_clone();
            let outcome = send_buffered(client, request).await;
            let reason = retry_reason(&outcome, retry_after_sending);
            let delay = match (reason, spare) {
                (Some((reason, server_delay)), Some(spare))
                    if attempt < self.retry.max_attempts =>
                {
                    self.delay(attempt, server_delay, started.elapsed())
                        .map(|d| (d, reason, spare))
                }
                _ => None,
            };
            let Some((delay, reason, spare)) = delay else {
                if let Some(recorder) = &recorder {
                    let mut record = recorder.lock();
                    record.attempts = attempt;
                    if let Ok((status, body, _)) = &outcome {
                        record.status = Some(*status);
                        record.body = Some(body.clone());
                    }
                }
                return outcome.map(|(_, _, response)| response);
            };
            tracing::info!(
                operation,
                attempt,
                reason = %reason,
                delay_ms = u64::try_from(delay.as_millis()).unwrap_or(u64::MAX),
                "hostapi: retrying"
            );
            tokio::time::sleep(delay).await;
            request = spare;
        }
    }

    /// The delay before retry number `attempt`, or `None` when it would start after
    /// the deadline.
    fn delay(
        &self,
        attempt: u32,
        server_delay: Option<Duration>,
        elapsed: Duration,
    ) -> Option<Duration> {
        let backoff = self.retry.backoff(attempt);
        let jittered = backoff.mul_f64(rand::random::<f64>());
        let delay = server_delay.map_or(jittered, |server| server.max(jittered));
        (elapsed + delay <= self.retry.deadline).then_some(delay)
    }
}

/// One attempt's outcome: the status, the body as received, and the answer rebuilt
/// around that body for the generated code to decode.
type Attempt = reqwest::Result<(u16, bytes::Bytes, reqwest::Response)>;

/// Sends once and reads the whole body, so that a body cut short counts as a failed
/// attempt (and can be retried), and so the record keeps the exact bytes received.
async fn send_buffered(client: &reqwest::Client, request: reqwest::Request) -> Attempt {
    let response = client.execute(request).await?;
    let status = response.status();
    let version = response.version();
    let headers = response.headers().clone();
    let body = response.bytes().await?;
    let mut rebuilt = http::Response::new(body.clone());
    *rebuilt.status_mut() = status;
    *rebuilt.version_mut() = version;
    *rebuilt.headers_mut() = headers;
    Ok((status.as_u16(), body, reqwest::Response::from(rebuilt)))
}

/// Why an attempt may be tried again (and the delay the server asked for), or `None`.
fn retry_reason(
    outcome: &Attempt,
    retry_after_sending: bool,
) -> Option<(String, Option<Duration>)> {
    match outcome {
        // The connection was never made: the request cannot have been processed.
        Err(error) if error.is_connect() => Some((format!("could not connect: {error}"), None)),
        Err(error) if retry_after_sending => Some((format!("{error}"), None)),
        Ok((status, _, response)) if retry_after_sending && is_retryable_status(*status) => {
            let server_delay = response
                .headers()
                .get(reqwest::header::RETRY_AFTER)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| retry_after(v, chrono::Utc::now()));
            Some((format!("status {status}"), server_delay))
        }
        _ => None,
    }
}
