use super::*;
use crate::picture::PictureExt;
use proptest::prelude::*;
use std::sync::Arc;

/// A busy picture: gradients, hard edges and pseudo-random "text" dots, so
/// JPEG sizes are like a screen's, not a flat colour's.
pub(crate) fn busy_rgba(w: u32, h: u32, seed: u32) -> Vec<u8> {
    let mut px = Vec::with_capacity(w as usize * h as usize * 4);
    let mut s = seed.wrapping_mul(2_654_435_761).wrapping_add(1);
    for y in 0..h {
        for x in 0..w {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            let text = y / 6 % 3 == 0 && s.is_multiple_of(3);
            let g = ((x * 255) / w.max(1)) as u8;
            let b = ((y * 255) / h.max(1)) as u8;
            if text {
                px.extend_from_slice(&[20, 20, 20, 255]);
            } else if (x / 40 + y / 30) % 5 == 0 {
                px.extend_from_slice(&[(seed.wrapping_mul(60) % 256) as u8, 90, 200, 255]);
            } else {
                px.extend_from_slice(&[g, b, (s & 0x3F) as u8 + 150, 255]);
            }
        }
    }
    px
}

fn rgba(w: u32, h: u32, seed: u32) -> Picture {
    Picture::Rgba { width: w, height: h, pixels: Arc::new(busy_rgba(w, h, seed)) }
}

fn solid(w: u32, h: u32, c: [u8; 3]) -> Picture {
    let px: Vec<u8> = (0..w * h).flat_map(|_| [c[0], c[1], c[2], 255]).collect();
    Picture::Rgba { width: w, height: h, pixels: Arc::new(px) }
}

fn png(w: u32, h: u32, seed: u32) -> Picture {
    let img = image::RgbaImage::from_raw(w, h, busy_rgba(w, h, seed)).unwrap();
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Png).unwrap();
    Picture::from_file_bytes(out.into_inner()).unwrap()
}

/// The bytes the `images` array's elements take in real JSON.
fn json_array_inner(urls: &[String]) -> usize {
    let v = serde_json::json!({ "images": urls });
    let s = serde_json::to_string(&v).unwrap();
    // `{"images":[` ... `]}`
    s.len() - r#"{"images":[]}"#.len()
}

fn decode_url(url: &str) -> image::RgbaImage {
    let (_, data) = url.split_once(";base64,").unwrap();
    let bytes = base64::engine::general_purpose::STANDARD.decode(data).unwrap();
    image::load_from_memory(&bytes).unwrap().to_rgba8()
}

#[test]
fn overhead_is_quotes_and_commas() {
    assert_eq!(array_overhead(0), 0);
    assert_eq!(array_overhead(1), 2);
    assert_eq!(array_overhead(2), 5);
    assert_eq!(array_overhead(5), 14);
    let urls = vec!["a".to_string(), "bb".to_string(), "ccc".to_string()];
    assert_eq!(json_array_inner(&urls), 6 + array_overhead(3));
}

#[test]
fn url_lengths_are_exact() {
    for n in 0..20 {
        let bytes = vec![7u8; n];
        assert_eq!(data_url("jpeg", &bytes).len(), url_len("jpeg", n));
        assert!(url_len("jpeg", jpeg_bytes_for(100 + n)) <= 100 + n);
    }
    assert_eq!(jpeg_bytes_for(JPEG_PREFIX.len() + 4), 3);
    assert_eq!(jpeg_bytes_for(JPEG_PREFIX.len() + 7), 3);
    assert_eq!(jpeg_bytes_for(5), 0);
}

#[test]
fn nothing_to_fit() {
    assert_eq!(fit(&[], 0).unwrap(), Vec::<String>::new());
}

#[test]
fn unfittable_room_is_too_large() {
    assert_eq!(fit(&[rgba(64, 64, 1)], 100), Err(FitError::TooLarge));
    assert_eq!(fit(&[rgba(64, 64, 1), rgba(8, 8, 2)], 1), Err(FitError::TooLarge));
    assert_eq!(fit(&[png(300, 200, 3)], 300), Err(FitError::TooLarge));
}

#[test]
fn small_encoded_pictures_pass_untouched() {
    let pic = png(20, 10, 4);
    let Picture::Encoded { bytes, .. } = &pic else { unreachable!() };
    let expect = format!("data:image/png;base64,{}", base64::engine::general_purpose::STANDARD.encode(&**bytes));
    let urls = fit(&[pic.clone(), rgba(200, 100, 5)], 200_000).unwrap();
    assert_eq!(urls[0], expect);
    assert!(urls[1].starts_with("data:image/jpeg;base64,"));
}

#[test]
fn rgba_is_always_jpeg_and_unscaled_when_room_allows() {
    let urls = fit(&[rgba(120, 80, 6)], 10_000_000).unwrap();
    assert!(urls[0].starts_with("data:image/jpeg;base64,"));
    assert_eq!(decode_url(&urls[0]).dimensions(), (120, 80));
}

#[test]
fn big_png_over_its_share_comes_back_as_jpeg() {
    let pic = png(400, 300, 7);
    let Picture::Encoded { bytes, .. } = &pic else { unreachable!() };
    let room = bytes.len(); // less than its data URL
    let urls = fit(&[pic], room).unwrap();
    assert!(urls[0].starts_with("data:image/jpeg;base64,"), "{}", &urls[0][..30]);
    assert!(json_array_inner(&urls) <= room);
    let (w, h) = decode_url(&urls[0]).dimensions();
    assert!(w <= 400 && h <= 300);
}

