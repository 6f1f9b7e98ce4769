//! Waiting for a cloud virtual server to reach a power state. The cloud interface has no
//! job endpoint: the waiter polls the server itself.

use super::{CloudServer, CloudServerState, CloudServers};
use crate::model::CloudServerId;
use crate::wait::{Poll, WaitOptions, poll_until};
use crate::{Error, validate};

impl CloudServers<'_> {
    /// Polls the server (`get`) until its state is `target` — RUNNING or STOPPED — and
    /// answers the server as last read.
    ///
    /// While waiting, the transitional states (STARTING, STOPPING) and the opposite
    /// state (STOPPED while waiting for RUNNING, RUNNING while waiting for STOPPED, as
    /// right after a power call) keep the wait going. The service's UNKNOWN state, a
    /// state the docs do not name (e.g. MAINTENANCE), or a record without a state ends
    /// it with [`Error::WaitFailed`]. The deadline ends it with [`Error::WaitTimeout`]
    /// naming the last state seen. A failed `get` ends it with that error.
    ///
    /// Fails with [`Error::InvalidInput`] naming `state` when `target` is neither
    /// RUNNING nor STOPPED (nothing is sent).
    ///
    /// A reboot passes through STOPPING and STARTING back to RUNNING: a server the
    /// service still reports RUNNING before the reboot begins ends the wait at once.
    pub async fn wait_for_state(
        &self,
        id: &CloudServerId,
        target: CloudServerState,
        options: WaitOptions,
    ) -> Result<CloudServer, Error> {
        validate::path_segment("id", id.as_str())?;
        if !matches!(
            target,
            CloudServerState::Running | CloudServerState::Stopped
        ) {
            return Err(Error::invalid(
                "state",
                format!(
                    "can only wait for RUNNING or STOPPED, not {}",
                    target.as_wire()
                ),
            ));
        }
        let what = format!("cloud server {id} to be {}", target.as_wire());
        poll_until(what, &options, || async {
            let server = self.get(id).await?;
            Ok(classify(&target, server))
        })
        .await
    }

    /// Powers a server on and waits until it is RUNNING (see
    /// [`CloudServers::wait_for_state`]).
    pub async fn power_on_and_wait(
        &self,
        id: &CloudServerId,
        options: WaitOptions,
    ) -> Result<CloudServer, Error> {
        self.power_on(id).await?;
        self.wait_for_state(id, CloudServerState::Running, options)
            .await
    }

    /// Powers a server off and waits until it is STOPPED (see
    /// [`CloudServers::wait_for_state`]).
    pub async fn power_off_and_wait(
        &self,
        id: &CloudServerId,
        options: WaitOptions,
    ) -> Result<CloudServer, Error> {
        self.power_off(id).await?;
        self.wait_for_state(id, CloudServerState::Stopped, options)
            .await
    }

    /// Reboots a server and waits until it is RUNNING again (see
    /// [`CloudServers::wait_for_state`], and its note on reboots).
    pub async fn reboot_and_wait(
        &self,
        id: &CloudServerId,
        options: WaitOptions,
    ) -> Result<CloudServer, Error> {
        self.reboot(id).await?;
        self.wait_for_state(id, CloudServerState::Running, options)
            .await
    }
}

/// What one poll means for a wait for `target` (RUNNING or STOPPED).
fn classify(target: &CloudServerState, server: CloudServer) -> Poll<CloudServer> {
    match &server.state {
        Some(state) if state == target => Poll::Done(server),
        Some(
            state @ (CloudServerState::Running
            | CloudServerState::Stopped
            | CloudServerState::Starting
            | CloudServerState::Stopping),
        ) => Poll::Pending(state.as_wire().to_owned()),
        Some(state) => Poll::Failed(state.as_wire().to_owned()),
        None => Poll::Failed("no state reported".to_owned()),
    }
}
