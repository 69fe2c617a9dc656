// End-to-end tests of the real app: under Xvfb + xcompmgr, driven through
// tauri-driver and WebKitWebDriver. Build first with tests/e2e/run.sh (it
// builds the UI, the app with custom-protocol and the mock backend).
//
// Each test launches the app on a data directory of its own (YUI_DATA_DIR,
// passed through tauri-driver's environment) and saves a screenshot to
// tests/e2e/artifacts/.

import assert from "node:assert/strict";
import { test } from "node:test";
import { startMock } from "./harness.mjs";
import { display, launch, pageState, recordBubble, screenshot, textOf, typeAndEnter, useDisplay, waitReady } from "./app.mjs";

useDisplay();

test("the pet window loads, connects, and shows the demo's reply", { timeout: 180_000 }, async (t) => {
  const baseUrl = await startMock();
  t.diagnostic(`display :${display}, mock ${baseUrl}`);
  const settings = JSON.stringify({ chat_api: "push", chat_base_url: baseUrl, key: "k" });
  const { browser, close } = await launch("smoke", settings);
  try {
    await waitReady(browser);
    assert.equal(await textOf(browser, "pill"), "ready");

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
    assert.ok((await textOf(browser, "bubble-text")).length > 0, "the bubble still shows speech");
    const state = await pageState(browser);
    assert.equal(state.error, null, `no error line expected, got ${state.error}`);
    assert.equal(await browser.$("#composer-input").getValue(), "", "the composer is cleared after sending");
    assert.equal(await textOf(browser, "composer-button"), "Send");
  } finally {
    await screenshot(t, browser, "smoke");
    await close();
  }
});

test("with no backend configured, the embedded demo agent answers", { timeout: 180_000 }, async (t) => {
  const { browser, close } = await launch("demo", null);
  try {
    await waitReady(browser);
    // A first start puts her on the floor: the strip under her feet hangs
    // below the screen, and her controls are lifted by it from the start.
    const composerBottom = () =>
      browser.execute(() => {
        const r = document.getElementById("composer-input").getBoundingClientRect();
        return { bottom: window.screenY + r.bottom, screen: window.screen.height, windowBottom: window.screenY + window.innerHeight };
      });
    await browser.waitUntil(async () => {
      const at = await composerBottom();
      return at.windowBottom > at.screen && at.bottom <= at.screen;
    }, { timeout: 10_000, timeoutMsg: "the composer is cut off at the screen's bottom on a first start" }).catch(async (e) => {
      t.diagnostic(`composer: ${JSON.stringify(await composerBottom())}`);
      throw e;
    });
    const shown = await recordBubble(browser);
    await typeAndEnter(browser, "hello");
    // The embedded agent runs at human pace: the turn takes a few seconds.
    await browser.waitUntil(async () => (await pageState(browser)).thinking, {
      timeout: 10_000,
      timeoutMsg: "the turn never started",
    });
    assert.equal(await textOf(browser, "composer-button"), "Stop", "a running turn turns send into stop");
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
    assert.equal(await textOf(browser, "pill"), "offline");
    assert.ok(await browser.$("#composer-input").isExisting(), "the window stays up");
  } finally {
    await screenshot(t, browser, "bad-settings");
    await close();
  }
});
