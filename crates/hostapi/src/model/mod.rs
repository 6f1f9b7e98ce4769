//! Value types shared by every resource group.

mod common;
mod job;
pub(crate) mod macros;

pub use common::*;
pub use job::*;
