//! Pictures the pet sends to its agent: screen and window captures
//! ([`capture`]) and attachments, fitted into a request's byte budget as
//! `data:` URLs ([`fit()`]).
//!
//! Everything here is blocking and CPU- or X-bound; async callers run it on
//! `tokio::task::spawn_blocking`. See `docs/capture.md`.

pub mod capture;
mod convert;
pub mod fit;

use std::sync::Arc;

pub use capture::{CaptureError, Display, WindowInfo};
pub use fit::{array_overhead, fit, FitError};

/// The picture a turn or a tool answer carries: the type is the engine's
/// (`yui_engine::picture`), so the turn engine and the contract carry it
/// without this crate; what reads its bytes is here ([`PictureExt`]).
pub use yui_engine::picture::Picture;

/// Why bytes are not a picture YUI can send.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PictureError {
    /// The bytes are not PNG, JPEG, GIF or WebP.
    #[error("not a PNG, JPEG, GIF or WebP image")]
    Unsupported,
    /// The format was recognised but its header could not be read.
    #[error("unreadable {0} image: {1}")]
    Corrupt(String, String),
    /// Raw pixels whose length is not width * height * 4.
    #[error("{len} bytes of pixels for a {width}x{height} RGBA picture")]
    BadPixels {
        /// Width given.
        width: u32,
        /// Height given.
        height: u32,
        /// Bytes given.
        len: usize,
    },
}

/// The MIME subtype of an encoded image, sniffed from its first bytes.
pub fn sniff(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some("png")
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some("jpeg")
    } else if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
        Some("gif")
    } else if bytes.len() >= 12 && &bytes[0..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
        Some("webp")
    } else {
        None
    }
}

fn image_format(mime: &str) -> Option<image::ImageFormat> {
    match mime {
        "png" => Some(image::ImageFormat::Png),
        "jpeg" | "jpg" => Some(image::ImageFormat::Jpeg),
        "gif" => Some(image::ImageFormat::Gif),
        "webp" => Some(image::ImageFormat::WebP),
        _ => None,
    }
}

/// Width and height from an encoded image's header, without decoding pixels.
fn encoded_dimensions(mime: &str, bytes: &[u8]) -> Result<(u32, u32), String> {
    let format = image_format(mime).ok_or_else(|| format!("unsupported subtype {mime}"))?;
    let reader = image::ImageReader::with_format(std::io::Cursor::new(bytes), format);
    reader.into_dimensions().map_err(|e| e.to_string())
}

impl From<crate::platform::Rgba> for Picture {
    /// A platform's captured pixels as a picture to send.
    fn from(r: crate::platform::Rgba) -> Self {
        Picture::Rgba { width: r.width, height: r.height, pixels: Arc::new(r.pixels) }
    }
}

/// What reads a [`Picture`]'s bytes: its format from the content, its size
/// from the header (the `image` crate). Import it to call
/// `Picture::from_file_bytes`, `Picture::from_rgba` and `.dimensions()`.
pub trait PictureExt: Sized {
    /// An attachment from a file's bytes: the format is sniffed from the
    /// content (PNG, JPEG, GIF or WebP, whatever the file name says) and its
    /// header must give the picture's size. The bytes are kept as they are.
    fn from_file_bytes(bytes: Vec<u8>) -> Result<Self, PictureError>;
    /// Raw RGBA pixels as a picture, checking their length.
    fn from_rgba(width: u32, height: u32, pixels: Vec<u8>) -> Result<Self, PictureError>;
    /// Width and height in pixels; `None` when an encoded picture's header
    /// cannot be read.
    fn dimensions(&self) -> Option<(u32, u32)>;
}

impl PictureExt for Picture {
    /// An attachment from a file's bytes: the format is sniffed from the
    /// content (PNG, JPEG, GIF or WebP, whatever the file name says) and its
    /// header must give the picture's size. The bytes are kept as they are.
    fn from_file_bytes(bytes: Vec<u8>) -> Result<Picture, PictureError> {
        let mime = sniff(&bytes).ok_or(PictureError::Unsupported)?;
        encoded_dimensions(mime, &bytes).map_err(|e| PictureError::Corrupt(mime.to_string(), e))?;
        Ok(Picture::Encoded { mime: mime.to_string(), bytes: Arc::new(bytes) })
    }

    /// Raw RGBA pixels as a picture, checking their length.
    fn from_rgba(width: u32, height: u32, pixels: Vec<u8>) -> Result<Picture, PictureError> {
        if pixels.len() as u64 != u64::from(width) * u64::from(height) * 4 {
            return Err(PictureError::BadPixels { width, height, len: pixels.len() });
        }
        Ok(Picture::Rgba { width, height, pixels: Arc::new(pixels) })
    }

    /// Width and height in pixels; `None` when an encoded picture's header
    /// cannot be read.
    fn dimensions(&self) -> Option<(u32, u32)> {
        match self {
            Picture::Rgba { width, height, .. } => Some((*width, *height)),
            Picture::Encoded { mime, bytes } => encoded_dimensions(mime, bytes).ok(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn png_bytes(width: u32, height: u32) -> Vec<u8> {
        let img = image::RgbaImage::from_fn(width, height, |x, y| image::Rgba([(x * 7 % 256) as u8, (y * 3 % 256) as u8, ((x ^ y) % 256) as u8, 255]));
        let mut out = std::io::Cursor::new(Vec::new());
        img.write_to(&mut out, image::ImageFormat::Png).unwrap();
        out.into_inner()
    }

    #[test]
    fn sniffs_formats_and_reads_sizes() {
        let png = png_bytes(33, 17);
        let pic = Picture::from_file_bytes(png.clone()).unwrap();
        assert_eq!(pic.dimensions(), Some((33, 17)));
        match &pic {
            Picture::Encoded { mime, bytes } => {
                assert_eq!(mime, "png");
                assert_eq!(**bytes, png);
            }
            _ => panic!("not encoded"),
        }
        let mut gif = b"GIF89a".to_vec();
        gif.extend_from_slice(&[5, 0, 7, 0, 0, 0, 0]);
        assert_eq!(sniff(&gif), Some("gif"));
        assert_eq!(sniff(b"RIFF\0\0\0\0WEBPVP8 "), Some("webp"));
        assert_eq!(sniff(&[0xFF, 0xD8, 0xFF, 0xE0]), Some("jpeg"));
        assert_eq!(Picture::from_file_bytes(b"hello world".to_vec()).unwrap_err(), PictureError::Unsupported);
        assert!(matches!(Picture::from_file_bytes(png[..20].to_vec()), Err(PictureError::Corrupt(..))));
    }

    #[test]
    fn debug_prints_sizes_not_pixels() {
        let pic = Picture::from_rgba(2, 1, vec![9; 8]).unwrap();
        let s = format!("{pic:?}");
        assert_eq!(s, "Rgba { width: 2, height: 1, bytes: 8 }");
        assert!(Picture::from_rgba(2, 2, vec![0; 8]).is_err());
    }
}
