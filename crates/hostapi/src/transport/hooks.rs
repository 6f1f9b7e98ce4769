//! The hooks every generated call runs through: credentials, signing, retries, and the
//! record of what happened.

use std::sync::LazyLock;
use std::time::Duration;

use futures::future::BoxFuture;
use hostapi_hooks::CallHooks;
use reqwest::ResponseBuilderExt;
use reqwest::header::{HeaderName, HeaderValue};

use tokio::time::Instant;

use super::record::{CallOptions, Recorder};
use super::retry::{Decision, Failure, RetryPolicy, StopReason, retry_after};
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
    /// The longest one attempt may take: the builder's `timeout`, which is also the
    /// timeout of the reqwest client the hooks are given. An attempt is also cut off
    /// at the call's deadline.
    pub(crate) attempt_timeout: Duration,
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
    // The retry loop is built so that its future stays small (it is boxed for every
    // call, and an allocation over a kilobyte takes glibc's slow path): each attempt
    // is sent before anything awaits it, so the loop's state holds the attempt in
    // flight and the spare copy for the next one, not the request as well.
    fn send_with_retries<'a>(
        &'a self,
        client: &'a reqwest::Client,
        request: reqwest::Request,
        operation: &'static str,
    ) -> impl Future<Output = reqwest::Result<reqwest::Response>> + Send + 'a {
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
        let resend = idempotent || options.retry_unsafe;
        let started = Instant::now();
        let first = self.attempt(client, request, started, options);
        async move {
            let (mut in_flight, mut spare) = first;
            let mut attempt = 1;
            loop {
                let outcome = in_flight.await.map_err(|error| self.redact(error));
                let decision = match (failure(&outcome), spare) {
                    (None, _) => None,
                    (Some(failure), None) => {
                        Some((failure, Decision::Stop(StopReason::Permanent), None))
                    }
                    (Some(failure), Some(spare)) => {
                        let decision = self.retry.decide(
                            attempt,
                            &failure,
                            resend,
                            started.elapsed(),
                            rand::random::<f64>(),
                        );
                        Some((failure, decision, Some(spare)))
                    }
                };
                match decision {
                    Some((failure, Decision::Retry(delay), Some(request))) => {
                        tracing::info!(
                            operation,
                            attempt,
                            reason = %failure,
                            error = outcome.as_ref().err().map(tracing::field::display),
                            delay_ms = u64::try_from(delay.as_millis()).unwrap_or(u64::MAX),
                            "hostapi: retrying"
                        );
                        tokio::time::sleep(delay).await;
                        attempt += 1;
                        (in_flight, spare) = self.attempt(client, request, started, options);
                    }
                    decision => {
                        if let Some((failure, Decision::Stop(why), _)) = decision {
                            tracing::debug!(
                                operation,
                                attempt,
                                reason = %failure,
                                why = why.describe(),
                                "hostapi: not retrying"
                            );
                        }
                        if let Some(recorder) = &recorder {
                            let mut record = recorder.lock();
                            record.attempts = attempt;
                            if let Ok(answer) = &outcome {
                                record.status = Some(answer.status);
                                record.body = Some(answer.body.clone());
                                record.body_truncated = answer.truncated;
                            }
                        }
                        return outcome.map(|answer| answer.response);
                    }
                }
            }
        }
    }

    /// Sends one attempt (what reqwest does before its first await happens here), and
    /// keeps a copy of the request for the next attempt when it can be copied.
    fn attempt(
        &self,
        client: &reqwest::Client,
        mut request: reqwest::Request,
        started: Instant,
        options: CallOptions,
    ) -> (
        impl Future<Output = Attempt> + Send + use<>,
        Option<reqwest::Request>,
    ) {
        // The deadline bounds the whole call: the attempt gets what is left of it
        // when that is less than its own timeout. Otherwise the client's timeout (the
        // same `attempt_timeout`) applies: a request's own timeout is a request
        // extension, which costs an allocation to set and another in each copy.
        let left = self.retry.deadline.saturating_sub(started.elapsed());
        if left < self.attempt_timeout {
            *request.timeout_mut() = Some(left);
        }
        let spare = spare_copy(&request);
        (
            send_buffered(client, request, options.body_for_facade),
            spare,
        )
    }

    /// Takes the CDN signature out of the URL an error carries: the signature
    /// authorises the call's path (whatever its body) for minutes, so it must not reach
    /// logs or error messages.
    fn redact(&self, mut error: reqwest::Error) -> reqwest::Error {
        if let (Auth::Cdn(_), Some(url)) = (&self.auth, error.url_mut())
            && let Ok(mut segments) = url.path_segments_mut()
        {
            segments.pop().push(crate::REDACTED);
        }
        error
    }
}

