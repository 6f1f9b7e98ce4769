//! Lists: one shape for every list of every resource group.
//!
//! A group's `list()` returns a [`List`] builder. Await it (or call
//! [`collect`](List::collect)) for a [`Listing`] of every record, call
//! [`stream`](List::stream) for a `'static` [`Stream`] of records that fetches pages as
//! it goes, or [`pages`](List::pages) for a stream of pages, each a [`Listing`] with the
//! list's [`total_count`](Listing::total_count).
//!
//! Every list whose answer carries `_metadata {totalCount, limit, offset}` is read to
//! its end by the crate's pager (see [`List::page_size`]): cloud servers and
//! credentials, whose documents name `limit`/`offset`, and private networks, private
//! clouds and DHCP leases, whose documents name no paging parameters (their first
//! request sends none, and the rest is asked for with `limit`/`offset` only when
//! `totalCount` says there is more). The other lists come in one answer.
//!
//! [`List::limit`] stops a list once it holds that many records: a paged list asks for
//! no more pages than it needs. Whatever the limit, a paged list stops with
//! [`Error::Paging`] rather than read more records than its ceiling
//! ([`List::max_records`], by default the client's
//! [`max_list_records`](crate::ClientBuilder::max_list_records), one million), and
//! stops at the first page when `totalCount` announces more than that.

use std::future::IntoFuture;
use std::pin::Pin;

use futures::future::BoxFuture;
use futures::stream::{BoxStream, Stream, StreamExt};
use serde::Serialize;

use crate::{Error, Extra};

/// The records of a list answer: those that could be read, and the errors of those
/// that could not (a record whose id is unreadable, or, on a
/// [strict](crate::ClientBuilder::strict) client, any record with a field it could not
/// read), each at its index.
///
/// It dereferences to the slice of readable records and iterates over them, so the
/// common case reads like a `Vec`. Unreadable records are also logged as warnings; use
/// [`Listing::unreadable`], [`Listing::is_complete`] or [`Listing::into_result`] to act
/// on them (`into_result` fails on the first).
///
/// ```no_run
/// # async fn run(client: hostapi::Client) -> Result<(), hostapi::Error> {
/// let servers = client.bare_metals().list().await?;
/// for server in &servers {
///     println!("{} {:?}", server.id, server.name);
/// }
/// for skipped in servers.unreadable() {
///     eprintln!("record {} could not be read: {}", skipped.index, skipped.error);
/// }
/// # Ok(())
/// # }
/// ```
#[derive(Debug)]
pub struct Listing<T> {
    items: Vec<T>,
    unreadable: Vec<Unreadable>,
    extra: Extra,
    total_count: Option<u64>,
    offset: u64,
}

/// A record of a list that could not be read.
#[derive(Debug)]
#[non_exhaustive]
pub struct Unreadable {
    /// Its position in the list (counting every record, readable or not).
    pub index: usize,
    /// Why it could not be read.
    pub error: Error,
}

impl<T> Default for Listing<T> {
    fn default() -> Self {
        Self {
            items: Vec::new(),
            unreadable: Vec::new(),
            extra: Extra::new(),
            total_count: None,
            offset: 0,
        }
    }
}

impl<T> Listing<T> {
    pub(crate) fn with_capacity(capacity: usize) -> Self {
        Self {
            items: Vec::with_capacity(capacity),
            ..Self::default()
        }
    }

    pub(crate) fn take_extra(&mut self) -> Extra {
        std::mem::take(&mut self.extra)
    }

    pub(crate) fn extend_extra(&mut self, extra: Extra) {
        self.extra.extend(extra);
    }

    pub(crate) fn push(&mut self, item: T) {
        self.items.push(item);
    }

    pub(crate) fn push_unreadable(&mut self, index: usize, error: Error) {
        self.unreadable.push(Unreadable { index, error });
    }

    /// The records that could be read.
    pub fn items(&self) -> &[T] {
        &self.items
    }

    /// The records that could be read, owned.
    pub fn into_items(self) -> Vec<T> {
        self.items
    }

    /// The records that could not be read, in list order.
    pub fn unreadable(&self) -> &[Unreadable] {
        &self.unreadable
    }

    /// Members of the answer beside its list of records that the model does not name
    /// (of a paged list, those of every page, a later page's replacing an earlier's).
    pub fn extra(&self) -> &Extra {
        &self.extra
    }

