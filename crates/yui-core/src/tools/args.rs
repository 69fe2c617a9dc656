//! A tool call's name and arguments read into one typed value, and the
//! generic answers of a call that does not read.

use crate::limits;
use serde_json::{Map, Value};
use std::time::Duration;

/// A declared tool's call with its arguments checked and typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolArgs {
    /// `address_character { character }`: speak to another open character.
    AddressCharacter {
        /// The name of the character addressed.
        character: String,
    },
}

/// Why a call failed; its `Display` is the answer sent, word for word.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ToolError {
    /// The name is not a declared tool.
    #[error("error: unknown tool")]
    UnknownTool,
    /// A field the tool needs is absent.
    #[error("error: missing field {0}")]
    MissingField(&'static str),
    /// A field carries a value the tool does not accept.
    #[error("error: invalid field {0}")]
    InvalidField(&'static str),
    /// The call's turn was stopped.
    #[error("error: turn stopped")]
    TurnStopped,
    /// The call ran past its client wait. The spec names only the backend's
    /// wording (`error: no reply from the client within <n> s`); the client's
    /// own is this shorter `error: no reply within <n> s`, in whole seconds.
    #[error("error: no reply within {} s", .0.as_secs())]
    NoReply(Duration),
}

impl ToolArgs {
    /// Read a call. Arguments that are not a JSON object make every field
    /// the tool reads invalid (`transport/CONTRACT.md`); fields it does not
    /// read are ignored.
    pub fn parse(name: &str, arguments: &Value) -> Result<ToolArgs, ToolError> {
        let fields = Fields(arguments.as_object());
        match name {
            "address_character" => Ok(ToolArgs::AddressCharacter { character: fields.string("character")? }),
            _ => Err(ToolError::UnknownTool),
        }
    }

    /// The tool's name as declared.
    pub fn name(&self) -> &'static str {
        match self {
            ToolArgs::AddressCharacter { .. } => "address_character",
        }
    }

    /// The client's wait for this tool (the limits table), counted from
    /// when the call starts running.
    pub fn wait(&self) -> Duration {
        match self {
            ToolArgs::AddressCharacter { .. } => limits::TOOL_CALL_WAIT_ADDRESS_CHARACTER,
        }
    }
}

/// The arguments object, or none when the arguments were not an object.
struct Fields<'a>(Option<&'a Map<String, Value>>);

impl Fields<'_> {
    fn get(&self, name: &'static str) -> Result<&Value, ToolError> {
        let map = self.0.ok_or(ToolError::InvalidField(name))?;
        map.get(name).ok_or(ToolError::MissingField(name))
    }

    fn string(&self, name: &'static str) -> Result<String, ToolError> {
        match self.get(name)? {
            Value::String(s) => Ok(s.clone()),
            _ => Err(ToolError::InvalidField(name)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn answer(name: &str, arguments: Value) -> String {
        match ToolArgs::parse(name, &arguments) {
            Ok(args) => format!("ok {}", args.name()),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn every_generic_answer_word_for_word() {
        assert_eq!(answer("look", json!({})), "error: unknown tool");
        assert_eq!(answer("address_character", json!({})), "error: missing field character");
        assert_eq!(answer("address_character", json!({"character": 3})), "error: invalid field character");
        assert_eq!(answer("address_character", json!({"character": null})), "error: invalid field character");
        assert_eq!(answer("address_character", Value::Null), "error: invalid field character");
        assert_eq!(answer("address_character", json!({"character": "Rin", "extra": 1})), "ok address_character");
        assert_eq!(ToolError::TurnStopped.to_string(), "error: turn stopped");
        assert_eq!(ToolError::NoReply(Duration::from_secs(2)).to_string(), "error: no reply within 2 s");
    }

    #[test]
    fn typed_and_timed() {
        let args = ToolArgs::parse("address_character", &json!({"character": "Rin"})).unwrap();
        assert_eq!(args, ToolArgs::AddressCharacter { character: "Rin".into() });
        assert_eq!(args.wait(), limits::TOOL_CALL_WAIT_ADDRESS_CHARACTER);
    }
}
