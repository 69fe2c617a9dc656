// A first start in Japanese, then in Korean (docs/i18n.md): the OS locale
// picks the language, and the welcome (its voice and microphone steps
// too), pet, chat and settings windows show no word a user reads in
// English (the agent's own words aside). Each window is screenshotted.
// Then the language is switched in the settings and every open window
// follows at once, with no restart. (Help in Japanese, over Chat
// Completions: request.test.mjs.)

import assert from "node:assert/strict";
import { test } from "node:test";
import { launch, screenshot, useDisplay } from "./app.mjs";

useDisplay();

/** Proper names, file kinds, addresses and keys that stay as they are in every language. */
const KEPT = [
  /^(YUI|English|日本語|한국어)$/,
  /https?:\/\/|127\.0\.0\.1|localhost/,
  /^\.?(vrm|vrma|json|png)$/i,
  /\b(OpenAI|OpenRouter|Groq|Gemini|Google|Ollama|LM Studio|llama\.cpp|vLLM|LiteLLM|PraisonAI|Kokoro-FastAPI|Tavern|VRM|VRoid|URL|API|TTS|STT|JSON|PNG|SSE|WebSocket|Chat Completions|Responses|Ctrl|Shift|Alt|Enter|Esc|Tab|Space|ms|px|MB|KB|kB|GB|OS|ID)\b/,
];

/**
 * The visible words of the current page that read as English: text nodes
 * and spoken attributes of shown elements with Latin words and no letter
 * of the page's language, minus what stays in every language. The agent's
 * and the user's own words (messages, inputs) are not the interface's.
 */
function englishOnPage(browser) {
  return browser.execute(() => {
    const local = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/;
    const shown = (el) => {
      if (!el || el.closest("[hidden], script, style, textarea, input, select, [data-words='theirs']")) return false;
      if (el.closest(".message-body, .bubble-text, .msg-text, .md, pre, code, .context-text, .answer-text")) return false;
      const style = getComputedStyle(el);
      return el.getClientRects().length > 0 && style.visibility !== "hidden" && style.display !== "none";
    };
    const out = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const text = walker.currentNode.textContent.trim();
      if (/[A-Za-z]{2,}/.test(text) && !local.test(text) && shown(walker.currentNode.parentElement)) out.push(text);
    }
    for (const el of document.querySelectorAll("[title], [aria-label], [placeholder]")) {
      if (!shown(el)) continue;
      for (const name of ["title", "aria-label", "placeholder"]) {
        const value = el.getAttribute(name);
        if (value && /[A-Za-z]{2,}/.test(value) && !local.test(value)) out.push(`${name}=${value}`);
      }
    }
    return out;
  });
}

async function expectLocal(browser, language, where) {
  assert.equal(await browser.execute(() => document.documentElement.lang), language, `${where} speaks ${language}`);
  const english = (await englishOnPage(browser)).filter((text) => !KEPT.some((kept) => kept.test(text.replace(/^(title|aria-label|placeholder)=/, ""))));
  assert.deepEqual(english, [], `${where} shows English in ${language}`);
}

/** The handle of the window opened since `known`. */
async function newWindow(browser, known, what) {
  await browser.waitUntil(async () => (await browser.getWindowHandles()).some((h) => !known.has(h)), { timeout: 20_000, timeoutMsg: `no ${what} window` });
  return (await browser.getWindowHandles()).find((h) => !known.has(h));
}

for (const [language, locale, other] of [
  ["ja", "ja_JP.UTF-8", "ko"],
  ["ko", "ko_KR.UTF-8", "ja"],
]) {
  test(`a first start in ${language}: every window in ${language}, and a switch follows at once`, { timeout: 240_000 }, async (t) => {
    const { browser, close } = await launch(`lang-${language}`, null, { firstStart: true, env: { LC_ALL: locale, LC_MESSAGES: locale, LANG: locale } });
    try {
      const pet = await browser.getWindowHandle();
      const known = new Set([pet]);
      // The demo answers a first start: the welcome opens by itself.
      const welcome = await newWindow(browser, known, "welcome");
      known.add(welcome);
      await browser.switchToWindow(welcome);
      await browser.waitUntil(async () => (await browser.execute(() => document.documentElement.lang)) === language, { timeout: 15_000, timeoutMsg: `the welcome never spoke ${language}` });
      // Discovery has answered (found or not) before the look.
      await browser.waitUntil(() => browser.execute(() => document.getElementById("looking") === null), { timeout: 15_000, timeoutMsg: "discovery never answered" });
      await screenshot(t, browser, `lang-${language}-welcome`);
      await expectLocal(browser, language, "the welcome");
      // Its voice and microphone steps too.
      await (await browser.$("#to-voice")).click();
      await browser.waitUntil(async () => (await browser.$$("#voices button")).length > 0, { timeout: 20_000, timeoutMsg: "the voice step never listed a choice" });
      await (await browser.$("#voice-skip")).click();
      await browser.waitUntil(async () => (await browser.$$("#mic-device option")).length > 0 || !(await browser.execute(() => document.getElementById("mic-problem").hidden)), {
        timeout: 15_000,
        timeoutMsg: "the microphone step never listed the microphones",
      });
      await screenshot(t, browser, `lang-${language}-welcome-voice`);
      await expectLocal(browser, language, "the welcome's voice and microphone steps");

      await browser.switchToWindow(pet);
      await screenshot(t, browser, `lang-${language}-pet`);
      await expectLocal(browser, language, "the pet");

      await (await browser.$("#chat-button")).click();
      const chat = await newWindow(browser, known, "chat");
      known.add(chat);
      await browser.switchToWindow(chat);
      await browser.pause(1000);
      await screenshot(t, browser, `lang-${language}-chat`);
      await expectLocal(browser, language, "the chat window");

      await browser.execute(() => window.__TAURI_INTERNALS__.invoke("open_settings"));
      const settings = await newWindow(browser, known, "settings");
      known.add(settings);
      await browser.switchToWindow(settings);
      await browser.waitUntil(async () => (await browser.execute(() => document.querySelector("select[name=language]")?.value)) === language, { timeout: 15_000, timeoutMsg: "the settings never loaded" });
      await screenshot(t, browser, `lang-${language}-settings`);
      await expectLocal(browser, language, "the settings");

      // Switch: the settings save the other language, and every window
      // follows without a restart.
      const started = Date.now();
      await browser.execute((l) => {
        const select = document.querySelector("select[name=language]");
        select.value = l;
        select.dispatchEvent(new Event("change", { bubbles: true }));
      }, other);
      await (await browser.$(`button[type="submit"]`)).click();
      for (const [handle, where] of [
        [settings, "the settings"],
        [pet, "the pet"],
        [chat, "the chat window"],
        [welcome, "the welcome"],
      ]) {
        await browser.switchToWindow(handle);
        await browser.waitUntil(async () => (await browser.execute(() => document.documentElement.lang)) === other, { timeout: 15_000, timeoutMsg: `${where} stayed in ${language}` });
        await expectLocal(browser, other, `${where} after the switch`);
      }
      t.diagnostic(`every window in ${other} ${Date.now() - started} ms after Save`);
      await browser.switchToWindow(pet);
      await screenshot(t, browser, `lang-${language}-switched-pet`);
    } finally {
      await close();
    }
  });
}
