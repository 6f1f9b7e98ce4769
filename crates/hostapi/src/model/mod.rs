//! Value types shared by every resource group.

mod common;
mod ids;
mod job;
pub(crate) mod macros;

pub use common::*;
pub use ids::*;
pub use job::*;
