// The chat window end to end, in the real app against yui-mock's demo agent:
// a reply typed on the pet is still there to read after the agent's own
// proactive report replaced it in the bubble; the window mirrors the live
// turn, searches, and keeps the conversation; the pet shows the tool
// segment and the usage readout.

import assert from "node:assert/strict";
import { test } from "node:test";
import { startMock } from "./harness.mjs";
import { launch, screenshot, typeAndEnter, useDisplay, waitReady } from "./app.mjs";

useDisplay();

/** Switch to the chat window, opening it through the pet's chat button. */
async function openChat(browser, pet) {
  await browser.switchToWindow(pet);
  await (await browser.$("#chat-button")).click();
  await browser.waitUntil(async () => (await browser.getWindowHandles()).length >= 2, { timeout: 15_000, timeoutMsg: "no chat window" });
  const chat = (await browser.getWindowHandles()).find((h) => h !== pet);
  await browser.switchToWindow(chat);
  await (await browser.$("#chat-input")).waitForExist({ timeout: 15_000 });
  return chat;
}

/** The rows of the chat window: role, id and shown text. */
function rows(browser) {
  return browser.execute(() =>
    [...document.querySelectorAll(".msg")].map((m) => ({ role: m.dataset.role, id: m.dataset.msgId, text: m.textContent ?? "" })),
  );
}

