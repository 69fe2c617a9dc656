// What the character does in answer to the core's events: the thinking pose
// while a turn waits for its first render, the cue's emotion and motion, lips
// moving while speech is said (stopping when the sound ends or is cut), and the return to neutral after a reply.
// Pure timing logic: the clock comes in as ms, the body is a `Performer`.

import type { UiEvent } from "../bindings/index";
import { speechDurationMs } from "./lipsync";

/** How long after the last speech ends the face and body go back to neutral/idle. */
export const RELAX_DELAY_MS = 4000;

/** The body the director drives; the avatar implements it. */
export interface Performer {
  /** Blend the thinking pose in (true) or out (false). */
  setThinking(on: boolean): void;
  /** Show the cue's emotion id (the performer resolves it against the model). */
  setEmotion(id: string): void;
  /** Play the cue's motion id (the performer resolves it; missing → idle). */
  playMotion(id: string): void;
  /** Move the lips to `text`, after whatever is still being said. */
  speak(text: string): void;
  /** Back to the neutral expression and the idle motion; stop talking if `hush`. */
  relax(hush: boolean): void;
  /** The sound stopped: a sentence ended (`halted` false), or a stop cut it (true: close the mouth now). */
  soundStopped(halted: boolean): void;
}

/** The character's side of the conversation, fed events and clock ticks. */
export class Director {
  /** The turn whose first speech or cue ends the thinking pose, or null. */
  private awaiting: string | null = null;
  /** True while a turn runs (turn_started → turn_ended). */
  private running = false;
  /** The running turn gave the character something (a speech or a cue). */
  private output = false;
  /** When the queued speech will have been said. */
  private speechEnd = 0;
  /** When to relax, or null. */
  private relaxAt: number | null = null;

  /** Drive `performer`. */
  constructor(private readonly performer: Performer) {}

  /** True while the thinking pose should show. */
  get thinking(): boolean {
    return this.awaiting !== null;
  }

  /** When the character will relax, or null when nothing is pending. */
  get relaxDue(): number | null {
    return this.relaxAt;
  }

  /** React to one core event at `nowMs`. */
  onEvent(event: UiEvent, nowMs: number): void {
    switch (event.type) {
      case "turn_started":
        this.running = true;
        this.output = false;
        this.relaxAt = null;
        this.setAwaiting(event.turn_id);
        return;
      case "cue":
        this.firstRender(event.turn_id, nowMs);
        if (event.cue.emotion_id) this.performer.setEmotion(event.cue.emotion_id);
        if (event.cue.motion_id) this.performer.playMotion(event.cue.motion_id);
        return;
      case "speech":
        this.firstRender(event.turn_id, nowMs);
        if (event.text.trim() === "") return;
        this.performer.speak(event.text);
        this.speechEnd = Math.max(nowMs, this.speechEnd) + speechDurationMs(event.text);
        if (!this.running) this.armRelax(nowMs);
        return;
      case "speech_done":
        this.performer.soundStopped(false);
        return;
      case "speech_halted":
        // Cut: the mouth closes now, and the relax waits for no more speech.
        this.speechEnd = nowMs;
        this.performer.soundStopped(true);
        if (this.relaxAt !== null) this.armRelax(nowMs);
        return;
      case "failure_line":
        if (event.turn_id === this.awaiting) this.setAwaiting(null);
        return;
      case "turn_ended":
        this.running = false;
        this.setAwaiting(null);
        if (this.output) this.armRelax(nowMs);
        return;
      case "session_reset":
        this.running = false;
        this.output = false;
        this.relaxAt = null;
        this.speechEnd = nowMs;
        this.setAwaiting(null);
        this.performer.relax(true);
        return;
      default:
        return;
    }
  }

  /** Advance the clock: relax when due. */
  tick(nowMs: number): void {
    if (this.relaxAt !== null && nowMs >= this.relaxAt) {
      this.relaxAt = null;
      this.performer.relax(false);
    }
  }

  /** A speech or cue arrived: the turn rendered, thinking ends. */
  private firstRender(turnId: string, nowMs: number): void {
    this.output = true;
    if (turnId === this.awaiting) this.setAwaiting(null);
    if (!this.running) this.armRelax(nowMs);
  }

  /** Relax a while after the last speech ends. */
  private armRelax(nowMs: number): void {
    this.relaxAt = Math.max(nowMs, this.speechEnd) + RELAX_DELAY_MS;
  }

  /** Change which turn is awaited, telling the performer when thinking flips. */
  private setAwaiting(turnId: string | null): void {
    const was = this.awaiting !== null;
    this.awaiting = turnId;
    if (was !== (turnId !== null)) this.performer.setThinking(turnId !== null);
  }
}
