// The chat window's cards over the agent_chat engine: an approval card and
// the later tool card of the call it gated (another call id) show as one
// card that says what the user answered; a stop the engine did not
// confirm says so.

import { describe, expect, it } from "vitest";
import type { Answer, ChatEvent, Conversation } from "../bindings/index";
import { pairCards, stoppedText } from "./cards";
import { answerApproval, apply } from "./transcript";

const conv = (): Conversation => ({ id: "c", title: "New chat", created_ms: 0, updated_ms: 0, messages: [], more_before: false, more_after: false });

function fold(events: ChatEvent[], answer?: [string, "allowed" | "denied"]): Answer {
  let c = conv();
  for (const e of events) {
    c = apply(c, e, 1000);
    if (answer && e.type === "approval_request" && e.approval_id === answer[0]) c = answerApproval(c, answer[0], answer[1]);
  }
  return c.messages[0].answers[0];
}

const asked = (aid: string, callId: string, args: unknown): ChatEvent => ({
  type: "approval_request",
  msg_id: "m",
  approval_id: aid,
  call_id: callId,
  name: "execute_command",
  args,
});

describe("an approval and its tool card", () => {
  it("pair by name and arguments across different call ids, in order", () => {
    const a = fold(
      [
        { type: "start", msg_id: "m", run_id: "r" },
        asked("ap_1", "c_abc", { command: "ls" }),
        { type: "tool_drafting", msg_id: "m", name: "execute_command" },
        { type: "tool_call", msg_id: "m", call_id: "c_1_execute_command", name: "execute_command", args: { command: "ls" } },
        { type: "tool_result", msg_id: "m", call_id: "c_1_execute_command", name: "execute_command", ok: true, output: "notes.txt", seconds: null },
      ],
      ["ap_1", "allowed"],
    );
    expect(a.tools[0].approval_id).toBe("ap_1");
    expect(a.tools[0].seconds).toBeUndefined();
    const shown = pairCards(a);
    expect(shown.tools.map((t) => t.gate?.state)).toEqual(["allowed"]);
    expect(shown.approvals).toEqual([]); // no second card for the same call
  });

  it("prefers equal arguments, and leaves a pending approval on its own", () => {
    const a = fold([
      { type: "start", msg_id: "m", run_id: "r" },
      asked("ap_1", "c_x", { command: "ls" }),
      asked("ap_2", "c_y", { command: "pwd" }),
      { type: "tool_call", msg_id: "m", call_id: "c_9", name: "execute_command", args: { command: "pwd" } },
    ]);
    expect(a.tools[0].approval_id).toBe("ap_2");
    const shown = pairCards(a);
    expect(shown.approvals.map((c) => c.approval_id)).toEqual(["ap_1"]);
    expect(shown.approvals[0].state).toBe("pending");
  });

  it("a tool with no approval has no gate", () => {
    const a = fold([
      { type: "start", msg_id: "m", run_id: "r" },
      { type: "tool_call", msg_id: "m", call_id: "c_1", name: "get_time", args: {} },
    ]);
    expect(pairCards(a).tools).toEqual([{ tool: a.tools[0] }]);
  });
});

describe("the stopped marker", () => {
  const base = fold([{ type: "start", msg_id: "m", run_id: "r" }, { type: "cancelled", msg_id: "m", run_id: "r" }]);
  it("says when the engine did not confirm the stop", () => {
    expect(base.state).toBe("stopped");
    expect(stoppedText(base)).toBe("Stopped");
    expect(stoppedText({ ...base, stop_confirmed: true })).toBe("Stopped");
    expect(stoppedText({ ...base, stop_confirmed: false })).toBe("Stopped — the engine did not confirm the stop");
  });
});

describe("the client's own tools", () => {
  it("pair an ask with the card of the same call id, never with a later call", () => {
    const a = fold([
      { type: "start", msg_id: "m", run_id: "r" },
      { type: "tool_call", msg_id: "m", call_id: "c1", name: "look", args: { target: "screen" } },
      { type: "approval_request", msg_id: "m", approval_id: "ask-1", call_id: "c1", name: "look", args: { target: "screen" } },
      { type: "tool_call", msg_id: "m", call_id: "c2", name: "look", args: { target: "screen" } },
    ]);
    expect(a.tools.map((t) => t.approval_id)).toEqual(["ask-1", undefined]);
    expect(pairCards(a).approvals).toEqual([]);
  });
});
