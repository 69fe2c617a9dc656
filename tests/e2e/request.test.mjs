// The real app over each request transport (Responses, Chat Completions)
// against yui-mock's demo agent: a typed message streams its reply into the
// bubble with the cue placed on it, and the turn ends; the settings
// window's Test connection on a good endpoint and a dead one; and, over Chat
// Completions, the settings' Help: an ordinary turn whose request carries the
// guide of the UI language (English, then Japanese), answered in her bubble.

import assert from "node:assert/strict";
import { after as afterAll, test } from "node:test";
import { startMock } from "./harness.mjs";
import { launch, pageState, recordBubble, screenshot, textOf, typeAndEnter, useDisplay } from "./app.mjs";

useDisplay();

// The Responses test and the connection test run in one launch: their
// settings are the same, and the connection test saves nothing. The launch
// happens in the first test that asks for it (after the display is up).
let responses;
function sharedResponses() {
  responses ??= (async () => {
    const good = await startMock();
    const app = await launch("request-responses", JSON.stringify({ chat_api: "responses", chat_base_url: good, key: "k", model: "yui-mock" }));
    return { ...app, good };
  })();
  return responses;
}
afterAll(async () => {
  const app = await responses?.catch(() => undefined);
  await app?.close();
});

/** The typed-message test over `api` (the Responses one on the shared launch). */
function answered(api) {
  test(`a typed message is answered over ${api}`, { timeout: 240_000 }, async (t) => {
    let browser;
    let baseUrl = null;
    let close = async () => {};
    if (api === "responses") {
      ({ browser } = await sharedResponses());
    } else {
      baseUrl = await startMock();
      const settings = JSON.stringify({ chat_api: api, chat_base_url: baseUrl, key: "k", model: "yui-mock" });
      ({ browser, close } = await launch(`request-${api}`, settings));
    }
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
      if (baseUrl !== null) await askedForHelp(t, browser, baseUrl);
    } finally {
      await screenshot(t, browser, `request-${api}`);
      await close();
    }
  });
}

/** Every HTTP request the mock recorded: `{path, body}`. */
async function requests(baseUrl) {
  return (await fetch(`${baseUrl}/__mock/requests`)).json();
}

/** What the settings' "How do I use you?" sends and finds, by UI language: her turn's words and the guide's heading. */
const HELP = {
  en: { asked: "How do I use you?", heading: "# Controls" },
  ja: { asked: "使い方を教えて。", heading: "# 操作ガイド" },
};

/** The settings' "How do I use you?": her answer in the bubble, the guide of the UI language in the request. */
async function askedForHelp(t, browser, baseUrl, language = "en") {
  const { asked, heading } = HELP[language];
  const pet = await browser.getWindowHandle();
  const before = (await requests(baseUrl)).length;
  const shown = await recordBubble(browser);
  await browser.execute(() => window.__TAURI_INTERNALS__.invoke("open_settings"));
  await browser.waitUntil(async () => (await browser.getWindowHandles()).length === 2, { timeout: 15_000, timeoutMsg: "no settings window" });
  await browser.switchToWindow((await browser.getWindowHandles()).find((h) => h !== pet));
  // The page's script is up once the form shows the saved settings.
  await browser.waitUntil(async () => (await browser.execute(() => document.querySelector('input[name="model"]')?.value)) === "yui-mock", {
    timeout: 15_000,
    timeoutMsg: "the settings never loaded",
  });
  await (await browser.$("#help-controls")).click();
  await browser.switchToWindow(pet);
  await browser.waitUntil(async () => (await pageState(browser)).transcript.current.messages.some((m) => m.text === asked), {
    timeout: 15_000,
    timeoutMsg: "the help request never became her turn",
  });
  await browser.waitUntil(async () => !(await pageState(browser)).thinking, { timeout: 30_000, timeoutMsg: "the help turn never ended" });
  const sent = (await requests(baseUrl)).slice(before).filter((r) => r.path === "/v1/chat/completions");
  const body = JSON.stringify(sent.at(-1)?.body ?? {});
  assert.match(body, /guide:\\nThe user pressed the in-app help button/, "the request carries the guide block");
  assert.ok(body.includes(heading), `the ${language} controls guide itself`);
  assert.ok(body.includes(asked), "and the short request as the user's message");
  // The demo agent answers by quoting what it was asked.
  await browser.waitUntil(async () => (await shown()).some((s) => s.includes(asked)), { timeout: 15_000, timeoutMsg: "her answer never showed in the bubble" });
  t.diagnostic(`help answer (${language}): ${await textOf(browser, "bubble-text")}`);
  await screenshot(t, browser, `request-help-${language}`);
}

answered("responses");

test("Test connection reports a good endpoint and a dead one", { timeout: 180_000 }, async (t) => {
  const { browser, good } = await sharedResponses();
  const pet = await browser.getWindowHandle();
  try {
    await browser.execute(() => window.__TAURI_INTERNALS__.invoke("open_settings"));
    await browser.waitUntil(async () => (await browser.getWindowHandles()).length === 2, { timeout: 15_000, timeoutMsg: "no settings window" });
    await browser.switchToWindow((await browser.getWindowHandles()).find((h) => h !== pet));
    const url = await browser.$('input[name="chat_base_url"]');
    await url.waitForExist({ timeout: 15_000 });
    await browser.waitUntil(async () => (await url.getValue()) === good, { timeout: 10_000, timeoutMsg: "the settings did not load" });
    const report = () => browser.execute(() => [...document.querySelectorAll("#probe li")].map((li) => li.textContent));
    const test = async () => {
      await (await browser.$("#test-connection")).click();
      await browser.waitUntil(async () => (await report()).some((l) => l.startsWith("Reachable")), { timeout: 30_000, timeoutMsg: "no report" });
      return report();
    };
    const ok = await test();
    t.diagnostic(`good endpoint: ${JSON.stringify(ok)}`);
    assert.ok(ok.includes("Reachable ✓") && ok.includes("Key accepted ✓") && ok.includes("Model answering ✓"), JSON.stringify(ok));
    const keyPlace = await browser.execute(() => document.getElementById("key-place").textContent);
    assert.match(keyPlace, /keychain|file only you can read/, "the window says where the key is kept");
    await screenshot(t, browser, "settings-probe");

    // The form's values are tested unsaved: a dead port is not reachable.
    await url.setValue("http://127.0.0.1:9");
    const bad = await test();
    t.diagnostic(`dead endpoint: ${JSON.stringify(bad)}`);
    assert.ok(bad.includes("Reachable ✗"), JSON.stringify(bad));
    assert.ok(bad.some((l) => l.startsWith("Nothing answers at that address.")), `it says which step failed and what to try: ${JSON.stringify(bad)}`);
  } finally {
    // Done with the shared launch: the Chat Completions test has the display to itself.
    const app = await responses;
    responses = Promise.resolve(null);
    await app.close();
  }
});

answered("chat_completions");

test("in Japanese, Help over Chat Completions sends the Japanese guide and her answer shows in the bubble", { timeout: 240_000 }, async (t) => {
  const baseUrl = await startMock();
  const settings = JSON.stringify({ chat_api: "chat_completions", chat_base_url: baseUrl, key: "k", model: "yui-mock", language: "ja" });
  const { browser, close } = await launch("request-help-ja", settings);
  try {
    await browser.waitUntil(async () => (await pageState(browser)).status.state === "stateless", { timeout: 30_000, timeoutMsg: "the session never started" });
    await askedForHelp(t, browser, baseUrl, "ja");
  } finally {
    await close();
  }
});
