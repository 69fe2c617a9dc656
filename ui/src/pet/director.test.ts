import { describe, expect, it } from "vitest";
import type { UiEvent } from "../bindings/index";
import { Director, RELAX_DELAY_MS, type Performer } from "./director";
import { speechDurationMs } from "./lipsync";

/** A performer that writes down what it was told. */
function recorder(): Performer & { log: string[] } {
  const log: string[] = [];
  return {
    log,
    setThinking: (on) => log.push(`thinking:${on}`),
    setEmotion: (id) => log.push(`emotion:${id}`),
    playMotion: (id) => log.push(`motion:${id}`),
    speak: (text) => log.push(`speak:${text}`),
    relax: (hush) => log.push(`relax:${hush}`),
    soundStopped: (halted) => log.push(`sound:${halted ? "halted" : "done"}`),
  };
}

const started: UiEvent = { type: "turn_started", turn_id: "t1", text: "hi" };
const ended: UiEvent = { type: "turn_ended", turn_id: "t1", outcome: "complete" };

describe("Director", () => {
  it("thinks from turn_started to the turn's first speech", () => {
    const p = recorder();
    const d = new Director(p);
    d.onEvent(started, 0);
    expect(d.thinking).toBe(true);
    d.onEvent({ type: "speech", turn_id: "t1", text: "Hello!" }, 500);
    expect(d.thinking).toBe(false);
    expect(p.log).toEqual(["thinking:true", "thinking:false", "speak:Hello!"]);
  });

  it("a cue ends thinking too and carries its emotion and motion", () => {
    const p = recorder();
    const d = new Director(p);
    d.onEvent(started, 0);
    d.onEvent({ type: "cue", turn_id: "t1", cue: { emotion_id: "happy", motion_id: "wave" } }, 10);
    expect(p.log).toEqual(["thinking:true", "thinking:false", "emotion:happy", "motion:wave"]);
  });

  it("another turn's speech does not end this turn's thinking", () => {
    const d = new Director(recorder());
    d.onEvent(started, 0);
    d.onEvent({ type: "speech", turn_id: "old", text: "late words" }, 10);
    expect(d.thinking).toBe(true);
  });

  it("relaxes a few seconds after the turn's speech has been said", () => {
    const p = recorder();
    const d = new Director(p);
    d.onEvent(started, 0);
    d.onEvent({ type: "cue", turn_id: "t1", cue: { emotion_id: "happy" } }, 100);
    d.onEvent({ type: "speech", turn_id: "t1", text: "One sentence here." }, 100);
    d.onEvent(ended, 200);
    const due = 100 + speechDurationMs("One sentence here.") + RELAX_DELAY_MS;
    expect(d.relaxDue).toBe(due);
    d.tick(due - 1);
    expect(p.log).not.toContain("relax:false");
    d.tick(due);
    expect(p.log).toContain("relax:false");
    expect(d.relaxDue).toBeNull();
  });

  it("a reply with no speech and no cue leaves the face and body as they are", () => {
    const p = recorder();
    const d = new Director(p);
    d.onEvent({ type: "cue", turn_id: "t0", cue: { emotion_id: "sad" } }, 0);
    d.tick(100_000); // the earlier cue relaxes on its own schedule
    p.log.length = 0;
    d.onEvent({ type: "cue", turn_id: "t1", cue: { emotion_id: "sad" } }, 200_000);
    d.onEvent(started, 200_001);
    d.onEvent(ended, 201_000);
    expect(d.relaxDue).toBeNull();
    d.tick(999_999);
    expect(p.log.filter((l) => l.startsWith("relax"))).toEqual([]);
  });

  it("a new turn cancels a pending relax", () => {
    const p = recorder();
    const d = new Director(p);
    d.onEvent(started, 0);
    d.onEvent({ type: "speech", turn_id: "t1", text: "hi" }, 10);
    d.onEvent(ended, 20);
    expect(d.relaxDue).not.toBeNull();
    d.onEvent({ type: "turn_started", turn_id: "t2", text: "" }, 30);
    expect(d.relaxDue).toBeNull();
  });

  it("session_reset relaxes at once and hushes", () => {
    const p = recorder();
    const d = new Director(p);
    d.onEvent(started, 0);
    d.onEvent({ type: "session_reset" }, 5);
    expect(d.thinking).toBe(false);
    expect(p.log).toEqual(["thinking:true", "thinking:false", "relax:true"]);
  });

  it("a failure line ends the thinking pose", () => {
    const d = new Director(recorder());
    d.onEvent(started, 0);
    d.onEvent({ type: "failure_line", turn_id: "t1", text: "oops" }, 5);
    expect(d.thinking).toBe(false);
  });

  it("the end of a sentence's sound and a halt reach the lips", () => {
    const p = recorder();
    const d = new Director(p);
    d.onEvent(started, 0);
    d.onEvent({ type: "speech", turn_id: "t1", text: "Hello there." }, 10);
    d.onEvent({ type: "speech_done", turn_id: "t1", text: "Hello there." }, 900);
    d.onEvent({ type: "speech_halted" }, 950);
    expect(p.log.slice(-2)).toEqual(["sound:done", "sound:halted"]);
  });

  it("a halt relaxes a while after the cut, not after the speech that will not be said", () => {
    const p = recorder();
    const d = new Director(p);
    d.onEvent(started, 0);
    d.onEvent({ type: "speech", turn_id: "t1", text: "x".repeat(200) }, 10);
    d.onEvent({ type: "speech_halted" }, 100);
    d.onEvent({ type: "turn_ended", turn_id: "t1", outcome: "stopped" }, 110);
    expect(d.relaxDue).toBe(110 + RELAX_DELAY_MS);
  });
});
