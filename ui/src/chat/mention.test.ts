import { describe, expect, it } from "vitest";
import { addressed, completeMention, mentionCandidates } from "./mention";

describe("@ in the chat window's composer", () => {
  const names = ["Yui", "Ann", "Anya"];

  it("offers the names that start with what was typed, without case, then everyone", () => {
    expect(mentionCandidates("@", names)).toEqual(["Yui", "Ann", "Anya", "everyone"]);
    expect(mentionCandidates("@an", names)).toEqual(["Ann", "Anya"]);
    expect(mentionCandidates("@E", names)).toEqual(["everyone"]);
    expect(mentionCandidates("@zed", names)).toEqual([]);
  });

  it("offers nothing past the first word, mid-line, or with one character", () => {
    expect(mentionCandidates("@Ann hi", names)).toEqual([]);
    expect(mentionCandidates("hi @Ann", names)).toEqual([]);
    expect(mentionCandidates("@", ["Yui"])).toEqual([]);
  });

  it("completes to the name and a space, and knows an addressed line", () => {
    expect(completeMention("Ann")).toBe("@Ann ");
    expect(addressed("  @everyone hi")).toBe(true);
    expect(addressed("mail me @ noon")).toBe(false);
  });
});
