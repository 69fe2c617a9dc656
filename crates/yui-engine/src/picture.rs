//! The picture a turn or a tool answer carries: pixels from a capture, or
//! an encoded file. Only the data: capturing, reading headers and fitting
//! into a request's budget are `yui-desktop`'s (`picture`).

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
        /// `width * height * 4` bytes, R G B A per pixel, rows top to bottom.
        pixels: Arc<Vec<u8>>,
    },
    /// An already encoded image (PNG, JPEG, GIF, WebP...) and its MIME subtype.
    Encoded {
        /// The MIME subtype: `png`, `jpeg`, `gif` or `webp`.
        mime: String,
        /// The file's bytes, untouched.
        bytes: Arc<Vec<u8>>,
    },
}

/// Sizes, never the pixels or the bytes.
impl std::fmt::Debug for Picture {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Picture::Rgba { width, height, pixels } => {
                f.debug_struct("Rgba").field("width", width).field("height", height).field("bytes", &pixels.len()).finish()
            }
            Picture::Encoded { mime, bytes } => f.debug_struct("Encoded").field("mime", mime).field("bytes", &bytes.len()).finish(),
        }
    }
}
