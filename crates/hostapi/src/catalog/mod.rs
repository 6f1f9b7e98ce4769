//! Read-only catalogues: rescue images, operating systems, control panels, partition schemas, services.
