//! Paging through every list whose answer carries `_metadata {totalCount, limit,
//! offset}`, as one stream of pages. Cloud virtual servers and credentials, whose
//! documents name `limit`/`offset`, send both on every request. Private networks,
//! private clouds and DHCP leases, whose documents name no paging parameters, send
//! none on their first request (the service's own page comes back), and are paged
//! alike, with the `limit`/`offset` their `_metadata` mirrors, only when `totalCount`
//! says there is more.
//!
//! The rules, for when `totalCount` and the pages disagree:
//!
//! 1. The first request asks for `offset=0`; each next one asks for `offset` = the
//!    number of records received so far (whatever `_metadata` says), and `limit` = the
//!    page size (or the records still wanted, when the list has a
//!    [`limit`](crate::List::limit) and fewer are wanted).
//! 2. An empty page is the last, whatever `totalCount` says.
//! 3. The pager stops when the next offset reaches the latest `totalCount` (each page's
//!    count replaces the previous one, so a collection that changes while it is read is
//!    followed).
//! 4. A page shorter than the page size does not stop it while `totalCount` says there
//!    is more (servers cap `limit`).
//! 5. A page without `totalCount` is the last page.
//! 6. With a [`limit`](crate::List::limit), it stops once that many records are in
//!    hand; the records of the last page beyond it are dropped.
//!
//! And it proves progress and bounds what it holds, so a misbehaving server cannot
//! make it loop or grow:
//!
//! 7. A page that repeats a record of the page before (a server that ignores
//!    `offset`) stops the stream with [`Error::Paging`].
//! 8. It makes at most twice the pages the first `totalCount` calls for, plus two; a
//!    count that keeps growing past that stops the stream with [`Error::Paging`].
//! 9. A list holds at most its ceiling of records
//!    ([`List::max_records`](crate::List::max_records), one million by default): a page
//!    whose `totalCount` announces more stops the stream with [`Error::Paging`] before
//!    any further page is asked for (the first page included), and so does the
//!    ceiling reached while the server still announces more. A limit at or below the
//!    ceiling bounds the list by itself: no ceiling error then.
//!
//! Only one page is held at a time (and the ids of the one before).

use std::collections::HashSet;

use futures::Stream;
use futures::future::BoxFuture;

use crate::error::{CallInfo, PagingError};
use crate::list::{Ask, Batch, Item};
use crate::{Error, Listing};

/// One page: its records, its `totalCount`, and the call that fetched it.
pub(crate) struct Page<T> {
    pub(crate) listing: Listing<T>,
    pub(crate) total_count: Option<u64>,
    pub(crate) call: CallInfo,
}

/// The next offset after a page, or `None` when it was the last (rules 2–5).
fn next_offset(offset: u64, received: usize, total_count: Option<u64>) -> Option<u64> {
    let received = u64::try_from(received).unwrap_or(u64::MAX);
    let next = offset.saturating_add(received);
    (received > 0 && next < total_count?).then_some(next)
}

/// The most pages a list may take (rule 8), from its first page.
fn page_budget(first_total: u64, first_received: usize) -> u64 {
    let per_page = u64::try_from(first_received.max(1)).unwrap_or(u64::MAX);
    first_total
        .div_ceil(per_page)
        .saturating_mul(2)
        .saturating_add(2)
}

struct Pager<T, F> {
    fetch: F,
    page_size: u32,
    id_of: fn(&T) -> String,
    /// The offset of the next page; `None` when there is none.
    offset: Option<u64>,
    /// Records still wanted (rule 6); `None` without a limit.
    wanted: Option<usize>,
    /// The ceiling (rule 9); `None` when a limit at or below it bounds the list.
    ceiling: Option<u64>,
    /// Records received so far.
    received: u64,
    pages: u64,
    budget: Option<u64>,
    previous_ids: HashSet<String>,
}

fn paging_error(call: CallInfo, message: String) -> Error {
    Error::Paging(Box::new(PagingError { call, message }))
}

