//! Running one generated call: a tracing span, the call record, and the translation of
//! progenitor's error into [`Error`].

use std::marker::PhantomData;
use std::pin::Pin;
use std::time::Instant;

use bytes::Bytes;
use progenitor_client::{Error as RawError, ResponseValue};
use serde::de::{DeserializeOwned, DeserializeSeed};
use tracing::Instrument;
use tracing::field::Empty;

use super::hooks::PREPARE_ERROR_SEPARATOR;
use super::record::{CallOptions, Recorder};
use crate::error::{Error, ErrorBody, body_text};
use crate::wire::FieldError;

/// The answer of a successful call: the decoded raw value and the body it came from
/// (kept so that a normalisation error can show what the server sent).
pub(crate) struct Answer<T> {
    pub(crate) value: T,
    operation: &'static str,
    body: Bytes,
}

impl<T> Answer<T> {
    /// Normalises the raw value; a failure becomes [`Error::Decode`] with the field's
    /// path and the body.
    pub(crate) fn normalize<U>(
        self,
        f: impl FnOnce(T) -> Result<U, FieldError>,
    ) -> Result<U, Error> {
        let Self {
            value,
            operation,
            body,
        } = self;
        f(value).map_err(|e| decode_error(operation, &e, &body))
    }

    /// A decode error about this answer, for checks made after normalisation.
    pub(crate) fn error(&self, error: &FieldError) -> Error {
        decode_error(self.operation, error, &self.body)
    }
}

pub(crate) fn decode_error(operation: &'static str, error: &FieldError, body: &[u8]) -> Error {
    Error::Decode {
        operation,
        path: error.path(),
        message: error.message().to_owned(),
        body: body_text(body),
    }
}

/// Runs a generated call whose success answer is JSON of type `T` (a generated type),
/// decoded by the facade from the body (see [`body`]).
pub(crate) async fn json<T, E>(
    operation: &'static str,
    options: CallOptions,
    call: impl Future<Output = Result<ResponseValue<T>, RawError<E>>>,
) -> Result<Answer<T>, Error>
where
    T: DeserializeOwned,
{
    let body = body(operation, options, call).await?;
    let value = body.decoded(decode_json::<T>(operation, &body.bytes))?;
    Ok(Answer {
        value,
        operation,
        body: body.bytes,
    })
}

/// A success answer's body, as received.
pub(crate) struct Body {
    pub(crate) bytes: Bytes,
    /// The status, when it is a success the spec does not name (201 for 200, say): the
    /// body is still read as the documented one, and a decode error mentions it.
    undocumented_status: Option<u16>,
}

impl Body {
    /// `result` of decoding this body, its error noting an undocumented status.
    pub(crate) fn decoded<T>(&self, result: Result<T, Error>) -> Result<T, Error> {
        match self.undocumented_status {
            Some(status) => result.map_err(|e| with_status_note(e, status)),
            None => result,
        }
    }
}

/// Runs a generated call whose success answer the facade decodes itself: the body.
///
/// The generated code can only decode a JSON answer whole into its wrapper type, as
/// bytes. The facade decodes it as text checked once (a sixth fewer instructions than
/// checking each string), and list answers record by record, each record normalised
/// while its text is still in the processor's cache (a quarter less time on a
/// 10,000-server list: `cargo xtask bench decode`). So the hooks hand the generated
/// code an empty success body ([`CallOptions::body_for_facade`]), whose decoding fails
/// at once, and keep the real one in the call record.
pub(crate) async fn body<T, E>(
    operation: &'static str,
    options: CallOptions,
    call: impl Future<Output = Result<ResponseValue<T>, RawError<E>>>,
) -> Result<Body, Error>
where
    T: DeserializeOwned,
{
    let options = CallOptions {
        body_for_facade: true,
        ..options
    };
    let (result, record) = run(operation, options, call).await;
    match body_outcome::<T, E>(operation, result, record) {
        Ok(body) => Ok(body),
        Err(failure) => Err(failure.await),
    }
}

// The outcome of a call is worked out outside the `async fn`s that await it, so that
// only the boxed failure is held across their last await (not the generated result,
// over a kilobyte, which would make every call's future that much larger).

