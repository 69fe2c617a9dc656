//! Card assembly: the card's fields, in a fixed order, as one instructions
//! string, with the `{{char}}`, `{{user}}` and `{{original}}` macros substituted.
//!
//! Everything here is pure: the same card, names, UI language and
//! chat_instructions give the same bytes on every call.

use super::Card;

/// Who is talking, and in which UI language, for macro substitution.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Names {
    /// The preset's name, for `{{char}}`. When blank, the card's own `name` is used.
    pub char_name: String,
    /// The user's name, for `{{user}}`. When unset or blank, a fallback word
    /// in the UI language is used (see [`user_fallback`]).
    pub user_name: Option<String>,
    /// The UI language (`en`, `ja`, `ko`; a region such as `ja-JP` is read as
    /// its language; anything else reads as `en`).
    pub lang: String,
}

/// The UI languages that have their own wording.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lang {
    En,
    Ja,
    Ko,
}

impl Lang {
    fn of(lang: &str) -> Self {
        let primary = lang.split(['-', '_']).next().unwrap_or_default().trim().to_ascii_lowercase();
        match primary.as_str() {
            "ja" => Lang::Ja,
            "ko" => Lang::Ko,
            _ => Lang::En,
        }
    }
}

/// The framing sentence of each language, before its names are filled in.
/// It uses only `{{char}}` and `{{user}}`, never `{{original}}`.
fn framing_template(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "You are {{char}}, a character who lives on {{user}}'s desktop as an animated companion and talks with {{user}}.",
        Lang::Ja => "あなたは{{char}}です。{{user}}さんのデスクトップにアニメーションの相棒として暮らし、{{user}}さんと会話するキャラクターです。",
        Lang::Ko => "당신은 {{char}}입니다. {{user}}님의 데스크톱에 애니메이션 동반자로 살면서 {{user}}님과 대화하는 캐릭터입니다.",
    }
}

/// The word `{{user}}` becomes when the user has set no name, in the UI
/// language `lang` (`en` for a language without its own wording).
pub fn user_fallback(lang: &str) -> &'static str {
    match Lang::of(lang) {
        Lang::En => "User",
        Lang::Ja => "ユーザー",
        Lang::Ko => "사용자",
    }
}

/// The values the three macros become.
struct Macros {
    char_name: String,
    user_name: String,
    original: String,
}

impl Macros {
    fn new(card: &Card, names: &Names) -> Self {
        let char_name = if names.char_name.trim().is_empty() { card.name.trim() } else { names.char_name.trim() };
        let user_name = names.user_name.as_deref().map(str::trim).filter(|n| !n.is_empty()).unwrap_or_else(|| user_fallback(&names.lang));
        let original = substitute(framing_template(Lang::of(&names.lang)), char_name, user_name, "");
        Self { char_name: char_name.to_string(), user_name: user_name.to_string(), original }
    }

    fn apply(&self, text: &str) -> String {
        substitute(text, &self.char_name, &self.user_name, &self.original)
    }
}

