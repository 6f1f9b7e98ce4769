//! Many calls at once with at most N in flight: the [`bulk`] stream adaptor, and the
//! `get_many` reads of the handles built on it.
//!
//! Each input gets exactly one [`BulkItem`], carrying its position, the input itself
//! and the call's own `Result`: a failed call (a 404, a timeout after its retries, an
//! answer that does not decode) is that item's error and the others go on.
//!
//! ```no_run
//! # async fn run() -> Result<(), hostapi::Error> {
//! use futures::StreamExt;
//! use hostapi::bulk::BulkOptions;
//! use hostapi::types::BareMetalId;
//!
//! let client = hostapi::Client::from_env()?;
//! let ids: Vec<BareMetalId> = client.bare_metals().list().await?.into_iter().map(|s| s.id).collect();
//! let mut details = std::pin::pin!(client.bare_metals().get_many(ids, BulkOptions::new(8)));
//! while let Some(item) = details.next().await {
//!     match item.result {
//!         Ok(server) => println!("{} {:?}", item.input, server.name),
//!         Err(error) => eprintln!("{}: {error}", item.input),
//!     }
//! }
//! # Ok(())
//! # }
//! ```

use futures::{Stream, StreamExt};

use crate::{
    BareMetalId, BareMetalServer, BareMetals, CloudServer, CloudServerId, CloudServers, Error,
    PrivateRack, PrivateRackId, PrivateRacks, VirtualServer, VirtualServerId, VirtualServers,
};

/// How a bulk operation runs its calls: how many at once, and in which order the
/// results come.
///
/// The default is [`DEFAULT_CONCURRENCY`](Self::DEFAULT_CONCURRENCY) calls at once,
/// results in the order the inputs were given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BulkOptions {
    concurrency: usize,
    ordered: bool,
}

impl Default for BulkOptions {
    fn default() -> Self {
        Self::new(Self::DEFAULT_CONCURRENCY)
    }
}

impl BulkOptions {
    /// The number of calls in flight unless you choose one.
    pub const DEFAULT_CONCURRENCY: usize = 8;
    /// The most calls in flight accepted. Each call in flight holds a connection; the
    /// service answers a flood with `429 Too Many Requests` (which is retried, so
    /// more would only queue there).
    pub const MAX_CONCURRENCY: usize = 64;

    /// At most `concurrency` calls in flight, results in input order. `concurrency`
    /// must be within `1..=`[`MAX_CONCURRENCY`](Self::MAX_CONCURRENCY); it is checked
    /// when the operation starts, and out of range every item fails with
    /// [`Error::InvalidInput`] naming `concurrency`, and nothing is sent.
    pub fn new(concurrency: usize) -> Self {
        Self {
            concurrency,
            ordered: true,
        }
    }

    /// Results in the order the inputs were given (the default). A slow call holds
    /// back the results after it, and keeps its slot until it is handed out, so one
    /// slow call lowers the throughput of the others.
    pub fn in_input_order(mut self) -> Self {
        self.ordered = true;
        self
    }

    /// Results as the calls finish, whatever the input order: the most throughput.
    /// Each item's [`index`](BulkItem::index) tells its place in the input.
    pub fn as_completed(mut self) -> Self {
        self.ordered = false;
        self
    }

    /// The number of calls in flight at most.
    pub fn concurrency(&self) -> usize {
        self.concurrency
    }

    /// Whether results come in input order.
    pub fn is_ordered(&self) -> bool {
        self.ordered
    }

    /// Why the options cannot run, when they cannot.
    fn refusal(&self) -> Option<String> {
        (!(1..=Self::MAX_CONCURRENCY).contains(&self.concurrency)).then(|| {
            format!(
                "{} is not within 1..={}",
                self.concurrency,
                Self::MAX_CONCURRENCY
            )
        })
    }
}

/// The outcome of one input of a bulk operation.
#[derive(Debug)]
#[non_exhaustive]
pub struct BulkItem<I, T> {
    /// The input's position in the order given, from 0.
    pub index: usize,
    /// The input (for `get_many`, the id asked for).
    pub input: I,
    /// The call's result for this input.
    pub result: Result<T, Error>,
}

