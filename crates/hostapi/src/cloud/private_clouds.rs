//! Private clouds: the list, the only operation the documents show.

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

    /// Lists every private cloud. The documents give this call no paging parameters,
    /// so none is sent and its answer is the list (a `_metadata.totalCount` above it is
    /// logged as a warning).
    pub fn list(&self) -> List<PrivateCloud> {
        let handle = self.handle.clone();
        List::once(async move {
            let cloud = handle.cloud();
            let answer = handle
                .call("listPrivateClouds", || {
                    cloud.list_private_clouds().request()
                })
                .await?;
            let mut total = None;
            let listing = answer.list(
                |cx, body| read::page(cx, body, "privateClouds", &mut total),
                read::private_cloud,
            )?;
            if let Some(total) = total
                && total > listing.received() as u64
            {
                tracing::warn!(
                    total_count = total,
                    received = listing.received(),
                    "hostapi: the service counts more private clouds than it sent; the documents give no way to ask for the rest"
                );
            }
            Ok(listing)
        })
    }
}
