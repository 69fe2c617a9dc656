// The chat window on a 10,000-message conversation, in the real app: the
// conversation comes from the JSON files of the store before the history
// database (imported on the first start), the window opens at the newest
// message with only a window of rows, scrolling up loads older pages without
// moving what is on screen, and a search finds a message thousands back and
// opens it, highlighted, read-only, with its neighbours.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { startMock } from "./harness.mjs";
import { launch, screenshot, useDisplay, waitReady } from "./app.mjs";

useDisplay();

const EXCHANGES = 5_000;
/** The exchange whose question holds the word the search looks for. */
const NEEDLE_AT = 321;

/** A conversation of `EXCHANGES` exchanges as the old store wrote it. */
function longConversation() {
  const t0 = Date.now() - EXCHANGES * 60_000;
  const messages = [];
  for (let k = 0; k < EXCHANGES; k++) {
    const at = t0 + k * 60_000;
    const question = k === NEEDLE_AT ? `question ${k}: tell me about the lighthouse keeper` : `question ${k}`;
    messages.push({ id: `ut${k}`, role: "user", at_ms: at, text: question, answers: [], active: 0 });
    messages.push({
      id: `t${k}`, role: "assistant", at_ms: at + 1, text: "", active: 0,
      answers: [{ run_id: `r${k}`, state: "done", started_ms: at + 1, text: `answer ${k}`, reasoning: "", tools: [], approvals: [] }],
    });
  }
  return { id: "c1", title: "question 0", created_ms: t0, updated_ms: t0 + EXCHANGES * 60_000, messages };
}

function rows(browser) {
  return browser.execute(() => [...document.querySelectorAll(".msg")].map((m) => ({ id: m.dataset.msgId, text: m.textContent ?? "" })));
}

test("a 10,000-message conversation opens at its newest message, scrolls back and searches", { timeout: 240_000 }, async (t) => {
  const baseUrl = await startMock();
  const settings = JSON.stringify({ chat_api: "push", chat_base_url: baseUrl, key: "k" });
  const seed = (dataDir) => {
    const dir = path.join(dataDir, "chats", "default");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "c1.json"), JSON.stringify(longConversation()));
    fs.writeFileSync(path.join(dir, "current"), "c1");
  };
  const { browser, close } = await launch("chat-long", settings, { seed });
  try {
    await waitReady(browser);
    const pet = await browser.getWindowHandle();
    await (await browser.$("#chat-button")).click();
    await browser.waitUntil(async () => (await browser.getWindowHandles()).length >= 2, { timeout: 15_000, timeoutMsg: "no chat window" });
    await browser.switchToWindow((await browser.getWindowHandles()).find((h) => h !== pet));
    await browser.waitUntil(async () => (await rows(browser)).length > 0, { timeout: 20_000, timeoutMsg: "the conversation never showed" });

    // The newest message, at the bottom, and only a window of rows.
    let shown = await rows(browser);
    assert.equal(shown.at(-1).id, `t${EXCHANGES - 1}`);
    assert.ok(shown.length <= 200, `${shown.length} rows for a window`);
    assert.ok(shown[0].id !== "ut0");
    const atBottom = await browser.execute(() => {
      const s = document.getElementById("transcript");
      return s.scrollHeight - s.scrollTop - s.clientHeight < 60;
    });
    assert.ok(atBottom, "opens scrolled to the newest message");
    await screenshot(t, browser, "chat-long-newest");

    // Scrolling to the top loads the page before, keeping the reader's place.
    const firstBefore = shown[0].id;
    await browser.execute(() => {
      document.getElementById("transcript").scrollTop = 0;
    });
    await browser.waitUntil(async () => (await rows(browser)).length > shown.length, { timeout: 10_000, timeoutMsg: "no older page came" });
    shown = await rows(browser);
    assert.ok(shown.findIndex((r) => r.id === firstBefore) >= 40, "the older page went in front");
    const place = await browser.execute((id) => {
      const s = document.getElementById("transcript");
      const row = document.querySelector(`.msg[data-msg-id="${id}"]`);
      return { top: s.scrollTop, rowTop: row.offsetTop };
    }, firstBefore);
    assert.ok(place.top > 0 && Math.abs(place.rowTop - place.top) < 800, `the row read before stays in view: ${JSON.stringify(place)}`);

    // Search across the history finds the message thousands back and opens it.
    await browser.keys(["Control", "k"]);
    const search = await browser.$("#search-input");
    await search.waitForDisplayed({ timeout: 5_000 });
    await search.addValue("lighthouse");
    await browser.waitUntil(async () => (await browser.$$(".search-hit")).length >= 1, { timeout: 10_000, timeoutMsg: "search found nothing" });
    await screenshot(t, browser, "chat-long-search");
    await (await browser.$(".search-hit")).click();
    const target = `ut${NEEDLE_AT}`;
    await browser.waitUntil(() => browser.execute((id) => document.querySelector(`.msg[data-msg-id="${id}"]`) !== null, target), {
      timeout: 10_000,
      timeoutMsg: "the hit's message never showed",
    });
    shown = await rows(browser);
    assert.ok(shown.length <= 100, `a window around the hit: ${shown.length} rows`);
    assert.ok(shown.some((r) => r.id === `t${NEEDLE_AT - 1}`) && shown.some((r) => r.id === `t${NEEDLE_AT}`), "with its neighbours");
    const view = await browser.execute((id) => {
      const s = document.getElementById("transcript").getBoundingClientRect();
      const r = document.querySelector(`.msg[data-msg-id="${id}"]`).getBoundingClientRect();
      const banner = document.querySelector(".older-banner");
      return { inView: r.top >= s.top && r.bottom <= s.bottom, banner: banner.hidden ? null : banner.textContent };
    }, target);
    assert.equal(view.inView, true);
    assert.match(view.banner ?? "", /^Earlier in this chat.*Back to the latest$/);
    await screenshot(t, browser, "chat-long-hit");

    // Back to the latest: the newest message again.
    await (await browser.$("#back-to-current")).click();
    await browser.waitUntil(async () => (await rows(browser)).at(-1)?.id === `t${EXCHANGES - 1}`, { timeout: 5_000, timeoutMsg: "not back at the newest" });
    const back = await browser.execute(() => {
      const s = document.getElementById("transcript");
      return { bottom: s.scrollHeight - s.scrollTop - s.clientHeight < 60, banner: document.querySelector(".older-banner").hidden };
    });
    assert.deepEqual(back, { bottom: true, banner: true }, "scrolled to the newest, the banner gone");
  } finally {
    await close();
  }
});
