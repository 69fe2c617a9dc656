// The real app over each request transport (Responses, Chat Completions)
// against yui-mock's demo agent: a typed message streams its reply into the
// bubble with the cue placed on it, and the turn ends.

import assert from "node:assert/strict";
import { test } from "node:test";
import { startMock } from "./harness.mjs";
import { launch, pageState, recordBubble, screenshot, textOf, typeAndEnter, useDisplay } from "./app.mjs";

useDisplay();

for (const api of ["responses", "chat_completions"]) {
  test(`a typed message is answered over ${api}`, { timeout: 240_000 }, async (t) => {
    const baseUrl = await startMock();
    const settings = JSON.stringify({ chat_api: api, chat_base_url: baseUrl, key: "k", model: "yui-mock" });
    const { browser, close } = await launch(`request-${api}`, settings);
    try {
      await browser.waitUntil(async () => (await pageState(browser)).status.state === "stateless", {
        timeout: 30_000,
        timeoutMsg: `the ${api} session never started`,
      });
      await browser.waitUntil(() => browser.execute(() => window.__yui.ready()), { timeout: 60_000, timeoutMsg: "the character never loaded" });
      const shown = await recordBubble(browser);
      await typeAndEnter(browser, "hello there");
      await browser.waitUntil(async () => (await shown()).some((s) => s.includes("Hi! I'm Yui.")), {
        timeout: 30_000,
        timeoutMsg: `the bubble never showed the ${api} reply`,
      });
      await browser.waitUntil(async () => ((await browser.execute(() => window.__yui.expressions())).happy ?? 0) > 0.6, {
        timeout: 5_000,
        timeoutMsg: "the happy cue placed on the greeting never showed",
      });
      await browser.waitUntil(async () => !(await pageState(browser)).thinking, { timeout: 30_000, timeoutMsg: "the turn never ended" });
      assert.equal((await pageState(browser)).error, null, "no error line");
      t.diagnostic(`bubble: ${await textOf(browser, "bubble-text")}`);
    } finally {
      await screenshot(t, browser, `request-${api}`);
      await close();
    }
  });
}
