// Click-through and the bring-back shortcut, with the real X pointer and
// keyboard (xdotool drives XTEST on the Xvfb display): the shell polls the
// cursor, the page hit-tests the rendered alpha and switches the window's
// click-through; Ctrl+Shift+Y makes the pet take the mouse again.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { after as afterAll, test } from "node:test";
import { requireExecutable, startMock } from "./harness.mjs";
import { display, launch, screenshot, useDisplay, waitReady } from "./app.mjs";

useDisplay();

/** Soles above the pet window's bottom (configs/avatar.json `body.feet_from_bottom`). */
const FEET = 35;

function xdotool(...args) {
  const bin = requireExecutable("xdotool", "apt-get install xdotool");
  const r = spawnSync(bin, args, { env: { ...process.env, DISPLAY: `:${display}` }, encoding: "utf8", timeout: 10_000 });
  assert.equal(r.status, 0, `xdotool ${args.join(" ")} failed: ${r.stderr}`);
}

// Both tests run in one launch: their settings are the same, and the drag
// test starts from wherever the first left her (it measures from there).
// The launch happens in the first test that asks for it, after the display
// hooks of `useDisplay` have run (a launch in a `before` hook of this file
// could start before the display was up).
let launched;
function shared() {
  launched ??= (async () => {
    const baseUrl = await startMock();
    const app = await launch("clickthrough", JSON.stringify({ chat_base_url: baseUrl, key: "k" }));
    await waitReady(app.browser);
    await app.browser.waitUntil(() => app.browser.execute(() => window.__yui.ready()), { timeout: 60_000, timeoutMsg: "no character" });
    return app;
  })();
  return launched;
}
afterAll(async () => {
  const app = await launched?.catch(() => undefined);
  await app?.close();
});

test("transparent pixels let the mouse through, the character and the shortcut take it back", { timeout: 180_000 }, async (t) => {
  const { browser } = await shared();
  try {
    const rect = await browser.getWindowRect();
    const box = await browser.execute(() => window.__yui.characterBox());
    const clickThrough = () => browser.execute(() => window.__yui.clickThrough());
    const at = (x, y) => xdotool("mousemove", String(Math.round(rect.x + x)), String(Math.round(rect.y + y)));
    t.diagnostic(`window ${JSON.stringify(rect)}, character ${JSON.stringify(box)}`);

    // On the empty background beside her: the window lets the mouse through.
    at(6, box.y + box.height / 2);
    await browser.waitUntil(async () => (await clickThrough()) === true, { timeout: 5_000, timeoutMsg: "the background never became click-through" });
    // On her face: the window takes the mouse.
    at(box.x + box.width / 2, box.y + box.height * 0.2);
    await browser.waitUntil(async () => (await clickThrough()) === false, { timeout: 5_000, timeoutMsg: "the character never took the mouse back" });
    // Back on the background, then the shortcut: interactive again, and held so.
    at(6, box.y + box.height / 2);
    await browser.waitUntil(async () => (await clickThrough()) === true, { timeout: 5_000, timeoutMsg: "click-through did not come back" });
    xdotool("key", "--clearmodifiers", "ctrl+shift+y");
    await browser.waitUntil(async () => (await clickThrough()) === false, { timeout: 5_000, timeoutMsg: "Ctrl+Shift+Y did not make the pet interactive" });
    await browser.pause(1000);
    assert.equal(await clickThrough(), false, "the shortcut holds the window interactive for a while, even over the background");
  } finally {
    await screenshot(t, browser, "clickthrough");
  }
});

test("a press that moves drags the window; a click in place does not move it", { timeout: 180_000 }, async (t) => {
  const { browser } = await shared();
  try {
    const before = await browser.getWindowRect();
    const box = await browser.execute(() => window.__yui.characterBox());
    const x = Math.round(before.x + box.x + box.width / 2);
    const y = Math.round(before.y + box.y + box.height * 0.45);
    // A click in place: no drag.
    xdotool("mousemove", String(x), String(y));
    await browser.pause(300);
    xdotool("click", "1");
    await browser.pause(800);
    assert.deepEqual(await browser.getWindowRect(), before, "a click does not move her");
    // Press, move 120 px right and 40 down in steps, release: the window follows.
    xdotool("mousedown", "1");
    for (let i = 1; i <= 12; i++) {
      xdotool("mousemove", String(x + i * 10), String(y + Math.round((i * 40) / 12)));
      await browser.pause(40);
    }
    xdotool("mouseup", "1");
    // Let go, she lands (falls or steps to the floor under her); wait until the window rests.
    let after = await browser.getWindowRect();
    await browser.waitUntil(
      async () => {
        await browser.pause(300);
        const now = await browser.getWindowRect();
        const still = now.x === after.x && now.y === after.y && now.x !== before.x;
        after = now;
        return still;
      },
      { timeout: 10_000, timeoutMsg: "the window did not follow the drag, or never came to rest" },
    );
    t.diagnostic(`before ${JSON.stringify(before)}, after ${JSON.stringify(after)}`);
    assert.ok(Math.abs(after.x - before.x - 120) <= 30, `moved about 120 px right: ${after.x - before.x}`);
    assert.equal(after.y + after.height - FEET, 800, "let go, she stands on the floor (the bottom of the screen)");
  } finally {
    await screenshot(t, browser, "drag");
  }
});
