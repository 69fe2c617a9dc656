// The screen end to end: with "Attach the screen to each turn" on, a typed
// message leaves with a JPEG of display 0 and the `screenshot source:` line,
// and the pet shows its eye badge; with `look.screen` off, the agent's
// `look { at: "screen" }` is refused at once, the pet offers the switch, and
// Turn on saves it in the settings.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { startMock, waitFor } from "./harness.mjs";
import { launch, pageState, screenshot, textOf, typeAndEnter, useDisplay, waitReady } from "./app.mjs";

useDisplay();

const MiB = 1024 * 1024;

/** The frames the mock received so far (GET /__mock/received). */
async function received(baseUrl) {
  try {
    return await (await fetch(`${baseUrl}/__mock/received`)).json();
  } catch {
    return [];
  }
}

/** Wait for the first received frame of `type` matching `pick` and return it. */
async function frameOf(baseUrl, type, pick = () => true, ms = 30_000) {
  let found = null;
  await waitFor(async () => (found = (await received(baseUrl)).find((f) => f.type === type && pick(f)) ?? null) !== null, ms);
  const types = (await received(baseUrl)).map((f) => f.type).join(", ");
  assert.ok(found, `the mock never received a ${type} frame; got ${types || "nothing"}`);
  return found;
}

/** The box of element `id` and the window's size, CSS pixels. */
function boxOf(browser, id) {
  return browser.execute((i) => {
    const r = document.getElementById(i).getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, w: innerWidth, h: innerHeight };
  }, id);
}

const inside = (b) => b.left >= 0 && b.top >= 0 && b.right <= b.w && b.bottom <= b.h;

test("a turn carries the screen and the pet shows that it is watched", { timeout: 240_000 }, async (t) => {
  const baseUrl = await startMock(path.join(import.meta.dirname, "scenarios/screenshot_turn.json"), { maxTurnBytes: 2 * MiB });
  const settings = JSON.stringify({
    chat_api: "push",
    chat_base_url: baseUrl,
    key: "k",
    screenshot: { enabled: true, allowRequests: false, source: { kind: "monitor", index: 0 } },
  });
  const { browser, close } = await launch("screenshot", settings);
  try {
    await waitReady(browser);
    await browser.waitUntil(() => browser.execute(() => window.__yui.ready()), { timeout: 60_000, timeoutMsg: "the character never loaded" });
    const badge = await browser.$("#screen-watch");
    await badge.waitForDisplayed({ timeout: 10_000, timeoutMsg: "the screen badge never showed" });
    const box = await boxOf(browser, "screen-watch");
    assert.ok(inside(box), `the badge is inside the window: ${JSON.stringify(box)}`);
    const character = await browser.execute(() => window.__yui.characterBox());
    assert.ok(box.bottom <= character.y + character.height * 0.12, `the badge stays above her face: badge ${JSON.stringify(box)}, character ${JSON.stringify(character)}`);
    assert.equal(await browser.execute((x, y) => window.__yui.hitAt(x, y), (box.left + box.right) / 2, (box.top + box.bottom) / 2), true, "the badge takes the mouse");

    await typeAndEnter(browser, "what do you see");
    const turn = await frameOf(baseUrl, "turn", (f) => f.text === "what do you see");
    t.diagnostic(`client_context:\n${turn.client_context}`);
    assert.match(turn.client_context, /screenshot source: monitor 0\b/);
    assert.ok(Array.isArray(turn.images), `the turn carries images: ${JSON.stringify(Object.keys(turn))}`);
    assert.equal(turn.images.length, 1, "one picture: the screen");
    assert.match(turn.images[0], /^data:image\/jpeg;base64,[A-Za-z0-9+/]/);
    assert.ok(turn.images[0].length < 2 * MiB, "the picture fits max_turn_bytes");
    await browser.waitUntil(async () => !(await pageState(browser)).thinking, { timeout: 20_000, timeoutMsg: "the turn never ended" });
    assert.ok(await badge.isDisplayed(), "the badge stays while the screen is watched");
    await screenshot(t, browser, "screenshot-badge");

    // The inspector shows the picture that left with the block.
    const pet = await browser.getWindowHandle();
    await browser.execute(() => window.__TAURI_INTERNALS__.invoke("open_settings"));
    await browser.waitUntil(async () => (await browser.getWindowHandles()).length === 2, { timeout: 15_000, timeoutMsg: "no settings window" });
    await browser.switchToWindow((await browser.getWindowHandles()).find((h) => h !== pet));
    const thumb = await browser.$("#contexts .thumb");
    await thumb.waitForExist({ timeout: 15_000, timeoutMsg: "the inspector shows no picture" });
    assert.equal(await thumb.getAttribute("src"), turn.images[0], "the thumbnail is the picture that was sent");
    await browser.execute(() => document.getElementById("inspector").scrollIntoView());
    await screenshot(t, browser, "screenshot-inspector");
    await thumb.click();
    await (await browser.$("#picture-view")).waitForDisplayed({ timeout: 5_000, timeoutMsg: "the picture did not open larger" });
    await screenshot(t, browser, "screenshot-inspector-open");
    await (await browser.$("#picture-view")).click();
    await (await browser.$("#settings")).waitForDisplayed({ timeout: 5_000 });
    await browser.switchToWindow(pet);
  } finally {
    await close();
  }
});

