import { afterEach, describe, expect, it } from "vitest";
import type { UiEvent } from "../bindings/index";
import { setLanguage } from "../i18n/index";
import { anotherCharacter, answered, askText, asking, chipItems, chipText, composerLocked, conversationLoaded, dismissOffer, errorText, initialState, offer, pillText, pillTone, reduce, stopPressed, thinking, usageText, type State } from "./state";

/** Fold events into a fresh state. */
function run(...events: UiEvent[]): State {
  return events.reduce((s, e) => reduce(s, e), initialState());
}

const ready: UiEvent = { type: "status", status: { state: "ready" } };
const started: UiEvent = { type: "turn_started", turn_id: "t1", text: "hello" };

describe("reduce", () => {
  it("speech sets the bubble and later pieces of the same turn append", () => {
    const s = run(started, { type: "speech", turn_id: "t1", text: "Hi! I'm Yui." });
    expect(s.bubble).toBe("Hi! I'm Yui.");
    const more = reduce(s, { type: "speech", turn_id: "t1", text: "Nice to meet you." });
    expect(more.bubble).toBe("Hi! I'm Yui. Nice to meet you.");
  });

  it("speech of another turn replaces the bubble; CJK pieces join without a space", () => {
    const s = run(
      { type: "speech", turn_id: "a", text: "old" },
      { type: "speech", turn_id: "b", text: "こんにちは。" },
      { type: "speech", turn_id: "b", text: "元気？" },
    );
    expect(s.bubbleTurn).toBe("b");
    expect(s.bubble).toBe("こんにちは。元気？");
  });

  it("turn_started sets thinking, locks the composer and clears the last error", () => {
    const before = run(ready, { type: "notice", code: "network", message: "socket dropped" });
    expect(before.error).toEqual({ code: "network", message: "socket dropped" });
    expect(errorText(before)).toBe("Can't reach the backend: socket dropped");
    const s = reduce(before, started);
    expect(thinking(s)).toBe(true);
    expect(composerLocked(s)).toBe(true);
    expect(s.error).toBeNull();
    expect(s.bubble).toBe("");
    expect(pillText(s)).toBe("thinking…");
    expect(pillTone(s)).toBe("busy");
  });

  it("turn_ended unlocks the composer and shows the error line", () => {
    const s = run(ready, started, {
      type: "turn_ended",
      turn_id: "t1",
      outcome: "failed",
      error: "rate limited\nsecond line",
      usage: { input_tokens: 1, output_tokens: 2, total_tokens: 3 },
    });
    expect(thinking(s)).toBe(false);
    expect(composerLocked(s)).toBe(false);
    expect(s.error).toBe("rate limited");
    expect(s.usage?.total_tokens).toBe(3);
    expect(pillText(s)).toBe("ready");
  });

  it("failure_line shows as the error and survives a turn_ended without error", () => {
    const s = run(
      started,
      { type: "failure_line", turn_id: "t1", text: "Sorry, I lost the thread." },
      { type: "turn_ended", turn_id: "t1", outcome: "failed" },
    );
    expect(s.error).toBe("Sorry, I lost the thread.");
    expect(thinking(s)).toBe(false);
  });

  it("a notice the core worded itself shows in the UI language, and the turn's English line does not replace it", () => {
    const stalled: UiEvent = { type: "notice", code: "stall", message: "The backend did not answer in time.", phrase: { id: "notice-stalled", args: {} } };
    const s = run(ready, started, stalled, { type: "turn_ended", turn_id: "t1", outcome: "failed", error: "The reply stalled." });
    expect(errorText(s)).toBe("The backend did not answer in time.");
    setLanguage("ja");
    expect(errorText(s)).toBe("バックエンドから時間内に応答がありませんでした。");
    setLanguage("en");
    // Without a phrase (someone else's words): the code's headline, then the words.
    const refused = run(ready, { type: "notice", code: "network", message: "socket dropped" });
    expect(errorText(refused)).toBe("Can't reach the backend: socket dropped");
    // A turn error with no notice before it shows as it came.
    expect(run(ready, started, { type: "turn_ended", turn_id: "t1", outcome: "failed", error: "HTTP 500" }).error).toBe("HTTP 500");
  });

  it("status updates the pill", () => {
    expect(pillText(initialState())).toBe("connecting…");
    expect(pillTone(initialState())).toBe("warn");
    expect(pillText(run(ready))).toBe("ready");
    expect(pillTone(run(ready))).toBe("ok");
    const rec = run({ type: "status", status: { state: "reconnecting", delay_ms: 1500, reason: "refused" } });
    expect(pillText(rec)).toBe("reconnecting in 2s");
    expect(pillText(run({ type: "status", status: { state: "auth_failed" } }))).toBe("key refused");
    expect(pillTone(run({ type: "status", status: { state: "closed" } }))).toBe("bad");
  });

  it("session_reset clears the bubble and the error", () => {
    const s = run(
      { type: "speech", turn_id: "t1", text: "hi" },
      { type: "notice", code: "stall", message: "no reply" },
      { type: "session_reset" },
    );
    expect(s.bubble).toBe("");
    expect(s.error).toBeNull();
  });

  it("keeps the other events for later views", () => {
    const s = run(
      started,
      { type: "cue", turn_id: "t1", cue: { emotion_id: "happy", motion_id: "wave" } },
      { type: "reasoning", turn_id: "t1", delta: "Let me " },
      { type: "reasoning", turn_id: "t1", delta: "think." },
      { type: "tool_status", turn_id: "t1", state: "running", tool_id: "clock" },
      { type: "delegations", items: [{ id: "d1", title: "Task", started_at: 1, state: "running" }] },
      { type: "context_sent", turn_id: "t1", transport: "push", block: "<client_context/>" },
      { type: "turn_queued", text: "next", queued: 1 },
    );
    expect(s.cue?.emotion_id).toBe("happy");
    expect(s.turn.reasoning).toBe("Let me think.");
    expect(s.tool).toEqual({ id: "clock", state: "running", at: 0 });
    expect(s.delegations).toHaveLength(1);
    expect(pillText(s)).toBe("running clock (+1)");
    const done = reduce(s, { type: "tool_status", turn_id: "t1", state: "done", tool_id: "clock" });
    expect(pillText(done)).toBe("thinking… (+1)");
    expect(reduce(s, { type: "reasoning_full", turn_id: "t1", text: "All." }).turn.reasoning).toBe("All.");
  });

  it("a turn: pill thinking, bubble speech, pill clears with the error shown; the next turn replaces the bubble", () => {
    let s = run(ready, started);
    expect(pillText(s)).toBe("thinking…");
    expect(s.bubble).toBe("");
    s = reduce(s, { type: "speech", turn_id: "t1", text: "First answer." });
    expect(s.bubble).toBe("First answer.");
    expect(pillText(s)).toBe("thinking…");
    s = reduce(s, { type: "turn_ended", turn_id: "t1", outcome: "failed", error: "backend hiccup" });
    expect(pillText(s)).toBe("ready");
    expect(pillTone(s)).toBe("ok");
    expect(s.error).toBe("backend hiccup");
    expect(s.bubble).toBe("First answer.");
    s = reduce(s, { type: "turn_started", turn_id: "t2", text: "again" });
    expect(s.bubble).toBe("");
    expect(s.error).toBeNull();
    s = reduce(s, { type: "speech", turn_id: "t2", text: "Second answer." });
    expect(s.bubble).toBe("Second answer.");
    expect(s.bubbleTurn).toBe("t2");
  });

  it("failure_line shows the error line while the turn still runs", () => {
    const s = run(ready, started, { type: "failure_line", turn_id: "t1", text: "I could not reach my tools.\nmore" });
    expect(s.error).toBe("I could not reach my tools.");
    expect(thinking(s)).toBe(true);
    expect(pillText(s)).toBe("thinking…");
  });

  it("tool_status shows the running tool in the pill only while the turn runs", () => {
    const s = run(ready, started, { type: "tool_status", turn_id: "t1", state: "running", tool_id: "web_search" });
    expect(pillText(s)).toBe("running web_search");
    expect(pillTone(s)).toBe("busy");
    const ended = reduce(s, { type: "turn_ended", turn_id: "t1", outcome: "complete" });
    expect(pillText(ended)).toBe("ready");
  });

  it("another character in the window takes the old one's bubble, error and conversation with her", () => {
    let s = run(ready, { type: "turn_started", turn_id: "t1", text: "hi" }, { type: "speech", turn_id: "t1", text: "I am Yui" });
    expect(s.bubble).toBe("I am Yui");
    s = reduce(s, { type: "notice", code: "network", message: "lost it" });
    expect(s.error).not.toBeNull();
    expect(s.transcript.current.messages.length).toBe(1);
    const next = anotherCharacter(s);
    expect(next.bubble).toBe("");
    expect(next.bubbleTurn).toBeNull();
    expect(next.error).toBeNull();
    expect(next.transcript.current.messages).toEqual([]);
    expect(next.connection).toBe(s.connection);
  });

  it("character_changed and context_sent leave the state as it is", () => {
    const s = run(ready, { type: "speech", turn_id: "t1", text: "hi" });
    expect(reduce(s, { type: "character_changed", motions: ["dance"] })).toBe(s);
    expect(reduce(s, { type: "context_sent", turn_id: "t1", transport: "push", block: "x" })).toBe(s);
  });
});

