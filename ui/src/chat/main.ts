// The chat window: loads the conversation, folds core events into the page
// state (state.ts) and renders it; the views report the user's actions back
// here, where they become commands.

import type { ApprovalDecision, Attachment, ChatMessage, ChatPage, ChatSettings, ConversationSummary, SearchHit, UiEvent, UserCommand } from "../bindings/index";
import { onLanguage, t } from "../i18n/index";
import { followLanguage } from "../i18n/live";
import { problemText } from "../i18n/problems";
import { asCommandError } from "../shell/shell";
import { queuedTexts } from "../slices/turn";
import { pickChatBackend, type ChatBackend } from "./backend";
import { Composer } from "./composer";
import { ConfirmDialog } from "./dialog";
import { byId } from "./dom";
import { connectionText, deleteQuestion, titleShown } from "./format";
import { addressed } from "./mention";
import { copyText, type MessageAction } from "./messages";
import { nextLapse, renderOffers } from "./offers";
import { SearchOverlay } from "./search";
import { renderConversations } from "./sidebar";
import {
  approved,
  backToCurrent,
  busy,
  closeSearch,
  conversationDeleted,
  focused,
  initialState,
  loaded,
  offerAnswered,
  openConversation,
  pageArrived,
  openSearch,
  readOnly,
  reduce,
  regenerateSent,
  say,
  searchAnswered,
  searchTyped,
  shown,
  showVersion,
  stopPressed,
  type ChatState,
} from "./state";
import { together, type Origin, type Together, type Voice } from "./together";
import { TranscriptView } from "./transcriptView";

/** Until `chat_settings` answers. */
const DEFAULT_SETTINGS: ChatSettings = { show_reasoning: true, collapse_reasoning: false, confirm_delete: true, max_attachments: 5, max_attachment_bytes: 2_000_000 };
/** How long a toast stays. */
const TOAST_MS = 4000;

let backend: ChatBackend;
/** Main's page: her session is this window's own. */
let state: ChatState = initialState(Date.now());
/** Each other open character's page, by name (several characters: `docs/characters.md`, "The chat window"). */
let others = new Map<string, ChatState>();
/** The one view of every character as last rendered (null: main's conversation alone). */
let view: Together | null = null;
let settings = DEFAULT_SETTINGS;
let conversations: ConversationSummary[] = [];
/** The user's reasoning-panel toggles, by answer; untouched panels follow `collapse_reasoning`. */
const reasoningToggles = new Map<string, boolean>();
/** Tool cards whose whole output is shown. */
const openOutputs = new Set<string>();
/** What the sidebar shows now. */
let listShown: { list: ConversationSummary[] | null; id: string } = { list: null, id: "" };
let toastSerial = 0;
let toastTimer = 0;
/** Takes an offer card down when it lapses. */
let offerTimer = 0;

const dialog = new ConfirmDialog();
const transcript = new TranscriptView(byId("transcript"), {
  approve,
  reasoningOpen: (key) => reasoningToggles.get(key) ?? !settings.collapse_reasoning,
  toggleReasoning: (key, open) => reasoningToggles.set(key, open),
  outputOpen: (key) => openOutputs.has(key),
  toggleOutput: (key, open) => (open ? openOutputs.add(key) : openOutputs.delete(key)),
  copy,
  act: (action, m) => void act(action, m),
  pick,
  backToCurrent: () => dispatch(backToCurrent(state)),
  loadOlder: () => void loadPage(true),
  loadNewer: () => void loadPage(false),
});
const composer = new Composer(
  {
    send: sendMessage,
    stop: () => {
      dispatch(stopPressed(state));
      // The chat window's Stop stops every open character.
      backend.stopAll().catch((err) => dispatch(say(state, problem(err))));
    },
    limits: () => settings,
    names: () => characterNames,
  },
  byId("drop-zone"),
);
const search = new SearchOverlay({
  query: (text) => void runSearch(text),
  choose: (hit) => void openHit(hit),
  close: () => dispatch(closeSearch(state)),
});

/** A refused command or a failed call, as the user reads it: the code's headline and the core's detail. */
function problem(err: unknown): string {
  return problemText(asCommandError(err));
}

/** Take a new state and show it. */
function dispatch(next: ChatState): void {
  if (next === state) return;
  state = next;
  render();
}

