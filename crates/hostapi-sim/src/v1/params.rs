//! The request parameters of each v1 operation, as the documents list them,
//! checked before the handler runs (so before any state changes), the way
//! stripe-mock checks requests against its specification: a form on a form
//! operation, no unknown fields or query parameters, required fields present,
//! values of the documented type and allowed values. A refusal is 400 with the
//! interface's error body naming the field. Rules beyond the type (a TTL's
//! range, the `hdd…` partition form, a DNS record's content) are the
//! handlers'.

use crate::error::ApiError;
use crate::util::Req;

/// The type of a parameter's value.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Ty {
    /// Decimal digits.
    Int,
    /// Decimal digits, or empty.
    IntOrEmpty,
    /// Any text.
    Str,
    /// `0` or `1`.
    Bool01,
    /// One of the listed values.
    OneOf(&'static [&'static str]),
}

/// One parameter.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Field {
    pub(crate) name: &'static str,
    pub(crate) ty: Ty,
    pub(crate) required: bool,
}

const fn req(name: &'static str, ty: Ty) -> Field {
    Field {
        name,
        ty,
        required: true,
    }
}

const fn opt(name: &'static str, ty: Ty) -> Field {
    Field {
        name,
        ty,
        required: false,
    }
}

/// What one operation accepts.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Spec {
    /// Form fields (an empty list: the operation takes no body).
    pub(crate) form: &'static [Field],
    /// Form fields under this prefix are the handler's to check (`hdd[`).
    pub(crate) form_prefix: Option<&'static str>,
    /// At least one of these form fields must be present.
    pub(crate) one_of: &'static [&'static str],
    /// Query parameters.
    pub(crate) query: &'static [Field],
}

const NONE: Spec = Spec {
    form: &[],
    form_prefix: None,
    one_of: &[],
    query: &[],
};

const fn form(fields: &'static [Field]) -> Spec {
    Spec {
        form: fields,
        ..NONE
    }
}

const fn query(fields: &'static [Field]) -> Spec {
    Spec {
        query: fields,
        ..NONE
    }
}

const PAGE: &[Field] = &[opt("limit", Ty::Int), opt("offset", Ty::Int)];
const USAGE: &[Field] = &[opt("dateFrom", Ty::Str), opt("dateTo", Ty::Str)];
const IP_FORM: Spec = Spec {
    form: &[opt("reverseLookup", Ty::Str), opt("nullRouted", Ty::Bool01)],
    one_of: &["reverseLookup", "nullRouted"],
    ..NONE
};

/// The parameters of the v1 operations that take any; the others take none.
static SPECS: &[(&[&str], Spec)] = &[
    (
        &["PUT /v1/domains/{domainname}"],
        form(&[req("ttl", Ty::Int)]),
    ),
    (
        &["POST /v1/domains/{domainname}/dnsRecords"],
        form(&[
            req("host", Ty::Str),
            req("type", Ty::Str),
            req("content", Ty::Str),
            opt("priority", Ty::IntOrEmpty),
        ]),
    ),
    // Documented: id, name, type, data, priority; the sample: host, content.
    (
        &["PUT /v1/domains/{domainname}/dnsRecords/{recordId}"],
        form(&[
            opt("id", Ty::IntOrEmpty),
            opt("name", Ty::Str),
            opt("host", Ty::Str),
            req("type", Ty::Str),
            opt("data", Ty::Str),
            opt("content", Ty::Str),
            opt("priority", Ty::IntOrEmpty),
        ]),
    ),
    (
        &["PUT /v1/bareMetals/{bareMetalId}"],
        form(&[req("reference", Ty::Str)]),
    ),
    (
        &["POST /v1/bareMetals/{bareMetalId}/install"],
        Spec {
            form: &[
                req("osId", Ty::Int),
                opt("raidLevel", Ty::OneOf(&["0", "1", "5", "6", "10"])),
                opt("numberDisks", Ty::Int),
            ],
            form_prefix: Some("hdd["),
            ..NONE
        },
    ),
    (
        &["POST /v1/bareMetals/{bareMetalId}/rescueMode"],
        form(&[req("osId", Ty::Int)]),
    ),
    (
        &[
            "PUT /v1/bareMetals/{bareMetalId}/ips/{ipAddress}",
            "PUT /v1/privateRacks/{privateRackId}/ips/{ipAddress}",
            "PUT /v1/ips/{ipAddress}",
        ],
        IP_FORM,
    ),
    (
        &["POST /v1/bareMetals/{bareMetalId}/leases"],
        form(&[
            req("bootFileName", Ty::Str),
            req("bootServerHostName", Ty::Str),
            req("domainNameServerIp", Ty::Str),
        ]),
    ),
    (
        &[
            "GET /v1/bareMetals/{bareMetalId}/leases",
            "GET /v1/privateNetworks",
        ],
        query(PAGE),
    ),
    (
        &[
            "GET /v1/bareMetals/{bareMetalId}/networkUsage",
            "GET /v1/bareMetals/{bareMetalId}/networkUsage/bandwidth",
            "GET /v1/bareMetals/{bareMetalId}/networkUsage/datatraffic",
            "GET /v1/privateRacks/{privateRackId}/networkUsage",
        ],
        query(USAGE),
    ),
    (
        &["GET /v1/operatingSystems/{operatingSystemId}/partitionSchema"],
        query(&[opt("serverPackId", Ty::Str)]),
    ),
    // The documents list no body; a name is taken as the portal takes it.
    (&["POST /v1/privateNetworks"], form(&[opt("name", Ty::Str)])),
    (
        &["POST /v1/privateNetworks/{privateNetworkId}/bareMetals"],
        form(&[req("bareMetalId", Ty::Int)]),
    ),
];

