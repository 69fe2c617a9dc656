// What the pet window shows, and the one function that folds core events into it.
// The connection, turn, delegations and transcript parts are the shared
// slices (`slices/`), folded the same way by the chat and settings windows;
// the approval notice is derived from the transcript. Pure: no DOM, no
// Tauri, so vitest runs it as is.

import type { ApprovalDecision, ChatEvent, Conversation, Cue, DelegationItem, ErrorCode, Phrase, ToolState, UiEvent, Usage, VoiceState } from "../bindings/index";
import { formatNumber, t } from "../i18n/index";
import { problemText } from "../i18n/problems";
import { initialBody, reduceBody, type BodySlice } from "./body";
import { canSend } from "../slices/connection";
import { chipItems as chipItemsOf, chipText } from "../slices/delegations";
import { initialSession, isRunning, queuedCount, reduceSession, sessionStopped, type SessionSlices } from "../slices/session";
import { NO_OFFERS, offerShown, reduceOffers, withoutOffer, type Offer, type OffersSlice } from "../slices/offers";
import { answerIn, initialTranscript, loadedTranscript, newestPending, reduceTranscript, type TranscriptSlice } from "../slices/transcript";

/** Everything the pet window renders. Only `reduce` (and the user's own
 * actions below) produce a new one. The shared slices: `connection`, `turn`
 * (running turn, queue, reasoning), `delegations` and `transcript`. */
export interface State extends SessionSlices {
  /** The current conversation (for the approval notice), as the chat window folds it. */
  transcript: TranscriptSlice;
  /** The turn whose speech the bubble shows, or null before the first turn. */
  bubbleTurn: string | null;
  /** The speech of `bubbleTurn` so far, pieces joined in order. */
  bubble: string;
  /** One line of trouble to show, or null: the server's or her own words
   * (a turn's error, a failure line) as they came, or a coded notice, shown
   * in the user's language (`errorText`). */
  error: string | CodedProblem | null;
  /** The last cue, for the character to play. */
  cue: Cue | null;
  /** The status pill's tool segment: the last backend tool call (any
   * turn, the backend's own included) or the client's own `browser` run,
   * its state and when it got it (`now` of `reduce`, ms). */
  tool: { id: string; state: ToolState; at: number } | null;
  /** Token usage of the last finished turn, when the backend sent it. */
  usage: Usage | null;
  /** The model's context window, shown beside `usage` (from the chat's usage event). */
  contextWindow: number | null;
  /** True while each turn attaches the screen: the pet shows its eye badge. */
  screenWatched: boolean;
  /** The standing offers to switch a tool switch on (the notice shows the newest; "Turn on" or × takes it down). */
  offers: OffersSlice;
  /** What voice input is doing (the pill shows it). */
  voice: VoiceState;
  /** A turn whose speech a stop cut: its bubble grows no more. Null otherwise. */
  haltedTurn: string | null;
  /** Her posture and the bed scene, with the phase's start on the `now` clock of `reduce`. */
  body: BodySlice;
}

/** A problem the core reported with its code (a `notice`). */
export interface CodedProblem {
  /** What kind of problem. */
  code: ErrorCode;
  /** The core's detail, one line. */
  message: string;
  /** The core's own line as a catalog message, when it wrote one. */
  phrase?: Phrase;
}

/** An approval card shown on the pet. */
export interface Asking {
  /** The approval id to answer. */
  approvalId: string;
  /** The turn (message) it belongs to: its end takes the notice down. */
  msgId: string;
  /** The notice's line. */
  text: string;
}

/** The state before any event arrived. */
export function initialState(): State {
  return {
    ...initialSession(),
    transcript: initialTranscript(),
    bubbleTurn: null,
    bubble: "",
    error: null,
    cue: null,
    tool: null,
    usage: null,
    contextWindow: null,
    screenWatched: false,
    offers: NO_OFFERS,
    voice: { state: "off" },
    haltedTurn: null,
    body: initialBody(),
  };
}

/** How long a done or failed tool stays in the pill (`docs/push-protocol.md`, "Limits": 1.5 s). */
export const TOOL_STATUS_HOLD_MS = 1500;