/// Runs `call` on every input, with at most `options.concurrency()` calls in flight,
/// and streams one [`BulkItem`] per input (in input order unless
/// [`BulkOptions::as_completed`]).
///
/// Inputs are taken from `inputs` only as slots free up, so an endless or paged input
/// stream is fine; a call is started only when it has a slot. Calls run inside the
/// task that polls the returned stream (nothing is spawned): poll it to make progress.
///
/// ```no_run
/// # async fn run() -> Result<(), hostapi::Error> {
/// use futures::StreamExt;
/// use hostapi::bulk::{BulkOptions, bulk};
///
/// let client = hostapi::Client::from_env()?;
/// let names: Vec<hostapi::types::DomainName> = vec!["acme-1.com".parse()?, "acme-2.net".parse()?];
/// let results: Vec<_> = bulk(futures::stream::iter(names), BulkOptions::new(4), |name| {
///     let domains = client.domains();
///     async move { domains.get(&name).await }
/// })
/// .collect()
/// .await;
/// # let _ = results;
/// # Ok(())
/// # }
/// ```
pub fn bulk<'a, S, I, T, F, Fut>(
    inputs: S,
    options: BulkOptions,
    mut call: F,
) -> impl Stream<Item = BulkItem<I, T>> + 'a
where
    S: Stream<Item = I> + 'a,
    I: Clone + 'a,
    T: 'a,
    F: FnMut(I) -> Fut + 'a,
    Fut: Future<Output = Result<T, Error>> + 'a,
{
    if let Some(reason) = options.refusal() {
        // Every input is answered, each with the refusal; nothing is sent.
        let refused = inputs.enumerate().map(move |(index, input)| BulkItem {
            index,
            input,
            result: Err(Error::invalid("concurrency", &reason)),
        });
        return refused.left_stream();
    }
    let calls = inputs.enumerate().map(move |(index, input)| {
        let pending = call(input.clone());
        async move {
            BulkItem {
                index,
                input,
                result: pending.await,
            }
        }
    });
    let results = if options.ordered {
        calls.buffered(options.concurrency).left_stream()
    } else {
        calls.buffer_unordered(options.concurrency).right_stream()
    };
    results.right_stream()
}

/// The runtime to spawn `get_many`'s reads on: the current one, when it is tokio's
/// multi-thread runtime (on a current-thread runtime a task would only add hand-offs).
fn multi_thread_runtime() -> Option<tokio::runtime::Handle> {
    tokio::runtime::Handle::try_current()
        .ok()
        .filter(|runtime| runtime.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread)
}

/// A read running as its own task, aborted when dropped unfinished (as the future of a
/// read that was not spawned would simply be dropped). A panic in the task is resumed
/// in the task that polls this.
struct Spawned<T>(tokio::task::JoinHandle<Result<T, Error>>);

impl<T> Future for Spawned<T> {
    type Output = Result<T, Error>;

    fn poll(
        mut self: std::pin::Pin<&mut Self>,
        context: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Self::Output> {
        std::pin::Pin::new(&mut self.0)
            .poll(context)
            .map(|joined| match joined {
                Ok(result) => result,
                Err(error) => match error.try_into_panic() {
                    Ok(panic) => std::panic::resume_unwind(panic),
                    // Only a runtime shutting down cancels these tasks (dropping this
                    // aborts its own, but then nothing polls it).
                    Err(_) => Err(Error::Transport(Box::new(crate::error::TransportError {
                        call: crate::error::CallInfo {
                            operation: "get_many",
                            method: "",
                            path: String::new(),
                            attempts: 0,
                            elapsed: std::time::Duration::ZERO,
                        },
                        cause: crate::error::TransportCause::Other,
                        source: Some("the read was cancelled: its runtime is shutting down".into()),
                    }))),
                },
            })
    }
}

impl<T> Drop for Spawned<T> {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// `get_many` for a handle whose `get` reads one record by id.
macro_rules! get_many {
    ($handle:ident, $id:ty, $record:ty, $what:literal) => {
        impl $handle {
            #[doc = concat!("Reads many ", $what, " (what [`get`](Self::get) reads), with at most")]
            /// `options.concurrency()` requests in flight; one [`BulkItem`] per id, a
            /// failure being that id's error.
            ///
            /// On tokio's multi-thread runtime each read runs as its own task, so that
            /// decoding and normalising the answers spread over the runtime's workers;
            /// dropping the stream aborts the reads in flight. On a current-thread
            /// runtime the reads run inside the task that polls the stream, as with
            /// [`bulk`].
            pub fn get_many<I>(
                &self,
                ids: I,
                options: BulkOptions,
            ) -> impl Stream<Item = BulkItem<$id, $record>> + Send + 'static
            where
                I: IntoIterator<Item = $id>,
                I::IntoIter: Send + 'static,
            {
                let this = self.clone();
                bulk(futures::stream::iter(ids), options, move |id| {
                    let this = this.clone();
                    let read = async move { this.get(&id).await };
                    match multi_thread_runtime() {
                        Some(runtime) => {
                            // The read's span stays under the caller's, as unspawned.
                            let read =
                                tracing::Instrument::instrument(read, tracing::Span::current());
                            futures::future::Either::Left(Spawned(runtime.spawn(read)))
                        }
                        None => futures::future::Either::Right(read),
                    }
                })
            }
        }
    };
}

get_many!(
    BareMetals,
    BareMetalId,
    BareMetalServer,
    "bare metal servers in detail"
);
get_many!(
    CloudServers,
    CloudServerId,
    CloudServer,
    "cloud virtual servers"
);
get_many!(
    VirtualServers,
    VirtualServerId,
    VirtualServer,
    "v1 virtual servers"
);
get_many!(
    PrivateRacks,
    PrivateRackId,
    PrivateRack,
    "private racks in detail"
);

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    use super::*;

