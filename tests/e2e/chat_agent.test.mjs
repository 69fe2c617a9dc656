// The chat window over the agent_chat protocol (`docs/transports.md`, "`agent_chat`"), in the real app
// against yui-mock's engine fake: approve and deny an approval card,
// regenerate and pick a version, fork, delete through the in-app
// confirmation, and attachments of each kind. What the app sent is read
// back from the mock (GET /__mock/requests).

import assert from "node:assert/strict";
import { test } from "node:test";
import { startMock, waitFor } from "./harness.mjs";
import { launch, pageState, screenshot, useDisplay } from "./app.mjs";

useDisplay();

/** Every HTTP request the mock recorded: `{path, body}`. */
async function requests(baseUrl) {
  try {
    return await (await fetch(`${baseUrl}/__mock/requests`)).json();
  } catch {
    return [];
  }
}

/** Wait for a recorded request whose path matches `re` (and `pick`), and return it. */
async function requestTo(baseUrl, re, pick = () => true) {
  let found = null;
  await waitFor(async () => (found = (await requests(baseUrl)).find((r) => re.test(r.path) && pick(r)) ?? null) !== null, 20_000);
  assert.ok(found, `no request to ${re}; got ${(await requests(baseUrl)).map((r) => r.path).join(", ")}`);
  return found;
}

/** Type `text` into the chat composer and press Enter. */
async function say(browser, text) {
  const input = await browser.$("#chat-input");
  await input.click();
  await input.addValue(text);
  await browser.keys(["Enter"]);
}

/** Click a message's hover action (`copy`, `regenerate`, `fork`, `delete`) on row `msgId`. */
async function act(browser, msgId, action) {
  const row = await browser.$(`.msg[data-msg-id="${msgId}"]`);
  await row.moveTo();
  await browser.execute((id, a) => document.querySelector(`.msg[data-msg-id="${id}"] .msg-action[data-action="${a}"]`).click(), msgId, action);
}

/** Click the first element matching `selector` (the view re-renders cards, so no element handle is kept). */
async function clickOn(browser, selector) {
  const ok = await browser.execute((sel) => {
    const el = document.querySelector(sel);
    el?.click();
    return el !== null;
  }, selector);
  assert.ok(ok, `nothing matches ${selector}`);
}

/** Wait until something matches `selector` (queried fresh each time: the view re-renders). */
async function shows(browser, selector, timeoutMsg) {
  await browser.waitUntil(() => browser.execute((sel) => document.querySelector(sel) !== null, selector), { timeout: 20_000, timeoutMsg });
}

/** The rows: id, role and the shown answer's state. */
function rows(browser) {
  return browser.execute(() =>
    [...document.querySelectorAll(".msg")].map((m) => ({
      id: m.dataset.msgId,
      role: m.dataset.role,
      state: m.querySelector(".answer")?.dataset.state ?? null,
      text: m.textContent ?? "",
    })),
  );
}

async function lastAssistant(browser) {
  return (await rows(browser)).filter((r) => r.role === "assistant").at(-1);
}

async function waitIdle(browser) {
  const streaming = () => browser.execute(() => document.querySelectorAll('.answer[data-state="streaming"]').length);
  try {
    await browser.waitUntil(async () => (await streaming()) === 0, { timeout: 30_000 });
  } catch {
    const shown = await rows(browser);
    assert.fail(`a reply never finished: ${JSON.stringify(shown)}`);
  }
}

