//! Every request goes to its operation's path, or is not sent.
//!
//! `hostapi-codegen` makes each generated builder name its operation (operationId,
//! method, path template: `OperationBuilder::OPERATION`) and lists them per raw crate
//! (`OPERATIONS`); a call takes its operation from its builder's type. After a request
//! is built, and before anything is sent, its method
//! must be its operation's and its path must be the base URL's path followed by the
//! template: as many segments, every literal segment as written, and every parameter
//! one non-empty segment that is not `.` or `..` and does not decode to a `/`, `\` or
//! control character. URL parsing removes `.` and `..` segments (also written `%2e`),
//! which the segment count catches; an id can therefore never make a request reach
//! another path, whatever the server sent.

use hostapi_raw_operation::Operation;
#[cfg(any(test, feature = "internal"))]
use hostapi_raw_operation::{BuiltRequest, OperationBuilder};

use crate::Error;

/// Every operation of the three interfaces.
pub(crate) fn all() -> impl Iterator<Item = &'static Operation> {
    hostapi_raw_infra::OPERATIONS
        .iter()
        .chain(hostapi_raw_cloud::OPERATIONS)
        .chain(hostapi_raw_cdn::OPERATIONS)
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
    operation: &Operation,
    base_path: &str,
    request: &reqwest::Request,
) -> Result<(), Error> {
    let method = request.method().as_str();
    let path = request.url().path();
    let why = if operation.method != method {
        format!("is {} {}, not {method}", operation.method, operation.path)
    } else {
        match matches(operation.path, base_path, path) {
            Ok(()) => return Ok(()),
            Err(reason) => format!("must go to {}: {reason}", operation.path),
        }
    };
    Err(Error::invalid(
        "request",
        format!(
            "`{}` {why} (the request was for `{}`); nothing was sent",
            operation.id,
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
        for operation in all() {
            let request = request_for(operation, base, id)?;
            on_template(operation, base_path(base), &request, id)?;
            built += 1;
        }
        let client = fuzz_client(base)?;
        let (infra, cloud) = (&client.inner.infra, &client.inner.cloud);
        let generated = [
            made(infra.get_bare_metal().bare_metal_id(id.as_str())),
            made(
                infra
                    .delete_dns_record()
                    .domainname(id.as_str())
                    .record_id(id.as_str()),
            ),
            made(
                cloud
                    .get_virtual_server_credential()
                    .id(id.as_str())
                    .credential_type("OPERATING_SYSTEM")
                    .username(id.as_str()),
            ),
        ];
        for (operation, request) in generated {
            let request = request.map_err(|e| format!("{} with {id:?}: {e}", operation.id))?;
            on_template(operation, base_path(base), &request, id)?;
            built += 1;
        }
    }
    Ok(built)
}

/// A builder's operation and request.
#[cfg(any(test, feature = "internal"))]
fn made<B: OperationBuilder>(builder: B) -> (&'static Operation, BuiltRequest) {
    (&B::OPERATION, builder.request())
}

/// A request for `operation` with every parameter `value`, built as the generated
/// builders build it (`encode_path`, then URL parsing).
#[cfg(any(test, feature = "internal"))]
fn request_for(operation: &Operation, base: &str, value: &str) -> Result<reqwest::Request, String> {
    let path: Vec<String> = operation
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
    let url = reqwest::Url::parse(&format!("{base}{}", path.join("/")))
        .map_err(|e| format!("{operation:?} with {value:?}: not a URL: {e}"))?;
    let method = reqwest::Method::from_bytes(operation.method.as_bytes())
        .map_err(|e| format!("{operation:?}: {e}"))?;
    Ok(reqwest::Request::new(method, url))
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
    operation: &Operation,
    base: &str,
    request: &reqwest::Request,
    id: &str,
) -> Result<(), String> {
    let name = operation.id;
    check(operation, base, request)
        .map_err(|e| format!("{name}: an id that passed its rule ({id:?}) was refused: {e}"))?;
    let segments = request.url().path().split('/').count();
    let wanted = base.split('/').count() + operation.path.split('/').count() - 1;
    if segments != wanted {
        return Err(format!(
            "{name}: {} has {segments} segments, the template {wanted}",
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

    fn built(operation: &Operation, base: &str, value: &str) -> Option<reqwest::Request> {
        request_for(operation, base, value).ok()
    }

    /// The v1 operation `id`.
    fn infra(id: &str) -> &'static Operation {
        hostapi_raw_infra::OPERATIONS
            .iter()
            .find(|operation| operation.id == id)
            .expect("an operation of the v1 spec")
    }

    /// For every operation of the specs and every hostile value in every parameter:
    /// the request is refused, or its path is the template with the value as one
    /// segment (`?`, `#`, `/` percent-encoded by the builder).
    #[test]
    fn no_hostile_value_takes_any_operation_off_its_template() {
        let routes: Vec<&Operation> = all().collect();
        assert!(routes.len() > 70, "{} operations", routes.len());
        for base in ["http://127.0.0.1:9", "http://127.0.0.1:9/api"] {
            for route in routes.iter().copied() {
                for value in HOSTILE {
                    let Some(request) = built(route, base, value) else {
                        continue;
                    };
                    let outcome = check(route, base_path(base), &request);
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
                        Err(Error::InvalidInput {
                            argument, reason, ..
                        }) => {
                            assert_eq!(argument, "request");
                            assert!(reason.contains(route.id), "{reason}");
                        }
                        Err(other) => panic!("{other:?}"),
                    }
                }
                let good = built(route, base, "1001").expect("a request");
                let outcome = check(route, base_path(base), &good);
                assert!(outcome.is_ok(), "{} {}: {outcome:?}", route.id, good.url());
            }
        }
    }

    #[test]
    fn the_fuzz_entry_builds_every_operation_for_a_good_id() {
        let routes = all().count();
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
        assert!(check(infra("deleteDnsRecord"), "", &up).is_err());
        let collection = request(
            reqwest::Method::DELETE,
            &format!("{base}/v1/domains/acme.com/dnsRecords/%2e"),
        );
        assert!(check(infra("deleteDnsRecord"), "", &collection).is_err());
        let encoded = request(
            reqwest::Method::GET,
            &format!("{base}/v1/bareMetals/7%2F..%2F..%2Fx"),
        );
        assert!(check(infra("getBareMetal"), "", &encoded).is_err());
        let wrong_method = request(reqwest::Method::DELETE, &format!("{base}/v1/bareMetals/7"));
        assert!(check(infra("getBareMetal"), "", &wrong_method).is_err());
        let ok = request(reqwest::Method::GET, &format!("{base}/v1/bareMetals/7"));
        assert!(check(infra("getBareMetal"), "", &ok).is_ok());
        // The v1 and cloud interfaces share names; each operation has its own template.
        let cloud = request(
            reqwest::Method::GET,
            &format!("{base}/cloud/v2/virtualServers/c90e8a9c"),
        );
        let cloud_get = hostapi_raw_cloud::OPERATIONS
            .iter()
            .find(|operation| operation.id == "getVirtualServer")
            .expect("a cloud operation");
        assert!(check(cloud_get, "", &cloud).is_ok());
        assert!(check(infra("getVirtualServer"), "", &cloud).is_err());
        assert_eq!(base_path("https://h.example/api"), "/api");
        assert_eq!(base_path("https://h.example"), "");
    }
}
