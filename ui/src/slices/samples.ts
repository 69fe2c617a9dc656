// One sample of every core event, for the slices' tests: a `Record` over
// `UiEvent["type"]`, so a new event type fails to compile until it has one.

import type { ChatEvent, UiEvent } from "../bindings/index";

/** A `chat` event wrapping `event`. */
export function chat(event: ChatEvent): UiEvent {
  return { type: "chat", event };
}

/** One sample event of each type. */
export const SAMPLES: { [K in UiEvent["type"]]: Extract<UiEvent, { type: K }> } = {
  drag_by_system: { type: "drag_by_system" },
  body: { type: "body", posture: "lying", bed: { entry: "command", phase: "asleep", phase_ms: 0 } },
  status: { type: "status", status: { state: "ready" } },
  turn_started: { type: "turn_started", turn_id: "t9", text: "hi" },
  turn_queued: { type: "turn_queued", text: "later", queued: 1 },
  cue: { type: "cue", turn_id: "t1", cue: { emotion_id: "happy" } },
  speech: { type: "speech", turn_id: "t1", text: "Hello." },
  speech_done: { type: "speech_done", turn_id: "t1", text: "Hello." },
  speech_halted: { type: "speech_halted" },
  voice_input: { type: "voice_input", state: { state: "listening" } },
  reasoning: { type: "reasoning", turn_id: "t1", delta: "hmm" },
  reasoning_full: { type: "reasoning_full", turn_id: "t1", text: "hmm, well" },
  tool_status: { type: "tool_status", turn_id: "t1", state: "running", tool_id: "clock" },
  delegations: { type: "delegations", items: [{ id: "d1", title: "Task", started_at: 1, state: "running" }] },
  turn_ended: { type: "turn_ended", turn_id: "t1", outcome: "complete" },
  failure_line: { type: "failure_line", turn_id: "t1", text: "Sorry." },
  session_reset: { type: "session_reset" },
  context_sent: { type: "context_sent", turn_id: "t1", transport: "push", block: "<client_context/>" },
  character_changed: { type: "character_changed", motions: [] },
  screen_watch: { type: "screen_watch", on: true },
  tool_offer: { type: "tool_offer", switch: "look.screen", until_ms: 300_000 },
  images_sent: { type: "images_sent", turn_id: "t1", images: [] },
  chat: { type: "chat", event: { type: "delta", msg_id: "t1", text: "Hi" } },
  conversation: { type: "conversation", conversation: { id: "c2", title: "New chat", created_ms: 0, updated_ms: 0, messages: [], more_before: false, more_after: false } },
  notice: { type: "notice", code: "network", message: "lost it" },
};

/** Every sample except those of `types`. */
export function samplesExcept(...types: UiEvent["type"][]): UiEvent[] {
  return (Object.keys(SAMPLES) as UiEvent["type"][]).filter((t) => !types.includes(t)).map((t) => SAMPLES[t]);
}
