import { describe, expect, it } from "vitest";
import type { UiEvent } from "../bindings/index";
import { initialState as initialChat, reduce as reduceChat } from "../chat/state";
import { initialState as initialPet, reduce as reducePet } from "../pet/state";
import { SAMPLES, samplesExcept } from "./samples";
import { initialSession, reduceSession, sessionStopped, type SessionSlices } from "./session";

/** The slices of a page state. */
const slicesOf = (s: SessionSlices): SessionSlices => ({ connection: s.connection, turn: s.turn, delegations: s.delegations });

const script: UiEvent[] = [
  SAMPLES.status,
  { type: "turn_started", turn_id: "1", text: "hello" },
  { type: "reasoning", turn_id: "1", delta: "Hm" },
  { type: "turn_queued", text: "next", queued: 1 },
  SAMPLES.delegations,
  { type: "chat", event: { type: "delta", msg_id: "1", text: "Hi" } },
  { type: "turn_ended", turn_id: "1", outcome: "complete" },
  { type: "turn_started", turn_id: "2", text: "next" },
  { type: "status", status: { state: "reconnecting", delay_ms: 3000, reason: "refused" } },
];

describe("the session slices", () => {
  it("each slice takes its events", () => {
    const s = script.reduce(reduceSession, initialSession());
    expect(s.connection).toEqual({ state: "reconnecting", delay_ms: 3000, reason: "refused" });
    expect(s.turn).toEqual({ running: "2", queued: [], reasoning: "", reasoningLive: false });
    expect(s.delegations).toEqual(SAMPLES.delegations.items);
  });

  it("the pet, the chat window and a bare session agree on the same events", () => {
    let bare = initialSession();
    let pet = initialPet();
    let chat = initialChat();
    for (const e of script) {
      bare = reduceSession(bare, e);
      pet = reducePet(pet, e, 1);
      chat = reduceChat(chat, e, 1);
      expect(slicesOf(pet)).toEqual(bare);
      expect(slicesOf(chat)).toEqual(bare);
    }
  });

  it("keeps a page's other fields, and returns the page state itself when no slice changed", () => {
    const page = { ...initialSession(), mine: 7 };
    const next = reduceSession(page, SAMPLES.status);
    expect(next.mine).toBe(7);
    for (const e of samplesExcept("status", "turn_started", "turn_queued", "reasoning", "reasoning_full", "delegations")) {
      expect(reduceSession(page, e), e.type).toBe(page);
    }
  });

  it("Stop drops the queue", () => {
    const s = [SAMPLES.turn_started, SAMPLES.turn_queued].reduce(reduceSession, initialSession());
    expect(sessionStopped(s).turn.queued).toEqual([]);
    const none = sessionStopped(s);
    expect(sessionStopped(none)).toBe(none);
  });
});
