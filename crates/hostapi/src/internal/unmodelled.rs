//! The documented answer fields the facade does not hand on as modelled values, named
//! on purpose. Every other field of every documented answer is read into the model: the
//! test `tests/tests/answer_fields.rs` feeds each operation an answer holding every
//! field of its spec's inventory (`crates/hostapi-raw-*/generated/answers.txt`) and
//! fails on a field that is dropped, or kept in `extra`, without being named here (and
//! on a name here that is no longer true).

const DEPRECATED: &str =
    "deprecated, placeholder content (the documents say so): not modelled, kept as sent";
const PACK_REPEATS: &str = "repeats the record's own id, name or type: left out when it agrees, kept in `extra` when it does not";
const IP_VERSION: &str = "the address says its version: a `version` that agrees adds nothing, one that does not is kept in `extra`";
const PAGING: &str = "the page the server applied and its total: the pager reads them to fetch the next page; the records are handed on, not the page arithmetic";

/// Documented fields each reader keeps in `extra` as sent rather than modelling:
/// `(operation, path in the answer, why)`, the operation as [`super::OPERATIONS`]
/// names it and the path as the inventory writes it.
pub const KEPT_IN_EXTRA: &[(&str, &str, &str)] = &[
    ("infra.getBareMetal", "bareMetal.extras", DEPRECATED),
    (
        "infra.getBareMetal",
        "bareMetal.serverSpecifications",
        DEPRECATED,
    ),
    (
        "infra.getBareMetal",
        "bareMetal.datacenterAccessCards",
        DEPRECATED,
    ),
    (
        "infra.getBareMetal",
        "bareMetal.serverHostingPack.bareMetalId",
        PACK_REPEATS,
    ),
    (
        "infra.getBareMetal",
        "bareMetal.serverHostingPack.serverName",
        PACK_REPEATS,
    ),
    (
        "infra.getBareMetal",
        "bareMetal.serverHostingPack.serverType",
        PACK_REPEATS,
    ),
    (
        "infra.updateBareMetalReference",
        "bareMetal.extras",
        DEPRECATED,
    ),
    (
        "infra.updateBareMetalReference",
        "bareMetal.serverSpecifications",
        DEPRECATED,
    ),
    (
        "infra.updateBareMetalReference",
        "bareMetal.datacenterAccessCards",
        DEPRECATED,
    ),
    (
        "infra.updateBareMetalReference",
        "bareMetal.serverHostingPack.bareMetalId",
        PACK_REPEATS,
    ),
    (
        "infra.updateBareMetalReference",
        "bareMetal.serverHostingPack.serverName",
        PACK_REPEATS,
    ),
    (
        "infra.updateBareMetalReference",
        "bareMetal.serverHostingPack.serverType",
        PACK_REPEATS,
    ),
    (
        "infra.getPrivateRack",
        "privateRack.serverHostingPack.privateRackId",
        PACK_REPEATS,
    ),
    (
        "infra.getPrivateRack",
        "privateRack.serverHostingPack.privateRackName",
        PACK_REPEATS,
    ),
    ("cloud.getVirtualServer", "ips[].version", IP_VERSION),
    ("cloud.updateVirtualServer", "ips[].version", IP_VERSION),
    (
        "cloud.listVirtualServers",
        "virtualServers[].ips[].version",
        IP_VERSION,
    ),
    (
        "cloud.listPrivateClouds",
        "privateClouds[].ips[].version",
        IP_VERSION,
    ),
];

/// Documented fields the facade reads for its own use and does not hand on:
/// `(operation, path, why)`; a path covers everything under it, and `[]`/`{}` any
/// item or key.
pub const NOT_HANDED_ON: &[(&str, &str, &str)] = &[
    ("infra.listBareMetalLeases", "_metadata", PAGING),
    ("infra.listBareMetalLeases", "[]._metadata", PAGING),
    ("infra.listPrivateNetworks", "_metadata", PAGING),
    ("cloud.listVirtualServers", "_metadata", PAGING),
    ("cloud.listVirtualServerCredentials", "_metadata", PAGING),
    ("cloud.listPrivateClouds", "_metadata", PAGING),
    (
        "cdn.upsertSubCustomer",
        "success.{}.{}",
        "the answer lists every sub-customer; a write answers the one written, the others are not its subject",
    ),
];

/// Operations with a documented JSON answer that the facade does not read, and why.
pub const ANSWERS_NOT_READ: &[(&str, &str)] = &[
    (
        "cdn.updateOrigin",
        "the documents show `{success: \"\"}`: nothing to read; the status says it was applied",
    ),
    (
        "cdn.upsertSubCustomerAtCustomerPath",
        "an alias path the documents' text names; the facade calls upsertSubCustomer",
    ),
];
