// The transcript fold against the cases it shares with the Rust fold
// (crates/yui-protocol/tests/fixtures/chat_fold.json), then protocol cases of
// its own.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { ApprovalState, ChatEvent, Conversation } from "../bindings/index";
import { answerApproval, apply, newConversation, pickVersion, shownText, titleOf, user } from "./transcript";

/** One step of a shared case. */
type Step =
  | { at: number; user: { turn_id: string; text: string; files?: string[] } }
  | { at: number; event: ChatEvent }
  | { at: number; approve: { approval_id: string; state: ApprovalState } };

interface Case {
  name: string;
  steps: Step[];
  expect: unknown;
}

const fixture = new URL("../../../crates/yui-protocol/tests/fixtures/chat_fold.json", import.meta.url);
const cases = JSON.parse(readFileSync(fixture, "utf8")) as Case[];

/** Fold `steps` into conversation "c1" created at 0. */
function fold(steps: Step[]): Conversation {
  let conv = newConversation("c1", 0);
  for (const s of steps) {
    if ("user" in s) conv = user(conv, s.user.turn_id, s.user.text, s.at, s.user.files ?? []);
    else if ("event" in s) conv = apply(conv, s.event, s.at);
    else conv = answerApproval(conv, s.approve.approval_id, s.approve.state);
  }
  return conv;
}

/** Events of message `m` at increasing times from 1. */
function run(conv: Conversation, events: ChatEvent[], from = 1): Conversation {
  return events.reduce((c, e, i) => apply(c, e, from + i), conv);
}

const end = (msg_id: string): ChatEvent => ({ type: "end", msg_id, user_index: 0, assistant_index: 0, versions: null, active: null });

describe("shared fold cases (chat_fold.json)", () => {
  it("has cases", () => expect(cases.length).toBeGreaterThan(5));
  for (const c of cases) {
    it(c.name, () => {
      const conv = fold(c.steps);
      // Exactly the Rust JSON: no undefined or null stand-ins for absent fields.
      expect(conv.messages).toStrictEqual(c.expect);
    });
  }
});

describe("transcript fold", () => {
  it("does not mutate its input and keeps untouched messages", () => {
    const a = user(newConversation("c", 0), "1", "hi", 0);
    const b = apply(a, { type: "start", msg_id: "1", run_id: "r" }, 1);
    const snapshot = JSON.stringify(b);
    const c = apply(b, { type: "delta", msg_id: "1", text: "yo" }, 2);
    expect(JSON.stringify(b)).toBe(snapshot);
    expect(c.messages[0]).toBe(b.messages[0]);
    expect(shownText(c.messages[1])).toBe("yo");
  });

  it("pairs results with calls by id, whatever the order", () => {
    const conv = run(newConversation("c", 0), [
      { type: "start", msg_id: "m", run_id: "r" },
      { type: "tool_call", msg_id: "m", call_id: "a", name: "look", args: {} },
      { type: "tool_call", msg_id: "m", call_id: "b", name: "look", args: {} },
      { type: "tool_result", msg_id: "m", call_id: "b", name: "look", ok: true, output: "B", seconds: 1 },
      { type: "tool_result", msg_id: "m", call_id: "a", name: "look", ok: false, output: "A", seconds: 2 },
      end("m"),
    ]);
    const tools = conv.messages[0].answers[0].tools;
    expect(tools.map((t) => [t.call_id, t.state, t.output])).toEqual([
      ["a", "failed", "A"],
      ["b", "done", "B"],
    ]);
  });

  it("an unresolved call is not a success", () => {
    const conv = run(newConversation("c", 0), [
      { type: "start", msg_id: "m", run_id: "r" },
      { type: "tool_call", msg_id: "m", call_id: "a", name: "look", args: {} },
      { type: "error", msg_id: "m", kind: "no_answer", message: "The tools ran, but no answer came back" },
    ]);
    const a = conv.messages[0].answers[0];
    expect(a.tools[0].state).toBe("unresolved");
    expect(a.error?.tools_ok).toBe(0);
  });

  it("two approvals at once are two cards; an answer reaches only its own", () => {
    let conv = run(newConversation("c", 0), [
      { type: "start", msg_id: "m", run_id: "r" },
      { type: "approval_request", msg_id: "m", approval_id: "p1", call_id: "c1", name: "shell", args: {} },
      { type: "approval_request", msg_id: "m", approval_id: "p2", call_id: "c2", name: "write", args: {} },
      { type: "approval_request", msg_id: "m", approval_id: "p2", call_id: "c2", name: "write", args: {} },
    ]);
    conv = answerApproval(conv, "p1", "always");
    expect(answerApproval(conv, "p1", "denied")).toBe(conv);
    conv = apply(conv, end("m"), 9);
    expect(conv.messages[0].answers[0].approvals.map((c) => c.state)).toEqual(["always", "ended"]);
  });

  it("an empty stream fails as empty", () => {
    const conv = run(newConversation("c", 0), [
      { type: "start", msg_id: "m", run_id: "r" },
      { type: "error", msg_id: "m", kind: "empty", message: "No output" },
      end("m"),
    ]);
    const a = conv.messages[0].answers[0];
    expect([a.state, a.error?.kind]).toEqual(["failed", "empty"]);
  });

  it("a cancel after an error leaves only Stopped; an error after a cancel adds nothing", () => {
    const conv = run(newConversation("c", 0), [
      { type: "start", msg_id: "m", run_id: "r" },
      { type: "error", msg_id: "m", kind: "internal", message: "boom" },
      { type: "cancelled", msg_id: "m", run_id: "r" },
      { type: "error", msg_id: "m", kind: "empty", message: "No output" },
      end("m"),
    ]);
    const a = conv.messages[0].answers[0];
    expect(a.state).toBe("stopped");
    expect("error" in a).toBe(false);
  });

  it("reasoning that never reached text still stops its clock at the end", () => {
    const conv = run(newConversation("c", 0), [
      { type: "start", msg_id: "m", run_id: "r" },
      { type: "reasoning", msg_id: "m", text: "hmm" },
      end("m"),
    ]);
    expect(conv.messages[0].answers[0].reasoning_ms).toBe(2);
  });

  it("the version picker shows another answer without touching the rest", () => {
    let conv = run(newConversation("c", 0), [
      { type: "start", msg_id: "m", run_id: "r1" },
      { type: "delta", msg_id: "m", text: "one" },
      end("m"),
      { type: "start", msg_id: "m", run_id: "r2" },
      { type: "delta", msg_id: "m", text: "two" },
      end("m"),
    ]);
    expect(shownText(conv.messages[0])).toBe("two");
    conv = pickVersion(conv, "m", 0);
    expect(shownText(conv.messages[0])).toBe("one");
    expect(pickVersion(conv, "m", 5)).toBe(conv);
  });

  it("titles are one line, cut at 60 characters", () => {
    expect(titleOf("  hello\n  world ")).toBe("hello world");
    expect(titleOf("x".repeat(61))).toBe(`${"x".repeat(60)}…`);
    const conv = user(user(newConversation("c", 0), "1", "first", 0), "2", "second", 1);
    expect(conv.title).toBe("first");
    expect(user(conv, "1", "again", 2)).toBe(conv);
  });
});
