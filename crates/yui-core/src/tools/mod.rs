//! The client tools this window declares in hello, how their calls are read
//! and how they run.
//!
//! Declared now: `address_character` (`shared/spec/client-tools.md`).
//! - [`ToolArgs`] reads a call's name and arguments into one typed value, or
//!   the spec's generic answer ([`ToolError`]) before anything runs.
//! - [`Executor`] runs the calls of one chat one at a time, in arrival order,
//!   off the driver loop, each within its client wait.
//! - [`Desk`] is what a tool may ask of the desktop; [`NoDesk`] knows nothing.
//!
//! This build opens one character, so the default desk reports no other open
//! character and every well-formed `address_character` call answers
//! `error: invalid field character`, as the spec says.

mod args;
mod executor;

pub use args::{ToolArgs, ToolError};
pub use executor::Executor;

use futures_util::future::BoxFuture;
use serde_json::{json, Value};
use std::sync::Arc;

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

/// What the tools may ask of the desktop. The app implements it; the core
/// only reads through it.
pub trait Desk: Send + Sync {
    /// The names of the other open characters (never this window's own).
    fn open_characters(&self) -> Vec<String>;
}

/// A desk that knows of nothing: no other open character.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoDesk;

impl Desk for NoDesk {
    fn open_characters(&self) -> Vec<String> {
        Vec::new()
    }
}

/// One tool's answer: the result string and any image data URLs beside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The answer, `error: <reason>` on failure.
    pub result: String,
    /// Image data URLs beside the answer (none for text-only tools).
    pub images: Vec<String>,
}

impl Answer {
    /// A text-only answer.
    pub fn text(result: impl Into<String>) -> Self {
        Self { result: result.into(), images: Vec::new() }
    }
}

impl From<ToolError> for Answer {
    fn from(e: ToolError) -> Self {
        Answer::text(e.to_string())
    }
}

/// Runs one validated call to its answer. The executor drops the future to
/// cancel the call (a stop, or a wait that passed), so a tool must leave
/// nothing half done when dropped at an await.
pub trait Run: Send + Sync {
    /// Run `args` to its answer.
    fn run(&self, args: ToolArgs) -> BoxFuture<'static, Answer>;
}

/// The real tools, reading the desktop through a [`Desk`].
#[derive(Clone)]
pub struct Toolbox {
    desk: Arc<dyn Desk>,
}

impl Toolbox {
    /// Tools that ask `desk` about the desktop.
    pub fn new(desk: Arc<dyn Desk>) -> Self {
        Self { desk }
    }
}

impl std::fmt::Debug for Toolbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Toolbox").finish_non_exhaustive()
    }
}

impl Run for Toolbox {
    fn run(&self, args: ToolArgs) -> BoxFuture<'static, Answer> {
        match args {
            ToolArgs::AddressCharacter { character } => {
                let open = self.desk.open_characters().contains(&character);
                // The addressed turn itself is not delivered yet (a later part
                // of the issue); with the default desk no name is open.
                let answer = if open { Answer::text("ok") } else { ToolError::InvalidField("character").into() };
                Box::pin(async move { answer })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Desk1;
    impl Desk for Desk1 {
        fn open_characters(&self) -> Vec<String> {
            vec!["perlica".into()]
        }
    }

    #[tokio::test]
    async fn address_character_asks_the_desk() {
        let args = || ToolArgs::AddressCharacter { character: "perlica".into() };
        assert_eq!(Toolbox::new(Arc::new(NoDesk)).run(args()).await, Answer::text("error: invalid field character"));
        assert_eq!(Toolbox::new(Arc::new(Desk1)).run(args()).await, Answer::text("ok"));
        assert_eq!(declarations()[0]["function"]["name"], "address_character");
    }
}
