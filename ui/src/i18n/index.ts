// The interface's words in the user's language (docs/i18n.md).
//
// The catalogs are the Fluent files in crates/yui-i18n/locales/<language>/,
// one folder per language and a file per window; the Rust side reads the
// same files for the tray. Here @fluent/bundle formats them. A page marks
// its static text with `data-l10n-id` (and `data-l10n-args` when the message
// takes variables) and calls `localize()`; code asks `t(id, args)`. A
// message's attributes (`.title`, `.aria-label`, `.placeholder`) become the
// element's attributes. `setLanguage` switches every page at once: each
// page re-reads its marked text, and what code wrote registers `onLanguage`
// to write itself again.

import { FluentBundle, FluentResource, type FluentVariable } from "@fluent/bundle";

/** A language the interface speaks. */
export type Language = "en" | "ja" | "ko";

/** The languages the interface speaks, English first (as `yui_i18n::LANGUAGES`). */
export const LANGUAGES: readonly Language[] = ["en", "ja", "ko"];

/** The variables a message takes. */
export type Args = Record<string, FluentVariable>;

const sources = import.meta.glob<string>("../../../crates/yui-i18n/locales/*/*.ftl", { query: "?raw", import: "default", eager: true });

/** Every catalog file: its language, file name and text. */
export function catalogFiles(): { language: string; name: string; source: string }[] {
  return Object.entries(sources).map(([path, source]) => {
    const parts = path.split("/");
    return { language: parts[parts.length - 2], name: parts[parts.length - 1], source };
  });
}

const bundles = new Map<Language, FluentBundle>();

function bundle(language: Language): FluentBundle {
  let found = bundles.get(language);
  if (!found) {
    // The interface's languages all run left to right: no isolation marks.
    found = new FluentBundle(language, { useIsolating: false });
    for (const file of catalogFiles().filter((f) => f.language === language)) {
      const errors = found.addResource(new FluentResource(file.source));
      for (const error of errors) console.error(`yui: catalog ${language}/${file.name}:`, error);
    }
    bundles.set(language, found);
  }
  return found;
}

let current: Language = "en";
/** Whether the page's marked text was written once (a switch to the same language writes nothing again). */
let localized = false;
const listeners = new Set<(language: Language) => void>();
/** What code wrote with `liveText`, by element: written again after each switch. */
const written = new Map<Element, () => string>();

/** `language` when the interface speaks it, else English. */
export function supported(language: string | null | undefined): Language {
  return (LANGUAGES as readonly string[]).includes(language ?? "") ? (language as Language) : "en";
}

/** The language the interface speaks now. */
export function language(): Language {
  return current;
}

/**
 * Speak `language` from now on: the page's marked text is written again
 * and every `onLanguage` listener runs. A language the interface does not
 * speak is English.
 */
export function setLanguage(language: string): void {
  const next = supported(language);
  const changed = next !== current;
  current = next;
  if (typeof document !== "undefined") {
    document.documentElement.lang = next;
    if (changed || !localized) localize(document);
    localized = true;
  }
  if (!changed) return;
  for (const [element, render] of written) {
    // An element no longer on the page is forgotten.
    if (element.isConnected) element.textContent = render();
    else written.delete(element);
  }
  for (const listener of listeners) {
    try {
      listener(next);
    } catch (err) {
      console.error("yui: a language listener failed", err);
    }
  }
}

/**
 * Write `render()` into `element` now and again after each switch of
 * language (null empties it and forgets it): for text a message alone
 * cannot say (a message around the core's own words). It replaces a
 * catalog mark the element had, so `localize` does not write over it.
 */
export function liveText(element: HTMLElement, render: (() => string) | null): void {
  element.removeAttribute("data-l10n-id");
  element.removeAttribute("data-l10n-args");
  if (render) written.set(element, render);
  else written.delete(element);
  element.textContent = render ? render() : "";
}

