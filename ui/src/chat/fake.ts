// A browser stand-in for the shell, for the chat window only: a demo
// conversation that shows every element (reasoning, a tool card with long
// output, a pending approval, a no_answer error, a stopped answer, a message
// with two versions, a queued message), and a tiny agent that answers what
// is typed. Used only when `window.__TAURI_INTERNALS__` is absent.

import { pageOf, windowOf } from "./paging";
import type { ChatEvent, ChatSettings, Conversation, ConversationSummary, SearchHit, UiEvent, UserCommand } from "../bindings/index";
import type { ChatBackend } from "./backend";
import { apply, newConversation, pickVersion, shownText, user } from "./transcript";

/** Dev-only controls on `window.__yuiChatFake`. */
export interface ChatFakeControls {
  /** Deliver `event` as if the core sent it. */
  emit(event: UiEvent): void;
  /** The commands the page sent, oldest first. */
  sent: UserCommand[];
}

declare global {
  interface Window {
    /** Present only with the chat window's fake backend. */
    __yuiChatFake?: ChatFakeControls;
  }
}

const SETTINGS: ChatSettings = {
  show_reasoning: true,
  collapse_reasoning: false,
  confirm_delete: true,
  max_attachments: 5,
  max_attachment_bytes: 2_000_000,
};

/** A long build log: more than the card shows before "Show all". */
const BUILD_LOG = Array.from({ length: 60 }, (_, i) => `[${String(i).padStart(2, "0")}] Compiling crate-${i} v0.${i}.0 (${i % 7 === 0 ? "warning: unused import" : "ok"})`).join("\n");

const end = (msg_id: string, versions: number | null = null): ChatEvent => ({ type: "end", msg_id, user_index: null, assistant_index: null, versions, active: null });

/** One past turn of the demo: the user's text and the events of its reply. */
type DemoTurn = [id: string, text: string, events: ChatEvent[]];

function demoTurns(): DemoTurn[] {
  return [
    ["1", "What time is it?", [
      { type: "start", msg_id: "1", run_id: "r1" },
      { type: "reasoning", msg_id: "1", text: "The user asks for the time. The clock says 14:15." },
      { type: "delta", msg_id: "1", text: "It's a quarter past two." },
      { type: "usage", msg_id: "1", chars: 24, seconds: 1.2, ttft: 0.4 },
      end("1"),
      { type: "start", msg_id: "1", run_id: "r1b" },
      { type: "reasoning", msg_id: "1", text: "Again: the time, with a bit more charm." },
      { type: "delta", msg_id: "1", text: "A quarter past two — **tea time**, if you ask me." },
      { type: "usage", msg_id: "1", chars: 47, seconds: 2.1, ttft: 0.35, tokens: { input_tokens: 1830, output_tokens: 42, total_tokens: 1872 }, context_window: 32768, latency: { request_sent_ms: 12, first_token_ms: 350, first_sentence_ms: 900, first_audio_ms: 1400 } },
      end("1", 2),
    ]],
    ["2", "Summarize the build log", [
      { type: "start", msg_id: "2", run_id: "r2" },
      { type: "tool_drafting", msg_id: "2", name: "read_file" },
      { type: "tool_call", msg_id: "2", call_id: "c2", name: "read_file", args: { path: "target/build.log", tail: 200 } },
      { type: "tool_result", msg_id: "2", call_id: "c2", name: "read_file", ok: true, output: BUILD_LOG, seconds: 0.08 },
      { type: "delta", msg_id: "2", text: "Sixty crates compiled. Nine left an *unused import* warning; nothing failed." },
      { type: "usage", msg_id: "2", chars: 76, seconds: 3.4, ttft: 0.9 },
      end("2"),
    ]],
    ["3", "What's on my desk?", [
      { type: "start", msg_id: "3", run_id: "r3" },
      { type: "tool_call", msg_id: "3", call_id: "c3a", name: "look", args: { at: "screen" } },
      { type: "tool_result", msg_id: "3", call_id: "c3a", name: "look", ok: true, output: "a desk, a mug, a cat", seconds: 1.1 },
      { type: "tool_call", msg_id: "3", call_id: "c3b", name: "look", args: { at: "camera" } },
      { type: "tool_result", msg_id: "3", call_id: "c3b", name: "look", ok: true, output: "the cat again", seconds: 0.9 },
      { type: "error", msg_id: "3", kind: "no_answer", message: "The tools ran, but no answer came back" },
      end("3"),
    ]],
    ["4", "Tell me a very long story", [
      { type: "start", msg_id: "4", run_id: "r4" },
      { type: "delta", msg_id: "4", text: "Once upon a time, in a town of paper lanterns, there lived a" },
      { type: "cancelled", msg_id: "4", run_id: "r4" },
    ]],
  ];
}

