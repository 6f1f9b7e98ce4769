//! Secret hygiene: with distinctive values for the API key, the CDN secret and every
//! password the services hand out, none of them appears in `Debug` or `Display` of the
//! client or its builder, in any returned value (unless exposed on purpose), in any
//! error (whatever stage the call failed at), in everything logged at TRACE level, or
//! in a panic message. Nor does a CDN signature appear in the facade's logs or errors.

use std::io::Write;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use hostapi::cdn::{NewOrigin, OriginUpdate};
use hostapi::client::RetryPolicy;
use hostapi::cloud::CredentialType;
use hostapi::types::{BareMetalId, CustomerNumber, expose_secrets};
use hostapi::{Client, Error, WaitOptions};
use hostapi_sim::{Sim, SimConfig};
use httpmock::Method::GET;
use httpmock::MockServer;

const API_KEY: &str = "APIKEY-distinct-7f3a9c";
const CDN_SECRET: &str = "CDNSECRET-distinct-4b2e81";
const WRONG_KEY: &str = "WRONGKEY-distinct-51d0aa";
const ORIGIN_PASSWORD: &str = "ORIGINPW-distinct-93c7e2";
const LOCK: &str = "LOCK-distinct-0c4d11";
const ROOT_PASSWORD: &str = "ROOTPW-distinct-2aa8f0";

/// Everything logged, at every level, by every crate (the `log` records of the HTTP
/// stack included), since the first call of this function.
fn captured_logs() -> Arc<Mutex<Vec<u8>>> {
    static LOGS: OnceLock<Arc<Mutex<Vec<u8>>>> = OnceLock::new();
    LOGS.get_or_init(|| {
        let logs = Arc::new(Mutex::new(Vec::new()));
        let sink = logs.clone();
        tracing_subscriber::fmt()
            .with_max_level(tracing::Level::TRACE)
            .with_ansi(false)
            .with_writer(move || Sink(sink.clone()))
            .try_init()
            .expect("the only subscriber of this test binary");
        logs
    })
    .clone()
}

struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The secrets a check looks for, each long enough that finding it means a leak.
#[derive(Default)]
struct Secrets(Vec<String>);

impl Secrets {
    fn add(&mut self, secret: &str) {
        assert!(secret.len() >= 8, "too short to look for: {secret:?}");
        self.0.push(secret.to_owned());
    }

    /// Fails when `text` holds any secret; `what` says where the text came from.
    fn assert_absent(&self, what: &str, text: &str) {
        for secret in &self.0 {
            assert!(
                !text.contains(secret.as_str()),
                "{what} shows {secret}: {text}"
            );
        }
    }

    /// `Debug`, pretty `Debug` and the JSON serialisation of a value.
    fn assert_hidden<T: std::fmt::Debug + serde::Serialize>(&self, what: &str, value: &T) {
        self.assert_absent(what, &format!("{value:?}"));
        self.assert_absent(what, &format!("{value:#?}"));
        self.assert_absent(what, &serde_json::to_string(value).unwrap());
    }

    /// `Display`, `Debug` and the source chain of an error.
    fn assert_error_hidden(&self, what: &str, error: &Error) {
        let mut shown = format!("{error} {error:?} {error:#?}");
        let mut source = std::error::Error::source(error);
        while let Some(cause) = source {
            shown.push_str(&format!(" {cause} {cause:?}"));
            source = cause.source();
        }
        self.assert_absent(what, &shown);
        assert!(
            !has_signature(&shown),
            "{what} shows a CDN signature: {shown}"
        );
    }
}

/// Whether `text` holds 40 hex digits in a row (a SHA-1 signature).
fn has_signature(text: &str) -> bool {
    text.as_bytes()
        .split(|b| !b.is_ascii_hexdigit())
        .any(|run| run.len() >= 40)
}

