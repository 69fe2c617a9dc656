// The chat window's words and numbers, and its attachment checks.
import { afterEach, describe, expect, it } from "vitest";
import type { Answer, ApprovalCard } from "../bindings/index";
import { setLanguage } from "../i18n/index";
import { admit, base64, chipLabel, refusal } from "./attachments";
import {
  approvalShown,
  approvalWord,
  countdown,
  deleteQuestion,
  errorDetail,
  errorTitle,
  fileSize,
  latencyText,
  prettyArgs,
  reasoningTitle,
  tail,
  thinking,
  titleShown,
  usageText,
  when,
} from "./format";

const answer = (over: Partial<Answer>): Answer => ({
  run_id: "r",
  state: "streaming",
  started_ms: 1000,
  text: "",
  reasoning: "",
  tools: [],
  approvals: [],
  ...over,
});

describe("format", () => {
  it("counts the reasoning while it runs, then says how long it took", () => {
    const live = answer({ reasoning: "hmm" });
    expect(thinking(live)).toBe(true);
    expect(reasoningTitle(live, 4200)).toBe("Thinking… 3.2s");
    const done = answer({ reasoning: "hmm", reasoning_ms: 1500, text: "x", state: "done" });
    expect(thinking(done)).toBe(false);
    expect(reasoningTitle(done, 99_999)).toBe("Thought for 1.5s");
    expect(reasoningTitle(answer({}), 0)).toBeNull();
  });

  it("writes the usage line with tokens only when both numbers exist", () => {
    expect(usageText({ chars: 12, seconds: 1.7, ttft: 0.2 })).toBe("12 chars · 1.7 s · TTFT 0.20 s");
    const full = { chars: 1200, seconds: 3, tokens: { input_tokens: 1, output_tokens: 2, total_tokens: 3456 }, context_window: 8192 };
    expect(usageText(full)).toBe("1,200 chars · 3.0 s · 3,456 tokens / 8,192");
    expect(usageText({ chars: 1, seconds: 1, tokens: full.tokens })).toBe("1 char · 1.0 s");
  });

  it("lists only the latency steps that happened", () => {
    expect(latencyText({ first_token_ms: 10, first_audio_ms: 30 })).toBe("first token +10 ms, first audio +30 ms");
    expect(latencyText({ request_sent_ms: 1, first_token_ms: 2, first_sentence_ms: 3, first_audio_ms: 4 })).toBe(
      "request sent +1 ms, first token +2 ms, first sentence +3 ms, first audio +4 ms",
    );
    expect(latencyText(undefined)).toBe("");
  });

  it("titles error cards by kind", () => {
    expect(errorTitle("auth")).toBe("Key refused");
    expect(errorTitle("rate_limit")).toBe("Rate limited");
    expect(errorTitle("internal")).toBe("Something went wrong");
    expect(errorTitle("whatever")).toBe("Something went wrong");
    expect(errorTitle("empty")).toBe("No output");
    expect(errorTitle("no_answer")).toBe("The tools ran, but no answer came back");
    expect(errorDetail({ kind: "no_answer", message: "x", tools_ok: 2 })).toBe("(2 tool calls succeeded)");
    expect(errorDetail({ kind: "no_answer", message: "x", tools_ok: 1 })).toBe("(1 tool call succeeded)");
    expect(errorDetail({ kind: "empty", message: "No output", tools_ok: 0 })).toBe("");
    expect(errorDetail({ kind: "rate_limit", message: "HTTP 429", tools_ok: 0 })).toBe("HTTP 429");
  });

  it("counts an approval down from asked_ms + 300 s, then times it out", () => {
    const card: ApprovalCard = { approval_id: "p", call_id: "c", name: "shell", args: {}, state: "pending", asked_ms: 0 };
    expect(approvalShown(card, 1000)).toEqual({ state: "pending", left_s: 299 });
    expect(countdown(299)).toBe("4:59");
    expect(approvalShown(card, 300_000)).toEqual({ state: "timed_out", left_s: 0 });
    expect(approvalWord("timed_out")).toBe("Timed out — denied");
    expect(approvalShown({ ...card, state: "allowed" }, 400_000).state).toBe("allowed");
  });

  it("tail-truncates long output and sizes files", () => {
    expect(tail("abc", 5)).toEqual({ text: "abc", cut: false });
    expect(tail("abcdefgh", 3)).toEqual({ text: "…fgh", cut: true });
    expect(fileSize(512)).toBe("512 B");
    expect(fileSize(3200)).toBe("3.2 kB");
    expect(fileSize(2_000_000)).toBe("2.0 MB");
    expect(prettyArgs({ a: 1 })).toBe('{\n  "a": 1\n}');
    expect(prettyArgs(null)).toBe("");
  });
});

