// Lip movement without audio: the text being "spoken" drives the five VRM
// mouth shapes, one character about every 60 ms. Pure: time comes in as ms.

/** The VRM mouth expressions, one per vowel. */
export const VISEMES = ["aa", "ih", "ou", "ee", "oh"] as const;
/** One mouth shape. */
export type Viseme = (typeof VISEMES)[number];
/** A weight per mouth shape. */
export type VisemeWeights = Record<Viseme, number>;

/** How long one character takes to say. */
export const MS_PER_CHAR = 60;
/** The shortest utterance: a one-word reply still moves the mouth. */
const MIN_MS = 400;
/** The longest: a very long reply stops moving the mouth after this. */
const MAX_MS = 30_000;

const KANA_ROWS: Record<Viseme, string> = {
  aa: "あかさたなはまやらわがざだばぱぁゃゎ",
  ih: "いきしちにひみりぎじぢびぴぃ",
  ou: "うくすつぬふむゆるぐずづぶぷぅゅゔ",
  ee: "えけせてねへめれげぜでべぺぇ",
  oh: "おこそとのほもよろをごぞどぼぽぉょ",
};
const LATIN: Record<string, Viseme> = { a: "aa", i: "ih", y: "ih", u: "ou", w: "ou", e: "ee", o: "oh" };

/** Milliseconds `text` takes to say. */
export function speechDurationMs(text: string): number {
  const n = [...text].length;
  if (n === 0) return 0;
  return Math.min(MAX_MS, Math.max(MIN_MS, n * MS_PER_CHAR));
}

/** A mouth shape and how far open, for one character in its word. */
interface Shape {
  viseme: Viseme;
  open: number;
}

/** The shape of `chars[i]`: vowels open wide, consonants half towards the next vowel, spaces close. */
function shapeAt(chars: string[], i: number): Shape | null {
  const c = chars[i];
  if (c === undefined) return null;
  const lower = c.toLowerCase();
  const latin = LATIN[lower];
  if (latin) return { viseme: latin, open: 0.85 };
  if (/[a-z]/.test(lower)) {
    for (let j = i + 1; j < chars.length && /[a-z]/i.test(chars[j]); j++) {
      const next = LATIN[chars[j].toLowerCase()];
      if (next) return { viseme: next, open: 0.35 };
    }
    return { viseme: "ih", open: 0.25 };
  }
  if (/[0-9]/.test(c)) return { viseme: "aa", open: 0.5 };
  const code = c.codePointAt(0) ?? 0;
  // Katakana → hiragana, then look the row up.
  const kana = code >= 0x30a1 && code <= 0x30f6 ? String.fromCodePoint(code - 0x60) : c;
  for (const v of VISEMES) if (KANA_ROWS[v].includes(kana)) return { viseme: v, open: 0.8 };
  if (kana === "ん" || kana === "っ") return { viseme: "ou", open: 0.2 };
  // Other letters (kanji, hangul, …): a shape picked by the code point.
  if (/\p{L}/u.test(c)) return { viseme: VISEMES[code % VISEMES.length], open: 0.7 };
  return null; // space, punctuation: closed
}

/** Smooth 0→1 ramp. */
function smooth(x: number): number {
  const t = Math.min(1, Math.max(0, x));
  return t * t * (3 - 2 * t);
}

/** All five weights at 0. */
export function closedMouth(): VisemeWeights {
  return { aa: 0, ih: 0, ou: 0, ee: 0, oh: 0 };
}

/**
 * The mouth weights `elapsedMs` into saying `text`: each character's shape,
 * blended from the previous one over the first half of its slot. Closed before
 * the start and once the text's duration has passed.
 */
export function visemeWeights(text: string, elapsedMs: number): VisemeWeights {
  const out = closedMouth();
  const chars = [...text];
  const duration = speechDurationMs(text);
  if (elapsedMs < 0 || elapsedMs >= duration || chars.length === 0) return out;
  const perChar = duration / chars.length;
  const i = Math.floor(elapsedMs / perChar);
  const frac = elapsedMs / perChar - i;
  const blend = smooth(frac * 2);
  const cur = shapeAt(chars, i);
  const prev = i > 0 ? shapeAt(chars, i - 1) : null;
  if (cur) out[cur.viseme] += cur.open * blend;
  if (prev) out[prev.viseme] += prev.open * (1 - blend);
  // Ease the mouth shut over the last slot.
  const tail = Math.min(1, (duration - elapsedMs) / perChar);
  for (const v of VISEMES) out[v] = Math.min(1, out[v] * tail);
  return out;
}

/** Utterances said one after another: a later speech piece waits for the one before. */
export class LipSync {
  private queue: { text: string; start: number; end: number }[] = [];

  /** Queue `text` at `nowMs`; returns when it will have been said. */
  say(text: string, nowMs: number): number {
    const last = this.queue[this.queue.length - 1];
    const start = Math.max(nowMs, last ? last.end : nowMs);
    const end = start + speechDurationMs(text);
    this.queue.push({ text, start, end });
    return end;
  }

  /** Stop talking at once. */
  clear(): void {
    this.queue = [];
  }

  /** True while some queued text is still being said at `nowMs`. */
  speaking(nowMs: number): boolean {
    this.prune(nowMs);
    return this.queue.length > 0;
  }

  /** The mouth weights at `nowMs`. */
  weights(nowMs: number): VisemeWeights {
    this.prune(nowMs);
    const cur = this.queue[0];
    return cur ? visemeWeights(cur.text, nowMs - cur.start) : closedMouth();
  }

  /** Drop what has been said. */
  private prune(nowMs: number): void {
    while (this.queue.length > 0 && this.queue[0].end <= nowMs) this.queue.shift();
  }
}
