// A browser stand-in for the Tauri shell: a tiny demo agent so the page can be
// developed and screenshot in a plain browser (`npm run ui:dev`). Used only
// when `window.__TAURI_INTERNALS__` is absent.

import type { Cue, Gait, InputRect, PeekView, PostureState, Status, UiEvent, UserCommand } from "../bindings/index";
import type { Backend, CursorPayload } from "./backend";

/** Dev-only controls on `window.__yuiFake`, for screenshots and manual poking. */
export interface FakeControls {
  /** Deliver `event` as if the core sent it. */
  emit(event: UiEvent): void;
  /** The commands the page sent, oldest first. */
  sent: UserCommand[];
  /** The last click-through value the page asked for (null: never asked). */
  clickThrough: boolean | null;
  /** Answer `inputByShape` with this (set before the page starts). */
  byShape: boolean;
  /** The input shapes the page sent, oldest first (null: the whole window). */
  shapes: (InputRect[] | null)[];
  /** Deliver a cursor position as the shell's poll would. */
  cursor(p: CursorPayload): void;
  /** Deliver a "stay interactive" request. */
  interactive(seconds: number): void;
  /** User .vrma clips by id (empty at first); emit character_changed after adding some. */
  motions: Map<string, ArrayBuffer>;
  /** True once the page pressed Allow on the screen notice. */
  screenAllowed: boolean;
  /** Deliver a mouth level as the shell's lip channel would (a no-op before the page registered). */
  level(value: number): void;
  /** The mic toggle as the page last set it. */
  mic: boolean;
  /** The body the fake reports (body_now and the last `body` event). */
  body: UiEvent;
  /** Start the launch scene: asleep on the bed. */
  launchAsleep(): void;
  /** The tray's "Go to bed". */
  goToBed(): void;
  /**
   * Preview a posture as the core's posture machine would report it (no
   * window moves in a plain browser), e.g. `posture("peeking", undefined,
   * { side: "left", edge: 200 })` or `posture("walking", "walk")`.
   */
  posture(posture: PostureState, gait?: Gait, peek?: PeekView): void;
}

declare global {
  interface Window {
    /** Present only with the browser fake backend. */
    __yuiFake?: FakeControls;
  }
}

const LONG_REPLY = [
  "Oh, that's a lovely question and I'm really glad you asked it!",
  "I spent the whole afternoon watching the clouds drift past your window and counting the ones shaped like cats.",
  "Shall we take a short break together and stretch a little before you get back to work?",
];

/** What the demo agent does for `text`: an optional tool, a cue, then speech pieces. */
function script(text: string): { tool?: string; cue: Cue; speech: string[] } {
  const t = text.toLowerCase();
  if (t.includes("long")) return { cue: { emotion_id: "happy", motion_id: "nod" }, speech: LONG_REPLY };
  if (t.includes("surprise")) return { cue: { emotion_id: "surprised" }, speech: ["Wait, really?!", "I didn't see that coming."] };
  if (t.includes("sad")) return { cue: { emotion_id: "sad" }, speech: ["Oh no…", "That sounds hard."] };
  if (t.includes("time")) return { tool: "clock", cue: { emotion_id: "relaxed" }, speech: ["It's tea time.", "Always."] };
  if (t.includes("wave")) return { cue: { emotion_id: "happy", motion_id: "wave" }, speech: ["Hello there!", "Bye-bye for now."] };
  return { cue: { emotion_id: "happy" }, speech: ["Hi! I'm Yui.", "Nice to meet you."] };
}