test("a reply can be read again in the chat window after a proactive turn", { timeout: 240_000 }, async (t) => {
  const baseUrl = await startMock();
  const settings = JSON.stringify({ chat_api: "push", chat_base_url: baseUrl, key: "k" });
  const { browser, close } = await launch("chat", settings);
  try {
    await waitReady(browser);
    const pet = await browser.getWindowHandle();
    await typeAndEnter(browser, "what time is it?");
    // The demo agent answers, then reports on its own (a backend turn).
    await browser.waitUntil(async () => (await browser.execute(() => window.__yui.state().thinking)) === false, {
      timeout: 30_000,
      timeoutMsg: "the reply never ended",
    });

    // The pet: the delegations chip (the demo delegates a task) and the usage readout.
    await browser.waitUntil(() => browser.execute(() => !document.getElementById("delegations-chip").hidden), {
      timeout: 20_000,
      timeoutMsg: "the delegations chip never showed",
    });
    assert.match(await browser.execute(() => document.getElementById("delegations-chip").textContent), /tasks: .*(running|done)/);
    assert.match(await browser.execute(() => document.getElementById("usage").textContent), /^[\d,]+ \/ 32,768 tokens$/);
    await (await browser.$("#delegations-chip")).click();
    await browser.waitUntil(() => browser.execute(() => document.querySelectorAll("#delegations-list li").length > 0), { timeout: 5_000, timeoutMsg: "the chip opened no list" });
    await screenshot(t, browser, "pet-chip");

    const chat = await openChat(browser, pet);
    await browser.waitUntil(async () => (await rows(browser)).length >= 3, { timeout: 30_000, timeoutMsg: "the proactive turn never reached the chat window" });
    const shown = await rows(browser);
    t.diagnostic(JSON.stringify(shown));
    assert.equal(shown[0].role, "user");
    assert.match(shown[0].text, /what time is it\?/);
    assert.equal(shown[1].role, "assistant");
    assert.ok(shown[1].text.length > 10, "the first reply is there to read");
    assert.ok(shown.slice(2).some((r) => r.role === "assistant"), "the backend's own turn has its own message");
    const usage = await browser.$$(".usage-line");
    assert.ok(usage.length >= 1, "a usage line under the reply");
    await screenshot(t, browser, "chat-window");

    // A message typed in the chat window runs on the same session: the pet shows it too.
    const input = await browser.$("#chat-input");
    await input.click();
    await input.addValue("tell me more");
    await browser.keys(["Enter"]);
    await browser.waitUntil(async () => (await rows(browser)).some((r) => r.role === "user" && /tell me more/.test(r.text)), {
      timeout: 10_000,
      timeoutMsg: "the typed message did not show",
    });
    await browser.switchToWindow(pet);
    await browser.waitUntil(async () => (await browser.execute(() => window.__yui.state().bubbleTurn)) !== null, { timeout: 10_000 });
    await browser.switchToWindow(chat);
    await browser.waitUntil(async () => (await browser.$$('.answer[data-state="streaming"]')).length === 0, {
      timeout: 30_000,
      timeoutMsg: "the second reply never finished",
    });

    // Search (Ctrl+K) finds the first question and opens it.
    await browser.keys(["Control", "k"]);
    const search = await browser.$("#search-input");
    await search.waitForDisplayed({ timeout: 5_000 });
    await search.addValue("time is it");
    await browser.waitUntil(async () => (await browser.$$(".search-hit")).length >= 1, { timeout: 10_000, timeoutMsg: "search found nothing" });
    await screenshot(t, browser, "chat-search");
    await (await browser.$(".search-hit")).click();
    await browser.waitUntil(async () => !(await search.isDisplayed()), { timeout: 5_000, timeoutMsg: "the overlay stayed" });

    // New chat: an empty conversation; the old one stays in the list.
    await (await browser.$("#new-chat")).click();
    await browser.waitUntil(async () => (await rows(browser)).length === 0, { timeout: 10_000, timeoutMsg: "New chat kept the old rows" });
    await browser.waitUntil(async () => (await browser.$$(".conversation-item")).length >= 2, { timeout: 10_000, timeoutMsg: "the old conversation left the list" });

    // The settings window's Session section lists the delegation history; a finished item's summary opens under it.
    await browser.switchToWindow(pet);
    await browser.execute(() => window.__TAURI_INTERNALS__.invoke("open_settings"));
    await browser.waitUntil(async () => (await browser.getWindowHandles()).length >= 3, { timeout: 15_000, timeoutMsg: "no settings window" });
    const known = new Set([pet, chat]);
    await browser.switchToWindow((await browser.getWindowHandles()).find((h) => !known.has(h)));
    await browser.waitUntil(() => browser.execute(() => document.querySelectorAll(".delegation-row").length > 0), {
      timeout: 20_000,
      timeoutMsg: "the Session section lists no delegation",
    });
    const opened = await browser.execute(() => {
      const row = document.querySelector("button.delegation-row");
      row?.scrollIntoView();
      row?.click();
      return row !== null;
    });
    if (opened) {
      await browser.waitUntil(() => browser.execute(() => document.querySelector(".delegation-summary") !== null), { timeout: 5_000, timeoutMsg: "the summary did not open" });
    }
    // The strip under the title mirrors the pet's session: the connection, and what runs.
    const strip = () => browser.execute(() => document.getElementById("session-strip")?.textContent ?? "");
    await browser.waitUntil(async () => /^Connected\b/.test(await strip()), { timeout: 10_000, timeoutMsg: "the session strip does not say Connected" });
    t.diagnostic(`strip: ${await strip()}`);
    // A turn typed on the pet shows in the settings window as it runs (every text the strip shows is kept).
    await browser.execute(() => {
      const el = document.getElementById("session-strip");
      window.__stripLog = [];
      new MutationObserver(() => window.__stripLog.push(el.textContent ?? "")).observe(el, { subtree: true, childList: true, characterData: true });
    });
    await browser.switchToWindow(pet);
    await typeAndEnter(browser, "one more thing");
    await browser.switchToWindow((await browser.getWindowHandles()).find((h) => !known.has(h)));
    await browser.waitUntil(() => browser.execute(() => window.__stripLog.some((x) => /Replying…|Thinking…/.test(x))), { timeout: 15_000, timeoutMsg: "the strip never showed the running reply" });
    await browser.waitUntil(async () => !/Replying…|Thinking…/.test(await strip()), { timeout: 30_000, timeoutMsg: "the strip kept the ended reply" });
    await screenshot(t, browser, "settings-session");
    await browser.execute(() => window.scrollTo(0, 0));
    await screenshot(t, browser, "settings-strip");
  } finally {
    await close();
  }
});
