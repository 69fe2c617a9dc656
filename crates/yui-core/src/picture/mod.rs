//! PLACEHOLDER (replaced by the picture module of wip-picture at merge).
use std::sync::Arc;

/// A picture to send: pixels from a capture, or an encoded file (attachment).
#[derive(Clone, PartialEq, Eq)]
pub enum Picture {
    /// Raw 8-bit RGBA pixels, row-major, width*height*4 bytes.
    Rgba {
        /// Width in pixels.
        width: u32,
        /// Height in pixels.
        height: u32,
        /// The pixels.
        pixels: Arc<Vec<u8>>,
    },
    /// An already encoded image and its MIME subtype.
    Encoded {
        /// `png`, `jpeg`...
        mime: String,
        /// The file's bytes.
        bytes: Arc<Vec<u8>>,
    },
}

impl std::fmt::Debug for Picture {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Picture::Rgba { width, height, .. } => write!(f, "Rgba({width}x{height})"),
            Picture::Encoded { mime, bytes } => write!(f, "Encoded({mime}, {} B)", bytes.len()),
        }
    }
}

/// Fitting failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FitError {
    /// Nothing fits.
    #[error("result too large")]
    TooLarge,
}

/// PLACEHOLDER.
pub fn fit(pictures: &[Picture], room: usize) -> Result<Vec<String>, FitError> {
    use base64::Engine;
    let urls: Vec<String> = pictures
        .iter()
        .map(|p| match p {
            Picture::Encoded { mime, bytes } => format!("data:image/{mime};base64,{}", base64::engine::general_purpose::STANDARD.encode(&**bytes)),
            Picture::Rgba { .. } => String::new(),
        })
        .collect();
    if urls.iter().map(|u| u.len()).sum::<usize>() + array_overhead(urls.len()) > room {
        return Err(FitError::TooLarge);
    }
    Ok(urls)
}

/// The JSON bytes `n` data URLs need beyond their own length.
pub fn array_overhead(n: usize) -> usize {
    if n == 0 { 0 } else { 2 * n + n - 1 }
}

pub mod capture;
