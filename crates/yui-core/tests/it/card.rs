//! The character card end to end: assembly as the request's instructions,
//! importing Tavern cards from JSON and PNG, and the store staying as it was
//! when an import fails.

use base64::Engine;
use yui_core::card::{assemble, current, default_card, greetings, import_bytes, import_into, instructions, post_history, Card, CardError, CardStore, Names};
use yui_core::{CoreError, DataDir, ErrorCode};

const FRAMING_SAM: &str = "You are Mio, a character who lives on Sam's desktop as an animated companion and talks with Sam.";

fn names(user: Option<&str>) -> Names {
    Names { char_name: "Mio".into(), user_name: user.map(str::to_string), lang: "en".into() }
}

fn full_card() -> Card {
    Card {
        name: "Mio".into(),
        system_prompt: "{{original}} Stay in character as {{char}}.".into(),
        description: "{{char}} is a fox spirit.".into(),
        personality: "playful".into(),
        scenario: "{{user}} is coding late.".into(),
        mes_example: "<START>\n{{user}}: hi\n{{char}}: {{random:a,b}}".into(),
        post_history_instructions: "Answer {{user}} briefly.".into(),
        first_mes: "Evening, {{user}}.".into(),
        alternate_greetings: vec!["It's {{char}}!".into()],
        ..Card::default()
    }
}

#[test]
fn assembly_puts_every_block_in_order_separated_by_one_blank_line() {
    let out = assemble(&full_card(), &names(Some("Sam")), "Use generate_express for gestures.");
    let expected = [
        format!("{FRAMING_SAM} Stay in character as Mio."),
        "Mio is a fox spirit.".to_string(),
        "Personality: playful".to_string(),
        "Scenario: Sam is coding late.".to_string(),
        "Example dialogue:\n<START>\nSam: hi\nMio: {{random:a,b}}".to_string(),
        "Use generate_express for gestures.".to_string(),
    ]
    .join("\n\n");
    assert_eq!(out, expected);
    assert!(!out.contains("\n\n\n"));
}

#[test]
fn empty_blocks_are_skipped_and_the_framing_sentence_stands_in_for_system_prompt() {
    let card = Card { name: "Mio".into(), description: "A fox.".into(), mes_example: "\n".into(), ..Card::default() };
    assert_eq!(assemble(&card, &names(Some("Sam")), ""), format!("{FRAMING_SAM}\n\nA fox."));
    let bare = Card { name: "Mio".into(), ..Card::default() };
    assert_eq!(assemble(&bare, &names(Some("Sam")), "CHAT"), format!("{FRAMING_SAM}\n\nCHAT"));
}

#[test]
fn macros_use_the_names_or_the_language_fallback() {
    let card = Card { name: "Card Name".into(), description: "{{char}} greets {{user}}; {{random}} {{Char}}".into(), ..Card::default() };
    let with_user = assemble(&card, &names(Some("Sam")), "");
    assert!(with_user.ends_with("Mio greets Sam; {{random}} Mio"), "{with_user}");
    let without = assemble(&card, &names(None), "");
    assert!(without.ends_with("Mio greets User; {{random}} Mio"), "{without}");
    let ja = Names { char_name: "Mio".into(), user_name: None, lang: "ja".into() };
    assert!(assemble(&card, &ja, "").ends_with("Mio greets ユーザー; {{random}} Mio"));
    let ko = Names { char_name: "Mio".into(), user_name: None, lang: "ko".into() };
    assert!(assemble(&card, &ko, "").ends_with("Mio greets 사용자; {{random}} Mio"));
    let original = Card { name: "Mio".into(), system_prompt: "[{{original}}]".into(), ..Card::default() };
    assert_eq!(assemble(&original, &names(Some("Sam")), ""), format!("[{FRAMING_SAM}]"));
}

#[test]
fn a_name_that_looks_like_a_macro_is_not_expanded_again() {
    let card = Card { name: "Mio".into(), description: "{{user}}".into(), ..Card::default() };
    let n = Names { char_name: "{{user}}".into(), user_name: Some("{{original}}".into()), lang: "en".into() };
    let out = assemble(&card, &n, "");
    assert!(out.ends_with("\n\n{{original}}"), "{out}");
    assert!(out.starts_with("You are {{user}}, a character who lives on {{original}}'s desktop"), "{out}");
}

