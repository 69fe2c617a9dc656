// Child processes for the end-to-end tests: Xvfb, xcompmgr, the mock backend
// and tauri-driver. Every process started here is tracked and ended by
// `stopAll`, also when a test fails half-way.

import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";

/** The repository root. */
export const ROOT = path.resolve(import.meta.dirname, "../..");
/** Cargo's target directory: $CARGO_TARGET_DIR (a shared one), else <root>/target. */
export const TARGET = process.env.CARGO_TARGET_DIR ? path.resolve(process.env.CARGO_TARGET_DIR) : path.join(ROOT, "target");
/**
 * Where screenshots and child logs go (ignored by git): tests/e2e/artifacts,
 * or $YUI_E2E_ARTIFACTS for a run beside another (tests/e2e/run.sh), so that
 * the two runs' logs of the same name do not overwrite each other.
 */
export const ARTIFACTS = process.env.YUI_E2E_ARTIFACTS ? path.resolve(process.env.YUI_E2E_ARTIFACTS) : path.join(ROOT, "tests/e2e/artifacts");

/** Processes started by this module, newest last. */
const running = [];

/** Absolute path of an executable, or a thrown error that says how to get it. */
export function requireExecutable(file, hint) {
  if (path.isAbsolute(file)) {
    if (isExecutable(file)) return file;
  } else {
    for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
      const candidate = path.join(dir, file);
      if (dir && isExecutable(candidate)) return candidate;
    }
  }
  throw new Error(`${file} not found or not executable: ${hint}`);
}

