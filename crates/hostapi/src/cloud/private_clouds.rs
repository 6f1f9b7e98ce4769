//! Private clouds: the list, the only operation the docs show.

use futures::TryStreamExt;
use hostapi_raw_cloud::types as raw;
use progenitor_client::ClientInfo;

use super::pager::{self, Page};
use super::{ListCloudServers, PrivateCloud, normalize};
use crate::handle::{Handle, retry_unsafe_option};
use crate::transport::{self, call::decode_error, call::decode_json};
use crate::wire::At;
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
            if offset == 0 {
                let call = handle.cloud().list_private_clouds().send();
                let mut answer = handle.json(OPERATION, call).await?;
                let total_count = answer.value.metadata.as_ref().and_then(|m| m.total_count);
                let raw = std::mem::take(&mut answer.value.private_clouds);
                let items = raw
                    .into_iter()
                    .enumerate()
                    .map(|(index, cloud)| {
                        normalize::private_cloud(cloud)
                            .at_index(index)
                            .at("privateClouds")
                            .map_err(|e| answer.error(&e))
                    })
                    .collect();
                Ok(Page { items, total_count })
            } else {
                next_page(handle, offset, limit).await
            }
        };
        pager::paginate(ListCloudServers::DEFAULT_PAGE_SIZE, fetch)
            .try_collect()
            .await
    }
}

/// A page after the first, with the `limit`/`offset` the spec does not declare for this
/// call: written by hand, through the same hooks (credentials, retries, errors).
async fn next_page(
    handle: Handle<'_>,
    offset: u64,
    limit: u32,
) -> Result<Page<PrivateCloud>, Error> {
    let client = handle.cloud();
    let mut url = url::Url::parse(&format!("{}/cloud/v2/privateClouds", client.baseurl()))
        .map_err(|e| Error::invalid("base_url", e))?;
    url.query_pairs_mut()
        .append_pair("limit", &limit.to_string())
        .append_pair("offset", &offset.to_string());
    let mut request = reqwest::Request::new(reqwest::Method::GET, url);
    request.headers_mut().insert(
        reqwest::header::ACCEPT,
        reqwest::header::HeaderValue::from_static("application/json"),
    );
    let inner = &handle.client.inner;
    let body = transport::raw(
        OPERATION,
        handle.options,
        &inner.api_hooks,
        &inner.http,
        request,
    )
    .await?;
    let mut list: raw::PrivateCloudList = decode_json(OPERATION, &body.bytes)?;
    let total_count = list.metadata.as_ref().and_then(|m| m.total_count);
    let items = std::mem::take(&mut list.private_clouds)
        .into_iter()
        .enumerate()
        .map(|(index, cloud)| {
            normalize::private_cloud(cloud)
                .at_index(index)
                .at("privateClouds")
                .map_err(|e| decode_error(OPERATION, &e, &body.bytes))
        })
        .collect();
    Ok(Page { items, total_count })
}
