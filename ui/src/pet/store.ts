// The pet page's state, and what a change of it shows: the one place the page
// state is replaced. A change renders the view, lifts the character, tucks or
// shows the composer, lays the page out again when the offer notice or the row
// under the pill comes or goes, and keeps the timers that take a lapsed offer
// notice and a finished tool's status down.

import { asking, initialState, offer, TOOL_STATUS_HOLD_MS, type State } from "./state";
import type { View } from "./view";

/** What a change of state drives; read when a change happens (the page wires them after the store). */
export interface StoreDeps {
  /** The page's controls. */
  view(): Pick<View, "render" | "setLift" | "pillBottom">;
  /** Tuck or show the composer (`composer.ts`). */
  tuck(): void;
  /** Lay the character and the bubble out again (`layout.ts`). */
  layout(): void;
}

/** The page state and its timers. */
export class PetStore {
  /** The state the page shows now. */
  state: State = initialState();
  /** The tool status hold's timer. */
  private holdTimer: number | undefined;
  /** The switch the offer notice shows, and the timer that takes it down when it lapses. */
  private offerShown: string | null = null;
  private offerTimer: number | undefined;

  constructor(private readonly deps: StoreDeps) {}

  /** Show `next`; the character makes room when the offer notice or the row under the pill comes or goes. */
  set(next: State): void {
    const view = this.deps.view();
    const before = view.pillBottom();
    const shownNow = offer(next, Date.now());
    const noticeChanged = (shownNow?.switch ?? null) !== this.offerShown || (asking(next) === null) !== (asking(this.state) === null);
    this.offerShown = shownNow?.switch ?? null;
    window.clearTimeout(this.offerTimer);
    if (shownNow) this.offerTimer = window.setTimeout(() => this.set(this.state), Math.max(0, shownNow.until - Date.now()) + 20);
    this.state = next;
    view.render(this.state, Date.now());
    view.setLift(this.state.body.below);
    this.deps.tuck();
    if (noticeChanged || view.pillBottom() !== before) this.deps.layout();
    // A done or failed tool leaves the pill when its hold passes.
    window.clearTimeout(this.holdTimer);
    const tool = this.state.tool;
    if (tool && tool.state !== "running") {
      this.holdTimer = window.setTimeout(() => this.render(), Math.max(0, tool.at + TOOL_STATUS_HOLD_MS - Date.now()) + 20);
    }
  }

  /** Render the state again as it is (a hold or a chip's age passed). */
  render(): void {
    this.deps.view().render(this.state, Date.now());
  }

  /** Render every 30 seconds: a done delegation leaves the chip 30 minutes after it ended. */
  refreshChips(): void {
    window.setInterval(() => this.render(), 30_000);
  }
}
