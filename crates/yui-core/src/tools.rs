//! The client tools this window declares in hello, and the answers it gives.
//!
//! Declared now: `address_character` (`shared/spec/client-tools.md`). This
//! build opens one character, so no name is another open character and every
//! well-formed call answers `error: invalid field character`, as the spec says.

use serde_json::{json, Value};

/// The function schemas sent in `hello.tools`, in the OpenAI function-tool shape.
pub fn declarations() -> Vec<Value> {
    vec![json!({
        "type": "function",
        "function": {
            "name": "address_character",
            "description": "Speak to another open character by name; it gets a turn when this reply has finished playing",
            "parameters": {
                "type": "object",
                "properties": { "character": { "type": "string", "description": "The name of another open character" } },
                "required": ["character"],
                "additionalProperties": false
            }
        }
    })]
}

/// Answer one tool_call. `stopped` is true when its turn was stopped by the user.
pub fn answer(name: &str, arguments: &Value, stopped: bool) -> String {
    let declared = declarations();
    let known = declared.iter().any(|d| d["function"]["name"] == name);
    if !known {
        return "error: unknown tool".into();
    }
    if stopped {
        return "error: turn stopped".into();
    }
    match name {
        "address_character" => match arguments.get("character") {
            None => "error: missing field character".into(),
            Some(Value::String(_)) => "error: invalid field character".into(),
            Some(_) => "error: invalid field character".into(),
        },
        _ => "error: unknown tool".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_follow_the_client_rules() {
        assert_eq!(answer("look", &json!({}), false), "error: unknown tool");
        assert_eq!(answer("address_character", &json!({}), false), "error: missing field character");
        assert_eq!(answer("address_character", &json!({"character": 3}), false), "error: invalid field character");
        assert_eq!(answer("address_character", &json!({"character": "perlica"}), true), "error: turn stopped");
        assert_eq!(declarations()[0]["function"]["name"], "address_character");
    }
}