    /// A call that takes longer for small inputs (so completion order is the reverse
    /// of input order), fails on multiples of 5, and records how many run at once.
    fn slow_call(
        in_flight: Arc<AtomicUsize>,
        peak: Arc<AtomicUsize>,
    ) -> impl FnMut(u64) -> futures::future::BoxFuture<'static, Result<u64, Error>> {
        move |input| {
            let in_flight = in_flight.clone();
            let peak = peak.clone();
            Box::pin(async move {
                let now = in_flight.fetch_add(1, Ordering::SeqCst) + 1;
                peak.fetch_max(now, Ordering::SeqCst);
                tokio::time::sleep(Duration::from_millis(50 - input)).await;
                in_flight.fetch_sub(1, Ordering::SeqCst);
                if input % 5 == 0 {
                    Err(Error::invalid(
                        "input",
                        format!("{input} is a multiple of 5"),
                    ))
                } else {
                    Ok(input * 10)
                }
            })
        }
    }

    #[tokio::test(start_paused = true)]
    async fn at_most_n_in_flight_in_input_order_with_per_item_errors() {
        let in_flight = Arc::new(AtomicUsize::new(0));
        let peak = Arc::new(AtomicUsize::new(0));
        let items: Vec<BulkItem<u64, u64>> = bulk(
            futures::stream::iter(1..=20),
            BulkOptions::new(3),
            slow_call(in_flight.clone(), peak.clone()),
        )
        .collect()
        .await;
        assert_eq!(peak.load(Ordering::SeqCst), 3, "never more than 3 at once");
        let inputs: Vec<u64> = items.iter().map(|i| i.input).collect();
        assert_eq!(inputs, (1..=20).collect::<Vec<_>>());
        for (position, item) in items.iter().enumerate() {
            assert_eq!(item.index, position);
            match &item.result {
                Ok(value) => assert_eq!(*value, item.input * 10),
                Err(Error::InvalidInput { argument, .. }) => {
                    assert_eq!(argument, "input");
                    assert_eq!(item.input % 5, 0);
                }
                Err(other) => panic!("{other}"),
            }
        }
        assert_eq!(items.iter().filter(|i| i.result.is_err()).count(), 4);
    }

    #[tokio::test(start_paused = true)]
    async fn as_completed_yields_in_finishing_order_with_the_input_index() {
        let in_flight = Arc::new(AtomicUsize::new(0));
        let peak = Arc::new(AtomicUsize::new(0));
        let items: Vec<BulkItem<u64, u64>> = bulk(
            futures::stream::iter(1..=4),
            BulkOptions::new(4).as_completed(),
            slow_call(in_flight, peak.clone()),
        )
        .collect()
        .await;
        // Input 4 sleeps least, so it finishes first.
        let order: Vec<(usize, u64)> = items.iter().map(|i| (i.index, i.input)).collect();
        assert_eq!(order, [(3, 4), (2, 3), (1, 2), (0, 1)]);
        assert_eq!(peak.load(Ordering::SeqCst), 4);
    }