impl<T, F> Pager<T, F>
where
    F: FnMut(u64, u32) -> BoxFuture<'static, Result<Page<T>, Error>>,
{
    /// Fetches the next page; `Ok(None)` when there is none.
    async fn next_page(&mut self) -> Result<Option<Batch<T>>, Error> {
        let Some(offset) = self.offset else {
            return Ok(None);
        };
        let ask = match self.wanted {
            Some(wanted) => u32::try_from(wanted).map_or(self.page_size, |w| w.min(self.page_size)),
            None => self.page_size,
        };
        let page = (self.fetch)(offset, ask).await?;
        self.pages += 1;
        let received = page.listing.received();
        if let (Some(ceiling), Some(total)) = (self.ceiling, page.total_count)
            && total > ceiling
        {
            return Err(paging_error(
                page.call,
                format!(
                    "the server announces {total} records, more than this list's ceiling of \
                     {ceiling}; nothing more is asked for (raise the ceiling with \
                     `max_records`/`max_list_records`, or ask for fewer with `limit`)"
                ),
            ));
        }
        let budget = *self
            .budget
            .get_or_insert_with(|| page_budget(page.total_count.unwrap_or(0), received));
        let ids: HashSet<String> = page.listing.items().iter().map(self.id_of).collect();
        if let Some(repeated) = ids.iter().find(|id| self.previous_ids.contains(*id)) {
            return Err(paging_error(
                page.call,
                format!(
                    "the page at offset {offset} repeats record {repeated} of the page before \
                     (the server seems to ignore `offset`)"
                ),
            ));
        }
        self.offset = next_offset(offset, received, page.total_count);
        let mut listing = page.listing;
        let extra = listing.take_extra();
        let mut records = listing.into_results();
        if let Some(wanted) = &mut self.wanted {
            records.truncate(*wanted);
            *wanted -= records.len();
            if *wanted == 0 {
                self.offset = None;
            }
        }
        self.received = self.received.saturating_add(records.len() as u64);
        // With every count at or below the ceiling (checked above), only pages that
        // hold more than their count announces can get here.
        if let Some(ceiling) = self.ceiling
            && self.received > ceiling
        {
            return Err(paging_error(
                page.call,
                format!(
                    "{} records read, more than this list's ceiling of {ceiling}; stopping",
                    self.received
                ),
            ));
        }
        if self.offset.is_some() && self.pages >= budget {
            return Err(paging_error(
                page.call,
                format!(
                    "{} pages read and the server still announces more ({} records); stopping",
                    self.pages,
                    page.total_count.unwrap_or(0)
                ),
            ));
        }
        tracing::debug!(
            offset,
            received,
            total_count = page.total_count,
            next = self.offset,
            "hostapi: page"
        );
        self.previous_ids = ids;
        Ok(Some(Batch {
            records,
            total_count: page.total_count,
            offset,
            extra,
        }))
    }
}