describe("the tool segment", () => {
  it("clears on turn_ended and when the socket leaves ready", () => {
    let s = reduce(initialState(), { type: "status", status: { state: "ready" } });
    s = reduce(s, { type: "turn_started", turn_id: "1", text: "hi" });
    s = reduce(s, { type: "tool_status", turn_id: "1", state: "running", tool_id: "read_file" });
    expect(s.tool).not.toBeNull();
    expect(reduce(s, { type: "turn_ended", turn_id: "1", outcome: "complete" }).tool).toBeNull();
    expect(reduce(s, { type: "status", status: { state: "reconnecting", delay_ms: 1000, reason: "x" } }).tool).toBeNull();
  });
});

describe("the screen indicator and notice", () => {
  it("screen_watch turns the indicator on and off", () => {
    expect(initialState().screenWatched).toBe(false);
    const on = run({ type: "screen_watch", on: true });
    expect(on.screenWatched).toBe(true);
    expect(reduce(on, { type: "screen_watch", on: false }).screenWatched).toBe(false);
  });

  it("the indicator survives turns, errors and a session reset", () => {
    const s = run(
      { type: "screen_watch", on: true },
      started,
      { type: "turn_ended", turn_id: "t1", outcome: "failed", error: "boom" },
      { type: "session_reset" },
    );
    expect(s.screenWatched).toBe(true);
  });

  it("a refused call's offer shows until it lapses, is dismissed or is over", () => {
    const s = run(ready, { type: "tool_offer", switch: "look.screen", until_ms: 5_000 });
    expect(offer(s, 1_000)?.switch).toBe("look.screen");
    expect(offer(reduce(s, started), 1_000)?.switch).toBe("look.screen");
    expect(offer(s, 5_000)).toBeNull();
    const gone = dismissOffer(s, "look.screen");
    expect(offer(gone, 1_000)).toBeNull();
    expect(dismissOffer(gone, "look.screen")).toBe(gone);
    // Over (accepted elsewhere, or switched on in the settings).
    expect(offer(reduce(s, { type: "tool_offer", switch: "look.screen", until_ms: null }), 1_000)).toBeNull();
    // The newest standing one shows; dismissing it shows the one before.
    const two = reduce(s, { type: "tool_offer", switch: "browser", until_ms: 9_000 });
    expect(offer(two, 1_000)?.switch).toBe("browser");
    expect(offer(dismissOffer(two, "browser"), 1_000)?.switch).toBe("look.screen");
    expect(offer(two, 6_000)?.switch).toBe("browser");
  });

  it("images_sent changes nothing the pet shows", () => {
    const s = run(ready);
    expect(reduce(s, { type: "images_sent", turn_id: "t1", images: ["data:image/jpeg;base64,AA=="] })).toBe(s);
  });
});

