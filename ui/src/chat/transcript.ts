// The transcript fold: the eleven chat events (and the user's own messages)
// folded into a `Conversation`. A port of crates/yui-protocol/src/chat/fold.rs;
// the shared cases in crates/yui-protocol/tests/fixtures/chat_fold.json hold both
// to the same rules. Pure: every function returns new objects and leaves its
// inputs alone; messages an event does not touch keep their identity (the
// view reuses their rows).

import type {
  Answer,
  ApprovalCard,
  ApprovalState,
  ChatEvent,
  ChatMessage,
  Conversation,
  Latency,
  ToolCard,
  ToolCardState,
  UsageLine,
} from "../bindings/index";

/** The most characters of the first user message a title keeps. */
export const TITLE_CHARS = 60;
/**
 * The title of a conversation with no user message yet, as stored (as
 * crates/yui-protocol/src/chat/fold.rs writes it); the window shows it in
 * the current language (`titleShown` in ./format.ts).
 */
// not-ui-text: the stored title, shown through the catalog's chat-untitled
export const NEW_CHAT_TITLE = "New chat";

/** The id of the user's message of turn `turnId`. */
export function userMessageId(turnId: string): string {
  return `u${turnId}`;
}

/** An empty conversation. */
export function newConversation(id: string, nowMs: number): Conversation {
  return { id, title: NEW_CHAT_TITLE, created_ms: nowMs, updated_ms: nowMs, messages: [], more_before: false, more_after: false };
}

/** A conversation title from its first user message: one line, at most `TITLE_CHARS` characters. */
export function titleOf(text: string): string {
  const line = text.split(/\s+/).filter((w) => w !== "").join(" ");
  const chars = Array.from(line);
  const title = chars.slice(0, TITLE_CHARS).join("");
  return chars.length > TITLE_CHARS ? `${title}…` : title;
}

/** The user's message of turn `turnId` with its `files` ("name · size"); no
 * text and no files adds nothing (a turn nobody typed). */
export function user(conv: Conversation, turnId: string, text: string, nowMs: number, files: string[] = []): Conversation {
  if (text.trim() === "" && files.length === 0) return conv;
  const id = userMessageId(turnId);
  if (conv.messages.some((m) => m.id === id)) return conv;
  const message: ChatMessage = { id, role: "user", at_ms: nowMs, text, answers: [], active: 0 };
  if (files.length > 0) message.files = [...files];
  return {
    ...conv,
    title: conv.title === NEW_CHAT_TITLE ? titleOf(text.trim() === "" ? files[0] : text) : conv.title,
    updated_ms: nowMs,
    messages: [...conv.messages, message],
  };
}

/** Fold one chat event in. */
export function apply(conv: Conversation, event: ChatEvent, nowMs: number): Conversation {
  if (event.type === "start") return start(conv, event.msg_id, event.run_id, nowMs);
  const msgId = event.msg_id;
  let next: Conversation = { ...conv, updated_ms: nowMs };
  // An event for an unknown message opens one (a stream joined late still shows).
  if (assistantIndex(next, msgId) < 0) next = start(next, msgId, "", nowMs);
  const pos = assistantIndex(next, msgId);
  const messages = [...next.messages];
  const m: ChatMessage = { ...messages[pos] };
  messages[pos] = m;
  // The server's indices file the exchange; null indices (not saved) or both 0 (the client's own end) file none.
  if (event.type === "end" && event.user_index != null && event.assistant_index != null && (event.user_index !== 0 || event.assistant_index !== 0)) {
    m.server_index = event.assistant_index;
    for (let i = pos - 1; i >= 0; i--) {
      if (messages[i].role !== "user") continue;
      messages[i] = { ...messages[i], server_index: event.user_index };
      break;
    }
  }
  if (m.answers.length > 0) {
    const answers = [...m.answers];
    answers[answers.length - 1] = applyAnswer(answers[answers.length - 1], event, nowMs);
    m.answers = answers;
  }
  return { ...next, messages };
}

