//! X server image data to RGBA, for the X11 capture. Plain loops the
//! compiler vectorises; no per-pixel calls through pointers. Used and
//! tested on Linux.

/// How an X server lays out one ZPixmap image's pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct XLayout {
    /// Bits per pixel of the image's pixmap format (16, 24 or 32).
    pub bits_per_pixel: u8,
    /// Bytes from one row's start to the next (rows are padded).
    pub stride: usize,
    /// The server's image byte order is least significant byte first.
    pub lsb_first: bool,
}

/// `XLayout` for `width` pixels of `bits_per_pixel` with rows padded to
/// `scanline_pad` bits.
pub(crate) fn x_stride(width: u32, bits_per_pixel: u8, scanline_pad: u8) -> usize {
    let pad = usize::from(scanline_pad.max(8));
    let bits = width as usize * usize::from(bits_per_pixel);
    bits.div_ceil(pad) * pad / 8
}

/// X ZPixmap data (true colour: 32-bit BGRX/XRGB, 24-bit packed, or 16-bit
/// 5-6-5) to RGBA with opaque alpha. `None` when the layout is unsupported or
/// `data` is too short.
pub(crate) fn x_to_rgba(data: &[u8], width: u32, height: u32, layout: XLayout) -> Option<Vec<u8>> {
    let (w, h) = (width as usize, height as usize);
    let bpp = usize::from(layout.bits_per_pixel) / 8;
    if !matches!(layout.bits_per_pixel, 16 | 24 | 32) || layout.stride < w * bpp {
        return None;
    }
    if h > 0 && data.len() < layout.stride * (h - 1) + w * bpp {
        return None;
    }
    let mut out = vec![0u8; w * h * 4];
    if w == 0 || h == 0 {
        return Some(out);
    }
    for (row, dst) in out.chunks_exact_mut(w * 4).enumerate() {
        let src = &data[row * layout.stride..row * layout.stride + w * bpp];
        match (layout.bits_per_pixel, layout.lsb_first) {
            (32, true) => bgrx_row(src, dst),
            (32, false) => {
                for (s, d) in src.chunks_exact(4).zip(dst.chunks_exact_mut(4)) {
                    d.copy_from_slice(&[s[1], s[2], s[3], 255]);
                }
            }
            (24, lsb) => {
                for (s, d) in src.chunks_exact(3).zip(dst.chunks_exact_mut(4)) {
                    let px = if lsb { [s[2], s[1], s[0], 255] } else { [s[0], s[1], s[2], 255] };
                    d.copy_from_slice(&px);
                }
            }
            (_, lsb) => {
                for (s, d) in src.chunks_exact(2).zip(dst.chunks_exact_mut(4)) {
                    let v = if lsb { u16::from_le_bytes([s[0], s[1]]) } else { u16::from_be_bytes([s[0], s[1]]) };
                    let r = ((v >> 11) & 31) as u32;
                    let g = ((v >> 5) & 63) as u32;
                    let b = (v & 31) as u32;
                    d.copy_from_slice(&[(r * 255 / 31) as u8, (g * 255 / 63) as u8, (b * 255 / 31) as u8, 255]);
                }
            }
        }
    }
    Some(out)
}

/// One row of little-endian 32-bit pixels (bytes B G R X) to R G B 255:
/// a byte swap on whole words, which vectorises.
fn bgrx_row(src: &[u8], dst: &mut [u8]) {
    for (s, d) in src.chunks_exact(4).zip(dst.chunks_exact_mut(4)) {
        let v = u32::from_le_bytes([s[0], s[1], s[2], s[3]]);
        let o = ((v >> 16) & 0xFF) | (v & 0xFF00) | ((v & 0xFF) << 16) | 0xFF00_0000;
        d.copy_from_slice(&o.to_le_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bgrx_lsb_to_rgba() {
        let data = [10, 20, 30, 0, 1, 2, 3, 99];
        let layout = XLayout { bits_per_pixel: 32, stride: 8, lsb_first: true };
        assert_eq!(x_to_rgba(&data, 2, 1, layout).unwrap(), vec![30, 20, 10, 255, 3, 2, 1, 255]);
    }

    #[test]
    fn msb_32_and_24_bit_with_padding() {
        let layout = XLayout { bits_per_pixel: 32, stride: 4, lsb_first: false };
        assert_eq!(x_to_rgba(&[0, 7, 8, 9], 1, 1, layout).unwrap(), vec![7, 8, 9, 255]);
        // 24-bit, 1 pixel wide, 2 rows padded to 4 bytes.
        let stride = x_stride(1, 24, 32);
        assert_eq!(stride, 4);
        let layout = XLayout { bits_per_pixel: 24, stride, lsb_first: true };
        let data = [1, 2, 3, 0xEE, 4, 5, 6];
        assert_eq!(x_to_rgba(&data, 1, 2, layout).unwrap(), vec![3, 2, 1, 255, 6, 5, 4, 255]);
    }

    #[test]
    fn rgb565() {
        let layout = XLayout { bits_per_pixel: 16, stride: 4, lsb_first: true };
        let white = 0xFFFFu16.to_le_bytes();
        let red = 0xF800u16.to_le_bytes();
        let data = [white[0], white[1], red[0], red[1]];
        assert_eq!(x_to_rgba(&data, 2, 1, layout).unwrap(), vec![255, 255, 255, 255, 255, 0, 0, 255]);
    }

    #[test]
    fn rejects_short_data_and_odd_depths() {
        let layout = XLayout { bits_per_pixel: 32, stride: 8, lsb_first: true };
        assert!(x_to_rgba(&[0; 15], 2, 2, layout).is_none());
        assert!(x_to_rgba(&[0; 16], 2, 2, layout).is_some());
        let layout = XLayout { bits_per_pixel: 8, stride: 2, lsb_first: true };
        assert!(x_to_rgba(&[0; 4], 2, 2, layout).is_none());
    }

    #[test]
    fn stride_pads_rows() {
        assert_eq!(x_stride(1920, 32, 32), 7680);
        assert_eq!(x_stride(3, 24, 32), 12);
        assert_eq!(x_stride(3, 16, 32), 8);
    }
}
