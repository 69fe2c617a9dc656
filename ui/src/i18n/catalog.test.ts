// The catalogs against the code: every message the pages and the shell name
// exists, every message exists because something names it, and no word a
// user reads is written outside the catalogs (docs/i18n.md). The languages
// against each other are checked in crates/yui-i18n/tests/catalog.rs.

import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { parse, type DefaultTreeAdapterMap } from "parse5";
import { describe, expect, it } from "vitest";
import { catalogFiles, has, setLanguage, t, tAttribute } from "./index";

type Node = DefaultTreeAdapterMap["node"];
type Element = DefaultTreeAdapterMap["element"];

const repo = join(__dirname, "../../..");
const read = (path: string) => readFileSync(join(repo, path), "utf8");

function walk(dir: string, keep: (name: string) => boolean): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(repo, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...walk(path, keep));
    else if (keep(entry.name)) out.push(path);
  }
  return out.sort();
}

const PAGES = ["ui/index.html", "ui/chat.html", "ui/settings.html", "ui/welcome.html"];
/** The pages' code: not tests, not the generated bindings, not the dev-only fakes and their sample data. */
const CODE = walk("ui/src", (n) => n.endsWith(".ts") && !n.endsWith(".test.ts")).filter(
  (p) => !p.includes("/bindings/") && !/\/(fake|fakeBackend|samples|testhook|testwiring)\.ts$/.test(p),
);
/** The Rust that names messages: the shell (tray, titles) and the core's own lines (notices). */
const RUST = ["src-tauri/src", ...readdirSync(join(repo, "crates")).map((c) => `crates/${c}/src`)].flatMap((dir) =>
  walk(dir, (n) => n.endsWith(".rs")),
);