test("agent_chat in the chat window: approvals, versions, fork, delete, attachments", { timeout: 300_000 }, async (t) => {
  const baseUrl = await startMock();
  const settings = JSON.stringify({ chat_api: "agent_chat", chat_base_url: baseUrl, key: "k" });
  const { browser, close } = await launch("chat-agent", settings);
  try {
    await browser.waitUntil(async () => (await pageState(browser)).status.state === "stateless", { timeout: 30_000, timeoutMsg: "the pet never got its session" });
    const pet = await browser.getWindowHandle();
    await (await browser.$("#chat-button")).click();
    await browser.waitUntil(async () => (await browser.getWindowHandles()).length >= 2, { timeout: 15_000, timeoutMsg: "no chat window" });
    await browser.switchToWindow((await browser.getWindowHandles()).find((h) => h !== pet));
    await (await browser.$("#chat-input")).waitForExist({ timeout: 15_000 });

    // Approve: the run waits for the card, Allow releases it with the run's own id.
    await say(browser, "please approve the listing");
    await shows(browser, '.approval-card[data-state="pending"]', "no approval card");
    await screenshot(t, browser, "chat-approval");
    await clickOn(browser, '.approval-card[data-state="pending"] [data-decision="allow"]');
    // Once the tool reports, the approval shows on its tool card (the engine's call id differs from the approval's).
    await shows(browser, '.approval-card[data-state="allowed"], .tool-card[data-approval="allowed"]', "the card did not show Allowed");
    await waitIdle(browser);
    const allowed = await requestTo(baseUrl, /^\/approve\//);
    assert.deepEqual(allowed.body, { choice: "allow" });
    assert.match((await lastAssistant(browser)).text, /The sea is calm tonight\./);
    // The allowed call ran: one tool card (not a second card for the approval), done, marked allowed, with the tool's output.
    const ran = await browser.execute(() => {
      const cards = [...document.querySelectorAll(".msg")].at(-1).querySelectorAll(".tool-card");
      return cards.length === 1 ? { state: cards[0].dataset.state, approval: cards[0].dataset.approval, text: cards[0].textContent } : null;
    });
    assert.ok(ran, "one tool card for the allowed call");
    assert.equal(ran.state, "done");
    assert.equal(ran.approval, "allowed");
    assert.match(ran.text, /execute_command/);
    assert.match(ran.text, /notes\.txt/, "the tool's output is shown");
    assert.equal(await browser.execute(() => [...document.querySelectorAll(".msg")].at(-1).querySelectorAll(".approval-card").length), 0, "the approval shows on the tool card, not as a card of its own");

    // Deny: the tool does not run and the agent says so.
    await say(browser, "approve this one too");
    await shows(browser, '.approval-card[data-state="pending"]', "no second approval card");
    await clickOn(browser, '.approval-card[data-state="pending"] [data-decision="deny"]');
    await waitIdle(browser);
    await requestTo(baseUrl, /^\/approve\//, (r) => r.body.choice === "deny");
    assert.match((await lastAssistant(browser)).text, /Okay, I won't run it\./);

    // Regenerate: a second version of the same message, with a < 2/2 > picker; stepping back shows 1/2.
    await say(browser, "tell me about the sea");
    await waitIdle(browser);
    const answer = await lastAssistant(browser);
    await act(browser, answer.id, "regenerate");
    const labelSel = `.msg[data-msg-id="${answer.id}"] .version-label`;
    const label = () => browser.execute((sel) => document.querySelector(sel)?.textContent ?? null, labelSel);
    await browser.waitUntil(async () => (await label()) !== null, { timeout: 20_000, timeoutMsg: "no version picker after Regenerate" });
    await waitIdle(browser);
    await browser.waitUntil(async () => (await label()) === "2/2", { timeout: 10_000, timeoutMsg: "the picker does not show 2/2" });
    const regen = await requestTo(baseUrl, /^\/chat$/, (r) => r.body.regenerate_of != null);
    t.diagnostic(`regenerate_of ${regen.body.regenerate_of}`);
    assert.equal((await rows(browser)).filter((r) => r.role === "user").length, 3, "no duplicate question");
    await browser.execute((id) => document.querySelector(`.msg[data-msg-id="${id}"] .version-prev`).click(), answer.id);
    await browser.waitUntil(async () => (await label()) === "1/2", { timeout: 10_000, timeoutMsg: "the picker did not step back" });
    await requestTo(baseUrl, /^\/version\/.+\/\d+\/0$/);
    await screenshot(t, browser, "chat-versions");

    // Fork from the first answer: a new current conversation with the messages up to it.
    const first = (await rows(browser)).find((r) => r.role === "assistant");
    await act(browser, first.id, "fork");
    await browser.waitUntil(async () => (await browser.$$(".conversation-item")).length === 2, { timeout: 10_000, timeoutMsg: "the fork is not listed" });
    await browser.waitUntil(async () => (await rows(browser)).length === 2, { timeout: 10_000, timeoutMsg: "the fork does not hold the first exchange" });
    await requestTo(baseUrl, /^\/fork\//);

    // Delete, through the in-app confirmation.
    await act(browser, first.id, "delete");
    await shows(browser, "#confirm-dialog", "no confirmation dialog");
    await screenshot(t, browser, "chat-delete-confirm");
    await (await browser.$('#confirm-dialog [data-confirm="yes"]')).click();
    // Deleting either message of an exchange deletes the exchange, as the engine does.
    await browser.waitUntil(async () => (await rows(browser)).length === 0, { timeout: 10_000, timeoutMsg: "the exchange was not deleted" });
    await requestTo(baseUrl, /^\/messages\//);

    // Attachments: a text file, a picture and a PDF dropped on the window; one over the limit is refused.
    await browser.execute(async () => {
      const canvas = Object.assign(document.createElement("canvas"), { width: 8, height: 8 });
      canvas.getContext("2d").fillRect(0, 0, 8, 8);
      const png = await new Promise((resolve) => canvas.toBlob(resolve, "image/png"));
      const dt = new DataTransfer();
      dt.items.add(new File(["buy milk\n"], "notes.txt", { type: "text/plain" }));
      dt.items.add(new File([png], "dot.png", { type: "image/png" }));
      dt.items.add(new File(["%PDF-1.4\n%%EOF\n"], "paper.pdf", { type: "application/pdf" }));
      dt.items.add(new File([new Uint8Array(3 * 1024 * 1024)], "huge.bin", { type: "application/octet-stream" }));
      const zone = document.getElementById("drop-zone");
      zone.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
    });
    await browser.waitUntil(async () => (await browser.$$(".attachment-chip")).length === 3, { timeout: 10_000, timeoutMsg: "the three files did not become chips" });
    const refusal = await browser.execute(() => document.body.textContent ?? "");
    assert.match(refusal, /huge\.bin/, "the file over the limit is named");
    await screenshot(t, browser, "chat-attachments");
    await say(browser, "see attached");
    const sent = await requestTo(baseUrl, /^\/chat$/, (r) => /see attached/.test(r.body.prompt ?? ""));
    assert.doesNotMatch(sent.body.prompt, /buy milk/, "text files ride as attachments, not in the prompt");
    const items = sent.body.attachments ?? [];
    assert.deepEqual(items.filter((a) => a.text !== undefined), [{ name: "notes.txt", text: "buy milk\n" }]);
    const kinds = items.filter((a) => a.url !== undefined).map((a) => a.url.slice(0, a.url.indexOf(";"))).sort();
    assert.deepEqual(kinds, ["data:application/pdf", "data:image/png"]);
    await browser.waitUntil(async () => (await browser.$$(".sent-file")).length === 3, { timeout: 10_000, timeoutMsg: "the sent message does not list its files" });
    await waitIdle(browser);
    await screenshot(t, browser, "chat-agent-final");
  } finally {
    await close();
  }
});

/** Open the settings window (the pet's and chat's handles are `known`), change the chat section's checkboxes, save, and come back to `back`. */
async function saveChatSettings(browser, known, back, checks) {
  await browser.execute(() => window.__TAURI_INTERNALS__.invoke("open_settings"));
  let settings;
  await browser.waitUntil(async () => (settings = (await browser.getWindowHandles()).find((h) => !known.includes(h))) !== undefined, {
    timeout: 15_000,
    timeoutMsg: "no settings window",
  });
  await browser.switchToWindow(settings);
  await browser.waitUntil(() => browser.execute(() => document.querySelector('input[name="chat_base_url"]')?.value !== ""), { timeout: 15_000, timeoutMsg: "the settings did not load" });
  await browser.execute((c) => {
    for (const [name, on] of Object.entries(c)) document.querySelector(`input[name="${name}"]`).checked = on;
    document.getElementById("message").textContent = "";
    document.querySelector('button[type="submit"]').click();
  }, checks);
  await browser.waitUntil(async () => (await browser.execute(() => document.getElementById("message").textContent)) === "Saved.", { timeout: 10_000, timeoutMsg: "the settings were not saved" });
  await browser.switchToWindow(back);
  // The chat window reads its settings again when it gets the focus.
  await browser.execute(() => window.dispatchEvent(new Event("focus")));
}

/** The reasoning panels of the chat window: open or folded, title and text. */
function panels(browser) {
  return browser.execute(() =>
    [...document.querySelectorAll("details.reasoning")].map((d) => ({ open: d.open, title: d.querySelector(".reasoning-title")?.textContent ?? "", text: d.querySelector(".reasoning-text")?.textContent ?? "" })),
  );
}

test("the reasoning panel follows the chat settings: shown, folded by default, hidden", { timeout: 240_000 }, async (t) => {
  const baseUrl = await startMock();
  const settings = JSON.stringify({ chat_api: "agent_chat", chat_base_url: baseUrl, key: "k" });
  const { browser, close } = await launch("chat-reasoning", settings);
  try {
    await browser.waitUntil(async () => (await pageState(browser)).status.state === "stateless", { timeout: 30_000, timeoutMsg: "the pet never got its session" });
    const pet = await browser.getWindowHandle();
    await (await browser.$("#chat-button")).click();
    await browser.waitUntil(async () => (await browser.getWindowHandles()).length >= 2, { timeout: 15_000, timeoutMsg: "no chat window" });
    const chat = (await browser.getWindowHandles()).find((h) => h !== pet);
    await browser.switchToWindow(chat);
    await (await browser.$("#chat-input")).waitForExist({ timeout: 15_000 });

    await say(browser, "tell me about the sea");
    await waitIdle(browser);
    let shown = await panels(browser);
    t.diagnostic(JSON.stringify(shown));
    assert.equal(shown.length, 1, "one reasoning panel");
    assert.equal(shown[0].open, true, "open by default");
    assert.match(shown[0].title, /^Thought for [\d.]+s$/);
    assert.equal(shown[0].text, "Thinking about the sea.");
    await screenshot(t, browser, "chat-reasoning-open");

    await saveChatSettings(browser, [pet, chat], chat, { show_reasoning: true, collapse_reasoning: true });
    await browser.waitUntil(async () => (await panels(browser)).every((p) => !p.open), { timeout: 10_000, timeoutMsg: "collapse_reasoning did not fold the panel" });
    // A panel the user opens stays open.
    await browser.execute(() => document.querySelector("details.reasoning summary").click());
    await browser.waitUntil(async () => (await panels(browser))[0]?.open === true, { timeout: 5_000, timeoutMsg: "the panel did not open on click" });
    await say(browser, "and the sky?");
    await waitIdle(browser);
    shown = await panels(browser);
    assert.deepEqual(shown.map((p) => p.open), [true, false], "the clicked panel stays open, the new one starts folded");
    await screenshot(t, browser, "chat-reasoning-folded");

    await saveChatSettings(browser, [pet, chat], chat, { show_reasoning: false, collapse_reasoning: true });
    await browser.waitUntil(async () => (await panels(browser)).length === 0, { timeout: 10_000, timeoutMsg: "show_reasoning off left a panel" });
    const answers = (await rows(browser)).filter((r) => r.role === "assistant");
    assert.equal(answers.length, 2, "the answers stay");
    assert.ok(answers.every((r) => /The sea is calm tonight\./.test(r.text)), JSON.stringify(answers));
  } finally {
    await close();
  }
});
