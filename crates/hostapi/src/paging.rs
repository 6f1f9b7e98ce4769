//! Paging through the lists the documents say are paged (cloud virtual servers and
//! credentials: `limit`/`offset` in, `_metadata {totalCount, limit, offset}` out) as
//! one stream of records. The private network list, whose documents name no paging
//! parameters, sends none on its first request and is paged alike only when its
//! `totalCount` says there is more. Other lists whose documents name no paging
//! parameters are read in one request, whatever their `_metadata` says.
//!
//! The rules, for when `totalCount` and the pages disagree:
//!
//! 1. The first request asks for `offset=0`; each next one asks for `offset` = the
//!    number of records received so far (whatever `_metadata` says), and `limit` = the
//!    page size.
//! 2. An empty page is the last, whatever `totalCount` says.
//! 3. The pager stops when the next offset reaches the latest `totalCount` (each page's
//!    count replaces the previous one, so a collection that changes while it is read is
//!    followed).
//! 4. A page shorter than the page size does not stop it while `totalCount` says there
//!    is more (servers cap `limit`).
//! 5. A page without `totalCount` is the last page.
//!
//! And it proves progress, so a misbehaving server cannot make it loop:
//!
//! 6. A page that repeats a record of the page before (a server that ignores
//!    `offset`) stops the stream with [`Error::Paging`].
//! 7. It makes at most twice the pages the first `totalCount` calls for, plus two; a
//!    count that keeps growing past that stops the stream with [`Error::Paging`].
//!
//! Only one page is held at a time (and the ids of the one before).

use std::collections::HashSet;

use futures::Stream;
use futures::future::BoxFuture;

use crate::error::{CallInfo, PagingError};
use crate::list::Item;
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

/// The most pages a list may take (rule 7), from its first page.
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
    offset: Option<u64>,
    pages: u64,
    budget: Option<u64>,
    previous_ids: HashSet<String>,
    items: std::vec::IntoIter<Result<T, Error>>,
}

fn paging_error(call: CallInfo, message: String) -> Error {
    Error::Paging(Box::new(PagingError { call, message }))
}

impl<T, F> Pager<T, F>
where
    F: FnMut(u64, u32) -> BoxFuture<'static, Result<Page<T>, Error>>,
{
    /// Fetches the next page into `items`; `Ok(false)` when there is none.
    async fn next_page(&mut self) -> Result<bool, Error> {
        let Some(offset) = self.offset else {
            return Ok(false);
        };
        let page = (self.fetch)(offset, self.page_size).await?;
        self.pages += 1;
        let received = page.listing.received();
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
        self.items = page.listing.into_results().into_iter();
        Ok(true)
    }
}

/// Streams every record of a paged list, `fetch(offset, limit)` giving one page and
/// `id_of` naming a record (to see repeats).
pub(crate) fn paginate<T, F>(
    page_size: u32,
    fetch: F,
    id_of: fn(&T) -> String,
) -> impl Stream<Item = Item<T>> + Send + 'static
where
    T: Send + 'static,
    F: FnMut(u64, u32) -> BoxFuture<'static, Result<Page<T>, Error>> + Send + 'static,
{
    let pager = Pager {
        fetch,
        page_size,
        id_of,
        offset: Some(0),
        pages: 0,
        budget: None,
        previous_ids: HashSet::new(),
        items: Vec::new().into_iter(),
    };
    futures::stream::unfold(Some(pager), |state| async move {
        let mut pager = state?;
        loop {
            if let Some(item) = pager.items.next() {
                return Some((Item::Record(item), Some(pager)));
            }
            match pager.next_page().await {
                Ok(true) => {}
                Ok(false) => return None,
                Err(error) => return Some((Item::Failed(error), None)),
            }
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

    async fn run<F>(size: u32, fetch: F) -> Vec<Result<u64, Error>>
    where
        F: FnMut(u64, u32) -> BoxFuture<'static, Result<Page<u64>, Error>> + Send + 'static,
    {
        paginate(size, fetch, |n: &u64| n.to_string())
            .filter_map(|item| {
                futures::future::ready(match item {
                    Item::Record(r) => Some(r),
                    Item::Failed(e) => Some(Err(e)),
                    Item::Extra(_) => None,
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
        let stream = paginate(3, served(7, u64::MAX, log.clone()), |n: &u64| n.to_string());
        let mut stream = std::pin::pin!(stream);
        assert!(
            log.lock().unwrap().is_empty(),
            "nothing before the first poll"
        );
        for _ in 0..3 {
            assert!(stream.next().await.is_some());
            assert_eq!(log.lock().unwrap().len(), 1);
        }
        assert!(stream.next().await.is_some());
        assert_eq!(log.lock().unwrap().len(), 2);
    }
}
