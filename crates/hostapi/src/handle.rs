//! What every resource handle shares: a clone of the client, the options of its calls,
//! and the way to make a call.

use hostapi_raw_operation::{BuiltRequest, Operation, OperationBuilder};
use progenitor_client::Error as RawError;

use crate::transport::credentials::{Credentials, PREPARE_ERROR_SEPARATOR};
use crate::transport::route;
use crate::transport::{Answer, CallOptions};
use crate::{Client, Error};

/// The client and call options behind a resource handle. It owns a clone of the
/// client (an `Arc` inside), so handles, and the streams and futures they make, are
/// `'static` and `Send`.
#[derive(Debug, Clone)]
pub(crate) struct Handle {
    pub(crate) client: Client,
    pub(crate) options: CallOptions,
}

impl Handle {
    pub(crate) fn new(client: &Client) -> Self {
        Self {
            client: client.clone(),
            options: CallOptions::default(),
        }
    }

    /// The same handle with non-idempotent calls retried like idempotent ones.
    pub(crate) fn retrying_unsafe(mut self) -> Self {
        self.options.retry_unsafe = true;
        self
    }

    /// The client's ceiling of records for a paged list.
    pub(crate) fn max_list_records(&self) -> u64 {
        self.client.inner.max_list_records
    }

    pub(crate) fn infra(&self) -> &hostapi_raw_infra::Client {
        &self.client.inner.infra
    }

    pub(crate) fn cloud(&self) -> &hostapi_raw_cloud::Client {
        &self.client.inner.cloud
    }

    pub(crate) fn cdn(&self) -> &hostapi_raw_cdn::Client {
        &self.client.inner.cdn
    }

    /// Makes a v1 or cloud call: `build` gives a generated builder, set up, once per
    /// attempt (see [`Transport::call`](crate::transport::Transport::call)). The call's
    /// operation is the builder's ([`OperationBuilder::OPERATION`]), so the name it is
    /// logged, reported and checked under is always the request's.
    pub(crate) fn call<B: OperationBuilder>(
        &self,
        mut build: impl FnMut() -> B,
    ) -> impl Future<Output = Result<Answer, Error>> {
        let inner = &self.client.inner;
        let base = inner.base_url.as_deref();
        self.call_with(&inner.api_credentials, base, &B::OPERATION, move || {
            build().request()
        })
    }

    /// Makes a CDN call (signed; see [`Handle::call`]).
    pub(crate) fn call_cdn<B: OperationBuilder>(
        &self,
        mut build: impl FnMut() -> B,
    ) -> impl Future<Output = Result<Answer, Error>> {
        let inner = &self.client.inner;
        let base = inner.cdn_base_url.as_deref();
        self.call_with(&inner.cdn_credentials, base, &B::OPERATION, move || {
            build().request()
        })
    }

    /// Makes a v1 call whose request the generated builder makes only in part (a
    /// nested form, a PNG answer): `change` finishes each request `build`'s builder
    /// makes. The finished request is checked against the builder's operation like
    /// any other.
    pub(crate) fn call_changed<B: OperationBuilder>(
        &self,
        mut build: impl FnMut() -> B,
        change: impl Fn(&mut reqwest::Request),
    ) -> impl Future<Output = Result<Answer, Error>> {
        let inner = &self.client.inner;
        let base = inner.base_url.as_deref();
        self.call_with(&inner.api_credentials, base, &B::OPERATION, move || {
            let mut request = build().request()?;
            change(&mut request);
            Ok(request)
        })
    }

    /// Not an `async fn`, which would be one more layer around the transport's future
    /// (moved, whole, when it starts): the span wraps that future itself.
    ///
    /// Every request `build` makes is checked against `operation`'s method and path
    /// template under the interface's base URL (`base`; see [`route`]) before it is
    /// sent: a request that would go elsewhere fails the call with
    /// [`Error::InvalidInput`] naming the operation, and nothing is sent.
    fn call_with(
        &self,
        credentials: &Credentials,
        base: Option<&str>,
        operation: &'static Operation,
        mut build: impl FnMut() -> BuiltRequest,
    ) -> impl Future<Output = Result<Answer, Error>> {
        let inner = &self.client.inner;
        #[cfg(test)]
        crate::transport::hostile_ids_tests::note(operation);
        let base_path = base.map_or("", route::base_path);
        let build = move || -> BuiltRequest {
            let request = build()?;
            route::check(operation, base_path, &request)
                .map_err(|error| Box::new(RawError::Custom(refusal(error))))?;
            Ok(request)
        };
        // Each call runs in its own span, under the caller's (also when a bulk read runs
        // it as a task of its own).
        tracing::Instrument::instrument(
            inner
                .transport
                .call(operation.id, self.options, credentials, &inner.http, build),
            tracing::debug_span!("hostapi.call", operation = operation.id),
        )
    }
}

