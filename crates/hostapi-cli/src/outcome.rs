//! Writes whose answer was lost. A write that fails with an unknown outcome may have
//! been applied (exit code 6). Where one read can tell, the command reads the resource
//! back and reports the truth instead: every such write goes through [`settle`].

use hostapi::{Confirmation, Error};

use crate::failure::{API, Failure};
use crate::untrusted;

/// Settles the result of a write. `written` is what the write answered; when it failed
/// with an unknown outcome, `read_back` reads the resource and says whether the change
/// is there (one of the facade's `confirm_*` methods).
///
/// - applied: says so on stderr and answers the resource, as on success (exit 0);
/// - not applied: fails with exit 1 (nothing changed; the command may be repeated);
/// - the read-back fails too: fails with the unknown outcome (exit 6).
///
/// Any other failure of the write is returned as it is, without a read-back.
pub(crate) async fn settle<T, F, Fut>(written: Result<T, Error>, read_back: F) -> Result<T, Failure>
where
    F: FnOnce() -> Fut,
    Fut: Future<Output = Result<Confirmation<T>, Error>>,
{
    let error = match written {
        Ok(value) => return Ok(value),
        Err(error) if error.is_outcome_unknown() => error,
        Err(error) => return Err(error.into()),
    };
    // The error's text is escaped already; escaped again, whatever its source.
    let cause = untrusted::line(&match &error {
        Error::OutcomeUnknown(unknown) => unknown.cause.message(),
        other => other.message(),
    })
    .into_owned();
    match read_back().await {
        Ok(confirmation) => match confirmation.applied() {
            Some(value) => {
                eprintln!("the answer was lost ({cause}); read back: applied");
                Ok(value)
            }
            None => {
                eprintln!("the answer was lost ({cause}); read back: not applied");
                Err(
                    Failure::new(API, format!("the change was not applied ({cause})"))
                        .hint("reading the resource back shows no change: run the command again"),
                )
            }
        },
        Err(read_error) => Err(Failure::from(error).hint(format!(
            "the change may have been applied, and reading it back failed too ({}): \
             check (e.g. with `get` or `list`) before repeating the command",
            read_error.message()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, Ordering};

    use hostapi::Client;
    use hostapi::types::DomainName;
    use hostapi_sim::{FaultConfig, FaultKind, FaultWeights, Sim, SimConfig};

    use super::*;
    use crate::failure::{NOT_FOUND, OUTCOME_UNKNOWN};

    /// A simulator whose every answer is garbled: its writes are applied, but their
    /// outcome is unknown to the client.
    async fn garbling() -> (Sim, Client) {
        let sim = Sim::start(SimConfig::default().with_seed(1).with_faults(FaultConfig {
            rate: 1.0,
            weights: FaultWeights::only(FaultKind::Malformed),
            ..FaultConfig::default()
        }))
        .await
        .expect("simulator");
        let client = Client::builder()
            .base_url(sim.base_url())
            .api_key(sim.api_key())
            .build()
            .expect("client");
        (sim, client)
    }

    /// A write whose answer was garbled.
    async fn lost(client: &Client) -> Error {
        let domain: DomainName = "acme-1.com".parse().unwrap();
        let error = client.domains().set_ttl(&domain, 3600).await.unwrap_err();
        assert!(error.is_outcome_unknown(), "{error}");
        error
    }

    #[tokio::test]
    async fn a_lost_answer_is_settled_by_reading_back() {
        let (_sim, client) = garbling().await;

        let applied = settle(Err::<u32, _>(lost(&client).await), || async {
            Ok(Confirmation::Applied(7))
        })
        .await;
        assert_eq!(applied.unwrap(), 7);

        let not_applied = settle(Err::<u32, _>(lost(&client).await), || async {
            Ok(Confirmation::NotApplied)
        })
        .await
        .unwrap_err();
        assert_eq!(not_applied.code, API);
        assert!(
            not_applied.message.contains("not applied"),
            "{not_applied:?}"
        );

        let unreadable = settle(Err::<u32, _>(lost(&client).await), || async {
            Err(Error::InvalidInput {
                argument: "id".into(),
                reason: "the read-back failed".into(),
            })
        })
        .await
        .unwrap_err();
        assert_eq!(unreadable.code, OUTCOME_UNKNOWN);
        let hint = unreadable.hint.unwrap_or_default();
        assert!(hint.contains("may have been applied"), "{hint}");
        assert!(hint.contains("the read-back failed"), "{hint}");
    }

    #[tokio::test]
    async fn other_results_are_not_read_back() {
        let (_sim, client) = garbling().await;
        let read = AtomicBool::new(false);
        let read_back = || async {
            read.store(true, Ordering::Relaxed);
            Ok(Confirmation::Applied(1))
        };
        assert_eq!(settle(Ok(2), read_back).await.unwrap(), 2);
        // A failure that says nothing was applied keeps its own exit code.
        let missing: hostapi::types::VirtualServerId = "999999".parse().unwrap();
        let error = client.virtual_servers().get(&missing).await.unwrap_err();
        let failure = settle(Err::<u32, _>(error), read_back).await.unwrap_err();
        assert_eq!(failure.code, NOT_FOUND, "{failure:?}");
        assert!(!read.load(Ordering::Relaxed));
        // The unknown outcome of a write without a read-back exits 6, with a hint.
        let unknown = Failure::from(lost(&client).await);
        assert_eq!(unknown.code, OUTCOME_UNKNOWN);
        assert!(unknown.hint.unwrap_or_default().contains("check"));
    }
}