/// A copy of `request` for another attempt, when it can be copied (a streamed body
/// cannot). reqwest's `try_clone` also copies the request's extensions, and first gives
/// them an empty timeout when there is none, which builds a map (and drops it) on every
/// call. Outside reqwest, a request's extensions hold only its timeout, so a request
/// without a body is copied part by part instead.
fn spare_copy(request: &reqwest::Request) -> Option<reqwest::Request> {
    if request.body().is_some() {
        return request.try_clone();
    }
    let mut copy = reqwest::Request::new(request.method().clone(), request.url().clone());
    *copy.headers_mut() = request.headers().clone();
    *copy.version_mut() = request.version();
    if let Some(&timeout) = request.timeout() {
        *copy.timeout_mut() = Some(timeout);
    }
    Some(copy)
}

/// The most of an error answer's body that is read and kept: enough for any error
/// object or proxy page, and a bound on what a misbehaving server can make the client
/// hold. The rest is not read (the connection is closed rather than reused).
pub(crate) const MAX_ERROR_BODY: usize = 64 * 1024;

/// One attempt's answer: the status, the body as received (for an error status, at
/// most [`MAX_ERROR_BODY`] bytes of it), and the answer for the generated code to
/// decode.
struct Received {
    status: u16,
    body: bytes::Bytes,
    truncated: bool,
    response: reqwest::Response,
}

type Attempt = reqwest::Result<Received>;

/// Sends once and reads the body, so that a body cut short counts as a failed attempt
/// (and can be retried), and so the record keeps the exact bytes received. With
/// `body_for_facade`, the answer handed to the generated code has an empty body when
/// the status is a success. The request is handed to reqwest at once, so the future
/// does not hold it.
fn send_buffered(
    client: &reqwest::Client,
    request: reqwest::Request,
    body_for_facade: bool,
) -> impl Future<Output = Attempt> + Send + use<> {
    let pending = client.execute(request);
    async move {
        let mut response = pending.await?;
        let status = response.status();
        let version = response.version();
        // Reading the body needs none of the headers: move them rather than copy them.
        let headers = std::mem::take(response.headers_mut());
        let limit = if status.is_success() {
            usize::MAX
        } else {
            MAX_ERROR_BODY
        };
        let (body, truncated) = read_at_most(&mut response, limit).await?;
        let response = if body_for_facade && status.is_success() {
            // The generated code only reads the status (and copies the headers): give
            // it the answer itself, its headers taken and its body read to the end, so
            // that it reads an empty body and fails to decode it at once. (It never
            // prints the answer, whose URL may hold a CDN signature; it drops it.)
            response
        } else {
            rebuild(status, version, headers, body.clone())
        };
        Ok(Received {
            status: status.as_u16(),
            response,
            body,
            truncated,
        })
    }
}

/// The URL a rebuilt answer carries: the placeholder reqwest gives an answer built
/// from parts (not the request's URL, which can hold a CDN signature), parsed once —
/// reqwest parses it afresh for every answer it is not given one for, which cost more
/// than the rest of the rebuild.
static PLACEHOLDER_URL: LazyLock<Option<reqwest::Url>> =
    LazyLock::new(|| reqwest::Url::parse("http://no.url.provided.local").ok());

/// An answer for the generated code to decode, around the body already read.
fn rebuild(
    status: reqwest::StatusCode,
    version: reqwest::Version,
    headers: reqwest::header::HeaderMap,
    body: bytes::Bytes,
) -> reqwest::Response {
    let mut builder = http::Response::builder().status(status).version(version);
    if let Some(url) = PLACEHOLDER_URL.as_ref() {
        builder = builder.url(url.clone());
    }
    // The builder only fails on a part given as unchecked text, and every part here
    // is already typed; the fallback keeps that a non-event.
    let mut rebuilt = builder.body(body.clone()).unwrap_or_else(|_| {
        let mut plain = http::Response::new(body);
        *plain.status_mut() = status;
        *plain.version_mut() = version;
        plain
    });
    *rebuilt.headers_mut() = headers;
    reqwest::Response::from(rebuilt)
}

