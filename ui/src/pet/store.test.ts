import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { UiEvent } from "../bindings/index";
import { initialState, reduce, type State } from "./state";
import { PetStore } from "./store";

/** A store over a recording view; `pill` is the pill's bottom the view reports, `pillAfterRender` what it becomes after a render. */
function harness() {
  const seen = { renders: [] as State[], lifts: [] as number[], tucks: 0, layouts: 0, pill: 40, pillAfterRender: 40 };
  const render = (s: State) => {
    seen.renders.push(s);
    seen.pill = seen.pillAfterRender;
  };
  const store = new PetStore({
    view: () => ({ render, setLift: (px) => void seen.lifts.push(px), pillBottom: () => seen.pill }),
    tuck: () => void seen.tucks++,
    layout: () => void seen.layouts++,
  });
  return { store, seen };
}

const apply = (store: PetStore, event: UiEvent) => store.set(reduce(store.state, event, Date.now()));

describe("the pet page's store", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(1_000_000);
    vi.stubGlobal("window", globalThis);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("renders each change, lifts and tucks, and lays out only when the room changes", () => {
    const { store, seen } = harness();
    apply(store, { type: "status", status: { state: "ready" } });
    expect(seen.renders.at(-1)).toBe(store.state);
    expect(store.state.connection).toEqual({ state: "ready" });
    expect(seen.lifts).toEqual([initialState().body.below]);
    expect(seen.tucks).toBe(1);
    expect(seen.layouts).toBe(0);
    // The row under the pill grew: the character makes room.
    store.set(store.state);
    expect(seen.layouts).toBe(0);
    seen.pillAfterRender = 60;
    store.set(store.state);
    expect(seen.layouts).toBe(1);
  });

  it("lays out when an offer notice comes, and again when it lapses on its own", () => {
    const { store, seen } = harness();
    apply(store, { type: "tool_offer", switch: "look.screen", until_ms: Date.now() + 5_000 });
    expect(seen.layouts).toBe(1);
    const renders = seen.renders.length;
    vi.advanceTimersByTime(4_000);
    expect(seen.renders.length).toBe(renders);
    vi.advanceTimersByTime(1_100);
    expect(seen.renders.length).toBe(renders + 1);
    expect(seen.layouts).toBe(2);
  });

  it("renders once more when a finished tool's hold passes", () => {
    const { store, seen } = harness();
    store.set({ ...store.state, tool: { id: "c1", state: "done", at: Date.now() } });
    const renders = seen.renders.length;
    vi.advanceTimersByTime(60_000);
    expect(seen.renders.length).toBe(renders + 1);
  });
});