/** Comments out (their line breaks kept), strings kept (a `//` inside a string stays). */
function withoutComments(source: string): string {
  return source.replace(/("(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|`(?:\\.|[^`\\])*`)|\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, (m, str) => str ?? m.replace(/[^\n]/g, ""));
}

/** Every message id the pages, their code and the shell name, with where. */
function usedIds(): Map<string, string> {
  const used = new Map<string, string>();
  for (const page of PAGES) for (const m of read(page).matchAll(/data-l10n-id="([^"]+)"/g)) used.set(m[1], page);
  for (const file of CODE) {
    const source = withoutComments(read(file));
    for (const m of source.matchAll(/\b(?:t|tAttribute)\(\s*"([^"]+)"/g)) used.set(m[1], file);
    for (const m of source.matchAll(/\bmark\([^,()]+(?:\([^()]*\))?,\s*"([^"]+)"/g)) used.set(m[1], file);
  }
  for (const file of RUST) for (const m of read(file).matchAll(/"((?:tray|window|notice)-[a-z0-9-]+)"/g)) used.set(m[1], file);
  return used;
}

/** Every message id of the English catalog. */
function catalogIds(): string[] {
  return catalogFiles()
    .filter((f) => f.language === "en")
    .flatMap((f) => [...f.source.matchAll(/^([a-z][a-z0-9-]*)\s*=/gm)].map((m) => m[1]));
}

describe("the catalogs and the code", () => {
  it("have every message the code names", () => {
    const missing = [...usedIds()].filter(([id]) => !has(id)).map(([id, where]) => `${id} (${where})`);
    expect(missing).toEqual([]);
  });

  it("name every message the catalogs have", () => {
    const used = usedIds();
    expect(catalogIds().filter((id) => !used.has(id))).toEqual([]);
  });

  it("format in each language, falling back to English", () => {
    setLanguage("ja");
    expect(t("tray-quit")).toBe("終了");
    setLanguage("ko");
    expect(t("tray-quit")).toBe("종료");
    setLanguage("en");
    expect(t("tray-quit")).toBe("Quit");
    expect(t("error-with-detail", { headline: "A", detail: "b" })).toBe("A: b");
    expect(t("no-such-message")).toBe("no-such-message");
    expect(tAttribute("no-such-message", "title")).toBe("no-such-message");
  });
});

/** Words a user reads: a letter of any of the three languages. */
const WORDS = /[A-Za-z\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/;
/** Written as they are in every language: the app's name and each language's own name for itself. */
const UNTRANSLATED = new Set(["YUI", "English", "日本語", "한국어"]);
const SPOKEN_ATTRIBUTES = ["title", "aria-label", "placeholder", "alt", "label"];

/** What the page `html` (from `path`) writes outside the catalogs: text, and spoken attributes its message lacks. */
function pageStrays(html: string, path: string): string[] {
  const strays: string[] = [];
  const visit = (node: Node) => {
    if (node.nodeName === "script" || node.nodeName === "style") return;
    if (node.nodeName === "#text") {
      const text = (node as DefaultTreeAdapterMap["textNode"]).value.trim();
      if (WORDS.test(text) && !UNTRANSLATED.has(text)) strays.push(`${path}: text ${JSON.stringify(text)}`);
      return;
    }
    if ("attrs" in node) {
      const element = node as Element;
      const id = element.attrs.find((a) => a.name === "data-l10n-id")?.value;
      for (const attr of element.attrs) {
        if (!SPOKEN_ATTRIBUTES.includes(attr.name) || !WORDS.test(attr.value) || UNTRANSLATED.has(attr.value)) continue;
        const fromCatalog = id !== undefined && tAttribute(id, attr.name) !== id;
        if (!fromCatalog) strays.push(`${path}: <${element.tagName} ${attr.name}=${JSON.stringify(attr.value)}>`);
      }
    }
    const children = "content" in node ? (node as DefaultTreeAdapterMap["template"]).content.childNodes : [];
    for (const child of [...("childNodes" in node ? node.childNodes : []), ...children]) visit(child);
  };
  visit(parse(html));
  return strays;
}

/** Lines whose strings no user reads: logs, imports, selectors, events, class names, key names, thrown programming errors. */
const NOT_SPOKEN = /console\.|^\s*import |from "|querySelector|getElementById|byId[<(]|addEventListener|dispatchEvent|CustomEvent|classList|className|dataset|setAttribute\("data-|new Error\(|invoke<|\.key\b|\.types\b/;
/** A line that says its strings are not words a user reads (a key name, a log line's text), with why. */
const MARKED_NOT_SPOKEN = "// not-ui-text:";

/** A string literal that reads as words: two words, or one capitalized word. */
function spoken(literal: string): boolean {
  const text = literal.replace(/\$\{[^}]*\}/g, " ").trim();
  if (!WORDS.test(text) || UNTRANSLATED.has(text)) return false;
  if (/[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/.test(text)) return true;
  if (/^[a-z0-9_.:/#@-]+$/i.test(text)) return /^[A-Z][a-z]{2,}[.…!?]?$/.test(text);
  if (/[{};=<>]|^\.|^--|^[a-z-]+:/.test(text)) return false;
  return /[A-Za-z]{2,}[^A-Za-z]+[A-Za-z]{2,}/.test(text) && /\s/.test(text);
}

/** What the code file `path` writes outside the catalogs. */
function codeStrays(path: string): string[] {
  const strays: string[] = [];
  const raw = read(path).split("\n");
  withoutComments(read(path))
    .split("\n")
    .forEach((line, i) => {
      if (NOT_SPOKEN.test(line) || raw[i]?.includes(MARKED_NOT_SPOKEN) || raw[i - 1]?.trim().startsWith(MARKED_NOT_SPOKEN)) return;
      for (const m of line.matchAll(/"((?:\\.|[^"\\])*)"|'((?:\\.|[^'\\])*)'|`((?:\\.|[^`\\])*)`/g)) {
        const literal = m[1] ?? m[2] ?? m[3];
        if (spoken(literal)) strays.push(`${path}:${i + 1}: ${JSON.stringify(literal)}`);
      }
    });
  return strays;
}

describe("no word outside the catalogs", () => {
  it.each(PAGES)("%s", (page) => {
    expect(pageStrays(read(page), page)).toEqual([]);
  });

  it("in the pages' code", () => {
    expect(CODE.flatMap(codeStrays)).toEqual([]);
  });

  it("is caught when written", () => {
    // The checks can fail: a page's button with its own word, a title on an
    // unmarked element, and a line of code that writes a sentence.
    const strays = (html: string) => pageStrays(html, "sample.html");
    expect(strays('<button type="button">Send</button>')).toHaveLength(1);
    expect(strays('<span title="Tokens of the last reply"></span>')).toHaveLength(1);
    expect(strays('<button data-l10n-id="tray-quit"></button><b>YUI</b>')).toEqual([]);
    expect(spoken("Reconnecting in ${s}s")).toBe(true);
    expect(spoken("Send")).toBe(true);
    expect(spoken("composer-input")).toBe(false);
    expect(spoken("yui://event")).toBe(false);
  });
});
