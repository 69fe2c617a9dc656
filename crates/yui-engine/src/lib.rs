//! # yui-engine
//!
//! The parts of YUI that only decide: the client_context renderer
//! (`context`), the triggers that make and pace its lines (`triggers`), the
//! body's pure machines (`body`), and the limits and timeouts every part of
//! YUI shares (`limits`, the one table of them). No socket, no window, no
//! native library: its tests build and run with Rust alone. `yui-core`
//! re-exports each module at its old path (`yui_core::context`, ...);
//! `docs/architecture.md` has the map of the crates.
#![deny(missing_docs)]

pub mod body;
pub mod context;
pub mod limits;
pub mod picture;
pub mod triggers;
