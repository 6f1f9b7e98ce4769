//! Helpers shared by the simulator's tests: start a simulator, call it with
//! reqwest (every call bounded by a timeout), sign CDN paths.

#![allow(dead_code, unreachable_pub)]

use std::time::Duration;

use hostapi_sim::{Sim, SimConfig};
use reqwest::Method;
use serde_json::Value;

pub const TIMEOUT: Duration = Duration::from_secs(10);

/// A running simulator and a client for it.
pub struct T {
    pub sim: Sim,
    pub http: reqwest::Client,
}

/// A decoded answer.
#[derive(Debug)]
pub struct Ans {
    pub status: u16,
    pub headers: reqwest::header::HeaderMap,
    pub bytes: Vec<u8>,
    pub json: Value,
}

pub fn client() -> reqwest::Client {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder()
        .timeout(TIMEOUT)
        .build()
        .expect("client")
}

pub async fn start(cfg: SimConfig) -> T {
    let sim = tokio::time::timeout(TIMEOUT, Sim::start(cfg))
        .await
        .expect("start timed out")
        .expect("start");
    T {
        sim,
        http: client(),
    }
}

/// The default test simulator: seed 7, time scale 1000.
pub async fn fast() -> T {
    start(SimConfig {
        seed: 7,
        time_scale: 1000.0,
        ..Default::default()
    })
    .await
}

impl T {
    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.sim.base_url(), path)
    }

    /// A v1/cloud call with the API key; `form` as form fields.
    pub async fn call(&self, method: Method, path: &str, form: Option<&[(&str, &str)]>) -> Ans {
        self.call_h(method, path, form, &[]).await
    }

    pub async fn call_h(
        &self,
        method: Method,
        path: &str,
        form: Option<&[(&str, &str)]>,
        headers: &[(&str, &str)],
    ) -> Ans {
        let mut rb = self
            .http
            .request(method, self.url(path))
            .header("X-Svc-Auth", self.sim.api_key());
        for (k, v) in headers {
            rb = rb.header(*k, *v);
        }
        if let Some(f) = form {
            rb = rb.form(f);
        }
        read(rb.send().await.expect("send")).await
    }

    pub async fn get(&self, path: &str) -> Ans {
        self.call(Method::GET, path, None).await
    }

    pub async fn post(&self, path: &str, form: &[(&str, &str)]) -> Ans {
        self.call(Method::POST, path, Some(form)).await
    }

    pub async fn put(&self, path: &str, form: &[(&str, &str)]) -> Ans {
        self.call(Method::PUT, path, Some(form)).await
    }

    pub async fn delete(&self, path: &str) -> Ans {
        self.call(Method::DELETE, path, None).await
    }

    /// A signed CDN call; `body` is sent as given with `content_type`.
    pub async fn cdn(&self, method: Method, resource: &str, body: Option<(&str, String)>) -> Ans {
        let mut rb = self.http.request(method, self.sim.cdn_url(resource));
        if let Some((ct, b)) = body {
            rb = rb.header("Content-Type", ct).body(b);
        }
        read(rb.send().await.expect("send")).await
    }

    pub async fn cdn_form(&self, method: Method, resource: &str, form: &[(&str, &str)]) -> Ans {
        let body = serde_urlencoded(form);
        self.cdn(
            method,
            resource,
            Some(("application/x-www-form-urlencoded", body)),
        )
        .await
    }

    pub fn customer(&self) -> String {
        self.sim.cdn_customer().to_string()
    }

    /// Poll `path` until `pred` holds on its JSON (at most `limit`).
    pub async fn wait_for(
        &self,
        path: &str,
        limit: Duration,
        pred: impl Fn(&Value) -> bool,
    ) -> Value {
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            let a = self.get(path).await;
            if pred(&a.json) {
                return a.json;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "condition not reached on {path}: {}",
                a.json
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
}

pub fn serde_urlencoded(form: &[(&str, &str)]) -> String {
    form_urlencoded::Serializer::new(String::new())
        .extend_pairs(form.iter())
        .finish()
}

pub async fn read(r: reqwest::Response) -> Ans {
    let status = r.status().as_u16();
    let headers = r.headers().clone();
    let bytes = r.bytes().await.expect("body").to_vec();
    let json = if bytes.is_empty() {
        Value::Null
    } else {
        serde_json::from_slice(&bytes).unwrap_or(Value::Null)
    };
    Ans {
        status,
        headers,
        bytes,
        json,
    }
}

/// A number sent as a JSON number or a numeric string (the documents allow
/// both; which one is the simulator's per-seed choice).
pub fn int(v: &Value) -> Option<i64> {
    v.as_i64()
        .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
}

/// The value inside a one-element array, or the value itself (lease lists
/// and single leases come either way).
pub fn unwrap1(v: &Value) -> &Value {
    if v.is_array() { &v[0] } else { v }
}
