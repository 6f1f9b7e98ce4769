//! Paging through the cloud collections (`limit`/`offset` in, `_metadata {totalCount,
//! limit, offset}` out) as one stream of items.
//!
//! The rules, for when `totalCount` and the pages disagree:
//!
//! 1. The first request asks for `offset=0`; each next one asks for `offset` = the
//!    number of items received so far (whatever `_metadata.offset` and
//!    `_metadata.limit` say), and `limit` = the page size.
//! 2. The pager stops after an empty page, whatever `totalCount` says.
//! 3. It stops when the next offset reaches the latest `totalCount` (each page's
//!    `totalCount` replaces the previous one, so a collection that grows or shrinks
//!    while it is read is followed; a negative count counts as 0).
//! 4. A page shorter than the page size does not stop it while `totalCount` says there
//!    is more (servers cap `limit` at their own maximum).
//! 5. A page without `_metadata`, or without `totalCount` in it, is the last page.
//!
//! Only one page is held at a time: the next one is fetched when the consumer has taken
//! every item of the current one. Items are not de-duplicated (that would mean holding
//! every id): a collection that changes while it is read may yield an item twice or
//! skip one, as with any offset paging.

use futures::Stream;

use crate::Error;
use crate::transport::Answer;
use crate::wire::{At, FieldError};

/// What the pager needs of one page: its items (each already normalised, or the error
/// of that item), and its `totalCount` when the page has one.
pub(crate) struct Page<T> {
    pub(crate) items: Vec<Result<T, Error>>,
    pub(crate) total_count: Option<i64>,
}

impl<T> Page<T> {
    /// A page read from `answer`: `items` (taken out of it) normalised one by one, a
    /// failure placed at `key[index]` with the answer's body, so one unreadable item
    /// does not cost the others; `total_count` is the answer's `_metadata.totalCount`.
    pub(crate) fn from_answer<A, R>(
        answer: &Answer<A>,
        key: &'static str,
        items: Vec<R>,
        total_count: Option<i64>,
        mut normalize: impl FnMut(R) -> Result<T, FieldError>,
    ) -> Self {
        let items = items
            .into_iter()
            .enumerate()
            .map(|(index, item)| {
                normalize(item)
                    .at_index(index)
                    .at(key)
                    .map_err(|e| answer.error(&e))
            })
            .collect();
        Self { items, total_count }
    }
}

enum State<T, F> {
    /// Ask for the page at this offset.
    Fetch {
        fetch: F,
        offset: u64,
    },
    /// Hand out the items of the current page, then fetch at `next` (or stop).
    Drain {
        fetch: F,
        items: std::vec::IntoIter<Result<T, Error>>,
        next: Option<u64>,
    },
    Done,
}

/// The next offset after a page, or `None` when the page was the last (rules 2–5).
pub(crate) fn next_offset(offset: u64, received: usize, total_count: Option<i64>) -> Option<u64> {
    let received = u64::try_from(received).unwrap_or(u64::MAX);
    let next = offset.saturating_add(received);
    let total = u64::try_from(total_count?.max(0)).unwrap_or(0);
    (received > 0 && next < total).then_some(next)
}

