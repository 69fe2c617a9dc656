import { describe, expect, it } from "vitest";
import type { ChatMessage, Conversation } from "../bindings/index";
import { keepLoaded, openOlder, pageLoaded, initialTranscript } from "../slices/transcript";
import { pageOf, windowOf } from "./paging";

const msg = (i: number): ChatMessage => ({ id: `m${i}`, role: i % 2 === 0 ? "user" : "assistant", at_ms: i, text: `text ${i}`, answers: [], active: 0 });
const whole = (n: number, id = "c"): Conversation => ({
  id, title: id, created_ms: 0, updated_ms: 0, more_before: false, more_after: false,
  messages: Array.from({ length: n }, (_, i) => msg(i)),
});
const ids = (c: { messages: ChatMessage[] }) => c.messages.map((m) => m.id);

describe("paging a long conversation", () => {
  it("a window opens at the newest page, or around a message, saying what lies outside", () => {
    const c = whole(200);
    const newest = windowOf(c, null, 50);
    expect([ids(newest)[0], ids(newest).at(-1), newest.more_before, newest.more_after]).toEqual(["m150", "m199", true, false]);
    const around = windowOf(c, "m10", 50);
    expect([ids(around)[0], ids(around).at(-1), around.more_before, around.more_after]).toEqual(["m0", "m49", false, true]);
    const middle = windowOf(c, "m100", 50);
    expect([ids(middle)[0], middle.more_before, middle.more_after]).toEqual(["m75", true, true]);
  });

  it("pages walk back to the first message and forward to the last; an unknown message gives nothing", () => {
    const c = whole(120);
    let shown = windowOf(c, null, 50);
    let t = { ...initialTranscript(), current: shown };
    while (t.current.more_before) t = pageLoaded(t, pageOf(c, t.current.messages[0].id, null, 50), true);
    expect(ids(t.current)).toEqual(ids(c));
    shown = windowOf(c, "m5", 20);
    t = openOlder({ ...initialTranscript(), current: whole(0, "other") }, shown, "m5");
    while (t.older?.more_after) t = pageLoaded(t, pageOf(c, null, t.older.messages.at(-1)!.id, 20), false);
    expect(ids(t.older!)).toEqual(ids(c).slice(0, 120));
    expect(pageOf(c, "nope", null).messages).toEqual([]);
  });

  it("a late page for another conversation, or one already shown, changes nothing", () => {
    const c = whole(100);
    const t = { ...initialTranscript(), current: windowOf(c, null, 50) };
    expect(pageLoaded(t, { ...pageOf(c, "m50", null, 50), conversation_id: "other" }, true)).toBe(t);
    const once = pageLoaded(t, pageOf(c, "m50", null, 50), true);
    expect(pageLoaded(once, pageOf(c, "m50", null, 50), true)).toBe(once);
  });

  it("a snapshot of the newest messages keeps the older ones the window loaded", () => {
    const c = whole(100);
    const loaded = { ...c, more_before: false };
    const snapshot = { ...windowOf(c, null, 10), title: "renamed" };
    const kept = keepLoaded(loaded, snapshot);
    expect(ids(kept)).toEqual(ids(c));
    expect([kept.title, kept.more_before]).toEqual(["renamed", false]);
    // A snapshot that starts beyond what is loaded (or of another conversation) replaces it.
    expect(keepLoaded(windowOf(c, null, 5), snapshot)).toBe(snapshot);
    expect(keepLoaded(whole(3, "x"), snapshot)).toBe(snapshot);
  });

  it("a search hit in the current conversation shows in place when loaded, else opens its window read-only", () => {
    const c = whole(200);
    const t = { ...initialTranscript(), current: windowOf(c, null, 50) };
    expect(openOlder(t, t.current, "m190").older).toBeNull();
    const far = openOlder(t, windowOf(c, "m3", 50), "m3");
    expect(far.older?.id).toBe("c");
    expect(far.focus).toBe("m3");
  });
});
