//! The image fitter: pictures into a byte budget as `data:` URLs.
//!
//! The room is what the elements of a JSON array of strings may take: each
//! URL's length, two quotes each and a comma between neighbours
//! ([`array_overhead`]). The room is shared out by water-filling: encoded
//! attachments smaller than an equal share of what is left pass through
//! untouched, smallest first, and the room they leave is shared among the
//! rest. Every other picture (all raw captures, and attachments over their
//! share) is encoded as a JPEG into its share, in input order; what one
//! leaves unused goes to the ones after it.
//!
//! Encoding needs few attempts: the first size comes from the budget and an
//! estimate of JPEG bytes per pixel; when the result is over, the next scale
//! is `sqrt(budget / size) * 0.9` of the last and, after the first retry, the
//! quality drops by steps. Pictures are never scaled up, and a result is only
//! returned when it is within its budget.

use super::convert::flatten_over_white;
use super::Picture;
use base64::Engine as _;
use fast_image_resize as fr;

/// Why pictures could not be fitted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FitError {
    /// The room is too small for all the pictures, even as tiny JPEGs.
    #[error("the pictures do not fit in the room the request leaves for them")]
    TooLarge,
    /// An attachment that had to be re-encoded could not be decoded.
    #[error("could not decode a {0} picture: {1}")]
    Decode(String, String),
    /// The JPEG encoder or resizer failed.
    #[error("could not encode a picture: {0}")]
    Encode(String),
}

/// `data:image/jpeg;base64,`.
const JPEG_PREFIX: &str = "data:image/jpeg;base64,";
/// Quality of the first JPEG attempt.
const START_QUALITY: u8 = 80;
/// The lowest quality tried before giving up.
const MIN_QUALITY: u8 = 30;
/// Quality dropped per retry after the first retry.
const QUALITY_STEP: u8 = 12;
/// Estimated JPEG bytes per pixel of a busy screen at `START_QUALITY`, to
/// pick the first size. Over-estimating costs sharpness, under-estimating
/// costs a second encode.
const EST_BYTES_PER_PIXEL: f64 = 0.42;
/// Attempts per picture before giving up.
const MAX_ATTEMPTS: usize = 10;
/// Below this many bytes no JPEG (its headers alone are ~600 bytes) fits.
const MIN_JPEG_BYTES: usize = 400;
/// The smallest long side a picture is shrunk to.
const MIN_SIDE: u32 = 8;
/// JPEG's limit on a side.
const MAX_SIDE: u32 = 65_535;

/// The JSON bytes `n` data URLs need beyond their own length: 2 quotes each and n-1 commas.
pub fn array_overhead(n: usize) -> usize {
    if n == 0 {
        0
    } else {
        3 * n - 1
    }
}

/// Length of the base64 text of `n` bytes (padded).
fn base64_len(n: usize) -> usize {
    n.div_ceil(3) * 4
}

/// Length of `data:image/<mime>;base64,<data>` for `n` bytes.
fn url_len(mime: &str, n: usize) -> usize {
    "data:image/".len() + mime.len() + ";base64,".len() + base64_len(n)
}

/// The most JPEG bytes whose data URL is at most `url_budget` long.
fn jpeg_bytes_for(url_budget: usize) -> usize {
    url_budget.saturating_sub(JPEG_PREFIX.len()) / 4 * 3
}

fn data_url(mime: &str, bytes: &[u8]) -> String {
    let mut s = String::with_capacity(url_len(mime, bytes.len()));
    s.push_str("data:image/");
    s.push_str(mime);
    s.push_str(";base64,");
    base64::engine::general_purpose::STANDARD.encode_string(bytes, &mut s);
    s
}

/// Fit pictures into `room` bytes: the room the `images` JSON array's elements may take,
/// i.e. the sum over the returned data URLs of (url.len() + 2 quotes) plus one comma between
/// each pair must be <= room. Returns `data:image/<subtype>;base64,<data>` strings in input order.
/// Pictures are re-encoded only when needed: an Encoded picture that fits its share is sent as is;
/// Rgba pictures are always JPEG-encoded; any picture over an equal share of the room (room divided
/// equally among the pictures still to place; room left by small pictures is shared among the others)
/// is re-encoded as a smaller JPEG (scaled down and/or lower quality) into its share.
/// Err(FitError::TooLarge) when they cannot all fit (e.g. room too small even for a tiny JPEG).
pub fn fit(pictures: &[Picture], room: usize) -> Result<Vec<String>, FitError> {
    let n = pictures.len();
    if n == 0 {
        return Ok(Vec::new());
    }
    // Room for the URLs themselves.
    let mut left = room.checked_sub(array_overhead(n)).ok_or(FitError::TooLarge)?;
    let mut out: Vec<Option<String>> = vec![None; n];

    // Water-fill: encoded pictures under an equal share pass as they are,
    // smallest first, each one raising the share of the rest.
    let mut as_is: Vec<(usize, usize)> = pictures
        .iter()
        .enumerate()
        .filter_map(|(i, p)| match p {
            Picture::Encoded { mime, bytes } => Some((url_len(mime, bytes.len()), i)),
            Picture::Rgba { .. } => None,
        })
        .collect();
    as_is.sort_unstable();
    let mut to_place = n;
    for &(len, i) in &as_is {
        if len > left / to_place {
            break;
        }
        if let Picture::Encoded { mime, bytes } = &pictures[i] {
            out[i] = Some(data_url(mime, bytes));
        }
        left -= len;
        to_place -= 1;
    }

    // Everything else becomes a JPEG within its share, in input order.
    let mut resizer = fr::Resizer::new();
    for (i, picture) in pictures.iter().enumerate() {
        if out[i].is_some() {
            continue;
        }
        let share = left / to_place;
        let budget = jpeg_bytes_for(share);
        let jpeg = match picture {
            Picture::Rgba { width, height, pixels } => {
                let need = *width as usize * *height as usize * 4;
                if pixels.len() < need {
                    return Err(FitError::Encode(format!("{} bytes of pixels for {width}x{height}", pixels.len())));
                }
                encode_within(&mut resizer, &pixels[..need], *width, *height, budget)?
            }
            Picture::Encoded { mime, bytes } => {
                let (w, h, rgba) = decode(mime, bytes)?;
                encode_within(&mut resizer, &rgba, w, h, budget)?
            }
        };
        let url = data_url("jpeg", &jpeg);
        debug_assert!(url.len() <= share);
        left -= url.len();
        to_place -= 1;
        out[i] = Some(url);
    }
    Ok(out.into_iter().map(|u| u.unwrap_or_default()).collect())
}

