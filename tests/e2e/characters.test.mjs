// Two characters on one desktop (docs/characters.md): a data directory whose
// registry opens Yui (main) and Ann. Each has her own pet window and session
// against yui-mock over Responses: both windows on screen side by side, not
// on each other; a message typed into each window is answered in that
// window's bubble; Ann's context (her window's inspector) carries the
// `overheard:` block with what Yui and the user said; in the chat window,
// `@` offers the names and `@everyone` is answered by Yui, then Ann, and the
// one view shows every character's messages in order, each labeled; the
// settings' Characters section closes Ann, opens her again and makes her
// main (the windows then show each other's character, without the old one's
// bubble).

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { startMock } from "./harness.mjs";
import { launch, pageState, recordBubble, screenshot, typeAndEnter, useDisplay } from "./app.mjs";

useDisplay();

/** The data directory of the running app (set when it is seeded). */
let dataDir = "";

/** What the data directory holds before the app starts: the registry and Ann's own settings (her own model). */
function twoCharacters(settings) {
  return (dir) => {
    dataDir = dir;
    const registry = { presets: [{ name: "Yui", open: true }, { name: "Ann", open: true }], main: "Yui", root: "Yui" };
    fs.writeFileSync(path.join(dir, "characters.json"), JSON.stringify(registry));
    fs.mkdirSync(path.join(dir, "characters", "ann"), { recursive: true });
    fs.writeFileSync(path.join(dir, "characters", "ann", "settings.json"), JSON.stringify({ ...JSON.parse(settings), model: "ann-model" }));
  };
}

/** Wait until the page in the current window has its character and a session; its state then. */
async function settled(browser, who) {
  await browser.waitUntil(() => browser.execute(() => window.__yui.ready()), { timeout: 60_000, timeoutMsg: `${who}: the character never loaded` });
  await browser.waitUntil(async () => (await pageState(browser)).status.state === "stateless", { timeout: 30_000, timeoutMsg: `${who}: no session` });
}

/** Type `text` into the current window's composer and wait for `reply` in its bubble and the turn's end. */
async function answered(browser, who, text, reply) {
  const shown = await recordBubble(browser);
  await typeAndEnter(browser, text);
  await browser.waitUntil(async () => (await shown()).some((s) => s.includes(reply)), { timeout: 30_000, timeoutMsg: `${who}'s bubble never showed ${JSON.stringify(reply)}` });
  await browser.waitUntil(async () => !(await pageState(browser)).thinking, { timeout: 30_000, timeoutMsg: `${who}'s turn never ended` });
  assert.equal((await pageState(browser)).error, null, `${who}: no error line`);
}

