// The parts of an assistant answer: the reasoning panel, tool cards,
// approval cards, the usage line, the error card and the "Stopped" marker.
// Each is built whole from the model; `tick` refreshes the clocks in place.

import type { Answer, ApprovalCard, ApprovalDecision, ToolCard, UsageLine } from "../bindings/index";
import { mark, t } from "../i18n/index";
import { h, SLOT, withElement } from "./dom";
import {
  approvalLeft,
  approvalShown,
  approvalWord,
  latencyText,
  outcome,
  prettyArgs,
  reasoningTitle,
  seconds,
  tail,
  thinking,
  thinkingTitle,
  usageText,
} from "./format";

/** What the cards need from the page. */
export interface CardHooks {
  /** The user answered an approval card of message `msgId` (its id in the view). */
  approve(approvalId: string, decision: ApprovalDecision, msgId: string): void;
  /** Whether the reasoning panel of `key` is open (the user's toggle, else the setting's default). */
  reasoningOpen(key: string): boolean;
  /** The user folded or unfolded the reasoning panel of `key`. */
  toggleReasoning(key: string, open: boolean): void;
  /** Whether the whole output of tool card `key` is shown. */
  outputOpen(key: string): boolean;
  /** The user pressed "Show all" / "Show less" on tool card `key`. */
  toggleOutput(key: string, open: boolean): void;
  /** Copy `text` to the clipboard. */
  copy(text: string): void;
}

/** The reasoning panel ("Thinking… Ns" while it runs, then "Thought for Ns"), or null. */
export function reasoningPanel(a: Answer, key: string, hooks: CardHooks, now: number): HTMLElement | null {
  const title = reasoningTitle(a, now);
  if (title === null) return null;
  const live = thinking(a);
  const details = h(
    "details",
    { class: "reasoning", "data-live": live ? "true" : null, "data-since": live ? a.started_ms : null },
    h("summary", { class: "reasoning-title" }, title),
    h("div", { class: "reasoning-text", "data-words": "theirs" }, a.reasoning),
  );
  // Open unless the user folded it or `collapse_reasoning` starts it folded.
  details.open = hooks.reasoningOpen(key);
  details.addEventListener("toggle", () => {
    if (details.open !== hooks.reasoningOpen(key)) hooks.toggleReasoning(key, details.open);
  });
  return details;
}

/** A tool card and the approval card that gated its call, when there was one. */
export interface PairedTool {
  /** The tool card. */
  tool: ToolCard;
  /** The approval card it answers to (paired by the fold: order, name, arguments). */
  gate?: ApprovalCard;
}

/**
 * An answer's cards as shown: every tool card with the approval that gated it, and the approval cards
 * no tool card has taken yet (pending, or answered and waiting for the call), so one call shows as one card.
 */
export function pairCards(a: Answer): { tools: PairedTool[]; approvals: ApprovalCard[] } {
  const byId = new Map(a.approvals.map((c) => [c.approval_id, c]));
  const tools = a.tools.map((tool) => {
    const gate = tool.approval_id !== undefined ? byId.get(tool.approval_id) : undefined;
    return gate ? { tool, gate } : { tool };
  });
  const taken = new Set(tools.flatMap((t) => (t.gate ? [t.gate.approval_id] : [])));
  return { tools, approvals: a.approvals.filter((c) => !taken.has(c.approval_id)) };
}

/** The tool cards and the approval cards still on their own, in that order. */
export function answerCards(a: Answer, key: string, hooks: CardHooks, now: number, readOnly: boolean, msgId: string): HTMLElement[] {
  const { tools, approvals } = pairCards(a);
  return [
    ...tools.map((t, i) => toolCard(t.tool, `${key}/${t.tool.call_id || i}`, hooks, t.gate)),
    ...approvals.map((c) => approvalCard(c, hooks, now, readOnly, msgId)),
  ];
}

/** What a stopped answer's marker says: the engine's confirmation, where the wire has one. */
export function stoppedText(a: Answer): string {
  if (a.stop_confirmed === false) return t("chat-stopped-unconfirmed");
  return t("chat-stopped");
}

/** One tool card: name, arguments, state, output tail; with `gate`, what the user answered before it ran. */
export function toolCard(c: ToolCard, key: string, hooks: CardHooks, gate?: ApprovalCard): HTMLElement {
  const args = prettyArgs(c.args);
  const head = h(
    "div",
    { class: "tool-head" },
    h("span", { class: `tool-dot ${c.state}`, "aria-hidden": "true" }),
    h("span", { class: "tool-name", "data-words": "theirs" }, c.name),
    h("span", { class: "tool-state" }, toolStateWord(c)),
    gate ? h("span", { class: "tool-approval", "data-approval": gate.state, "data-approval-id": gate.approval_id }, approvalWord(gate.state)) : null,
  );
  const body: (HTMLElement | null)[] = [];
  if (c.state === "drafting") body.push(h("div", { class: "tool-note" }, t("chat-tool-preparing-note")));
  else if (args) body.push(h("pre", { class: "tool-args" }, args));
  if (c.state === "unresolved") body.push(h("div", { class: "tool-note" }, t("chat-tool-no-result")));
  if (c.state === "done" || c.state === "failed") body.push(outputPane(c, key, hooks));
  return h("div", { class: "tool-card", "data-state": c.state, "data-call-id": c.call_id, "data-approval": gate?.state ?? null }, head, ...body);
}