    /// How many records the whole list holds, as the service counts them: the
    /// `totalCount` of a paged list (that of the last page that carried one, so a
    /// collection that changed while it was read is counted as last seen), or, for a
    /// list that comes in one answer, how many records the answer held. `None` when a
    /// paged list's answers carried no count.
    ///
    /// Above [`received`](Self::received) when the list was cut by
    /// [`List::limit`]:
    ///
    /// ```no_run
    /// # async fn run(client: hostapi::Client) -> Result<(), hostapi::Error> {
    /// let first = client.cloud_servers().list().limit(10).await?;
    /// if let Some(total) = first.total_count() {
    ///     println!("showing {} of {total}", first.len());
    /// }
    /// # Ok(())
    /// # }
    /// ```
    pub fn total_count(&self) -> Option<u64> {
        self.total_count
    }

    /// The position in the list of this listing's first record: 0 for a whole list,
    /// the page's `offset` for a page of [`List::pages`].
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// How many records the answers held, readable or not.
    pub fn received(&self) -> usize {
        self.items.len() + self.unreadable.len()
    }

    /// Whether every record could be read.
    pub fn is_complete(&self) -> bool {
        self.unreadable.is_empty()
    }

    /// The records, or the error of the first that could not be read.
    pub fn into_result(self) -> Result<Vec<T>, Error> {
        match self.unreadable.into_iter().next() {
            Some(first) => Err(first.error),
            None => Ok(self.items),
        }
    }

    /// The readable records and the unreadable ones, apart.
    pub fn into_parts(self) -> (Vec<T>, Vec<Unreadable>) {
        (self.items, self.unreadable)
    }

    /// Every record in list order, an unreadable one as its error.
    pub(crate) fn into_results(self) -> Vec<Result<T, Error>> {
        let total = self.received();
        let mut unreadable = self.unreadable.into_iter().peekable();
        let mut items = self.items.into_iter();
        let mut out = Vec::with_capacity(total);
        for index in 0..total {
            match unreadable.next_if(|u| u.index == index) {
                Some(u) => out.push(Err(u.error)),
                None => match items.next() {
                    Some(item) => out.push(Ok(item)),
                    None => break,
                },
            }
        }
        out.extend(unreadable.map(|u| Err(u.error)));
        out.extend(items.map(Ok));
        out
    }
}

impl<T> std::ops::Deref for Listing<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        &self.items
    }
}

impl<T> IntoIterator for Listing<T> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;

    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter()
    }
}

impl<'l, T> IntoIterator for &'l Listing<T> {
    type Item = &'l T;
    type IntoIter = std::slice::Iter<'l, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.items.iter()
    }
}

/// Serialises as the array of readable records.
impl<T: Serialize> Serialize for Listing<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.items.serialize(serializer)
    }
}

/// One page of a list (or the one answer of a list that is not paged), before the
/// public shape.
pub(crate) struct Batch<T> {
    /// Its records in list order, an unreadable one as its error.
    pub(crate) records: Vec<Result<T, Error>>,
    /// The list's `totalCount` as this answer gave it.
    pub(crate) total_count: Option<u64>,
    /// The position of its first record in the list.
    pub(crate) offset: u64,
    /// Members of the answer beside its records.
    pub(crate) extra: Extra,
}

/// One element of a list's stream, before the public shape.
pub(crate) enum Item<T> {
    Page(Batch<T>),
    /// The list could not be fetched (further): the stream ends after it.
    Failed(Error),
}

/// What a list is asked for: the settings of its [`List`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ask {
    pub(crate) page_size: u32,
    pub(crate) limit: Option<usize>,
    pub(crate) max_records: u64,
}

type Start<T> = Box<dyn FnOnce(Ask) -> BoxStream<'static, Item<T>> + Send>;

/// A list request: await it for a [`Listing`], or [`stream`](List::stream) it.
///
/// ```no_run
/// # async fn run(client: hostapi::Client) -> Result<(), hostapi::Error> {
/// use futures::TryStreamExt;
/// // Every record at once:
/// let all = client.cloud_servers().list().await?;
/// // Or one record at a time, as a stream that can be stored or spawned:
/// let mut servers = client.cloud_servers().list().page_size(50).stream();
/// while let Some(server) = servers.try_next().await? {
///     println!("{} {:?}", server.id, server.state);
/// }
/// // Or the first ten only (one request), and how many there are:
/// let first = client.cloud_servers().list().limit(10).await?;
/// println!("{} of {:?}", first.len(), first.total_count());
/// # let _ = all;
/// # Ok(())
/// # }
/// ```
pub struct List<T> {
    start: Start<T>,
    ask: Ask,
}

impl<T> std::fmt::Debug for List<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("List")
            .field("page_size", &self.ask.page_size)
            .field("limit", &self.ask.limit)
            .field("max_records", &self.ask.max_records)
            .finish_non_exhaustive()
    }
}

