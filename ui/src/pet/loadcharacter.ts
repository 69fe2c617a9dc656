// Loading her: the user's .vrm (the bundled one when there is none or it
// fails), the user's .vrma clips, and telling the core the emotions and
// motions the loaded character has.

import { t } from "../i18n/index";
import { asCommandError } from "../shell/shell";
import { bodyInterrupted } from "./actions";
import { BUNDLED_CHARACTER, type Backend } from "./backend";
import type { CharacterSource } from "./character/host";
import { fetchBytes } from "./character/loader";
import type { Figure } from "./figure";
import type { PetStore } from "./store";
import type { View } from "./view";

/** The character's bytes: the user's .vrm, or the bundled one when there is none. */
export function characterSource(backend: Backend, bundledOnly: boolean): CharacterSource {
  return {
    async character() {
      if (!bundledOnly) {
        try {
          const bytes = await backend.characterFile();
          if (bytes.byteLength > 0) return bytes;
        } catch (err) {
          console.warn("yui: character_file failed; using the bundled character", err);
        }
      }
      return fetchBytes(BUNDLED_CHARACTER);
    },
    motion: (id) => backend.motionFile(id),
  };
}

/** Loads the character (again) with the user's clips `userMotions`. */
export class CharacterLoader {
  constructor(
    private readonly backend: Backend,
    private readonly figure: Figure,
    private readonly store: PetStore,
    private readonly view: View,
  ) {}

  /** Load the user's character, the bundled one when it fails, and send the core its vocabulary. */
  async load(userMotions: string[]): Promise<void> {
    const { host, loop } = this.figure;
    let loaded;
    try {
      loaded = await host.load(characterSource(this.backend, false), userMotions);
    } catch (err) {
      const detail = String(err);
      this.view.showLocalError(() => t("pet-character-failed", { detail }));
      if (this.store.state.body.bed) bodyInterrupted(this.backend, "character_failed");
      loaded = await host.load(characterSource(this.backend, true), userMotions);
    }
    loop.wake();
    if (!loaded) return;
    await this.backend
      .send({
        type: "set_vocabulary",
        vocabulary: { emotion_ids: loaded.emotionIds, motion_ids: loaded.motionIds, emotion_text_mode: "free", emotion_text_map: {} },
      })
      .catch((err) => console.warn("yui: set_vocabulary failed", asCommandError(err).message));
  }

  /** `load` in the background; a failure of the bundled one too goes to the console. */
  reload(motions: string[]): void {
    void this.load(motions).catch((err) => console.error("yui: could not load any character", err));
  }
}
