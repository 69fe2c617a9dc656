//! The catalogs are complete: every language has every file, message,
//! attribute and variable English has, and nothing English lacks; every file
//! parses; no id is defined twice in a language.

use std::collections::{BTreeMap, BTreeSet};

use yui_i18n::{files, outline, words, Outline, LANGUAGES};

/// Each language's messages by id, with the file that defines them.
fn catalog(language: &str) -> (BTreeMap<String, (String, Outline)>, Vec<String>) {
    let mut messages = BTreeMap::new();
    let mut problems = Vec::new();
    for file in files().iter().filter(|f| f.language == language) {
        let (entries, errors) = outline(file.source);
        for error in errors {
            problems.push(format!("{language}/{}: syntax error {error}", file.name));
        }
        for entry in entries {
            if let Some((first, _)) = messages.get(&entry.id) {
                problems.push(format!("{language}/{}: `{}` is already defined in {language}/{first}", file.name, entry.id));
            } else {
                messages.insert(entry.id.clone(), (file.name.to_string(), entry));
            }
        }
    }
    (messages, problems)
}

/// What `language` lacks or adds against English, as lines.
fn differences(language: &str) -> Vec<String> {
    let (english, mut problems) = catalog("en");
    let (other, other_problems) = catalog(language);
    problems.extend(other_problems);
    let en_files: BTreeSet<_> = files().iter().filter(|f| f.language == "en").map(|f| f.name).collect();
    let other_files: BTreeSet<_> = files().iter().filter(|f| f.language == language).map(|f| f.name).collect();
    for name in en_files.difference(&other_files) {
        problems.push(format!("{language}/ lacks the file {name}"));
    }
    for name in other_files.difference(&en_files) {
        problems.push(format!("{language}/{name} has no English file"));
    }
    for (id, (file, en)) in &english {
        match other.get(id) {
            None => problems.push(format!("{language} lacks `{id}` (en/{file})")),
            Some((other_file, message)) => {
                if other_file != file {
                    problems.push(format!("{language}/{other_file} defines `{id}`, which English keeps in {file}"));
                }
                if message.attributes != en.attributes {
                    problems.push(format!("{language} `{id}` has attributes {:?}, English {:?}", message.attributes, en.attributes));
                }
                if message.variables != en.variables {
                    problems.push(format!("{language} `{id}` uses variables {:?}, English {:?}", message.variables, en.variables));
                }
            }
        }
    }
    for id in other.keys().filter(|id| !english.contains_key(*id)) {
        problems.push(format!("{language} has `{id}`, which English lacks"));
    }
    problems
}

#[test]
fn every_language_has_every_message_english_has() {
    let problems: Vec<String> = LANGUAGES.iter().flat_map(|l| differences(l)).collect();
    assert!(problems.is_empty(), "the catalogs differ:\n{}", problems.join("\n"));
}

#[test]
fn the_catalogs_are_not_empty() {
    for language in LANGUAGES {
        let (messages, _) = catalog(language);
        assert!(messages.len() > 100, "{language} has only {} messages", messages.len());
    }
}

#[test]
fn a_missing_message_is_caught() {
    // The check itself can fail: a Japanese catalog without one English
    // message, with an extra attribute and another variable is reported.
    let en = "hello = Hello, { $name }\n    .title = Greeting\nbye = Bye\n";
    let ja = "hello = こんにちは\n    .title = 挨拶\n    .aria-label = 挨拶\n";
    let (en, _) = outline(en);
    let (ja, _) = outline(ja);
    assert_eq!(en.len(), 2);
    assert_eq!(ja.len(), 1);
    assert_ne!(en[0].variables, ja[0].variables);
    assert_ne!(en[0].attributes, ja[0].attributes);
    assert!(!ja.iter().any(|m| m.id == "bye"));
}

#[test]
fn words_format_and_fall_back() {
    let ja = words("ja");
    assert_eq!(ja.language(), "ja");
    assert_ne!(ja.text("tray-quit"), words("en").text("tray-quit"), "Japanese has its own word for Quit");
    assert_eq!(words("fr").language(), "en", "an unknown language is English");
    assert_eq!(ja.text("no-such-message"), "no-such-message");
    let named = words("ko").text_with("error-with-detail", &[("headline", "Ann"), ("detail", "Mio")]);
    assert_eq!(named, "Ann: Mio");
}
