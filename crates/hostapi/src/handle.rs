//! What every resource handle shares: the client, the options of its calls, and the
//! ways to run a generated call.

use progenitor_client::{Error as RawError, ResponseValue};
use serde::de::DeserializeOwned;

use crate::transport::{self, Answer, CallOptions};
use crate::{Client, Error};

/// The client and call options behind a resource handle.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Handle<'a> {
    pub(crate) client: &'a Client,
    pub(crate) options: CallOptions,
}

impl<'a> Handle<'a> {
    pub(crate) fn new(client: &'a Client) -> Self {
        Self {
            client,
            options: CallOptions::default(),
        }
    }

    /// The same handle with non-idempotent calls retried like idempotent ones.
    pub(crate) fn retrying_unsafe(mut self) -> Self {
        self.options.retry_unsafe = true;
        self
    }

    pub(crate) fn infra(&self) -> &'a hostapi_raw_infra::Client {
        &self.client.inner.infra
    }

    pub(crate) fn cloud(&self) -> &'a hostapi_raw_cloud::Client {
        &self.client.inner.cloud
    }

    pub(crate) fn cdn(&self) -> &'a hostapi_raw_cdn::Client {
        &self.client.inner.cdn
    }

    // Each of these boxes the generated call's future before anything awaits it: the
    // future of a facade call then holds a pointer instead of the generated future's
    // few kilobytes, which would otherwise be copied whole each time the call's future
    // moves (into a bulk helper's queue, into a spawned task…).

    /// Runs a generated call with a JSON answer.
    pub(crate) fn json<T: DeserializeOwned, E>(
        &self,
        operation: &'static str,
        call: impl Future<Output = Result<ResponseValue<T>, RawError<E>>>,
    ) -> impl Future<Output = Result<Answer<T>, Error>> {
        transport::json(operation, self.options, Box::pin(call))
    }

    /// Runs a generated call whose success body the facade decodes itself: the body.
    pub(crate) fn body<W: DeserializeOwned, E>(
        &self,
        operation: &'static str,
        call: impl Future<Output = Result<ResponseValue<W>, RawError<E>>>,
    ) -> impl Future<Output = Result<transport::Body, Error>> {
        transport::body(operation, self.options, Box::pin(call))
    }

    /// Runs a generated call whose answer is `list`, decoded and normalised record by
    /// record.
    pub(crate) fn records<W: DeserializeOwned, E, R: DeserializeOwned, T>(
        &self,
        operation: &'static str,
        call: impl Future<Output = Result<ResponseValue<W>, RawError<E>>>,
        list: &transport::RecordList<R, T>,
    ) -> impl Future<Output = Result<Vec<T>, Error>> {
        let body = self.body(operation, call);
        async move {
            let body = body.await?;
            body.decoded(list.decode(operation, &body.bytes))
        }
    }

    /// Runs a generated call whose answer has no body.
    pub(crate) fn empty<T, E>(
        &self,
        operation: &'static str,
        call: impl Future<Output = Result<ResponseValue<T>, RawError<E>>>,
    ) -> impl Future<Output = Result<(), Error>> {
        transport::empty(operation, self.options, Box::pin(call))
    }
}

/// Adds `retry_unsafe()` to a resource handle.
macro_rules! retry_unsafe_option {
    () => {
        /// The same handle, with calls that are not idempotent (POST: power, create,
        /// install, purge…) retried like reads when they fail in a way that may pass.
        /// By default they are retried only when the request provably never reached
        /// the server; opt in when repeating the call is harmless to you.
        pub fn retry_unsafe(self) -> Self {
            Self {
                handle: self.handle.retrying_unsafe(),
            }
        }
    };
}

pub(crate) use retry_unsafe_option;
