// A first start (docs/welcome.md): the demo answers and the welcome opens by
// itself; it finds yui-mock listening on one of the usual local ports (an
// OpenAI-compatible server, answering /v1/models as LiteLLM's proxy does),
// lists its model, connects her to it, and her first real answer shows in
// the welcome and in her bubble. The time from the launch to that answer is
// measured. Then her voice: a second yui-mock on a usual speech port is
// found with its voices, the sample line is made by it, and it is kept.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { portOpen, startMock } from "./harness.mjs";
import { launch, pageState, recordBubble, screenshot, useDisplay } from "./app.mjs";

useDisplay();

/** A usual port nothing listens on (the welcome probes these). */
async function freeUsualPort(ports = [4000, 8000, 1234, 8080, 11434]) {
  for (const port of ports) {
    if (!(await portOpen(port))) return port;
  }
  throw new Error("every usual model-server port is taken on this machine");
}

test("a first start finds the local server, connects her and shows her first answer", { timeout: 240_000 }, async (t) => {
  const port = await freeUsualPort();
  const baseUrl = await startMock(null, { port });
  assert.equal(baseUrl, `http://127.0.0.1:${port}`);
  // A speech server on a usual speech port (yui-mock lists voices as Kokoro-FastAPI does).
  const voicePort = await freeUsualPort([8880, 8080, 8000].filter((p) => p !== port));
  const voiceUrl = await startMock(null, { port: voicePort });
  const launched = Date.now();
  // No backend and the welcome never finished: a first start.
  const { browser, close, dataDir } = await launch("welcome", JSON.stringify({ welcomed: false }));
  const pet = await browser.getWindowHandle();
  try {
    await browser.waitUntil(async () => (await browser.getWindowHandles()).length === 2, { timeout: 30_000, timeoutMsg: "the welcome never opened by itself" });
    const welcome = (await browser.getWindowHandles()).find((h) => h !== pet);
    await browser.switchToWindow(welcome);
    const found = `#found button[data-provider="openai_compatible"]`;
    await browser.waitUntil(async () => (await browser.$$(found)).length > 0, { timeout: 20_000, timeoutMsg: "the welcome never found the local server" });
    const detail = await browser.execute((sel) => document.querySelector(sel).textContent, found);
    t.diagnostic(`found: ${detail}`);
    assert.match(detail, new RegExp(`${baseUrl.replace(/[.]/g, "\\.")}.*1 model`), "the server and how many models it has");
    await screenshot(t, browser, "welcome-found");
    await (await browser.$(found)).click();
    assert.equal(await (await browser.$("#base-url")).getValue(), baseUrl);
    assert.equal(await (await browser.$("#model")).getValue(), "yui-mock", "the server's model is picked");

    // Her bubble, then the connection.
    await browser.switchToWindow(pet);
    const shown = await recordBubble(browser);
    await browser.switchToWindow(welcome);
    await (await browser.$("#go")).click();
    await browser.waitUntil(async () => ((await browser.execute(() => document.getElementById("answer-text").textContent)) ?? "").length > 0, {
      timeout: 60_000,
      timeoutMsg: `her first answer never came (problem: ${await browser.execute(() => document.getElementById("problem").textContent)})`,
    });
    const seconds = ((Date.now() - launched) / 1000).toFixed(1);
    const said = await browser.execute(() => document.getElementById("answer-text").textContent);
    t.diagnostic(`first start to first real answer: ${seconds} s (${said})`);
    assert.equal(await browser.execute(() => document.getElementById("problem").hidden), true, "no problem line");
    await screenshot(t, browser, "welcome-answered");

    await browser.switchToWindow(pet);
    await browser.waitUntil(async () => (await shown()).some((s) => s.length > 0), { timeout: 30_000, timeoutMsg: "her bubble never showed the answer" });
    assert.equal((await pageState(browser)).status.state, "stateless", "she runs on the local server now");

    // Her voice: the speech server running on a usual port is found with its
    // voices, tried (the sample line made by it) and kept.
    await browser.switchToWindow(welcome);
    await (await browser.$("#to-voice")).click();
    const speech = `#voices button[data-voice="${voiceUrl}"]`;
    await browser.waitUntil(async () => (await browser.$$(speech)).length > 0, { timeout: 20_000, timeoutMsg: "the welcome never found the speech server" });
    await (await browser.$(speech)).click();
    assert.equal(await (await browser.$("#voice-name")).getValue(), "af_bella", "the server's first voice is picked");
    await (await browser.$("#voice-try")).click();
    await browser.waitUntil(async () => !(await browser.execute(() => document.getElementById("voice-ok").hidden)), {
      timeout: 30_000,
      timeoutMsg: `the voice was never kept (problem: ${await browser.execute(() => document.getElementById("voice-problem").textContent)})`,
    });
    const spoken = (await (await fetch(`${voiceUrl}/__mock/requests`)).json()).filter((r) => r.path === "/v1/audio/speech");
    assert.equal(spoken.at(-1)?.body?.input, "Hi! This is how I sound.", "the sample line went to the speech server");
    assert.equal(spoken.at(-1)?.body?.voice, "af_bella");
    t.diagnostic(`voice: ${await browser.execute(() => document.getElementById("voice-ok").textContent)}`);
    await screenshot(t, browser, "welcome-voice");
    // The microphone step: skipped here (the sound server's microphones vary).
    await (await browser.$("#voice-skip")).click();
    await browser.waitUntil(async () => !(await browser.execute(() => document.getElementById("mic").hidden)), { timeout: 10_000, timeoutMsg: "the microphone step never showed" });
    await (await browser.$("#mic-skip")).click();
    assert.equal(await browser.execute(() => document.getElementById("done").textContent), "Done");

    // Done: saved, and it opens by itself no more.
    // Done closes the window at once: the click's own answer may find it gone.
    await (await browser.$("#done")).click().catch((e) => {
      if (!/no such window/i.test(String(e))) throw e;
    });
    await browser.waitUntil(async () => (await browser.getWindowHandles()).length === 1, { timeout: 15_000, timeoutMsg: "the welcome stayed open" });
    await browser.switchToWindow(pet);
    const file = path.join(dataDir, "settings.json");
    await browser.waitUntil(async () => JSON.parse(fs.readFileSync(file, "utf8")).welcomed === true, { timeout: 10_000, timeoutMsg: "the welcome was never marked finished" });
    const saved = JSON.parse(fs.readFileSync(file, "utf8"));
    assert.equal(saved.chat_base_url, baseUrl);
    assert.equal(saved.chat_api, "chat_completions");
    assert.equal(saved.model, "yui-mock");
    assert.equal(saved.welcomed, true);
    assert.equal(saved.voice?.tts_base_url, voiceUrl, "her voice is the speech server's");
    assert.equal(saved.voice?.tts_voice, "af_bella");
  } finally {
    await screenshot(t, browser, "welcome-end");
    await close();
  }
});

