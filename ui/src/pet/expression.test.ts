import { describe, expect, it } from "vitest";
import { emotionVocabulary, resolveEmotion } from "./expression";

const FULL = ["neutral", "happy", "angry", "sad", "relaxed", "surprised", "blink", "aa", "lookUp"];
/** A VRM 0.x model after three-vrm's mapping: no surprised. */
const V0 = ["neutral", "happy", "angry", "sad", "relaxed", "blink", "aa"];

describe("resolveEmotion", () => {
  it("takes the exact preset the model has", () => {
    for (const e of ["happy", "angry", "sad", "relaxed", "surprised", "neutral"]) {
      expect(resolveEmotion(e, FULL)).toEqual({ expression: e, match: "exact" });
    }
  });

  it("matches case and spacing loosely", () => {
    expect(resolveEmotion("Happy", FULL).expression).toBe("happy");
    expect(resolveEmotion(" SURPRISED ", FULL).expression).toBe("surprised");
  });

  it("maps VRM 0.x preset names", () => {
    expect(resolveEmotion("joy", FULL)).toEqual({ expression: "happy", match: "synonym" });
    expect(resolveEmotion("sorrow", FULL).expression).toBe("sad");
    expect(resolveEmotion("fun", FULL).expression).toBe("relaxed");
  });

  it("maps common synonyms", () => {
    const cases: [string, string][] = [
      ["joyful", "happy"],
      ["smile", "happy"],
      ["excited", "happy"],
      ["curious", "surprised"],
      ["calm", "relaxed"],
      ["upset", "angry"],
      ["mad", "angry"],
      ["shocked", "surprised"],
      ["crying", "sad"],
    ];
    for (const [cue, want] of cases) expect(resolveEmotion(cue, FULL).expression, cue).toBe(want);
  });

  it("falls back to neutral for unknown ids", () => {
    expect(resolveEmotion("quizzical-banana", FULL)).toEqual({ expression: "neutral", match: "fallback" });
    expect(resolveEmotion("", FULL)).toEqual({ expression: "neutral", match: "fallback" });
  });

  it("never picks a blink, mouth or gaze expression", () => {
    expect(resolveEmotion("blink", FULL)).toEqual({ expression: "neutral", match: "fallback" });
    expect(resolveEmotion("aa", FULL).expression).toBe("neutral");
    expect(resolveEmotion("lookUp", FULL).expression).toBe("neutral");
  });

  it("uses a preset the model has when it lacks the asked one", () => {
    expect(resolveEmotion("surprised", V0)).toEqual({ expression: "neutral", match: "fallback" });
    expect(resolveEmotion("excited", V0).expression).toBe("happy");
    expect(resolveEmotion("excited", ["neutral", "surprised"]).expression).toBe("surprised");
    expect(resolveEmotion("calm", ["neutral", "happy"]).expression).toBe("happy");
    expect(resolveEmotion("happy", ["neutral"])).toEqual({ expression: "neutral", match: "fallback" });
    expect(resolveEmotion("normal", ["neutral"])).toEqual({ expression: "neutral", match: "synonym" });
  });

  it("takes a model's custom expression by name", () => {
    expect(resolveEmotion("smug", [...FULL, "smug"])).toEqual({ expression: "smug", match: "exact" });
    expect(resolveEmotion("Smug", [...FULL, "smug"]).expression).toBe("smug");
  });
});

describe("emotionVocabulary", () => {
  it("lists neutral, the presets the model has, then custom expressions", () => {
    expect(emotionVocabulary(FULL, [])).toEqual(["neutral", "happy", "angry", "sad", "relaxed", "surprised"]);
    expect(emotionVocabulary(V0, ["smug", "blink"])).toEqual(["neutral", "happy", "angry", "sad", "relaxed", "smug"]);
    expect(emotionVocabulary([], [])).toEqual(["neutral"]);
  });
});
