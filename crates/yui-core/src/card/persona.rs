//! The bundled card of the default character "Yui", one per UI language,
//! from `configs/persona.json` (embedded at build time).

use super::Card;
use std::collections::HashMap;
use std::sync::OnceLock;

const PERSONA_JSON: &str = include_str!("../../../../configs/persona.json");

/// The language whose card stands in for any other.
const FALLBACK_LANG: &str = "en";

fn cards() -> &'static HashMap<String, Card> {
    static CARDS: OnceLock<HashMap<String, Card>> = OnceLock::new();
    CARDS.get_or_init(|| match serde_json::from_str(PERSONA_JSON) {
        Ok(cards) => cards,
        Err(e) => {
            tracing::error!(record = "persona_unreadable", error = %e, "configs/persona.json did not parse");
            HashMap::new()
        }
    })
}

/// The default character's card in the UI language `lang` (`en`, `ja`, `ko`;
/// a region such as `ko-KR` is read as its language; anything else gets `en`).
pub fn default_card(lang: &str) -> Card {
    let primary = lang.split(['-', '_']).next().unwrap_or_default().trim().to_ascii_lowercase();
    let cards = cards();
    cards.get(&primary).or_else(|| cards.get(FALLBACK_LANG)).cloned().unwrap_or_else(|| Card { name: "Yui".into(), ..Card::default() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::{assemble, greetings, post_history, Names};

    #[test]
    fn every_language_parses_and_is_filled_in() {
        let raw: HashMap<String, Card> = serde_json::from_str(PERSONA_JSON).unwrap();
        for lang in ["en", "ja", "ko"] {
            let card = &raw[lang];
            assert_eq!(card.name, "Yui", "{lang}");
            for (field, text) in [
                ("description", &card.description),
                ("personality", &card.personality),
                ("scenario", &card.scenario),
                ("first_mes", &card.first_mes),
                ("mes_example", &card.mes_example),
                ("post_history_instructions", &card.post_history_instructions),
            ] {
                assert!(!text.trim().is_empty(), "{lang}.{field} is empty");
            }
            assert!((1..=2).contains(&card.alternate_greetings.len()), "{lang}");
            assert_eq!(&default_card(lang), card);
            let names = Names { char_name: "Yui".into(), user_name: None, lang: lang.into() };
            assert!(!assemble(card, &names, "").contains("{{"), "{lang}: a macro is left");
            assert_eq!(greetings(card, &names).len(), 1 + card.alternate_greetings.len());
            assert!(post_history(card, &names).is_some());
        }
        assert!(raw["ja"].first_mes.chars().any(|c| ('\u{3040}'..='\u{30ff}').contains(&c)), "ja is Japanese");
        assert!(raw["ko"].first_mes.chars().any(|c| ('\u{ac00}'..='\u{d7a3}').contains(&c)), "ko is Korean");
    }

    #[test]
    fn unknown_languages_get_english() {
        assert_eq!(default_card("fr"), default_card("en"));
        assert_eq!(default_card("ja-JP"), default_card("ja"));
        assert_ne!(default_card("ja"), default_card("en"));
    }
}