/// The most room reserved for a body ahead of its arrival (beyond it, the buffer grows
/// as the body arrives).
const MAX_RESERVED: usize = 4 * 1024 * 1024;

/// Reads at most `limit` bytes of a body; says whether there was more. A body that
/// arrives in one piece is kept as it came, without a copy. (Reading chunk by chunk
/// rather than with `Response::bytes` also keeps the attempt's future small.)
async fn read_at_most(
    response: &mut reqwest::Response,
    limit: usize,
) -> reqwest::Result<(bytes::Bytes, bool)> {
    // Read before any chunk is: the whole body's length, when announced.
    let announced = response
        .content_length()
        .and_then(|length| usize::try_from(length).ok())
        .unwrap_or(0);
    let Some(first) = response.chunk().await? else {
        return Ok((bytes::Bytes::new(), false));
    };
    if first.len() > limit {
        return Ok((first.slice(..limit), true));
    }
    let Some(mut chunk) = response.chunk().await? else {
        return Ok((first, false));
    };
    // Room for the whole body when its length is announced, so that it is not
    // reallocated (and held twice) as it grows; at most `MAX_RESERVED` of it, since
    // the announced length is only the server's word.
    let reserved = announced.min(limit).min(MAX_RESERVED).max(first.len());
    let mut body = bytes::BytesMut::with_capacity(reserved);
    body.extend_from_slice(&first);
    loop {
        if body.len().saturating_add(chunk.len()) > limit {
            body.extend_from_slice(&chunk[..limit - body.len()]);
            return Ok((body.freeze(), true));
        }
        body.extend_from_slice(&chunk);
        match response.chunk().await? {
            Some(next) => chunk = next,
            None => return Ok((body.freeze(), false)),
        }
    }
}

/// How an attempt failed, as far as retrying goes; `None` for an answer to hand on
/// (a success, or an error status that will not pass).
fn failure(outcome: &Attempt) -> Option<Failure> {
    match outcome {
        Err(error) if error.is_connect() => Some(Failure::Connect),
        Err(error) if error.is_timeout() => Some(Failure::Timeout),
        Err(error) if error.is_builder() || error.is_redirect() => Some(Failure::Other),
        // Closed without an answer, reset, or the body cut short.
        Err(_) => Some(Failure::Interrupted),
        Ok(answer) => {
            let server_delay = answer
                .response
                .headers()
                .get(reqwest::header::RETRY_AFTER)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| retry_after(v, chrono::Utc::now()));
            Failure::from_status(answer.status, server_delay)
        }
    }
}

#[cfg(test)]
mod tests {
    //! The retry loop against a scripted server on 127.0.0.1: each connection gets the
    //! next scripted answer (and `Connection: close`, so every attempt connects anew).

    use std::sync::{Arc, Mutex};

    use secrecy::SecretString;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpListener;

    use super::*;
    use crate::signing::FixedClock;
    use crate::transport::record::CallOptions;

    const MS: Duration = Duration::from_millis(1);

    #[derive(Clone)]
    enum Script {
        /// A whole answer.
        Answer(u16, &'static str, String),
        /// Headers announcing 100 bytes, 10 of them, then the connection closes.
        CutShort(u16),
        /// Read the request, then close without a word.
        Close,
        /// Read the request, then say nothing for a long time.
        Hang,
    }

    struct Server {
        base: String,
        connections: Arc<Mutex<u32>>,
    }

