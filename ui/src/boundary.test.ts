// The page-to-shell boundary stays typed: no page names a command or a shell
// event as a loose string. Commands go through `commands.*` and event names
// through `shellEvents` (both generated into bindings/commands.ts from
// src-tauri/src/api.rs), and only `shell/` imports them or the Tauri API.

import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(__dirname);

/** Every .ts source of the pages, tests and generated bindings left out. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "bindings" ? [] : sources(path);
    return name.endsWith(".ts") && !name.endsWith(".test.ts") ? [path] : [];
  });
}

describe("the typed boundary", () => {
  const files = sources(root);

  it("finds the page sources", () => {
    expect(files.length).toBeGreaterThan(20);
  });

  it("no page invokes a command by name", () => {
    const loose = files.filter((f) => /\binvoke\s*[<(]/.test(readFileSync(f, "utf8"))).map((f) => relative(root, f));
    expect(loose).toEqual([]);
  });

  it("every page reaches the shell through shell/: no other source imports the generated commands or the Tauri API", () => {
    const direct = files
      .filter((f) => !relative(root, f).startsWith("shell"))
      .filter((f) => /from\s+["'](?:[./]*bindings\/commands|@tauri-apps\/api[^"']*)["']/.test(readFileSync(f, "utf8")))
      .map((f) => relative(root, f));
    expect(direct).toEqual([]);
  });

  it("no page names a shell event as a string", () => {
    const loose = files.filter((f) => /["'`]yui:\/\//.test(readFileSync(f, "utf8"))).map((f) => relative(root, f));
    expect(loose).toEqual([]);
  });
});