/** The one view of every character: with several open, while the current conversation shows. */
function merged(): Together | null {
  if (characterNames.length < 2 || readOnly(state)) return null;
  const voices: Voice[] = [];
  characterNames.forEach((name, i) => {
    const page = i === 0 ? state : others.get(name);
    if (page) voices.push({ name, conversation: page.transcript.current });
  });
  return together(voices);
}

/** True while any open character replies. */
function anyBusy(): boolean {
  return busy(state) || [...others.values()].some(busy);
}

function render(): void {
  const now = Date.now();
  view = merged();
  const conv = view?.conversation ?? shown(state);
  const conn = connectionText(state.connection);
  const pill = byId("connection");
  const running = anyBusy();
  // The page's first words (chat.html) give way to the live ones.
  pill.removeAttribute("data-l10n-id");
  pill.textContent = running ? t("chat-replying", { status: conn.text }) : conn.text;
  pill.dataset.tone = running && conn.tone === "ok" ? "busy" : conn.tone;
  const heading = byId("chat-title");
  heading.removeAttribute("data-l10n-id");
  const title = titleShown(conv.title);
  heading.textContent = title;
  // The conversation's own title is the user's words, not the interface's.
  if (title === conv.title.trim()) heading.dataset.words = "theirs";
  else delete heading.dataset.words;
  const scrolledToFocus = transcript.render(
    {
      conversation: conv,
      readOnly: readOnly(state),
      earlier: readOnly(state) && conv.id === state.transcript.current.id,
      running,
      queued: queuedTexts(state.turn),
      settings,
      focus: state.transcript.focus,
      speakers: view?.speakers,
    },
    now,
  );
  composer.update(running, true);
  renderOffers(byId("offers"), state.offers, now, {
    accept: (sw) => {
      dispatch(offerAnswered(state, sw));
      void command({ type: "switch_on", switch: sw });
    },
    dismiss: (sw) => dispatch(offerAnswered(state, sw)),
  });
  window.clearTimeout(offerTimer);
  const lapse = nextLapse(state.offers, now);
  if (lapse !== null) offerTimer = window.setTimeout(render, lapse - now + 20);
  search.render(state.search.open, state.search.query, state.search.hits, now);
  // The list changes rarely; rebuild it only then (not on every streamed piece).
  if (listShown.list !== conversations || listShown.id !== conv.id) {
    listShown = { list: conversations, id: conv.id };
    renderConversations(byId("conversation-list"), conversations, conv.id, now, {
      open: (c) => void openListed(c),
      remove: (c) => void deleteConversation(c),
      removeAll: () => void deleteAll(),
    });
  }
  if (state.notice && state.notice.serial !== toastSerial) toast(state.notice.text, state.notice.serial);
  if (scrolledToFocus) dispatch(focused(state));
}

/** Show a one-off line for a few seconds. */
function toast(text: string, serial = toastSerial): void {
  toastSerial = serial;
  const el = byId("toast");
  el.textContent = text;
  el.hidden = false;
  window.clearTimeout(toastTimer);
  toastTimer = window.setTimeout(() => (el.hidden = true), TOAST_MS);
}

/** Send a command; a refusal becomes a toast. True when it was handed over. */
function command(c: UserCommand): Promise<boolean> {
  return handed(backend.send(c));
}

/** Whether `sent` was handed over; a refusal becomes a toast. */
async function handed(sent: Promise<void>): Promise<boolean> {
  try {
    await sent;
    return true;
  } catch (err) {
    dispatch(say(state, problem(err)));
    return false;
  }
}

/** The composer's message: to the current chat, whatever is on screen; a line that starts with `@` to the characters it names. */
async function sendMessage(text: string, attachments: Attachment[]): Promise<boolean> {
  dispatch(backToCurrent(state));
  if (attachments.length === 0 && characterNames.length > 1 && addressed(text)) return handed(backend.sendToCharacters(text));
  const c: UserCommand = attachments.length > 0 ? { type: "send_message", text, attachments } : { type: "send_text", text };
  return command(c);
}

/** The open characters' names, main first (several: `@` offers them and the view shows them all); asked when the window gets the focus. */
let characterNames: string[] = [];
/** A names request in flight (one at a time). */
let askingNames: Promise<void> | null = null;
function loadCharacterNames(): Promise<void> {
  askingNames ??= syncCharacters().finally(() => (askingNames = null));
  return askingNames;
}

