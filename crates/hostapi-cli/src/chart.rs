//! Terminal charts of traffic series (filled in with the metrics commands).
