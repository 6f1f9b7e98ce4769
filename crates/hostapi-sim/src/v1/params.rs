//! The request parameters of each v1 operation, as the documents list them
//! (checked by [`crate::params::check`] before the handler runs).

use crate::params::{Field, NONE, Spec, Ty, form, opt, query, req};

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

/// Check a v1 request against its operation's parameters.
pub(crate) fn check(name: &str, r: &crate::util::Req) -> Result<(), crate::error::ApiError> {
    crate::params::check(SPECS, name, r)
}
