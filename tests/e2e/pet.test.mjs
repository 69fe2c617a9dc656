// The pet window end to end: the real app with the UI embedded, under Xvfb +
// xcompmgr, against yui-mock. A typed message gets its reply in the bubble
// and its expression on the character; the window's background lets the
// desktop through while the character's pixels do not.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { test } from "node:test";
import { ARTIFACTS, captureDisplay, startMock } from "./harness.mjs";
import { display, launch, pageState, recordBubble, screenshot, textOf, typeAndEnter, useDisplay, waitReady } from "./app.mjs";

useDisplay();

/** The RGB of pixel (x, y) of a PNG, read with ImageMagick. */
function pixel(file, x, y) {
  const r = spawnSync("convert", [file, "-format", `%[fx:int(255*p{${x},${y}}.r)],%[fx:int(255*p{${x},${y}}.g)],%[fx:int(255*p{${x},${y}}.b)]`, "info:"], {
    encoding: "utf8",
  });
  assert.equal(r.status, 0, `convert failed: ${r.stderr}`);
  return r.stdout.trim().split(",").map(Number);
}

const close = (a, b, tolerance = 6) => a.every((v, i) => Math.abs(v - b[i]) <= tolerance);

test("a typed message gets its reply in the bubble and its expression on the character", { timeout: 240_000 }, async (t) => {
  const baseUrl = await startMock(path.join(import.meta.dirname, "scenarios/pet_reply.json"));
  const settings = JSON.stringify({ chat_api: "push", chat_base_url: baseUrl, key: "k" });
  const { browser, close: quit } = await launch("pet", settings);
  try {
    await waitReady(browser);
    await browser.waitUntil(() => browser.execute(() => window.__yui.ready()), {
      timeout: 60_000,
      timeoutMsg: "the character never finished loading and rendering",
    });

    // Transparency: outside the character the desktop shows through, on the character it does not.
    const rect = await browser.getWindowRect();
    const box = await browser.execute(() => window.__yui.characterBox());
    t.diagnostic(`window ${JSON.stringify(rect)}, character box ${JSON.stringify(box)}`);
    assert.ok(box.width > 40 && box.height > 100, `the character has a size on screen: ${JSON.stringify(box)}`);
    await browser.pause(300);
    const shot = path.join(ARTIFACTS, "pet-transparency-display.png");
    assert.ok(captureDisplay(display, shot), "ImageMagick's import captured the display");
    const desktop = pixel(shot, 1270, 790); // far from the window: the bare root window
    const background = pixel(shot, rect.x + 6, rect.y + Math.round(box.y + box.height / 2));
    const body = pixel(shot, rect.x + Math.round(box.x + box.width / 2), rect.y + Math.round(box.y + box.height * 0.2));
    t.diagnostic(`desktop ${desktop}, window background ${background}, character ${body}`);
    assert.ok(close(background, desktop), `the window background is transparent: ${background} vs desktop ${desktop}`);
    assert.ok(!close(body, desktop, 20), `the character is opaque: ${body} vs desktop ${desktop}`);
    assert.equal(await browser.execute((x, y) => window.__yui.hitAt(x, y), 6, Math.round(box.y + box.height / 2)), false, "the background is not a hit");
    assert.equal(
      await browser.execute((x, y) => window.__yui.hitAt(x, y), Math.round(box.x + box.width / 2), Math.round(box.y + box.height * 0.2)),
      true,
      "the character is a hit",
    );

    // A typed message: thinking, then the reply in the bubble with its expression.
    const shown = await recordBubble(browser);
    await typeAndEnter(browser, "hello there");
    await browser.waitUntil(async () => (await pageState(browser)).thinking, { timeout: 10_000, timeoutMsg: "the turn never started" });
    assert.match(await textOf(browser, "pill"), /thinking/i);
    await browser.waitUntil(async () => (await shown()).some((s) => s.includes("nice to meet you")), {
      timeout: 20_000,
      timeoutMsg: "the bubble never showed the reply",
    });
    await browser.waitUntil(async () => ((await browser.execute(() => window.__yui.expressions())).surprised ?? 0) > 0.6, {
      timeout: 5_000,
      timeoutMsg: "the surprised cue never showed on the character",
    });
    await browser.waitUntil(async () => !(await pageState(browser)).thinking, { timeout: 20_000, timeoutMsg: "the turn never ended" });
    // The app speaks: a sentence shows when it starts playing, which may be after the turn ended.
    await browser.waitUntil(async () => /I'm Yui/.test(await textOf(browser, "bubble-text")), {
      timeout: 20_000,
      timeoutMsg: "the bubble never showed the second sentence",
    });
    const bubbleRect = await browser.execute(() => {
      const r = document.getElementById("bubble").getBoundingClientRect();
      return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, w: innerWidth, h: innerHeight };
    });
    assert.ok(bubbleRect.left >= 0 && bubbleRect.top >= 0 && bubbleRect.right <= bubbleRect.w && bubbleRect.bottom <= bubbleRect.h, `the bubble is inside the window: ${JSON.stringify(bubbleRect)}`);
  } finally {
    await screenshot(t, browser, "pet");
    await quit();
  }
});
