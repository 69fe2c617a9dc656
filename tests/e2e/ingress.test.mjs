// The signals ingress end to end, in the real app against yui-mock's demo
// agent: a signal posted with curl becomes a turn whose context block (in
// the settings window's inspector) carries the `signal` line, and the
// character speaks the reply; the Reactions section shows where it listens
// and a curl line that works.

import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { promisify } from "node:util";
import { freePort, startMock } from "./harness.mjs";
import { display, launch, pageState, screenshot, useDisplay, waitReady } from "./app.mjs";

useDisplay();
const run = promisify(execFile);

/** POST a body to the ingress with curl; the HTTP status and the answer. */
async function curl(port, body, headers = []) {
  const args = ["-s", "-o", "-", "-w", "\n%{http_code}", "-X", "POST", `http://127.0.0.1:${port}/signals`, "-H", "Content-Type: application/json", ...headers.flatMap((h) => ["-H", h]), "-d", body];
  const { stdout } = await run("curl", args);
  const lines = stdout.trimEnd().split("\n");
  return { status: Number(lines.pop()), body: lines.join("\n") };
}

test("a signal posted with curl becomes a spoken turn whose block carries the signal line", { timeout: 240_000 }, async (t) => {
  const baseUrl = await startMock();
  const port = await freePort();
  const settings = JSON.stringify({ chat_base_url: baseUrl, key: "k", ingress: { enabled: true, port, require_token: false } });
  const { browser, close } = await launch("ingress", settings);
  try {
    await waitReady(browser);
    const pet = await browser.getWindowHandle();
    // The demo agent greets on its own first; wait until she is quiet.
    await browser.waitUntil(async () => !(await pageState(browser)).thinking, { timeout: 30_000 });
    const before = (await pageState(browser)).bubbleTurn;
    let answer = null;
    await browser.waitUntil(
      async () => {
        answer = await curl(port, JSON.stringify({ envelope: { source: "github", event_type: "push", delivery: "immediate", event_id: "delivery-42", occurred_at: 1787449000000 }, signals: [{ repo: "acme/app", branch: "main" }] })).catch(() => null);
        return answer?.status === 200;
      },
      { timeout: 15_000, interval: 500, timeoutMsg: "the ingress never answered" },
    );
    assert.deepEqual(JSON.parse(answer.body), { accepted: 1 });
    // A turn nobody typed starts, and she says its reply.
    await browser.waitUntil(
      async () => {
        const s = await pageState(browser);
        return s.bubbleTurn !== before && s.bubble.length > 0 && !s.thinking;
      },
      { timeout: 30_000, timeoutMsg: "the signal never became a spoken reply" },
    );
    t.diagnostic(`she said: ${(await pageState(browser)).bubble}`);
    await screenshot(t, browser, "ingress-pet");

    // The inspector: the block that left carries the signal line.
    await browser.execute(() => window.__TAURI_INTERNALS__.invoke("open_settings"));
    await browser.waitUntil(async () => (await browser.getWindowHandles()).length === 2, { timeout: 15_000, timeoutMsg: "no settings window" });
    await browser.switchToWindow((await browser.getWindowHandles()).find((h) => h !== pet));
    await browser.waitUntil(() => browser.execute(() => /signal \[github\/push @2026-08-23T01:36:40.000Z, id delivery-42\]/.test(document.getElementById("contexts")?.textContent ?? "")), {
      timeout: 15_000,
      timeoutMsg: "the inspector shows no block with the signal line",
    });
    const blockText = await browser.execute(() => document.getElementById("contexts").textContent);
    assert.match(blockText, /trigger: signals \(1 signal\)/);

    // The Reactions section: listening, with a curl line that works as shown.
    await browser.waitUntil(() => browser.execute(() => /^Listening on http:\/\/127\.0\.0\.1:\d+/.test(document.getElementById("ingress-status")?.textContent ?? "")), {
      timeout: 10_000,
      timeoutMsg: "the Reactions section does not say where it listens",
    });
    const example = await browser.execute(() => document.getElementById("ingress-example").textContent);
    assert.match(example, new RegExp(`^curl -s -X POST http://127\\.0\\.0\\.1:${port}/signals `));
    const { stdout } = await run("sh", ["-c", example]);
    assert.deepEqual(JSON.parse(stdout), { accepted: 1 }, "the example line posts a signal");
    await browser.execute(() => document.getElementById("reactions").scrollIntoView());
    await screenshot(t, browser, "settings-reactions");

    // A foreign Origin is refused, and nothing is delivered.
    const refused = await curl(port, JSON.stringify({ signals: [1] }), ["Origin: https://evil.example"]);
    assert.equal(refused.status, 403);
  } finally {
    await close();
  }
});

/** Move the X pointer on the test display (the user's input: idle time drops to 0). */
async function nudgePointer(x, y) {
  await run("xdotool", ["mousemove", String(x), String(y)], { env: { ...process.env, DISPLAY: `:${display}` } });
}

test("while the user is away a signal waits, and their return brings it as a catch-up", { timeout: 240_000 }, async (t) => {
  const baseUrl = await startMock();
  const port = await freePort();
  // Away after one minute without input; no milestone, cues or screen turns.
  const reactions = { schedule: false, idle_cues: false, screen_transitions: false, away_after_min: 1 };
  const settings = JSON.stringify({ chat_base_url: baseUrl, key: "k", ingress: { enabled: true, port, require_token: false }, reactions });
  const { browser, close, dataDir } = await launch("presence", settings);
  let passed = false;
  try {
    await waitReady(browser);
    const blocks = async () => (await browser.execute(() => window.__TAURI_INTERNALS__.invoke("recent_contexts"))).map((c) => c.block);
    // No input for more than the minute: the user is away (the X server's
    // idle time, read once a second).
    await browser.pause(65_000);
    const before = (await blocks()).length;
    const answer = await curl(port, JSON.stringify({ envelope: { source: "ci", event_type: "build", delivery: "immediate", event_id: "build-7", occurred_at: 1787449000000 }, signals: [{ status: "green" }] }));
    assert.equal(answer.status, 200, answer.body);
    await browser.pause(4_000);
    assert.equal((await blocks()).length, before, "nothing fires while the user is away");
    // The user comes back: the signal that waited arrives as a catch-up.
    await nudgePointer(700, 400);
    await nudgePointer(720, 410);
    await browser
      .waitUntil(async () => (await blocks()).some((b) => /id build-7\]/.test(b)), { timeout: 20_000, timeoutMsg: "the return never brought the signal" })
      .catch(async (e) => {
        for (const b of await blocks()) t.diagnostic(b.split("\n").filter((l) => /^(trigger|signal)/.test(l)).join(" | "));
        throw e;
      });
    const block = (await blocks()).find((b) => /id build-7\]/.test(b));
    t.diagnostic(block.split("\n").find((l) => l.startsWith("trigger:")));
    assert.match(block, /trigger: signals \(1 signal\)/);
    assert.match(block, /signal \[ci\/build @[^,]+, id build-7\]: \{"status":"green"\}/);
    await screenshot(t, browser, "presence-return");
    passed = true;
  } finally {
    // What the app logged about presence and triggers (for a failure's reader).
    const logs = path.join(dataDir, "logs");
    for (const f of !passed && fs.existsSync(logs) ? fs.readdirSync(logs) : []) {
      for (const line of fs.readFileSync(path.join(logs, f), "utf8").split("\n")) {
        if (/presence|trigger_|world_limited|signals/.test(line)) t.diagnostic(line.slice(0, 300));
      }
    }
    await close();
  }
});
