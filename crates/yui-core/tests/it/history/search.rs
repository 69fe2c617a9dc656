//! Search: the trigram index, the index of pairs, snippets, newest first, and the answers the file store gave.

use super::*;

/// Three conversations to search: versions, Japanese, a title only.
fn searchable(dir: &Path) -> History {
    let h = History::open(&dir.join("history.db")).unwrap();
    h.put_conversation(meta("s1", "Sailing plans", 100));
    h.put_message("s1", user("us1", "Where should we sail this summer?", 100, None));
    let mut a = assistant("as1", "Try the Seto Inland Sea.", 101, None);
    a.answers.push(answer("r2", "Maybe Okinawa.", AnswerState::Done));
    a.active = 1;
    h.put_message("s1", a);
    h.put_conversation(meta("s2", "日本語の練習", 200));
    h.put_message("s2", user("us2", "東京の天気はどうですか", 200, None));
    h.put_message("s2", assistant("as2", "東京は晴れです。", 201, None));
    h.put_conversation(meta("s3", "Lighthouse stories", 300));
    h.put_message("s3", user("us3", "Tell me a story", 300, None));
    h.put_message("s3", assistant("as3", "Once upon a time", 301, None));
    h
}

pub(super) fn hit_ids(h: &History, q: &str) -> Vec<String> {
    h.search(q).into_iter().map(|h| h.message_id).collect()
}

#[test]
fn search_finds_words_parts_of_words_every_version_japanese_and_titles() {
    let dir = tempfile::tempdir().unwrap();
    let h = searchable(dir.path());
    assert_eq!(hit_ids(&h, "sail"), ["us1"], "the title matches too, but a message of it does");
    assert_eq!(hit_ids(&h, "SUMM"), ["us1"], "part of a word, any case");
    let seto = h.search("seto");
    assert_eq!((seto.len(), seto[0].message_id.as_str(), seto[0].snippet.as_str()), (1, "as1", "Try the Seto Inland Sea."), "a version not shown");
    assert_eq!(h.search("okina")[0].snippet, "Maybe Okinawa.");
    assert_eq!(hit_ids(&h, "晴れです"), ["as2"]);
    assert_eq!(hit_ids(&h, "天気"), ["us2"], "two characters: the scan");
    assert_eq!(hit_ids(&h, "東京"), ["as2", "us2"], "newest first");
    assert_eq!(hit_ids(&h, "京"), ["as2", "us2"]);
    let title = h.search("lighthouse");
    assert_eq!(title.len(), 1);
    assert_eq!((title[0].message_id.as_str(), title[0].snippet.as_str(), title[0].title.as_str()), ("us3", "Tell me a story", "Lighthouse stories"));
    assert_eq!(hit_ids(&h, "日本語"), ["us2"], "a Japanese title");
    for nothing in ["", "   ", "%", "_", "zz", "\"sea", "sea\" OR \"", "NEAR(a b)", "*"] {
        assert!(h.search(nothing).is_empty(), "{nothing:?}: {:?}", h.search(nothing));
    }
    assert_eq!(hit_ids(&h, " sea. "), ["as1"], "trimmed, any case, in a version not shown");
}

#[test]
fn search_keeps_the_newest_hits_with_one_line_snippets() {
    let dir = tempfile::tempdir().unwrap();
    let h = History::open(&dir.path().join("history.db")).unwrap();
    let long = format!("{}the needle\nis here {}", "hay ".repeat(100), "straw ".repeat(100));
    for k in 0..(CHAT_SEARCH_HITS as i64 + 10) {
        h.put_message(&format!("c{}", k % 3), user(&format!("u{k}"), &long, k, None));
    }
    let hits = h.search("NEEDLE");
    assert_eq!(hits.len(), CHAT_SEARCH_HITS);
    let at: Vec<i64> = hits.iter().map(|h| h.at_ms).collect();
    let newest: Vec<i64> = (10..CHAT_SEARCH_HITS as i64 + 10).rev().collect();
    assert_eq!(at, newest);
    let s = &hits[0].snippet;
    assert!(s.starts_with('…') && s.ends_with('…') && s.contains("the needle is here"), "{s}");
    assert!(s.chars().count() <= CHAT_SNIPPET_CHARS + 2, "{s}");
    assert!(!s.contains('\n'));
}

#[test]
fn search_answers_what_the_file_store_answered() {
    let dir = tempfile::tempdir().unwrap();
    let files = dir.path().join("chats");
    std::fs::create_dir(&files).unwrap();
    store_files(&files);
    let convs: Vec<Conversation> =
        std::fs::read_dir(&files).unwrap().flatten().map(|e| serde_json::from_str(&std::fs::read_to_string(e.path()).unwrap()).unwrap()).collect();
    let h = History::open(&dir.path().join("history.db")).unwrap();
    h.import_json(&files).unwrap();
    for q in ["weather", "WEATHER", "kyoto", "雨です", "京都", "rainy", "rain", "cook", "e", "ideas", "xyz", "the", "do"] {
        let mut got: Vec<(String, String)> = h.search(q).into_iter().map(|hit| (hit.conversation_id, hit.message_id)).collect();
        got.sort();
        assert_eq!(got, file_store_hits(&convs, q), "{q:?}");
        assert!(!got.is_empty() || q == "xyz", "{q:?} finds something");
    }
}

