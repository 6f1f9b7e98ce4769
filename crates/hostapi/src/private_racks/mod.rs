//! Private racks.
