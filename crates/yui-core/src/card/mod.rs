//! The character card: the persona text of a preset in Tavern Card V2 shape.
//!
//! - [`Card`] holds the card's `data` fields.
//! - [`assemble`] turns a card into the request's instructions, with the
//!   `{{char}}`, `{{user}}` and `{{original}}` macros substituted.
//! - [`default_card`] is the bundled card of the default character, per UI
//!   language (`configs/persona.json`).
//! - [`import_bytes`] reads a Tavern card from a `.json` file or a `.png`
//!   with the card in a text chunk.
//! - [`CardStore`] keeps one imported card per character in the data directory.

mod assemble;
mod persona;
mod png;
mod store;
mod tavern;

pub use crate::error::CardError;
pub use assemble::{assemble, framing, greetings, instructions, post_history, user_fallback, Names};
pub use persona::default_card;
pub use store::{current, import_into, CardStore};
pub use tavern::{import_bytes, parse_json};

use serde::{Deserialize, Deserializer, Serialize};

/// The `data` object of a Tavern Card V2. Every field is optional when read:
/// a missing or `null` field reads as empty, and unknown fields are ignored.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Card {
    /// The character's name (`{{char}}` when the preset names no one else).
    #[serde(deserialize_with = "text")]
    pub name: String,
    /// Who the character is.
    #[serde(deserialize_with = "text")]
    pub description: String,
    /// A short summary of the character's personality.
    #[serde(deserialize_with = "text")]
    pub personality: String,
    /// The circumstances of the conversation.
    #[serde(deserialize_with = "text")]
    pub scenario: String,
    /// The first greeting.
    #[serde(deserialize_with = "text")]
    pub first_mes: String,
    /// Example dialogue, usually in `<START>` blocks.
    #[serde(deserialize_with = "text")]
    pub mes_example: String,
    /// Notes for people using the card; never sent to the model.
    #[serde(deserialize_with = "text")]
    pub creator_notes: String,
    /// Replaces the client's framing sentence when non-empty.
    #[serde(deserialize_with = "text")]
    pub system_prompt: String,
    /// Text placed after the history, right before the turn's context.
    #[serde(deserialize_with = "text")]
    pub post_history_instructions: String,
    /// More greetings besides `first_mes`.
    #[serde(deserialize_with = "texts")]
    pub alternate_greetings: Vec<String>,
    /// Free-form tags.
    #[serde(deserialize_with = "texts")]
    pub tags: Vec<String>,
    /// Who made the card.
    #[serde(deserialize_with = "text")]
    pub creator: String,
    /// The card's own version label.
    #[serde(deserialize_with = "text")]
    pub character_version: String,
    /// Application-specific data, kept as it was read.
    pub extensions: serde_json::Value,
}

/// A text field: a string, or a number or boolean written as text; `null` is empty.
fn text<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    use serde::de::Error;
    match serde_json::Value::deserialize(d)? {
        serde_json::Value::Null => Ok(String::new()),
        serde_json::Value::String(s) => Ok(s),
        serde_json::Value::Number(n) => Ok(n.to_string()),
        serde_json::Value::Bool(b) => Ok(b.to_string()),
        other => Err(D::Error::custom(format!("expected text, found {}", kind(&other)))),
    }
}

/// A list of texts; `null` is empty, and a single string is a list of one.
fn texts<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    use serde::de::Error;
    match serde_json::Value::deserialize(d)? {
        serde_json::Value::Null => Ok(Vec::new()),
        serde_json::Value::String(s) => Ok(vec![s]),
        serde_json::Value::Array(items) => items
            .into_iter()
            .filter(|v| !v.is_null())
            .map(|v| match v {
                serde_json::Value::String(s) => Ok(s),
                other => Err(D::Error::custom(format!("expected text in a list, found {}", kind(&other)))),
            })
            .collect(),
        other => Err(D::Error::custom(format!("expected a list of texts, found {}", kind(&other)))),
    }
}

fn kind(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "a list",
        serde_json::Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_partial_card_loads_and_unknown_fields_are_ignored() {
        let card: Card = serde_json::from_str(r#"{"name":"Mio","tags":null,"talkativeness":"0.5","character_version":2}"#).unwrap();
        assert_eq!(card.name, "Mio");
        assert!(card.tags.is_empty());
        assert_eq!(card.character_version, "2");
        assert_eq!(card.description, "");
        assert!(card.extensions.is_null());
    }

    #[test]
    fn a_wrong_type_is_an_error_not_a_panic() {
        assert!(serde_json::from_str::<Card>(r#"{"name":{"first":"Mio"}}"#).is_err());
        assert!(serde_json::from_str::<Card>(r#"{"name":"Mio","tags":[1]}"#).is_err());
    }
}