/// What the file store's search found for `query` (its rule, kept here as
/// the reference): every message whose shown text contains it, ignoring
/// case, and a conversation whose title contains it by its first user
/// message when none of its messages did.
fn file_store_hits(convs: &[Conversation], query: &str) -> Vec<(String, String)> {
    let needle = query.trim().to_lowercase();
    let mut hits = Vec::new();
    for c in convs {
        let mine: Vec<(String, String)> =
            c.messages.iter().filter(|m| m.shown_text().to_lowercase().contains(&needle)).map(|m| (c.id.clone(), m.id.clone())).collect();
        if mine.is_empty() && c.title.to_lowercase().contains(&needle) {
            hits.extend(c.messages.iter().find(|m| m.role == Role::User).map(|m| (c.id.clone(), m.id.clone())));
        }
        hits.extend(mine);
    }
    hits.sort();
    hits
}

#[test]
fn search_is_newest_first_across_forks_imports_and_one_busy_millisecond() {
    let dir = tempfile::tempdir().unwrap();
    let files = dir.path().join("chats");
    std::fs::create_dir(&files).unwrap();
    // An imported conversation created early and written to late, and one created later.
    let mut early = Conversation::new("early", 0);
    early.messages = (0..30).map(|k| user(&format!("e{k}"), "a needle here", 1_000 + 100 * k, None)).collect();
    let mut later = Conversation::new("later", 500);
    later.messages = (0..30).map(|k| user(&format!("l{k}"), "a needle there", 1_050 + 100 * k, None)).collect();
    for c in [&early, &later] {
        std::fs::write(files.join(format!("{}.json", c.id)), serde_json::to_vec(c).unwrap()).unwrap();
    }
    let h = History::open(&dir.path().join("history.db")).unwrap();
    h.import_json(&files).unwrap();
    // A fork copies old messages; a busy millisecond holds more than a time slot's worth.
    h.fork("early", "e29", meta("fork", "fork", 10_000));
    for k in 0..1_100 {
        h.put_message("busy", user(&format!("b{k}"), "hay", 20_000, None));
    }
    h.put_message("busy", user("last", "the needle, last", 20_001, None));
    let hits = h.search("needle");
    assert_eq!(hits.len(), CHAT_SEARCH_HITS);
    assert_eq!(hits[0].message_id, "last");
    assert!(hits.windows(2).all(|w| w[0].at_ms >= w[1].at_ms), "{:?}", hits.iter().map(|h| h.at_ms).collect::<Vec<_>>());
    // Exactly the newest: the last message, then the originals, their fork copies and the later ones by time.
    let mut expected: Vec<i64> = early.messages.iter().flat_map(|m| [m.at_ms, m.at_ms]).chain(later.messages.iter().map(|m| m.at_ms)).collect();
    expected.push(20_001);
    expected.sort_by_key(|at| std::cmp::Reverse(*at));
    expected.truncate(CHAT_SEARCH_HITS);
    assert_eq!(hits.iter().map(|h| h.at_ms).collect::<Vec<_>>(), expected);
    assert_eq!(all(&h, "busy").len(), 1_101);
    assert_eq!(h.search("hay").len(), CHAT_SEARCH_HITS);
    h.flush().unwrap();
    integrity(h.path());
}

#[test]
fn a_short_query_finds_old_messages_past_the_recent_ones() {
    let dir = tempfile::tempdir().unwrap();
    let h = History::open(&dir.path().join("history.db")).unwrap();
    let recent = 2_000;
    for k in 0..recent + 100 {
        let text = if [5, 10, recent + 90].contains(&k) { "東京へ" } else { "hay" };
        h.put_message("c", user(&format!("u{k}"), text, k, None));
    }
    h.put_message("c", assistant("old-answer", "京都 and more", 7, None));
    assert_eq!(hit_ids(&h, "東京"), [format!("u{}", recent + 90), "u10".into(), "u5".into()]);
    assert_eq!(hit_ids(&h, "京"), [format!("u{}", recent + 90), "u10".into(), "old-answer".into(), "u5".into()]);
    assert_eq!(hit_ids(&h, "京都"), ["old-answer"]);
    assert_eq!(h.search("ha").len(), CHAT_SEARCH_HITS);
}

#[test]
fn one_or_two_characters_are_found_through_the_index_of_pairs() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("history.db");
    let h = History::open(&path).unwrap();
    h.put_message("c", user("u1", "ok", 1, None));
    h.put_message("c", user("u2", "We met in 東京", 2, None));
    h.put_message("c", user("u3", "Q?", 3, None));
    h.put_message("c", user("u4", "nothing here", 4, None));
    h.put_message("c", assistant("a5", "Ok then, x", 5, None));
    // A whole message of two characters, a pair at the very end, one
    // character at the very end, case folded both ways, an answer.
    assert_eq!(hit_ids(&h, "OK"), ["a5", "u1"]);
    assert_eq!(hit_ids(&h, "京"), ["u2"]);
    assert_eq!(hit_ids(&h, "東京"), ["u2"]);
    assert_eq!(hit_ids(&h, "x"), ["a5"]);
    assert_eq!(hit_ids(&h, "q"), ["u3"]);
    assert_eq!(hit_ids(&h, "?"), ["u3"]);
    // No pair across a space that is not there, nor across two parts.
    assert!(hit_ids(&h, "kn").is_empty());
    assert!(hit_ids(&h, "zq").is_empty());
    // An edit and a delete follow.
    h.put_message("c", user("u1", "fine", 1, None));
    assert_eq!(hit_ids(&h, "ok"), ["a5"]);
    h.delete_messages("c", vec!["a5".to_string()], None);
    assert!(hit_ids(&h, "ok").is_empty());
    assert!(hit_ids(&h, "x").is_empty());
    h.flush().unwrap();
    drop(h);
    integrity(&path);
}
