//! Push frames as the engine's [`Inbound`] events.

use super::frames::{parse_delegations, parse_usage, ServerFrame};
use crate::model::Segment;
use crate::transport::{Inbound, Link, ReplyPart, ToolCall};

/// The engine's view of one backend frame; `None` for `ready`, which the
/// connection itself reads.
pub fn inbound(frame: ServerFrame) -> Option<Inbound> {
    let reply = |turn_id: String, part| Some(Inbound::Reply { turn_id, part });
    let segments = |s: Vec<super::frames::Segment>| s.into_iter().map(Segment::from).collect::<Vec<_>>();
    match frame {
        ServerFrame::Ready { .. } => None,
        ServerFrame::Render { turn_id, source, segments: s, reasoning } => reply(turn_id, ReplyPart::Render { source, segments: segments(s), reasoning }),
        ServerFrame::Speech { turn_id, segments: s } => reply(turn_id, ReplyPart::Speech { segments: segments(s) }),
        ServerFrame::TurnEnd { turn_id, usage } => reply(turn_id, ReplyPart::End { usage: parse_usage(usage.as_ref()) }),
        ServerFrame::Error { turn_id, message } => reply(turn_id, ReplyPart::Error { message }),
        ServerFrame::ToolStatus { turn_id, state, tool_id } => reply(turn_id, ReplyPart::ToolStatus { state, tool_id }),
        ServerFrame::Reasoning { turn_id, delta } => reply(turn_id, ReplyPart::Reasoning { delta }),
        ServerFrame::ToolCall { id, turn_id, name, arguments } => Some(Inbound::ToolCall(ToolCall { id, turn_id, name, arguments })),
        ServerFrame::Delegations { items } => Some(Inbound::Delegations(parse_delegations(&items))),
    }
}

/// Report one frame on `link`.
pub fn report(link: &Link, frame: ServerFrame) {
    if let Some(event) = inbound(frame) {
        link.report(event);
    }
}
