//! `--sandbox`: the embedded simulator of the three APIs, started in-process on
//! 127.0.0.1 for the duration of one command.

use hostapi::Client;
use hostapi_sim::{Sim, SimConfig, SimError};

use crate::failure::{API, Failure};

/// The seed of the sandbox's data: the same ids every run, so examples work.
const SEED: u64 = 1;

/// Starts the simulator and a client pointed at it. Keep the `Sim` alive while the
/// client is used: dropping it stops the server.
pub(crate) async fn start(time_scale: f64) -> Result<(Sim, Client), Failure> {
    let config = SimConfig::default()
        .with_seed(SEED)
        .with_time_scale(time_scale);
    let sim = Sim::start(config).await.map_err(|e| match e {
        SimError::Config(reason) => Failure::usage(format!("cannot start the sandbox: {reason}")),
        other => Failure::new(API, format!("cannot start the sandbox: {other}")),
    })?;
    let client = Client::builder()
        .base_url(sim.base_url())
        .api_key(sim.api_key())
        .cdn_base_url(sim.cdn_base_url())
        .cdn_secret(sim.cdn_secret())
        .cdn_customer(sim.cdn_customer())
        .build()
        .map_err(Failure::from)?;
    Ok((sim, client))
}
