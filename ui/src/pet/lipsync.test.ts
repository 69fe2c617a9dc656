import { describe, expect, it } from "vitest";
import { LEVEL_HOLD_MS, levelWeights, LipSync, mouthOpen, MS_PER_CHAR, speechDurationMs, visemeWeights, VISEMES } from "./lipsync";

const total = (w: Record<string, number>) => VISEMES.reduce((s, v) => s + w[v], 0);

describe("lip-sync", () => {
  it("takes about 60 ms a character, with a floor", () => {
    expect(speechDurationMs("Hello there, friend!")).toBe(20 * MS_PER_CHAR);
    expect(speechDurationMs("Hi")).toBe(400);
    expect(speechDurationMs("")).toBe(0);
  });

  it("opens the mouth on vowels and closes it on spaces and after the end", () => {
    const text = "ah oh";
    const aa = visemeWeights(text, MS_PER_CHAR * 0.9 * (speechDurationMs(text) / (5 * MS_PER_CHAR)));
    expect(aa.aa).toBeGreaterThan(0);
    expect(total(visemeWeights(text, speechDurationMs(text) + 1))).toBe(0);
    expect(total(visemeWeights(text, -5))).toBe(0);
  });

  it("cycles through different shapes for different vowels", () => {
    const text = "aiueo";
    const d = speechDurationMs(text) / 5;
    const seen = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const w = visemeWeights(text, d * i + d * 0.75);
      const top = VISEMES.reduce((a, b) => (w[a] >= w[b] ? a : b));
      seen.add(top);
    }
    expect(seen).toEqual(new Set(["aa", "ih", "ou", "ee", "oh"]));
  });

  it("reads kana by their vowel", () => {
    const slot = speechDurationMs("かきくけこ") / 5;
    const w = visemeWeights("かきくけこ", slot * 2.75);
    expect(w.ou).toBeGreaterThan(0.5);
  });

  it("says queued pieces one after another", () => {
    const lips = new LipSync();
    const end1 = lips.say("Hello there.", 0);
    const end2 = lips.say("More words.", 100);
    expect(end2).toBe(end1 + speechDurationMs("More words."));
    expect(lips.speaking(end1 + 10)).toBe(true);
    expect(lips.speaking(end2)).toBe(false);
    expect(total(lips.weights(end2 + 1))).toBe(0);
  });
});

describe("lip-sync from sound levels", () => {
  it("follows the levels while they arrive, instead of the text", () => {
    const lips = new LipSync();
    lips.say("Hello there, this is a long sentence.", 0);
    lips.level(0.8, 10);
    expect(lips.following(20)).toBe(true);
    expect(lips.weights(20)).toEqual(levelWeights(0.8));
    expect(lips.openness(20)).toBeCloseTo(0.8);
    lips.level(0, 40);
    expect(lips.openness(50)).toBe(0);
    expect(lips.speaking(50)).toBe(true);
  });

  it("falls back to the (dropped) text once levels stop: the mouth stays closed", () => {
    const lips = new LipSync();
    lips.say("Hello there, this is a long sentence.", 0);
    lips.level(0.6, 10);
    expect(lips.following(10 + LEVEL_HOLD_MS + 1)).toBe(false);
    expect(lips.openness(10 + LEVEL_HOLD_MS + 1)).toBe(0);
    expect(lips.speaking(10 + LEVEL_HOLD_MS + 1)).toBe(false);
  });

  it("the end of a sentence's sound closes the mouth; text said later moves it again", () => {
    const lips = new LipSync();
    lips.level(0.7, 0);
    lips.soundEnded();
    expect(lips.openness(5)).toBe(0);
    lips.say("ah", 100);
    expect(lips.openness(100 + 150)).toBeGreaterThan(0);
  });

  it("a halt closes the mouth at once and ignores stale levels until the next sentence", () => {
    const lips = new LipSync();
    lips.say("Hello there, this is a long sentence.", 0);
    lips.level(0.9, 10);
    lips.halt();
    expect(lips.openness(11)).toBe(0);
    lips.level(0.9, 20); // still in flight when the halt came
    expect(lips.openness(21)).toBe(0);
    expect(lips.speaking(21)).toBe(false);
    lips.say("Next one.", 500);
    lips.level(0.5, 510);
    expect(lips.openness(511)).toBeCloseTo(0.5);
  });

  it("keeps levels in 0..1", () => {
    expect(levelWeights(3).aa).toBe(1);
    expect(levelWeights(-1).aa).toBe(0);
    expect(levelWeights(Number.NaN).aa).toBe(0);
    expect(mouthOpen(levelWeights(0.4))).toBeCloseTo(0.4);
  });
});
