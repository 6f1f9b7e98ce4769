//! Value types shared by every resource group.

mod common;
mod contract;
mod ids;
mod ip;
mod job;
pub(crate) mod macros;
pub(crate) mod values;

pub use common::*;
pub use contract::*;
pub(crate) use ids::WireId;
pub use ids::*;
pub use ip::*;
pub use job::*;
pub use macros::Unrecognized;
pub use values::{DomainName, MacAddress, Username};
