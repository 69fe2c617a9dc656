//! What the UI is told about a character file.

use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// Which VRM generation a file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum VrmVersion {
    /// VRM 0.x (`extensions.VRM`).
    V0,
    /// VRM 1.0 (`extensions.VRMC_vrm`).
    V1,
}

/// What the app knows about a character file without rendering it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CharacterInfo {
    /// The name from the file's meta (or the file name).
    pub name: String,
    /// VRM 0.x or 1.0.
    pub version: VrmVersion,
    /// The file in the data directory, or `None` for the bundled default.
    #[cfg_attr(feature = "ts", ts(type = "string | null"))]
    pub path: Option<PathBuf>,
}