fn sim_client(sim: &Sim, api_key: &str, cdn_secret: &str) -> Client {
    hostapi_tests::sim_client_builder(sim, api_key, cdn_secret)
        .retry_policy(
            RetryPolicy::default()
                .max_attempts(2)
                .initial_backoff(Duration::from_millis(1))
                .max_backoff(Duration::from_millis(2))
                .deadline(Duration::from_secs(10)),
        )
        .build()
        .expect("client builds")
}

#[tokio::test]
async fn no_secret_leaks_anywhere() {
    let logs = captured_logs();
    let sim = Sim::start(SimConfig {
        seed: 5,
        time_scale: 1000.0,
        api_key: Some(API_KEY.to_owned()),
        cdn_secret: Some(CDN_SECRET.to_owned()),
        ..SimConfig::default()
    })
    .await
    .expect("the simulator starts");
    let mut secrets = Secrets::default();
    for secret in [
        API_KEY,
        CDN_SECRET,
        WRONG_KEY,
        ORIGIN_PASSWORD,
        LOCK,
        ROOT_PASSWORD,
    ] {
        secrets.add(secret);
    }

    // The builder and the client.
    let builder = Client::builder()
        .api_key(API_KEY)
        .cdn_secret(CDN_SECRET)
        .base_url(sim.base_url());
    secrets.assert_absent("the builder", &format!("{builder:?} {builder:#?}"));
    let client = sim_client(&sim, API_KEY, CDN_SECRET);
    secrets.assert_absent("the client", &format!("{client:?} {client:#?}"));

    // Every call that answers a secret; each value is checked hidden, and exposed on
    // request (so the checks can fail).
    let server = BareMetalId::from(20001u32);
    let passwords = client
        .bare_metals()
        .rescue_and_wait(
            &server,
            &hostapi::types::RescueImageId::from(121u32),
            &WaitOptions::new()
                .interval(WaitOptions::MIN_INTERVAL)
                .timeout(Duration::from_secs(10)),
        )
        .await
        .unwrap();
    let root = passwords
        .root_password
        .as_ref()
        .expect("a root password")
        .expose()
        .to_owned();
    let rescue = passwords
        .rescue_mode_password
        .as_ref()
        .expect("a rescue password")
        .expose()
        .to_owned();
    secrets.add(&root);
    secrets.add(&rescue);

    let cloud = client.cloud_servers().list().await.unwrap();
    let cloud_id = cloud[0].id.clone();
    let users = client
        .cloud_servers()
        .credentials(&cloud_id)
        .list(CredentialType::OperatingSystem)
        .await
        .unwrap();
    let credential = client
        .cloud_servers()
        .credentials(&cloud_id)
        .get(CredentialType::OperatingSystem, &users[0].username)
        .await
        .unwrap();
    secrets.add(credential.password.as_ref().expect("a password").expose());

    let customer = client.cdn().customers().get().await.unwrap();
    assert_eq!(
        customer.api_secret.as_ref().map(|s| s.expose()),
        Some(CDN_SECRET)
    );
    // The simulator's reseller has three sub-customers, numbered after it.
    let mut subs = Vec::new();
    for k in 1..=3 {
        let number = CustomerNumber::new(format!("{}{k:02}", sim.cdn_customer())).unwrap();
        subs.push(client.cdn().sub_customers().get(&number).await.unwrap());
    }
    for sub in &subs {
        secrets.add(
            sub.api_secret
                .as_ref()
                .expect("a sub-customer secret")
                .expose(),
        );
    }
    let created = client
        .cdn()
        .origins()
        .create(
            &NewOrigin::new("assets", "https://assets.example.com")
                .basic_auth("user", ORIGIN_PASSWORD),
        )
        .await
        .unwrap();
    client
        .cdn()
        .origins()
        .update(
            &created.id,
            &OriginUpdate::new().basic_auth("user", ORIGIN_PASSWORD),
        )
        .await
        .unwrap();
    let origins = client.cdn().origins().list().await.unwrap();
    for origin in &origins {
        if let Some(password) = &origin.basic_auth_password {
            secrets.add(password.expose());
        }
    }
    let origin = client.cdn().origins().get(&created.id).await.unwrap();

    secrets.assert_hidden("passwords", &passwords);
    secrets.assert_hidden("cloud servers", &cloud);
    secrets.assert_hidden("credential", &credential);
    secrets.assert_hidden("customer", &customer);
    secrets.assert_hidden("sub-customers", &subs);
    secrets.assert_hidden("origins", &origins);
    secrets.assert_hidden("created origin", &created);
    secrets.assert_hidden("origin", &origin);
    let exposed =
        expose_secrets(|| serde_json::to_string(&(&passwords, &credential, &customer)).unwrap());
    for shown in [root.as_str(), rescue.as_str(), CDN_SECRET] {
        assert!(exposed.contains(shown), "expose_secrets shows {shown}");
    }
    let locked = combination_lock().await;
    assert_eq!(
        locked
            .location
            .as_ref()
            .and_then(|l| l.combination_lock.as_ref())
            .map(|s| s.expose()),
        Some(LOCK)
    );
    secrets.assert_hidden("bare metal", &locked);

    // Errors, at every stage a call can fail.
    for (what, error) in failures(&sim).await {
        secrets.assert_error_hidden(what, &error);
    }

    // Panic messages of code that unwraps a failed call or compares returned values.
    let messages = Arc::new(Mutex::new(Vec::<String>::new()));
    let seen = messages.clone();
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        seen.lock().unwrap().push(info.to_string())
    }));
    let failed = client
        .bare_metals()
        .root_password(&BareMetalId::from(1u32))
        .await;
    assert!(failed.is_err());
    let _ = catch_unwind(AssertUnwindSafe(|| failed.unwrap()));
    let _ = catch_unwind(AssertUnwindSafe(|| assert_eq!(Some(&passwords), None)));
    let _ = catch_unwind(AssertUnwindSafe(|| {
        panic!("{client:?} {credential:?} {customer:#?}")
    }));
    std::panic::set_hook(previous);
    let messages = messages.lock().unwrap().join("\n");
    assert!(
        messages.contains("root_password"),
        "the hook saw the panics: {messages}"
    );
    secrets.assert_absent("panic messages", &messages);

    // Everything logged: no secret anywhere; no signature in the facade's own lines
    // (the simulator's request log names the paths it received, signatures included).
    let logs = String::from_utf8_lossy(&logs.lock().unwrap()).into_owned();
    assert!(
        logs.contains("TRACE") || logs.contains("DEBUG"),
        "nothing captured"
    );
    assert!(
        logs.contains("hostapi: retrying"),
        "the retries were logged"
    );
    assert!(logs.contains("hostapi: call"), "the calls were logged");
    assert!(
        logs.contains("hostapi: a field could not be read"),
        "the forgiven field was logged"
    );
    secrets.assert_absent("the logs", &logs);
    for line in logs.lines().filter(|l| !l.contains("hostapi_sim")) {
        assert!(!has_signature(line), "a signature is logged: {line}");
    }
}