    async fn serve(scripts: Vec<Script>) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let connections = Arc::new(Mutex::new(0));
        let count = connections.clone();
        tokio::spawn(async move {
            let mut scripts = scripts.into_iter();
            while let Ok((mut socket, _)) = listener.accept().await {
                *count.lock().unwrap() += 1;
                let script = scripts.next().unwrap_or(Script::Close);
                tokio::spawn(async move {
                    let mut head = Vec::new();
                    let mut byte = [0u8; 1];
                    while !head.ends_with(b"\r\n\r\n") {
                        if socket.read(&mut byte).await.unwrap_or(0) == 0 {
                            return;
                        }
                        head.push(byte[0]);
                    }
                    let reply = match script {
                        Script::Answer(status, extra_header, body) => format!(
                            "HTTP/1.1 {status} X\r\nConnection: close\r\nContent-Length: {}\r\n{extra_header}\r\n{body}",
                            body.len()
                        ),
                        Script::CutShort(status) => format!(
                            "HTTP/1.1 {status} X\r\nConnection: close\r\nContent-Length: 100\r\n\r\n{{\"ten\":\"b\""
                        ),
                        Script::Close => return,
                        Script::Hang => {
                            tokio::time::sleep(Duration::from_secs(30)).await;
                            return;
                        }
                    };
                    let _ = socket.write_all(reply.as_bytes()).await;
                    let _ = socket.shutdown().await;
                });
            }
        });
        Server { base, connections }
    }

    fn hooks(auth: Auth, max_attempts: u32, deadline: Duration) -> FacadeHooks {
        FacadeHooks {
            auth,
            retry: RetryPolicy {
                max_attempts,
                initial_backoff: MS,
                max_backoff: 2 * MS,
                deadline,
            },
            attempt_timeout: Duration::from_secs(5),
        }
    }

    fn api_key() -> Auth {
        Auth::ApiKey(HeaderValue::from_static("key"))
    }

    /// Runs one request through the hooks inside a call record; answers the outcome
    /// (the status and body on success) and the record.
    async fn call(
        hooks: &FacadeHooks,
        method: reqwest::Method,
        url: &str,
        options: CallOptions,
    ) -> (reqwest::Result<(u16, String)>, Recorder) {
        let _ = rustls::crypto::ring::default_provider().install_default();
        // As the builder makes it: the client's timeout is the attempt timeout.
        let client = reqwest::Client::builder()
            .timeout(hooks.attempt_timeout)
            .build()
            .unwrap();
        let mut request = reqwest::Request::new(method, url.parse().unwrap());
        hooks.prepare(&mut request, "testOperation").unwrap();
        let recorder = Recorder::new(options);
        let outcome = recorder
            .clone()
            .scope(async {
                let response = hooks
                    .send_with_retries(&client, request, "testOperation")
                    .await?;
                let status = response.status().as_u16();
                Ok((status, response.text().await?))
            })
            .await;
        (outcome, recorder)
    }