describe("voice", () => {
  it("speech_halted stops the bubble growing until the next turn; speech_done changes nothing", () => {
    let s = run(ready, started, { type: "speech", turn_id: "t1", text: "One." });
    expect(reduce(s, { type: "speech_done", turn_id: "t1", text: "One." })).toBe(s);
    s = reduce(s, { type: "speech_halted" });
    s = reduce(s, { type: "speech", turn_id: "t1", text: "Two." });
    expect(s.bubble).toBe("One.");
    s = reduce(s, { type: "turn_started", turn_id: "t2", text: "again" });
    s = reduce(s, { type: "speech", turn_id: "t2", text: "Fresh." });
    expect(s.bubble).toBe("Fresh.");
  });

  it("a halt before any turn changes nothing", () => {
    const s = run(ready);
    expect(reduce(s, { type: "speech_halted" })).toBe(s);
  });

  it("the pill shows listening, hearing, transcribing and a mic failure", () => {
    const listening = run(ready, { type: "voice_input", state: { state: "listening" } });
    expect(pillText(listening)).toBe("listening");
    expect(pillTone(listening)).toBe("ok");
    const hearing = reduce(listening, { type: "voice_input", state: { state: "hearing" } });
    expect(pillText(hearing)).toBe("hearing you…");
    expect(pillTone(hearing)).toBe("busy");
    const transcribing = reduce(hearing, { type: "voice_input", state: { state: "transcribing" } });
    expect(pillText(transcribing)).toBe("transcribing…");
    // The spoken turn: thinking while the mic listens again.
    const thinking = reduce(reduce(transcribing, { type: "voice_input", state: { state: "listening" } }), started);
    expect(pillText(thinking)).toBe("thinking…");
    const failed = reduce(thinking, { type: "voice_input", state: { state: "failed", kind: "no_device", message: "No microphone" } });
    expect(pillText(failed)).toBe("No microphone");
    expect(pillTone(failed)).toBe("warn");
    const off = reduce(failed, { type: "voice_input", state: { state: "off" } });
    expect(pillText(off)).toBe("thinking…");
  });

  it("a broken connection outranks listening", () => {
    const s = run({ type: "status", status: { state: "closed" } }, { type: "voice_input", state: { state: "listening" } });
    expect(pillText(s)).toBe("offline");
  });
});