/** Record the user's answer to an approval card (in any message); unchanged when no pending card has that id. */
export function answerApproval(conv: Conversation, approvalId: string, state: ApprovalState): Conversation {
  for (let mi = 0; mi < conv.messages.length; mi++) {
    const m = conv.messages[mi];
    for (let ai = 0; ai < m.answers.length; ai++) {
      const a = m.answers[ai];
      const ci = a.approvals.findIndex((c) => c.approval_id === approvalId && c.state === "pending");
      if (ci < 0) continue;
      const approvals = a.approvals.map((c, i) => (i === ci ? { ...c, state } : c));
      const answers = m.answers.map((x, i) => (i === ai ? { ...a, approvals } : x));
      const messages = conv.messages.map((x, i) => (i === mi ? { ...m, answers } : x));
      return { ...conv, messages };
    }
  }
  return conv;
}

/** Show answer `n` of assistant message `msgId` (the version picker); unchanged when there is none. */
export function pickVersion(conv: Conversation, msgId: string, n: number): Conversation {
  const pos = assistantIndex(conv, msgId);
  if (pos < 0) return conv;
  const m = conv.messages[pos];
  if (n < 0 || n >= m.answers.length || n === m.active) return conv;
  const messages = [...conv.messages];
  messages[pos] = { ...m, active: n };
  return { ...conv, messages };
}

/** The text shown: a user message's text, or the shown answer's. */
export function shownText(m: ChatMessage): string {
  return m.role === "user" ? m.text : (m.answers[m.active]?.text ?? "");
}

/** The shown answer of an assistant message (none on a user message). */
export function shownAnswer(m: ChatMessage): Answer | undefined {
  return m.role === "assistant" ? m.answers[m.active] : undefined;
}

function assistantIndex(conv: Conversation, msgId: string): number {
  return conv.messages.findIndex((m) => m.role === "assistant" && m.id === msgId);
}

/** `start`: a new assistant message, or (Regenerate) a new shown answer on the one there. */
function start(conv: Conversation, msgId: string, runId: string, nowMs: number): Conversation {
  const answer = newAnswer(runId, nowMs);
  const pos = assistantIndex(conv, msgId);
  const messages = [...conv.messages];
  if (pos >= 0) {
    const m = messages[pos];
    messages[pos] = { ...m, answers: [...m.answers, answer], active: m.answers.length };
  } else {
    messages.push({ id: msgId, role: "assistant", at_ms: nowMs, text: "", answers: [answer], active: 0 });
  }
  return { ...conv, updated_ms: nowMs, messages };
}

function newAnswer(runId: string, nowMs: number): Answer {
  return { run_id: runId, state: "streaming", started_ms: nowMs, text: "", reasoning: "", tools: [], approvals: [] };
}

function newTool(callId: string, name: string, args: unknown, state: ToolCardState): ToolCard {
  return { call_id: callId, name, args, state, output: "" };
}