test("a look at the screen while the switch is off answers at once, the pet offers the switch, and Turn on saves it", { timeout: 240_000 }, async (t) => {
  const baseUrl = await startMock(path.join(import.meta.dirname, "scenarios/screen_request.json"));
  const settings = JSON.stringify({ chat_api: "push", chat_base_url: baseUrl, key: "k" });
  const { browser, close, dataDir } = await launch("screen-request", settings);
  try {
    await waitReady(browser);
    assert.equal(await browser.$("#screen-watch").isDisplayed(), false, "no badge while the screen is not attached");
    await typeAndEnter(browser, "look at this");

    const result = await frameOf(baseUrl, "tool_result", (f) => f.id === "look-1");
    assert.equal(result.result, "error: look.screen is switched off", "refused at once, not held for the user");
    const notice = await browser.$("#screen-notice");
    await notice.waitForDisplayed({ timeout: 10_000, timeoutMsg: "the offer never showed" });
    assert.match(await textOf(browser, "screen-notice-text"), /see your screen/i);
    const box = await boxOf(browser, "screen-notice");
    assert.ok(inside(box), `the notice is inside the window: ${JSON.stringify(box)}`);
    const turnOn = await browser.$("#screen-allow");
    const a = await turnOn.getLocation();
    const size = await turnOn.getSize();
    assert.equal(await browser.execute((x, y) => window.__yui.hitAt(x, y), a.x + size.width / 2, a.y + size.height / 2), true, "the buttons take the mouse");
    await screenshot(t, browser, "screen-notice");

    await turnOn.click();
    await notice.waitForDisplayed({ reverse: true, timeout: 10_000, timeoutMsg: "the notice stayed after Turn on" });
    const file = path.join(dataDir, "settings.json");
    const saved = await waitFor(() => JSON.parse(fs.readFileSync(file, "utf8")).screenshot?.allowRequests === true, 10_000);
    assert.ok(saved, `allowRequests is on in ${file}: ${fs.readFileSync(file, "utf8")}`);
  } finally {
    await screenshot(t, browser, "screen-notice-after");
    await close();
  }
});

test("the Screen & tools settings save without a new session and set a relation by hand", { timeout: 240_000 }, async (t) => {
  const baseUrl = await startMock();
  const { browser, close, dataDir } = await launch("screen-settings", JSON.stringify({ chat_api: "push", chat_base_url: baseUrl, key: "k" }));
  try {
    await waitReady(browser);
    const refused = await browser.executeAsync((done) => {
      window.__TAURI_INTERNALS__.invoke("list_relations").then(() => done(null), (e) => done(e));
    });
    assert.equal(refused?.code, "closed", "the pet may not list relations");
    const pet = await browser.getWindowHandle();
    await browser.execute(() => window.__TAURI_INTERNALS__.invoke("open_settings"));
    await browser.waitUntil(async () => (await browser.getWindowHandles()).length === 2, { timeout: 15_000, timeoutMsg: "no settings window" });
    await browser.switchToWindow((await browser.getWindowHandles()).find((h) => h !== pet));
    const url = await browser.$('input[name="chat_base_url"]');
    await browser.waitUntil(async () => (await url.getValue()) === baseUrl, { timeout: 15_000, timeoutMsg: "the settings did not load" });

    // Relations: none yet, so a neutral row for the user ("you") to set.
    const userRow = await browser.$('#relations tr[data-target="user"]');
    await userRow.waitForExist({ timeout: 10_000, timeoutMsg: "no user row in the relations list" });
    const value = await userRow.$("input.relation-value");
    await value.setValue("4");
    await (await userRow.$("button")).click();
    await browser.waitUntil(async () => /you: set to 4 \(warm\)/.test(await textOf(browser, "relations-message")), {
      timeout: 10_000,
      timeoutMsg: "the relation was not set",
    });
    assert.match(await textOf(browser, "relations"), /you\s*warm/);
    assert.match(await textOf(browser, "relations"), /set by the user/);

    // Switches save with the form and reach the live session without a new one.
    for (const name of ["screenshot_enabled", "allow_requests", "browser"]) await (await browser.$(`input[name="${name}"]`)).click();
    await (await browser.$('input[name="screen_kind"][value="window"]')).click();
    await (await browser.$('input[name="screen_app"]')).setValue("firefox");
    await browser.execute(() => document.getElementById("screen-tools").scrollIntoView());
    await screenshot(t, browser, "settings-screen-tools");
    await (await browser.$('button[type="submit"]')).click();
    await browser.waitUntil(async () => (await textOf(browser, "message")) === "Saved.", { timeout: 10_000, timeoutMsg: "not saved" });
    const saved = JSON.parse(fs.readFileSync(path.join(dataDir, "settings.json"), "utf8"));
    assert.deepEqual(saved.screenshot, { enabled: true, allowRequests: true, source: { kind: "window", app: "firefox", title: "" } });
    assert.equal(saved.browser, true);
    assert.equal(saved.relations, true);

    await browser.switchToWindow(pet);
    await (await browser.$("#screen-watch")).waitForDisplayed({ timeout: 10_000, timeoutMsg: "the live session never said the screen is watched" });
    await browser.pause(500);
    assert.equal((await received(baseUrl)).filter((f) => f.type === "hello").length, 1, "no new session: one hello only");
  } finally {
    await screenshot(t, browser, "screen-settings-pet");
    await close();
  }
});
