//! Bare metal servers.