/** One event folded into a copy of answer `prev`. */
function applyAnswer(prev: Answer, event: ChatEvent, nowMs: number): Answer {
  const a: Answer = {
    ...prev,
    tools: prev.tools.map((c) => ({ ...c })),
    approvals: prev.approvals.map((c) => ({ ...c })),
  };
  switch (event.type) {
    case "start":
      break;
    case "reasoning":
      a.reasoning += event.text;
      break;
    case "delta":
      reasoningOver(a, nowMs);
      a.text += event.text;
      break;
    case "tool_drafting":
      reasoningOver(a, nowMs);
      if (!a.tools.some((c) => c.state === "drafting" && c.name === event.name)) {
        a.tools.push(newTool("", event.name, null, "drafting"));
      }
      break;
    case "tool_call": {
      reasoningOver(a, nowMs);
      let i = a.tools.findIndex((c) => c.call_id === event.call_id);
      if (i < 0) i = a.tools.findIndex((c) => c.state === "drafting" && c.name === event.name);
      if (i >= 0) {
        const c = a.tools[i];
        c.call_id = event.call_id;
        c.args = event.args;
        if (c.state === "drafting") c.state = "running";
      } else {
        a.tools.push(newTool(event.call_id, event.name, event.args, "running"));
        i = a.tools.length - 1;
      }
      if (a.tools[i].approval_id === undefined) {
        const gate = gateOf(a, event.call_id, event.name, event.args);
        if (gate !== undefined) a.tools[i].approval_id = gate;
      }
      break;
    }
    case "tool_result": {
      const state: ToolCardState = event.ok ? "done" : "failed";
      let c = a.tools.find((t) => t.call_id === event.call_id);
      if (!c) {
        c = newTool(event.call_id, event.name, null, state);
        const gate = gateOf(a, event.call_id, event.name, null);
        if (gate !== undefined) c.approval_id = gate;
        a.tools.push(c);
      }
      c.state = state;
      c.output = event.output;
      if (event.seconds != null) c.seconds = event.seconds;
      else delete c.seconds;
      break;
    }
    case "approval_request":
      if (!a.approvals.some((c) => c.approval_id === event.approval_id)) {
        // The client's own tools ask under the call's own id, after its card.
        const own = a.tools.find((t) => event.call_id !== "" && t.call_id === event.call_id && t.approval_id === undefined);
        if (own) own.approval_id = event.approval_id;
        const card: ApprovalCard = {
          approval_id: event.approval_id,
          call_id: event.call_id,
          name: event.name,
          args: event.args,
          state: "pending",
          asked_ms: nowMs,
        };
        a.approvals.push(card);
      }
      break;
    case "usage":
      a.usage = usageLine(event);
      break;
    case "cancelled":
      close(a, nowMs);
      a.state = "stopped";
      delete a.error;
      break;
    case "error":
      close(a, nowMs);
      if (a.state !== "stopped") {
        a.state = "failed";
        const toolsOk = a.tools.filter((c) => c.state === "done").length;
        a.error = { kind: event.kind, message: event.message, tools_ok: toolsOk };
      }
      break;
    case "end":
      close(a, nowMs);
      if (a.state === "streaming") a.state = "done";
      break;
    default: {
      const unknown: never = event;
      console.warn("unknown ChatEvent", unknown);
    }
  }
  return a;
}

/** The usage line of a `usage` event, absent fields left out (as the Rust side serializes it). */
function usageLine(e: Extract<ChatEvent, { type: "usage" }>): UsageLine {
  const line: UsageLine = { chars: e.chars, seconds: e.seconds };
  if (e.ttft != null) line.ttft = e.ttft;
  if (e.tokens != null) line.tokens = e.tokens;
  if (e.context_window != null) line.context_window = e.context_window;
  if (e.latency != null) line.latency = latency(e.latency);
  return line;
}

function latency(l: Latency): Latency {
  const out: Latency = {};
  if (l.request_sent_ms != null) out.request_sent_ms = l.request_sent_ms;
  if (l.first_token_ms != null) out.first_token_ms = l.first_token_ms;
  if (l.first_sentence_ms != null) out.first_sentence_ms = l.first_sentence_ms;
  if (l.first_audio_ms != null) out.first_audio_ms = l.first_audio_ms;
  return out;
}

/**
 * The approval card that gated call `callId` of `name` with `args`: the one asked under the same call id (the
 * client's own tools), else the first one not yet paired and asked for no other card's call, with the same name,
 * preferring equal arguments (the engine reports the call under an id of its own).
 */
function gateOf(a: Answer, callId: string, name: string, args: unknown): string | undefined {
  const own = a.approvals.find((c) => callId !== "" && c.call_id === callId);
  if (own) return own.approval_id;
  const taken = (c: ApprovalCard) => a.tools.some((t) => t.approval_id === c.approval_id || (t.call_id !== "" && t.call_id === c.call_id));
  const free = a.approvals.filter((c) => c.name === name && !taken(c));
  const same = free.find((c) => JSON.stringify(c.args) === JSON.stringify(args));
  return (same ?? free[0])?.approval_id;
}

/** The reasoning clock stops at the first non-reasoning event. */
function reasoningOver(a: Answer, nowMs: number): void {
  if (a.reasoning !== "" && a.reasoning_ms === undefined) a.reasoning_ms = Math.max(0, nowMs - a.started_ms);
}

/** The run ended: the reasoning clock stops, unanswered calls are unresolved, pending approvals end. */
function close(a: Answer, nowMs: number): void {
  reasoningOver(a, nowMs);
  for (const c of a.tools) if (c.state === "drafting" || c.state === "running") c.state = "unresolved";
  for (const c of a.approvals) if (c.state === "pending") c.state = "ended";
}