/// The body of a call's answer, or its failure still to translate.
fn body_outcome<T: DeserializeOwned, E>(
    operation: &'static str,
    result: Result<ResponseValue<T>, RawError<E>>,
    record: Finished,
) -> Result<Body, Failure<impl Future<Output = Error>>> {
    let status = record.status.filter(|s| (200..300).contains(s));
    let bytes = record.body.clone().unwrap_or_default();
    let undocumented_status = match result {
        // The failed decoding of the empty body. (A decoded value is not expected: no
        // generated type decodes from nothing.)
        Ok(_) => None,
        Err(RawError::InvalidResponsePayload(..)) if status.is_some() => None,
        // The generated code reads the answer's body again, after the hooks read it to
        // the end; that can only fail on the request's timeout falling due in between.
        // The whole body is in the record.
        Err(RawError::ResponseBodyError(_)) if status.is_some() => None,
        Err(RawError::UnexpectedResponse(_)) if status.is_some() => status,
        Err(error) => return Err(translate::<T, E>(operation, error, record, bytes)),
    };
    Ok(Body {
        bytes,
        undocumented_status,
    })
}

/// Runs a generated call whose success answer has no body (or one we ignore).
pub(crate) async fn empty<T, E>(
    operation: &'static str,
    options: CallOptions,
    call: impl Future<Output = Result<ResponseValue<T>, RawError<E>>>,
) -> Result<(), Error> {
    let (result, record) = run(operation, options, call).await;
    match empty_outcome::<T, E>(operation, result, record) {
        Ok(()) => Ok(()),
        Err(failure) => Err(failure.await),
    }
}

/// Success for an answer whose body is ignored, or the call's failure still to
/// translate.
fn empty_outcome<T, E>(
    operation: &'static str,
    result: Result<ResponseValue<T>, RawError<E>>,
    record: Finished,
) -> Result<(), Failure<impl Future<Output = Error>>> {
    match result {
        Ok(_) => Ok(()),
        Err(RawError::UnexpectedResponse(response)) if response.status().is_success() => Ok(()),
        // A JSON answer where none is documented is still a success.
        Err(RawError::InvalidResponsePayload(..))
            if record.status.is_some_and(|s| (200..300).contains(&s)) =>
        {
            Ok(())
        }
        Err(error) => {
            let body = record.body.clone().unwrap_or_default();
            Err(translate::<(), E>(operation, error, record, body))
        }
    }
}

/// The answer of a hand-written call: its content type and body.
#[derive(Debug, Clone)]
pub(crate) struct RawBody {
    pub(crate) content_type: Option<String>,
    pub(crate) bytes: Bytes,
}

/// Runs a request the generated client cannot make (a nested form, a PNG answer)
/// through the same hooks as generated calls: credentials, retries, tracing, and the
/// same error translation. A 2xx answer's body is returned whatever its type.
pub(crate) async fn raw(
    operation: &'static str,
    options: CallOptions,
    hooks: &hostapi_hooks::Hooks,
    http: &reqwest::Client,
    mut request: reqwest::Request,
) -> Result<RawBody, Error> {
    let call = async move {
        hooks
            .prepare(&mut request, operation)
            .map_err(RawError::<()>::Custom)?;
        let response = hooks
            .execute(http, request, operation)
            .await
            .map_err(RawError::CommunicationError)?;
        let status = response.status();
        let headers = response.headers().clone();
        if !status.is_success() {
            return Err(RawError::ErrorResponse(ResponseValue::new(
                (),
                status,
                headers,
            )));
        }
        let content_type = headers
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let bytes = response
            .bytes()
            .await
            .map_err(RawError::ResponseBodyError)?;
        Ok(ResponseValue::new(
            RawBody {
                content_type,
                bytes,
            },
            status,
            headers,
        ))
    };
    let (result, record) = run(operation, options, Box::pin(call)).await;
    let failure = match result {
        Ok(value) => return Ok(value.into_inner()),
        Err(error) => {
            let body = record.body.clone().unwrap_or_default();
            translate::<(), ()>(operation, error, record, body)
        }
    };
    Err(failure.await)
}

struct Finished {
    status: Option<u16>,
    body: Option<Bytes>,
    /// The body was longer than what was kept of it.
    truncated: bool,
}

async fn run<T, E>(
    operation: &'static str,
    options: CallOptions,
    call: impl Future<Output = Result<ResponseValue<T>, RawError<E>>>,
) -> (Result<ResponseValue<T>, RawError<E>>, Finished) {
    let span = tracing::debug_span!(
        "hostapi.call",
        operation,
        method = Empty,
        path = Empty,
        status = Empty,
        attempts = Empty,
        elapsed_ms = Empty,
    );
    let recorder = Recorder::new(options);
    let started = Instant::now();
    let result = recorder.clone().scope(call).instrument(span.clone()).await;
    let elapsed_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    let mut record = recorder.lock();
    if let Some(method) = &record.method {
        span.record("method", method.as_str());
    }
    if let Some(path) = &record.path {
        span.record("path", path.as_str());
    }
    if let Some(status) = record.status {
        span.record("status", status);
    }
    span.record("attempts", record.attempts);
    span.record("elapsed_ms", elapsed_ms);
    tracing::debug!(parent: &span, ok = result.is_ok(), "hostapi: call finished");
    let finished = Finished {
        status: record.status,
        body: record.body.take(),
        truncated: record.body_truncated,
    };
    (result, finished)
}