describe("the tool segment's hold, backend turns and the browser", () => {
  const ready = reduce(initialState(), { type: "status", status: { state: "ready" } });
  it("holds done and failed for 1.5 s, then clears", () => {
    let s = reduce(ready, { type: "turn_started", turn_id: "1", text: "hi" }, 1000);
    s = reduce(s, { type: "tool_status", turn_id: "1", state: "running", tool_id: "read_file" }, 1100);
    expect(pillText(s, 1200)).toBe("running read_file");
    s = reduce(s, { type: "tool_status", turn_id: "1", state: "failed", tool_id: "read_file" }, 2000);
    expect(pillText(s, 2000)).toBe("read_file failed");
    // The turn ends inside the hold: the failed state still shows until it passes.
    s = reduce(s, { type: "turn_ended", turn_id: "1", outcome: "complete" }, 2100);
    expect(pillText(s, 3499)).toBe("read_file failed");
    expect(pillText(s, 3500)).toBe("ready");
  });
  it("shows a backend turn's tool though no turn of ours runs, cleared by that turn's end", () => {
    let s = reduce(ready, { type: "tool_status", turn_id: "b-9", state: "running", tool_id: "web_search" }, 10);
    expect(pillText(s, 20)).toBe("running web_search");
    expect(pillTone(s)).toBe("busy");
    s = reduce(s, { type: "chat", event: { type: "end", msg_id: "b-9", user_index: 0, assistant_index: 0, versions: null, active: null } }, 30);
    expect(s.tool).toBeNull();
    expect(pillText(s, 40)).toBe("ready");
  });
  it("takes the client's own browser run from the chat's tool events", () => {
    let s = reduce(ready, { type: "chat", event: { type: "tool_call", msg_id: "1", call_id: "c", name: "browser", args: {} } }, 5);
    expect(pillText(s, 6)).toBe("running browser");
    s = reduce(s, { type: "chat", event: { type: "tool_result", msg_id: "1", call_id: "c", name: "browser", ok: true, output: "ok", seconds: 1 } }, 7);
    expect(pillText(s, 8)).toBe("browser done");
    // Other client tools do not touch the pill.
    expect(reduce(ready, { type: "chat", event: { type: "tool_call", msg_id: "1", call_id: "d", name: "look", args: {} } }, 1).tool).toBeNull();
  });
});

