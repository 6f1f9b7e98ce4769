//! The cloud v2 interface: virtual servers, credentials, metrics, private clouds.