/// Decodes `bytes` as `T`, naming the JSON path of the first offending field.
pub(crate) fn decode_json<T: DeserializeOwned>(
    operation: &'static str,
    bytes: &[u8],
) -> Result<T, Error> {
    decode_seeded(operation, bytes, PhantomData::<T>)
}

/// Decodes `bytes` with `seed` (the whole body, nothing after it), naming the JSON
/// path of the first offending field.
pub(crate) fn decode_seeded<'de, S>(
    operation: &'static str,
    bytes: &'de [u8],
    seed: S,
) -> Result<S::Value, Error>
where
    S: DeserializeSeed<'de> + Copy,
{
    // The common case decodes once; only a failure pays for decoding again with path
    // tracking (half as fast again) to name the field.
    // Checking the whole body is UTF-8 at once is cheaper than letting the decoder
    // check each string on its own (a body that is not is decoded as bytes below, so
    // the error names the string at fault).
    if let Ok(text) = std::str::from_utf8(bytes) {
        let mut deserializer = serde_json::Deserializer::from_str(text);
        if let Ok(value) = seed.deserialize(&mut deserializer)
            && deserializer.end().is_ok()
        {
            return Ok(value);
        }
    }
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let mut track = serde_path_to_error::Track::new();
    let decoded = seed
        .deserialize(serde_path_to_error::Deserializer::new(
            &mut deserializer,
            &mut track,
        ))
        .map_err(|error| {
            (
                json_path(&track.path()),
                describe_decode_failure(bytes, &error),
            )
        });
    let checked = decoded.and_then(|value| match deserializer.end() {
        Ok(()) => Ok(value),
        Err(error) => Err((String::new(), describe_decode_failure(bytes, &error))),
    });
    checked.map_err(|(path, message)| Error::Decode {
        operation,
        path,
        message,
        body: body_text(bytes),
    })
}

fn json_path(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut out = String::new();
    for segment in path.iter() {
        match segment {
            Segment::Seq { index } => out.push_str(&format!("[{index}]")),
            Segment::Map { key } | Segment::Enum { variant: key } => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(key);
            }
            Segment::Unknown => {}
        }
    }
    out
}

fn describe_decode_failure(bytes: &[u8], error: &serde_json::Error) -> String {
    let body = ErrorBody::parse(bytes);
    match body.kind {
        crate::ErrorBodyKind::Empty => "the answer is empty where JSON was expected".to_owned(),
        crate::ErrorBodyKind::Html { title } => format!(
            "the answer is an HTML page, not JSON (from a proxy?){}",
            title.map(|t| format!(": {t}")).unwrap_or_default()
        ),
        _ if error.is_eof() => format!("the answer ends early (truncated JSON): {error}"),
        _ if error.is_syntax() => format!("the answer is not valid JSON: {error}"),
        _ => error.to_string(),
    }
}

fn with_status_note(error: Error, status: u16) -> Error {
    match error {
        Error::Decode {
            operation,
            path,
            message,
            body,
        } => Error::Decode {
            operation,
            path,
            message: format!("{message} (status {status})"),
            body,
        },
        other => other,
    }
}

/// A failed call's [`Error`], still to work out (an unexpected answer's body may be
/// still to read). Boxed: only a failed call pays for this future, which holds the
/// generated error (over a kilobyte), and the future of every call stays small.
type Failure<F> = Pin<Box<F>>;

/// Translates progenitor's error (see [`Failure`]). `record` and `body` are what the
/// hooks saw of the last answer, which progenitor may have lost (an error body that is
/// not JSON loses its status there).
fn translate<T: DeserializeOwned, E>(
    operation: &'static str,
    error: RawError<E>,
    record: Finished,
    body: Bytes,
) -> Failure<impl Future<Output = Error>> {
    Box::pin(translate_unboxed::<T, E>(operation, error, record, body))
}

