// The settings window end to end: opened from the pet, it changes the
// backend (the pet's session moves to the new one) and the key.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { startMock } from "./harness.mjs";
import { launch, pageState, screenshot, useDisplay, waitReady } from "./app.mjs";

useDisplay();

test("the settings window moves the pet to another backend", { timeout: 180_000 }, async (t) => {
  const first = await startMock();
  const second = await startMock(path.join(import.meta.dirname, "scenarios/second_backend.json"));
  const { browser, close, dataDir } = await launch("settings", JSON.stringify({ chat_base_url: first, key: "k" }));
  try {
    await waitReady(browser);
    const pet = await browser.getWindowHandle();
    await browser.execute(() => window.__TAURI_INTERNALS__.invoke("open_settings"));
    await browser.waitUntil(async () => (await browser.getWindowHandles()).length === 2, { timeout: 15_000, timeoutMsg: "no settings window" });
    const settings = (await browser.getWindowHandles()).find((h) => h !== pet);
    await browser.switchToWindow(settings);
    const url = await browser.$('input[name="chat_base_url"]');
    await url.waitForExist({ timeout: 15_000 });
    await browser.waitUntil(async () => (await url.getValue()) === first, { timeout: 10_000, timeoutMsg: "the settings did not load" });
    // The desktop self-test: Xvfb with xcompmgr and no window manager passes every check.
    const check = await browser.$("#desktop-check");
    await browser.waitUntil(async () => /Desktop check: X11\./.test(await check.getText()), { timeout: 10_000, timeoutMsg: "the desktop check never showed" });
    const checks = await browser.execute(() => [...document.querySelectorAll("#desktop-check li")].map((li) => li.dataset.ok + " " + li.textContent));
    t.diagnostic(`desktop check: ${JSON.stringify(checks)}`);
    assert.equal(checks.length, 4);
    assert.ok(checks.every((c) => c.startsWith("true ")), `every check passes here: ${JSON.stringify(checks)}`);
    await url.setValue(second);
    await (await browser.$('input[name="key"]')).setValue("k2");
    await (await browser.$('button[type="submit"]')).click();
    await browser.waitUntil(async () => (await browser.execute(() => document.getElementById("message").textContent)) === "Saved.", {
      timeout: 10_000,
      timeoutMsg: "the settings were not saved",
    });
    await screenshot(t, browser, "settings");
    // A bad URL is refused with a reason, and nothing is saved.
    await url.setValue("gopher://nowhere");
    await (await browser.$('button[type="submit"]')).click();
    await browser.waitUntil(async () => /chat_base_url/.test(await browser.execute(() => document.getElementById("message").textContent)), {
      timeout: 10_000,
      timeoutMsg: "a bad URL was not refused",
    });

    // Pick a character: the file is copied into the data folder and becomes the character.
    const info = await browser.executeAsync(async (done) => {
      const bytes = new Uint8Array(await (await fetch("/characters/yui.vrm")).arrayBuffer());
      window.__TAURI_INTERNALS__
        .invoke("import_character", bytes, { headers: { "x-file-name": "My Yui.vrm" } })
        .then(done, (e) => done({ error: e }));
    });
    t.diagnostic(`imported: ${JSON.stringify(info)}`);
    assert.equal(info.name, "Yui");
    assert.equal(info.version, "v1");
    const copied = path.join(dataDir, "characters", "My_Yui.vrm");
    assert.ok(fs.existsSync(copied), "the .vrm was copied into the data folder");
    assert.equal(JSON.parse(fs.readFileSync(path.join(dataDir, "settings.json"), "utf8")).character, copied);
    const notVrm = await browser.executeAsync((done) => {
      const bytes = new TextEncoder().encode("this is not a glb file at all");
      Promise.resolve()
        .then(() => window.__TAURI_INTERNALS__.invoke("import_character", bytes, { headers: { "x-file-name": "junk.vrm" } }))
        .then(
          () => done("accepted"),
          (e) => done(JSON.stringify(e)),
        );
    });
    t.diagnostic(`junk: ${notVrm}`);
    assert.match(notVrm, /not a VRM file/, "a file that is not a VRM is refused with a reason");

    await browser.switchToWindow(pet);
    await waitReady(browser);
    await browser.waitUntil(() => browser.execute(() => window.__yui.ready()), { timeout: 30_000, timeoutMsg: "the pet did not load the picked character" });
    const log = await browser.execute(() => window.__yui.state().status);
    t.diagnostic(`pet status after the change: ${JSON.stringify(log)}`);
    // The pet now talks to the second backend: a turn reaches it and is answered.
    await browser.execute(() => window.__yui.send("hello"));
    await browser.waitUntil(async () => (await pageState(browser)).bubble.includes("second backend"), {
      timeout: 30_000,
      timeoutMsg: "the reply did not come from the second backend",
    });
    assert.equal((await pageState(browser)).error, null);
  } finally {
    await close();
  }
});