impl<T: Send + 'static> List<T> {
    /// The page size asked for by default: 100 records a request.
    pub const DEFAULT_PAGE_SIZE: u32 = 100;

    fn new(start: Start<T>, max_records: u64) -> Self {
        Self {
            start,
            ask: Ask {
                page_size: Self::DEFAULT_PAGE_SIZE,
                limit: None,
                max_records,
            },
        }
    }

    /// A list fetched in one answer. Its total is the number of records the answer
    /// held; [`List::limit`] keeps the first ones.
    pub(crate) fn once(
        fetch: impl Future<Output = Result<crate::Listing<T>, Error>> + Send + 'static,
    ) -> Self {
        let start: Start<T> = Box::new(move |ask: Ask| {
            if ask.limit == Some(0) {
                return futures::stream::empty().boxed();
            }
            futures::stream::once(fetch)
                .map(move |result| match result {
                    Ok(mut listing) => {
                        let extra = listing.take_extra();
                        let total = listing.total_count.unwrap_or(listing.received() as u64);
                        let mut records = listing.into_results();
                        if let Some(limit) = ask.limit {
                            records.truncate(limit);
                        }
                        Item::Page(Batch {
                            records,
                            total_count: Some(total),
                            offset: 0,
                            extra,
                        })
                    }
                    Err(error) => Item::Failed(error),
                })
                .boxed()
        });
        Self::new(start, crate::ClientBuilder::DEFAULT_MAX_LIST_RECORDS)
    }

    /// A list the service pages: `fetch(offset, limit)` fetches one page. Its ceiling
    /// is the client's.
    pub(crate) fn paged<F>(
        handle: &crate::handle::Handle,
        fetch: F,
        id_of: fn(&T) -> String,
    ) -> Self
    where
        F: FnMut(u64, u32) -> BoxFuture<'static, Result<crate::paging::Page<T>, Error>>
            + Send
            + 'static,
    {
        let start: Start<T> =
            Box::new(move |ask| crate::paging::paginate(ask, fetch, id_of).boxed());
        Self::new(start, handle.max_list_records())
    }

    /// How many records to ask for in each request, for lists the service pages
    /// (at least 1; cloud servers and credentials send it on every request, private
    /// networks, private clouds and leases from their second request on). Lists that
    /// come in one answer ignore it.
    pub fn page_size(mut self, page_size: u32) -> Self {
        self.ask.page_size = page_size.max(1);
        self
    }

    /// Stops once `limit` records (readable or not) are in hand: a paged list asks for
    /// no more than it needs (at most `limit` records a request, so `limit(5)` makes
    /// one request when a page holds five, and no request at all for `limit(0)`); a
    /// list that comes in one answer keeps its first `limit` records. The
    /// [`Listing::total_count`] still counts the whole list.
    pub fn limit(mut self, limit: usize) -> Self {
        self.ask.limit = Some(limit);
        self
    }

    /// The most records this list may hold (at least 1) before a paged list stops with
    /// [`Error::Paging`]; by default the client's
    /// [`max_list_records`](crate::ClientBuilder::max_list_records). A paged list also
    /// stops at its first page when that page's `totalCount` is above it. A
    /// [`limit`](Self::limit) at or below the ceiling bounds the list by itself, and no
    /// ceiling error can happen then. Lists that come in one answer are bounded by
    /// the size of that answer instead
    /// ([`max_answer_bytes`](crate::ClientBuilder::max_answer_bytes)).
    pub fn max_records(mut self, max_records: u64) -> Self {
        self.ask.max_records = max_records.max(1);
        self
    }

    /// The records as a stream: an unreadable record is an `Err` in its place and the
    /// stream goes on; a request that fails ends the stream after its `Err`.
    pub fn stream(self) -> impl Stream<Item = Result<T, Error>> + Send + 'static {
        (self.start)(self.ask).flat_map(|item| {
            futures::stream::iter(match item {
                Item::Page(batch) => batch.records,
                Item::Failed(error) => vec![Err(error)],
            })
        })
    }

    /// The list a page at a time (a list that comes in one answer is one page): each
    /// page is a [`Listing`] of its records, with the list's
    /// [`total_count`](Listing::total_count) as that page gave it and its
    /// [`offset`](Listing::offset); the index of an [`Unreadable`] counts from the start
    /// of the list. A request that fails ends the stream after its `Err`. The next
    /// page is fetched when the stream is next polled, not before.
    ///
    /// ```no_run
    /// # async fn run(client: hostapi::Client) -> Result<(), hostapi::Error> {
    /// use futures::TryStreamExt;
    /// let mut pages = client.cloud_servers().list().page_size(25).pages();
    /// while let Some(page) = pages.try_next().await? {
    ///     let total = page.total_count().unwrap_or_default();
    ///     println!("{}..{} of {total}", page.offset(), page.offset() + page.received() as u64);
    /// }
    /// # Ok(())
    /// # }
    /// ```
    pub fn pages(self) -> impl Stream<Item = Result<Listing<T>, Error>> + Send + 'static {
        (self.start)(self.ask).map(|item| match item {
            Item::Page(batch) => {
                let mut page = Listing {
                    offset: batch.offset,
                    ..Listing::default()
                };
                page.append(batch);
                Ok(page)
            }
            Item::Failed(error) => Err(error),
        })
    }

    /// Every record (up to the [`limit`](Self::limit)): a [`Listing`] of the readable
    /// ones and the errors of the others. A request that fails fails the whole list.
    pub async fn collect(self) -> Result<Listing<T>, Error> {
        let mut stream = (self.start)(self.ask);
        let mut listing = Listing::default();
        while let Some(item) = stream.next().await {
            match item {
                Item::Page(batch) => listing.append(batch),
                Item::Failed(error) => return Err(error),
            }
        }
        Ok(listing)
    }
}

