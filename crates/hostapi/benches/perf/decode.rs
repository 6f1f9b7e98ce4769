//! Decoding and normalising the 10,000-item v1 virtual server list (every quirk of the
//! simulator's dataset: both `ipAddresses` shapes, `Id`/`id`/no `type`, the four
//! `endDate` spellings…) against decoding the same bytes into the generated raw types,
//! and into `serde_json::Value`. Timed in the thread's CPU time.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, SamplingMode, Throughput};
use hostapi_raw_infra::types::VirtualServerList;

use crate::cpu_time::ThreadCpuTime;
use crate::setup::World;

pub(crate) const GROUP: &str = "decode_v1_virtual_servers_10k";
pub(crate) const FACADE: &str = "facade_decode_normalise";
pub(crate) const RAW: &str = "serde_raw_types";
pub(crate) const VALUE: &str = "serde_value";
pub(crate) const TRACKED: &str = "serde_path_tracked_raw_types";

/// The number of servers the list must hold.
const SERVERS: usize = 10_000;

pub(crate) fn bench(criterion: &mut Criterion<ThreadCpuTime>, world: &World) {
    let body = world.runtime.block_on(world.bare_get("/v1/virtualServers"));
    let servers = hostapi::internal::virtual_server_list(&body).expect("the list normalises");
    assert_eq!(servers.len(), SERVERS, "the simulator's size gives 10,000");

    let mut group = criterion.benchmark_group(GROUP);
    group
        .throughput(Throughput::Bytes(body.len() as u64))
        .sampling_mode(SamplingMode::Flat)
        .sample_size(20)
        .measurement_time(Duration::from_secs(8));
    group.bench_function(FACADE, |b| {
        b.iter(|| hostapi::internal::virtual_server_list(black_box(&body)).unwrap())
    });
    group.bench_function(RAW, |b| {
        b.iter(|| serde_json::from_slice::<VirtualServerList>(black_box(&body)).unwrap())
    });
    // What the entry point's decode alone costs: it tracks the JSON path of every
    // value (for its error messages), which the generated client's decode does not.
    group.bench_function(TRACKED, |b| {
        b.iter(|| {
            let mut deserializer = serde_json::Deserializer::from_slice(black_box(&body));
            let list: VirtualServerList =
                serde_path_to_error::deserialize(&mut deserializer).unwrap();
            list
        })
    });
    group.bench_function(VALUE, |b| {
        b.iter(|| serde_json::from_slice::<serde_json::Value>(black_box(&body)).unwrap())
    });
    group.finish();
}