/** Fold one core event into the state at `now` (ms: the tool segment's hold
 * and the transcript's clocks read it): the shared slices first, then the
 * pet's own fields. */
export function reduce(state: State, event: UiEvent, now = 0): State {
  const slices = reduceSession(state, event);
  const transcript = reduceTranscript(state.transcript, event, now);
  const next = transcript === slices.transcript ? slices : { ...slices, transcript };
  return reducePage(next, event, now);
}

/** The pet's own fields. Exhaustive over `UiEvent["type"]`. */
function reducePage(state: State, event: UiEvent, now: number): State {
  switch (event.type) {
    case "status":
      // A socket that leaves ready clears a running tool (`docs/push-protocol.md`, "tool_status rules").
      return event.status.state === "ready" || state.tool === null ? state : { ...state, tool: null };
    case "turn_started":
      return { ...state, haltedTurn: null, bubbleTurn: event.turn_id, bubble: "", error: null, tool: null };
    case "turn_queued":
      return state;
    case "cue":
      return { ...state, cue: event.cue };
    case "speech":
      if (event.turn_id === state.haltedTurn) return state;
      if (event.turn_id === state.bubbleTurn) {
        return { ...state, bubble: joinSpeech(state.bubble, event.text) };
      }
      return { ...state, bubbleTurn: event.turn_id, bubble: event.text, haltedTurn: null };
    case "speech_done":
      return state;
    case "speech_halted":
      return state.bubbleTurn === null ? state : { ...state, haltedTurn: state.bubbleTurn };
    case "voice_input":
      return { ...state, voice: event.state };
    case "reasoning":
    case "reasoning_full":
    case "delegations":
      return state;
    case "tool_status":
      return { ...state, tool: { id: event.tool_id, state: event.state, at: now } };
    case "turn_ended":
      return {
        ...state,
        // A running tool that got no done is cleared; a done one keeps its hold.
        tool: state.tool?.state === "running" ? null : state.tool,
        usage: event.usage ?? state.usage,
        // A coded notice of this turn already says what went wrong (in the
        // user's language): the turn's own English line does not replace it.
        error: event.error && (state.error === null || typeof state.error === "string") ? oneLine(event.error) : state.error,
      };
    case "failure_line":
      return { ...state, error: oneLine(event.text) };
    case "session_reset":
      return { ...state, bubbleTurn: null, bubble: "", error: null, tool: null, cue: null, haltedTurn: null };
    case "context_sent":
      return state;
    case "character_changed":
      return state;
    case "notice":
      return { ...state, error: { code: event.code, message: oneLine(event.message), phrase: event.phrase } };
    case "screen_watch":
      return { ...state, screenWatched: event.on };
    case "tool_offer": {
      const offers = reduceOffers(state.offers, event);
      return offers === state.offers ? state : { ...state, offers };
    }
    case "images_sent":
      return state;
    case "chat":
      return chatEvent(state, event.event, now);
    case "body":
      return { ...state, body: reduceBody(state.body, event, now) };
    case "drag_by_system":
      // The page hands the hold to the system (main.ts); no state.
      return state;
    case "conversation":
      // The notice follows the transcript (an approval answered elsewhere leaves with the snapshot).
      return state;
    default: {
      const unknown: never = event;
      return unknownEvent(state, unknown);
    }
  }
}

/** The pet's share of the chat events: the client's own `browser` run in
 * the tool segment, a running tool cleared by any turn's end (the backend's
 * own turns end only here), and the usage readout's context window. (The
 * approval cards live in the transcript.) */
function chatEvent(state: State, event: ChatEvent, now: number): State {
  switch (event.type) {
    case "tool_call":
      return event.name === "browser" ? { ...state, tool: { id: "browser", state: "running", at: now } } : state;
    case "tool_result":
      return event.name === "browser" ? { ...state, tool: { id: "browser", state: event.ok ? "done" : "failed", at: now } } : state;
    case "usage":
      if (!event.tokens) return state;
      return { ...state, usage: event.tokens, contextWindow: event.context_window ?? state.contextWindow };
    case "end":
    case "cancelled":
    case "error":
      return state.tool?.state === "running" ? { ...state, tool: null } : state;
    default:
      return state;
  }
}