/** Ask for the open characters; when they changed, load each new one's conversation (and main's, when main changed). */
async function syncCharacters(): Promise<void> {
  const names = await backend.characterNames().catch(() => characterNames);
  if (names.join("\n") === characterNames.join("\n")) return;
  const mainChanged = names[0] !== characterNames[0] && characterNames.length > 0;
  characterNames = names;
  const next = new Map<string, ChatState>();
  for (const name of names.slice(1)) next.set(name, others.get(name) ?? initialState(Date.now()));
  const fresh = names.slice(1).filter((name) => !others.has(name));
  others = next;
  for (const name of unloaded) if (!names.includes(name)) unloaded.delete(name);
  // Another character is main now: what the old one showed and ran goes with her.
  if (mainChanged) state = { ...initialState(Date.now()), connection: state.connection, notice: state.notice };
  await Promise.all([...fresh, ...(mainChanged ? [names[0]] : [])].map(loadConversationOf));
  render();
}

/** Characters whose conversation could not be read yet (her session was still starting): read on her next event. */
const unloaded = new Set<string>();
/** Conversation reads in flight, by character. */
const reading = new Set<string>();

/** Read character `name`'s current conversation into her page (main's into `state`); on failure, try again on her next event. */
async function loadConversationOf(name: string): Promise<void> {
  if (reading.has(name)) return;
  reading.add(name);
  try {
    const isMain = name === characterNames[0];
    const conv = isMain ? await backend.conversation(null) : await backend.characterConversation(name);
    unloaded.delete(name);
    if (isMain) state = loaded(state, conv);
    else {
      const s = others.get(name);
      if (s) others.set(name, loaded(s, conv));
    }
    render();
  } catch {
    unloaded.add(name);
  } finally {
    reading.delete(name);
  }
}

/** Character `name`'s event (not main's): folded into her page; a name not known yet asks for the characters again. */
function onCastEvent(name: string, event: UiEvent): void {
  const s = others.get(name);
  if (!s) {
    void loadCharacterNames();
    return;
  }
  const next = reduce(s, event, Date.now());
  others.set(name, next);
  if (unloaded.has(name)) void loadConversationOf(name);
  if (next.notice && next.notice.serial !== s.notice?.serial) toast(t("chat-from-character", { name, text: next.notice.text }));
  if (event.type === "character_changed") void loadCharacterNames();
  render();
}

/** Where merged message `m` came from, when it is another character's (not main's). */
function otherOrigin(m: ChatMessage): Origin | null {
  const o = view?.origins.get(m.id);
  return o && !o.main ? o : null;
}

/** Hand `c` to character `name`'s session; a refusal becomes a toast. */
function commandTo(name: string, c: UserCommand): Promise<boolean> {
  return handed(backend.characterCommand(name, c));
}

/** Change character `name`'s page and show it. */
function updateOther(name: string, change: (s: ChatState) => ChatState): void {
  const s = others.get(name);
  if (!s) return;
  const next = change(s);
  if (next === s) return;
  others.set(name, next);
  render();
}

function approve(approvalId: string, decision: ApprovalDecision, msgId: string): void {
  // The card is in the message of the character who asked (approval ids
  // are each session's own: two characters may both ask `ask-1`).
  const owner = view?.origins.get(msgId)?.main === false ? (view.origins.get(msgId)?.character ?? null) : null;
  if (owner !== null) {
    updateOther(owner, (s) => approved(s, approvalId, decision));
    void commandTo(owner, { type: "approve", approval_id: approvalId, decision });
    return;
  }
  dispatch(approved(state, approvalId, decision));
  void command({ type: "approve", approval_id: approvalId, decision });
}

function copy(text: string): void {
  navigator.clipboard.writeText(text).then(
    () => toast(t("chat-copied")),
    () => toast(t("chat-copy-failed")),
  );
}

async function act(action: MessageAction, m: ChatMessage): Promise<void> {
  const other = otherOrigin(m);
  if (other && action !== "copy") return actOn(other, action);
  switch (action) {
    case "copy":
      return copy(copyText(m));
    case "regenerate":
      if (busy(state)) return;
      dispatch(regenerateSent(state, m.id));
      await command({ type: "regenerate", msg_id: m.id });
      return;
    case "fork":
      await command({ type: "fork", msg_id: m.id });
      return;
    case "delete":
      if (settings.confirm_delete && !(await dialog.ask(deleteMessageQuestion))) return;
      await command({ type: "delete_message", msg_id: m.id });
      return;
    default: {
      const unknown: never = action;
      console.warn("unknown action", unknown);
    }
  }
}