#[test]
fn the_same_inputs_give_the_same_bytes() {
    let a = assemble(&full_card(), &names(Some("Sam")), "CHAT");
    let b = assemble(&full_card(), &names(Some("Sam")), "CHAT");
    assert_eq!(a.as_bytes(), b.as_bytes());
    assert_eq!(instructions(Some(&full_card()), &names(Some("Sam")), "CHAT"), a);
    assert_eq!(instructions(None, &names(Some("Sam")), "CHAT"), "CHAT");
}

#[test]
fn post_history_and_greetings_are_substituted() {
    let n = names(Some("Sam"));
    assert_eq!(post_history(&full_card(), &n).as_deref(), Some("Answer Sam briefly."));
    assert_eq!(greetings(&full_card(), &n), vec!["Evening, Sam.", "It's Mio!"]);
    assert!(!greetings(&default_card("ko"), &n).is_empty());
}

// ---- import ----

const V2_JSON: &str = r#"{
  "spec": "chara_card_v2",
  "spec_version": "2.0",
  "data": {
    "name": "Mio",
    "description": "A fox spirit.",
    "personality": "playful",
    "first_mes": "Hi {{user}}",
    "alternate_greetings": ["Yo"],
    "tags": ["fox"],
    "extensions": {"depth_prompt": {"prompt": "x", "depth": 4}},
    "something_new": true
  }
}"#;

fn crc(kind: &[u8], data: &[u8]) -> u32 {
    let mut h = crc32fast::Hasher::new();
    h.update(kind);
    h.update(data);
    h.finalize()
}

fn chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let mut out = (data.len() as u32).to_be_bytes().to_vec();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    out.extend_from_slice(&crc(kind, data).to_be_bytes());
    out
}

/// A real 1x1 grayscale PNG with `extra` chunks placed before IDAT.
fn png_with(extra: &[Vec<u8>]) -> Vec<u8> {
    let mut out = vec![0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1a, b'\n'];
    let ihdr = [0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0];
    out.extend(chunk(b"IHDR", &ihdr));
    for c in extra {
        out.extend_from_slice(c);
    }
    // zlib stream of one scanline: filter byte 0, one gray pixel 0 (stored block).
    let idat = [0x78, 0x01, 0x01, 0x02, 0x00, 0xfd, 0xff, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01];
    out.extend(chunk(b"IDAT", &idat));
    out.extend(chunk(b"IEND", b""));
    out
}

fn chara_text(keyword: &str, json: &str) -> Vec<u8> {
    let mut data = keyword.as_bytes().to_vec();
    data.push(0);
    data.extend(base64::engine::general_purpose::STANDARD.encode(json).into_bytes());
    chunk(b"tEXt", &data)
}

fn card_png() -> Vec<u8> {
    png_with(&[chara_text("chara", V2_JSON)])
}

#[test]
fn a_tavern_v2_json_imports_with_its_extensions() {
    let card = import_bytes("mio.json", V2_JSON.as_bytes()).unwrap();
    assert_eq!(card.name, "Mio");
    assert_eq!(card.alternate_greetings, vec!["Yo"]);
    assert_eq!(card.tags, vec!["fox"]);
    assert_eq!(card.extensions["depth_prompt"]["depth"], 4);
    assert_eq!(card.scenario, "", "a missing field reads as empty");
}

#[test]
fn a_png_card_imports_from_its_chara_chunk() {
    let card = import_bytes("mio.png", &card_png()).unwrap();
    assert_eq!(card, import_bytes("mio.json", V2_JSON.as_bytes()).unwrap());
}

#[test]
fn a_png_prefers_ccv3_and_reads_itxt() {
    let v3 = r#"{"spec":"chara_card_v3","spec_version":"3.0","data":{"name":"Mio v3"}}"#;
    let both = png_with(&[chara_text("chara", V2_JSON), chara_text("ccv3", v3)]);
    assert_eq!(import_bytes("mio.png", &both).unwrap().name, "Mio v3");
    let mut itxt = b"chara\0\0\0\0\0".to_vec();
    itxt.extend(base64::engine::general_purpose::STANDARD.encode(V2_JSON).into_bytes());
    assert_eq!(import_bytes("mio.png", &png_with(&[chunk(b"iTXt", &itxt)])).unwrap().name, "Mio");
}

