// The welcome page's elements by id.

/** Element `#id` of welcome.html; a missing one is a bug in the page. */
export function byId<T extends HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} missing from welcome.html`);
  return el as T;
}
