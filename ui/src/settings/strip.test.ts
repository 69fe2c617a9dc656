import { describe, expect, it } from "vitest";
import type { DelegationItem, Status, UiEvent } from "../bindings";
import { initialSession, reduceSession, type SessionSlices } from "../slices/session";
import { connectionText } from "../slices/connection";
import { setLanguage } from "../i18n/index";
import { delegationsLabel, stripParts, stripText, turnLabel } from "./strip";

const run = (...events: UiEvent[]): SessionSlices => events.reduce(reduceSession, initialSession());
const ready: UiEvent = { type: "status", status: { state: "ready" } };
const started: UiEvent = { type: "turn_started", turn_id: "1", text: "hi" };
const item = (id: string, state: "running" | "done"): DelegationItem => ({ id, title: id, started_at: 1, state });

describe("the settings window's session strip", () => {
  it("names every connection state", () => {
    const cases: [Status, string, string][] = [
      [{ state: "connecting", attempt: 1 }, "Connecting…", "warn"],
      [{ state: "handshaking" }, "Connecting…", "warn"],
      [{ state: "ready" }, "Connected", "ok"],
      [{ state: "stateless" }, "Ready", "ok"],
      [{ state: "reconnecting", delay_ms: 2500, reason: "refused" }, "Reconnecting in 3s — refused", "warn"],
      [{ state: "auth_failed" }, "Key refused", "bad"],
      [{ state: "closed" }, "Offline", "bad"],
    ];
    for (const [status, text, tone] of cases) expect(connectionText(status)).toEqual({ text, tone });
  });

  it("says Replying… while a turn runs, Thinking… while its reasoning streams, with the queue", () => {
    expect(turnLabel(run(ready).turn)).toBeNull();
    expect(turnLabel(run(ready, started).turn)).toBe("Replying…");
    const thinking = run(ready, started, { type: "reasoning", turn_id: "1", delta: "hm" });
    expect(turnLabel(thinking.turn)).toBe("Thinking…");
    const queued = reduceSession(reduceSession(thinking, { type: "turn_queued", text: "a", queued: 1 }), { type: "turn_queued", text: "b", queued: 2 });
    expect(turnLabel(queued.turn)).toBe("Thinking… (+2 queued)");
    const answering = reduceSession(queued, { type: "chat", event: { type: "delta", msg_id: "1", text: "Hi" } });
    expect(turnLabel(answering.turn)).toBe("Replying… (+2 queued)");
    expect(turnLabel(reduceSession(answering, { type: "turn_ended", turn_id: "1", outcome: "complete" }).turn)).toBeNull();
  });

  it("counts the delegations running", () => {
    expect(delegationsLabel([])).toBeNull();
    expect(delegationsLabel([item("a", "done")])).toBeNull();
    expect(delegationsLabel([item("a", "running"), item("b", "running"), item("c", "done")])).toBe("2 running");
  });

  it("puts the parts together in order", () => {
    expect(stripText(initialSession())).toBe("Connecting…");
    expect(stripText(run(ready))).toBe("Connected");
    const s = run(ready, started, { type: "turn_queued", text: "a", queued: 1 }, { type: "delegations", items: [item("a", "running"), item("b", "running")] });
    expect(stripText(s)).toBe("Connected · Replying… (+1 queued) · 2 running");
    expect(stripParts(s).map((p) => [p.kind, p.tone])).toEqual([
      ["connection", "ok"],
      ["turn", "busy"],
      ["delegations", "busy"],
    ]);
    expect(stripText(run({ type: "status", status: { state: "auth_failed" } }))).toBe("Key refused");
  });

  it("speaks the UI language", () => {
    setLanguage("ko");
    try {
      const s = run(ready, started, { type: "turn_queued", text: "a", queued: 1 });
      expect(turnLabel(s.turn)).toBe("답하는 중… (대기 1개)");
      expect(delegationsLabel([item("a", "running")])).toBe("1개 실행 중");
    } finally {
      setLanguage("en");
    }
  });
});
