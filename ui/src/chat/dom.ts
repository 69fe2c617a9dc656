// A tiny element builder for the chat window's views.

/** Attributes of `h`: strings and numbers become attributes, `false`/`null`/`undefined` are left out, functions named `on…` become listeners. */
export type Attrs = Record<string, string | number | boolean | null | undefined | ((e: Event) => void)>;
/** A child of `h`: an element, text, or nothing. */
export type Child = Node | string | null | undefined | false;

/** Create `<tag>` with attributes and children. `class` sets the class name; `text` is not special. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, String(v));
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

/** Find a required element by id. */
export function byId<T extends HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} missing from chat.html`);
  return el as T;
}
