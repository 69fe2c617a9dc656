//! A PNG chunk reader just big enough to find a card's text chunks: the
//! signature, then chunks of length, type, data and CRC-32, each checked,
//! up to `IEND`. Pixels are never decoded.

use super::CardError;

/// The eight bytes every PNG starts with.
pub(super) const SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1a, b'\n'];

/// The largest chunk length the PNG format allows (2^31 - 1).
const MAX_CHUNK_LEN: u32 = 0x7fff_ffff;

/// One text chunk's keyword and text, from `tEXt` or uncompressed `iTXt`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct TextChunk {
    /// The keyword, such as `chara`.
    pub keyword: String,
    /// The text bytes after the header.
    pub text: Vec<u8>,
}

/// Every `tEXt` and uncompressed `iTXt` chunk of the PNG `bytes`, in file
/// order. Any truncation or CRC mismatch before `IEND` is an error naming
/// the chunk. A compressed `iTXt` chunk is skipped.
pub(super) fn text_chunks(bytes: &[u8]) -> Result<Vec<TextChunk>, CardError> {
    let damaged = |chunk: String, problem| CardError::DamagedPng { chunk, problem };
    let mut rest = bytes.strip_prefix(&SIGNATURE).ok_or_else(|| damaged("signature".into(), "the PNG signature is missing"))?;
    let mut found = Vec::new();
    for index in 1.. {
        if rest.len() < 8 {
            return Err(damaged(format!("#{index}"), "the file ends before IEND"));
        }
        let len = u32::from_be_bytes([rest[0], rest[1], rest[2], rest[3]]);
        let kind = &rest[4..8];
        let name = String::from_utf8_lossy(kind).into_owned();
        if !kind.iter().all(u8::is_ascii_alphabetic) {
            return Err(damaged(format!("#{index}"), "the chunk type is not a PNG chunk type"));
        }
        if len > MAX_CHUNK_LEN {
            return Err(damaged(name, "the chunk length is out of range"));
        }
        let len = len as usize;
        if rest.len() - 8 < len.saturating_add(4) {
            return Err(damaged(name, "the file ends inside the chunk"));
        }
        let data = &rest[8..8 + len];
        let stored = u32::from_be_bytes([rest[8 + len], rest[9 + len], rest[10 + len], rest[11 + len]]);
        if crc32(&rest[4..8 + len]) != stored {
            return Err(damaged(name, "the CRC does not match"));
        }
        match kind {
            b"IEND" => break,
            b"tEXt" => found.extend(text(data)),
            b"iTXt" => found.extend(international_text(data)),
            _ => {}
        }
        rest = &rest[12 + len..];
    }
    Ok(found)
}

/// `tEXt`: keyword, NUL, Latin-1 text.
fn text(data: &[u8]) -> Option<TextChunk> {
    let nul = data.iter().position(|&b| b == 0)?;
    Some(TextChunk { keyword: String::from_utf8_lossy(&data[..nul]).into_owned(), text: data[nul + 1..].to_vec() })
}

/// `iTXt`: keyword, NUL, compression flag, method, language tag, NUL,
/// translated keyword, NUL, UTF-8 text. Compressed text is not read.
fn international_text(data: &[u8]) -> Option<TextChunk> {
    let nul = data.iter().position(|&b| b == 0)?;
    let keyword = String::from_utf8_lossy(&data[..nul]).into_owned();
    let after = data.get(nul + 1..)?;
    let (&compressed, after) = after.split_first()?;
    let after = after.get(1..)?;
    let lang_end = after.iter().position(|&b| b == 0)?;
    let after = &after[lang_end + 1..];
    let translated_end = after.iter().position(|&b| b == 0)?;
    let text = &after[translated_end + 1..];
    (compressed == 0).then(|| TextChunk { keyword, text: text.to_vec() })
}

/// CRC-32 (ISO 3309, the PNG checksum), through a table built at compile time.
fn crc32(bytes: &[u8]) -> u32 {
    const TABLE: [u32; 256] = {
        let mut table = [0u32; 256];
        let mut n = 0;
        while n < 256 {
            let mut c = n as u32;
            let mut k = 0;
            while k < 8 {
                c = if c & 1 != 0 { 0xedb8_8320 ^ (c >> 1) } else { c >> 1 };
                k += 1;
            }
            table[n] = c;
            n += 1;
        }
        table
    };
    !bytes.iter().fold(!0u32, |c, &b| TABLE[((c ^ b as u32) & 0xff) as usize] ^ (c >> 8))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
        let mut out = (data.len() as u32).to_be_bytes().to_vec();
        out.extend_from_slice(kind);
        out.extend_from_slice(data);
        let mut crc_input = kind.to_vec();
        crc_input.extend_from_slice(data);
        out.extend_from_slice(&crc32(&crc_input).to_be_bytes());
        out
    }

    fn png(chunks: &[Vec<u8>]) -> Vec<u8> {
        let mut out = SIGNATURE.to_vec();
        for c in chunks {
            out.extend_from_slice(c);
        }
        out
    }

    #[test]
    fn crc_matches_the_reference_value() {
        assert_eq!(crc32(b"123456789"), 0xcbf4_3926);
        assert_eq!(crc32(b"IEND"), 0xae42_6082);
    }

    #[test]
    fn reads_text_and_uncompressed_itxt_and_stops_at_iend() {
        let bytes = png(&[
            chunk(b"tEXt", b"chara\0abc"),
            chunk(b"iTXt", b"ccv3\0\0\0en\0\0xyz"),
            chunk(b"iTXt", b"chara\0\x01\0\0\0zzz"),
            chunk(b"IEND", b""),
            b"trailing bytes are ignored".to_vec(),
        ]);
        let found = text_chunks(&bytes).unwrap();
        assert_eq!(found, vec![TextChunk { keyword: "chara".into(), text: b"abc".to_vec() }, TextChunk { keyword: "ccv3".into(), text: b"xyz".to_vec() },]);
    }

    #[test]
    fn damage_names_the_chunk() {
        let good = png(&[chunk(b"tEXt", b"chara\0abc"), chunk(b"IEND", b"")]);
        let err = |bytes: &[u8]| match text_chunks(bytes) {
            Err(CardError::DamagedPng { chunk, problem }) => (chunk, problem),
            other => panic!("expected damage, got {other:?}"),
        };
        assert_eq!(err(&good[..good.len() - 12]).0, "#2");
        assert_eq!(err(&good[..20]).0, "tEXt");
        let mut flipped = good.clone();
        flipped[8 + 8 + 2] ^= 0x01;
        assert_eq!(err(&flipped), ("tEXt".to_string(), "the CRC does not match"));
        assert_eq!(err(&good[..4]).0, "signature");
        let mut huge = good.clone();
        huge[8..12].copy_from_slice(&u32::MAX.to_be_bytes());
        assert_eq!(err(&huge).1, "the chunk length is out of range");
    }
}
