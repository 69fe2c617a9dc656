// The settings window's bed scene fields (in the Character section): start
// asleep on a bed at launch, and after how many minutes she wakes by herself.

import type { BedSettings } from "../bindings";
import { readWhole } from "./reactions";

/** The wake timeout's range, minutes. */
export const WAKE_TIMEOUT_RANGE = { min: 1, max: 480 } as const;

/** The bed settings as the form shows them, over `base` (an out-of-range timeout keeps the loaded one). */
export function bedFromForm(f: { at_launch: boolean; wake_timeout_min: string }, base: BedSettings): BedSettings {
  return {
    ...base,
    at_launch: f.at_launch,
    wake_timeout_min: readWhole(f.wake_timeout_min, base.wake_timeout_min, WAKE_TIMEOUT_RANGE.min, WAKE_TIMEOUT_RANGE.max),
  };
}

/** The form's values for `bed`. */
export function bedToForm(bed: BedSettings): { at_launch: boolean; wake_timeout_min: string } {
  return { at_launch: bed.at_launch, wake_timeout_min: String(bed.wake_timeout_min) };
}
