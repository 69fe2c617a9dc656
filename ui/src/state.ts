// What the pet window shows, and the one function that folds core events into it.
// Pure: no DOM, no Tauri, so vitest runs it as is.

import type { Cue, DelegationItem, Status, ToolState, UiEvent, Usage, VoiceState } from "./bindings/index";

/** Everything the pet window renders. Only `reduce` produces a new one. */
export interface State {
  /** The connection state, as the core last reported it. */
  status: Status;
  /** True from `turn_started` to `turn_ended`: show thinking, lock the composer. */
  thinking: boolean;
  /** The turn whose speech the bubble shows, or null before the first turn. */
  bubbleTurn: string | null;
  /** The speech of `bubbleTurn` so far, pieces joined in order. */
  bubble: string;
  /** One line of trouble to show (turn error, failure line, notice), or null. */
  error: string | null;
  /** Messages waiting behind the running turn, as the core last counted. */
  queued: number;
  /** The last cue, for the character to play. */
  cue: Cue | null;
  /** The running turn's reasoning so far. */
  reasoning: string;
  /** The last backend tool call and its state. */
  tool: { id: string; state: ToolState } | null;
  /** The backend's delegations list. */
  delegations: DelegationItem[];
  /** Token usage of the last finished turn, when the backend sent it. */
  usage: Usage | null;
  /** True while each turn attaches the screen: the pet shows its eye badge. */
  screenWatched: boolean;
  /** True while the "she asked to see your screen" notice is up (until Allow or ×). */
  screenAsked: boolean;
  /** What voice input is doing (the pill shows it). */
  voice: VoiceState;
  /** A turn whose speech a stop cut: its bubble grows no more. Null otherwise. */
  haltedTurn: string | null;
}

/** The state before any event arrived. */
export function initialState(): State {
  return {
    status: { state: "connecting", attempt: 0 },
    thinking: false,
    bubbleTurn: null,
    bubble: "",
    error: null,
    queued: 0,
    cue: null,
    reasoning: "",
    tool: null,
    delegations: [],
    usage: null,
    screenWatched: false,
    screenAsked: false,
    voice: { state: "off" },
    haltedTurn: null,
  };
}

/** Fold one core event into the state. Exhaustive over `UiEvent["type"]`. */
export function reduce(state: State, event: UiEvent): State {
  switch (event.type) {
    case "status":
      // A socket that leaves ready clears a running tool (the seed's tool_status rules).
      return { ...state, status: event.status, tool: event.status.state === "ready" ? state.tool : null };
    case "turn_started":
      return {
        ...state,
        thinking: true,
        haltedTurn: null,
        bubbleTurn: event.turn_id,
        bubble: "",
        error: null,
        reasoning: "",
        tool: null,
        queued: Math.max(0, state.queued - 1),
      };
    case "turn_queued":
      return { ...state, queued: event.queued };
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
      return { ...state, reasoning: state.reasoning + event.delta };
    case "reasoning_full":
      return { ...state, reasoning: event.text };
    case "tool_status":
      return { ...state, tool: { id: event.tool_id, state: event.state } };
    case "delegations":
      return { ...state, delegations: event.items };
    case "turn_ended":
      return {
        ...state,
        thinking: false,
        tool: null,
        usage: event.usage ?? state.usage,
        error: event.error ? oneLine(event.error) : state.error,
      };
    case "failure_line":
      return { ...state, error: oneLine(event.text) };
    case "session_reset":
      return { ...state, bubbleTurn: null, bubble: "", error: null, reasoning: "", tool: null, cue: null, haltedTurn: null };
    case "context_sent":
      return state;
    case "character_changed":
      return state;
    case "notice":
      return { ...state, error: oneLine(event.message) };
    case "screen_watch":
      return { ...state, screenWatched: event.on };
    case "screen_request_refused":
      return { ...state, screenAsked: true };
    case "images_sent":
      return state;
    case "chat":
    case "conversation":
      // The chat window's transcript slice folds these (chat/transcript.ts).
      return state;
    default: {
      const unknown: never = event;
      return unknownEvent(state, unknown);
    }
  }
}

/** The user answered the screen notice (Allow worked, or ×): take it down. */
export function dismissScreenNotice(state: State): State {
  return state.screenAsked ? { ...state, screenAsked: false } : state;
}

/** True while the composer must not take a new message. */
export function composerLocked(state: State): boolean {
  return state.thinking;
}

/** True while the microphone is open (listening, hearing or transcribing). */
export function micOpen(state: State): boolean {
  return state.voice.state === "listening" || state.voice.state === "hearing" || state.voice.state === "transcribing";
}

/** The pill's text for voice input, or null when voice input has nothing to say. */
function voiceText(voice: VoiceState): string | null {
  switch (voice.state) {
    case "off":
      return null;
    case "listening":
      return "listening";
    case "hearing":
      return "hearing you…";
    case "transcribing":
      return "transcribing…";
    case "failed":
      return voice.message;
    default: {
      const unknown: never = voice;
      return String(unknown);
    }
  }
}

/** The status pill's text. */
export function pillText(state: State): string {
  const voice = voiceText(state.voice);
  // What the user is saying comes first; a mic failure shows until the next voice state.
  if (state.voice.state === "hearing" || state.voice.state === "transcribing" || state.voice.state === "failed") return voice ?? "";
  if (state.thinking) {
    const doing = state.tool?.state === "running" ? `running ${state.tool.id}` : "thinking…";
    return state.queued > 0 ? `${doing} (+${state.queued})` : doing;
  }
  const s = state.status;
  switch (s.state) {
    case "connecting":
    case "handshaking":
      return "connecting…";
    case "ready":
    case "stateless":
      return voice ?? "ready";
    case "reconnecting":
      return `reconnecting in ${Math.ceil(s.delay_ms / 1000)}s`;
    case "auth_failed":
      return "key refused";
    case "closed":
      return "offline";
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
  if (state.thinking) return "busy";
  switch (state.status.state) {
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
