//! Domains and their DNS records.