/** What the dialog asks before a message is deleted. */
function deleteMessageQuestion(): { question: string; confirm: string } {
  return { question: t("chat-delete-message-question"), confirm: t("chat-delete-confirm") };
}

/** An action on another character's message: to her session, by her own id of it. */
async function actOn(o: Origin, action: Exclude<MessageAction, "copy">): Promise<void> {
  switch (action) {
    case "regenerate":
      if (busy(others.get(o.character) ?? state)) return;
      updateOther(o.character, (s) => regenerateSent(s, o.id));
      await commandTo(o.character, { type: "regenerate", msg_id: o.id });
      return;
    case "fork":
      await commandTo(o.character, { type: "fork", msg_id: o.id });
      return;
    case "delete":
      if (settings.confirm_delete && !(await dialog.ask(deleteMessageQuestion))) return;
      await commandTo(o.character, { type: "delete_message", msg_id: o.id });
      return;
    default: {
      const unknown: never = action;
      console.warn("unknown action", unknown);
    }
  }
}

/** The version picker: show answer `n` now; on the current chat, tell the core too. */
function pick(m: ChatMessage, n: number): void {
  if (n < 0 || n >= m.answers.length) return;
  const other = otherOrigin(m);
  if (other) {
    updateOther(other.character, (s) => showVersion(s, other.id, n));
    void commandTo(other.character, { type: "pick_version", msg_id: other.id, n });
    return;
  }
  const live = !readOnly(state);
  dispatch(showVersion(state, m.id, n));
  if (live) void command({ type: "pick_version", msg_id: m.id, n });
}

async function refreshList(): Promise<void> {
  try {
    conversations = await backend.conversations();
    render();
  } catch (err) {
    console.warn("chat_conversations failed", err);
  }
}

/** The list's Delete on conversation `c`, once the user confirms. */
async function deleteConversation(c: ConversationSummary): Promise<void> {
  if (!(await dialog.ask(() => deleteQuestion(c.title)))) return;
  if (await deleting(() => backend.deleteConversation(c.id))) dispatch(conversationDeleted(state, c.id));
}

/** "Delete all conversations", once the user confirms. */
async function deleteAll(): Promise<void> {
  if (!(await dialog.ask(() => deleteQuestion(null)))) return;
  if (await deleting(() => backend.deleteAllConversations())) dispatch(conversationDeleted(state, null));
}

/** Run a delete; a refusal becomes a toast. True when it was handed over. */
async function deleting(run: () => Promise<void>): Promise<boolean> {
  try {
    await run();
    return true;
  } catch (err) {
    dispatch(say(state, problem(err)));
    return false;
  }
}

/** A conversation from the list: the current one, or an older one read-only. */
async function openListed(c: ConversationSummary): Promise<void> {
  if (c.current || c.id === state.transcript.current.id) return dispatch(backToCurrent(state));
  try {
    const conv = await backend.conversation(c.id);
    if (conv) dispatch(openConversation(state, conv));
  } catch (err) {
    dispatch(say(state, problem(err)));
  }
}

async function runSearch(query: string): Promise<void> {
  dispatch(searchTyped(state, query));
  if (query.trim() === "") return;
  try {
    const hits = await backend.search(query);
    dispatch(searchAnswered(state, query, hits));
  } catch (err) {
    dispatch(say(state, problem(err)));
  }
}

/** A page load in flight (one at a time). */
let paging = false;

/** The view reached the top (`older`) or the bottom of what is loaded: load the next page there. */
async function loadPage(older: boolean): Promise<void> {
  if (view !== null) return older ? loadOlderOfEach() : undefined;
  const conv = shown(state);
  const edge = older ? conv.messages[0] : conv.messages.at(-1);
  if (paging || edge === undefined || !(older ? conv.more_before : conv.more_after)) return;
  paging = true;
  try {
    const page = await backend.page(conv.id, older ? edge.id : null, older ? null : edge.id);
    if (page) dispatch(pageArrived(state, page, older));
  } catch (err) {
    dispatch(say(state, problem(err)));
  } finally {
    paging = false;
  }
}

