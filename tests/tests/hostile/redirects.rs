//! No redirect is followed: a 3xx is an error naming the status and the host, the
//! request never goes to the other host (with its credentials), and a write is not
//! turned into a GET that "succeeds" (its outcome is unknown: the service may have
//! done it before redirecting).

use hostapi::Error;

use super::server::{Act, Server, reply_with};
use super::{API_KEY, client};

/// A server that redirects everything to `target` with `status`.
async fn redirecting(status: u16, target: &str) -> Server {
    let location = target.to_owned();
    Server::start(move |_, seen| {
        reply_with(
            status,
            &[("location", &format!("{location}{}", seen.path))],
            "",
        )
    })
    .await
}

#[tokio::test]
async fn a_redirect_is_an_error_and_the_other_host_sees_nothing() {
    let elsewhere = Server::start(|_, _| super::server::reply(200, "application/json", "{}")).await;
    for status in [301, 302, 303, 307, 308] {
        let first = redirecting(status, &elsewhere.base_url).await;
        let client = client(&first.base_url);
        let error = client
            .bare_metals()
            .get(&"20001".parse().unwrap())
            .await
            .expect_err("a redirect is not an answer");
        match &error {
            Error::Redirect(redirect) => {
                assert_eq!(redirect.status, status);
                assert_eq!(redirect.location_host.as_deref(), Some("127.0.0.1"));
            }
            other => panic!("{status}: expected a redirect error, got {other:?}"),
        }
        assert!(error.to_string().contains(&status.to_string()), "{error}");
        assert_eq!(first.seen().len(), 1);
    }
    assert!(
        elsewhere.seen().is_empty(),
        "the redirect target was called: {:?}",
        elsewhere.seen()
    );
}

/// A write's redirect, as the call ends with it: its outcome is unknown (the service
/// may have done the write before redirecting), the redirect kept as the cause.
fn redirected_write<T: std::fmt::Debug>(result: Result<T, Error>) -> bool {
    matches!(&result, Err(Error::OutcomeUnknown(u)) if matches!(u.cause, Error::Redirect(_)))
}

#[tokio::test]
async fn writes_redirected_report_an_unknown_outcome_not_success() {
    let elsewhere = Server::start(|_, _| super::server::reply(200, "application/json", "{}")).await;
    let first = redirecting(303, &elsewhere.base_url).await;
    let client = client(&first.base_url);
    let domain: hostapi::types::DomainName = "example.com".parse().unwrap();
    let deleted = client
        .domains()
        .records(&domain)
        .delete(&"1001".parse().unwrap())
        .await;
    assert!(redirected_write(deleted));
    let ttl = client.domains().set_ttl(&domain, 600).await;
    assert!(redirected_write(ttl));
    let reference = client
        .bare_metals()
        .update(&"20001".parse().unwrap(), "x")
        .await;
    assert!(redirected_write(reference));
    let cycle = client
        .bare_metals()
        .power_cycle(&"20001".parse().unwrap())
        .await;
    assert!(redirected_write(cycle));
    assert!(elsewhere.seen().is_empty());
    // The one request each made went to the configured host, with its key.
    assert!(
        first
            .seen()
            .iter()
            .all(|s| s.header("x-svc-auth") == Some(API_KEY))
    );
}

#[tokio::test]
async fn no_referer_and_no_signature_leave_with_a_redirect() {
    let elsewhere = Server::start(|_, _| Act::Close).await;
    let first = redirecting(302, &elsewhere.base_url).await;
    let client = client(&first.base_url);
    let error = client
        .cdn()
        .origins()
        .get(&"101".parse().unwrap())
        .await
        .unwrap_err();
    assert!(matches!(error, Error::Redirect(_)), "{error:?}");
    assert!(elsewhere.seen().is_empty());
    assert!(first.seen().iter().all(|s| s.header("referer").is_none()));
    // The signature segment is the path's last; it appears in neither message.
    let signature = first.seen()[0].path.rsplit('/').next().unwrap().to_owned();
    assert_eq!(signature.len(), 40);
    assert!(!format!("{error} {error:?}").contains(&signature));
}
