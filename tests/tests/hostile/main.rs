//! The client against hostile and failing servers: redirects, echoed secrets, bodies
//! without end, transport failures told by their cause (answers lost after a write
//! among them), heads too large, numbers too large and repeated keys. Each test runs a small scripted server of its own on
//! 127.0.0.1 (see `server`).

mod bounded;
mod redirects;
mod secrets;
mod server;
mod transport;
mod untrusted;

use std::time::Duration;

use hostapi::client::RetryPolicy;
use hostapi::{Client, ClientBuilder};

/// The API key every test client sends (and no message may show).
pub const API_KEY: &str = "hostile-key-7Qz9vW2";
/// The CDN secret every test client signs with (and no message may show).
pub const CDN_SECRET: &str = "hostile-cdn-secret-3Kp8";
/// The CDN customer.
pub const CUSTOMER: &str = "C123456";

/// A client of all three interfaces pointed at `base_url` (the CDN under `/cdn`).
pub fn builder(base_url: &str) -> ClientBuilder {
    Client::builder()
        .base_url(base_url)
        .api_key(API_KEY)
        .cdn_base_url(format!("{base_url}/cdn"))
        .cdn_secret(CDN_SECRET)
        .cdn_customer(CUSTOMER)
        .timeout(Duration::from_secs(5))
}

/// The same, without retries.
pub fn client(base_url: &str) -> Client {
    builder(base_url)
        .retry_policy(RetryPolicy::never())
        .build()
        .expect("client builds")
}

/// Retries quickly (a few milliseconds between attempts).
pub fn retrying(base_url: &str, attempts: u32) -> Client {
    builder(base_url)
        .retry_policy(
            RetryPolicy::default()
                .max_attempts(attempts)
                .initial_backoff(Duration::from_millis(5))
                .max_backoff(Duration::from_millis(20)),
        )
        .build()
        .expect("client builds")
}
