// What every end-to-end test file shares: one Xvfb + xcompmgr display, the
// app launched on a fresh data directory through tauri-driver, and helpers
// that read the page through its window.__yui test hook.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before } from "node:test";
import { remote } from "webdriverio";
import {
  ARTIFACTS,
  TARGET,
  captureDisplay,
  requireExecutable,
  startCompositor,
  startTauriDriver,
  startXvfb,
  stop,
  stopAll,
  tauriDriverPath,
} from "./harness.mjs";

export const APP = path.join(TARGET, "debug/yui");
export const MOCK = path.join(TARGET, "debug/yui-mock");

/** The X display number the tests run on (set in `before`). */
export let display = null;
/** Sessions and data directories still to clean up. */
const open = { browsers: new Set(), dirs: new Set() };

/** Register the display setup and the cleanup for the calling test file. */
export function useDisplay() {
before(async () => {
  // Every binary first, so a missing one fails before anything starts.
  requireExecutable(APP, "build it with `cargo build -p yui --features custom-protocol` (tests/e2e/run.sh does)");
  requireExecutable(MOCK, "build it with `cargo build -p yui-mock` (tests/e2e/run.sh does)");
  tauriDriverPath();
  requireExecutable("WebKitWebDriver", "apt-get install webkit2gtk-driver");
  requireExecutable("Xvfb", "apt-get install xvfb");
  requireExecutable("xcompmgr", "apt-get install xcompmgr");
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  display = await startXvfb();
  await startCompositor(display);
});

after(async () => {
  for (const browser of open.browsers) await browser.deleteSession().catch(() => {});
  await stopAll();
  for (const dir of open.dirs) fs.rmSync(dir, { recursive: true, force: true });
});
}

/**
 * Launch the app on a fresh data directory holding `settingsJson` (a string
 * written as settings.json as is; null writes none) and connect to it.
 * Returns `{ browser, close }`; `close` ends the session and its driver.
 */
/**
 * The test's settings with her own initiative off unless the test sets
 * `reactions`, and the welcome finished unless the test sets `welcomed`: no first-activity milestone, schedule, idle cue or screen
 * transition turn starts on its own in the middle of a test, and the Xvfb
 * display's long idle time does not count as the user being away. A
 * settings text that is not JSON (a broken-file test) is written as is.
 */
function quietSettings(settingsJson) {
  const quiet = { schedule: false, idle_cues: false, screen_transitions: false, away_after_min: 120 };
  // The welcome opens by itself only where a test asks for it (`welcomed: false`).
  if (settingsJson === null) return JSON.stringify({ reactions: quiet, welcomed: true });
  try {
    const settings = JSON.parse(settingsJson);
    if (typeof settings !== "object" || settings === null) return settingsJson;
    const welcomed = "welcomed" in settings ? {} : { welcomed: true };
    if ("reactions" in settings) return JSON.stringify({ ...settings, ...welcomed });
    return JSON.stringify({ ...settings, ...welcomed, reactions: quiet });
  } catch {
    return settingsJson;
  }
}

export async function launch(name, settingsJson, { seed, firstStart = false, env = {} } = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "yui-e2e-"));
  open.dirs.add(dataDir);
  // A first start has no settings.json at all (the OS locale picks the language).
  if (!firstStart) fs.writeFileSync(path.join(dataDir, "settings.json"), quietSettings(settingsJson));
  // Files a user's data directory holds from before (e.g. conversations).
  if (seed) seed(dataDir);
  const driver = await startTauriDriver(`tauri-driver-${name}`, { DISPLAY: `:${display}`, YUI_DATA_DIR: dataDir, ...env });
  const browser = await remote({
    hostname: "127.0.0.1",
    port: driver.port,
    logLevel: "warn",
    connectionRetryTimeout: 60_000,
    connectionRetryCount: 2,
    capabilities: {
      "tauri:options": { application: APP },
      "wdio:enforceWebDriverClassic": true,
    },
  });
  open.browsers.add(browser);
  await browser.$("#composer-input").waitForExist({
    timeout: 30_000,
    timeoutMsg: "the composer never appeared: did ui/dist get embedded (custom-protocol)?",
  });
  await browser.waitUntil(() => browser.execute(() => window.__yui !== undefined), {
    timeout: 10_000,
    timeoutMsg: "window.__yui never appeared: the page script did not start",
  });
  const close = async () => {
    open.browsers.delete(browser);
    await browser.deleteSession().catch(() => {});
    await stop(driver.child);
    // The app's own log (its records) stays beside the screenshots.
    const logs = path.join(dataDir, "logs");
    if (fs.existsSync(logs)) fs.cpSync(logs, path.join(ARTIFACTS, `${name}-logs`), { recursive: true, force: true });
  };
  return { browser, close, dataDir };
}

/** The page's state through its test hook. */
export function pageState(browser) {
  return browser.execute(() => window.__yui.state());
}

/** Wait until the page reports `status.state === "ready"`. */
export async function waitReady(browser, timeout = 30_000) {
  await browser.waitUntil(async () => (await pageState(browser)).status.state === "ready", {
    timeout,
    timeoutMsg: "status never reached ready",
  });
}

/** Record every text the bubble shows from now on, in window.__bubbleSeen. */
export async function recordBubble(browser) {
  await browser.execute(() => {
    const el = document.getElementById("bubble-text");
    const seen = (window.__bubbleSeen = []);
    new MutationObserver(() => seen.push(el.textContent ?? "")).observe(el, {
      childList: true,
      characterData: true,
      subtree: true,
    });
  });
  return () => browser.execute(() => window.__bubbleSeen);
}

/** Type `text` into the composer and press Enter, as a person would. */
export async function typeAndEnter(browser, text) {
  const input = await browser.$("#composer-input");
  await input.click();
  await input.addValue(text);
  await browser.keys(["Enter"]);
}

/** Save the page and the whole X display once the window painted its last change. */
export async function screenshot(t, browser, name) {
  // The DOM can be a frame ahead of the window: let it paint first.
  await browser
    .executeAsync((done) => requestAnimationFrame(() => requestAnimationFrame(() => done())))
    .catch(() => {});
  await browser.pause(500);
  await browser.saveScreenshot(path.join(ARTIFACTS, `${name}.png`)).catch((e) => t.diagnostic(`no page screenshot: ${e.message}`));
  if (!captureDisplay(display, path.join(ARTIFACTS, `${name}-display.png`))) t.diagnostic("no display capture (ImageMagick's import)");
}


/** The text content of element `id` (also when WebDriver would call it not displayed). */
export function textOf(browser, id) {
  return browser.execute((i) => document.getElementById(i)?.textContent ?? "", id);
}