/// A bare metal server whose combination lock is set (the simulator's is empty).
async fn combination_lock() -> hostapi::bare_metal::BareMetalServer {
    let server = MockServer::start_async().await;
    let mut detail: serde_json::Value =
        serde_json::from_str(&hostapi_tests::fixture("bare-metal/detail.json")).unwrap();
    detail["bareMetal"]["location"]["combinationLock"] = LOCK.into();
    server
        .mock_async(|when, then| {
            when.method(GET).path("/v1/bareMetals/20001");
            then.status(200).json_body(detail);
        })
        .await;
    hostapi_tests::client(&server)
        .bare_metals()
        .get(&BareMetalId::from(20001u32))
        .await
        .unwrap()
}

/// One error of each stage: refused settings, no connection, a closed connection,
/// wrong credentials, answers that do not decode (with secrets in them), answers cut
/// short.
async fn failures(sim: &Sim) -> Vec<(&'static str, Error)> {
    let mut errors = Vec::new();
    for (what, builder) in [
        (
            "a key with a space",
            Client::builder().api_key(format!("{API_KEY} x")),
        ),
        (
            "a key with a line break",
            Client::builder().api_key(format!("{API_KEY}\n")),
        ),
        (
            "a secret with a tab",
            Client::builder().cdn_secret(format!("\t{CDN_SECRET}")),
        ),
    ] {
        errors.push((what, builder.build().unwrap_err()));
    }

    // Nothing listens: the API call and the signed CDN call both fail to connect.
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}", listener.local_addr().unwrap())
    };
    let nowhere = Client::builder()
        .base_url(&closed)
        .api_key(API_KEY)
        .cdn_base_url(format!("{closed}/cdn"))
        .cdn_secret(CDN_SECRET)
        .cdn_customer("C123456")
        .retry_policy(
            RetryPolicy::default()
                .max_attempts(2)
                .initial_backoff(Duration::from_millis(1))
                .max_backoff(Duration::from_millis(1))
                .deadline(Duration::from_secs(5)),
        )
        .build()
        .unwrap();
    errors.push(("no connection", nowhere.domains().list().await.unwrap_err()));
    errors.push((
        "no CDN connection",
        nowhere.cdn().origins().list().await.unwrap_err(),
    ));

    // Wrong credentials.
    let wrong = sim_client(sim, WRONG_KEY, "WRONGSECRET-distinct-77");
    errors.push(("a wrong key", wrong.domains().list().await.unwrap_err()));
    errors.push(("a wrong secret", wrong.cdn().acl().get().await.unwrap_err()));

    // Answers carrying secrets that do not decode, or end early.
    let server = MockServer::start_async().await;
    for (path, body) in [
        (
            "/v1/bareMetals/1/rootPassword",
            format!(r#"{{"rootPassword": "{ROOT_PASSWORD}", "rescueModePassword": [5]}}"#),
        ),
        (
            "/v1/bareMetals/2/rootPassword",
            format!(r#"{{"rootPassword": "{ROOT_PASSWORD}", "rescue"#),
        ),
        (
            "/v1/bareMetals/3/rootPassword",
            format!(r#"<html><p>{{"rootPassword":"{ROOT_PASSWORD}"}}</p>"#),
        ),
    ] {
        server
            .mock_async(|when, then| {
                when.method(GET).path(path);
                then.status(200).body(body);
            })
            .await;
    }
    server
        .mock_async(|when, then| {
            when.method(GET).path("/v1/bareMetals/4/rootPassword");
            then.status(500).body(format!(
                r#"{{"errorMessage": "oops", "password": "{ROOT_PASSWORD}"}}"#
            ));
        })
        .await;
    let mock = hostapi_tests::client(&server);
    // A value of the wrong type costs its field (with a warning in the logs, checked
    // with them); a strict client fails on it, with the body's excerpt in its error.
    let forgiven = mock
        .bare_metals()
        .root_password(&BareMetalId::from(1u32))
        .await
        .expect("a wrong type beside a password costs that field");
    assert!(forgiven.rescue_mode_password.is_none());
    assert_eq!(
        forgiven.root_password.as_ref().map(|p| p.expose()),
        Some(ROOT_PASSWORD)
    );
    let strict = hostapi_tests::strict_client(&server);
    let error = strict
        .bare_metals()
        .root_password(&BareMetalId::from(1u32))
        .await
        .unwrap_err();
    assert!(matches!(&error, Error::Decode(_)), "{error:?}");
    errors.push(("a wrong type beside a password, read strictly", error));
    for (what, id) in [
        ("a password answer cut short", 2u32),
        ("an HTML page holding a password", 3),
        ("an error answer echoing a password", 4),
    ] {
        let error = mock
            .bare_metals()
            .root_password(&BareMetalId::from(id))
            .await
            .unwrap_err();
        errors.push((what, error));
    }
    errors
}
