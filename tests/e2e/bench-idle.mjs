// Rendering cost of the real app under Xvfb: frames per second and CPU while
// the pet is idle but awake (just loaded), once she has settled (nothing
// happened for ui/src/pet/settle.ts's SETTLE_MS: breathing and blinks only; the
// the target is under 20% of one core), and while a turn is active.
// Prints figures; it is a benchmark, not a test. Build as tests/e2e/run.sh
// does, then: node tests/e2e/bench-idle.mjs
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { remote } from "webdriverio";
import { startCompositor, startMock, startTauriDriver, startXvfb, stopAll, TARGET } from "./harness.mjs";

const APP = path.join(TARGET, "debug/yui");
const ticks = () => {
  // Sum of utime+stime of the app and its WebKit processes, in clock ticks.
  let total = 0;
  for (const pid of fs.readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      const comm = fs.readFileSync(`/proc/${pid}/comm`, "utf8").trim();
      if (!["yui", "WebKitWebProces", "WebKitNetworkPr"].includes(comm)) continue;
      const f = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
      total += Number(f[11]) + Number(f[12]);
    } catch {}
  }
  return total;
};
const HZ = 100;
/** ui/src/pet/settle.ts's SETTLE_MS: she settles this long after the last thing happened. */
const SETTLE_MS = 20_000;

async function measure(browser, label, seconds) {
  const t0 = ticks();
  const start = Date.now();
  const samples = [];
  while (Date.now() - start < seconds * 1000) {
    await new Promise((r) => setTimeout(r, 1000));
    samples.push(await browser.execute(() => window.__yui.fps()));
  }
  const cpu = ((ticks() - t0) / HZ / ((Date.now() - start) / 1000)) * 100;
  const fps = samples.reduce((a, b) => a + b, 0) / samples.length;
  console.log(`${label.padEnd(8)} fps ${fps.toFixed(1).padStart(5)}  cpu ${cpu.toFixed(1).padStart(5)}% of one core (app + WebKit)`);
}

/** Wait until the page reports she has settled (or SETTLE_MS and a margin pass); true if she did. */
async function waitSettled(browser) {
  const start = Date.now();
  while (Date.now() - start < SETTLE_MS + 20_000) {
    if (await browser.execute(() => window.__yui.settled?.() === true)) return true;
    await new Promise((r) => setTimeout(r, 1000));
  }
  return false;
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "yui-bench-"));
try {
  const display = await startXvfb();
  await startCompositor(display);
  const base = await startMock();
  fs.writeFileSync(path.join(dataDir, "settings.json"), JSON.stringify({ chat_base_url: base, key: "k" }));
  const driver = await startTauriDriver("tauri-driver-bench", { DISPLAY: `:${display}`, YUI_DATA_DIR: dataDir });
  const browser = await remote({
    hostname: "127.0.0.1", port: driver.port, logLevel: "warn",
    capabilities: { "tauri:options": { application: APP }, "wdio:enforceWebDriverClassic": true },
  });
  await browser.waitUntil(() => browser.execute(() => window.__yui?.ready?.() === true), { timeout: 60_000 });
  await new Promise((r) => setTimeout(r, 4000)); // let the first-load work settle
  await measure(browser, "idle", 10); // awake: the first SETTLE_MS after loading
  const waited = Date.now();
  if (await waitSettled(browser)) console.log(`settled after another ${((Date.now() - waited) / 1000).toFixed(0)} s`);
  else console.log("warning: she did not settle (the pointer over her? an event every few seconds?); measuring anyway");
  await measure(browser, "settled", 30); // long enough for several blinks
  await browser.execute(() => window.__yui.send("hello"));
  await measure(browser, "active", 3);
  const gl = await browser.execute(() => {
    const c = document.createElement("canvas").getContext("webgl2");
    const i = c?.getExtension("WEBGL_debug_renderer_info");
    return i ? c.getParameter(i.UNMASKED_RENDERER_WEBGL) : "unknown";
  });
  console.log(`renderer: ${gl}`);
  await browser.deleteSession();
} finally {
  await stopAll();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
