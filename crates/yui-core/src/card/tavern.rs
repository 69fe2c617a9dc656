//! Importing Tavern character cards: a `.json` file (V1 flat, V2
//! `chara_card_v2`, V3 `chara_card_v3`) or a `.png` carrying the JSON as
//! base64 in a `ccv3` or `chara` text chunk.

use super::png::{self, SIGNATURE};
use super::{Card, CardError};
use base64::engine::{general_purpose::GeneralPurpose, DecodePaddingMode, GeneralPurposeConfig};
use base64::Engine;

/// Standard base64 alphabet; padding may be present or not.
const BASE64: GeneralPurpose =
    GeneralPurpose::new(&base64::alphabet::STANDARD, GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent));

/// The text-chunk keywords that carry a card, the preferred one first
/// (a V3 card keeps a V2 copy under `chara` for older readers).
const KEYWORDS: [&str; 2] = ["ccv3", "chara"];

/// Read the card in `bytes`, a file the user picked named `file_name`.
///
/// A PNG (recognised by its signature) must be sound up to `IEND` and carry
/// the card as base64 JSON in a `tEXt` or uncompressed `iTXt` chunk keyed
/// `ccv3` or `chara`. Anything else is read as JSON when it starts with `{`
/// or is named `.json`. The card must have a name.
pub fn import_bytes(file_name: &str, bytes: &[u8]) -> Result<Card, CardError> {
    if bytes.starts_with(&SIGNATURE) || (has_extension(file_name, "png") && looks_like_cut_png(bytes)) {
        return from_png(bytes);
    }
    let text = bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(bytes);
    let starts_as_json = text.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{');
    if starts_as_json || has_extension(file_name, "json") {
        return parse_json(text);
    }
    Err(CardError::NotACard { file_name: file_name.to_string() })
}

/// Read a card from JSON `bytes`: a V2 or V3 wrapper (its `data` object) or
/// a V1 flat card. The card must have a name.
pub fn parse_json(bytes: &[u8]) -> Result<Card, CardError> {
    let raw = || String::from_utf8_lossy(bytes).into_owned();
    let value: serde_json::Value = serde_json::from_slice(bytes).map_err(|source| CardError::Json { raw: raw(), source })?;
    let data = match value.get("data") {
        Some(data @ serde_json::Value::Object(_)) => data.clone(),
        _ => value,
    };
    if !data.is_object() {
        let source = <serde_json::Error as serde::de::Error>::custom("a character card is a JSON object");
        return Err(CardError::Json { raw: raw(), source });
    }
    let card: Card = serde_json::from_value(data).map_err(|source| CardError::Json { raw: raw(), source })?;
    if card.name.trim().is_empty() {
        return Err(CardError::NoName);
    }
    Ok(card)
}

fn from_png(bytes: &[u8]) -> Result<Card, CardError> {
    let chunks = png::text_chunks(bytes)?;
    let mut first_error = None;
    for keyword in KEYWORDS {
        for chunk in chunks.iter().filter(|c| c.keyword == keyword) {
            match decode(keyword, &chunk.text) {
                Ok(card) => return Ok(card),
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
    }
    Err(first_error.unwrap_or(CardError::NoCharacterData))
}

fn decode(keyword: &str, text: &[u8]) -> Result<Card, CardError> {
    let compact: Vec<u8> = text.iter().copied().filter(|b| !b.is_ascii_whitespace()).collect();
    let json = BASE64.decode(&compact).map_err(|source| CardError::Base64 { keyword: keyword.to_string(), source })?;
    parse_json(&json)
}

fn has_extension(file_name: &str, ext: &str) -> bool {
    std::path::Path::new(file_name).extension().is_some_and(|e| e.to_string_lossy().eq_ignore_ascii_case(ext))
}

/// A `.png` cut off inside its signature.
fn looks_like_cut_png(bytes: &[u8]) -> bool {
    !bytes.is_empty() && SIGNATURE.starts_with(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn v1_v2_and_v3_json_all_read() {
        let v1 = br#"{"name":"Mio","description":"flat"}"#;
        let v2 = br#"{"spec":"chara_card_v2","spec_version":"2.0","data":{"name":"Mio","description":"two"}}"#;
        let v3 = br#"{"spec":"chara_card_v3","spec_version":"3.0","data":{"name":"Mio","description":"three","group_only_greetings":[]}}"#;
        assert_eq!(import_bytes("a.json", v1).unwrap().description, "flat");
        assert_eq!(import_bytes("a.json", v2).unwrap().description, "two");
        assert_eq!(import_bytes("card.txt", v3).unwrap().description, "three");
    }

    #[test]
    fn bad_inputs_give_their_error() {
        assert!(matches!(import_bytes("a.json", b"{\"name\":"), Err(CardError::Json { raw, .. }) if raw == "{\"name\":"));
        assert!(matches!(import_bytes("a.json", b"[1,2]"), Err(CardError::Json { .. })));
        assert!(matches!(import_bytes("a.json", br#"{"data":{"name":" "}}"#), Err(CardError::NoName)));
        assert!(matches!(import_bytes("a.gif", b"GIF89a"), Err(CardError::NotACard { file_name }) if file_name == "a.gif"));
        assert!(matches!(import_bytes("a.png", &SIGNATURE[..3]), Err(CardError::DamagedPng { .. })));
        assert!(matches!(import_bytes("a.png", b""), Err(CardError::NotACard { .. })));
    }

    #[test]
    fn base64_with_line_breaks_and_no_padding_decodes() {
        let json = br#"{"name":"Mio"}"#;
        let mut text = BASE64.encode(json).trim_end_matches('=').to_string();
        text.insert(4, '\n');
        assert_eq!(decode("chara", text.as_bytes()).unwrap().name, "Mio");
        assert!(matches!(decode("chara", b"!!!"), Err(CardError::Base64 { keyword, .. }) if keyword == "chara"));
    }
}