/// The parameters of operation `name`.
pub(crate) fn spec(name: &str) -> Spec {
    SPECS
        .iter()
        .find(|(names, _)| names.contains(&name))
        .map_or(NONE, |(_, spec)| *spec)
}

fn check_value(f: &Field, v: &str) -> Result<(), ApiError> {
    let digits = |s: &str| !s.is_empty() && s.len() <= 18 && s.bytes().all(|b| b.is_ascii_digit());
    let ok = match f.ty {
        Ty::Int => digits(v.trim()),
        Ty::IntOrEmpty => v.trim().is_empty() || digits(v.trim()),
        Ty::Str => true,
        Ty::Bool01 => v == "0" || v == "1",
        Ty::OneOf(allowed) => allowed.contains(&v.trim()),
    };
    if ok {
        return Ok(());
    }
    let what = match f.ty {
        Ty::Int => "must be an integer".to_string(),
        Ty::IntOrEmpty => "must be an integer or empty".to_string(),
        Ty::Bool01 => "must be 0 or 1".to_string(),
        Ty::OneOf(allowed) => format!("must be one of {}", allowed.join(", ")),
        Ty::Str => String::new(),
    };
    Err(ApiError::bad_field(f.name, &what))
}

fn check_fields(
    given: &[(String, String)],
    fields: &[Field],
    prefix: Option<&str>,
    what: &str,
) -> Result<(), ApiError> {
    for (k, v) in given {
        if prefix.is_some_and(|p| k.starts_with(p)) {
            continue;
        }
        match fields.iter().find(|f| f.name == k) {
            Some(f) => check_value(f, v)?,
            None => {
                let known: Vec<&str> = fields.iter().map(|f| f.name).collect();
                let msg = if known.is_empty() {
                    format!("unknown {what}: this operation takes none")
                } else {
                    format!("unknown {what}: this operation takes {}", known.join(", "))
                };
                return Err(ApiError::bad_field(k, &msg));
            }
        }
    }
    for f in fields.iter().filter(|f| f.required) {
        if !given.iter().any(|(k, _)| k == f.name) {
            return Err(ApiError::bad_field(f.name, "is required"));
        }
    }
    Ok(())
}

/// Check a request against the operation's parameters.
pub(crate) fn check(name: &str, req: &Req) -> Result<(), ApiError> {
    let spec = spec(name);
    check_fields(&req.query, spec.query, None, "query parameter")?;
    let form = req.form()?;
    check_fields(&form.0, spec.form, spec.form_prefix, "form field")?;
    if !spec.one_of.is_empty() && !spec.one_of.iter().any(|n| form.get(n).is_some()) {
        return Err(ApiError::bad_field(
            spec.one_of[0],
            &format!("give one of {}", spec.one_of.join(", ")),
        ));
    }
    Ok(())
}
