//! Every request goes to its operation's path, or is not sent.
//!
//! `hostapi-codegen` names each generated builder's operation (operationId, method,
//! path template) and lists them per raw crate (`OPERATIONS`). After a request is
//! built — by a generated builder or by hand — and before anything is sent, its method
//! must be its operation's and its path must be the base URL's path followed by the
//! template: as many segments, every literal segment as written, and every parameter
//! one non-empty segment that is not `.` or `..` and does not decode to a `/`, `\` or
//! control character. URL parsing removes `.` and `..` segments (also written `%2e`),
//! which the segment count catches; an id can therefore never make a request reach
//! another path, whatever the server sent.

use crate::Error;

/// One operation of the three interfaces, as its spec names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Route {
    pub(crate) id: &'static str,
    pub(crate) method: &'static str,
    pub(crate) path: &'static str,
}

macro_rules! routes_of {
    ($($raw:ident),*) => {
        /// The operations named `operation` (the v1 and cloud interfaces share some
        /// names), from each raw crate's sorted table.
        fn named(operation: &str) -> impl Iterator<Item = Route> + '_ {
            std::iter::empty()
                $(.chain(find($raw::OPERATIONS, |o| o.id, operation).map(|o| Route {
                    id: o.id,
                    method: o.method,
                    path: o.path,
                })))*
        }

        /// Every operation of the three interfaces.
        #[cfg(any(test, feature = "internal"))]
        pub(crate) fn all() -> Vec<Route> {
            let mut all = Vec::new();
            $(all.extend($raw::OPERATIONS.iter().map(|o| Route {
                id: o.id,
                method: o.method,
                path: o.path,
            }));)*
            all
        }
    };
}

routes_of!(hostapi_raw_infra, hostapi_raw_cloud, hostapi_raw_cdn);

/// The entry of a table sorted by operationId with the id `operation`.
fn find<'t, T>(table: &'t [T], id: fn(&T) -> &str, operation: &str) -> Option<&'t T> {
    table
        .binary_search_by(|entry| id(entry).cmp(operation))
        .ok()
        .map(|at| &table[at])
}

/// Whether `operation` is an operationId of one of the specs.
#[cfg(test)]
pub(crate) fn exists(operation: &str) -> bool {
    named(operation).next().is_some()
}

/// The path of a base URL (`https://host/api` → `/api`; none → empty). The base URL
/// was checked when the client was built: no query, no fragment, no final `/`.
pub(crate) fn base_path(base_url: &str) -> &str {
    let after_scheme = base_url
        .find("://")
        .map_or(base_url, |at| &base_url[at + 3..]);
    after_scheme
        .find('/')
        .map_or("", |at| &after_scheme[at..])
        .trim_end_matches('/')
}

/// Checks that `request` is one of `operation`'s: its method, and its path the base
/// path then the template. The error names the operation and what is wrong; the
/// request is then not sent.
pub(crate) fn check(
    operation: &str,
    base_path: &str,
    request: &reqwest::Request,
) -> Result<(), Error> {
    let method = request.method().as_str();
    let path = request.url().path();
    let mut known = false;
    let mut why = String::new();
    for route in named(operation) {
        known = true;
        if route.method != method {
            why = format!("is {} {}, not {method}", route.method, route.path);
            continue;
        }
        match matches(route.path, base_path, path) {
            Ok(()) => return Ok(()),
            Err(reason) => why = format!("must go to {}: {reason}", route.path),
        }
    }
    if !known {
        return Err(Error::invalid(
            "request",
            format!("`{operation}` is not an operation of the specs; nothing was sent"),
        ));
    }
    Err(Error::invalid(
        "request",
        format!(
            "`{operation}` {why} (the request was for `{}`); nothing was sent",
            path.escape_debug()
        ),
    ))
}

/// Whether `path` is `base` then `template`; `Err` says where it is not.
fn matches(template: &str, base: &str, path: &str) -> Result<(), String> {
    let Some(rest) = path.strip_prefix(base) else {
        return Err(format!("it is not under the base path `{base}`"));
    };
    let mut wanted = template.split('/');
    let mut given = rest.split('/');
    let mut position = 0usize;
    loop {
        match (wanted.next(), given.next()) {
            (None, None) => return Ok(()),
            (Some(_), None) | (None, Some(_)) => {
                return Err(format!(
                    "it has {} segments, the template {}",
                    rest.split('/').count() - 1,
                    template.split('/').count() - 1
                ));
            }
            (Some(literal), Some(segment)) if !literal.starts_with('{') => {
                if literal != segment {
                    return Err(format!("segment {position} is not `{literal}`"));
                }
            }
            (Some(parameter), Some(segment)) => {
                if let Err(reason) = parameter_segment(segment) {
                    return Err(format!("segment {position} ({parameter}) {reason}"));
                }
            }
        }
        position += 1;
    }
}

