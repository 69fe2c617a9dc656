// Her body on a real X desktop: Xvfb with openbox as the window manager and
// two other apps' windows (xmessage). The agent's `body_action` calls are
// pushed through the mock (POST /__mock/push) and answered by the app; the
// user's hold is the real X pointer (xdotool). She sits on a window, falls
// when it moves away, peeks, stands down, falls when dropped in the air
// (the `dropped` cue's turn), lets a click on a transparent pixel through
// to the window behind, and comes back with the shortcut.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { before, test } from "node:test";
import { ARTIFACTS, captureDisplay, requireExecutable, start, startMock, waitFor } from "./harness.mjs";
import { display, launch, screenshot, useDisplay, waitReady } from "./app.mjs";

useDisplay();

/** Soles above the pet window's bottom (configs/avatar.json `body.feet_from_bottom`). */
const FEET = 35;
/** Hips above the pet window's bottom (`body.seat_from_bottom`). */
const SEAT = 105;

function x(cmd, ...args) {
  const bin = requireExecutable(cmd, `apt-get install ${cmd === "xmessage" ? "x11-utils" : cmd}`);
  const r = spawnSync(bin, args, { env: { ...process.env, DISPLAY: `:${display}` }, encoding: "utf8", timeout: 10_000 });
  assert.equal(r.status, 0, `${cmd} ${args.join(" ")} failed: ${r.stderr}`);
  return r.stdout.trim();
}

/** The frame geometry of the first window named `name` (xdotool --shell). */
function geometry(name) {
  const id = x("xdotool", "search", "--name", `^${name}$`).split("\n")[0];
  const out = x("xdotool", "getwindowgeometry", "--shell", id);
  const get = (k) => Number(new RegExp(`^${k}=(-?\\d+)$`, "m").exec(out)[1]);
  return { id, x: get("X"), y: get("Y"), width: get("WIDTH"), height: get("HEIGHT") };
}

before(async () => {
  requireExecutable("openbox", "apt-get install openbox");
  const wmHome = fs.mkdtempSync(path.join(os.tmpdir(), "yui-e2e-openbox-"));
  const managed = () => /window id/.test(spawnSync("xprop", ["-root", "_NET_SUPPORTING_WM_CHECK"], { env: { ...process.env, DISPLAY: `:${display}` }, encoding: "utf8" }).stdout ?? "");
  for (let attempt = 0; attempt < 3 && !managed(); attempt++) {
    start(`openbox-${attempt}`, "openbox", ["--sm-disable"], { env: { DISPLAY: `:${display}`, HOME: wmHome, XDG_CONFIG_HOME: wmHome } });
    await waitFor(managed, 5_000);
  }
  assert.ok(managed(), "openbox never managed the display; see tests/e2e/artifacts/openbox-*.log");
  // Two other apps' windows: "Notes" in the lower right, "Other" top left.
  start("xmessage-notes", "xmessage", ["-geometry", "560x260+660+470", "-title", "Notes", "todo: water the plants"], { env: { DISPLAY: `:${display}` } });
  start("xmessage-other", "xmessage", ["-geometry", "300x160+40+60", "-title", "Other", "another window"], { env: { DISPLAY: `:${display}` } });
  assert.ok(await waitFor(() => spawnSync("xdotool", ["search", "--name", "^Notes$"], { env: { ...process.env, DISPLAY: `:${display}` } }).status === 0, 10_000), "the Notes window never appeared");
});

/** The frames the mock received so far. */
async function received(baseUrl) {
  try {
    return await (await fetch(`${baseUrl}/__mock/received`)).json();
  } catch {
    return [];
  }
}

/** Push a `body_action` call and return its answer. */
async function act(baseUrl, id, args) {
  const call = { type: "tool_call", id, turn_id: "e2e-body", name: "body_action", arguments: args };
  const pushed = await fetch(`${baseUrl}/__mock/push`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(call) });
  assert.equal(pushed.status, 200, "the mock pushed the call");
  let found = null;
  await waitFor(async () => (found = (await received(baseUrl)).find((f) => f.type === "tool_result" && f.id === id) ?? null) !== null, 30_000);
  assert.ok(found, `no tool_result for ${id}`);
  return found.result;
}

const bodyNow = (browser) => browser.executeAsync((done) => window.__TAURI_INTERNALS__.invoke("body_now").then(done, (e) => done({ error: String(e) })));

function display_png(t, name) {
  const file = path.join(ARTIFACTS, `${name}-display.png`);
  if (captureDisplay(display, file)) t.diagnostic(`display: ${file}`);
}