/// Replace `{{char}}`, `{{user}}` and `{{original}}` (in any letter case) in
/// one left-to-right pass. A replacement is never scanned again, so a name
/// that itself reads `{{user}}` stays as written; any other `{{...}}` is
/// copied unchanged.
fn substitute(text: &str, char_name: &str, user_name: &str, original: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find("{{") {
        out.push_str(&rest[..open]);
        let after = &rest[open + 2..];
        let value = after.find("}}").and_then(|close| {
            let name = &after[..close];
            let value = if name.eq_ignore_ascii_case("char") {
                char_name
            } else if name.eq_ignore_ascii_case("user") {
                user_name
            } else if name.eq_ignore_ascii_case("original") {
                original
            } else {
                return None;
            };
            Some((value, close))
        });
        match value {
            Some((value, close)) => {
                out.push_str(value);
                rest = &after[close + 2..];
            }
            None => {
                out.push('{');
                rest = &rest[open + 1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The client's framing sentence in the UI language, with the character's
/// and the user's names filled in: what `{{original}}` becomes, and block 1
/// of the card when the card has no `system_prompt`.
pub fn framing(card: &Card, names: &Names) -> String {
    Macros::new(card, names).original
}

/// The card assembled into one string: the blocks below in this order, each
/// present only when its field is non-empty (after trimming), joined by one
/// blank line.
///
/// 1. `system_prompt`, or the framing sentence when it is empty
/// 2. `description`
/// 3. `Personality: ` + `personality`
/// 4. `Scenario: ` + `scenario`
/// 5. `Example dialogue:` + a newline + `mes_example`
/// 6. `chat_instructions`
///
/// Macros are substituted in the card's fields; `chat_instructions` is the
/// client's own text and is copied as given.
pub fn assemble(card: &Card, names: &Names, chat_instructions: &str) -> String {
    let macros = Macros::new(card, names);
    let field = |text: &str| Some(text.trim()).filter(|t| !t.is_empty()).map(|t| macros.apply(t));
    let blocks = [
        Some(field(&card.system_prompt).unwrap_or_else(|| macros.original.clone())),
        field(&card.description),
        field(&card.personality).map(|p| format!("Personality: {p}")),
        field(&card.scenario).map(|s| format!("Scenario: {s}")),
        field(&card.mes_example).map(|m| format!("Example dialogue:\n{m}")),
        Some(chat_instructions.trim()).filter(|c| !c.is_empty()).map(str::to_string),
    ];
    blocks.into_iter().flatten().collect::<Vec<_>>().join("\n\n")
}

/// The turn's instructions: the assembled `card` followed by
/// `chat_instructions`, or `chat_instructions` alone when the card is off (`None`).
pub fn instructions(card: Option<&Card>, names: &Names, chat_instructions: &str) -> String {
    match card {
        Some(card) => assemble(card, names, chat_instructions),
        None => chat_instructions.to_string(),
    }
}

/// The card's post-history instructions with macros substituted; `None` when
/// the card has none.
pub fn post_history(card: &Card, names: &Names) -> Option<String> {
    let text = card.post_history_instructions.trim();
    (!text.is_empty()).then(|| Macros::new(card, names).apply(text))
}

/// The card's greetings, `first_mes` first and then `alternate_greetings`,
/// blank ones left out, trimmed, with macros substituted.
pub fn greetings(card: &Card, names: &Names) -> Vec<String> {
    let macros = Macros::new(card, names);
    std::iter::once(&card.first_mes).chain(&card.alternate_greetings).map(|g| g.trim()).filter(|g| !g.is_empty()).map(|g| macros.apply(g)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(user: Option<&str>, lang: &str) -> Names {
        Names { char_name: "Mio".into(), user_name: user.map(str::to_string), lang: lang.into() }
    }

    fn full() -> Card {
        Card {
            name: "Mio".into(),
            system_prompt: "SYS {{original}}".into(),
            description: "DESC".into(),
            personality: "cheerful".into(),
            scenario: "a desk".into(),
            mes_example: "<START>\n{{user}}: hi\n{{char}}: hello".into(),
            ..Card::default()
        }
    }

    #[test]
    fn every_block_in_order_with_one_blank_line_between() {
        let out = assemble(&full(), &names(Some("Sam"), "en"), "CHAT");
        let framing = "You are Mio, a character who lives on Sam's desktop as an animated companion and talks with Sam.";
        assert_eq!(
            out,
            format!("SYS {framing}\n\nDESC\n\nPersonality: cheerful\n\nScenario: a desk\n\nExample dialogue:\n<START>\nSam: hi\nMio: hello\n\nCHAT")
        );
    }

    #[test]
    fn empty_blocks_are_left_out_and_the_framing_sentence_fills_in() {
        let card = Card { name: "Mio".into(), scenario: "  ".into(), personality: "shy".into(), ..Card::default() };
        let out = assemble(&card, &names(None, "en"), "");
        assert_eq!(out, "You are Mio, a character who lives on User's desktop as an animated companion and talks with User.\n\nPersonality: shy");
    }

    #[test]
    fn substitution_is_one_pass_and_leaves_other_macros() {
        assert_eq!(substitute("{{CHAR}} {{random}} {{user}} {{ {{original}}", "{{user}}", "U", "O"), "{{user}} {{random}} U {{ O");
        assert_eq!(substitute("tail {{char", "C", "U", "O"), "tail {{char");
        assert_eq!(substitute("{{{char}}}", "C", "U", "O"), "{C}");
    }

    #[test]
    fn languages_and_fallbacks() {
        let card = Card { name: "Yui".into(), ..Card::default() };
        let ja = framing(&card, &Names { char_name: String::new(), user_name: Some(" ".into()), lang: "ja-JP".into() });
        assert!(ja.starts_with("あなたはYuiです。ユーザーさん"), "{ja}");
        assert!(framing(&card, &names(None, "ko")).contains("사용자님"));
        assert!(framing(&card, &names(None, "fr")).starts_with("You are Mio"));
        assert_eq!(user_fallback("xx"), "User");
    }

    #[test]
    fn greetings_and_post_history() {
        let card = Card {
            name: "Mio".into(),
            first_mes: "Hi {{user}}!".into(),
            alternate_greetings: vec!["".into(), " Yo, I'm {{char}}. ".into()],
            post_history_instructions: "Stay {{char}}.".into(),
            ..Card::default()
        };
        let n = names(Some("Sam"), "en");
        assert_eq!(greetings(&card, &n), vec!["Hi Sam!", "Yo, I'm Mio."]);
        assert_eq!(post_history(&card, &n).as_deref(), Some("Stay Mio."));
        assert_eq!(post_history(&Card::default(), &n), None);
        assert_eq!(instructions(None, &n, "CHAT"), "CHAT");
    }
}