/** Run `listener` after each switch of language, until the returned function is called. */
export function onLanguage(listener: (language: Language) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function format(id: string, args: Args | undefined, attribute?: string): string | null {
  for (const lang of current === "en" ? ["en" as const] : [current, "en" as const]) {
    const b = bundle(lang);
    const message = b.getMessage(id);
    const pattern = attribute === undefined ? message?.value : message?.attributes[attribute];
    if (!pattern) continue;
    const errors: Error[] = [];
    const text = b.formatPattern(pattern, args, errors);
    if (errors.length) console.warn(`yui: message ${id} in ${lang}:`, errors);
    return text;
  }
  return null;
}

/** Message `id` in the current language (English when it lacks it; the id itself, logged, when English does too). */
export function t(id: string, args?: Args): string {
  const text = format(id, args);
  if (text === null) {
    console.error(`yui: no message ${id}`);
    return id;
  }
  return text;
}

/** Message `id` in English, whatever the current language (to recognize a line the core sent in English). */
export function english(id: string, args?: Args): string {
  const b = bundle("en");
  const pattern = b.getMessage(id)?.value;
  return pattern ? b.formatPattern(pattern, args, []) : id;
}

/** Attribute `attribute` of message `id` (`t("x", …)` of `.title` and the like). */
export function tAttribute(id: string, attribute: string, args?: Args): string {
  const text = format(id, args, attribute);
  if (text === null) {
    console.error(`yui: no attribute ${attribute} of message ${id}`);
    return id;
  }
  return text;
}

/** Whether the catalog has message `id` (in English, the complete one). */
export function has(id: string): boolean {
  return bundle("en").hasMessage(id);
}

/**
 * Mark `element` with message `id` (and `args`) and write it now: its text
 * becomes the message's value, its attributes the message's attributes. A
 * later switch of language writes it again.
 */
export function mark(element: Element, id: string, args?: Args): void {
  // A message now: what `liveText` wrote here before is forgotten.
  written.delete(element);
  element.setAttribute("data-l10n-id", id);
  if (args) element.setAttribute("data-l10n-args", JSON.stringify(args));
  else element.removeAttribute("data-l10n-args");
  write(element);
}

function write(element: Element): void {
  const id = element.getAttribute("data-l10n-id");
  if (!id) return;
  let args: Args | undefined;
  const raw = element.getAttribute("data-l10n-args");
  if (raw) {
    try {
      args = JSON.parse(raw) as Args;
    } catch (err) {
      console.error(`yui: data-l10n-args of ${id} is not JSON`, err);
    }
  }
  const lang = current === "en" || bundle(current).hasMessage(id) ? current : "en";
  const b = bundle(lang);
  const message = b.getMessage(id);
  if (!message) {
    console.error(`yui: no message ${id}`);
    return;
  }
  // Errors collected, not thrown: one bad message leaves the rest of the page to be written.
  const errors: Error[] = [];
  if (message.value) element.textContent = b.formatPattern(message.value, args, errors);
  for (const [name, pattern] of Object.entries(message.attributes)) {
    element.setAttribute(name, b.formatPattern(pattern, args, errors));
  }
  if (errors.length) console.warn(`yui: message ${id} in ${lang}:`, errors);
}

/** Write every element under `root` marked with `data-l10n-id` (the root itself included). */
export function localize(root: ParentNode): void {
  const elements = [...(root instanceof Element && root.hasAttribute("data-l10n-id") ? [root] : []), ...root.querySelectorAll("[data-l10n-id]")];
  for (const element of elements) {
    try {
      write(element);
    } catch (err) {
      console.error(`yui: ${element.getAttribute("data-l10n-id")} could not be written`, err);
    }
  }
}

/** The formatters made so far, by language and options (made once: streaming rows format often). */
const numberFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

function cached<F>(cache: Map<string, F>, options: object | undefined, make: () => F): F {
  const key = `${current}|${JSON.stringify(options ?? {})}`;
  let found = cache.get(key);
  if (!found) {
    found = make();
    cache.set(key, found);
  }
  return found;
}

/** `value` as a number in the current language's format. */
export function formatNumber(value: number, options?: Intl.NumberFormatOptions): string {
  return cached(numberFormats, options, () => new Intl.NumberFormat(current, options)).format(value);
}

/** `value` as a date and/or time in the current language's format. */
export function formatDate(value: Date | number, options?: Intl.DateTimeFormatOptions): string {
  return cached(dateFormats, options, () => new Intl.DateTimeFormat(current, options)).format(value);
}