/** What a tool card's head says in each state (with how long the call took, when known). */
const TOOL_STATES: Record<ToolCard["state"], (took: string | null) => string> = {
  drafting: () => t("chat-tool-preparing"),
  running: () => t("chat-tool-running"),
  done: (took) => (took === null ? t("chat-tool-done") : t("chat-tool-done-in", { time: took })),
  failed: (took) => (took === null ? t("chat-tool-failed") : t("chat-tool-failed-in", { time: took })),
  unresolved: () => t("chat-tool-no-result"),
};

function toolStateWord(c: ToolCard): string {
  const word = TOOL_STATES[c.state] ?? (() => String(c.state));
  return word(c.seconds !== undefined ? seconds(c.seconds * 1000) : null);
}

/** The output pane: the last ~1,200 characters behind "Show all", and "Copy output". */
function outputPane(c: ToolCard, key: string, hooks: CardHooks): HTMLElement {
  const short = tail(c.output);
  const pre = h("pre", { class: "tool-output" });
  const render = (open: boolean) => {
    pre.textContent = open || !short.cut ? c.output : short.text;
    if (open) mark(toggle, "chat-output-show-less");
    else mark(toggle, "chat-output-show-all");
  };
  // not-ui-text: class names
  const toggle = h("button", { type: "button", class: "link tool-show-all", hidden: !short.cut });
  toggle.addEventListener("click", () => {
    const open = !hooks.outputOpen(key);
    hooks.toggleOutput(key, open);
    render(open);
  });
  render(hooks.outputOpen(key));
  // not-ui-text: class names
  const copy = h("button", { type: "button", class: "link tool-copy" });
  mark(copy, "chat-output-copy");
  copy.addEventListener("click", () => hooks.copy(c.output));
  // A backend tool's status carries no output: say so, with nothing to copy.
  if (c.output === "") return h("div", { class: "tool-result" }, h("div", { class: "tool-note" }, t("chat-output-none")));
  return h("div", { class: "tool-result" }, pre, h("div", { class: "tool-actions" }, toggle, copy));
}

/** One approval card: the tool and its arguments, Allow / Always allow / Deny, a countdown while pending. */
export function approvalCard(c: ApprovalCard, hooks: CardHooks, now: number, readOnly: boolean, msgId: string): HTMLElement {
  const shownAs = approvalShown(c, now);
  const pending = shownAs.state === "pending";
  const button = (decision: ApprovalDecision, label: string) => {
    const b = h("button", { type: "button", class: `approve-${decision}`, "data-decision": decision, disabled: !pending || readOnly }, label);
    b.addEventListener("click", () => hooks.approve(c.approval_id, decision, msgId));
    return b;
  };
  const tool = h("strong", { "data-words": "theirs" }, c.name);
  return h(
    "div",
    { class: "approval-card", "data-state": shownAs.state, "data-approval-id": c.approval_id, "data-asked": c.asked_ms },
    h("div", { class: "approval-head" }, h("span", { class: "approval-icon", "aria-hidden": "true" }, "⚠"), h("span", {}, ...withElement(t("chat-approval-ask", { tool: SLOT }), tool))),
    h("pre", { class: "tool-args" }, prettyArgs(c.args)),
    h(
      "div",
      { class: "approval-actions" },
      button("allow", t("chat-approve-allow")),
      button("always", t("chat-approve-always")),
      button("deny", t("chat-approve-deny")),
      h("span", { class: "approval-status" }, pending ? approvalLeft(shownAs.left_s) : approvalWord(shownAs.state)),
    ),
  );
}

/** The usage line; the latency breakdown on hover. */
export function usageLine(u: UsageLine): HTMLElement {
  const hover = latencyText(u.latency);
  return h("div", { class: "usage-line", title: hover || null, tabindex: hover ? 0 : null }, usageText(u));
}

/** The error card or the "Stopped" marker that closes an answer, or null. */
export function outcomeMark(a: Answer): HTMLElement | null {
  const o = outcome(a);
  if (o === null) return null;
  if (o.kind === "stopped") {
    const confirmed = a.stop_confirmed === undefined ? null : String(a.stop_confirmed);
    return h("div", { class: "stopped-marker", "data-confirmed": confirmed, role: a.stop_confirmed === false ? "alert" : null }, stoppedText(a));
  }
  return h(
    "div",
    { class: "error-card", "data-kind": o.errorKind, role: "alert" },
    h("div", { class: "error-title" }, o.title),
    o.detail ? h("div", { class: "error-detail" }, o.detail) : null,
  );
}

/** Refresh the clocks under `root`: the live reasoning titles and the approval countdowns. */
export function tick(root: HTMLElement, now: number): void {
  for (const el of root.querySelectorAll<HTMLElement>(".reasoning[data-live]")) {
    const title = el.querySelector(".reasoning-title");
    if (title) title.textContent = thinkingTitle(now - Number(el.dataset.since));
  }
  for (const el of root.querySelectorAll<HTMLElement>('.approval-card[data-state="pending"]')) {
    const card: ApprovalCard = { approval_id: "", call_id: "", name: "", args: null, state: "pending", asked_ms: Number(el.dataset.asked) };
    const s = approvalShown(card, now);
    const status = el.querySelector(".approval-status");
    if (s.state === "timed_out") {
      el.dataset.state = "timed_out";
      el.querySelectorAll("button").forEach((b) => (b.disabled = true));
      if (status) status.textContent = approvalWord("timed_out");
    } else if (status) {
      status.textContent = approvalLeft(s.left_s);
    }
  }
}
