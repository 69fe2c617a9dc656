// The lips on real sound: the shell's lip channel delivers the mouth level
// (~30 a second) while the voice plays; the character's mouth follows it.
// Without the channel the lips follow the text (`lipsync.ts`).

import { asCommandError } from "../shell/shell";
import type { Backend } from "./backend";
import type { Figure } from "./figure";

/** What the lip channel delivered: how many levels, how many opened the mouth, the last one. */
export interface LipLevels {
  count: number;
  loud: number;
  last: number;
}

/** Register the lip channel; the levels it delivered so far (read by the test hook). */
export function wireLips(backend: Backend, figure: Figure): { levels: LipLevels; connect(): Promise<void> } {
  const levels: LipLevels = { count: 0, loud: 0, last: 0 };
  const connect = async () => {
    try {
      await backend.lipChannel((level) => {
        levels.count++;
        if (level > 0.02) levels.loud++;
        levels.last = level;
        figure.host.level(level);
        figure.loop.wake();
      });
    } catch (err) {
      console.warn("yui: lip_channel failed; the lips follow the text", asCommandError(err).message);
    }
  };
  return { levels, connect };
}
