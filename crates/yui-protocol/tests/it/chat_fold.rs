//! The transcript fold against the shared cases in
//! `tests/fixtures/chat_fold.json`; the chat window's reducer
//! (`ui/src/chat/transcript.test.ts`) runs the same cases, so the window and
//! the saved conversation agree. `UPDATE_FIXTURES=1` rewrites each case's
//! `expect` from the fold (review the diff before committing it).

use serde::{Deserialize, Serialize};
use serde_json::Value;
use yui_protocol::chat::ChatEvent;
use yui_protocol::chat::{AnswerState, ApprovalState, Conversation, Role, ToolCardState};

#[derive(Serialize, Deserialize)]
struct Case {
    name: String,
    steps: Vec<Step>,
    expect: Value,
}

#[derive(Serialize, Deserialize)]
struct Step {
    at: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    user: Option<User>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    event: Option<ChatEvent>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    approve: Option<Approve>,
}

#[derive(Serialize, Deserialize)]
struct User {
    turn_id: String,
    text: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    files: Vec<String>,
}

#[derive(Serialize, Deserialize)]
struct Approve {
    approval_id: String,
    state: ApprovalState,
}

fn path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/chat_fold.json")
}

fn fold(case: &Case) -> Conversation {
    let mut c = Conversation::new("c1", 0);
    for step in &case.steps {
        if let Some(u) = &step.user {
            c.user(&u.turn_id, &u.text, &u.files, step.at);
        }
        if let Some(e) = &step.event {
            c.apply(e, step.at);
        }
        if let Some(a) = &step.approve {
            c.answer_approval(&a.approval_id, a.state);
        }
    }
    c
}

fn cases() -> Vec<Case> {
    serde_json::from_str(&std::fs::read_to_string(path()).expect("fixture")).expect("fixture parses")
}

#[test]
fn the_fold_matches_the_shared_cases() {
    let mut cases = cases();
    if std::env::var_os("UPDATE_FIXTURES").is_some() {
        for case in &mut cases {
            case.expect = serde_json::to_value(fold(case).messages).unwrap();
        }
        std::fs::write(path(), serde_json::to_string_pretty(&cases).unwrap() + "\n").unwrap();
        return;
    }
    for case in &cases {
        let got = serde_json::to_value(fold(case).messages).unwrap();
        assert_eq!(got, case.expect, "case {:?}", case.name);
    }
}

/// The cases state the fold's rules themselves, independently of the stored `expect`.
#[test]
fn the_cases_hold_the_rules() {
    let cases = cases();
    let by_name = |prefix: &str| fold(cases.iter().find(|c| c.name.starts_with(prefix)).expect(prefix));

    let c = by_name("a reply with reasoning");
    assert_eq!(c.title, "what time is it?");
    let a = &c.messages[1].answers[0];
    assert_eq!((a.text.as_str(), a.reasoning_ms, a.state), ("It is noon.", Some(1500), AnswerState::Done));

    let c = by_name("tool results pair");
    let tools = &c.messages[1].answers[0].tools;
    assert_eq!(tools.len(), 2, "drafting became the call, not a third card");
    assert_eq!((tools[0].call_id.as_str(), tools[0].state), ("a", ToolCardState::Unresolved));
    assert_eq!((tools[1].call_id.as_str(), tools[1].state), ("b", ToolCardState::Failed));

    let c = by_name("two approvals");
    let approvals = &c.messages[0].answers[0].approvals;
    assert_eq!(approvals.iter().map(|a| a.state).collect::<Vec<_>>(), [ApprovalState::Pending, ApprovalState::Denied]);

    let a = &by_name("an empty stream").messages[0].answers[0];
    assert_eq!(a.error.as_ref().map(|e| (e.kind.as_str(), e.message.as_str())), Some(("empty", "No output")));

    let a = &by_name("tools without an answer").messages[0].answers[0];
    assert_eq!(a.error.as_ref().map(|e| (e.kind.as_str(), e.tools_ok)), Some(("no_answer", 2)));
    assert_eq!(a.tools.len(), 2, "the cards stay");

    let a = &by_name("a cancelled run").messages[0].answers[0];
    assert_eq!((a.state, a.error.is_none()), (AnswerState::Stopped, true), "Stopped only, never also No output");
    assert_eq!(a.tools[0].state, ToolCardState::Unresolved);

    let c = by_name("regenerate");
    let m = &c.messages[1];
    assert_eq!((m.answers.len(), m.active, m.shown_text()), (2, 1, "Second."));
    assert_eq!((m.server_index, c.messages[0].server_index), (Some(5), Some(4)));

    let c = by_name("an event for an unknown message");
    assert_eq!(c.messages.len(), 1);
    assert_eq!(c.messages[0].role, Role::Assistant);
    assert_eq!(c.messages[0].answers[0].usage.as_ref().and_then(|u| u.tokens).map(|t| t.total_tokens), Some(15));
}
