//! The engine's integration tests, one binary: the client_context renderer
//! against its golden fixtures (`tests/fixtures/context/`) and its
//! properties.

mod context_golden;
mod context_props;
