//! Which proxy the client's requests go through.
//!
//! The environment's proxy (`HTTPS_PROXY`, else `ALL_PROXY`, in either letter case,
//! unless `NO_PROXY` names the host) is used only for an **https** destination that is
//! **not loopback**: through it the request travels in a TLS tunnel (`CONNECT`), so the
//! proxy sees the host name and nothing of the credentials. A loopback destination
//! (127.0.0.0/8, `::1`, `localhost`) is never proxied, as Go's rules (gh, kubectl) do;
//! and a plain-http destination, which only a loopback base URL may be, never is
//! either: through a proxy, `X-Svc-Auth` would reach it in clear. `HTTP_PROXY` is
//! therefore never used.
//!
//! The client only ever sends to its base URLs' hosts, so the choice is made once per
//! base URL when the client is built.

use std::net::IpAddr;

/// The proxy settings of the environment that the client reads.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ProxyEnv {
    /// `HTTPS_PROXY`, else `ALL_PROXY`.
    pub(crate) https: Option<String>,
    /// `NO_PROXY`: hosts never proxied.
    pub(crate) no_proxy: String,
}

impl ProxyEnv {
    /// The process's environment.
    pub(crate) fn from_env() -> Self {
        let var = |names: &[&str]| {
            names
                .iter()
                .find_map(|name| std::env::var(name).ok().filter(|v| !v.trim().is_empty()))
        };
        Self {
            https: var(&["HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"]),
            no_proxy: var(&["NO_PROXY", "no_proxy"]).unwrap_or_default(),
        }
    }

    /// The proxy for requests to `base` (a base URL the client was built with).
    pub(crate) fn proxy_for(&self, base: &url::Url) -> Option<String> {
        if base.scheme() != "https" || is_loopback(base) {
            return None;
        }
        let host = base.host()?;
        if no_proxy_names(&self.no_proxy, &host) {
            return None;
        }
        self.https.clone()
    }
}

/// Whether `url`'s host is a loopback host: 127.0.0.0/8, `::1`, `localhost` or a
/// name under `.localhost`.
pub(crate) fn is_loopback(url: &url::Url) -> bool {
    match url.host() {
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        Some(url::Host::Domain(name)) => {
            let name = name.trim_end_matches('.').to_ascii_lowercase();
            name == "localhost" || name.ends_with(".localhost")
        }
        None => false,
    }
}

/// Whether a `NO_PROXY` list names `host`: `*`; a domain, matching itself and the
/// names under it (a leading `.` or `*.` changes nothing); an address; an address
/// block (`10.0.0.0/8`).
fn no_proxy_names(list: &str, host: &url::Host<&str>) -> bool {
    list.split(',')
        .map(str::trim)
        .filter(|entry| !entry.is_empty())
        .any(|entry| {
            if entry == "*" {
                return true;
            }
            match host {
                url::Host::Domain(name) => {
                    let name = name.trim_end_matches('.').to_ascii_lowercase();
                    let entry = entry
                        .trim_start_matches("*.")
                        .trim_start_matches('.')
                        .trim_end_matches('.')
                        .to_ascii_lowercase();
                    !entry.is_empty()
                        && (name == entry
                            || name
                                .strip_suffix(&entry)
                                .is_some_and(|head| head.ends_with('.')))
                }
                url::Host::Ipv4(ip) => in_block(entry, IpAddr::V4(*ip)),
                url::Host::Ipv6(ip) => in_block(entry, IpAddr::V6(*ip)),
            }
        })
}

/// Whether `ip` is the address `entry`, or in the block `entry` (`addr/bits`).
fn in_block(entry: &str, ip: IpAddr) -> bool {
    let (address, bits) = match entry.split_once('/') {
        Some((address, bits)) => (address, bits.parse::<u32>().ok()),
        None => (entry, None),
    };
    let Ok(address) = address.trim_matches(['[', ']']).parse::<IpAddr>() else {
        return false;
    };
    match (address, ip) {
        (IpAddr::V4(block), IpAddr::V4(ip)) => {
            let bits = bits.unwrap_or(32).min(32);
            let mask = u32::MAX.checked_shl(32 - bits).unwrap_or(0);
            u32::from(block) & mask == u32::from(ip) & mask
        }
        (IpAddr::V6(block), IpAddr::V6(ip)) => {
            let bits = bits.unwrap_or(128).min(128);
            let mask = u128::MAX.checked_shl(128 - bits).unwrap_or(0);
            u128::from(block) & mask == u128::from(ip) & mask
        }
        _ => false,
    }
}

