// The core's events into the page: each one is folded into the state, handed
// to the director (cues, speech, thinking), and may ask the shell for a
// system drag, reload the character or end a bed scene the page cannot keep.
// It remembers which facts already came as events, so the first-load reads
// (`catchup.ts`) do not overwrite newer ones, and the last cue for the test hook.

import type { UiEvent } from "../bindings/index";
import { bodyInterrupted } from "./actions";
import type { Backend } from "./backend";
import type { Figure } from "./figure";
import type { CharacterLoader } from "./loadcharacter";
import { reduce } from "./state";
import type { PetStore } from "./store";
import type { LastCue } from "./testhook";
import type { Holding } from "./touchinput";

/** Applies the core's events to the page. */
export class Feed {
  /** A `status` event came (the first-load status read is older). */
  sawStatus = false;
  /** A `screen_watch` event came. */
  sawScreenWatch = false;
  /** A `body` event came. */
  sawBody = false;
  /** The last cue and what the character made of it. */
  lastCue: LastCue | null = null;

  constructor(
    private readonly backend: Backend,
    private readonly store: PetStore,
    private readonly figure: Figure,
    private readonly holding: Holding,
    private readonly loader: CharacterLoader,
  ) {}

  /** Apply one event (the subscription's handler: bound). */
  readonly apply = (event: UiEvent): void => {
    const { host, director, loop } = this.figure;
    // The core cannot place the window here: the system moves it while the button is held.
    if (event.type === "drag_by_system" && this.holding.dragging()) this.backend.startDragging().catch((err) => console.warn("yui: startDragging failed", err));
    if (event.type === "status") this.sawStatus = true;
    if (event.type === "screen_watch") this.sawScreenWatch = true;
    if (event.type === "body") {
      this.sawBody = true;
      // No WebGL: the bed scene cannot be drawn.
      if (event.bed && !host.stage) bodyInterrupted(this.backend, "no_webgl");
    }
    this.store.set(reduce(this.store.state, event, Date.now()));
    director.onEvent(event, performance.now());
    if (event.type === "cue") {
      const r = host.lastResolved();
      this.lastCue = { cue: event.cue, expression: event.cue.emotion_id ? r.emotion : null, motion: event.cue.motion_id ? r.motion : null };
    }
    if (event.type === "character_changed") {
      // The bed scene is posed for the old model: let the core end it.
      if (this.store.state.body.bed) bodyInterrupted(this.backend, "character_changed");
      this.loader.reload(event.motions);
    }
    // A fresh frame; what the event sets moving (a cue, speech, the bed) keeps her awake through the frame's report.
    loop.refresh();
  };
}
