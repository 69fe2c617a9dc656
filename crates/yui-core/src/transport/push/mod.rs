//! The push transport: a per-window WebSocket (seed `000_c1583a1f6bf1c44c.txt`).

pub mod connection;
pub mod frames;
pub mod tools;
pub mod turns;

pub use connection::Backoff;
pub use frames::{ClientFrame, Segment, ServerFrame};
pub use turns::{TurnBook, FAILURE_LINE};