fn damaged_inputs() -> Vec<(&'static str, &'static str, Vec<u8>)> {
    let good = card_png();
    let mut flipped = good.clone();
    // The first byte of the tEXt chunk's data (after signature 8 + IHDR 25 + length/type 8).
    flipped[8 + 25 + 8] ^= 0x20;
    vec![
        ("truncated png", "mio.png", good[..good.len() / 2].to_vec()),
        ("flipped crc byte", "mio.png", flipped),
        ("png without chara", "plain.png", png_with(&[])),
        ("bad base64", "mio.png", png_with(&[chunk(b"tEXt", b"chara\0@@not base64@@")])),
        ("bad json", "mio.json", br#"{"spec":"chara_card_v2","data":{"name":"Mio",}"#.to_vec()),
        ("no name", "mio.json", br#"{"spec":"chara_card_v2","spec_version":"2.0","data":{"description":"who?"}}"#.to_vec()),
        ("not a card", "mio.gif", b"GIF89a....".to_vec()),
    ]
}

#[test]
fn damaged_inputs_give_their_own_error() {
    for (what, file, bytes) in damaged_inputs() {
        let err = import_bytes(file, &bytes).unwrap_err();
        let ok = match what {
            "truncated png" => matches!(err, CardError::DamagedPng { .. }),
            "flipped crc byte" => matches!(&err, CardError::DamagedPng { chunk, .. } if chunk == "tEXt"),
            "png without chara" => matches!(err, CardError::NoCharacterData),
            "bad base64" => matches!(&err, CardError::Base64 { keyword, .. } if keyword == "chara"),
            "bad json" => matches!(&err, CardError::Json { raw, .. } if raw.contains("\"name\":\"Mio\",")),
            "no name" => matches!(err, CardError::NoName),
            "not a card" => matches!(err, CardError::NotACard { .. }),
            _ => unreachable!(),
        };
        assert!(ok, "{what}: got {err:?}");
        let message = err.to_string();
        assert!(!message.is_empty() && !message.contains('\n'), "{what}: {message}");
        assert_eq!(CoreError::from(err).code(), ErrorCode::Settings, "{what}");
    }
}

#[test]
fn a_failed_import_leaves_the_store_as_it_was() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = DataDir::new(tmp.path()).unwrap();
    let store = CardStore::new(&dir, "/home/me/characters/mio.vrm");
    assert_eq!(store.path(), tmp.path().join("cards").join("mio.json"));

    // Nothing stored yet: a failure stores nothing.
    for (what, file, bytes) in damaged_inputs() {
        assert!(import_into(&store, file, &bytes).is_err(), "{what}");
        assert!(!store.path().exists(), "{what}: a file appeared");
    }
    assert_eq!(current(&store, "ja"), default_card("ja"));

    // A card stored: each failure leaves the file byte for byte.
    let card = import_into(&store, "mio.png", &card_png()).unwrap();
    assert_eq!(card.name, "Mio");
    let before = std::fs::read(store.path()).unwrap();
    for (what, file, bytes) in damaged_inputs() {
        assert!(import_into(&store, file, &bytes).is_err(), "{what}");
        assert_eq!(std::fs::read(store.path()).unwrap(), before, "{what}: the stored card changed");
    }
    assert_eq!(store.load(), Some(card.clone()));
    assert_eq!(current(&store, "ja"), card);
    let leftovers: Vec<_> = std::fs::read_dir(tmp.path().join("cards")).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(leftovers, vec![std::ffi::OsString::from("mio.json")], "no temp file is left behind");

    // The stored file is itself a Tavern V2 card another tool can read.
    let stored: serde_json::Value = serde_json::from_slice(&before).unwrap();
    assert_eq!(stored["spec"], "chara_card_v2");
    assert_eq!(import_bytes("mio.json", &before).unwrap(), card);
}

#[test]
fn the_default_persona_exists_in_every_ui_language() {
    for lang in ["en", "ja", "ko"] {
        let card = default_card(lang);
        assert_eq!(card.name, "Yui");
        assert!(!card.first_mes.is_empty() && !card.description.is_empty(), "{lang}");
        assert!(!card.post_history_instructions.is_empty(), "{lang}");
    }
    assert_eq!(default_card("de"), default_card("en"));
}
