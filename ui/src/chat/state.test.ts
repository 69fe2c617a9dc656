// The chat window's page state: core events in the order a session sends
// them, and the page's own actions.
import { describe, expect, it } from "vitest";
import type { ChatEvent, Conversation, UiEvent } from "../bindings/index";
import { outcome } from "./format";
import {
  approved,
  backToCurrent,
  busy,
  closeSearch,
  conversationDeleted,
  initialState,
  offerAnswered,
  openConversation,
  openSearch,
  readOnly,
  reduce,
  regenerateSent,
  searchAnswered,
  searchTyped,
  shown,
  showVersion,
  stopPressed,
  type ChatState,
} from "./state";

const chat = (event: ChatEvent): UiEvent => ({ type: "chat", event });
const end = (msg_id: string): UiEvent => chat({ type: "end", msg_id, user_index: 0, assistant_index: 0, versions: null, active: null });

/** Fold `events` at times 1, 2, 3… */
function fold(events: UiEvent[], from: ChatState = initialState()): ChatState {
  return events.reduce((s, e, i) => reduce(s, e, i + 1), from);
}

/** The shown answer of the last message. */
function lastAnswer(s: ChatState) {
  const msgs = shown(s).messages;
  const m = msgs[msgs.length - 1];
  return m.answers[m.active];
}

const turn = (id: string, text: string, events: ChatEvent[], outcome: "complete" | "failed" | "stopped" = "complete"): UiEvent[] => [
  { type: "turn_started", turn_id: id, text },
  chat({ type: "start", msg_id: id, run_id: `r${id}` }),
  ...events.map(chat),
  end(id),
  { type: "turn_ended", turn_id: id, outcome },
];

