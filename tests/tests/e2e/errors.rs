//! Failures as the facade reports them: unknown ids (404), a wrong API key (403), a
//! wrong CDN secret (403), each a typed [`hostapi::Error::Status`] with the service's
//! error body parsed.

use hostapi::types::{BareMetalId, CloudServerId, DomainName, OriginId};
use serde_json::json;

use crate::support::{Env, service_error};

/// A credential the simulator does not know.
const WRONG: &str = "not-the-right-credential-0000";

/// 404 of unknown ids on each interface (and each error body style), 403 of a wrong
/// API key, 403 of a wrong CDN secret.
pub(crate) async fn error_answers(env: &Env) {
    let client = &env.client;

    // v1 bare metal: `errorCode` an integer on the wire.
    let missing = client
        .bare_metals()
        .get(&BareMetalId::from(29_999u32))
        .await;
    assert!(matches!(&missing, Err(e) if e.is_not_found() && !e.is_auth()));
    let error = service_error(missing, "getBareMetal", 404);
    assert_eq!(error.details, Some(json!({})));

    // The rest of v1: `errorCode` a string.
    let missing = client
        .domains()
        .get(&DomainName::new("nothing-here-404.com").expect("a domain name"))
        .await;
    let error = service_error(missing, "getDomain", 404);
    assert_eq!(error.details, Some(json!({})));

    // Cloud v2: details an array, and a reference naming the operation.
    let missing = client
        .cloud_servers()
        .get(&CloudServerId::new("no-such-server").expect("id"))
        .await;
    let error = service_error(missing, "getVirtualServer", 404);
    assert_eq!(error.details, Some(json!([])));
    assert_eq!(
        error.reference.as_deref(),
        Some("GET /cloud/v2/virtualServers/{id}")
    );

    // CDN.
    let missing = client.cdn().origins().get(&OriginId::from(999u32)).await;
    service_error(missing, "getOrigin", 404);

    // A wrong API key, on v1 and on cloud v2.
    let intruder = env.client_with(WRONG, env.sim.cdn_secret());
    let refused = intruder.virtual_servers().list().await;
    assert!(matches!(&refused, Err(e) if e.is_auth()), "{refused:?}");
    let shown = format!("{refused:?} {}", refused.as_ref().unwrap_err());
    assert!(!shown.contains(WRONG), "the key shows: {shown}");
    service_error(refused, "listVirtualServers", 403);
    let refused = intruder.cloud_servers().list().collect().await;
    service_error(refused, "listVirtualServers", 403);
    // The CDN credentials of that client are right.
    intruder
        .cdn()
        .acl()
        .get()
        .await
        .expect("the CDN secret is right");

    // A wrong CDN secret.
    let intruder = env.client_with(env.sim.api_key(), WRONG);
    let refused = intruder.cdn().acl().get().await;
    assert!(matches!(&refused, Err(e) if e.is_auth()), "{refused:?}");
    let shown = format!("{refused:?} {}", refused.as_ref().unwrap_err());
    assert!(!shown.contains(WRONG), "the secret shows: {shown}");
    service_error(refused, "getAcl", 403);
    let refused = intruder.cdn().origins().list().await;
    service_error(refused, "listOrigins", 403);
    // Its API key is right.
    intruder
        .domains()
        .list()
        .await
        .expect("the API key is right");
}
