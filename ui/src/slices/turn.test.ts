import { describe, expect, it } from "vitest";
import type { UiEvent } from "../bindings/index";
import { chat, SAMPLES, samplesExcept } from "./samples";
import { initialTurn, isRunning, isThinking, queuedCount, queuedTexts, reduceTurn, stopped, type TurnSlice } from "./turn";

function fold(events: UiEvent[], from: TurnSlice = initialTurn()): TurnSlice {
  return events.reduce(reduceTurn, from);
}

const started = (turn_id: string, text: string, remakes?: string): UiEvent => ({ type: "turn_started", turn_id, text, ...(remakes ? { remakes } : {}) });
const queued = (text: string, n: number): UiEvent => ({ type: "turn_queued", text, queued: n });
const ended = (turn_id: string): UiEvent => ({ type: "turn_ended", turn_id, outcome: "complete" });

describe("the turn slice", () => {
  it("turn_started runs the turn and resets the reasoning; its turn_ended stops it, another's does not", () => {
    let t = fold([started("1", "hi"), { type: "reasoning", turn_id: "1", delta: "hmm" }]);
    expect(isRunning(t)).toBe(true);
    expect(t.running).toBe("1");
    expect(t.reasoning).toBe("hmm");
    expect(reduceTurn(t, ended("other"))).toBe(t);
    t = reduceTurn(t, ended("1"));
    expect(isRunning(t)).toBe(false);
    expect(t.reasoning).toBe("hmm");
    expect(reduceTurn(t, started("2", "again")).reasoning).toBe("");
  });

  it("turn_queued appends the text; the core's count wins both ways", () => {
    let t = fold([started("1", "first"), queued("a", 1), queued("b", 2)]);
    expect(t.queued).toEqual(["a", "b"]);
    // The oldest left the queue already (the count is smaller): cut from the front.
    t = reduceTurn(t, queued("c", 2));
    expect(t.queued).toEqual(["b", "c"]);
    // This page opened late (the count is larger): unknown texts stand in, oldest.
    const late = reduceTurn(initialTurn(), queued("z", 3));
    expect(queuedCount(late)).toBe(3);
    expect(queuedTexts(late)).toEqual(["z"]);
  });

  it("a typed turn dequeues the oldest; a remake and the backend's own (empty) turn dequeue nothing", () => {
    const t = fold([started("1", "first"), queued("a", 1), queued("b", 2)]);
    expect(reduceTurn(t, started("2", "a")).queued).toEqual(["b"]);
    expect(reduceTurn(t, started("2", "")).queued).toEqual(["a", "b"]);
    expect(reduceTurn(t, started("2", "first", "m1")).queued).toEqual(["a", "b"]);
    expect(reduceTurn(initialTurn(), started("2", "x")).queued).toEqual([]);
  });

  it("reasoning deltas append, reasoning_full replaces; both stream until the answer's first piece", () => {
    let t = fold([started("1", "hi"), { type: "reasoning", turn_id: "1", delta: "Let me " }, { type: "reasoning", turn_id: "1", delta: "see." }]);
    expect(t.reasoning).toBe("Let me see.");
    expect(isThinking(t)).toBe(true);
    t = reduceTurn(t, { type: "reasoning_full", turn_id: "1", text: "All." });
    expect(t.reasoning).toBe("All.");
    expect(isThinking(t)).toBe(true);
    for (const e of [SAMPLES.speech, SAMPLES.tool_status, chat({ type: "delta", msg_id: "1", text: "A" }), chat({ type: "tool_call", msg_id: "1", call_id: "c", name: "look", args: {} }), chat({ type: "tool_drafting", msg_id: "1", name: "look" })]) {
      const after = reduceTurn(t, e);
      expect(isThinking(after)).toBe(false);
      expect(after.reasoning).toBe("All.");
      // Once answering, the same pieces change nothing.
      expect(reduceTurn(after, e)).toBe(after);
    }
    expect(isThinking(reduceTurn(t, ended("1")))).toBe(false);
  });

  it("session_reset clears it all", () => {
    const t = fold([started("1", "hi"), queued("a", 1), { type: "reasoning", turn_id: "1", delta: "x" }]);
    expect(reduceTurn(t, SAMPLES.session_reset)).toEqual(initialTurn());
    const empty = initialTurn();
    expect(reduceTurn(empty, SAMPLES.session_reset)).toBe(empty);
  });

  it("Stop clears the queue; with none it changes nothing", () => {
    const t = fold([started("1", "hi"), queued("a", 1)]);
    expect(stopped(t).queued).toEqual([]);
    expect(stopped(t).running).toBe("1");
    const none = stopped(t);
    expect(stopped(none)).toBe(none);
  });

  it("every other event leaves it identical", () => {
    const t = fold([started("1", "hi"), queued("a", 1), { type: "reasoning", turn_id: "1", delta: "x" }, SAMPLES.speech]);
    const others = samplesExcept("turn_started", "turn_queued", "reasoning", "reasoning_full", "session_reset");
    for (const e of others) expect(reduceTurn(t, e), e.type).toBe(t);
    // turn_ended of the sample (turn "t1") is another turn's end.
    expect(others).toContain(SAMPLES.turn_ended);
  });
});
