//! Private networks between bare metal servers.
