//! Calls over loopback against the simulator: one facade call against a bare reqwest
//! GET of the same URL, and the details of 1,000 bare metals through
//! [`BareMetals::get_many`](hostapi::BareMetals::get_many) against bare reqwest GETs
//! at the same concurrency and order.

use std::time::Duration;

use criterion::{Criterion, SamplingMode, Throughput};
use futures::StreamExt;
use hostapi::{BareMetalId, BulkOptions, VirtualServerId};
use hostapi_raw_infra::types::VirtualServerList;

use crate::setup::World;

pub(crate) const ONE_GROUP: &str = "one_call_get_v1_virtual_server";
pub(crate) const BULK_GROUP: &str = "bulk_1000_bare_metal_details";
pub(crate) const FACADE: &str = "facade";
pub(crate) const REQWEST: &str = "bare_reqwest";
/// Bare reqwest, then the body decoded into the generated raw type: what a typed
/// client costs before the facade's hooks and normalisation.
pub(crate) const REQWEST_RAW: &str = "bare_reqwest_raw_decode";

/// Requests in flight in the bulk benchmark, for both sides.
pub(crate) const CONCURRENCY: usize = 8;
/// Bare metals read in one bulk iteration (ids 20001…21000 at the simulator's size).
pub(crate) const BARE_METALS: u32 = 1_000;

pub(crate) fn bench(criterion: &mut Criterion, world: &World) {
    one_call(criterion, world);
    bulk(criterion, world);
}

fn one_call(criterion: &mut Criterion, world: &World) {
    let id = VirtualServerId::from(100_001u32);
    let path = format!("/v1/virtualServers/{id}");
    let runtime = &world.runtime;
    let server = runtime
        .block_on(world.client.virtual_servers().get(&id))
        .expect("the facade reads the server");
    assert_eq!(server.id, id);

    let mut group = criterion.benchmark_group(ONE_GROUP);
    group.measurement_time(Duration::from_secs(6));
    group.bench_function(FACADE, |b| {
        b.iter(|| {
            runtime
                .block_on(world.client.virtual_servers().get(&id))
                .unwrap()
        })
    });
    group.bench_function(REQWEST, |b| {
        b.iter(|| runtime.block_on(world.bare_get(&path)))
    });
    group.bench_function(REQWEST_RAW, |b| {
        b.iter(|| {
            let body = runtime.block_on(world.bare_get(&path));
            serde_json::from_slice::<VirtualServerList>(&body).unwrap()
        })
    });
    group.finish();
}

fn bulk(criterion: &mut Criterion, world: &World) {
    let ids: Vec<BareMetalId> = (20_001..20_001 + BARE_METALS)
        .map(BareMetalId::from)
        .collect();
    let paths: Vec<String> = ids
        .iter()
        .map(|id| format!("/v1/bareMetals/{id}"))
        .collect();
    let runtime = &world.runtime;
    let facade = || async {
        let options = BulkOptions::new(CONCURRENCY);
        let read = world
            .client
            .bare_metals()
            .get_many(ids.iter().cloned(), options)
            .fold(0usize, |read, item| async move {
                let server = item.result.expect("every bare metal reads");
                read + usize::from(server.id == item.input)
            })
            .await;
        assert_eq!(read, ids.len());
    };
    let bare = || async {
        let read = futures::stream::iter(&paths)
            .map(|path| world.bare_get(path))
            .buffered(CONCURRENCY)
            .fold(0usize, |read, body| async move {
                read + usize::from(!body.is_empty())
            })
            .await;
        assert_eq!(read, paths.len());
    };
    runtime.block_on(facade());

    let mut group = criterion.benchmark_group(BULK_GROUP);
    group
        .throughput(Throughput::Elements(u64::from(BARE_METALS)))
        .sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    group.bench_function(FACADE, |b| b.iter(|| runtime.block_on(facade())));
    group.bench_function(REQWEST, |b| b.iter(|| runtime.block_on(bare())));
    group.finish();
}
