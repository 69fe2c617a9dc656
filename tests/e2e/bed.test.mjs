// The bed scene and touches in the real app against yui-mock's demo agent,
// with the real X pointer (xdotool on the Xvfb display): she starts asleep
// on a bed (the launch scene), a click on her wakes her, and the wake turn's
// block (in the settings window's inspector) says the user's click woke
// her while she reads `lying, getting up now`; awake, a click on her head
// is a touch cue's turn, and so is stroking her head.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { requireExecutable, startMock } from "./harness.mjs";
import { display, launch, screenshot, useDisplay, waitReady } from "./app.mjs";

useDisplay();

function xdotool(...args) {
  const bin = requireExecutable("xdotool", "apt-get install xdotool");
  const r = spawnSync(bin, args, { env: { ...process.env, DISPLAY: `:${display}` }, encoding: "utf8", timeout: 10_000 });
  assert.equal(r.status, 0, `xdotool ${args.join(" ")} failed: ${r.stderr}`);
}

/** The pet's body now, from the shell. */
function bodyNow(browser) {
  return browser.execute(() => window.__TAURI_INTERNALS__.invoke("body_now"));
}

test("she starts asleep on her bed, a click wakes her and the wake turn says so; awake, a poke and a head pat are touch cues", { timeout: 240_000 }, async (t) => {
  const baseUrl = await startMock();
  const settings = { chat_base_url: baseUrl, key: "k", bed: { at_launch: true, wake_timeout_min: 30 } };
  const { browser, close } = await launch("bed", JSON.stringify(settings));
  try {
    await waitReady(browser);
    await browser.waitUntil(() => browser.execute(() => window.__yui.ready()), { timeout: 60_000, timeoutMsg: "no character" });
    const asleep = await bodyNow(browser);
    assert.equal(asleep.type, "body");
    assert.equal(asleep.posture, "lying");
    assert.equal(asleep.bed?.phase, "asleep", JSON.stringify(asleep));
    assert.equal(asleep.bed?.entry, "launch");
    // The demo agent greets on connect; let that finish, then look at her.
    await browser.waitUntil(async () => !(await browser.execute(() => window.__yui.state())).thinking, { timeout: 30_000 });
    await browser.pause(1_500);
    await screenshot(t, browser, "bed-asleep");

    const rect = await browser.getWindowRect();
    const box = await browser.execute(() => window.__yui.characterBox());
    t.diagnostic(`window ${JSON.stringify(rect)}, character ${JSON.stringify(box)}`);
    assert.ok(box.width > 20 && box.height > 20, `she is drawn: ${JSON.stringify(box)}`);
    // Click the middle of what is drawn (her, or the bed under her).
    const x = Math.round(rect.x + box.x + box.width / 2);
    const y = Math.round(rect.y + box.y + box.height / 2);
    xdotool("mousemove", String(x), String(y));
    // The window takes the mouse once the page has seen the pointer over
    // her (the shell's cursor poll, then the hit test): under load that
    // takes longer than a fixed pause, and a click before it passes through.
    await browser.waitUntil(async () => (await browser.execute(() => window.__yui.clickThrough())) !== true, {
      timeout: 5_000,
      timeoutMsg: "the window never took the mouse over her",
    });
    xdotool("click", "1");
    await browser.waitUntil(async () => (await bodyNow(browser)).bed?.phase !== "asleep", { timeout: 10_000, timeoutMsg: "the click did not wake her" });
    await browser.pause(800);
    await screenshot(t, browser, "bed-waking");
    await browser.waitUntil(async () => (await bodyNow(browser)).posture === "standing" && !(await bodyNow(browser)).bed, { timeout: 15_000, timeoutMsg: "she never stood up" });
    // The bed fades out on the page after she stands.
    await browser.pause(1_200);
    await screenshot(t, browser, "bed-up");

    const blocks = async () => (await browser.execute(() => window.__TAURI_INTERNALS__.invoke("recent_contexts"))).map((c) => c.block).join("\n");
    await browser.waitUntil(async () => /woken by the user's click/.test(await blocks()), { timeout: 15_000, timeoutMsg: "no wake block was sent" });
    const text = await blocks();
    assert.match(text, /trigger: wake\s*wake: the character just woke from the bed, woken by the user's click/);
    assert.match(text, /body: lying, getting up now/);

    // Awake: a click on her head is a touch cue. A poke while she still
    // talks is dropped (she answers the next one), so poke again now and
    // then, each far enough apart to start a new streak.
    const head = await browser.execute(() => window.__yui.characterBox());
    xdotool("mousemove", String(Math.round(rect.x + head.x + head.width / 2)), String(Math.round(rect.y + head.y + head.height * 0.12)));
    await browser.waitUntil(
      async () => {
        xdotool("click", "1");
        await browser.pause(3_500);
        return /trigger: proactive cue "(head|chest|arm|legs|body) touch"/.test(await blocks());
      },
      { timeout: 40_000, interval: 100, timeoutMsg: "pokes on her head made no touch cue turn" },
    );
    t.diagnostic((await blocks()).match(/trigger: proactive cue "[^"]+"/)[0]);
    await screenshot(t, browser, "bed-poked");

    // Stroking her head to and fro (no button) is a head pat, once the touch
    // debounce (10 s) since the poke's turn has passed and she is quiet.
    const headX = Math.round(rect.x + head.x + head.width / 2);
    const headY = Math.round(rect.y + head.y + head.height * 0.1);
    await browser.waitUntil(
      async () => {
        for (let i = 0; i < 8; i++) {
          xdotool("mousemove", String(headX + (i % 2 === 0 ? -14 : 14)), String(headY));
          await browser.pause(90);
        }
        await browser.pause(3_200);
        return /trigger: proactive cue "head pat"/.test(await blocks());
      },
      { timeout: 60_000, interval: 100, timeoutMsg: "stroking her head made no head pat turn" },
    );
  } finally {
    await close();
  }
});
