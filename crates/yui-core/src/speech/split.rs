//! The sentence splitter (being written).
