// Which VRM expression an emotion cue shows. Pure: the model's expression
// names come in, one name comes out, so vitest checks every fallback.

/** The VRM 1.0 emotion presets, in the order the vocabulary lists them. */
export const EMOTION_PRESETS = ["neutral", "happy", "angry", "sad", "relaxed", "surprised"] as const;

/** Expressions the app drives itself (blink, lip-sync, gaze): never an emotion. */
export const RESERVED_EXPRESSIONS = new Set([
  "blink",
  "blinkLeft",
  "blinkRight",
  "aa",
  "ih",
  "ou",
  "ee",
  "oh",
  "lookUp",
  "lookDown",
  "lookLeft",
  "lookRight",
]);

/**
 * Cue words (normalised: lower case, no spaces, dashes or underscores) and the
 * expressions they may show, best first. VRM 0.x preset names come first.
 */
const SYNONYMS: Record<string, readonly string[]> = {
  // VRM 0.x blend shape presets
  joy: ["happy", "relaxed"],
  sorrow: ["sad"],
  fun: ["relaxed", "happy"],
  // happy
  happy: ["happy", "relaxed"],
  joyful: ["happy", "relaxed"],
  smile: ["happy", "relaxed"],
  smiling: ["happy", "relaxed"],
  glad: ["happy", "relaxed"],
  cheerful: ["happy", "relaxed"],
  excited: ["happy", "surprised"],
  delighted: ["happy", "relaxed"],
  laugh: ["happy", "relaxed"],
  laughing: ["happy", "relaxed"],
  grin: ["happy", "relaxed"],
  proud: ["happy", "relaxed"],
  love: ["happy", "relaxed"],
  // angry
  angry: ["angry"],
  anger: ["angry"],
  mad: ["angry"],
  annoyed: ["angry"],
  irritated: ["angry"],
  frustrated: ["angry", "sad"],
  upset: ["angry", "sad"],
  pout: ["angry", "sad"],
  // sad
  sad: ["sad"],
  sadness: ["sad"],
  unhappy: ["sad"],
  cry: ["sad"],
  crying: ["sad"],
  sorry: ["sad"],
  disappointed: ["sad"],
  lonely: ["sad"],
  worried: ["sad"],
  // relaxed
  relaxed: ["relaxed", "happy"],
  calm: ["relaxed", "happy"],
  content: ["relaxed", "happy"],
  peaceful: ["relaxed", "happy"],
  gentle: ["relaxed", "happy"],
  relieved: ["relaxed", "happy"],
  sleepy: ["relaxed"],
  shy: ["relaxed", "happy"],
  embarrassed: ["relaxed", "happy"],
  // surprised
  surprised: ["surprised"],
  surprise: ["surprised"],
  shocked: ["surprised"],
  astonished: ["surprised"],
  amazed: ["surprised", "happy"],
  startled: ["surprised"],
  wow: ["surprised", "happy"],
  curious: ["surprised"],
  // neutral
  neutral: ["neutral"],
  normal: ["neutral"],
  default: ["neutral"],
  none: ["neutral"],
  idle: ["neutral"],
  thinking: ["neutral"],
  serious: ["neutral"],
};

/** How a cue found its expression. */
export type EmotionMatch = "exact" | "synonym" | "fallback";

/** The expression to show for a cue, and how it was found. */
export interface ResolvedEmotion {
  /** An expression the model has, or "neutral" (every emotion off). */
  expression: string;
  /** exact: the model has the id; synonym: a known word mapped; fallback: nothing fits → neutral. */
  match: EmotionMatch;
}

/** The cue id as the synonym table spells it. */
function normalise(id: string): string {
  return id.trim().toLowerCase().replace(/[\s_-]+/g, "");
}

/**
 * Resolve an emotion cue id against the model's expression names: the exact
 * name (then case-insensitively) if the model has it, else the first synonym the
 * model has, else "neutral" (match "fallback": an unknown id, or a known one the
 * model has nothing for).
 */
export function resolveEmotion(id: string, available: Iterable<string>): ResolvedEmotion {
  const names = [...available].filter((n) => !RESERVED_EXPRESSIONS.has(n));
  if (names.includes(id)) return { expression: id, match: "exact" };
  const key = normalise(id);
  if (key === "") return { expression: "neutral", match: "fallback" };
  const folded = names.find((n) => normalise(n) === key);
  if (folded) return { expression: folded, match: "exact" };
  const candidates = SYNONYMS[key];
  if (candidates) {
    const found = candidates.find((c) => c === "neutral" || names.includes(c));
    return found ? { expression: found, match: "synonym" } : { expression: "neutral", match: "fallback" };
  }
  return { expression: "neutral", match: "fallback" };
}

/**
 * The emotion ids a model can show, for the vocabulary: "neutral" always (it
 * needs no expression), the other presets it has, then its custom expressions.
 */
export function emotionVocabulary(presets: Iterable<string>, custom: Iterable<string>): string[] {
  const have = new Set(presets);
  const out: string[] = ["neutral"];
  for (const p of EMOTION_PRESETS) if (p !== "neutral" && have.has(p)) out.push(p);
  for (const c of custom) if (!RESERVED_EXPRESSIONS.has(c) && !out.includes(c)) out.push(c);
  return out;
}
