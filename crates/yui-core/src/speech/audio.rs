//! The cpal audio sink (in progress).