/** The browser fake: status ready, and a demo reply to every message. */
export function fakeBackend(): Backend {
  const listeners = new Set<(e: UiEvent) => void>();
  const cursorListeners = new Set<(p: CursorPayload) => void>();
  const interactiveListeners = new Set<(s: number) => void>();
  const timers: number[] = [];
  const waiting: string[] = [];
  let turn: string | null = null;
  let turns = 0;
  const emit = (event: UiEvent) => listeners.forEach((l) => l(event));
  const later = (ms: number, f: () => void) => timers.push(window.setTimeout(f, ms));

  const runTurn = (text: string) => {
    const id = `demo-${++turns}`;
    turn = id;
    const plan = script(text);
    emit({ type: "turn_started", turn_id: id, text });
    let at = 1600;
    if (plan.tool) {
      const tool = plan.tool;
      later(600, () => emit({ type: "tool_status", turn_id: id, state: "running", tool_id: tool }));
      later(1400, () => emit({ type: "tool_status", turn_id: id, state: "done", tool_id: tool }));
    }
    later(at, () => emit({ type: "cue", turn_id: id, cue: plan.cue }));
    for (const piece of plan.speech) {
      at += 150;
      later(at, () => emit({ type: "speech", turn_id: id, text: piece }));
      at += Math.min(4000, piece.length * 60);
    }
    later(at + 200, () => endTurn(id, "complete"));
  };
  const endTurn = (id: string, outcome: "complete" | "stopped") => {
    if (turn !== id) return;
    turn = null;
    emit({ type: "turn_ended", turn_id: id, outcome, usage: { input_tokens: 12, output_tokens: 20, total_tokens: 32 } });
    const next = waiting.shift();
    if (next !== undefined) later(50, () => runTurn(next));
  };

  // The bed scene, as the core runs it: lying_down → asleep → (a touch) waking → standing;
  // a touch during lying_down leaves at once.
  type Phase = "lying_down" | "asleep" | "waking" | "leaving";
  let bedTimer: number | undefined;
  const bodyIs = (phase: Phase | null, entry: "launch" | "command" = "command") => {
    const ms = { lying_down: 2400, asleep: 0, waking: 3200, leaving: 600 };
    const event: UiEvent =
      phase === null
        ? { type: "body", posture: "standing" }
        : { type: "body", posture: phase === "leaving" ? "standing" : "lying", bed: { entry, phase, phase_ms: ms[phase] } };
    controls.body = event;
    emit(event);
    window.clearTimeout(bedTimer);
    if (phase === "lying_down") bedTimer = window.setTimeout(() => bodyIs("asleep", entry), ms.lying_down);
    if (phase === "waking" || phase === "leaving") bedTimer = window.setTimeout(() => bodyIs(null), ms[phase]);
  };
  const bedPhase = (): Phase | null => (controls.body.type === "body" ? (controls.body.bed?.phase ?? null) : null);
  const wake = () => {
    const phase = bedPhase();
    if (phase === "asleep") bodyIs("waking");
    else if (phase === "lying_down") bodyIs("leaving");
  };

  const controls: FakeControls = {
    emit,
    sent: [],
    clickThrough: null,
    byShape: false,
    shapes: [],
    cursor: (p) => cursorListeners.forEach((l) => l(p)),
    interactive: (s) => interactiveListeners.forEach((l) => l(s)),
    motions: new Map(),
    screenAllowed: false,
    level: () => {},
    mic: false,
    body: { type: "body", posture: "standing" },
    launchAsleep: () => bodyIs("asleep", "launch"),
    goToBed: () => {
      if (bedPhase() === null) bodyIs("lying_down");
    },
    posture: (posture, gait, peek) => {
      const event: UiEvent = { type: "body", posture, ...(gait ? { gait } : {}), ...(peek ? { peek } : {}) };
      controls.body = event;
      emit(event);
    },
  };
  window.__yuiFake = controls;

  return {
    kind: "fake",
    async send(command) {
      controls.sent.push(command);
      switch (command.type) {
        case "send_text":
        case "send_addressed":
        case "send_voice":
        case "send_message":
          if (turn) {
            waiting.push(command.text);
            emit({ type: "turn_queued", text: command.text, queued: waiting.length });
          } else runTurn(command.text);
          return;
        case "stop":
        case "barge_in":
          while (timers.length) window.clearTimeout(timers.pop());
          waiting.length = 0;
          emit({ type: "speech_halted" });
          if (turn) endTurn(turn, "stopped");
          return;
        case "reset":
          emit({ type: "session_reset" });
          return;
        case "reconnect":
          emit({ type: "status", status: { state: "ready" } });
          return;
        case "show_offers":
          return;
        case "switch_on":
          if (command.switch === "look.screen") controls.screenAllowed = true;
          emit({ type: "tool_offer", switch: command.switch, until_ms: null });
          return;
        case "set_vocabulary":
          console.info("yui (fake backend): vocabulary", command.vocabulary);
          return;
        case "ask_help":
        case "approve":
        case "regenerate":
        case "pick_version":
        case "fork":
        case "delete_message":
        case "delete_conversation":
        case "delete_all_conversations":
          console.info("yui (fake backend):", command.type, command);
          return;
        case "go_to_bed":
          if (bedPhase() === null) bodyIs("lying_down");
          return;
        case "touch":
          if (bedPhase() !== null) wake();
          else if (command.touch.kind === "head_pat") emit({ type: "cue", turn_id: "touch", cue: { emotion_id: "happy" } });
          else if (command.touch.kind === "poke") emit({ type: "cue", turn_id: "touch", cue: { emotion_id: "surprised" } });
          return;
        case "drag":
          // No window to place in a plain browser: the hold is only shown.
          emit({ type: "body", posture: command.phase === "end" ? "standing" : "dragging" });
          return;
        case "body_interrupted":
          console.info("yui (fake backend): body interrupted:", command.reason);
          if (bedPhase() !== null) bodyIs(null);
          return;
        default: {
          const unknown: never = command;
          throw new Error(`unknown command ${String(unknown)}`);
        }
      }
    },
    currentStatus: async (): Promise<Status> => ({ state: "ready" }),
    async subscribe(onEvent) {
      listeners.add(onEvent);
      return () => listeners.delete(onEvent);
    },
    characterFile: async () => new ArrayBuffer(0),
    userMotions: async () => [...controls.motions.keys()],
    motionFile: async (id) => {
      const bytes = controls.motions.get(id);
      if (!bytes) throw { code: "storage", message: `no motion ${id} in the browser demo` };
      return bytes.slice(0);
    },
    setClickThrough: async (ignore) => {
      controls.clickThrough = ignore;
    },
    inputByShape: async () => controls.byShape,
    setInputShape: async (rects) => {
      controls.shapes.push(rects);
    },
    setKeyboard: async () => {},
    startDragging: async () => {},
    async onCursor(handler) {
      cursorListeners.add(handler);
      return () => cursorListeners.delete(handler);
    },
    async onInteractive(handler) {
      interactiveListeners.add(handler);
      return () => interactiveListeners.delete(handler);
    },
    screenWatched: async () => false,
    lipChannel: async (handler) => {
      controls.level = handler;
    },
    micEnabled: async () => controls.mic,
    setMic: async (on) => {
      controls.mic = on;
      emit({ type: "voice_input", state: on ? { state: "listening" } : { state: "off" } });
    },
    openChat: async () => {
      window.open("chat.html", "yui-chat", "width=760,height=640");
    },
    bodyNow: async () => controls.body,
    characterName: async () => "Yui",
  };
}
