// The chat window's one view of every open character (docs/characters.md,
// "The chat window"): each character's current conversation merged into one
// by time, every message labeled with the character who wrote it (or, for the
// user's, the one it went to), and where each merged message came from, so
// that an action on it goes to her session. Pure: no DOM, no Tauri.

import type { ChatMessage, Conversation } from "../bindings/index";

/** One open character's current conversation. */
export interface Voice {
  /** Her name, as `character_names` gives it. */
  name: string;
  /** Her current conversation. */
  conversation: Conversation;
}

/** Who a merged message is labeled with. */
export interface Speaker {
  /** The character who wrote it (an answer) or whom it went to (the user's). */
  name: string;
  /** Her portrait's hue (0–359), by her place among the open characters. */
  hue: number;
  /** A user message to every character (shown once). */
  everyone: boolean;
}

/** Where a merged message came from. */
export interface Origin {
  /** The character whose conversation holds it. */
  character: string;
  /** Whether she is main (her session is the window's own). */
  main: boolean;
  /** The message's id in her conversation. */
  id: string;
}

/** The merged view. */
export interface Together {
  /** One conversation of every character's messages, oldest first (main's id, so the view stays put). */
  conversation: Conversation;
  /** The label of each merged message, by its id in `conversation`. */
  speakers: Map<string, Speaker>;
  /** Where each merged message came from, by its id in `conversation`. */
  origins: Map<string, Origin>;
}

/** A user line to every character, as the composer and the core write it. */
const EVERYONE = /^\s*@everyone(\s|$)/i;

/** The portraits' hues by place in the registry (main first): far apart on the wheel, one per character that can be open. */
export const HUES = [330, 205, 140, 32, 268, 180];

/** The portrait hue of the character at place `i` of the registry. */
export function hueAt(i: number): number {
  return HUES[i % HUES.length];
}

/** The letter her portrait shows. */
export function initialOf(name: string): string {
  return (Array.from(name.trim())[0] ?? "?").toUpperCase();
}

/** The id a message of character `voice` (not main) takes in the merged view. */
export function mergedId(voice: string, id: string): string {
  return `${voice}\u241f${id}`;
}

/** Each non-main message's merged copy, by the message it copies (a message never changes in place). */
const copies = new WeakMap<ChatMessage, Map<string, ChatMessage>>();

function copyOf(m: ChatMessage, id: string): ChatMessage {
  let byId = copies.get(m);
  if (!byId) {
    byId = new Map();
    copies.set(m, byId);
  }
  let copy = byId.get(id);
  if (!copy) {
    copy = { ...m, id };
    byId.set(id, copy);
  }
  return copy;
}

/**
 * Merge `voices` (main first) into one view: by `at_ms`, ties in registry
 * order. A user line `@everyone …` is in each character's conversation; it
 * shows once, where the first one has it, until the same line comes again to
 * a character that already had it (the user said it again).
 */
export function together(voices: Voice[]): Together {
  const speakers = new Map<string, Speaker>();
  const origins = new Map<string, Origin>();
  const main = voices[0]?.conversation;
  if (!main) return { conversation: { id: "", title: "", created_ms: 0, updated_ms: 0, messages: [], more_before: false, more_after: false }, speakers, origins };
  const rows: { m: ChatMessage; voice: number; at: number; seq: number }[] = [];
  voices.forEach((v, voice) => {
    for (const m of v.conversation.messages) {
      const id = voice === 0 ? m.id : mergedId(v.name, m.id);
      rows.push({ m: voice === 0 ? m : copyOf(m, id), voice, at: m.at_ms, seq: rows.length });
      origins.set(id, { character: v.name, main: voice === 0, id: m.id });
    }
  });
  rows.sort((a, b) => a.at - b.at || a.voice - b.voice || a.seq - b.seq);
  const messages: ChatMessage[] = [];
  // The `@everyone` line shown last, and the characters whose copy of it is folded into it.
  let everyone: { text: string; heard: Set<number> } | null = null;
  for (const row of rows) {
    const name = voices[row.voice].name;
    const toAll = row.m.role === "user" && EVERYONE.test(row.m.text);
    if (toAll && everyone && everyone.text === row.m.text && !everyone.heard.has(row.voice)) {
      everyone.heard.add(row.voice);
      origins.delete(row.m.id);
      continue;
    }
    if (row.m.role === "user") everyone = toAll ? { text: row.m.text, heard: new Set([row.voice]) } : null;
    messages.push(row.m);
    speakers.set(row.m.id, { name, hue: hueAt(row.voice), everyone: toAll });
  }
  const conversation: Conversation = {
    ...main,
    updated_ms: Math.max(...voices.map((v) => v.conversation.updated_ms)),
    messages,
    more_before: voices.some((v) => v.conversation.more_before),
    more_after: false,
  };
  return { conversation, speakers, origins };
}