describe("the delegations chip and the usage readout", () => {
  const item = (id: string, state: "running" | "done", ended_at?: number) => ({ id, title: id, started_at: 1, state, ended_at });
  it("keeps a done item 30 minutes after ended_at", () => {
    const s = reduce(initialState(), { type: "delegations", items: [item("a", "running"), item("b", "done", 1_000_000)] });
    expect(chipText(chipItems(s, 1_000_000 + 29 * 60_000))).toBe("1 running · 1 done");
    expect(chipText(chipItems(s, 1_000_000 + 30 * 60_000 + 1))).toBe("1 running");
    expect(chipText(chipItems(reduce(s, { type: "delegations", items: [] }), 0))).toBeNull();
  });
  it("shows total tokens beside the context window", () => {
    expect(usageText(initialState())).toBeNull();
    const s = reduce(initialState(), {
      type: "chat",
      event: { type: "usage", msg_id: "1", chars: 5, seconds: 1, tokens: { input_tokens: 1000, output_tokens: 234, total_tokens: 1234 }, context_window: 32768 },
    });
    expect(usageText(s)).toBe("1,234 / 32,768 tokens");
  });
});

describe("the approval notice on the pet", () => {
  const ask = (msg: string, id: string, name = "look", args: unknown = { at: "screen" }): UiEvent => ({
    type: "chat",
    event: { type: "approval_request", msg_id: msg, approval_id: id, call_id: `c-${id}`, name, args },
  });
  const end = (msg: string): UiEvent => ({ type: "chat", event: { type: "end", msg_id: msg, user_index: 0, assistant_index: 0, versions: null, active: null } });
  const conversation = (state: "pending" | "allowed") => ({
    id: "c", title: "t", created_ms: 0, updated_ms: 0, more_before: false, more_after: false,
    messages: [{ id: "t1", role: "assistant" as const, at_ms: 0, text: "", active: 0, answers: [{ run_id: "t1", state: "streaming" as const, started_ms: 0, text: "", reasoning: "", tools: [], approvals: [{ approval_id: "a1", call_id: "c", name: "look", args: {}, state, asked_ms: 0 }] }] }],
  });

  it("two approvals at once: the newer shows; answering it shows the older; the turn's end takes it down", () => {
    let s = run(ready, started, { type: "chat", event: { type: "start", msg_id: "t1", run_id: "r1" } }, ask("t1", "a1"), ask("t1", "a2", "browser", { action: "open", url: "https://example.com/" }));
    expect(asking(s)).toEqual({ approvalId: "a2", msgId: "t1", text: "May I open https://example.com/?" });
    s = answered(s, "a2", "always");
    expect(asking(s)).toEqual({ approvalId: "a1", msgId: "t1", text: "May I look at your screen?" });
    // Another message's end leaves it; its own turn's end takes it down.
    expect(asking(reduce(s, end("other")))).not.toBeNull();
    s = reduce(s, end("t1"));
    expect(asking(s)).toBeNull();
    // An unknown or already answered approval changes nothing.
    expect(answered(s, "a1", "deny")).toBe(s);
  });

  it("leaves with its run's cancel or error, or an answer given elsewhere (a conversation snapshot)", () => {
    const s = reduce(initialState(), ask("t1", "a1"));
    expect(asking(s)?.approvalId).toBe("a1");
    expect(asking(reduce(s, { type: "chat", event: { type: "cancelled", msg_id: "t1", run_id: "t1" } }))).toBeNull();
    expect(asking(reduce(s, { type: "chat", event: { type: "error", msg_id: "t1", kind: "empty", message: "No output" } }))).toBeNull();
    expect(asking(reduce(s, { type: "conversation", conversation: conversation("pending") }))).not.toBeNull();
    expect(asking(reduce(s, { type: "conversation", conversation: conversation("allowed") }))).toBeNull();
  });

  it("an approval still waiting in the conversation loaded at startup shows", () => {
    const s = conversationLoaded(initialState(), conversation("pending"));
    expect(asking(s)).toEqual({ approvalId: "a1", msgId: "t1", text: "May I look at your screen?" });
    expect(conversationLoaded(s, null)).toBe(s);
  });

  it("says what she asks to do", () => {
    expect(askText("browser", { action: "open", url: "https://example.com/" })).toBe("May I open https://example.com/?");
    expect(askText("execute_command", { command: "ls" })).toBe("May I run execute_command?");
  });
});

