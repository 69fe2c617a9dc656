// Lip movement: while real sound plays, the shell's mouth levels (about 30 a
// second) open the mouth; without them (voice off, no sound device) the text
// being "spoken" drives the five VRM mouth shapes, one character about every
// 60 ms. Pure: time comes in as ms.

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
  aa: "あかさたなはまやらわがざだばぱぁゃゎ", // not-ui-text: kana a mouth shape reads
  ih: "いきしちにひみりぎじぢびぴぃ", // not-ui-text: kana a mouth shape reads
  ou: "うくすつぬふむゆるぐずづぶぷぅゅゔ", // not-ui-text: kana a mouth shape reads
  ee: "えけせてねへめれげぜでべぺぇ", // not-ui-text: kana a mouth shape reads
  oh: "おこそとのほもよろをごぞどぼぽぉょ", // not-ui-text: kana a mouth shape reads
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
  // not-ui-text: kana a mouth shape reads
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

/** How long a mouth level counts after it arrived (levels come about every 33 ms). */
export const LEVEL_HOLD_MS = 250;

/** The mouth for a sound level 0..1: open on "aa", a little rounded as it opens wide. */
export function levelWeights(level: number): VisemeWeights {
  const v = Math.min(1, Math.max(0, Number.isFinite(level) ? level : 0));
  return { ...closedMouth(), aa: v, oh: v * 0.25 };
}

/**
 * Utterances said one after another: a later speech piece waits for the one
 * before. Mouth levels from real sound take over from the text while they
 * arrive; a halt closes the mouth at once and ignores levels until the next
 * utterance.
 */
export class LipSync {
  private queue: { text: string; start: number; end: number }[] = [];
  /** The last sound level and when it came, or null with no sound playing. */
  private sound: { level: number; at: number } | null = null;
  /** Set by a halt: levels still in flight are stale until the next `say`. */
  private halted = false;

  /** Queue `text` at `nowMs`; returns when it will have been said. */
  say(text: string, nowMs: number): number {
    this.halted = false;
    const last = this.queue[this.queue.length - 1];
    const start = Math.max(nowMs, last ? last.end : nowMs);
    const end = start + speechDurationMs(text);
    this.queue.push({ text, start, end });
    return end;
  }

  /**
   * A mouth level from the sound playing now (0..1). Real sound paces the
   * mouth, so the text's guess is dropped.
   */
  level(value: number, nowMs: number): void {
    if (this.halted) return;
    this.queue = [];
    this.sound = { level: value, at: nowMs };
  }

  /** The sentence's sound ended: the mouth closes (text queued later still moves it). */
  soundEnded(): void {
    this.sound = null;
  }

  /** Speech was cut: close the mouth now and ignore levels until the next `say`. */
  halt(): void {
    this.clear();
    this.halted = true;
  }

  /** Stop talking at once. */
  clear(): void {
    this.queue = [];
    this.sound = null;
  }

  /** True while real sound's levels arrive at `nowMs`. */
  following(nowMs: number): boolean {
    if (this.sound && nowMs - this.sound.at > LEVEL_HOLD_MS) this.sound = null;
    return this.sound !== null;
  }

  /** True while some queued text is still being said, or sound plays, at `nowMs`. */
  speaking(nowMs: number): boolean {
    this.prune(nowMs);
    return this.following(nowMs) || this.queue.length > 0;
  }

  /** The mouth weights at `nowMs`. */
  weights(nowMs: number): VisemeWeights {
    if (this.following(nowMs) && this.sound) return levelWeights(this.sound.level);
    this.prune(nowMs);
    const cur = this.queue[0];
    return cur ? visemeWeights(cur.text, nowMs - cur.start) : closedMouth();
  }

  /** How far the mouth is open at `nowMs`: the widest shape's weight. */
  openness(nowMs: number): number {
    return mouthOpen(this.weights(nowMs));
  }

  /** Drop what has been said. */
  private prune(nowMs: number): void {
    while (this.queue.length > 0 && this.queue[0].end <= nowMs) this.queue.shift();
  }
}

/** How far `w` opens the mouth: its widest shape's weight. */
export function mouthOpen(w: VisemeWeights): number {
  return Math.max(...VISEMES.map((v) => w[v]));
}