/** A past conversation built by folding `turns`, starting `ago` ms before `now`. */
function build(id: string, turns: DemoTurn[], now: number, ago: number): Conversation {
  let conv = newConversation(id, now - ago);
  let t = now - ago;
  for (const [turnId, text, events] of turns) {
    conv = user(conv, turnId, text, (t += 1000));
    for (const e of events) conv = apply(conv, e, (t += 700));
  }
  return conv;
}

/** The chat window's browser fake. */
export function fakeChatBackend(): ChatBackend {
  const now = Date.now();
  const listeners = new Set<(e: UiEvent) => void>();
  let timers: number[] = [];
  let current = build("demo", demoTurns(), now, 600_000);
  const others: Conversation[] = [
    build("weekend", [["w1", "Plans for the weekend?", [{ type: "start", msg_id: "w1", run_id: "w" }, { type: "delta", msg_id: "w1", text: "A picnic by the river, if the weather holds." }, end("w1")]]], now, 86_400_000 * 2),
    build("recipes", [["k1", "A quick dinner with eggs", [{ type: "start", msg_id: "k1", run_id: "k" }, { type: "delta", msg_id: "k1", text: "Shakshuka: eggs poached in a spiced tomato sauce." }, end("k1")]]], now, 86_400_000 * 5),
  ];
  let running: string | null = null;
  let queue: string[] = [];
  let turns = 10;
  const controls: ChatFakeControls = { emit: (e) => emit(e), sent: [] };
  window.__yuiChatFake = controls;

  function emit(event: UiEvent): void {
    const at = Date.now();
    // A remake's user message is already there (as in the core).
    if (event.type === "turn_started" && !event.turn_id.startsWith("regen-")) current = user(current, event.turn_id, event.text, at);
    if (event.type === "chat") current = apply(current, event.event, at);
    if (event.type === "conversation") current = event.conversation;
    listeners.forEach((l) => l(event));
  }
  const later = (ms: number, f: () => void) => timers.push(window.setTimeout(f, ms));
  const chat = (event: ChatEvent) => emit({ type: "chat", event });

  /** Finish turn `id` and start the next queued one. */
  function finish(id: string, outcome: "complete" | "stopped"): void {
    emit({ type: "turn_ended", turn_id: id, outcome });
    running = null;
    const next = queue.shift();
    if (next !== undefined) later(300, () => runTurn(next, String(++turns)));
  }

  /** A demo reply: a little reasoning, the reply in pieces, usage, end. */
  function runTurn(text: string, id: string, msgId = id): void {
    running = id;
    emit({ type: "turn_started", turn_id: id, text });
    chat({ type: "start", msg_id: msgId, run_id: `run-${++turns}` });
    chat({ type: "reasoning", msg_id: msgId, text: `They said “${text.slice(0, 40)}”. ` });
    later(500, () => chat({ type: "reasoning", msg_id: msgId, text: "A short, friendly answer will do." }));
    const reply = `You said: ${text}. I'm only the demo agent, but I heard you!`.split(" ");
    reply.forEach((word, i) => later(1500 + i * 90, () => chat({ type: "delta", msg_id: msgId, text: (i ? " " : "") + word })));
    const doneAt = 1600 + reply.length * 90;
    later(doneAt, () => {
      chat({ type: "usage", msg_id: msgId, chars: reply.join(" ").length, seconds: doneAt / 1000, ttft: 0.3, tokens: { input_tokens: 900, output_tokens: 30, total_tokens: 930 }, context_window: 32768, latency: { request_sent_ms: 8, first_token_ms: 300, first_sentence_ms: 1600 } });
      chat(end(msgId));
      finish(id, "complete");
    });
  }

  /** The live part of the demo: a turn waiting on an approval, and a queued message. */
  function liveDemo(): void {
    const id = "5";
    running = id;
    emit({ type: "status", status: { state: "ready" } });
    emit({ type: "turn_started", turn_id: id, text: "Tidy my downloads folder" });
    chat({ type: "start", msg_id: id, run_id: "r5" });
    chat({ type: "reasoning", msg_id: id, text: "Tidying means moving files. That needs the shell, " });
    later(1200, () => chat({ type: "reasoning", msg_id: id, text: "so I'll ask first." }));
    later(2500, () => chat({ type: "tool_drafting", msg_id: id, name: "shell" }));
    later(3000, () => chat({ type: "tool_call", msg_id: id, call_id: "c5", name: "shell", args: { cmd: "mv ~/Downloads/*.pdf ~/Documents/" } }));
    later(3100, () => chat({ type: "approval_request", msg_id: id, approval_id: "p5", call_id: "c5", name: "shell", args: { cmd: "mv ~/Downloads/*.pdf ~/Documents/" } }));
    later(3300, () => {
      queue.push("and then empty the trash");
      emit({ type: "turn_queued", text: "and then empty the trash", queued: queue.length });
    });
  }

  function stop(): void {
    if (running === null) return;
    timers.forEach((t) => window.clearTimeout(t));
    timers = [];
    queue = [];
    const id = running;
    const msg = current.messages.filter((m) => m.role === "assistant").at(-1)?.id ?? id;
    chat({ type: "cancelled", msg_id: msg, run_id: "" });
    chat(end(msg));
    finish(id, "stopped");
  }

  function approve(approvalId: string, decision: string): void {
    if (approvalId !== "p5" || running !== "5") return;
    const ok = decision !== "deny";
    later(400, () => {
      if (ok) chat({ type: "tool_result", msg_id: "5", call_id: "c5", name: "shell", ok: true, output: "moved 14 files", seconds: 0.2 });
      chat({ type: "delta", msg_id: "5", text: ok ? "Done — 14 PDFs moved to Documents." : "Okay, I won't touch it." });
      chat({ type: "usage", msg_id: "5", chars: 34, seconds: 4.2, ttft: 2.5 });
      chat(end("5"));
      finish("5", "complete");
    });
  }

  /** Replace the current conversation (New chat, fork, delete) and say so. */
  function replace(next: Conversation, keepOld: boolean): void {
    if (keepOld) others.unshift(current);
    emit({ type: "conversation", conversation: next });
  }

  function handle(c: UserCommand): void {
    switch (c.type) {
      case "send_text":
      case "send_addressed":
      case "send_message":
      case "send_voice": {
        const text = c.type === "send_message" && c.attachments.length ? `${c.text} [${c.attachments.map((a) => a.name).join(", ")}]` : c.text;
        if (running !== null) {
          queue.push(text);
          emit({ type: "turn_queued", text, queued: queue.length });
        } else runTurn(text, String(++turns));
        return;
      }
      case "stop":
      case "barge_in":
        return stop();
      case "reset":
        stop();
        emit({ type: "session_reset" });
        return replace(newConversation(`chat-${++turns}`, Date.now()), true);
      case "approve":
        return approve(c.approval_id, c.decision);
      case "regenerate": {
        // As the core does: the user message before it goes again, the answer filed under `msg_id`.
        const pos = current.messages.findIndex((m) => m.id === c.msg_id);
        const asked = current.messages.slice(0, Math.max(0, pos)).reverse().find((m) => m.role === "user");
        if (running !== null) emit({ type: "notice", code: "unsupported", message: "Wait for the reply to finish before regenerating." });
        else if (asked) runTurn(asked.text, `regen-${++turns}`, c.msg_id);
        else emit({ type: "notice", code: "unsupported", message: "Nothing to regenerate: no message of yours came before this one." });
        return;
      }
      case "pick_version":
        current = pickVersion(current, c.msg_id, c.n);
        return;
      case "fork": {
        const i = current.messages.findIndex((m) => m.id === c.msg_id);
        const fork = { ...current, id: `fork-${++turns}`, title: `${current.title} (fork)`, messages: current.messages.slice(0, i + 1) };
        return replace(fork, true);
      }
      case "delete_message":
        return replace({ ...current, messages: current.messages.filter((m) => m.id !== c.msg_id) }, false);
      case "delete_conversation": {
        // As the core does: another one goes from the list; the current one gives way to the newest left.
        const at = others.findIndex((o) => o.id === c.conversation_id);
        if (at >= 0) {
          others.splice(at, 1);
          return replace(current, false);
        }
        if (c.conversation_id !== current.id) return;
        if (running !== null) return emit({ type: "notice", code: "unsupported", message: "Stop the reply before deleting this conversation." });
        const newest = others.sort((a, b) => b.updated_ms - a.updated_ms).shift();
        return replace(newest ?? newConversation(`chat-${++turns}`, Date.now()), false);
      }
      case "delete_all_conversations":
        if (running !== null) return emit({ type: "notice", code: "unsupported", message: "Stop the reply before deleting the conversations." });
        others.splice(0, others.length);
        return replace(newConversation(`chat-${++turns}`, Date.now()), false);
      case "show_offers":
        return;
      case "switch_on":
        emit({ type: "tool_offer", switch: c.switch, until_ms: null });
        return;
      case "ask_help":
      case "reconnect":
      case "set_vocabulary":
      case "touch":
      case "go_to_bed":
      case "drag":
      case "body_interrupted":
        return;
      default: {
        const unknown: never = c;
        console.warn("fake: unknown command", unknown);
      }
    }
  }

  const all = () => [current, ...others];
  const summary = (conv: Conversation, isCurrent: boolean): ConversationSummary => ({
    id: conv.id,
    title: conv.title,
    updated_ms: conv.updated_ms,
    messages: conv.messages.length,
    current: isCurrent,
  });

  return {
    kind: "fake",
    send: async (command) => {
      controls.sent.push(command);
      handle(command);
    },
    currentStatus: async () => ({ state: "connecting", attempt: 1 }),
    settings: async () => ({ ...SETTINGS }),
    conversations: async () => all().map((c) => summary(c, c === current)),
    conversation: async (id, at = null) => {
      if (id === null) return current;
      const conv = all().find((c) => c.id === id);
      return conv ? windowOf(conv, at) : null;
    },
    page: async (id, before, after) => {
      const conv = all().find((c) => c.id === id);
      return conv ? pageOf(conv, before, after) : null;
    },
    search: async (query) => {
      const q = query.trim().toLowerCase();
      if (!q) return [];
      const hits: SearchHit[] = [];
      for (const conv of all()) {
        for (const m of conv.messages) {
          const text = shownText(m);
          const at = text.toLowerCase().indexOf(q);
          if (at < 0) continue;
          const snippet = (at > 30 ? "…" : "") + text.slice(Math.max(0, at - 30), at + q.length + 50);
          hits.push({ conversation_id: conv.id, title: conv.title, message_id: m.id, snippet, at_ms: m.at_ms });
        }
      }
      return hits;
    },
    deleteConversation: async (id) => handle({ type: "delete_conversation", conversation_id: id }),
    deleteAllConversations: async () => handle({ type: "delete_all_conversations" }),
    openSettings: async () => console.info("fake: open_settings"),
    // One character in the demo: every line is hers.
    characterNames: async () => ["Yui"],
    sendToCharacters: async (text) => handle({ type: "send_text", text }),
    stopAll: async () => handle({ type: "stop" }),
    // No other character: nothing of hers to show or reach.
    characterConversation: async () => null,
    characterPage: async () => null,
    characterCommand: async (name) => Promise.reject({ code: "unknown_character", message: `no open character is named ${name}` }),
    subscribeCast: async () => undefined,
    subscribe: async (onEvent) => {
      listeners.add(onEvent);
      if (listeners.size === 1) later(400, liveDemo);
      return () => listeners.delete(onEvent);
    },
  };
}