function isExecutable(file) {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The tauri-driver binary: $TAURI_DRIVER, ~/.cargo/bin, or PATH. */
export function tauriDriverPath() {
  const hint = "install it with `cargo install tauri-driver --locked` (tests/e2e/run.sh does)";
  if (process.env.TAURI_DRIVER) return requireExecutable(process.env.TAURI_DRIVER, hint);
  const cargoBin = path.join(os.homedir(), ".cargo/bin/tauri-driver");
  return isExecutable(cargoBin) ? cargoBin : requireExecutable("tauri-driver", hint);
}

/**
 * Start `cmd` with its output going to artifacts/<name>.log (stdout is also
 * kept readable when `pipeStdout`). Its own process group, so `stopAll` ends
 * whatever it starts in turn (tauri-driver starts WebKitWebDriver and the app).
 */
export function start(name, cmd, args, { env = {}, pipeStdout = false, pipeFd3 = false } = {}) {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const log = fs.openSync(path.join(ARTIFACTS, `${name}.log`), "w");
  const child = spawn(cmd, args, {
    env: { ...process.env, ...env },
    stdio: ["ignore", pipeStdout ? "pipe" : log, log, ...(pipeFd3 ? ["pipe"] : [])],
    detached: true,
  });
  const entry = { name, child, exited: false, log };
  child.on("exit", () => (entry.exited = true));
  child.on("error", () => (entry.exited = true));
  running.push(entry);
  return child;
}

/** End every started process, newest first: SIGTERM to its group, SIGKILL after `graceMs`. */
export async function stopAll(graceMs = 3000) {
  while (running.length > 0) await end(running.pop(), graceMs);
}

async function end(entry, graceMs) {
  if (!entry.exited && entry.child.pid) {
    signalGroup(entry.child.pid, "SIGTERM");
    const gone = await waitFor(() => entry.exited, graceMs);
    if (!gone) signalGroup(entry.child.pid, "SIGKILL");
    await waitFor(() => entry.exited, 1000);
  }
  // The group may outlive its leader (tauri-driver's children): end it too.
  if (entry.child.pid) signalGroup(entry.child.pid, "SIGKILL");
  fs.closeSync(entry.log);
}

function signalGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/** Poll `check` every 50 ms until it is truthy or `ms` pass; resolves to whether it held. */
export async function waitFor(check, ms) {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Start Xvfb on a free display and return its number. Xvfb picks the
 * number itself and writes it to fd 3 once it accepts clients
 * (`-displayfd`), so two test runs side by side never take the same one.
 */
export async function startXvfb() {
  const xvfb = requireExecutable("Xvfb", "apt-get install xvfb");
  const child = start("xvfb", xvfb, ["-displayfd", "3", "-screen", "0", "1280x800x24", "-noreset", "-nolisten", "tcp"], { pipeFd3: true });
  let written = "";
  child.stdio[3].on("data", (chunk) => (written += chunk));
  const up = await waitFor(() => child.exitCode !== null || /^\d+\n/.test(written), 10_000);
  const n = Number.parseInt(written, 10);
  if (!up || child.exitCode !== null || Number.isNaN(n)) {
    await stop(child, 0);
    throw new Error(`Xvfb did not start (exit ${child.exitCode}); see ${path.join(ARTIFACTS, "xvfb.log")}`);
  }
  return n;
}

/** End one started process (and its group): SIGTERM, then SIGKILL after `graceMs`. */
export async function stop(child, graceMs = 3000) {
  const i = running.findIndex((e) => e.child === child);
  if (i < 0) return;
  const [entry] = running.splice(i, 1);
  await end(entry, graceMs);
}

/** Start xcompmgr on display `n` (without a compositor, transparent windows render black). */
export async function startCompositor(n) {
  const bin = requireExecutable("xcompmgr", "apt-get install xcompmgr");
  const child = start("xcompmgr", bin, [], { env: { DISPLAY: `:${n}` } });
  await new Promise((r) => setTimeout(r, 300));
  if (child.exitCode !== null) throw new Error(`xcompmgr exited with ${child.exitCode}; see tests/e2e/artifacts/xcompmgr.log`);
}

/**
 * Start the yui-mock binary and return its base URL: the demo agent with no
 * pacing, or the scenario file `scenario` (a path) when given. With
 * `maxTurnBytes`, ready states it (turns may carry images).
 */
export async function startMock(scenario = null, { maxTurnBytes = null, port = 0 } = {}) {
  const bin = requireExecutable(path.join(TARGET, "debug/yui-mock"), "build it with `cargo build -p yui-mock`");
  const mode = scenario ? ["--scenario", scenario] : ["--demo", "--pace", "0"];
  const extra = maxTurnBytes ? ["--max-turn-bytes", String(maxTurnBytes)] : [];
  const child = start(scenario ? `yui-mock-${path.basename(scenario, ".json")}` : "yui-mock", bin, [...mode, ...extra, "--port", String(port)], { pipeStdout: true });
  const lines = readline.createInterface({ input: child.stdout });
  let timer;
  const first = await Promise.race([
    new Promise((resolve) => lines.once("line", resolve)),
    new Promise((resolve) => child.once("exit", () => resolve(null))),
    new Promise((resolve) => (timer = setTimeout(() => resolve(null), 20_000))),
  ]);
  clearTimeout(timer);
  lines.on("line", () => {}); // keep draining stdout
  const match = /^listening on (http:\/\/127\.0\.0\.1:\d+)\s*$/.exec(first ?? "");
  if (!match) throw new Error(`yui-mock did not print its address (got ${JSON.stringify(first)}); see tests/e2e/artifacts/yui-mock.log`);
  return match[1];
}

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** True once something accepts TCP connections on 127.0.0.1:`port`. */
export function portOpen(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * Start tauri-driver on a free port with `env` (DISPLAY, YUI_DATA_DIR) for
 * the app it launches; logs to artifacts/<name>.log. Returns `{ child, port }`.
 */
export async function startTauriDriver(name, env) {
  const driver = tauriDriverPath();
  const native = requireExecutable("WebKitWebDriver", "apt-get install webkit2gtk-driver");
  const port = await freePort();
  const nativePort = await freePort();
  const child = start(name, driver, ["--port", String(port), "--native-port", String(nativePort), "--native-driver", native], { env });
  // Both ports: tauri-driver proxies to WebKitWebDriver, which may start
  // listening after tauri-driver does (a busy machine refused the first
  // session that way).
  const up = await waitFor(async () => child.exitCode !== null || ((await portOpen(port)) && (await portOpen(nativePort))), 15_000);
  if (!up || child.exitCode !== null) throw new Error(`tauri-driver did not start; see tests/e2e/artifacts/${name}.log`);
  return { child, port };
}

/** Grab the whole X display `n` into `file` with ImageMagick's import; false when it is not installed or fails. */
export function captureDisplay(n, file) {
  const r = spawnSync("import", ["-display", `:${n}`, "-window", "root", file], { timeout: 15_000 });
  return r.status === 0;
}