/** The approval the pet asks about now: the newest card of the current
 * conversation still pending, or null. */
export function asking(state: State): Asking | null {
  const p = newestPending(state.transcript);
  return p ? { approvalId: p.card.approval_id, msgId: p.msgId, text: askText(p.card.name, p.card.args) } : null;
}

/** The pet's line for an approval, in the current language: what she asks to do. */
export function askText(name: string, args: unknown): string {
  const a = (typeof args === "object" && args !== null ? args : {}) as Record<string, unknown>;
  if (name === "look") return t("pet-ask-look");
  if (name === "browser" && a.action === "open" && typeof a.url === "string") return t("pet-ask-open", { url: a.url });
  return t("pet-ask-run", { tool: name });
}

/** The error line's text in the current language, or null when there is none. */
export function errorText(state: State): string | null {
  const e = state.error;
  return e === null || typeof e === "string" ? e : problemText(e);
}

/** The user answered approval `approvalId` on the pet: its card takes the
 * answer at once, so the notice goes down (or shows the next one waiting). */
export function answered(state: State, approvalId: string, decision: ApprovalDecision): State {
  const transcript = answerIn(state.transcript, approvalId, decision);
  return transcript === state.transcript ? state : { ...state, transcript };
}

/** The current conversation whole, as `chat_conversation {id: null}` answered at startup. */
export function conversationLoaded(state: State, current: Conversation | null): State {
  const transcript = loadedTranscript(state.transcript, current);
  return transcript === state.transcript ? state : { ...state, transcript };
}

/**
 * The window shows another character now (the cast moved: *Make main*, or
 * one before her closed): what the old one said and asked goes with her;
 * her conversation loads anew (`conversationLoaded`).
 */
export function anotherCharacter(state: State): State {
  return { ...state, transcript: initialTranscript(), bubbleTurn: null, bubble: "", error: null, tool: null, cue: null, haltedTurn: null, usage: null };
}

/** The user pressed Stop: the core drops the queue too. */
export function stopPressed(state: State): State {
  return sessionStopped(state);
}

/** The tool segment at `now`: a running tool, or a done/failed one for
 * `TOOL_STATUS_HOLD_MS`; null otherwise. */
export function toolSegment(state: State, now: number): string | null {
  const tool = state.tool;
  if (!tool) return null;
  if (tool.state === "running") return t("pet-pill-tool-running", { tool: tool.id });
  if (now - tool.at >= TOOL_STATUS_HOLD_MS) return null;
  return tool.state === "done" ? t("pet-pill-tool-done", { tool: tool.id }) : t("pet-pill-tool-failed", { tool: tool.id });
}

/** The delegations the chip shows at `nowMs` (the shared slice's rule). */
export function chipItems(state: State, nowMs: number): DelegationItem[] {
  return chipItemsOf(state.delegations, nowMs);
}

export { chipText };

/** The usage readout in the current language: "1,234 / 32,768 tokens", or null before any usage. */
export function usageText(state: State): string | null {
  if (!state.usage) return null;
  const used = formatNumber(state.usage.total_tokens);
  return state.contextWindow ? t("pet-usage-of-window", { used, window: formatNumber(state.contextWindow) }) : t("pet-usage-tokens", { used });
}

/** The offer the notice shows at `now` (the newest still standing), or null. */
export function offer(state: State, now: number): Offer | null {
  return offerShown(state.offers, now);
}

/** The user answered the offer for switch `sw` ("Turn on" worked, or ×): take it down. */
export function dismissOffer(state: State, sw: string): State {
  const offers = withoutOffer(state.offers, sw);
  return offers === state.offers ? state : { ...state, offers };
}

/** True while the composer must not take a new message. */
export function composerLocked(state: State): boolean {
  return isRunning(state.turn);
}

/** True from `turn_started` to its `turn_ended`: the bubble shows thinking. */
export function thinking(state: State): boolean {
  return isRunning(state.turn);
}