/// Streams every item of a collection, `fetch(offset, limit)` giving one page. An error
/// of a request ends the stream after it is yielded; an error of one item is yielded in
/// its place and the stream goes on.
pub(crate) fn paginate<'a, T, F, Fut>(
    page_size: u32,
    fetch: F,
) -> impl Stream<Item = Result<T, Error>> + Send + 'a
where
    T: Send + 'a,
    F: FnMut(u64, u32) -> Fut + Send + 'a,
    Fut: Future<Output = Result<Page<T>, Error>> + Send + 'a,
{
    futures::stream::unfold(
        State::Fetch { fetch, offset: 0 },
        move |mut state| async move {
            loop {
                state = match state {
                    State::Done => return None,
                    State::Drain {
                        fetch,
                        mut items,
                        next,
                    } => match items.next() {
                        Some(item) => return Some((item, State::Drain { fetch, items, next })),
                        None => match next {
                            Some(offset) => State::Fetch { fetch, offset },
                            None => State::Done,
                        },
                    },
                    State::Fetch { mut fetch, offset } => match fetch(offset, page_size).await {
                        Err(error) => return Some((Err(error), State::Done)),
                        Ok(page) => {
                            let next = next_offset(offset, page.items.len(), page.total_count);
                            tracing::debug!(
                                offset,
                                received = page.items.len(),
                                total_count = page.total_count,
                                next,
                                "hostapi: page"
                            );
                            State::Drain {
                                fetch,
                                items: page.items.into_iter(),
                                next,
                            }
                        }
                    },
                };
            }
        },
    )
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use futures::StreamExt;

    use super::*;

    #[test]
    fn the_rules_for_disagreeing_pages() {
        // A full page, more to come.
        assert_eq!(next_offset(0, 10, Some(25)), Some(10));
        // A short page (the server capped the limit) with more to come goes on.
        assert_eq!(next_offset(10, 3, Some(25)), Some(13));
        // The count is reached.
        assert_eq!(next_offset(20, 5, Some(25)), None);
        // The count shrank below what was received.
        assert_eq!(next_offset(20, 5, Some(12)), None);
        // An empty page stops, whatever the count.
        assert_eq!(next_offset(20, 0, Some(100)), None);
        // No count: one page.
        assert_eq!(next_offset(0, 10, None), None);
        // A negative count is none.
        assert_eq!(next_offset(0, 10, Some(-1)), None);
    }

    /// A collection served in pages of at most `cap` items out of `total`, recording
    /// the requests.
    fn served(
        total: i64,
        cap: usize,
        log: Arc<Mutex<Vec<(u64, u32)>>>,
    ) -> impl FnMut(u64, u32) -> futures::future::Ready<Result<Page<u64>, Error>> + Send {
        move |offset, limit| {
            log.lock().unwrap().push((offset, limit));
            let end = (offset + u64::from(limit).min(cap as u64)).min(total as u64);
            let items = (offset..end).map(Ok).collect();
            futures::future::ready(Ok(Page {
                items,
                total_count: Some(total),
            }))
        }
    }

    #[tokio::test]
    async fn pages_until_the_count_following_capped_pages() {
        let log = Arc::new(Mutex::new(Vec::new()));
        let items: Vec<u64> = paginate(4, served(10, 3, log.clone()))
            .map(Result::unwrap)
            .collect()
            .await;
        assert_eq!(items, (0..10).collect::<Vec<_>>());
        assert_eq!(*log.lock().unwrap(), [(0, 4), (3, 4), (6, 4), (9, 4)]);
    }

    #[tokio::test]
    async fn the_next_page_is_fetched_only_when_the_current_one_is_drained() {
        let log = Arc::new(Mutex::new(Vec::new()));
        let stream = paginate(3, served(7, usize::MAX, log.clone()));
        let mut stream = std::pin::pin!(stream);
        assert!(
            log.lock().unwrap().is_empty(),
            "nothing before the first poll"
        );
        for expected in 0..3 {
            assert_eq!(stream.next().await.unwrap().unwrap(), expected);
            assert_eq!(log.lock().unwrap().len(), 1);
        }
        assert_eq!(stream.next().await.unwrap().unwrap(), 3);
        assert_eq!(log.lock().unwrap().len(), 2);
    }

    #[tokio::test]
    async fn an_unreadable_item_is_yielded_in_its_place_and_the_stream_goes_on() {
        let mut calls = 0;
        let stream = paginate::<u64, _, _>(3, move |offset, _| {
            calls += 1;
            let page = if calls == 1 {
                Page {
                    items: vec![Ok(0), Err(Error::invalid("x", "bad item")), Ok(2)],
                    total_count: Some(4),
                }
            } else {
                assert_eq!(offset, 3, "the bad item counts as received");
                Page {
                    items: vec![Ok(3)],
                    total_count: Some(4),
                }
            };
            futures::future::ready(Ok(page))
        });
        let items: Vec<Result<u64, Error>> = stream.collect().await;
        let oks: Vec<u64> = items
            .iter()
            .filter_map(|i| i.as_ref().ok().copied())
            .collect();
        assert_eq!(oks, [0, 2, 3]);
        assert!(items[1].is_err());
    }

    #[tokio::test]
    async fn a_failed_request_ends_the_stream() {
        let mut calls = 0;
        let stream = paginate::<u64, _, _>(2, move |_, _| {
            calls += 1;
            futures::future::ready(if calls == 1 {
                Ok(Page {
                    items: vec![Ok(1), Ok(2)],
                    total_count: Some(10),
                })
            } else {
                Err(Error::invalid("x", "boom"))
            })
        });
        let items: Vec<Result<u64, Error>> = stream.collect().await;
        assert_eq!(items.len(), 3);
        assert!(items[2].is_err());
    }
}
