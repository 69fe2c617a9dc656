import { describe, expect, it } from "vitest";
import { LipSync, MS_PER_CHAR, speechDurationMs, visemeWeights, VISEMES } from "./lipsync";

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