/// A parameter's segment: not empty, not `.` or `..` (in any spelling), and nothing
/// that a server could read as a separator or a control character once decoded.
fn parameter_segment(segment: &str) -> Result<(), &'static str> {
    if segment.is_empty() {
        return Err("is empty");
    }
    let decoded = percent_encoding::percent_decode_str(segment).collect::<Vec<u8>>();
    if decoded == b"." || decoded == b".." {
        return Err("is `.` or `..`");
    }
    if decoded
        .iter()
        .any(|b| matches!(b, b'/' | b'\\') || b.is_ascii_control())
    {
        return Err("holds a `/`, `\\` or a control character");
    }
    Ok(())
}

/// `text` read as every typed id is read from the wire; each id that passes its rule
/// is put in every parameter of every operation, the request built as the generated
/// builders build it (and by a few generated builders themselves), and checked. Answers
/// the number of requests built, or what went wrong: an id that passed its rule but
/// made a request off its template, or a request the check let through off its
/// template. (The fuzz target `request_paths` drives it.)
#[cfg(any(test, feature = "internal"))]
pub(crate) fn wire_id_requests(text: &str) -> Result<usize, String> {
    use crate::model::WireId;
    use crate::read::Json;
    use crate::read::fields::id_of;

    macro_rules! accepted {
        ($id:expr, $($ty:ident),*) => {
            [$(<crate::$ty as WireId>::from_wire($id.clone()).ok().map(|id| id.to_string())),*]
        };
    }
    let Ok(id) = id_of(&Json::String(std::borrow::Cow::Borrowed(text))) else {
        return Ok(0);
    };
    let ids = accepted!(
        id,
        VirtualServerId,
        BareMetalId,
        PrivateRackId,
        PrivateNetworkId,
        DnsRecordId,
        OperatingSystemId,
        ControlPanelId,
        RescueImageId,
        JobId,
        CloudServerId,
        PrivateCloudId,
        CustomerNumber,
        ZoneId,
        OriginId,
        PurgeJobId,
        CdnCustomerId,
        DomainName,
        MacAddress,
        Username
    );
    let base = "http://127.0.0.1:9/base";
    let mut built = 0;
    for id in ids.iter().flatten() {
        for route in all() {
            let path: Vec<String> = route
                .path
                .split('/')
                .map(|segment| {
                    if segment.starts_with('{') {
                        progenitor_client::encode_path(id)
                    } else {
                        segment.to_owned()
                    }
                })
                .collect();
            let url = reqwest::Url::parse(&format!("{base}{}", path.join("/")))
                .map_err(|e| format!("{route:?} with {id:?}: not a URL: {e}"))?;
            let method = reqwest::Method::from_bytes(route.method.as_bytes())
                .map_err(|e| format!("{route:?}: {e}"))?;
            let request = reqwest::Request::new(method, url);
            on_template(route.id, base_path(base), &request, id)?;
            built += 1;
        }
        let client = fuzz_client(base)?;
        let (infra, cloud) = (&client.inner.infra, &client.inner.cloud);
        let generated = [
            (
                "getBareMetal",
                infra.get_bare_metal().bare_metal_id(id.as_str()).request(),
            ),
            (
                "deleteDnsRecord",
                infra
                    .delete_dns_record()
                    .domainname(id.as_str())
                    .record_id(id.as_str())
                    .request(),
            ),
            (
                "getVirtualServerCredential",
                cloud
                    .get_virtual_server_credential()
                    .id(id.as_str())
                    .credential_type("OPERATING_SYSTEM")
                    .username(id.as_str())
                    .request(),
            ),
        ];
        for (operation, request) in generated {
            let request = request.map_err(|e| format!("{operation} with {id:?}: {e}"))?;
            on_template(operation, base_path(base), &request, id)?;
            built += 1;
        }
    }
    Ok(built)
}

