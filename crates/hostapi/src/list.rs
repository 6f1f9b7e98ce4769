//! Lists: one shape for every list of every resource group.
//!
//! A group's `list()` returns a [`List`] builder. Await it (or call
//! [`collect`](List::collect)) for a [`Listing`] of every record, or call
//! [`stream`](List::stream) for a `'static` [`Stream`] of records that fetches pages as
//! it goes. Lists the service pages (cloud servers, credentials) are fetched page by
//! page (see [`List::page_size`]); the others come in one answer.

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
        }
    }
}

impl<T> Listing<T> {
    pub(crate) fn with_capacity(capacity: usize) -> Self {
        Self {
            items: Vec::with_capacity(capacity),
            unreadable: Vec::new(),
            extra: Extra::new(),
        }
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

    /// How many records the answer held, readable or not.
    pub(crate) fn received(&self) -> usize {
        self.items.len() + self.unreadable.len()
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
    /// (for lists fetched in one answer; paged lists keep none).
    pub fn extra(&self) -> &Extra {
        &self.extra
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

/// One element of a list's stream, before the public shape.
pub(crate) enum Item<T> {
    Record(Result<T, Error>),
    /// The list could not be fetched (further): the stream ends after it.
    Failed(Error),
    /// Members of an answer beside its records (for the [`Listing`]'s `extra`; a
    /// stream of records skips them).
    Extra(Extra),
}

type Start<T> = Box<dyn FnOnce(u32) -> BoxStream<'static, Item<T>> + Send>;

/// A list request: await it for a [`Listing`], or [`stream`](List::stream) it.
///
/// ```no_run
/// # async fn run(client: hostapi::Client) -> Result<(), hostapi::Error> {
/// use futures::TryStreamExt;
/// // Every record at once:
/// let all = client.cloud_servers().list().await?;
/// // Or one page at a time, as a stream that can be stored or spawned:
/// let mut servers = client.cloud_servers().list().page_size(50).stream();
/// while let Some(server) = servers.try_next().await? {
///     println!("{} {:?}", server.id, server.state);
/// }
/// # let _ = all;
/// # Ok(())
/// # }
/// ```
pub struct List<T> {
    start: Start<T>,
    page_size: u32,
}

impl<T> std::fmt::Debug for List<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("List")
            .field("page_size", &self.page_size)
            .finish_non_exhaustive()
    }
}

impl<T: Send + 'static> List<T> {
    /// The page size asked for by default: 100 records a request.
    pub const DEFAULT_PAGE_SIZE: u32 = 100;

    /// A list fetched in one answer.
    pub(crate) fn once(
        fetch: impl Future<Output = Result<crate::Listing<T>, Error>> + Send + 'static,
    ) -> Self {
        let start: Start<T> = Box::new(move |_| {
            futures::stream::once(fetch)
                .flat_map(|result| {
                    let items: Vec<Item<T>> = match result {
                        Ok(mut listing) => {
                            let extra = std::mem::take(&mut listing.extra);
                            let records = listing.into_results().into_iter().map(Item::Record);
                            std::iter::once(Item::Extra(extra)).chain(records).collect()
                        }
                        Err(error) => vec![Item::Failed(error)],
                    };
                    futures::stream::iter(items)
                })
                .boxed()
        });
        Self {
            start,
            page_size: Self::DEFAULT_PAGE_SIZE,
        }
    }

    /// A list the service pages: `fetch(offset, limit)` fetches one page.
    pub(crate) fn paged<F>(fetch: F, id_of: fn(&T) -> String) -> Self
    where
        F: FnMut(u64, u32) -> BoxFuture<'static, Result<crate::paging::Page<T>, Error>>
            + Send
            + 'static,
    {
        let start: Start<T> =
            Box::new(move |page_size| crate::paging::paginate(page_size, fetch, id_of).boxed());
        Self {
            start,
            page_size: Self::DEFAULT_PAGE_SIZE,
        }
    }

    /// How many records to ask for in each request, for lists the service pages
    /// (cloud servers and credentials; at least 1). Lists that come in one answer
    /// ignore it.
    pub fn page_size(mut self, page_size: u32) -> Self {
        self.page_size = page_size.max(1);
        self
    }

    /// The records as a stream: an unreadable record is an `Err` in its place and the
    /// stream goes on; a request that fails ends the stream after its `Err`.
    pub fn stream(self) -> impl Stream<Item = Result<T, Error>> + Send + 'static {
        (self.start)(self.page_size).filter_map(|item| {
            futures::future::ready(match item {
                Item::Record(record) => Some(record),
                Item::Failed(error) => Some(Err(error)),
                Item::Extra(_) => None,
            })
        })
    }

    /// Every record: a [`Listing`] of the readable ones and the errors of the others.
    /// A request that fails fails the whole list.
    pub async fn collect(self) -> Result<Listing<T>, Error> {
        let mut stream = (self.start)(self.page_size);
        let mut listing = Listing::default();
        let mut index = 0;
        while let Some(item) = stream.next().await {
            match item {
                Item::Record(Ok(record)) => listing.push(record),
                Item::Record(Err(error)) => listing.push_unreadable(index, error),
                Item::Failed(error) => return Err(error),
                Item::Extra(extra) => {
                    listing.extend_extra(extra);
                    continue;
                }
            }
            index += 1;
        }
        Ok(listing)
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

    #[test]
    fn serialises_as_the_array_of_readable_records() {
        assert_eq!(
            serde_json::to_value(listing()).unwrap(),
            serde_json::json!([10, 12])
        );
    }
}
