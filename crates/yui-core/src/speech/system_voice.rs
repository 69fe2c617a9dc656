//! The system voice (in progress).
