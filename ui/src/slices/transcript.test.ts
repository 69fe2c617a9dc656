import { describe, expect, it } from "vitest";
import type { Conversation, UiEvent } from "../bindings/index";
import { chat, SAMPLES, samplesExcept } from "./samples";
import {
  answerIn,
  backToCurrentTranscript,
  decisionState,
  focusedTranscript,
  initialTranscript,
  loadedTranscript,
  newestPending,
  openOlder,
  reduceTranscript,
  showVersionIn,
  type TranscriptSlice,
} from "./transcript";

function fold(events: UiEvent[], from: TranscriptSlice = initialTranscript()): TranscriptSlice {
  return events.reduce((t, e, i) => reduceTranscript(t, e, i + 1), from);
}

const conv = (id: string): Conversation => ({ id, title: id, created_ms: 0, updated_ms: 0, messages: [], more_before: false, more_after: false });
const ask = (msg_id: string, approval_id: string): UiEvent => chat({ type: "approval_request", msg_id, approval_id, call_id: `c${approval_id}`, name: "look", args: {} });

describe("the transcript slice", () => {
  it("turn_started adds the user's row; a remake or a turn nobody typed adds none", () => {
    const t = fold([{ type: "turn_started", turn_id: "1", text: "hello", files: ["a.png · 2 KB"] }]);
    expect(t.current.messages.map((m) => [m.id, m.text, m.files])).toEqual([["u1", "hello", ["a.png · 2 KB"]]]);
    expect(t.current.title).toBe("hello");
    expect(reduceTranscript(t, { type: "turn_started", turn_id: "2", text: "hello", remakes: "1" }, 5)).toBe(t);
    expect(reduceTranscript(t, { type: "turn_started", turn_id: "3", text: "" }, 5)).toBe(t);
  });

  it("chat events fold into the current conversation only", () => {
    let t = openOlder(fold([SAMPLES.conversation]), conv("old"));
    t = fold([chat({ type: "start", msg_id: "1", run_id: "r" }), chat({ type: "delta", msg_id: "1", text: "Hi" })], t);
    expect(t.current.messages.map((m) => m.answers[0].text)).toEqual(["Hi"]);
    expect(t.older?.messages).toEqual([]);
  });

  it("a conversation snapshot replaces the current one and closes the older one when it is that one", () => {
    let t = openOlder(initialTranscript(), conv("a"));
    t = reduceTranscript(t, { type: "conversation", conversation: conv("b") }, 1);
    expect(t.current.id).toBe("b");
    expect(t.older?.id).toBe("a");
    t = reduceTranscript(t, { type: "conversation", conversation: conv("a") }, 2);
    expect(t.older).toBeNull();
  });

  it("the page's own steps: load, open, back, focus, version, answer", () => {
    const t = loadedTranscript(initialTranscript(), conv("cur"));
    expect(loadedTranscript(t, null)).toBe(t);
    expect(openOlder(t, conv("cur")).older).toBeNull();
    const opened = openOlder(t, conv("x"), "m1");
    expect([opened.older?.id, opened.focus]).toEqual(["x", "m1"]);
    expect(focusedTranscript(opened).focus).toBeNull();
    expect(backToCurrentTranscript(opened)).toEqual({ ...t, older: null, focus: null });
    expect(backToCurrentTranscript(t)).toBe(t);
    const two = fold([chat({ type: "start", msg_id: "1", run_id: "a" }), chat({ type: "start", msg_id: "1", run_id: "b" })], t);
    expect(showVersionIn(two, "1", 0).current.messages[0].active).toBe(0);
    expect(showVersionIn(two, "1", 1)).toBe(two);
    const asked = fold([ask("1", "p")], t);
    expect(answerIn(asked, "p", "deny").current.messages[0].answers[0].approvals[0].state).toBe("denied");
    expect(answerIn(asked, "nope", "deny")).toBe(asked);
    expect(decisionState("always")).toBe("always");
  });

  it("the newest pending approval: the newer of two, then the older once it is answered, none after the run's end", () => {
    let t = fold([chat({ type: "start", msg_id: "1", run_id: "r" }), ask("1", "p1"), ask("1", "p2")]);
    expect(newestPending(t)?.card.approval_id).toBe("p2");
    expect(newestPending(t)?.msgId).toBe("1");
    t = answerIn(t, "p2", "allow");
    expect(newestPending(t)?.card.approval_id).toBe("p1");
    t = fold([chat({ type: "end", msg_id: "1", user_index: 0, assistant_index: 0, versions: null, active: null })], t);
    expect(newestPending(t)).toBeNull();
  });

  it("every other event leaves it identical", () => {
    const t = fold([{ type: "turn_started", turn_id: "1", text: "hi" }]);
    for (const e of samplesExcept("turn_started", "chat", "conversation")) expect(reduceTranscript(t, e, 9), e.type).toBe(t);
  });
});
