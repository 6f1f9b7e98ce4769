//! Private clouds: the list, the only operation the docs show.

use futures::TryStreamExt;

use super::{ListCloudServers, PrivateCloud, normalize};
use crate::handle::{Handle, retry_unsafe_option};
use crate::paging::{self as pager, Page};
use crate::{Client, Error};

const OPERATION: &str = "listPrivateClouds";

impl Client {
    /// The private clouds of the cloud v2 interface (`/cloud/v2/privateClouds`).
    pub fn private_clouds(&self) -> PrivateClouds<'_> {
        PrivateClouds {
            handle: Handle::new(self),
        }
    }
}

/// The private clouds (`/cloud/v2/privateClouds`).
#[derive(Debug, Clone, Copy)]
pub struct PrivateClouds<'a> {
    handle: Handle<'a>,
}

impl PrivateClouds<'_> {
    retry_unsafe_option!();

    /// Lists every private cloud.
    ///
    /// The docs give this call no query parameters, so the first request sends none.
    /// When its `_metadata.totalCount` says there are more private clouds than it
    /// carried (the other cloud collections page with `limit`/`offset`, and this one
    /// answers the same `_metadata`), the rest is fetched with `limit`/`offset` by
    /// the rules of [`ListCloudServers`], [`ListCloudServers::DEFAULT_PAGE_SIZE`] at a
    /// time. Fields of the wrapper other than the list and `_metadata` are not kept.
    pub async fn list(&self) -> Result<Vec<PrivateCloud>, Error> {
        let handle = self.handle;
        let fetch = move |offset: u64, limit: u32| async move {
            let mut call = handle.cloud().list_private_clouds();
            if offset > 0 {
                call = call
                    .limit(i64::from(limit))
                    .offset(i64::try_from(offset).unwrap_or(i64::MAX));
            }
            let mut answer = handle.json(OPERATION, call.send()).await?;
            let total_count = answer.value.metadata.as_ref().and_then(|m| m.total_count);
            let raw = std::mem::take(&mut answer.value.private_clouds);
            Ok(Page::from_answer(
                &answer,
                "privateClouds",
                raw,
                total_count,
                normalize::private_cloud,
            ))
        };
        pager::paginate(ListCloudServers::DEFAULT_PAGE_SIZE, fetch)
            .try_collect()
            .await
    }
}