/** True while the microphone is open (listening, hearing or transcribing). */
export function micOpen(state: State): boolean {
  return state.voice.state === "listening" || state.voice.state === "hearing" || state.voice.state === "transcribing";
}

/** Why the microphone failed, by the core's `kind` (`VoiceState`), in the current language. */
const VOICE_FAILURES: Record<string, (message: string) => string> = {
  no_permission: () => t("pet-voice-no-permission"),
  no_device: () => t("pet-voice-no-device"),
  device_busy: () => t("pet-voice-device-busy"),
  stream: () => t("pet-voice-stream"),
  no_stt: () => t("pet-voice-no-stt"),
  // The core's line is "Could not transcribe: <why>": the why after the first colon.
  stt: (message) => t("pet-voice-stt", { detail: message.includes(": ") ? message.slice(message.indexOf(": ") + 2) : message }),
};

/** The pill's text for voice input, or null when voice input has nothing to say. */
function voiceText(voice: VoiceState): string | null {
  switch (voice.state) {
    case "off":
      return null;
    case "listening":
      return t("pet-voice-listening");
    case "hearing":
      return t("pet-voice-hearing");
    case "transcribing":
      return t("pet-voice-transcribing");
    case "failed":
      // A kind newer than this page: the core's own line.
      return Object.hasOwn(VOICE_FAILURES, voice.kind) ? VOICE_FAILURES[voice.kind](voice.message) : voice.message;
    default: {
      const unknown: never = voice;
      return String(unknown);
    }
  }
}

/** The status pill's text in the current language at `now` (ms, the clock `reduce` got; omitted:
 * every hold has passed). */
export function pillText(state: State, now = Number.POSITIVE_INFINITY): string {
  const voice = voiceText(state.voice);
  // What the user is saying comes first; a mic failure shows until the next voice state.
  if (state.voice.state === "hearing" || state.voice.state === "transcribing" || state.voice.state === "failed") return voice ?? "";
  const tool = toolSegment(state, now);
  if (isRunning(state.turn)) {
    const doing = tool ?? t("pet-pill-thinking");
    const queued = queuedCount(state.turn);
    return queued > 0 ? t("pet-pill-queued", { status: doing, count: queued }) : doing;
  }
  // A backend turn of its own: its tool shows over the connection state.
  if (tool && canSend(state.connection)) return tool;
  const s = state.connection;
  switch (s.state) {
    case "connecting":
    case "handshaking":
      return t("pet-pill-connecting");
    case "ready":
    case "stateless":
      return voice ?? t("pet-pill-ready");
    case "reconnecting":
      return t("pet-pill-reconnecting", { seconds: Math.ceil(s.delay_ms / 1000) });
    case "auth_failed":
      return t("pet-pill-key-refused");
    case "closed":
      return t("pet-pill-offline");
    default: {
      const unknown: never = s;
      return String(unknown);
    }
  }
}

/** The pill's colour class: ok, busy, warn or bad. */
export function pillTone(state: State): "ok" | "busy" | "warn" | "bad" {
  if (state.voice.state === "hearing" || state.voice.state === "transcribing") return "busy";
  if (state.voice.state === "failed") return "warn";
  if (isRunning(state.turn) || state.tool?.state === "running") return "busy";
  switch (state.connection.state) {
    case "ready":
    case "stateless":
      return "ok";
    case "connecting":
    case "handshaking":
    case "reconnecting":
      return "warn";
    default:
      return "bad";
  }
}

/** Append a speech piece: a space between two pieces of spaced script, none otherwise. */
function joinSpeech(prev: string, next: string): string {
  if (prev === "") return next;
  const spaced = /[\x21-\x7e]$/.test(prev) && /^[\x21-\x7e]/.test(next);
  return spaced ? `${prev} ${next}` : prev + next;
}

/** First line only, trimmed: the error area shows one line. */
function oneLine(text: string): string {
  return text.split(/\r?\n/, 1)[0].trim();
}

/** An event type newer than these bindings: keep the state as it is. */
function unknownEvent(state: State, event: never): State {
  console.warn("unknown UiEvent", event);
  return state;
}