#[test]
fn transparent_png_goes_white() {
    // A busy picture (so it cannot shrink below a tiny JPEG) with a clear hole.
    let mut px = busy_rgba(200, 160, 15);
    for y in 40..120 {
        for x in 50..150 {
            px[(y * 200 + x) * 4 + 3] = 0;
        }
    }
    let img = image::RgbaImage::from_raw(200, 160, px).unwrap();
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Png).unwrap();
    let pic = Picture::from_file_bytes(out.into_inner()).unwrap();
    let Picture::Encoded { bytes, .. } = &pic else { unreachable!() };
    // Room one byte short of the PNG as is: it must be re-encoded.
    let room = url_len("png", bytes.len()) + array_overhead(1) - 1;
    let urls = fit(std::slice::from_ref(&pic), room).unwrap();
    assert!(urls[0].starts_with("data:image/jpeg"));
    let img = decode_url(&urls[0]);
    let p = img.get_pixel(img.width() / 2, img.height() / 2).0;
    assert!(p[0] > 240 && p[1] > 240 && p[2] > 240, "{p:?}");
    // And with one byte more it passes as is.
    let urls = fit(&[pic], room + 1).unwrap();
    assert!(urls[0].starts_with("data:image/png"));
}

#[test]
fn order_is_preserved() {
    let colours = [[250, 10, 10], [10, 250, 10], [10, 10, 250], [240, 240, 20]];
    let pics: Vec<Picture> = colours.iter().map(|&c| solid(90, 60, c)).collect();
    for room in [20_000, 3_000_000] {
        let urls = fit(&pics, room).unwrap();
        for (url, c) in urls.iter().zip(colours) {
            let img = decode_url(url);
            let p = img.get_pixel(img.width() / 2, img.height() / 2).0;
            for k in 0..3 {
                assert!((i32::from(p[k]) - i32::from(c[k])).abs() < 20, "{p:?} vs {c:?}");
            }
        }
    }
}

#[test]
fn pictures_get_equal_shares() {
    let pics = [rgba(1200, 800, 8), rgba(1200, 800, 9), rgba(1200, 800, 10)];
    let room = 150_000;
    let urls = fit(&pics, room).unwrap();
    let share = (room - array_overhead(3)) / 3;
    assert!(urls[0].len() <= share, "{} > {share}", urls[0].len());
    for url in &urls {
        // each got a fair part: not starved, not above what was left to it
        assert!(url.len() > share / 3, "{} of {share}", url.len());
        assert!(url.len() <= share * 3 / 2);
    }
    assert!(json_array_inner(&urls) <= room);
}

#[test]
fn room_left_by_small_pictures_goes_to_the_big_one() {
    let tiny = png(8, 8, 11);
    let big = rgba(1600, 1000, 12);
    let room = 90_000;
    let urls = fit(&[tiny, big], room).unwrap();
    assert!(urls[0].starts_with("data:image/png"));
    // The big one may use more than half the room.
    assert!(urls[1].len() > room / 2, "{}", urls[1].len());
    assert!(json_array_inner(&urls) <= room);
}

#[test]
fn never_upscales() {
    let urls = fit(&[rgba(3, 2, 13), solid(1, 1, [1, 2, 3])], 1_000_000).unwrap();
    assert_eq!(decode_url(&urls[0]).dimensions(), (3, 2));
    assert_eq!(decode_url(&urls[1]).dimensions(), (1, 1));
}

#[test]
fn first_attempt_usually_suffices_for_a_screen() {
    // Not a strict property, but a 1080p busy screen into 256 KiB must not
    // come out tiny: the estimate should leave it reasonably large.
    let urls = fit(&[rgba(1920, 1080, 14)], 256 * 1024).unwrap();
    let (w, _) = decode_url(&urls[0]).dimensions();
    assert!(w >= 640, "{w}");
    assert!(json_array_inner(&urls) <= 256 * 1024);
}

#[derive(Debug, Clone)]
enum Spec {
    Raw(u32, u32, u32),
    Png(u32, u32, u32),
}

fn spec() -> impl Strategy<Value = Spec> {
    prop_oneof![
        (1u32..300, 1u32..300, any::<u32>()).prop_map(|(w, h, s)| Spec::Raw(w, h, s)),
        (1u32..120, 1u32..120, any::<u32>()).prop_map(|(w, h, s)| Spec::Png(w, h, s)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn fitted_urls_always_fit_the_room(specs in proptest::collection::vec(spec(), 1..4), room in 0usize..120_000) {
        let pics: Vec<Picture> = specs.iter().map(|s| match *s {
            Spec::Raw(w, h, seed) => rgba(w, h, seed),
            Spec::Png(w, h, seed) => png(w, h, seed),
        }).collect();
        match fit(&pics, room) {
            Ok(urls) => {
                prop_assert_eq!(urls.len(), pics.len());
                prop_assert!(json_array_inner(&urls) <= room, "{} > {}", json_array_inner(&urls), room);
                for (url, pic) in urls.iter().zip(&pics) {
                    let img = decode_url(url);
                    let (w, h) = pic.dimensions().unwrap();
                    prop_assert!(img.width() <= w && img.height() <= h);
                    if let Picture::Rgba { .. } = pic {
                        prop_assert!(url.starts_with("data:image/jpeg;base64,"));
                    }
                }
            }
            Err(e) => {
                prop_assert_eq!(e, FitError::TooLarge);
                // Only when each picture's share is below what a tiny JPEG needs.
                let share = room.saturating_sub(array_overhead(pics.len())) / pics.len();
                prop_assert!(share < 4_000, "gave up with a share of {}", share);
            }
        }
    }
}