test("she sits on a window, falls when it moves, peeks, stands down, falls when dropped, and clicks pass through", { timeout: 300_000 }, async (t) => {
  const baseUrl = await startMock();
  const { browser, close } = await launch("body", JSON.stringify({ chat_api: "push", chat_base_url: baseUrl, key: "k" }));
  try {
    await waitReady(browser);
    await browser.waitUntil(() => browser.execute(() => window.__yui.ready()), { timeout: 60_000, timeoutMsg: "no character" });
    const notes = geometry("Notes");
    // Both windows are Xmessage's: the frontmost one is the one she sits on.
    x("xdotool", "windowactivate", "--sync", notes.id);
    t.diagnostic(`Notes ${JSON.stringify(notes)}, pet ${JSON.stringify(await browser.getWindowRect())}`);

    const lookCall = { type: "tool_call", id: "perch", turn_id: "e2e-body", name: "look", arguments: { at: "perch_targets" } };
    await fetch(`${baseUrl}/__mock/push`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(lookCall) });
    await waitFor(async () => (await received(baseUrl)).some((f) => f.type === "tool_result" && f.id === "perch"), 10_000);
    t.diagnostic(`perch targets: ${(await received(baseUrl)).find((f) => f.id === "perch")?.result}`);
    // Sit on the Notes window: her hips on its top edge.
    assert.equal(await act(baseUrl, "sit", { action: "sit_on_window", app: "Xmessage" }), "ok: sitting on Xmessage");
    let pet = await browser.getWindowRect();
    t.diagnostic(`sitting: pet ${JSON.stringify(pet)}`);
    assert.equal((await bodyNow(browser)).posture, "sitting");
    assert.ok(Math.abs(pet.y + pet.height - SEAT - notes.y) <= 30, `hips on the top edge (${pet.y + pet.height - SEAT} vs ${notes.y})`);
    assert.ok(pet.x + pet.width / 2 >= notes.x && pet.x + pet.width / 2 <= notes.x + notes.width, "over the window");
    await screenshot(t, browser, "body-sitting");
    display_png(t, "body-sitting");

    // The window moves away under her: she falls to the floor.
    x("xdotool", "windowmove", notes.id, "100", "420");
    assert.ok(await waitFor(async () => (await bodyNow(browser)).posture === "standing", 10_000), "the sit never ended when its window moved");
    assert.ok(await waitFor(async () => { pet = await browser.getWindowRect(); return pet.y + pet.height - FEET === 800; }, 10_000), `she never reached the floor: ${JSON.stringify(pet)}`);
    display_png(t, "body-fell");

    // Peek out of the screen's right edge, then stand down.
    assert.match(await act(baseUrl, "peek", { action: "peek", side: "right" }), /^ok: peeking/);
    pet = await browser.getWindowRect();
    t.diagnostic(`peeking: pet ${JSON.stringify(pet)}`);
    assert.equal((await bodyNow(browser)).posture, "peeking");
    display_png(t, "body-peeking");
    assert.equal(await act(baseUrl, "down", { action: "stand_down" }), "ok: standing");
    assert.equal(await act(baseUrl, "nowhere", { action: "sit_on_window", app: "NoSuchApp" }), "error: not_found");

    // Dropped from mid-air: hold her, lift her 260 px, let go; she falls back down.
    await browser.pause(500);
    const before = await browser.getWindowRect();
    const box = await browser.execute(() => window.__yui.characterBox());
    const px = Math.round(before.x + box.x + box.width / 2);
    const py = Math.round(before.y + box.y + box.height * 0.45);
    x("xdotool", "mousemove", String(px), String(py));
    await browser.pause(300);
    x("xdotool", "mousedown", "1");
    for (let i = 1; i <= 13; i++) {
      x("xdotool", "mousemove", String(px), String(py - i * 20));
      await browser.pause(40);
    }
    let held = null;
    const lifted = await waitFor(async () => (held = await browser.getWindowRect()).y < before.y - 150, 5_000);
    t.diagnostic(`held: ${JSON.stringify(held)} (from ${JSON.stringify(before)}); ${JSON.stringify(await bodyNow(browser))}`);
    assert.ok(lifted, "she was not lifted");
    x("xdotool", "mouseup", "1");
    assert.ok(await waitFor(async () => { pet = await browser.getWindowRect(); return pet.y + pet.height - FEET === 800; }, 10_000), `she never fell back to the floor: ${JSON.stringify(pet)}`);
    let cue = null;
    await waitFor(async () => (cue = (await received(baseUrl)).find((f) => f.type === "turn" && /proactive cue "dropped"/.test(f.client_context ?? "")) ?? null) !== null, 20_000);
    assert.ok(cue, "the drop made its cue's turn");

    // A click on a transparent pixel over the Other window reaches it.
    const other = geometry("Other");
    x("xdotool", "windowmove", other.id, String(before.x - 40), String(before.y + 40));
    await browser.pause(500);
    x("xdotool", "mousemove", String(before.x + 8), String(before.y + 60));
    await browser.waitUntil(() => browser.execute(() => window.__yui.clickThrough()), { timeout: 5_000, timeoutMsg: "the transparent corner never let the mouse through" });
    x("xdotool", "click", "1");
    assert.ok(await waitFor(() => x("xdotool", "getactivewindow", "getwindowname") === "Other", 5_000), "the click reached the window behind");
    // The shortcut brings her back interactive.
    x("xdotool", "key", "--clearmodifiers", "ctrl+shift+y");
    await browser.waitUntil(async () => (await browser.execute(() => window.__yui.clickThrough())) === false, { timeout: 5_000, timeoutMsg: "the shortcut did not make her interactive" });
  } finally {
    await screenshot(t, browser, "body");
    await close();
  }
});
