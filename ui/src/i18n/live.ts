// The page's language from the shell: read once at load, then switched
// whenever the user picks another (the `language` shell event). Outside
// Tauri (the pages' fakes in a plain browser) `?lang=ja` picks it.

import { inTauri, shell } from "../shell/shell";
import { onShellEvent, shellEvents } from "../shell/window";
import { setLanguage } from "./index";

/**
 * Speak the app's language now and follow the user's later picks. Writes
 * the page's marked text at once (English first, so nothing shows blank
 * while the shell answers).
 */
export async function followLanguage(): Promise<void> {
  const fromQuery = new URLSearchParams(window.location.search).get("lang");
  setLanguage(fromQuery ?? "en");
  if (!inTauri()) return;
  try {
    // A switch announced while the first answer was on its way is newer than it.
    let switches = 0;
    await onShellEvent(shellEvents.language, (payload) => {
      switches += 1;
      setLanguage(payload.language);
    });
    const before = switches;
    const saved = await shell.uiLanguage();
    if (switches === before) setLanguage(saved);
  } catch (err) {
    console.warn("yui: the UI language could not be read; English", err);
  }
}
