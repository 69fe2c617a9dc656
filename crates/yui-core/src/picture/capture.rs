//! PLACEHOLDER (replaced at merge).
use super::Picture;

/// A display.
#[derive(Debug, Clone, PartialEq, serde::Serialize, ts_rs::TS)]
pub struct Display {
    /// Index.
    pub index: usize,
    /// Label.
    pub label: String,
    /// X.
    pub x: i32,
    /// Y.
    pub y: i32,
    /// Width.
    pub width: u32,
    /// Height.
    pub height: u32,
    /// Scale.
    pub scale: f32,
    /// Primary.
    pub primary: bool,
}

/// A window.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct WindowInfo {
    /// App.
    pub app: String,
    /// Title.
    pub title: String,
    /// Monitor.
    pub monitor: usize,
    /// X.
    pub x: i32,
    /// Y.
    pub y: i32,
    /// W.
    pub width: u32,
    /// H.
    pub height: u32,
}

/// Capture failed.
#[derive(Debug, thiserror::Error)]
pub enum CaptureError {
    /// Failed.
    #[error("capture failed: {0}")]
    Failed(String),
}

/// Displays.
pub fn displays() -> Result<Vec<Display>, CaptureError> {
    Err(CaptureError::Failed("placeholder".into()))
}
/// Capture.
pub fn capture_display(_index: usize) -> Result<Picture, CaptureError> {
    Err(CaptureError::Failed("placeholder".into()))
}
/// Capture.
pub fn capture_window(_app: &str, _title: &str) -> Result<Picture, CaptureError> {
    Err(CaptureError::Failed("placeholder".into()))
}
/// Windows.
pub fn windows() -> Result<Vec<WindowInfo>, CaptureError> {
    Ok(Vec::new())
}
/// Display at.
pub fn display_at(_displays: &[Display], _x: i32, _y: i32) -> usize {
    0
}