/// Sets the client's proxies: for each base URL, the environment's proxy when
/// [`ProxyEnv::proxy_for`] gives one; no proxy for anything else.
pub(crate) fn configure(
    builder: reqwest::ClientBuilder,
    env: &ProxyEnv,
    bases: &[&str],
) -> reqwest::ClientBuilder {
    // The origin of each base URL that goes through a proxy, and the proxy.
    let routes: Vec<(Origin, String)> = bases
        .iter()
        .filter_map(|base| url::Url::parse(base).ok())
        .filter_map(|base| {
            let proxy = env.proxy_for(&base)?;
            Some((origin(&base)?, proxy))
        })
        .collect();
    // No proxy at all, the system's included (reqwest reads the environment itself
    // otherwise, loopback and plain http included).
    let builder = builder.no_proxy();
    if routes.is_empty() {
        return builder;
    }
    builder.proxy(reqwest::Proxy::custom(move |url| {
        let to = origin(url)?;
        routes
            .iter()
            .find(|(origin, _)| *origin == to)
            .map(|(_, proxy)| proxy.clone())
    }))
}

/// A URL's scheme, host and port (known default included).
type Origin = (String, String, Option<u16>);

/// The [`Origin`] of `url`.
fn origin(url: &url::Url) -> Option<Origin> {
    Some((
        url.scheme().to_owned(),
        url.host_str()?.to_ascii_lowercase(),
        url.port_or_known_default(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(no_proxy: &str) -> ProxyEnv {
        ProxyEnv {
            https: Some("http://proxy.example:3128".to_owned()),
            no_proxy: no_proxy.to_owned(),
        }
    }

    fn proxied(env: &ProxyEnv, url: &str) -> bool {
        env.proxy_for(&url::Url::parse(url).unwrap()).is_some()
    }

    #[test]
    fn loopback_and_plain_http_are_never_proxied() {
        let env = env("");
        for url in [
            "http://127.0.0.1:8080",
            "https://127.0.0.1:8443",
            "http://127.1.2.3",
            "http://[::1]:80",
            "https://[::1]",
            "http://localhost:1",
            "https://LOCALHOST.",
            "https://api.localhost",
            // Plain http elsewhere cannot be configured; were it, it would not go
            // through a proxy in clear.
            "http://api.example.com",
        ] {
            assert!(!proxied(&env, url), "{url}");
        }
        assert!(proxied(&env, "https://api.example.com"));
        assert!(proxied(&env, "https://10.1.2.3"));
        assert!(!proxied(&ProxyEnv::default(), "https://api.example.com"));
    }

    #[test]
    fn no_proxy_names_hosts_domains_and_blocks() {
        assert!(!proxied(&env("*"), "https://api.example.com"));
        assert!(!proxied(&env("example.com"), "https://api.example.com"));
        assert!(!proxied(&env(" .Example.com "), "https://example.com"));
        assert!(!proxied(
            &env("x, *.example.com"),
            "https://a.b.example.com"
        ));
        assert!(proxied(&env("example.com"), "https://notexample.com"));
        assert!(!proxied(&env("10.0.0.0/8"), "https://10.9.8.7"));
        assert!(proxied(&env("10.0.0.0/8"), "https://11.0.0.1"));
        assert!(!proxied(&env("192.0.2.7"), "https://192.0.2.7:8443"));
        assert!(!proxied(&env("2001:db8::/32"), "https://[2001:db8::1]"));
        assert!(proxied(&env("2001:db8::/32"), "https://[2001:db9::1]"));
        assert!(proxied(&env("10.0.0.0/8"), "https://[2001:db8::1]"));
    }
}