/** The one view reached its top: an older page of each character who has one. */
async function loadOlderOfEach(): Promise<void> {
  if (paging) return;
  paging = true;
  try {
    const pages = characterNames.map(async (name, i) => {
      const s = i === 0 ? state : others.get(name);
      const conv = s?.transcript.current;
      const first = conv?.messages[0];
      if (!conv || !first || !conv.more_before) return;
      const page: ChatPage | null = i === 0 ? await backend.page(conv.id, first.id, null) : await backend.characterPage(name, conv.id, first.id, null);
      if (!page) return;
      if (i === 0) dispatch(pageArrived(state, page, true));
      else updateOther(name, (o) => pageArrived(o, page, true));
    });
    await Promise.all(pages);
  } catch (err) {
    dispatch(say(state, problem(err)));
  } finally {
    paging = false;
  }
}

/** A search hit: open its conversation and show the message. */
async function openHit(hit: SearchHit): Promise<void> {
  try {
    const loaded = hit.conversation_id === state.transcript.current.id && state.transcript.current.messages.some((m) => m.id === hit.message_id);
    const conv = loaded ? state.transcript.current : await backend.conversation(hit.conversation_id, hit.message_id);
    if (!conv) return dispatch(say(closeSearch(state), t("chat-conversation-gone")));
    dispatch(openConversation(closeSearch(state), conv, hit.message_id));
  } catch (err) {
    dispatch(say(state, problem(err)));
  }
}

function onEvent(event: UiEvent): void {
  dispatch(reduce(state, event, Date.now()));
  if (characterNames.length > 0 && unloaded.has(characterNames[0])) void loadConversationOf(characterNames[0]);
  // Main's window shows another character now (the cast changed).
  if (event.type === "character_changed") void loadCharacterNames();
  if (event.type === "conversation" || event.type === "turn_ended" || event.type === "session_reset") void refreshList();
}

function onKey(e: KeyboardEvent): void {
  const mod = e.metaKey || e.ctrlKey;
  const key = e.key.toLowerCase();
  if (e.key === "Escape") {
    if (dialog.open) dialog.close(false);
    else if (state.search.open) dispatch(closeSearch(state));
    else return;
    e.preventDefault();
    composer.focus();
  } else if (mod && key === "k") {
    e.preventDefault();
    dispatch(state.search.open ? closeSearch(state) : openSearch(state));
  } else if (mod && key === "n") {
    e.preventDefault();
    newChat();
  } else if (mod && e.key === ",") {
    e.preventDefault();
    void backend.openSettings().catch((err) => dispatch(say(state, problem(err))));
  }
}

/** A new chat: with several characters, each one starts a new conversation (the view shows them all). */
function newChat(): void {
  dispatch(backToCurrent(state));
  void command({ type: "reset" });
  if (view !== null) for (const name of others.keys()) void commandTo(name, { type: "reset" });
  composer.focus();
}

async function loadSettings(): Promise<void> {
  try {
    const next = await backend.settings();
    if (JSON.stringify(next) !== JSON.stringify(settings)) {
      settings = next;
      render();
    }
  } catch (err) {
    console.warn("chat_settings failed", err);
  }
}

async function start(): Promise<void> {
  await followLanguage();
  // A switch of language writes the window again: the list, the rows, the offers and the search are rebuilt in it.
  onLanguage(() => {
    listShown = { list: null, id: "" };
    render();
  });
  backend = await pickChatBackend();
  document.addEventListener("keydown", onKey);
  byId("new-chat").addEventListener("click", newChat);
  byId("search-button").addEventListener("click", () => dispatch(openSearch(state)));
  byId("settings-button").addEventListener("click", () => void backend.openSettings());
  // The settings window may have changed the chat settings.
  window.addEventListener("focus", () => void loadSettings());
  window.addEventListener("focus", () => void loadCharacterNames());
  await backend.subscribe(onEvent);
  await backend.subscribeCast(onCastEvent).catch((err) => console.warn("yui: no cast channel; the other characters show in their own windows", err));
  void loadCharacterNames();
  const [status, current] = await Promise.all([backend.currentStatus(), backend.conversation(null), loadSettings(), refreshList()]);
  // A status event that came while loading is newer than the answer.
  const fresh = state.connection.state === "connecting" && state.connection.attempt === 0;
  dispatch(loaded(fresh ? reduce(state, { type: "status", status }, Date.now()) : state, current));
  render();
  // Offers raised before this window opened come again (dismissed ones stay dismissed).
  backend.send({ type: "show_offers" }).catch((err) => console.warn("yui: show_offers failed", asCommandError(err).message));
  window.setInterval(() => transcript.tick(Date.now()), 500);
  composer.focus();
}

start().catch((err) => {
  console.error("chat window failed to start", err);
  toast(t("chat-start-failed", { problem: problem(err) }));
});
