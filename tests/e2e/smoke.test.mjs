// End-to-end tests of the real app: under Xvfb + xcompmgr, driven through
// tauri-driver and WebKitWebDriver. Build first with tests/e2e/run.sh (it
// builds the UI, the app with custom-protocol and the mock backend).
//
// Each test launches the app on a data directory of its own (YUI_DATA_DIR,
// passed through tauri-driver's environment) and saves a screenshot to
// tests/e2e/artifacts/.

import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { remote } from "webdriverio";
import {
  ARTIFACTS,
  ROOT,
  captureDisplay,
  requireExecutable,
  startCompositor,
  startMock,
  startTauriDriver,
  startXvfb,
  stop,
  stopAll,
  tauriDriverPath,
} from "./harness.mjs";

const APP = path.join(ROOT, "target/debug/yui");
const MOCK = path.join(ROOT, "target/debug/yui-mock");

let display = null;
/** Sessions and data directories still to clean up. */
const open = { browsers: new Set(), dirs: new Set() };

before(async () => {
  // Every binary first, so a missing one fails before anything starts.
  requireExecutable(APP, "build it with `cargo build -p yui --features custom-protocol` (tests/e2e/run.sh does)");
  requireExecutable(MOCK, "build it with `cargo build -p yui-mock` (tests/e2e/run.sh does)");
  tauriDriverPath();
  requireExecutable("WebKitWebDriver", "apt-get install webkit2gtk-driver");
  requireExecutable("Xvfb", "apt-get install xvfb");
  requireExecutable("xcompmgr", "apt-get install xcompmgr");
  // Screenshots and logs of an earlier run would only mislead.
  fs.rmSync(ARTIFACTS, { recursive: true, force: true });
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  display = await startXvfb();
  await startCompositor(display);
});

after(async () => {
  for (const browser of open.browsers) await browser.deleteSession().catch(() => {});
  await stopAll();
  for (const dir of open.dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * Launch the app on a fresh data directory holding `settingsJson` (a string
 * written as settings.json as is; null writes none) and connect to it.
 * Returns `{ browser, close }`; `close` ends the session and its driver.
 */
async function launch(name, settingsJson) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "yui-e2e-"));
  open.dirs.add(dataDir);
  if (settingsJson !== null) fs.writeFileSync(path.join(dataDir, "settings.json"), settingsJson);
  const driver = await startTauriDriver(`tauri-driver-${name}`, { DISPLAY: `:${display}`, YUI_DATA_DIR: dataDir });
  const browser = await remote({
    hostname: "127.0.0.1",
    port: driver.port,
    logLevel: "warn",
    connectionRetryTimeout: 60_000,
    connectionRetryCount: 1,
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
  };
  return { browser, close };
}

/** The page's state through its test hook. */
function pageState(browser) {
  return browser.execute(() => window.__yui.state());
}

/** Wait until the page reports `status.state === "ready"`. */
async function waitReady(browser, timeout = 30_000) {
  await browser.waitUntil(async () => (await pageState(browser)).status.state === "ready", {
    timeout,
    timeoutMsg: "status never reached ready",
  });
}

/** Record every text the bubble shows from now on, in window.__bubbleSeen. */
async function recordBubble(browser) {
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
async function typeAndEnter(browser, text) {
  const input = await browser.$("#composer-input");
  await input.click();
  await input.addValue(text);
  await browser.keys(["Enter"]);
}

/** Save the page and the whole X display once the window painted its last change. */
async function screenshot(t, browser, name) {
  // The DOM can be a frame ahead of the window: let it paint first.
  await browser
    .executeAsync((done) => requestAnimationFrame(() => requestAnimationFrame(() => done())))
    .catch(() => {});
  await browser.pause(500);
  await browser.saveScreenshot(path.join(ARTIFACTS, `${name}.png`)).catch((e) => t.diagnostic(`no page screenshot: ${e.message}`));
  if (!captureDisplay(display, path.join(ARTIFACTS, `${name}-display.png`))) t.diagnostic("no display capture (ImageMagick's import)");
}

test("the pet window loads, connects, and shows the demo's reply", { timeout: 180_000 }, async (t) => {
  const baseUrl = await startMock();
  t.diagnostic(`display :${display}, mock ${baseUrl}`);
  const settings = JSON.stringify({ chat_api: "push", chat_base_url: baseUrl, key: "k" });
  const { browser, close } = await launch("smoke", settings);
  try {
    await waitReady(browser);
    assert.equal(await browser.$("#pill").getText(), "ready");

    // At pace 0 the demo's first turn is followed at once by a background
    // turn whose speech replaces the greeting, so record what the bubble shows.
    const shown = await recordBubble(browser);
    await typeAndEnter(browser, "hello");
    await browser.waitUntil(async () => (await shown()).some((text) => text.includes("Yui")), {
      timeout: 30_000,
      timeoutMsg: "the bubble never showed the demo's greeting",
    });
    await browser.waitUntil(async () => !(await pageState(browser)).thinking, {
      timeout: 30_000,
      timeoutMsg: "the turn never ended",
    });
    const greeting = (await shown()).find((text) => text.includes("Yui"));
    t.diagnostic(`greeting shown: ${greeting}`);
    assert.match(greeting, /^Hi! I'm Yui\./, "the bubble showed the greeting from its first sentence");
    assert.ok((await browser.$("#bubble-text").getText()).length > 0, "the bubble still shows speech");
    const state = await pageState(browser);
    assert.equal(state.error, null, `no error line expected, got ${state.error}`);
    assert.equal(await browser.$("#composer-input").getValue(), "", "the composer is cleared after sending");
    assert.equal(await browser.$("#composer-button").getText(), "Send");
  } finally {
    await screenshot(t, browser, "smoke");
    await close();
  }
});

test("with no backend configured, the embedded demo agent answers", { timeout: 180_000 }, async (t) => {
  const { browser, close } = await launch("demo", null);
  try {
    await waitReady(browser);
    const shown = await recordBubble(browser);
    await typeAndEnter(browser, "hello");
    // The embedded agent runs at human pace: the turn takes a few seconds.
    await browser.waitUntil(async () => (await pageState(browser)).thinking, {
      timeout: 10_000,
      timeoutMsg: "the turn never started",
    });
    assert.equal(await browser.$("#composer-button").getText(), "Stop", "a running turn turns send into stop");
    await browser.waitUntil(async () => (await shown()).some((text) => text.includes("Yui")), {
      timeout: 60_000,
      timeoutMsg: "the embedded demo agent never greeted",
    });
  } finally {
    await screenshot(t, browser, "demo");
    await close();
  }
});

test("a broken settings file keeps the window up and says why", { timeout: 120_000 }, async (t) => {
  const { browser, close } = await launch("bad-settings", "{ not json");
  try {
    const errorLine = () => browser.execute(() => document.getElementById("error").textContent ?? "");
    await browser.waitUntil(async () => (await errorLine()) !== "", {
      timeout: 15_000,
      timeoutMsg: "no error line for a broken settings.json",
    });
    const text = await errorLine();
    t.diagnostic(`error line: ${text}`);
    assert.match(text, /settings\.json/);
    assert.ok(await browser.$("#error").isDisplayed(), "the error line is visible");
    assert.equal(await browser.$("#pill").getText(), "offline");
    assert.ok(await browser.$("#composer-input").isExisting(), "the window stays up");
  } finally {
    await screenshot(t, browser, "bad-settings");
    await close();
  }
});
