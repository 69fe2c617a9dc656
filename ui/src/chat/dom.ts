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

/** What a message is given for a variable an element takes the place of (`withElement`). */
export const SLOT = "\u{E000}";

/**
 * `text` (a message formatted with `SLOT` for one variable) as children with
 * `node` where the slot was, so each language puts the element where its
 * sentence needs it ("Allow <b>shell</b>?", "<b>shell</b> を許可しますか?").
 */
export function withElement(text: string, node: Node): Child[] {
  const at = text.indexOf(SLOT);
  if (at < 0) return [text, " ", node];
  return [text.slice(0, at), node, text.slice(at + SLOT.length)];
}
