//! Shared helpers for hostapi's integration tests (fixtures, servers). The tests
//! themselves live in `tests/tests/`.
