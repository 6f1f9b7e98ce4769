//! Calls over loopback against the simulator, timed in wall time in alternation: one
//! facade call against a bare reqwest GET of the same URL, and the details of 1,000
//! bare metals through [`BareMetals::get_many`](hostapi::bare_metal::BareMetals::get_many) against
//! bare reqwest GETs at the same concurrency and order.

use crate::paired::{Clock, Pair, Ratio};
use crate::raw_types::VirtualServerList;
use crate::setup::World;
use criterion::Criterion;
use futures::StreamExt;
use hostapi::bulk::BulkOptions;
use hostapi::types::{BareMetalId, VirtualServerId};

pub(crate) const ONE_GROUP: &str = "one_call_get_v1_virtual_server";
/// A facade call over a bare reqwest GET (the target). Calls alternate one by one.
pub(crate) const FACADE_OVER_REQWEST: Pair = Pair {
    group: ONE_GROUP,
    name: "facade_over_bare_reqwest",
    clock: Clock::Wall,
    units_per_round: 20,
};
/// Bare reqwest with the body decoded into the generated raw type, over bare reqwest:
/// what a typed client costs before the facade's hooks and normalisation.
pub(crate) const TYPED_OVER_REQWEST: Pair = Pair {
    name: "raw_typed_over_bare_reqwest",
    ..FACADE_OVER_REQWEST
};

pub(crate) const BULK_GROUP: &str = "bulk_1000_bare_metal_details";
/// `get_many` over bare reqwest at the same concurrency (a time ratio; the table shows
/// its inverse, the throughput ratio).
pub(crate) const GET_MANY_OVER_REQWEST: Pair = Pair {
    group: BULK_GROUP,
    name: "get_many_over_bare_reqwest",
    clock: Clock::Wall,
    units_per_round: 1,
};

/// The same units timed in the client thread's CPU time: what the facade costs the
/// client's CPU over bare reqwest. (The throughput ratio above shows this only when the
/// client's CPU is what limits throughput; here the simulator's CPU may limit bare
/// reqwest first. The client runtime runs on the benchmark thread, connections and
/// all, so its CPU time is all of the client's work.)
pub(crate) const GET_MANY_CPU_OVER_REQWEST: Pair = Pair {
    name: "get_many_client_cpu_over_bare_reqwest",
    clock: Clock::ThreadCpu,
    ..GET_MANY_OVER_REQWEST
};

/// Requests in flight in the bulk benchmark, for both sides.
pub(crate) const CONCURRENCY: usize = 8;
/// Bare metals read in one bulk unit (ids 20001…21000 at the simulator's size).
pub(crate) const BARE_METALS: u32 = 1_000;

pub(crate) fn bench(criterion: &mut Criterion<Ratio>, world: &World) {
    one_call(criterion, world);
    bulk(criterion, world);
}

fn one_call(criterion: &mut Criterion<Ratio>, world: &World) {
    let id = VirtualServerId::from(100_001u32);
    let path = format!("/v1/virtualServers/{id}");
    let runtime = &world.runtime;
    let server = runtime
        .block_on(world.client.virtual_servers().get(&id))
        .expect("the facade reads the server");
    assert_eq!(server.id, id);

    let facade = || {
        runtime
            .block_on(world.client.virtual_servers().get(&id))
            .unwrap()
    };
    let bare = || runtime.block_on(world.bare_get(&path));
    let typed = || {
        let body = runtime.block_on(world.bare_get(&path));
        serde_json::from_slice::<VirtualServerList>(&body).unwrap()
    };

    let mut group = criterion.benchmark_group(ONE_GROUP);
    group.sample_size(10);
    FACADE_OVER_REQWEST.bench(&mut group, facade, bare);
    TYPED_OVER_REQWEST.bench(&mut group, typed, bare);
    group.finish();
}

fn bulk(criterion: &mut Criterion<Ratio>, world: &World) {
    let ids: Vec<BareMetalId> = (20_001..20_001 + BARE_METALS)
        .map(BareMetalId::from)
        .collect();
    let paths: Vec<String> = ids
        .iter()
        .map(|id| format!("/v1/bareMetals/{id}"))
        .collect();
    let runtime = &world.runtime;
    let facade = || {
        runtime.block_on(async {
            let options = BulkOptions::new(CONCURRENCY);
            let read = world
                .client
                .bare_metals()
                .get_many(ids.clone(), options)
                .fold(0usize, |read, item| async move {
                    let server = item.result.expect("every bare metal reads");
                    read + usize::from(server.id == item.input)
                })
                .await;
            assert_eq!(read, ids.len());
        })
    };
    let bare = || {
        runtime.block_on(async {
            let read = futures::stream::iter(&paths)
                .map(|path| world.bare_get(path))
                .buffered(CONCURRENCY)
                .fold(0usize, |read, body| async move {
                    read + usize::from(!body.is_empty())
                })
                .await;
            assert_eq!(read, paths.len());
        })
    };
    facade();

    let mut group = criterion.benchmark_group(BULK_GROUP);
    group.sample_size(10);
    GET_MANY_OVER_REQWEST.bench(&mut group, facade, bare);
    GET_MANY_CPU_OVER_REQWEST.bench(&mut group, facade, bare);
    group.finish();
}