/// Streams the pages of a paged list, `fetch(offset, limit)` giving one page and
/// `id_of` naming a record (to see repeats). The next page is fetched when the
/// stream is polled after the one before.
pub(crate) fn paginate<T, F>(
    ask: Ask,
    fetch: F,
    id_of: fn(&T) -> String,
) -> impl Stream<Item = Item<T>> + Send + 'static
where
    T: Send + 'static,
    F: FnMut(u64, u32) -> BoxFuture<'static, Result<Page<T>, Error>> + Send + 'static,
{
    let bounded = ask
        .limit
        .is_some_and(|limit| u64::try_from(limit).is_ok_and(|l| l <= ask.max_records));
    let pager = Pager {
        fetch,
        page_size: ask.page_size.max(1),
        id_of,
        offset: (ask.limit != Some(0)).then_some(0),
        wanted: ask.limit,
        ceiling: (!bounded).then_some(ask.max_records),
        received: 0,
        pages: 0,
        budget: None,
        previous_ids: HashSet::new(),
    };
    futures::stream::unfold(Some(pager), |state| async move {
        let mut pager = state?;
        match pager.next_page().await {
            Ok(Some(batch)) => Some((Item::Page(batch), Some(pager))),
            Ok(None) => None,
            Err(error) => Some((Item::Failed(error), None)),
        }
    })
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};
    use std::time::Duration;

    use futures::{FutureExt, StreamExt};

    use super::*;

    fn call() -> CallInfo {
        CallInfo {
            operation: "listVirtualServers",
            method: "GET",
            path: "/cloud/v2/virtualServers".into(),
            attempts: 1,
            elapsed: Duration::ZERO,
        }
    }

    fn page(items: impl IntoIterator<Item = u64>, total: Option<u64>) -> Page<u64> {
        let mut listing = Listing::default();
        items.into_iter().for_each(|i| listing.push(i));
        Page {
            listing,
            total_count: total,
            call: call(),
        }
    }

    /// A collection of `total` served in pages of at most `cap`, recording requests.
    fn served(
        total: u64,
        cap: u64,
        log: Arc<Mutex<Vec<(u64, u32)>>>,
    ) -> impl FnMut(u64, u32) -> BoxFuture<'static, Result<Page<u64>, Error>> + Send {
        move |offset, limit| {
            log.lock().unwrap().push((offset, limit));
            let end = (offset + u64::from(limit).min(cap)).min(total);
            futures::future::ready(Ok(page(offset..end, Some(total)))).boxed()
        }
    }

    fn ask(page_size: u32) -> Ask {
        Ask {
            page_size,
            limit: None,
            max_records: 1_000_000,
        }
    }

    async fn run<F>(size: u32, fetch: F) -> Vec<Result<u64, Error>>
    where
        F: FnMut(u64, u32) -> BoxFuture<'static, Result<Page<u64>, Error>> + Send + 'static,
    {
        run_asking(ask(size), fetch).await
    }

    async fn run_asking<F>(ask: Ask, fetch: F) -> Vec<Result<u64, Error>>
    where
        F: FnMut(u64, u32) -> BoxFuture<'static, Result<Page<u64>, Error>> + Send + 'static,
    {
        paginate(ask, fetch, |n: &u64| n.to_string())
            .flat_map(|item| {
                futures::stream::iter(match item {
                    Item::Page(batch) => batch.records,
                    Item::Failed(e) => vec![Err(e)],
                })
            })
            .collect()
            .await
    }

    #[test]
    fn the_rules_for_disagreeing_pages() {
        assert_eq!(next_offset(0, 10, Some(25)), Some(10));
        assert_eq!(next_offset(10, 3, Some(25)), Some(13));
        assert_eq!(next_offset(20, 5, Some(25)), None);
        assert_eq!(next_offset(20, 5, Some(12)), None);
        assert_eq!(next_offset(20, 0, Some(100)), None);
        assert_eq!(next_offset(0, 10, None), None);
    }

    #[tokio::test]
    async fn pages_until_the_count_following_capped_pages() {
        let log = Arc::new(Mutex::new(Vec::new()));
        let items = run(4, served(10, 3, log.clone())).await;
        let items: Vec<u64> = items.into_iter().map(Result::unwrap).collect();
        assert_eq!(items, (0..10).collect::<Vec<_>>());
        assert_eq!(*log.lock().unwrap(), [(0, 4), (3, 4), (6, 4), (9, 4)]);
    }

    #[tokio::test]
    async fn a_server_that_ignores_offset_is_caught() {
        let items = run(3, |_, _| {
            futures::future::ready(Ok(page(0..3, Some(9)))).boxed()
        })
        .await;
        assert_eq!(items.len(), 4, "the first page, then the error");
        let error = items[3].as_ref().unwrap_err();
        assert!(matches!(error, Error::Paging(_)), "{error}");
        assert!(error.to_string().contains("ignore `offset`"), "{error}");
    }

    #[tokio::test]
    async fn a_count_that_keeps_growing_is_not_followed_forever() {
        let mut next = 0u64;
        let items = run(2, move |_, _| {
            let start = next;
            next += 2;
            futures::future::ready(Ok(page(start..start + 2, Some(start + 100)))).boxed()
        })
        .await;
        let error = items.last().unwrap().as_ref().unwrap_err();
        assert!(matches!(error, Error::Paging(_)), "{error}");
        assert!(items.len() < 300, "stopped after {} items", items.len());
    }

    #[tokio::test]
    async fn the_next_page_is_fetched_only_when_the_current_one_is_drained() {
        let log = Arc::new(Mutex::new(Vec::new()));
        let stream = paginate(ask(3), served(7, u64::MAX, log.clone()), |n: &u64| {
            n.to_string()
        });
        let mut stream = std::pin::pin!(stream);
        assert!(
            log.lock().unwrap().is_empty(),
            "nothing before the first poll"
        );
        assert!(stream.next().await.is_some());
        assert_eq!(log.lock().unwrap().len(), 1);
        assert!(stream.next().await.is_some());
        assert_eq!(log.lock().unwrap().len(), 2);
    }

    #[tokio::test]
    async fn a_limit_stops_paging_once_the_records_are_in_hand() {
        for (limit, cap, requests) in [
            // One request when a page holds the limit: only the limit is asked for.
            (5, u64::MAX, vec![(0, 5)]),
            // A server capping pages at 3: the rest is asked for, and no more.
            (5, 3, vec![(0, 5), (3, 2)]),
            // A limit above the page size: pages of the page size, the last cut short.
            (25, u64::MAX, vec![(0, 10), (10, 10), (20, 5)]),
            // Past the end: the end stops it.
            (500, u64::MAX, vec![(0, 10), (10, 10), (20, 10), (30, 10)]),
        ] {
            let log = Arc::new(Mutex::new(Vec::new()));
            let ask = Ask {
                limit: Some(limit),
                ..ask(10)
            };
            let items = run_asking(ask, served(40, cap, log.clone())).await;
            let items: Vec<u64> = items.into_iter().map(Result::unwrap).collect();
            assert_eq!(items, (0..limit.min(40) as u64).collect::<Vec<_>>());
            assert_eq!(*log.lock().unwrap(), requests, "limit {limit}, cap {cap}");
        }
        let log = Arc::new(Mutex::new(Vec::new()));
        let ask = Ask {
            limit: Some(0),
            ..ask(10)
        };
        assert!(run_asking(ask, served(40, 3, log.clone())).await.is_empty());
        assert!(log.lock().unwrap().is_empty(), "limit 0 asks for nothing");
    }

    /// A server announcing `total` records and inventing fresh ones for every page.
    fn endless(
        total: u64,
        log: Arc<Mutex<Vec<(u64, u32)>>>,
    ) -> impl FnMut(u64, u32) -> BoxFuture<'static, Result<Page<u64>, Error>> + Send {
        move |offset, limit| {
            log.lock().unwrap().push((offset, limit));
            let start = offset + 1_000_000_000;
            let page = page(start..start + u64::from(limit), Some(total));
            futures::future::ready(Ok(page)).boxed()
        }
    }

    #[tokio::test]
    async fn a_count_above_the_ceiling_stops_at_the_first_page() {
        let log = Arc::new(Mutex::new(Vec::new()));
        let items = run(100, endless(1_000_000_000_000, log.clone())).await;
        let [Err(error)] = &items[..] else {
            panic!("one error, no record: {items:?}");
        };
        assert!(matches!(error, Error::Paging(_)), "{error}");
        let message = error.to_string();
        assert!(
            message.contains("1000000000000") && message.contains("1000000"),
            "{message}"
        );
        assert_eq!(log.lock().unwrap().len(), 1, "nothing more is asked for");
    }

    #[tokio::test]
    async fn a_count_that_grows_past_the_ceiling_stops_the_list() {
        let log = Arc::new(Mutex::new(Vec::new()));
        let ask = Ask {
            max_records: 50,
            ..ask(10)
        };
        // Announces exactly the ceiling, then one more with every page.
        let mut calls = 0;
        let mut fetch = endless(0, log.clone());
        let items = run_asking(ask, move |offset, limit| {
            calls += 1;
            let page = fetch(offset, limit);
            async move {
                let mut page = page.await?;
                page.total_count = Some(50 + calls - 1);
                Ok(page)
            }
            .boxed()
        })
        .await;
        let error = items.last().unwrap().as_ref().unwrap_err();
        assert!(matches!(error, Error::Paging(_)), "{error}");
        assert!(error.to_string().contains("ceiling of 50"), "{error}");
        assert_eq!(items.len(), 11, "the first page, then the error");
        assert_eq!(log.lock().unwrap().len(), 2);
    }

    #[tokio::test]
    async fn pages_holding_more_than_their_count_stop_at_the_ceiling() {
        let log = Arc::new(Mutex::new(Vec::new()));
        let ask = Ask {
            max_records: 50,
            ..ask(10)
        };
        let mut fetch = endless(0, log.clone());
        let items = run_asking(ask, move |offset, _| {
            let page = fetch(offset, 100);
            async move {
                let mut page = page.await?;
                page.total_count = Some(40);
                Ok(page)
            }
            .boxed()
        })
        .await;
        let [Err(error)] = &items[..] else {
            panic!("one error, no record: {items:?}");
        };
        assert!(error.to_string().contains("ceiling of 50"), "{error}");
    }

    #[tokio::test]
    async fn a_limit_within_the_ceiling_is_never_a_ceiling_error() {
        let log = Arc::new(Mutex::new(Vec::new()));
        let ask = Ask {
            limit: Some(5),
            ..ask(100)
        };
        let items = run_asking(ask, endless(1_000_000_000_000, log.clone())).await;
        assert_eq!(items.len(), 5);
        assert!(items.iter().all(Result::is_ok));
        assert_eq!(*log.lock().unwrap(), [(0, 5)]);
    }
}
