//! The CDN interface: purges, customers, sub-customers, ACLs, origins.
