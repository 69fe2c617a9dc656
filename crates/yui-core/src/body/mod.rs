//! The character's body on the desktop. For now, the bed scene
//! ([`bed::Bed`]): she lies down, sleeps, and wakes (seed `003`, "Wake").
//! The posture machine of issue "She lives on the desktop" grows here.

pub mod bed;

pub use bed::{Bed, BedEntry, BedPhase, BedStep, BedView, WakeBy};
