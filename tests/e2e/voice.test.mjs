// The voice end to end: the real app speaks a reply with the system voice
// (espeak-ng) into the private sound server run.sh starts, the sound's mouth
// levels come down the lip channel, and the character's mouth follows them;
// pressing stop cuts the sound and closes the mouth at once.

import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import { startMock } from "./harness.mjs";
import { launch, pageState, screenshot, typeAndEnter, useDisplay, waitReady } from "./app.mjs";

useDisplay();

/** A mouth this open is talking, not resting. */
const OPEN = 0.2;
/** A mouth this open is closed. */
const CLOSED = 0.02;

/** How far the mouth is open now, and how many lip levels have arrived. */
const mouth = (browser) =>
  browser.execute(() => {
    const l = window.__yui.lipLevels();
    return { open: window.__yui.mouthOpen(), levels: l.count, loud: l.loud, last: l.last };
  });

test("the mouth opens while a sentence plays and closes after stop", { timeout: 240_000 }, async (t) => {
  if (!process.env.PULSE_SERVER) t.diagnostic("no PULSE_SERVER: run through tests/e2e/run.sh for a private sound server");
  const baseUrl = await startMock(path.join(import.meta.dirname, "scenarios/speak_long.json"));
  const settings = JSON.stringify({ chat_api: "push", chat_base_url: baseUrl, key: "k" });
  const { browser, close: quit } = await launch("voice", settings);
  try {
    await waitReady(browser);
    await browser.waitUntil(() => browser.execute(() => window.__yui.ready()), {
      timeout: 60_000,
      timeoutMsg: "the character never finished loading and rendering",
    });
    assert.equal((await mouth(browser)).open, 0, "the mouth rests closed");

    await typeAndEnter(browser, "tell me a long story");
    await browser.waitUntil(async () => (await pageState(browser)).bubble.includes("clockmaker"), {
      timeout: 30_000,
      timeoutMsg: "the first sentence never started playing",
    });
    // Real sound: levels arrive and the mouth opens past the threshold.
    let widest = 0;
    await browser.waitUntil(
      async () => {
        const m = await mouth(browser);
        widest = Math.max(widest, m.open);
        return m.levels > 0 && m.open > OPEN;
      },
      { timeout: 20_000, interval: 20, timeoutMsg: "the mouth never opened to the sound" },
    );
    // The levels keep coming (about 30 a second) while the sentence plays.
    await browser.waitUntil(async () => (await mouth(browser)).levels >= 10, {
      timeout: 2_000,
      timeoutMsg: "the lip channel stopped delivering levels",
    });
    const during = await mouth(browser);
    t.diagnostic(`while playing: mouth ${during.open.toFixed(2)}, widest ${widest.toFixed(2)}, ${during.levels} levels`);
    await screenshot(t, browser, "voice-talking");

    // Stop while she talks: the mouth closes within a moment and stays closed.
    const button = await browser.$("#composer-button");
    assert.equal(await button.getAttribute("data-kind"), "stop", "the turn still runs: the button stops it");
    const stoppedAt = Date.now();
    await button.click();
    await browser.waitUntil(async () => (await mouth(browser)).open <= CLOSED, {
      timeout: 1_000,
      interval: 20,
      timeoutMsg: "the mouth did not close within a second of stop",
    });
    t.diagnostic(`closed ${Date.now() - stoppedAt} ms after the click (WebDriver round trips included)`);
    const bubbleAtStop = (await pageState(browser)).bubble;
    const atStop = await mouth(browser);
    const until = Date.now() + 2_000;
    while (Date.now() < until) {
      const m = await mouth(browser);
      assert.ok(m.open <= CLOSED, `the mouth stays closed after stop (open ${m.open} with ${m.levels} levels)`);
      await browser.pause(50);
    }
    const state = await pageState(browser);
    assert.equal(state.bubble, bubbleAtStop, "the bubble grew no more after stop");
    assert.ok(state.haltedTurn !== null, "the page saw speech_halted");
    const end = await mouth(browser);
    t.diagnostic(`levels after stop: ${end.levels - atStop.levels} more, ${end.loud - atStop.loud} of them loud, the last ${end.last}`);
    assert.equal(end.loud, atStop.loud, "no sound reached the lips after stop");
  } finally {
    await screenshot(t, browser, "voice");
    await quit();
  }
});