impl<T> Listing<T> {
    /// Adds a page's records (each unreadable one at its index in the whole list), its
    /// `extra` and its count.
    fn append(&mut self, batch: Batch<T>) {
        let first = self.offset as usize + self.received();
        for (k, record) in batch.records.into_iter().enumerate() {
            match record {
                Ok(item) => self.push(item),
                Err(error) => self.push_unreadable(first + k, error),
            }
        }
        self.extra.extend(batch.extra);
        self.total_count = batch.total_count.or(self.total_count);
    }
}

impl<T: Send + 'static> IntoFuture for List<T> {
    type Output = Result<Listing<T>, Error>;
    type IntoFuture = Pin<Box<dyn Future<Output = Self::Output> + Send>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listing() -> Listing<u32> {
        let mut listing = Listing::default();
        listing.push(10);
        listing.push_unreadable(1, Error::invalid("x", "bad"));
        listing.push(12);
        listing
    }

    #[tokio::test]
    async fn an_unreadable_record_is_an_error_in_its_place() {
        let results: Vec<Result<u32, Error>> =
            List::once(async { Ok(listing()) }).stream().collect().await;
        assert_eq!(results.len(), 3);
        assert_eq!(*results[0].as_ref().unwrap(), 10);
        assert!(results[1].is_err());
        assert_eq!(*results[2].as_ref().unwrap(), 12);
        let collected = List::once(async { Ok(listing()) }).await.unwrap();
        assert_eq!(collected.items(), [10, 12]);
        assert_eq!(collected.unreadable()[0].index, 1);
        assert!(collected.into_result().is_err());
    }

    #[tokio::test]
    async fn a_failed_request_fails_the_list() {
        let list: List<u32> = List::once(async { Err(Error::invalid("x", "down")) });
        assert!(list.await.is_err());
    }

    #[tokio::test]
    async fn a_limit_keeps_the_first_records_of_one_answer_and_its_total() {
        let first = List::once(async { Ok(listing()) }).limit(2).await.unwrap();
        assert_eq!(first.items(), [10]);
        assert_eq!(first.unreadable()[0].index, 1);
        assert_eq!(first.total_count(), Some(3));
        let none = List::once(async { Ok(listing()) }).limit(0).await.unwrap();
        assert_eq!((none.received(), none.total_count()), (0, None));
        let all = List::once(async { Ok(listing()) }).await.unwrap();
        assert_eq!((all.received(), all.total_count()), (3, Some(3)));
    }

    #[tokio::test]
    async fn one_answer_is_one_page() {
        let pages: Vec<Result<Listing<u32>, Error>> =
            List::once(async { Ok(listing()) }).pages().collect().await;
        let [Ok(page)] = &pages[..] else {
            panic!("one page: {pages:?}");
        };
        assert_eq!((page.offset(), page.items()), (0, &[10, 12][..]));
        assert_eq!(page.total_count(), Some(3));
        let failed: Vec<Result<Listing<u32>, Error>> =
            List::once(async { Err(Error::invalid("x", "down")) })
                .pages()
                .collect()
                .await;
        assert!(matches!(&failed[..], [Err(_)]));
    }

    #[test]
    fn serialises_as_the_array_of_readable_records() {
        assert_eq!(
            serde_json::to_value(listing()).unwrap(),
            serde_json::json!([10, 12])
        );
    }
}
