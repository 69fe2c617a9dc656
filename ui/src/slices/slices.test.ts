import { describe, expect, it } from "vitest";
import type { DelegationItem, UiEvent } from "../bindings/index";
import { initialState as initialChatState, reduce as reduceChat } from "../chat/state";
import { initialState, reduce as reducePet } from "../pet/state";
import { canSend, initialConnection, reduceConnection } from "./connection";
import { chipItems, chipText, reduceDelegations } from "./delegations";

describe("the shared slices", () => {
  it("connection: only status events change it, and both windows agree", () => {
    const ready: UiEvent = { type: "status", status: { state: "ready" } };
    expect(canSend(initialConnection())).toBe(false);
    expect(reduceConnection(initialConnection(), { type: "speech_halted" })).toEqual(initialConnection());
    const s = reduceConnection(initialConnection(), ready);
    expect(canSend(s)).toBe(true);
    expect(reducePet(initialState(), ready).connection).toEqual(s);
    expect(reduceChat(initialChatState(), ready, 0).connection).toEqual(s);
  });
  it("delegations: each list replaces the last; a done item leaves the chip 30 min after it ended", () => {
    const items: DelegationItem[] = [
      { id: "a", title: "A", started_at: 1, state: "running" },
      { id: "b", title: "B", started_at: 1, state: "done", ended_at: 1_000 },
    ];
    const s = reduceDelegations([], { type: "delegations", items });
    expect(reduceDelegations(s, { type: "speech_halted" })).toBe(s);
    expect(chipText(chipItems(s, 1_000 + 30 * 60_000 - 1))).toBe("1 running · 1 done");
    expect(chipText(chipItems(s, 1_000 + 30 * 60_000))).toBe("1 running · 1 done"); // 30:00 exactly, as the core's chip()
    expect(chipText(chipItems(s, 1_000 + 30 * 60_000 + 1))).toBe("1 running");
    expect(chipText([])).toBeNull();
  });
});