    #[tokio::test]
    async fn out_of_range_concurrency_fails_every_item_and_calls_nothing() {
        for concurrency in [0, BulkOptions::MAX_CONCURRENCY + 1] {
            let calls = Arc::new(AtomicUsize::new(0));
            let counted = calls.clone();
            let items: Vec<BulkItem<u64, u64>> = bulk(
                futures::stream::iter([7, 8]),
                BulkOptions::new(concurrency),
                move |input| {
                    counted.fetch_add(1, Ordering::SeqCst);
                    futures::future::ready(Ok(input))
                },
            )
            .collect()
            .await;
            assert_eq!(calls.load(Ordering::SeqCst), 0);
            assert_eq!(items.len(), 2);
            for item in &items {
                match &item.result {
                    Err(Error::InvalidInput { argument, reason }) => {
                        assert_eq!(argument, "concurrency");
                        assert!(reason.contains(&concurrency.to_string()), "{reason}");
                    }
                    other => panic!("{other:?}"),
                }
            }
        }
    }

    #[tokio::test]
    async fn inputs_are_pulled_only_as_slots_free_up() {
        let pulled = Arc::new(AtomicUsize::new(0));
        let counted = pulled.clone();
        let inputs = futures::stream::iter(0..1000u64).inspect(move |_| {
            counted.fetch_add(1, Ordering::SeqCst);
        });
        let mut results = std::pin::pin!(bulk(inputs, BulkOptions::new(2), |input| {
            futures::future::ready(Ok::<_, Error>(input))
        }));
        let first = results.next().await.expect("an item");
        assert_eq!((first.index, first.result.unwrap()), (0, 0));
        assert!(
            pulled.load(Ordering::SeqCst) <= 3,
            "pulled {} inputs for one result",
            pulled.load(Ordering::SeqCst)
        );
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn reads_are_spawned_on_a_multi_thread_runtime_only() {
        assert!(multi_thread_runtime().is_some());
        let on_one_thread = tokio::task::spawn_blocking(|| {
            tokio::runtime::Builder::new_current_thread()
                .build()
                .expect("runtime")
                .block_on(async { multi_thread_runtime().is_none() })
        });
        assert!(on_one_thread.await.expect("the check runs"));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn dropping_a_spawned_read_aborts_its_task() {
        let (alive, ended) = tokio::sync::oneshot::channel::<()>();
        let read = Spawned::<u8>(tokio::spawn(async move {
            let _alive = alive;
            std::future::pending::<()>().await;
            Ok(0)
        }));
        drop(read);
        // The task's sender goes when the task is aborted.
        let outcome = tokio::time::timeout(Duration::from_secs(10), ended)
            .await
            .expect("the task ends");
        assert!(outcome.is_err(), "the task was aborted, not finished");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_panic_in_a_spawned_read_reaches_the_task_polling_it() {
        use futures::FutureExt;
        let read = Spawned::<u8>(tokio::spawn(async { panic!("the read panicked") }));
        let caught = std::panic::AssertUnwindSafe(read).catch_unwind().await;
        let panic = caught.expect_err("the panic is resumed");
        assert_eq!(
            panic.downcast_ref::<&str>(),
            Some(&"the read panicked"),
            "the task's own panic"
        );
    }

    #[test]
    fn a_read_cancelled_by_its_runtime_shutting_down_is_an_error() {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .build()
            .expect("runtime");
        let read = Spawned::<u8>(runtime.spawn(std::future::pending()));
        runtime.shutdown_timeout(Duration::from_secs(10));
        match futures::executor::block_on(read) {
            Err(Error::Transport(error)) => {
                use std::error::Error as _;
                assert_eq!(error.call.operation, "get_many");
                let source = Error::Transport(error).source().map(ToString::to_string);
                assert!(
                    source
                        .as_deref()
                        .is_some_and(|s| s.contains("shutting down")),
                    "{source:?}"
                );
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn options_default_and_accessors() {
        let options = BulkOptions::default();
        assert_eq!(options.concurrency(), BulkOptions::DEFAULT_CONCURRENCY);
        assert!(options.is_ordered());
        assert!(!options.as_completed().is_ordered());
        assert!(options.as_completed().in_input_order().is_ordered());
    }

    /// Against the simulator: every id answered once, an unknown id failing alone,
    /// one request per id.
    mod against_the_simulator {
        use hostapi_sim::{Sim, SimConfig};

        use super::*;
        use crate::{Client, RetryPolicy};

        async fn start() -> (Sim, Client) {
            let sim = Sim::start(SimConfig::default().with_seed(3))
                .await
                .expect("simulator starts");
            let client = Client::builder()
                .base_url(sim.base_url())
                .api_key(sim.api_key())
                .timeout(Duration::from_secs(10))
                .retry_policy(RetryPolicy::never())
                .build()
                .expect("client builds");
            (sim, client)
        }

        fn bare_metal_ids(range: std::ops::Range<u32>) -> Vec<BareMetalId> {
            range.map(BareMetalId::from).collect()
        }

        #[tokio::test]
        async fn get_many_answers_every_id_in_order_and_an_unknown_one_fails_alone() {
            every_id_in_order_and_an_unknown_one_failing_alone().await;
        }

        /// The same with each read spawned as a task.
        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn get_many_on_a_multi_thread_runtime_does_the_same() {
            every_id_in_order_and_an_unknown_one_failing_alone().await;
        }

        async fn every_id_in_order_and_an_unknown_one_failing_alone() {
            let (sim, client) = start().await;
            let mut ids = bare_metal_ids(20001..20013);
            ids.insert(5, BareMetalId::from(99_999u32));
            let items: Vec<BulkItem<BareMetalId, _>> = tokio::time::timeout(
                Duration::from_secs(30),
                client
                    .bare_metals()
                    .get_many(ids.clone(), BulkOptions::new(4))
                    .collect(),
            )
            .await
            .expect("bulk read finishes");

            assert_eq!(items.len(), ids.len());
            for (position, (item, asked)) in items.iter().zip(&ids).enumerate() {
                assert_eq!(item.index, position);
                assert_eq!(&item.input, asked);
                match &item.result {
                    Ok(server) => assert_eq!(&server.id, asked),
                    Err(error) => {
                        assert_eq!(
                            asked.as_str(),
                            "99999",
                            "only the unknown id fails: {error}"
                        );
                        assert!(error.is_not_found(), "{error}");
                    }
                }
            }
            assert_eq!(items.iter().filter(|i| i.result.is_err()).count(), 1);
            let stats = sim.stats();
            assert_eq!(
                stats.operations.get("GET /v1/bareMetals/{bareMetalId}"),
                Some(&(ids.len() as u64)),
                "{stats:?}"
            );
            sim.shutdown().await;
        }

        #[tokio::test]
        async fn get_many_as_completed_covers_every_index_once() {
            let (sim, client) = start().await;
            let ids: Vec<CloudServerId> = client
                .cloud_servers()
                .list()
                .page_size(10)
                .stream()
                .take(10)
                .map(|server| server.expect("server reads").id)
                .collect()
                .await;
            assert_eq!(ids.len(), 10);
            let items: Vec<_> = tokio::time::timeout(
                Duration::from_secs(30),
                client
                    .cloud_servers()
                    .get_many(ids.clone(), BulkOptions::new(3).as_completed())
                    .collect::<Vec<_>>(),
            )
            .await
            .expect("bulk read finishes");
            let mut seen: Vec<usize> = items.iter().map(|i| i.index).collect();
            seen.sort_unstable();
            assert_eq!(seen, (0..ids.len()).collect::<Vec<_>>());
            for item in &items {
                let server = item.result.as_ref().expect("every server reads");
                assert_eq!(server.id, ids[item.index]);
                assert_eq!(item.input, ids[item.index]);
            }
            sim.shutdown().await;
        }

        #[tokio::test]
        async fn out_of_range_concurrency_sends_nothing() {
            let (sim, client) = start().await;
            let stream = client
                .bare_metals()
                .get_many(bare_metal_ids(20001..20004), BulkOptions::new(0));
            fn spawnable<T: Send>(_: &T) {}
            spawnable(&stream);
            let items: Vec<_> = stream.collect().await;
            assert_eq!(items.len(), 3);
            for item in &items {
                match &item.result {
                    Err(Error::InvalidInput { argument, .. }) => {
                        assert_eq!(argument, "concurrency")
                    }
                    other => panic!("{other:?}"),
                }
            }
            assert_eq!(sim.stats().requests, 0);
            sim.shutdown().await;
        }
    }
}
