import { describe, expect, it } from "vitest";
import type { ChatMessage, Conversation } from "../bindings/index";
import { placeholderFor } from "./composer";
import { HUES, hueAt, initialOf, mergedId, together } from "./together";

function user(id: string, at: number, text: string): ChatMessage {
  return { id, role: "user", at_ms: at, text, answers: [], active: 0 };
}

function reply(id: string, at: number, text: string): ChatMessage {
  return {
    id,
    role: "assistant",
    at_ms: at,
    text: "",
    answers: [{ run_id: "r", state: "done", started_ms: at, text, reasoning: "", tools: [], approvals: [] }],
    active: 0,
  };
}

function conv(id: string, messages: ChatMessage[], more_before = false): Conversation {
  return { id, title: "t", created_ms: 0, updated_ms: messages.at(-1)?.at_ms ?? 0, messages, more_before, more_after: false };
}

const said = (c: Conversation) => c.messages.map((m) => (m.role === "user" ? m.text : m.answers[0].text));

describe("the chat window's one view of every character", () => {
  it("merges the conversations by time, main's ids kept, the others' made unique, each labeled", () => {
    const yui = conv("c-yui", [user("u1", 10, "@Yui hi"), reply("1", 20, "Hello from Yui")]);
    const ann = conv("c-ann", [user("u1", 15, "@Ann hey"), reply("1", 30, "Ann here")]);
    const t = together([
      { name: "Yui", conversation: yui },
      { name: "Ann", conversation: ann },
    ]);
    expect(said(t.conversation)).toEqual(["@Yui hi", "@Ann hey", "Hello from Yui", "Ann here"]);
    expect(t.conversation.id).toBe("c-yui");
    const ids = t.conversation.messages.map((m) => m.id);
    expect(ids).toEqual(["u1", mergedId("Ann", "u1"), "1", mergedId("Ann", "1")]);
    expect(new Set(ids).size).toBe(4);
    expect(t.speakers.get(mergedId("Ann", "1"))).toEqual({ name: "Ann", hue: hueAt(1), everyone: false });
    expect(t.speakers.get("u1")?.name).toBe("Yui");
    expect(t.origins.get(mergedId("Ann", "1"))).toEqual({ character: "Ann", main: false, id: "1" });
    expect(t.origins.get("1")).toEqual({ character: "Yui", main: true, id: "1" });
  });

  it("shows a line to everyone once, before the answers in registry order", () => {
    const yui = conv("a", [user("u7", 100, "@everyone hi"), reply("7", 110, "Yui: hi")]);
    // Ann's turn went once Yui had spoken.
    const ann = conv("b", [user("u3", 120, "@everyone hi"), reply("3", 130, "Ann: hi")]);
    const mio = conv("c", [user("u9", 140, "@everyone hi"), reply("9", 150, "Mio: hi")]);
    const t = together([
      { name: "Yui", conversation: yui },
      { name: "Ann", conversation: ann },
      { name: "Mio", conversation: mio },
    ]);
    expect(said(t.conversation)).toEqual(["@everyone hi", "Yui: hi", "Ann: hi", "Mio: hi"]);
    expect(t.speakers.get("u7")?.everyone).toBe(true);
    expect(t.origins.has(mergedId("Ann", "u3"))).toBe(false);
  });

  it("shows the same line to everyone again when the user said it again", () => {
    const yui = conv("a", [user("u1", 100, "@everyone hi"), reply("1", 110, "one"), user("u2", 200, "@everyone hi"), reply("2", 210, "two")]);
    const ann = conv("b", [user("u1", 120, "@everyone hi"), reply("1", 130, "uno"), user("u2", 220, "@everyone hi"), reply("2", 230, "dos")]);
    const t = together([
      { name: "Yui", conversation: yui },
      { name: "Ann", conversation: ann },
    ]);
    expect(said(t.conversation)).toEqual(["@everyone hi", "one", "uno", "@everyone hi", "two", "dos"]);
  });

  it("keeps each copied message while it is unchanged (rows are not rebuilt) and says when older messages exist", () => {
    const ann = conv("b", [reply("1", 30, "Ann here")], true);
    const voices = [
      { name: "Yui", conversation: conv("a", []) },
      { name: "Ann", conversation: ann },
    ];
    const first = together(voices);
    const second = together(voices);
    expect(second.conversation.messages[0]).toBe(first.conversation.messages[0]);
    expect(first.conversation.more_before).toBe(true);
    expect(together([]).conversation.messages).toEqual([]);
  });

  it("gives every open character a portrait of her own colour and letter", () => {
    expect(new Set(HUES).size).toBe(HUES.length);
    expect(HUES.length).toBeGreaterThanOrEqual(6);
    expect(hueAt(0)).not.toBe(hueAt(1));
    expect(hueAt(HUES.length)).toBe(hueAt(0));
    expect(initialOf(" ann")).toBe("A");
    expect(initialOf("")).toBe("?");
  });

  it("names main in the composer's hint, and @ when there are others", () => {
    expect(placeholderFor(["Ann"])).toBe("Message Ann…");
    expect(placeholderFor(["Ann", "Yui"])).toBe("Message Ann, or @ to pick who…");
    expect(placeholderFor([])).toBe("Message…");
  });

  it("tells two characters' cards of the same approval id apart by their messages", () => {
    // Each session counts its own asks: both may wait on `ask-1`.
    const asking = (at: number) => {
      const m = reply("7", at, "");
      m.answers[0].approvals = [{ approval_id: "ask-1", call_id: "c1", name: "browser", args: {}, state: "pending", asked_ms: at }];
      return m;
    };
    const t = together([
      { name: "Yui", conversation: conv("a", [asking(10)]) },
      { name: "Ann", conversation: conv("b", [asking(20)]) },
    ]);
    const [yui, ann] = t.conversation.messages;
    expect(t.origins.get(yui.id)).toEqual({ character: "Yui", main: true, id: "7" });
    expect(t.origins.get(ann.id)).toEqual({ character: "Ann", main: false, id: "7" });
  });
});