    fn ok_answer() -> Script {
        Script::Answer(200, "", r#"{"ok":true}"#.to_owned())
    }

    #[test]
    fn the_spare_copy_keeps_all_an_attempt_sends() {
        let url = reqwest::Url::parse("http://127.0.0.1:9/v1/x?a=1").unwrap();
        let mut get = reqwest::Request::new(reqwest::Method::GET, url.clone());
        get.headers_mut()
            .insert(X_SVC_AUTH, HeaderValue::from_static("key"));
        *get.version_mut() = reqwest::Version::HTTP_10;
        let copy = spare_copy(&get).unwrap();
        assert_eq!(
            (copy.method(), copy.url(), copy.headers(), copy.version()),
            (get.method(), get.url(), get.headers(), get.version())
        );
        assert_eq!(copy.timeout(), None);
        *get.timeout_mut() = Some(Duration::from_millis(1500));
        assert_eq!(
            spare_copy(&get).unwrap().timeout(),
            Some(&Duration::from_millis(1500))
        );

        let mut post = reqwest::Request::new(reqwest::Method::POST, url);
        *post.body_mut() = Some(reqwest::Body::from("a=1&b=2"));
        let copy = spare_copy(&post).unwrap();
        assert_eq!(
            copy.body().and_then(reqwest::Body::as_bytes),
            Some(&b"a=1&b=2"[..])
        );
    }

    #[tokio::test]
    async fn a_get_whose_body_is_cut_short_is_tried_again() {
        let server = serve(vec![Script::CutShort(200), Script::Close, ok_answer()]).await;
        let hooks = hooks(api_key(), 4, Duration::from_secs(5));
        let url = format!("{}/v1/x", server.base);
        let (outcome, record) =
            call(&hooks, reqwest::Method::GET, &url, CallOptions::default()).await;
        assert_eq!(outcome.unwrap(), (200, r#"{"ok":true}"#.to_owned()));
        assert_eq!(record.lock().attempts, 3);
        assert_eq!(*server.connections.lock().unwrap(), 3);
    }

    #[tokio::test]
    async fn a_post_that_may_have_reached_the_server_is_not_repeated_unless_asked() {
        for script in [
            Script::CutShort(200),
            Script::Close,
            Script::Answer(503, "Retry-After: 0\r\n", String::new()),
        ] {
            let server = serve(vec![script.clone(), ok_answer()]).await;
            let hooks = hooks(api_key(), 4, Duration::from_secs(5));
            let url = format!("{}/v1/x", server.base);
            let (_, record) =
                call(&hooks, reqwest::Method::POST, &url, CallOptions::default()).await;
            assert_eq!(record.lock().attempts, 1);
            assert_eq!(*server.connections.lock().unwrap(), 1);

            let server = serve(vec![script, ok_answer()]).await;
            let url = format!("{}/v1/x", server.base);
            let options = CallOptions {
                retry_unsafe: true,
                ..CallOptions::default()
            };
            let (outcome, record) = call(&hooks, reqwest::Method::POST, &url, options).await;
            assert_eq!(outcome.unwrap().0, 200);
            assert_eq!(record.lock().attempts, 2);
        }
    }

    #[tokio::test]
    async fn a_post_that_could_not_connect_is_tried_again() {
        // A port nothing listens on: bind one, note it, close it.
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}/v1/x", listener.local_addr().unwrap());
        drop(listener);
        let hooks = hooks(api_key(), 3, Duration::from_secs(5));
        let (outcome, record) =
            call(&hooks, reqwest::Method::POST, &url, CallOptions::default()).await;
        assert!(outcome.unwrap_err().is_connect());
        assert_eq!(record.lock().attempts, 3);
    }

    #[tokio::test]
    async fn the_deadline_cuts_an_attempt_that_runs_past_it() {
        let server = serve(vec![Script::Hang, Script::Hang]).await;
        let hooks = hooks(api_key(), 4, 300 * MS);
        let url = format!("{}/v1/x", server.base);
        let started = std::time::Instant::now();
        let (outcome, record) =
            call(&hooks, reqwest::Method::GET, &url, CallOptions::default()).await;
        let elapsed = started.elapsed();
        assert!(outcome.unwrap_err().is_timeout());
        assert_eq!(record.lock().attempts, 1);
        assert!(
            elapsed >= 290 * MS && elapsed < Duration::from_secs(3),
            "{elapsed:?}"
        );
    }

    #[tokio::test]
    async fn a_retry_after_beyond_the_deadline_ends_the_call_at_once() {
        let server = serve(vec![
            Script::Answer(503, "Retry-After: 30\r\n", "busy".to_owned()),
            ok_answer(),
        ])
        .await;
        let hooks = hooks(api_key(), 4, Duration::from_secs(10));
        let url = format!("{}/v1/x", server.base);
        let started = std::time::Instant::now();
        let (outcome, record) =
            call(&hooks, reqwest::Method::GET, &url, CallOptions::default()).await;
        assert_eq!(outcome.unwrap(), (503, "busy".to_owned()));
        assert_eq!(record.lock().attempts, 1);
        assert!(started.elapsed() < Duration::from_secs(3));
    }

    #[tokio::test]
    async fn statuses_that_will_not_pass_are_answered_at_once() {
        for status in [400, 401, 404, 409, 500] {
            let server = serve(vec![
                Script::Answer(status, "", "no".to_owned()),
                ok_answer(),
            ])
            .await;
            let hooks = hooks(api_key(), 4, Duration::from_secs(5));
            let url = format!("{}/v1/x", server.base);
            let (outcome, record) =
                call(&hooks, reqwest::Method::GET, &url, CallOptions::default()).await;
            assert_eq!(outcome.unwrap().0, status);
            assert_eq!(record.lock().attempts, 1);
        }
    }

    #[tokio::test]
    async fn the_attempts_run_out() {
        let busy = || Script::Answer(502, "", "<html>bad gateway</html>".to_owned());
        let server = serve(vec![busy(), busy(), busy(), ok_answer()]).await;
        let hooks = hooks(api_key(), 3, Duration::from_secs(5));
        let url = format!("{}/v1/x", server.base);
        let (outcome, record) = call(
            &hooks,
            reqwest::Method::DELETE,
            &url,
            CallOptions::default(),
        )
        .await;
        assert_eq!(outcome.unwrap().0, 502);
        let record = record.lock();
        assert_eq!(record.attempts, 3);
        assert_eq!(record.status, Some(502));
        assert_eq!(
            record.body.as_deref(),
            Some(&b"<html>bad gateway</html>"[..])
        );
    }

    #[tokio::test]
    async fn only_the_beginning_of_a_huge_error_body_is_kept() {
        let huge = "x".repeat(MAX_ERROR_BODY * 4);
        let server = serve(vec![Script::Answer(500, "", huge)]).await;
        let hooks = hooks(api_key(), 1, Duration::from_secs(5));
        let url = format!("{}/v1/x", server.base);
        let (outcome, record) =
            call(&hooks, reqwest::Method::GET, &url, CallOptions::default()).await;
        assert_eq!(outcome.unwrap().0, 500);
        let record = record.lock();
        assert_eq!(record.body.as_ref().map(|b| b.len()), Some(MAX_ERROR_BODY));
        assert!(record.body_truncated);
    }

    #[tokio::test]
    async fn a_large_success_body_arriving_in_pieces_is_kept_whole() {
        // Several megabytes cannot pass the loopback socket in one piece, and are more
        // than is reserved ahead of arrival.
        let large: String = (0..MAX_RESERVED + 12_345)
            .map(|i| char::from(b'a' + (i % 26) as u8))
            .collect();
        let server = serve(vec![Script::Answer(200, "", large.clone())]).await;
        let hooks = hooks(api_key(), 1, Duration::from_secs(5));
        let url = format!("{}/v1/x", server.base);
        let (outcome, record) =
            call(&hooks, reqwest::Method::GET, &url, CallOptions::default()).await;
        let (status, body) = outcome.unwrap();
        assert_eq!(status, 200);
        assert!(body == large, "the body as the generated code sees it");
        let record = record.lock();
        assert!(record.body.as_deref() == Some(large.as_bytes()));
        assert!(!record.body_truncated);
    }

    #[tokio::test]
    async fn a_cdn_error_never_carries_the_signature() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}/cdn", listener.local_addr().unwrap());
        drop(listener);
        let signer = CdnSigner::new(
            SecretString::from("cdn-secret"),
            Arc::new(FixedClock(1_700_000_000)),
            &base,
        );
        let signature = crate::cdn_signature("cdn-secret", 1_700_000_000, "/origins/C1");
        let hooks = hooks(Auth::Cdn(signer), 2, Duration::from_secs(5));
        let url = format!("{base}/origins/C1/1700000000/unsigned");
        let (outcome, _) = call(&hooks, reqwest::Method::GET, &url, CallOptions::default()).await;
        let error = outcome.unwrap_err();
        let shown = format!("{error} {error:?}");
        assert!(!shown.contains(&signature), "{shown}");
        assert!(shown.contains(crate::REDACTED), "{shown}");
    }

    #[test]
    fn retry_after_is_read_from_a_retryable_answer() {
        let answer = |status: u16, retry_after: &str| {
            let mut response = http::Response::new(bytes::Bytes::new());
            *response.status_mut() = http::StatusCode::from_u16(status).unwrap();
            response.headers_mut().insert(
                reqwest::header::RETRY_AFTER,
                HeaderValue::from_str(retry_after).unwrap(),
            );
            Ok(Received {
                status,
                body: bytes::Bytes::new(),
                truncated: false,
                response: reqwest::Response::from(response),
            })
        };
        assert_eq!(
            failure(&answer(429, "3")),
            Some(Failure::Status {
                status: 429,
                retry_after: Some(Duration::from_secs(3))
            })
        );
        assert_eq!(
            failure(&answer(503, "whenever")),
            Some(Failure::Status {
                status: 503,
                retry_after: None
            })
        );
        assert_eq!(failure(&answer(500, "3")), None);
        assert_eq!(failure(&answer(200, "3")), None);
    }
}
