//! How facade calls reach the wire: the hooks the generated clients run every request
//! through, the retry policy, the decoding of answers (by the facade, not the generated
//! code: see [`call::body`]; lists record by record: [`records`]), and the translation
//! of outcomes into [`crate::Error`].

pub(crate) mod call;
pub(crate) mod hooks;
pub(crate) mod record;
pub(crate) mod records;
pub(crate) mod retry;

pub(crate) use call::{Answer, Body, body, empty, json, raw};
pub(crate) use record::CallOptions;
pub(crate) use records::RecordList;
