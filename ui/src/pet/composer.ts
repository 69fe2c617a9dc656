// Where the composer is: tucked away while she sits, peeks, is held or moves,
// unless it is in use or the pointer is in the window (`tuck.ts` decides).
// Focus changes and the cursor channel ask again.

import type { PetStore } from "./store";
import { composerTucked } from "./tuck";
import type { View } from "./view";

/** Tucks the composer away or shows it. */
export class ComposerTuck {
  /** The pointer is inside the pet window (the cursor channel says so, even through click-through). */
  private pointerInside = false;

  constructor(
    private readonly view: View,
    private readonly store: PetStore,
  ) {
    document.addEventListener("focusin", () => this.tuck());
    document.addEventListener("focusout", () => this.tuck());
  }

  /** Tuck or show the composer for the state now. */
  tuck(): void {
    const body = this.store.state.body;
    this.view.setTucked(composerTucked({ posture: body.posture, moving: body.gait !== null, pointerInside: this.pointerInside, focused: this.view.composerInUse(), hasText: false }));
  }

  /** The pointer entered (true) or left the window; asks again when that changed. */
  pointerAt(inside: boolean): void {
    if (inside === this.pointerInside) return;
    this.pointerInside = inside;
    this.tuck();
  }
}