/// An attachment's pixels as opaque RGBA (transparency over white).
fn decode(mime: &str, bytes: &[u8]) -> Result<(u32, u32, Vec<u8>), FitError> {
    let fail = |e: String| FitError::Decode(mime.to_string(), e);
    let format = super::image_format(mime).ok_or_else(|| fail("unsupported subtype".into()))?;
    let img = image::load_from_memory_with_format(bytes, format).map_err(|e| fail(e.to_string()))?;
    let rgba = img.to_rgba8();
    let (w, h) = rgba.dimensions();
    let mut px = rgba.into_raw();
    flatten_over_white(&mut px);
    Ok((w, h, px))
}

/// The size `scale` gives, at least 1x1 and never above the source.
fn scaled(w: u32, h: u32, scale: f64) -> (u32, u32) {
    let f = |v: u32| ((f64::from(v) * scale).round() as u32).clamp(1, v);
    (f(w), f(h))
}

/// RGBA pixels (opaque) as a JPEG of at most `budget` bytes: as large and
/// good as the estimate allows in the first attempt, smaller after.
pub(crate) fn encode_within(resizer: &mut fr::Resizer, rgba: &[u8], w: u32, h: u32, budget: usize) -> Result<Vec<u8>, FitError> {
    if budget < MIN_JPEG_BYTES || w == 0 || h == 0 {
        return Err(FitError::TooLarge);
    }
    let pixels = f64::from(w) * f64::from(h);
    let long = w.max(h);
    let max_scale = (f64::from(MAX_SIDE) / f64::from(long)).min(1.0);
    let min_scale = (f64::from(MIN_SIDE) / f64::from(long)).min(1.0);
    let mut scale = (budget as f64 / EST_BYTES_PER_PIXEL / pixels).sqrt().clamp(min_scale, max_scale);
    let mut quality = START_QUALITY;
    for attempt in 0..MAX_ATTEMPTS {
        let (tw, th) = scaled(w, h, scale);
        let jpeg = if (tw, th) == (w, h) {
            encode_jpeg(rgba, w, h, quality)?
        } else {
            let small = resize(resizer, rgba, w, h, tw, th)?;
            encode_jpeg(&small, tw, th, quality)?
        };
        if jpeg.len() <= budget {
            return Ok(jpeg);
        }
        let at_floor = scale <= min_scale;
        if at_floor && quality <= MIN_QUALITY {
            break;
        }
        let ratio = budget as f64 / jpeg.len() as f64;
        scale = (scale * ratio.sqrt() * 0.9).max(min_scale);
        if attempt > 0 || at_floor {
            quality = quality.saturating_sub(QUALITY_STEP).max(MIN_QUALITY);
        }
    }
    Err(FitError::TooLarge)
}

/// A SIMD resize (fast_image_resize, Catmull-Rom: sharp enough for text and
/// about 2.5x faster than Lanczos3 at these factors; alpha ignored, the
/// pixels are opaque).
fn resize(resizer: &mut fr::Resizer, rgba: &[u8], w: u32, h: u32, tw: u32, th: u32) -> Result<Vec<u8>, FitError> {
    let src = fr::images::ImageRef::new(w, h, rgba, fr::PixelType::U8x4).map_err(|e| FitError::Encode(e.to_string()))?;
    let mut dst = fr::images::Image::new(tw, th, fr::PixelType::U8x4);
    let options = fr::ResizeOptions::new().resize_alg(fr::ResizeAlg::Convolution(fr::FilterType::CatmullRom)).use_alpha(false);
    resizer.resize(&src, &mut dst, &options).map_err(|e| FitError::Encode(e.to_string()))?;
    Ok(dst.into_vec())
}

/// A baseline JPEG (4:2:0 below quality 90) from opaque RGBA.
fn encode_jpeg(rgba: &[u8], w: u32, h: u32, quality: u8) -> Result<Vec<u8>, FitError> {
    let mut out = Vec::with_capacity(rgba.len() / 16);
    let encoder = jpeg_encoder::Encoder::new(&mut out, quality);
    encoder.encode(rgba, w as u16, h as u16, jpeg_encoder::ColorType::Rgba).map_err(|e| FitError::Encode(e.to_string()))?;
    Ok(out)
}

#[cfg(test)]
#[path = "fit_tests.rs"]
mod tests;
