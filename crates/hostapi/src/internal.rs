//! Entry points for benchmarks and fuzzing: an answer body decoded and normalised as one
//! operation would, without HTTP. Not part of the API: hidden from the docs and free to
//! change.

use crate::transport::call::{decode_error, decode_json};
use crate::{Error, VirtualServer};

/// `GET /v1/virtualServers`: the body decoded into the generated type, then normalised.
pub fn virtual_server_list(body: &[u8]) -> Result<Vec<VirtualServer>, Error> {
    const OPERATION: &str = "listVirtualServers";
    let raw = decode_json(OPERATION, body)?;
    crate::virtual_servers::normalize::list(raw).map_err(|e| decode_error(OPERATION, &e, body))
}