describe("chat page state", () => {
  it("a turn adds the user's row and the reply; a turn nobody typed adds no user row", () => {
    const s = fold([...turn("1", "hi", [{ type: "delta", msg_id: "1", text: "hello" }]), ...turn("2", "", [{ type: "delta", msg_id: "2", text: "ping" }])]);
    expect(shown(s).messages.map((m) => [m.id, m.role])).toEqual([
      ["u1", "user"],
      ["1", "assistant"],
      ["2", "assistant"],
    ]);
    expect(shown(s).title).toBe("hi");
    expect(s.turn.running).toBeNull();
  });

  it("tool results pair with their calls by id; an unresolved call is not a success", () => {
    const s = fold(
      turn("1", "look", [
        { type: "tool_call", msg_id: "1", call_id: "a", name: "look", args: {} },
        { type: "tool_call", msg_id: "1", call_id: "b", name: "browser", args: {} },
        { type: "tool_result", msg_id: "1", call_id: "a", name: "look", ok: true, output: "a desk", seconds: 0.3 },
        { type: "delta", msg_id: "1", text: "A desk." },
      ]),
    );
    const a = lastAnswer(s);
    expect(a.tools.map((t) => [t.call_id, t.state])).toEqual([
      ["a", "done"],
      ["b", "unresolved"],
    ]);
    expect(a.state).toBe("done");
  });

  it("two approvals at once: each answered on its own, the rest end with the run", () => {
    let s = fold([
      { type: "turn_started", turn_id: "1", text: "tidy up" },
      chat({ type: "start", msg_id: "1", run_id: "r1" }),
      chat({ type: "approval_request", msg_id: "1", approval_id: "p1", call_id: "c1", name: "shell", args: { cmd: "rm" } }),
      chat({ type: "approval_request", msg_id: "1", approval_id: "p2", call_id: "c2", name: "write", args: {} }),
    ]);
    expect(lastAnswer(s).approvals.map((c) => c.state)).toEqual(["pending", "pending"]);
    s = approved(s, "p2", "always");
    expect(lastAnswer(s).approvals.map((c) => c.state)).toEqual(["pending", "always"]);
    s = fold([end("1")], s);
    expect(lastAnswer(s).approvals.map((c) => c.state)).toEqual(["ended", "always"]);
  });

  it("an empty stream shows No output", () => {
    const s = fold(turn("1", "hi", [{ type: "error", msg_id: "1", kind: "empty", message: "No output" }], "failed"));
    expect(outcome(lastAnswer(s))).toEqual({ kind: "error", errorKind: "empty", title: "No output", detail: "" });
  });

  it("tools without an answer show no_answer with how many calls succeeded", () => {
    const s = fold(
      turn(
        "1",
        "look",
        [
          { type: "tool_call", msg_id: "1", call_id: "a", name: "look", args: {} },
          { type: "tool_result", msg_id: "1", call_id: "a", name: "look", ok: true, output: "x", seconds: 1 },
          { type: "tool_call", msg_id: "1", call_id: "b", name: "look", args: {} },
          { type: "tool_result", msg_id: "1", call_id: "b", name: "look", ok: false, output: "y", seconds: 1 },
          { type: "tool_call", msg_id: "1", call_id: "c", name: "look", args: {} },
          { type: "tool_result", msg_id: "1", call_id: "c", name: "look", ok: true, output: "z", seconds: 1 },
          { type: "error", msg_id: "1", kind: "no_answer", message: "The tools ran, but no answer came back" },
        ],
        "failed",
      ),
    );
    expect(outcome(lastAnswer(s))).toEqual({
      kind: "error",
      errorKind: "no_answer",
      title: "The tools ran, but no answer came back",
      detail: "(2 tool calls succeeded)",
    });
  });

  it("a cancelled run shows only Stopped", () => {
    const s = fold(
      turn(
        "1",
        "go",
        [
          { type: "delta", msg_id: "1", text: "Let me" },
          { type: "cancelled", msg_id: "1", run_id: "r1" },
          { type: "error", msg_id: "1", kind: "empty", message: "No output" },
        ],
        "stopped",
      ),
    );
    expect(outcome(lastAnswer(s))).toEqual({ kind: "stopped" });
    expect(lastAnswer(s).error).toBeUndefined();
  });

  it("queued messages wait under the transcript and leave one by one", () => {
    let s = fold([
      { type: "turn_started", turn_id: "1", text: "first" },
      { type: "turn_queued", text: "second", queued: 1 },
      { type: "turn_queued", text: "third", queued: 2 },
    ]);
    expect([s.turn.running, s.turn.queued, s.remaking]).toEqual(["1", ["second", "third"], null]);
    s = fold([{ type: "turn_ended", turn_id: "1", outcome: "complete" }, { type: "turn_started", turn_id: "2", text: "second" }], s);
    expect([s.turn.running, s.turn.queued, s.remaking]).toEqual(["2", ["third"], null]);
    expect(shown(s).messages.map((m) => m.text)).toEqual(["first", "second"]);
  });

  it("Stop clears the queue and says so once", () => {
    let s = fold([
      { type: "turn_started", turn_id: "1", text: "first" },
      { type: "turn_queued", text: "second", queued: 1 },
      { type: "turn_queued", text: "third", queued: 2 },
    ]);
    s = stopPressed(s);
    expect(s.turn.queued).toEqual([]);
    expect(s.notice?.text).toBe("Queue cleared (2)");
    const serial = s.notice?.serial;
    s = stopPressed(s);
    expect(s.notice?.serial).toBe(serial);
  });

  it("an older conversation is read-only and gets no live events", () => {
    const older: Conversation = { id: "old", title: "Old", created_ms: 0, updated_ms: 0, messages: [], more_before: false, more_after: false };
    let s = fold([{ type: "conversation", conversation: { id: "cur", title: "Cur", created_ms: 0, updated_ms: 0, messages: [], more_before: false, more_after: false } }]);
    s = openConversation(s, older, "m1");
    expect(readOnly(s)).toBe(true);
    expect(s.transcript.focus).toBe("m1");
    s = fold(turn("1", "hi", [{ type: "delta", msg_id: "1", text: "yo" }]), s);
    expect(shown(s).messages).toEqual([]);
    s = backToCurrent(s);
    expect(readOnly(s)).toBe(false);
    expect(shown(s).messages.length).toBe(2);
    expect(readOnly(openConversation(s, shown(s)))).toBe(false);
  });

  it("a replaced conversation (New chat) shows whole, and session_reset drops the turn", () => {
    let s = fold([{ type: "turn_started", turn_id: "1", text: "hi" }, { type: "turn_queued", text: "x", queued: 1 }]);
    s = fold([{ type: "session_reset" }, { type: "conversation", conversation: { id: "n", title: "New chat", created_ms: 5, updated_ms: 5, messages: [], more_before: false, more_after: false } }], s);
    expect([s.turn.running, s.turn.queued, s.remaking]).toEqual([null, [], null]);
    expect(shown(s).id).toBe("n");
    expect(shown(s).messages).toEqual([]);
  });

  it("the version picker shows the chosen answer at once", () => {
    let s = fold([
      ...turn("1", "joke", [{ type: "delta", msg_id: "1", text: "one" }]),
      chat({ type: "start", msg_id: "1", run_id: "r2" }),
      chat({ type: "delta", msg_id: "1", text: "two" }),
      end("1"),
    ]);
    expect(lastAnswer(s).text).toBe("two");
    s = showVersion(s, "1", 0);
    expect(lastAnswer(s).text).toBe("one");
  });

  it("search keeps only the hits of the query typed last", () => {
    let s = openSearch(initialState());
    s = searchTyped(s, "ca");
    s = searchTyped(s, "cat");
    const hit = { conversation_id: "c", title: "t", message_id: "m", snippet: "a cat", at_ms: 0 };
    s = searchAnswered(s, "ca", [hit]);
    expect(s.search.hits).toEqual([]);
    s = searchAnswered(s, "cat", [hit]);
    expect(s.search.hits).toEqual([hit]);
    expect(closeSearch(s).search.open).toBe(false);
  });

  it("status and notices reach their slices", () => {
    const s = fold([
      { type: "status", status: { state: "ready" } },
      { type: "notice", code: "network", message: "lost it\nmore" },
    ]);
    expect(s.connection).toEqual({ state: "ready" });
    // The code's headline, then the first line of the core's words.
    expect(s.notice?.text).toBe("Can't reach the backend: lost it");
  });

  it("a reply runs while a turn runs or the last answer streams (Regenerate starts no turn)", () => {
    let s = fold(turn("1", "hi", [{ type: "delta", msg_id: "1", text: "a" }]));
    expect(busy(s)).toBe(false);
    s = fold([chat({ type: "start", msg_id: "1", run_id: "r2" })], s);
    expect(s.turn.running).toBeNull();
    expect(busy(s)).toBe(true);
    s = fold([end("1")], s);
    expect(busy(s)).toBe(false);
    expect(busy(fold([{ type: "turn_started", turn_id: "2", text: "x" }], s))).toBe(true);
  });

  it("a Regenerate's turn adds no user row; its answer becomes a version of the message", () => {
    let s = fold(turn("1", "a joke", [{ type: "delta", msg_id: "1", text: "First." }]));
    s = regenerateSent(s, "1");
    // The core sends the user message again as turn 2 and files its events under message 1.
    s = fold(
      [
        { type: "turn_started", turn_id: "2", text: "a joke" },
        chat({ type: "start", msg_id: "1", run_id: "r2" }),
        chat({ type: "delta", msg_id: "1", text: "Second." }),
        end("1"),
        { type: "turn_ended", turn_id: "2", outcome: "complete" },
      ],
      s,
    );
    expect(shown(s).messages.map((m) => m.id)).toEqual(["u1", "1"]);
    expect(shown(s).messages[1].answers.map((a) => a.text)).toEqual(["First.", "Second."]);
    expect(s.remaking).toBeNull();
  });

  it("a refused Regenerate leaves the next turn its user row", () => {
    let s = regenerateSent(fold(turn("1", "hi", [{ type: "delta", msg_id: "1", text: "yo" }])), "1");
    s = fold([{ type: "notice", code: "unsupported", message: "Wait for the reply to finish before regenerating." }], s);
    s = fold([{ type: "turn_started", turn_id: "2", text: "hi" }], s);
    expect(shown(s).messages.map((m) => m.id)).toEqual(["u1", "1", "u2"]);
  });

  it("deleting the older conversation on screen goes back to the current one; deleting another keeps the view", () => {
    const cur: Conversation = { id: "cur", title: "Cur", created_ms: 0, updated_ms: 0, messages: [], more_before: false, more_after: false };
    const older: Conversation = { id: "old", title: "Old", created_ms: 0, updated_ms: 0, messages: [], more_before: false, more_after: false };
    let s = openConversation(fold([{ type: "conversation", conversation: cur }]), older);
    expect(conversationDeleted(s, "other")).toBe(s);
    s = conversationDeleted(s, "old");
    expect([readOnly(s), shown(s).id]).toEqual([false, "cur"]);
    expect(conversationDeleted(s, "cur")).toBe(s);
    // All of them: whatever was open goes.
    s = conversationDeleted(openConversation(s, older), null);
    expect(readOnly(s)).toBe(false);
    // The core's next current conversation replaces the deleted one.
    s = fold([{ type: "conversation", conversation: { id: "next", title: "Next", created_ms: 1, updated_ms: 1, messages: [], more_before: false, more_after: false } }], s);
    expect(shown(s).id).toBe("next");
  });
});

describe("offers to switch a tool switch on", () => {
  it("a card per refused switch, over when the core says so or the user answers it here", () => {
    const s = fold([
      { type: "tool_offer", switch: "look.screen", until_ms: 300_000 },
      { type: "tool_offer", switch: "browser", until_ms: 300_000 },
    ]);
    expect(s.offers.map((o) => o.switch)).toEqual(["look.screen", "browser"]);
    expect(reduce(s, { type: "tool_offer", switch: "browser", until_ms: null }, 5).offers.map((o) => o.switch)).toEqual(["look.screen"]);
    const answered = offerAnswered(s, "look.screen");
    expect(answered.offers.filter((o) => !o.dismissed).map((o) => o.switch)).toEqual(["browser"]);
    expect(offerAnswered(answered, "look.screen")).toBe(answered);
    // The transcript is not touched.
    expect(s.transcript.current.messages).toEqual([]);
  });
});
