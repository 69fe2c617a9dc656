// `@` in the chat window's composer (docs/characters.md, "Where a line
// goes"): while the first word is being typed after `@`, the open
// characters' names (and `everyone`) that start with it are offered; Tab or
// a click takes one. Only with several characters open. Where the line goes
// is the core's (`Cast::route`): this only helps type it.

/** The word that addresses every open character. */
export const EVERYONE = "everyone";

/** The names offered for `text` (the composer's whole text), best first; none unless it is `@` and part of a first word. */
export function mentionCandidates(text: string, names: readonly string[]): string[] {
  if (names.length < 2) return [];
  const typed = /^@([^\s@]*)$/.exec(text);
  if (!typed) return [];
  const start = typed[1].toLowerCase();
  return [...names, EVERYONE].filter((n) => n.toLowerCase().startsWith(start));
}

/** The composer's text once `name` is taken: `@name ` and the cursor after it. */
export function completeMention(name: string): string {
  return `@${name} `;
}

/** Whether `text` goes through the characters' routing: it starts with `@`. */
export function addressed(text: string): boolean {
  return text.trimStart().startsWith("@");
}