test("two characters stand side by side, each answers in her own window, and Ann overhears Yui", { timeout: 300_000 }, async (t) => {
  const baseUrl = await startMock();
  const settings = JSON.stringify({
    chat_api: "responses",
    chat_base_url: baseUrl,
    key: "k",
    model: "yui-mock",
    reactions: { schedule: false, idle_cues: false, screen_transitions: false, away_after_min: 120 },
  });
  const { browser, close } = await launch("characters", settings, { seed: twoCharacters(settings) });
  const yui = await browser.getWindowHandle();
  try {
    await browser.waitUntil(async () => (await browser.getWindowHandles()).length === 2, { timeout: 30_000, timeoutMsg: "Ann's window never opened" });
    const ann = (await browser.getWindowHandles()).find((h) => h !== yui);

    // Each window shows its own character, on screen, and none stands on the other.
    const rects = {};
    for (const [who, handle] of [["Yui", yui], ["Ann", ann]]) {
      await browser.switchToWindow(handle);
      await settled(browser, who);
      const placeholder = await browser.execute(() => document.getElementById("composer-input").placeholder);
      assert.equal(placeholder, `Talk to ${who}…`, `${who}'s composer names her`);
      await browser.waitUntil(async () => (await browser.getWindowRect()).y > 0, { timeout: 15_000, timeoutMsg: `${who}'s window was never placed` });
      rects[who] = await browser.getWindowRect();
      t.diagnostic(`${who}: ${JSON.stringify(rects[who])}`);
    }
    for (const r of Object.values(rects)) {
      assert.ok(r.x >= 0 && r.y >= 0 && r.x + r.width <= 1280 && r.y + r.height <= 800 + r.height / 4, `on the 1280×800 display: ${JSON.stringify(r)}`);
    }
    const [a, b] = [rects.Yui, rects.Ann];
    const apart = a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
    assert.ok(apart, `the two windows overlap: ${JSON.stringify(rects)}`);

    // A message to each, typed into her own window (clickable: the composer takes the click and the keys).
    await browser.switchToWindow(yui);
    await answered(browser, "Yui", "hello there", "Hi! I'm Yui.");
    await browser.switchToWindow(ann);
    await answered(browser, "Ann", "hi Ann, how are you?", "Hi! I'm Yui.");

    // Ann's turn carried what she overheard: the user's line to Yui and Yui's reply.
    const blocks = (await browser.execute(() => window.__TAURI_INTERNALS__.invoke("recent_contexts"))).map((c) => c.block);
    const last = blocks.at(-1) ?? "";
    t.diagnostic(last);
    const lines = last.split("\n");
    const header = lines.findIndex((l) => l.startsWith("overheard: Yui ↔ user"));
    assert.ok(header >= 0, "Ann's context has an overheard block of Yui's");
    const heard = [];
    for (const l of lines.slice(header + 1)) {
      if (!l.startsWith("  ")) break;
      heard.push(l.trim());
    }
    assert.match(heard[0] ?? "", /^user: "?hello there/, `the user's line to Yui comes first: ${JSON.stringify(heard)}`);
    assert.ok(heard.some((l) => /^Yui: "?Hi! I'm Yui\./.test(l)), `Yui's reply, labelled with her name: ${JSON.stringify(heard)}`);
    assert.ok(!heard.some((l) => l.includes("how are you")), "Ann's own message is not something she overheard");

    await browser.switchToWindow(yui);
    const yuiBlocks = (await browser.execute(() => window.__TAURI_INTERNALS__.invoke("recent_contexts"))).map((c) => c.block);
    assert.doesNotMatch(yuiBlocks.at(-1) ?? "", /overheard:/, "Yui spoke first: nothing to overhear");
    await screenshot(t, browser, "characters");

    // The chat window: `@` offers the names (Tab takes the first), and
    // `@everyone` is answered by Yui, then Ann, who overhears Yui's answer.
    await browser.execute(() => window.__TAURI_INTERNALS__.invoke("open_chat"));
    await browser.waitUntil(async () => (await browser.getWindowHandles()).length === 3, { timeout: 15_000, timeoutMsg: "no chat window" });
    const chatWindow = (await browser.getWindowHandles()).find((h) => h !== yui && h !== ann);
    await browser.switchToWindow(chatWindow);
    const chatInput = await browser.$("#chat-input");
    await chatInput.waitForExist({ timeout: 15_000 });
    await browser.waitUntil(async () => {
      await chatInput.click();
      await browser.execute(() => {
        const input = document.getElementById("chat-input");
        input.value = "";
        input.dispatchEvent(new Event("input"));
      });
      await chatInput.addValue("@A");
      return (await browser.execute(() => document.getElementById("mentions").textContent)) === "@Ann";
    }, { timeout: 15_000, timeoutMsg: "@A never offered @Ann" });
    await browser.keys(["Tab"]);
    assert.equal(await chatInput.getValue(), "@Ann ", "Tab takes the name");
    await browser.execute(() => {
      const input = document.getElementById("chat-input");
      input.value = "";
      input.dispatchEvent(new Event("input"));
    });
    await chatInput.addValue("@everyone good night");
    await browser.keys(["Enter"]);
    const contexts = async (handle) => {
      await browser.switchToWindow(handle);
      return (await browser.execute(() => window.__TAURI_INTERNALS__.invoke("recent_contexts"))).map((c) => c.block);
    };
    let annLast = "";
    await browser.waitUntil(
      async () => {
        annLast = (await contexts(ann)).at(-1) ?? "";
        return annLast.includes("addressed to everyone");
      },
      { timeout: 60_000, timeoutMsg: "Ann never got @everyone's turn" },
    );
    await browser.switchToWindow(ann);
    await browser.waitUntil(async () => !(await pageState(browser)).thinking, { timeout: 30_000, timeoutMsg: "Ann's @everyone turn never ended" });
    t.diagnostic(annLast);
    const yuiLast = (await contexts(yui)).at(-1) ?? "";
    assert.match(yuiLast, /trigger: user message \(addressed to everyone\)/, "Yui got it first, addressed to everyone");
    assert.match(annLast, /trigger: user message \(addressed to everyone\)/, "then Ann");
    assert.match(annLast, /user: "@everyone good night"/, "Ann overheard the line to Yui");
    const heardAfter = annLast.slice(annLast.indexOf('user: "@everyone good night"'));
    assert.match(heardAfter.split("\n")[1] ?? "", /^\s+Yui: /, "and Yui's answer to it, before her own turn");

    // The chat window's one view: both conversations, in order, each message
    // labeled with who answered or whom the user spoke to; the line to
    // everyone shows once.
    await browser.switchToWindow(chatWindow);
    const shownRows = () =>
      browser.execute(() =>
        [...document.querySelectorAll("#transcript .msg")].map((el) => ({
          role: el.dataset.role,
          who: el.dataset.character,
          text: (el.querySelector(".bubble, .answer-text")?.textContent ?? "").trim(),
          portrait: el.querySelector(".portrait")?.textContent ?? null,
        })),
      );
    const labels = (rows) => rows.map((r) => `${r.role}:${r.who}`);
    const expected = ["user:Yui", "assistant:Yui", "user:Ann", "assistant:Ann", "user:everyone", "assistant:Yui", "assistant:Ann"];
    let together = [];
    await browser.waitUntil(
      async () => {
        together = await shownRows();
        return JSON.stringify(labels(together)) === JSON.stringify(expected);
      },
      { timeout: 30_000, timeoutMsg: `the chat window never showed both characters in order: ${JSON.stringify(together)}` },
    );
    t.diagnostic(JSON.stringify(together));
    assert.equal(together[0].text, "hello there");
    assert.equal(together[2].text, "hi Ann, how are you?", "the line typed into Ann's own window");
    assert.equal(together.filter((r) => r.text === "@everyone good night").length, 1, "the line to everyone shows once");
    assert.equal(together[3].portrait, "A", "Ann's answer carries her portrait");
    assert.equal(together[5].portrait, "Y", "Yui's carries hers");
    assert.ok(together.slice(5).every((r) => r.text.includes('You said: "@everyone good night"')), `both answered the line to everyone: ${JSON.stringify(together.slice(5))}`);
    await screenshot(t, browser, "characters-chat");
    await browser.closeWindow();
    await browser.waitUntil(async () => (await browser.getWindowHandles()).length === 2, { timeout: 15_000, timeoutMsg: "the chat window stayed" });
    await browser.switchToWindow(yui);

    // The settings' Characters section lists both; closing Ann there takes
    // her window off the desktop, opening her brings it back.
    await browser.execute(() => window.__TAURI_INTERNALS__.invoke("open_settings"));
    await browser.waitUntil(async () => (await browser.getWindowHandles()).length === 3, { timeout: 15_000, timeoutMsg: "no settings window" });
    const settingsWindow = (await browser.getWindowHandles()).find((h) => h !== yui && h !== ann);
    await browser.switchToWindow(settingsWindow);
    const rows = () => browser.execute(() => [...document.querySelectorAll("#characters-list > li")].map((li) => li.textContent.replace(/\s+/g, " ").trim()));
    await browser.waitUntil(async () => (await rows()).length === 2, { timeout: 15_000, timeoutMsg: "the Characters section never listed two" });
    const listed = await rows();
    t.diagnostic(JSON.stringify(listed));
    assert.match(listed[0], /^Yui\s*main$/, "Yui first, main, not removable (her files are the data folder)");
    assert.match(listed[1], /^Ann\s*Make main\s*Remove…$/, "Ann beside her");
    const annOpen = () => browser.$('#characters-list li[data-name="Ann"] input[type="checkbox"]');
    await (await annOpen()).click();
    await browser.waitUntil(async () => !(await browser.getWindowHandles()).includes(ann), { timeout: 30_000, timeoutMsg: "Ann's window stayed after she was closed" });
    assert.equal((await browser.getWindowHandles()).length, 2, "Yui's pet and the settings");
    await (await annOpen()).click();
    await browser.waitUntil(async () => (await browser.getWindowHandles()).length === 3, { timeout: 30_000, timeoutMsg: "Ann's window never came back" });
    await screenshot(t, browser, "characters-settings");
    const back = (await browser.getWindowHandles()).find((h) => h !== yui && h !== settingsWindow);
    await browser.switchToWindow(back);
    await settled(browser, "Ann, back");

    // The settings window edits another character: picked at the top, her
    // model shows and is saved in her own folder, main's stays as it was.
    await browser.switchToWindow(settingsWindow);
    const model = () => browser.execute(() => document.querySelector('input[name="model"]').value);
    assert.equal(await model(), "yui-mock", "main's settings first");
    assert.equal(await browser.execute(() => document.getElementById("editing-row").hidden), false, "the picker shows with two characters");
    await browser.execute(() => {
      const picker = document.getElementById("editing");
      picker.value = "Ann";
      picker.dispatchEvent(new Event("change"));
    });
    await browser.waitUntil(async () => (await model()) === "ann-model", { timeout: 15_000, timeoutMsg: "Ann's settings never showed" });
    await (await browser.$('input[name="model"]')).setValue("ann-model-2");
    await (await browser.$('button[type="submit"]')).click();
    await browser.waitUntil(async () => (await browser.execute(() => document.getElementById("message").textContent)) === "Saved.", { timeout: 30_000, timeoutMsg: "Ann's settings were never saved" });
    const annFile = fs.readFileSync(path.join(dataDir, "characters", "ann", "settings.json"), "utf8");
    const rootFile = fs.readFileSync(path.join(dataDir, "settings.json"), "utf8");
    assert.match(annFile, /"ann-model-2"/, "saved in Ann's folder");
    assert.doesNotMatch(rootFile, /ann-model/, "main's settings untouched");
    assert.match(rootFile, /"yui-mock"/);

    // A Tavern card makes a new character, closed, and the window edits her next.
    const card = JSON.stringify({ spec: "chara_card_v2", data: { name: "Mio", description: "A sleepy cat girl." } });
    await browser.execute((json) => {
      const input = document.getElementById("character-card");
      const files = new DataTransfer();
      files.items.add(new File([json], "mio.json", { type: "application/json" }));
      input.files = files.files;
      input.dispatchEvent(new Event("change"));
    }, card);
    await browser.waitUntil(async () => (await rows()).length === 3, { timeout: 15_000, timeoutMsg: "the card never made a character" });
    assert.match((await rows())[2], /^Mio\s*Make main\s*Remove…$/, "Mio, added last");
    await browser.waitUntil(async () => (await browser.execute(() => document.getElementById("card-name").textContent)) === "Card: Mio", { timeout: 15_000, timeoutMsg: "the window never edited Mio" });
    assert.equal(await browser.execute(() => document.getElementById("editing").value), "Mio");
    assert.equal((await browser.getWindowHandles()).length, 3, "she is added closed: no window for her");
    await screenshot(t, browser, "characters-edit");

    // Ann becomes main: main's window (the first) shows her now, and the
    // window beside it shows Yui; each names the character it shows.
    await browser.switchToWindow(yui);
    assert.notEqual((await pageState(browser)).bubble, "", "Yui's window shows her last words before the swap");
    await browser.switchToWindow(settingsWindow);
    await (await browser.$('#characters-list li[data-name="Ann"] button')).click();
    await browser.waitUntil(async () => /^Ann\s*main/.test((await rows())[1] ?? ""), { timeout: 30_000, timeoutMsg: "Ann never became main" });
    const placeholder = () => browser.execute(() => document.getElementById("composer-input").placeholder);
    await browser.switchToWindow(yui);
    await browser.waitUntil(async () => (await placeholder()) === "Talk to Ann…", { timeout: 30_000, timeoutMsg: "main's window never showed Ann" });
    // Yui's last words went with her: the bubble of the window that shows Ann now is empty.
    await browser.waitUntil(async () => (await pageState(browser)).bubble === "", { timeout: 15_000, timeoutMsg: "main's window kept Yui's bubble after Ann became main" });
    await browser.switchToWindow(back);
    await browser.waitUntil(async () => (await placeholder()) === "Talk to Yui…", { timeout: 30_000, timeoutMsg: "the window beside main never showed Yui" });
    await settled(browser, "Yui, beside main");
  } finally {
    await screenshot(t, browser, "characters-end");
    await close();
  }
});
