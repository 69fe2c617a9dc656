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
    await onShellEvent(shellEvents.language, (payload) => setLanguage(payload.language));
    setLanguage(await shell.uiLanguage());
  } catch (err) {
    console.warn("yui: the UI language could not be read; English", err);
  }
}
