// The character's browser window end to end: yui-mock (push) calls the
// `browser` tool during a turn — open a page served here, read it, take its
// picture, close the window — and the answers the app sent back are read
// from the mock's recorded frames (GET /__mock/received). With the switch
// off, the same call is refused.

import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { test } from "node:test";
import { ARTIFACTS, startMock } from "./harness.mjs";
import { launch, pageState, screenshot, typeAndEnter, useDisplay, waitReady } from "./app.mjs";

useDisplay();

const TITLE = "Known Title";
const WORDS = "The secret word is pumpernickel.";

// The page also tells whether it could reach the app: it must not.
const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>${TITLE}</title></head>
<body><nav>menu menu menu</nav>
<main><h1>Hello from the e2e page</h1><p>${WORDS}</p><p id="ipc">ipc: pending</p></main>
<script>
  const say = (s) => (document.getElementById("ipc").textContent = "ipc: " + s);
  const internals = window.__TAURI_INTERNALS__;
  if (!internals || typeof internals.invoke !== "function") say("absent");
  else internals.invoke("current_status").then(() => say("allowed"), (e) => say("denied (" + String(e).slice(0, 80) + ")"));
</script></body></html>`;

/** Serve PAGE on 127.0.0.1; resolves to { url, close }. */
function servePage() {
  const server = http.createServer((req, res) => {
    if (req.url === "/other") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end("<!doctype html><title>Other</title><p>another page</p>");
    } else if (req.url === "/page") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(PAGE);
    } else {
      res.writeHead(404).end("not here");
    }
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      resolve({ url: `http://127.0.0.1:${port}/page`, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

/** A push scenario: on the first turn, each browser call then its tool_result; then a reply and the turn's end. */
function scenario(name, calls) {
  const steps = [{ expect: "turn", timeout_ms: 30_000 }];
  calls.forEach((args, i) => {
    steps.push({ send: { type: "tool_call", id: `b${i + 1}`, turn_id: "$turn_id", name: "browser", arguments: args } });
    steps.push({ expect: "tool_result", timeout_ms: 35_000 });
  });
  steps.push({ send: { type: "render", turn_id: "$turn_id", source: "e2e", segments: [{ cues: [], speech: "Browsed." }] } });
  steps.push({ send: { type: "turn_end", turn_id: "$turn_id" } });
  const file = path.join(ARTIFACTS, `scenario-${name}.json`);
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ name, steps }, null, 1));
  return file;
}

/** The tool_result frames the mock has received, once there are `n`. */
async function toolResults(baseUrl, n, timeout) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const frames = await (await fetch(`${baseUrl}/__mock/received`)).json();
    const results = frames.filter((f) => f.type === "tool_result");
    if (results.length >= n) return results;
    if (Date.now() > deadline) throw new Error(`only ${results.length} of ${n} tool results arrived: ${JSON.stringify(results).slice(0, 400)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Poll the pill's tool until `done` resolves; answers every tool state seen. */
function watchPill(browser, done) {
  const seen = [];
  let stop = false;
  done.finally(() => (stop = true)).catch(() => {});
  const loop = (async () => {
    while (!stop) {
      const tool = await browser.execute(() => window.__yui.state().tool).catch(() => null);
      const key = tool ? `${tool.id}:${tool.state}` : null;
      if (key && seen.at(-1) !== key) seen.push(key);
      await new Promise((r) => setTimeout(r, 40));
    }
  })();
  return loop.then(() => seen);
}

test("the browser tool opens, reads, pictures, goes back and closes a page", { timeout: 120_000 }, async (t) => {
  const page = await servePage();
  const other = page.url.replace(/\/page$/, "/other");
  const calls = [
    { action: "read" },
    { action: "open", url: page.url },
    { action: "read" },
    { action: "screenshot" },
    { action: "open", url: other },
    { action: "back" },
    { action: "read" },
    { action: "close" },
    { action: "screenshot" },
  ];
  const baseUrl = await startMock(scenario("browser-on", calls));
  const settings = JSON.stringify({ chat_api: "push", chat_base_url: baseUrl, key: "k", browser: true });
  const { browser, close } = await launch("browser-on", settings);
  try {
    await waitReady(browser);
    await typeAndEnter(browser, "look something up");
    const results = toolResults(baseUrl, calls.length, 60_000);
    const pill = watchPill(browser, results);
    // Opening a page asks first, on the pet: "Always" lets the later open through without asking.
    await browser.waitUntil(() => browser.execute(() => window.__yui.state().asking !== null), { timeout: 20_000, timeoutMsg: "no approval notice for open" });
    assert.match(await browser.execute(() => window.__yui.state().asking.text), /May I open http/);
    await (await browser.$('#approval-notice button[data-decision="always"]')).click();
    const [early, open, read, shot, opened, back, reread, closed, late] = await results;
    t.diagnostic(`pill: ${(await pill).join(", ")}`);
    t.diagnostic(`read: ${read.result.slice(0, 300)}`);

    assert.equal(open.result, `opened ${page.url}: "${TITLE}"`);
    assert.ok(read.result.startsWith(`${TITLE}\n`), `read starts with the title: ${read.result.slice(0, 80)}`);
    assert.ok(read.result.includes(WORDS), "read has the page's text");
    assert.ok(!read.result.includes("menu menu"), "read keeps to <main>");
    assert.ok(!read.result.includes("ipc: allowed"), "the page reached an app command");
    assert.equal(shot.result, `screenshot of ${page.url}`);
    assert.ok(Array.isArray(shot.images) && shot.images.length > 0, "the screenshot carries a picture");
    assert.ok(shot.images.every((u) => u.startsWith("data:image/") && u.length > 200), "pictures are data URLs");
    fs.writeFileSync(path.join(ARTIFACTS, "browser-page.png"), Buffer.from(shot.images[0].split(",")[1], "base64"));
    assert.equal(early.result, "error: no page is open");
    assert.equal(opened.result, `opened ${other}: "Other"`);
    assert.equal(back.result, "ok");
    assert.ok(reread.result.startsWith(`${TITLE}\n`) && reread.result.includes(WORDS), `back returned to the first page: ${reread.result.slice(0, 80)}`);
    assert.equal(closed.result, "ok");
    assert.equal(late.result, "error: no page is open");
    assert.ok((await pill).includes("browser:running"), "the pill showed the browser running");
    await browser.waitUntil(async () => !(await pageState(browser)).thinking, { timeout: 10_000, timeoutMsg: "the turn never ended" });
  } finally {
    await screenshot(t, browser, "browser-on");
    await close();
    await page.close();
  }
});

test("with the browser switched off the call is refused", { timeout: 90_000 }, async (t) => {
  const baseUrl = await startMock(scenario("browser-off", [{ action: "open", url: "http://127.0.0.1:9/" }]));
  const settings = JSON.stringify({ chat_api: "push", chat_base_url: baseUrl, key: "k", browser: false });
  const { browser, close } = await launch("browser-off", settings);
  try {
    await waitReady(browser);
    await typeAndEnter(browser, "look something up");
    const [refused] = await toolResults(baseUrl, 1, 20_000);
    assert.equal(refused.result, "error: browser is switched off");
    assert.equal(refused.images ?? null, null);
  } finally {
    await screenshot(t, browser, "browser-off");
    await close();
  }
});