/// The client whose generated builders [`wire_id_requests`] uses (made once: its TLS
/// setup is the facade's).
#[cfg(any(test, feature = "internal"))]
fn fuzz_client(base: &str) -> Result<&'static crate::Client, String> {
    static CLIENT: std::sync::OnceLock<Result<crate::Client, String>> = std::sync::OnceLock::new();
    CLIENT
        .get_or_init(|| {
            crate::Client::builder()
                .base_url(base)
                .api_key("k")
                .build()
                .map_err(|e| e.to_string())
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// A request built from an id that passed its rule: the check lets it through, and
/// its path has as many segments as the template.
#[cfg(any(test, feature = "internal"))]
fn on_template(
    operation: &str,
    base: &str,
    request: &reqwest::Request,
    id: &str,
) -> Result<(), String> {
    check(operation, base, request).map_err(|e| {
        format!("{operation}: an id that passed its rule ({id:?}) was refused: {e}")
    })?;
    let segments = request.url().path().split('/').count();
    let wanted = named(operation)
        .filter(|route| route.method == request.method().as_str())
        .map(|route| base.split('/').count() + route.path.split('/').count() - 1)
        .collect::<Vec<_>>();
    if !wanted.contains(&segments) {
        return Err(format!(
            "{operation}: {} has {segments} segments, the template {wanted:?}",
            request.url().path()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a server (or a careless caller) may put where an id goes.
    pub(crate) const HOSTILE: &[&str] = &[
        "..",
        ".",
        "",
        "7/../../x",
        "%2e%2e",
        "%2E",
        "a?b",
        "a#b",
        "a\nb",
        "a\\b",
        "..%2f",
    ];

    /// A request for `route` with every parameter `value`, built as the generated
    /// builders build it (`encode_path`, then URL parsing).
    fn built(route: &Route, base: &str, value: &str) -> Option<reqwest::Request> {
        let path: Vec<String> = route
            .path
            .split('/')
            .map(|segment| {
                if segment.starts_with('{') {
                    progenitor_client::encode_path(value)
                } else {
                    segment.to_owned()
                }
            })
            .collect();
        let url = reqwest::Url::parse(&format!("{base}{}", path.join("/"))).ok()?;
        let method = reqwest::Method::from_bytes(route.method.as_bytes()).ok()?;
        Some(reqwest::Request::new(method, url))
    }

    /// For every operation of the specs and every hostile value in every parameter:
    /// the request is refused, or its path is the template with the value as one
    /// segment (`?`, `#`, `/` percent-encoded by the builder).
    #[test]
    fn no_hostile_value_takes_any_operation_off_its_template() {
        let routes = all();
        assert!(routes.len() > 70, "{} operations", routes.len());
        for base in ["http://127.0.0.1:9", "http://127.0.0.1:9/api"] {
            for route in &routes {
                for value in HOSTILE {
                    let Some(request) = built(route, base, value) else {
                        continue;
                    };
                    let outcome = check(route.id, base_path(base), &request);
                    let path = request.url().path();
                    let parameters = route.path.matches('{').count();
                    if parameters == 0 {
                        assert!(outcome.is_ok(), "{} {path}: {outcome:?}", route.id);
                        continue;
                    }
                    match outcome {
                        Ok(()) => {
                            // Let through: each parameter is one segment, the rest as
                            // written.
                            let segments = path.split('/').count();
                            let wanted = format!("{}{}", base_path(base), route.path);
                            assert_eq!(segments, wanted.split('/').count(), "{path}");
                            assert!(!matches!(*value, ".." | "." | ""), "{path}");
                        }
                        Err(Error::InvalidInput { argument, reason }) => {
                            assert_eq!(argument, "request");
                            assert!(reason.contains(route.id), "{reason}");
                        }
                        Err(other) => panic!("{other:?}"),
                    }
                }
                let good = built(route, base, "1001").expect("a request");
                let outcome = check(route.id, base_path(base), &good);
                assert!(outcome.is_ok(), "{} {}: {outcome:?}", route.id, good.url());
            }
        }
    }

    #[test]
    fn the_fuzz_entry_builds_every_operation_for_a_good_id() {
        let routes = all().len();
        // "1001" is a number, a token, a UUID-like token and a user name.
        let built = wire_id_requests("1001").expect("on its templates");
        assert!(built >= routes * 5, "{built} of {routes} operations");
        for value in HOSTILE {
            assert_eq!(wire_id_requests(value), Ok(0), "{value:?}");
        }
        // A domain name and a MAC address travel too.
        assert!(wire_id_requests("acme-1.com").expect("on its templates") > 0);
        assert!(wire_id_requests("00:1a:2b:3c:4d:5e").expect("on its templates") > 0);
    }

    /// Every `.call("name", …)` of the facade names an operation of the specs, and,
    /// where the closure calls a generated builder, the builder of that operation.
    #[test]
    fn every_call_site_names_its_builders_operation() {
        fn files(dir: &std::path::Path, found: &mut Vec<std::path::PathBuf>) {
            for entry in std::fs::read_dir(dir)
                .expect("the source directory")
                .flatten()
            {
                let path = entry.path();
                if path.is_dir() {
                    files(&path, found);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    found.push(path);
                }
            }
        }
        let snake = |name: &str| {
            let mut snake = String::new();
            for c in name.chars() {
                if c.is_ascii_uppercase() {
                    snake.push('_');
                }
                snake.push(c.to_ascii_lowercase());
            }
            snake
        };
        let mut sources = Vec::new();
        files(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
            &mut sources,
        );
        let (mut names, mut builders) = (0, 0);
        for source in sources {
            if source.ends_with("transport/route.rs") {
                continue;
            }
            let text = std::fs::read_to_string(&source).expect("a source file");
            for opening in [".call(\"", ".call_cdn(\"", ".call_raw(\""] {
                for (at, _) in text.match_indices(opening) {
                    let rest = &text[at + opening.len()..];
                    let name = &rest[..rest.find('"').unwrap_or(0)];
                    assert!(
                        exists(name),
                        "{}: `{name}` is no operation",
                        source.display()
                    );
                    names += 1;
                    let after: String = rest
                        .chars()
                        .take(240)
                        .filter(|c| !c.is_whitespace())
                        .collect();
                    let builder = ["infra.", "cloud.", "cdn."].iter().find_map(|client| {
                        let start = after.find(client)? + client.len();
                        let end = after[start..].find("()")?;
                        Some(after[start..start + end].to_owned())
                    });
                    if let Some(builder) = builder {
                        assert_eq!(
                            builder,
                            snake(name),
                            "{}: `{name}` builds with {builder}()",
                            source.display()
                        );
                        builders += 1;
                    }
                }
            }
        }
        assert!(
            names > 70 && builders > 60,
            "{names} names, {builders} builders"
        );
    }

    #[test]
    fn dot_segments_and_wrong_methods_are_refused() {
        let base = "http://127.0.0.1:9";
        let request = |method: reqwest::Method, url: &str| {
            reqwest::Request::new(method, reqwest::Url::parse(url).expect("a URL"))
        };
        // `DELETE …/dnsRecords/..` parses as `DELETE /v1/domains/acme.com/`.
        let up = request(
            reqwest::Method::DELETE,
            &format!("{base}/v1/domains/acme.com/dnsRecords/.."),
        );
        assert_eq!(up.url().path(), "/v1/domains/acme.com/");
        assert!(check("deleteDnsRecord", "", &up).is_err());
        let collection = request(
            reqwest::Method::DELETE,
            &format!("{base}/v1/domains/acme.com/dnsRecords/%2e"),
        );
        assert!(check("deleteDnsRecord", "", &collection).is_err());
        let encoded = request(
            reqwest::Method::GET,
            &format!("{base}/v1/bareMetals/7%2F..%2F..%2Fx"),
        );
        assert!(check("getBareMetal", "", &encoded).is_err());
        let wrong_method = request(reqwest::Method::DELETE, &format!("{base}/v1/bareMetals/7"));
        assert!(check("getBareMetal", "", &wrong_method).is_err());
        let ok = request(reqwest::Method::GET, &format!("{base}/v1/bareMetals/7"));
        assert!(check("getBareMetal", "", &ok).is_ok());
        match check("getBareMetals", "", &ok) {
            Err(Error::InvalidInput { reason, .. }) => {
                assert!(reason.contains("not an operation"), "{reason}")
            }
            other => panic!("{other:?}"),
        }
        // The v1 and cloud interfaces share names: either template is the operation's.
        let cloud = request(
            reqwest::Method::GET,
            &format!("{base}/cloud/v2/virtualServers/c90e8a9c"),
        );
        assert!(check("getVirtualServer", "", &cloud).is_ok());
        assert_eq!(base_path("https://h.example/api"), "/api");
        assert_eq!(base_path("https://h.example"), "");
    }
}