test("the welcome opens by itself once, and closing it keeps the demo", { timeout: 120_000 }, async (t) => {
  const { browser, close, dataDir } = await launch("welcome-closed", JSON.stringify({ welcomed: false }));
  const pet = await browser.getWindowHandle();
  try {
    await browser.waitUntil(async () => (await browser.getWindowHandles()).length === 2, { timeout: 30_000, timeoutMsg: "the welcome never opened by itself" });
    const file = path.join(dataDir, "settings.json");
    await browser.waitUntil(async () => JSON.parse(fs.readFileSync(file, "utf8")).welcomed === true, { timeout: 15_000, timeoutMsg: "the first opening was not remembered" });
    await browser.switchToWindow((await browser.getWindowHandles()).find((h) => h !== pet));
    await browser.closeWindow();
    await browser.switchToWindow(pet);
    await browser.waitUntil(async () => (await browser.getWindowHandles()).length === 1, { timeout: 15_000, timeoutMsg: "the welcome did not close" });
    const saved = JSON.parse(fs.readFileSync(file, "utf8"));
    assert.equal(saved.chat_base_url ?? "", "", "the demo stays");
    assert.equal((await pageState(browser)).status.state, "ready", "the demo still answers her");
    t.diagnostic("opened once and remembered; closed, the demo kept");
  } finally {
    await close();
  }
});