describe("the pet's turn, from the shared turn slice", () => {
  it("the queue suffix counts the core's queue; a typed turn dequeues one, Stop clears it", () => {
    let s = run(ready, started, { type: "turn_queued", text: "a", queued: 1 }, { type: "turn_queued", text: "b", queued: 2 });
    expect(pillText(s)).toBe("thinking… (+2)");
    s = reduce(reduce(s, { type: "turn_ended", turn_id: "t1", outcome: "complete" }), { type: "turn_started", turn_id: "t2", text: "a" });
    expect(pillText(s)).toBe("thinking… (+1)");
    // The backend's own turn (no text) takes nothing from the queue.
    s = reduce(reduce(s, { type: "turn_ended", turn_id: "t2", outcome: "complete" }), { type: "turn_started", turn_id: "t3", text: "" });
    expect(pillText(s)).toBe("thinking… (+1)");
    s = stopPressed(s);
    expect(pillText(s)).toBe("thinking…");
    expect(stopPressed(s)).toBe(s);
  });

  it("an end of another turn leaves the composer locked", () => {
    const s = run(ready, started);
    expect(composerLocked(reduce(s, { type: "turn_ended", turn_id: "zz", outcome: "complete" }))).toBe(true);
    expect(composerLocked(reduce(s, { type: "session_reset" }))).toBe(false);
  });
});

describe("the body", () => {
  it("folds body events with the reduce clock, and nothing else touches it", () => {
    let s = initialState();
    expect(s.body.bed).toBeNull();
    s = reduce(s, { type: "body", posture: "lying", bed: { entry: "command", phase: "lying_down", phase_ms: 2400 } }, 1000);
    expect(s.body).toMatchObject({ posture: "lying", bed: { phase: "lying_down" }, since: 1000 });
    const before = s.body;
    s = reduce(s, { type: "turn_started", turn_id: "t1", text: "hi" }, 1200);
    expect(s.body).toBe(before);
    s = reduce(s, { type: "body", posture: "standing" }, 5000);
    expect(s.body).toMatchObject({ posture: "standing", bed: null, since: 5000 });
  });
});

describe("in the user's language", () => {
  afterEach(() => setLanguage("en"));

  it("the pill, the usage readout, the ask and a coded notice follow the language", () => {
    const s = run(
      ready,
      started,
      { type: "chat", event: { type: "usage", msg_id: "1", chars: 5, seconds: 1, tokens: { input_tokens: 1000, output_tokens: 234, total_tokens: 1234 }, context_window: 32768 } },
      { type: "notice", code: "network", message: "socket dropped" },
    );
    setLanguage("ja");
    expect(pillText(s)).toBe("考え中…");
    expect(pillText(initialState())).toBe("接続中…");
    expect(usageText(s)).toBe("1,234 / 32,768 トークン");
    expect(askText("look", {})).toBe("画面を見てもいいですか？");
    expect(errorText(s)).toMatch(/socket dropped$/);
    expect(errorText(s)).not.toMatch(/^Can't/);
    setLanguage("ko");
    expect(pillText(run({ type: "status", status: { state: "reconnecting", delay_ms: 1500, reason: "refused" } }))).toBe("2초 후 다시 연결");
  });

  it("a mic failure reads by its kind; the core's line stands for a kind this page does not know", () => {
    const failed = (kind: string, message: string) => pillText(run(ready, { type: "voice_input", state: { state: "failed", kind, message } }));
    expect(failed("stt", "Could not transcribe: timeout")).toBe("Could not transcribe: timeout");
    expect(failed("something_new", "A new problem")).toBe("A new problem");
    setLanguage("ja");
    expect(failed("no_device", "No microphone")).toBe("マイクが見つかりません");
    expect(failed("stt", "Could not transcribe: timeout")).toBe("文字起こしできませんでした: timeout");
  });
});
