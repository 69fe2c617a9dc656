// Deliberate silence in the real app: a turn the character starts on her own
// (a signal posted to the ingress) answered with `[SILENT]` plays its cue and
// leaves the chat window exactly as it was: no "[SILENT]" text, no "No
// output" card, no new message.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { freePort, ROOT, startMock } from "./harness.mjs";
import { launch, pageState, screenshot, typeAndEnter, useDisplay, waitReady } from "./app.mjs";

useDisplay();

/** The chat window's rows and its whole text. */
function chatView(browser) {
  return browser.execute(() => ({
    rows: [...document.querySelectorAll(".msg")].map((m) => ({ role: m.dataset.role, text: (m.textContent ?? "").trim() })),
    errors: document.querySelectorAll(".error-card").length,
    text: document.body.textContent ?? "",
  }));
}

test("a [SILENT] self-started turn plays its cue and leaves the chat window as it was", { timeout: 240_000 }, async (t) => {
  const baseUrl = await startMock(path.join(ROOT, "tests/e2e/scenarios/silent_signal.json"));
  const port = await freePort();
  // No initiative of her own; the display's long idle time is not "away" (that would hold the signal), and no wait after the user's own turn.
  const reactions = { schedule: false, idle_cues: false, screen_transitions: false, away_after_min: 120, pacing: { after_user_min: 0 } };
  const settings = JSON.stringify({ chat_base_url: baseUrl, key: "k", ingress: { enabled: true, port, require_token: false }, reactions });
  const { browser, close, dataDir } = await launch("chat-silent", settings);
  let passed = false;
  try {
    await waitReady(browser);
    const pet = await browser.getWindowHandle();
    await typeAndEnter(browser, "hello there");
    await browser.waitUntil(async () => /I'm here/.test((await pageState(browser)).bubble ?? "") && !(await pageState(browser)).thinking, {
      timeout: 30_000,
      timeoutMsg: "the spoken answer never came",
    });

    await (await browser.$("#chat-button")).click();
    await browser.waitUntil(async () => (await browser.getWindowHandles()).length >= 2, { timeout: 15_000, timeoutMsg: "no chat window" });
    const chat = (await browser.getWindowHandles()).find((h) => h !== pet);
    await browser.switchToWindow(chat);
    await browser.waitUntil(async () => (await chatView(browser)).rows.length === 2, { timeout: 15_000, timeoutMsg: "the chat window does not show the first exchange" });
    const before = await chatView(browser);
    t.diagnostic(`before: ${JSON.stringify(before.rows)}`);

    // A signal: a turn nobody typed; the backend answers it with [SILENT] and a sad cue.
    await browser.switchToWindow(pet);
    const posted = await fetch(`http://127.0.0.1:${port}/signals`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ envelope: { source: "ci", event_type: "build", delivery: "immediate", event_id: "b-1" }, signals: [{ build: "green" }] }) });
    assert.equal(posted.status, 200);
    await browser.waitUntil(async () => (await browser.execute(() => window.__yui.lastCue()?.cue?.emotion_id ?? null)) === "sad", {
      timeout: 30_000,
      timeoutMsg: "the silent reply's cue never played",
    });
    // Let the turn end reach every window.
    await browser.waitUntil(async () => !(await pageState(browser)).thinking, { timeout: 15_000 });
    await browser.pause(1500);
    const bubble = (await pageState(browser)).bubble ?? "";
    assert.ok(!bubble.includes("[SILENT]"), `the bubble shows ${JSON.stringify(bubble)}`);

    await browser.switchToWindow(chat);
    const after = await chatView(browser);
    t.diagnostic(`after: ${JSON.stringify(after.rows)}`);
    assert.deepEqual(after.rows, before.rows, "the chat window is as it was");
    assert.equal(after.errors, 0, "no error card");
    assert.ok(!after.text.includes("[SILENT]"), "no [SILENT] text");
    assert.ok(!/No output/.test(after.text), "no No output card");
    await screenshot(t, browser, "chat-silent");
    passed = true;
  } finally {
    // What the app logged about the signal's turn (for a failure's reader).
    const logs = path.join(dataDir, "logs");
    for (const f of !passed && fs.existsSync(logs) ? fs.readdirSync(logs) : []) {
      for (const line of fs.readFileSync(path.join(logs, f), "utf8").split("\n")) {
        if (/trigger_|signals|turn|push\./.test(line)) t.diagnostic(line.slice(0, 300));
      }
    }
    await close();
  }
});
