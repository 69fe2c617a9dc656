//! Pixel conversion: transparency over white, for attachments fitted into
//! a JPEG. (The X server's image data is converted in
//! `crate::platform::x11`.)

/// Blends every pixel with alpha below 255 over white and makes it opaque,
/// so transparent parts of an attachment come out white in a JPEG, not black.
pub(crate) fn flatten_over_white(rgba: &mut [u8]) {
    for px in rgba.chunks_exact_mut(4) {
        let a = u32::from(px[3]);
        if a != 255 {
            for c in &mut px[..3] {
                *c = ((u32::from(*c) * a + 255 * (255 - a) + 127) / 255) as u8;
            }
            px[3] = 255;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transparency_goes_white() {
        let mut px = [0, 0, 0, 0, 100, 50, 0, 255, 0, 0, 0, 128];
        flatten_over_white(&mut px);
        assert_eq!(px, [255, 255, 255, 255, 100, 50, 0, 255, 127, 127, 127, 255]);
    }
}