async fn translate_unboxed<T: DeserializeOwned, E>(
    operation: &'static str,
    error: RawError<E>,
    record: Finished,
    body: Bytes,
) -> Error {
    let status = record.status;
    let error_body = |bytes: &[u8]| ErrorBody::parse(bytes).cut_short(record.truncated);
    match error {
        RawError::Custom(message) | RawError::InvalidRequest(message) => {
            match message.split_once(PREPARE_ERROR_SEPARATOR) {
                Some((argument, reason)) if !argument.contains(' ') => {
                    Error::invalid(argument, reason)
                }
                _ => Error::invalid(operation, message),
            }
        }
        RawError::CommunicationError(e)
        | RawError::InvalidUpgrade(e)
        | RawError::ResponseBodyError(e) => transport_error(operation, e),
        RawError::ErrorResponse(response) => Error::Status {
            operation,
            status: response.status().as_u16(),
            body: error_body(&body),
        },
        RawError::InvalidResponsePayload(bytes, _) => match status {
            Some(status) if !(200..300).contains(&status) => Error::Status {
                operation,
                status,
                body: error_body(&bytes),
            },
            // Decode again with path tracking: progenitor's error has only a line and
            // column. This runs only on the failure path.
            _ => match decode_json::<T>(operation, &bytes) {
                Err(error) => error,
                Ok(_) => Error::Decode {
                    operation,
                    path: String::new(),
                    message: "the answer could not be decoded".to_owned(),
                    body: body_text(&bytes),
                },
            },
        },
        RawError::UnexpectedResponse(response) => {
            let status = response.status().as_u16();
            match response.bytes().await {
                Ok(bytes) => Error::Status {
                    operation,
                    status,
                    body: error_body(&bytes),
                },
                Err(e) => transport_error(operation, e),
            }
        }
    }
}

pub(crate) fn transport_error(operation: &'static str, error: reqwest::Error) -> Error {
    if error.is_timeout() {
        return Error::Timeout { operation };
    }
    let message = if error.is_connect() {
        "could not connect to the server"
    } else if error.is_body() || error.is_decode() {
        "the answer was cut short (connection closed mid-body)"
    } else if error.is_request() {
        "the request failed before an answer came (connection closed?)"
    } else {
        "the exchange with the server failed"
    };
    Error::Transport {
        operation,
        message: message.to_owned(),
        source: Some(error),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Outer {
        items: Vec<Inner>,
    }

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Inner {
        id: i64,
    }

    fn decode(body: &str) -> Error {
        decode_json::<Outer>("listThings", body.as_bytes()).unwrap_err()
    }

    #[test]
    fn decode_errors_name_the_field_path() {
        match decode(r#"{"items":[{"id":1},{"id":"x"}]}"#) {
            Error::Decode {
                path,
                operation,
                body,
                ..
            } => {
                assert_eq!(path, "items[1].id");
                assert_eq!(operation, "listThings");
                assert!(body.contains("\"x\""));
            }
            other => panic!("{other}"),
        }
        match decode(r#"{"items":[{}]}"#) {
            Error::Decode { path, message, .. } => {
                assert_eq!(path, "items[0]");
                assert!(message.contains("missing field `id`"), "{message}");
            }
            other => panic!("{other}"),
        }
    }

    #[test]
    fn a_body_read_by_the_hooks_is_the_answer_whatever_the_generated_code_then_reads() {
        let late = reqwest::Response::from(
            http::Response::builder()
                .status(500)
                .body(Vec::new())
                .unwrap(),
        )
        .error_for_status()
        .unwrap_err();
        let record = Finished {
            status: Some(200),
            body: Some(Bytes::from_static(br#"{"items":[]}"#)),
            truncated: false,
        };
        let result: Result<ResponseValue<Outer>, RawError<()>> =
            Err(RawError::ResponseBodyError(late));
        match body_outcome("listThings", result, record) {
            Ok(body) => assert_eq!(&body.bytes[..], br#"{"items":[]}"#),
            Err(_) => panic!("the body the hooks read was lost"),
        }
    }

    #[test]
    fn decode_errors_say_what_the_body_was() {
        let message = |body: &str| match decode(body) {
            Error::Decode { message, .. } => message,
            other => panic!("{other}"),
        };
        assert_eq!(message(""), "the answer is empty where JSON was expected");
        assert!(
            message("<html><title>Oops</title></html>").starts_with("the answer is an HTML page")
        );
        assert!(message(r#"{"items":[{"id":1}"#).starts_with("the answer ends early"));
        assert!(message(r#"{"items":[]} trailing"#).starts_with("the answer is not valid JSON"));
    }
}
