//! Private clouds: the list, the only operation the documents show.

use futures::FutureExt;

use super::{PrivateCloud, read};
use crate::Client;
use crate::handle::{Handle, retry_unsafe_option};
use crate::list::List;

impl Client {
    /// The private clouds of the cloud v2 interface (`/cloud/v2/privateClouds`).
    pub fn private_clouds(&self) -> PrivateClouds {
        PrivateClouds {
            handle: Handle::new(self),
        }
    }
}

/// The private clouds (`/cloud/v2/privateClouds`).
#[derive(Debug, Clone)]
pub struct PrivateClouds {
    handle: Handle,
}

impl PrivateClouds {
    retry_unsafe_option!();

    /// Lists every private cloud.
    ///
    /// The answer carries `_metadata {totalCount, limit, offset}` like every other
    /// cloud collection, but the documents give the call no paging parameters, so the
    /// first request sends none; when its `totalCount` says there are more private
    /// clouds than it carries, the rest are fetched with the `limit`/`offset` of the
    /// other collections, by the crate's pager (see [`List::page_size`]).
    pub fn list(&self) -> List<PrivateCloud> {
        let handle = self.handle.clone();
        List::paged(
            &self.handle,
            move |offset, limit| {
                let handle = handle.clone();
                async move {
                    let cloud = handle.cloud();
                    let answer = handle
                        .call(|| {
                            let request = cloud.list_private_clouds();
                            if offset == 0 {
                                request
                            } else {
                                request.limit(limit).offset(offset)
                            }
                        })
                        .await?;
                    answer.page(
                        |cursor, body, total| read::page(cursor, body, "privateClouds", total),
                        read::private_cloud,
                    )
                }
                .boxed()
            },
            |cloud| cloud.id.to_string(),
        )
    }
}
