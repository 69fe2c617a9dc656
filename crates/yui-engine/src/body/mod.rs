//! The character's body on the desktop.
//!
//! - [`motion::Body`]: the posture machine. One posture at a time
//!   (`standing | sitting | peeking | dragging | walking | climbing |
//!   lying`), what she is perched on, and since when; the user's drag and
//!   release, `body_action` moves, ambient walks, and perches that end
//!   when their window moves, closes or is covered.
//! - [`plan`]: where each move goes over the desktop's [`geometry`], and
//!   [`path`]: the move as a timeline of walks, climbs, hops and falls.
//! - [`bed::Bed`]: the bed scene: she lies down, sleeps, and wakes
//!   (`docs/triggers.md`, "Wake and the bed scene").
//! - [`tunables::BodyTunables`]: the `body` section of `avatar.json`.
//!
//! All of it is pure over epoch ms; the session's driver runs it.

pub mod bed;
pub mod follow;
pub mod geometry;
pub mod motion;
pub mod path;
pub mod plan;
#[cfg(test)]
mod tests;
pub mod tunables;

pub use bed::{Bed, BedEntry, BedPhase, BedSettings, BedStep, BedView, WakeBy};
pub use follow::{Output, PagePointer, Reference};
pub use geometry::{Frame, Pt, Scene, Surface};
pub use motion::{ActionError, Body, BodyAction, BodyMove, BodyNow, BodyStep};
pub use path::Gait;
pub use plan::{Side, Spot};
pub use tunables::{BodyTunables, TunablesError};
