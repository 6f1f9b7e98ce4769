//! Decoding and normalising the 10,000-item v1 virtual server list (every quirk of the
//! simulator's dataset: both `ipAddresses` shapes, `Id`/`id`/no `type`, the four
//! `endDate` spellings…) against decoding the same bytes into the generated raw types,
//! and into `serde_json::Value`. Timed in the thread's CPU time, in alternation.

use std::hint::black_box;

use crate::paired::{Clock, Pair, Ratio};
use crate::raw_types::VirtualServerList;
use crate::setup::World;
use criterion::Criterion;

pub(crate) const GROUP: &str = "decode_v1_virtual_servers_10k";
/// The facade's decode and normalisation over the raw typed decode (the target).
pub(crate) const FACADE_OVER_RAW: Pair = pair("facade_over_raw_types");
/// The facade over a decode into `serde_json::Value`.
pub(crate) const FACADE_OVER_VALUE: Pair = pair("facade_over_serde_value");
/// A decode that tracks the JSON path of every value (what the facade does only after
/// a decode failed, to name the field) over the plain raw typed decode.
pub(crate) const TRACKED_OVER_RAW: Pair = pair("path_tracked_over_raw_types");

/// The number of servers the list must hold.
const SERVERS: usize = 10_000;

const fn pair(name: &'static str) -> Pair {
    Pair {
        group: GROUP,
        name,
        clock: Clock::ThreadCpu,
        units_per_round: 1,
    }
}

pub(crate) fn bench(criterion: &mut Criterion<Ratio>, world: &World) {
    let body = world.runtime.block_on(world.bare_get("/v1/virtualServers"));
    let servers = hostapi::internal::virtual_server_list(&body).expect("the list normalises");
    assert_eq!(servers.len(), SERVERS, "the simulator's size gives 10,000");

    let facade = || hostapi::internal::virtual_server_list(black_box(&body)).unwrap();
    let raw = || serde_json::from_slice::<VirtualServerList>(black_box(&body)).unwrap();
    let value = || serde_json::from_slice::<serde_json::Value>(black_box(&body)).unwrap();
    let tracked = || {
        let mut deserializer = serde_json::Deserializer::from_slice(black_box(&body));
        let list: VirtualServerList = serde_path_to_error::deserialize(&mut deserializer).unwrap();
        list
    };

    let mut group = criterion.benchmark_group(GROUP);
    group.sample_size(10);
    FACADE_OVER_RAW.bench(&mut group, facade, raw);
    FACADE_OVER_VALUE.bench(&mut group, facade, value);
    TRACKED_OVER_RAW.bench(&mut group, tracked, raw);
    group.finish();
}