/// A refused request's error as the generated builders' error carries it (the
/// transport turns it back into [`Error::InvalidInput`]).
fn refusal(error: Error) -> String {
    match error {
        Error::InvalidInput { reason, .. } => format!("request{PREPARE_ERROR_SEPARATOR}{reason}"),
        other => format!("request{PREPARE_ERROR_SEPARATOR}{other}"),
    }
}

/// Adds `retry_unsafe()` to a resource handle with a `handle` field.
macro_rules! retry_unsafe_option {
    () => {
        /// The same handle, with calls that are not idempotent (POST: power, create,
        /// install, purge…) retried like reads when they fail in a way that may pass.
        /// By default they are retried only when the request provably never reached
        /// the server; opt in when repeating the call is harmless to you.
        pub fn retry_unsafe(mut self) -> Self {
            self.handle = self.handle.retrying_unsafe();
            self
        }
    };
}

pub(crate) use retry_unsafe_option;

#[cfg(test)]
mod tests {
    use crate::{Client, Error};

    /// A CDN request made through the v1/cloud call path (or the other way round) is
    /// refused before it is sent: the API key never goes to the CDN's host, and a v1
    /// request is never signed. (Port 9 would refuse a connection: an error other than
    /// invalid input would mean the request went out.)
    #[tokio::test]
    async fn a_request_never_carries_another_interfaces_credentials() {
        let client = Client::builder()
            .base_url("http://127.0.0.1:9")
            .api_key("the-api-key")
            .cdn_base_url("http://127.0.0.2:9")
            .cdn_secret("the-cdn-secret")
            .cdn_customer("C123456")
            .build()
            .expect("the client builds");
        let handle = super::Handle::new(&client);
        let cdn = handle.cdn();
        let through_api = handle
            .call(|| {
                cdn.get_purge_job()
                    .customer_number("C123456")
                    .zone_id("1001")
                    .job_id(5001)
                    .timestamp(1)
                    .signature(crate::signing::SIGNATURE_PLACEHOLDER)
            })
            .await;
        let infra = handle.infra();
        let through_cdn = handle.call_cdn(|| infra.get_virtual_server().id(1)).await;
        for (what, outcome) in [
            ("CDN via call", through_api),
            ("v1 via call_cdn", through_cdn),
        ] {
            match outcome {
                Err(Error::InvalidInput { argument, .. }) => {
                    assert_eq!(argument, "request", "{what}")
                }
                other => panic!("{what}: expected a refusal before sending, got {other:?}"),
            }
        }
    }

    /// Every request is checked against its builder's operation before it is sent: a
    /// request changed after the builder made it (another method, a path off the
    /// template) is refused, naming the operation, and nothing is sent. (Port 9 would
    /// refuse a connection: an error other than invalid input would mean the request
    /// went out.)
    #[tokio::test]
    async fn a_request_off_its_operations_template_is_not_sent() {
        let client = Client::builder()
            .base_url("http://127.0.0.1:9")
            .api_key("the-api-key")
            .build()
            .expect("the client builds");
        let handle = super::Handle::new(&client);
        let infra = handle.infra();
        let get = || infra.get_bare_metal().bare_metal_id("7");
        let other_path = handle
            .call_changed(get, |request| {
                request.url_mut().set_path("/v1/bareMetals/7/x")
            })
            .await;
        let other_method = handle
            .call_changed(get, |request| {
                *request.method_mut() = reqwest::Method::DELETE
            })
            .await;
        for (what, outcome) in [("path", other_path), ("method", other_method)] {
            match outcome {
                Err(Error::InvalidInput {
                    argument, reason, ..
                }) => {
                    assert_eq!(argument, "request", "{what}");
                    assert!(reason.starts_with("`getBareMetal` "), "{what}: {reason}");
                    assert!(reason.ends_with("nothing was sent"), "{what}: {reason}");
                }
                other => panic!("{what}: expected a refusal before sending, got {other:?}"),
            }
        }
    }
}
