//! The request parameters of each CDN operation, as the documents list them
//! (checked by [`crate::params::check`] before the handler runs).

use crate::params::{Field, NONE, Spec, Ty, form, opt, req};

/// The documented fields of an origin (create and update): the Origin
/// object's writable fields and the samples' `ignore_cache_refresh`.
const ORIGIN_FIELDS: &[Field] = &[
    opt("label", Ty::Str),
    opt("origin", Ty::Str),
    opt("origin_type", Ty::OneOf(&["simple", "s3"])),
    opt("refresh_every", Ty::Int),
    opt("ignore_cache_control", Ty::Bool01),
    // The samples' spelling.
    opt("ignore_cache_refresh", Ty::Bool01),
    opt("basic_auth_user", Ty::Str),
    opt("basic_auth_password", Ty::Str),
    opt("headers_origin", Ty::Str),
    opt("proxy_header_host", Ty::Str),
    opt("s3_bucket_name", Ty::Str),
    opt("cache_key", Ty::Str),
];

/// The parameters of the CDN operations that take any, as documented
/// (checked before the handler runs; see [`crate::params`]).
pub(super) static SPECS: &[(&[&str], Spec)] = &[
    (
        &["POST /content/purge/{customer_number}/{zone_id}"],
        Spec {
            form: &[req("urls", Ty::Str)],
            json: true,
            ..NONE
        },
    ),
    (
        &["POST /customers/reseller/{customer_number}/{sub_customer_number}"],
        form(&[
            opt("active", Ty::Bool01),
            opt("ftp_quota", Ty::Int),
            opt("companyName", Ty::Str),
            opt("notes", Ty::Str),
            opt("reseller", Ty::Bool01),
            opt("api_secret", Ty::Str),
            opt("customer_number", Ty::Str),
            opt("sub_customer_number", Ty::Str),
            opt("parent", Ty::Str),
        ]),
    ),
    (
        &["POST /customers/acl/{customer_number}"],
        form(&[req("acl", Ty::Str)]),
    ),
    (
        &[
            "POST /origins/{customer_number}",
            "PUT /origins/{customer_number}/{origin_id}",
        ],
        form(ORIGIN_FIELDS),
    ),
];