describe("attachments", () => {
  const limits = { max_attachments: 2, max_attachment_bytes: 1000 };
  it("refuses a file over the size limit, naming it and the limit", () => {
    expect(refusal({ name: "big.bin", size: 1001 }, 0, limits)).toBe("big.bin (1.0 kB) is over the 1.0 kB limit per file");
    expect(refusal({ name: "ok.txt", size: 1000 }, 0, limits)).toBeNull();
  });
  it("refuses files past the count, keeping those that fit", () => {
    const files = [
      { name: "a", size: 1 },
      { name: "huge", size: 5000 },
      { name: "b", size: 1 },
      { name: "c", size: 1 },
    ];
    const { added, message } = admit(files, 0, limits);
    expect(added.map((f) => f.name)).toEqual(["a", "b"]);
    expect(message).toBe("huge (5.0 kB) is over the 1.0 kB limit per file");
    expect(admit([{ name: "c", size: 1 }], 2, limits).message).toBe("c: at most 2 files per message");
  });
  it("reads bytes as base64 and labels chips", () => {
    expect(base64(new TextEncoder().encode("hello"))).toBe("aGVsbG8=");
    expect(chipLabel({ name: "notes.txt", size: 3200 })).toBe("notes.txt · 3.2 kB");
  });

  it("asks before deleting a conversation, or all of them", () => {
    expect(deleteQuestion("Plans for the weekend?")).toEqual({ question: "Delete “Plans for the weekend?”? This cannot be undone.", confirm: "Delete" });
    expect(deleteQuestion("  ").question).toBe("Delete “New chat”? This cannot be undone.");
    expect(deleteQuestion(null)).toEqual({ question: "Delete all conversations? This cannot be undone.", confirm: "Delete all" });
  });
});

describe("in the user's language", () => {
  afterEach(() => setLanguage("en"));
  const done = answer({ reasoning: "hmm", reasoning_ms: 1500, text: "x", state: "done" });
  const usage = { chars: 1200, seconds: 3, ttft: 0.25, tokens: { input_tokens: 1, output_tokens: 2, total_tokens: 3456 }, context_window: 8192 };
  const march3 = new Date(2024, 2, 3, 14, 5).getTime();
  const later = new Date(2024, 2, 9, 9, 0).getTime();

  it("speaks English by default: times in 24 hours today, else month and day", () => {
    expect(when(march3, march3 + 60_000)).toBe("14:05");
    expect(when(march3, later)).toBe("Mar 3");
    expect(titleShown("New chat")).toBe("New chat");
    expect(titleShown("  ")).toBe("New chat");
    expect(titleShown("Plans")).toBe("Plans");
  });

  it("speaks Japanese", () => {
    setLanguage("ja");
    expect(reasoningTitle(done, 0)).toBe("1.5秒考えました");
    expect(usageText(usage)).toBe("1,200文字 · 3.0秒 · TTFT 0.25秒 · 3,456 / 8,192 トークン");
    expect(when(march3, later)).toBe("3月3日");
    expect(titleShown("New chat")).toBe("新しいチャット");
    expect(errorDetail({ kind: "no_answer", message: "x", tools_ok: 1 })).toBe("(ツール呼び出し 1 件が成功)");
    expect(refusal({ name: "c", size: 1 }, 2, { max_attachments: 2, max_attachment_bytes: 1000 })).toBe("c: 1 件のメッセージに添付できるのは 2 個までです");
  });

  it("speaks Korean", () => {
    setLanguage("ko");
    expect(approvalWord("denied")).toBe("거부함");
    expect(deleteQuestion(null).confirm).toBe("모두 삭제");
    expect(when(march3, later)).toBe("3월 3일");
  });
});
