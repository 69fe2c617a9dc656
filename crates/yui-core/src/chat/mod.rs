//! The chat window's data: the vocabulary every transport maps onto
//! ([`vocabulary`]: the eleven events, error kinds, latency, approval
//! answers), the conversations they fold into ([`fold`], [`model`]), the
//! attachments a user sends ([`attach`]) and the store in the data dir
//! ([`store`], [`history`]).
//!
//! It imports nothing of the engine, the transports or the UI events; they
//! import it. The map of each transport onto the events is
//! `crate::turn::chat_map`, and the session's chat log that joins map, fold
//! and store is `crate::session::chat_log`.

pub mod attach;
pub mod history;
pub mod store;
// The vocabulary, the conversations and their fold are the protocol's
// (`yui-protocol`), at the paths they always had.
pub use yui_protocol::chat::{fold, model, vocabulary};

pub use model::*;
pub use store::{ChatStore, DeleteError};
pub use vocabulary::{ApprovalDecision, ChatErrorKind, ChatEvent, Latency};

/// What the character says while an approval waits: one line naming what
/// she asks to do.
pub fn approval_line(name: &str, args: &serde_json::Value) -> String {
    let url = args.get("url").and_then(|u| u.as_str());
    match (name, args.get("action").and_then(|a| a.as_str())) {
        ("look", _) => "May I look at your screen? It's in the chat window.".into(),
        ("browser", Some("open")) => match url.and_then(host_of) {
            Some(host) => format!("May I open {host}? Say yes in the chat window."),
            None => "May I open a page? Say yes in the chat window.".into(),
        },
        _ => format!("May I run {name}? It's waiting in the chat window."),
    }
}

/// The host of `url`, for a short line.
fn host_of(url: &str) -> Option<String> {
    let rest = url.split_once("://").map(|(_, r)| r).unwrap_or(url);
    let host = rest.split(['/', '?', '#']).next()?.trim();
    (!host.is_empty()).then(|| host.to_string())
}
