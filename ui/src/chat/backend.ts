// The chat window's backend: what it needs from the core and the shell, built
// on the one shell access (`../shell/`). Two implementations: the Tauri shell
// (`tauriChatBackend`) and a browser fake that replays a demo conversation
// (`./fake.ts`), picked by `pickChatBackend`.

import type { ChatPage, ChatSettings, Conversation, ConversationSummary, SearchHit, Status, UiEvent, UserCommand } from "../bindings/index";
import { subscribeCast, subscribeEvents, type Unsubscribe } from "../shell/events";
import { connect, shell } from "../shell/shell";

/** Everything the chat window needs from its backend. Commands reject with a `CommandError`. */
export interface ChatBackend {
  /** "tauri" inside the shell, "fake" in a plain browser. */
  readonly kind: "tauri" | "fake";
  /** Hand a user action to the session. */
  send(command: UserCommand): Promise<void>;
  /** The connection state right now. */
  currentStatus(): Promise<Status>;
  /** The chat window's settings. */
  settings(): Promise<ChatSettings>;
  /** The conversation list, newest first. */
  conversations(): Promise<ConversationSummary[]>;
  /** Conversation `id` as a window opens it: its newest page, or the page around message `at` (null id: the current one). */
  conversation(id: string | null, at?: string | null): Promise<Conversation | null>;
  /** The messages of conversation `id` right before message `before` or right after message `after`. */
  page(id: string, before: string | null, after: string | null): Promise<ChatPage | null>;
  /** Messages matching `query`. */
  search(query: string): Promise<SearchHit[]>;
  /** Delete conversation `id` (the user confirmed); the core sends the current conversation after. */
  deleteConversation(id: string): Promise<void>;
  /** Delete every conversation (the user confirmed). */
  deleteAllConversations(): Promise<void>;
  /** Open the settings window. */
  openSettings(): Promise<void>;
  /** The open characters' names, main first (one: no `@` to offer). */
  characterNames(): Promise<string[]>;
  /** A line that starts with `@`, to the characters it names (the core routes it). */
  sendToCharacters(text: string): Promise<void>;
  /** Stop every open character. */
  stopAll(): Promise<void>;
  /** Open character `name`'s current conversation (the one view of every character). */
  characterConversation(name: string): Promise<Conversation | null>;
  /** The messages of character `name`'s conversation `id` right before `before` or right after `after`. */
  characterPage(name: string, id: string, before: string | null, after: string | null): Promise<ChatPage | null>;
  /** Hand a user action on character `name`'s messages to her session. */
  characterCommand(name: string, command: UserCommand): Promise<void>;
  /** Receive every event of the open characters other than main, with her name (once per page). */
  subscribeCast(onEvent: (name: string, event: UiEvent) => void): Promise<void>;
  /** Receive core events until the returned function is called. */
  subscribe(onEvent: (event: UiEvent) => void): Promise<Unsubscribe>;
}

/** The backend of the chat window inside the Tauri shell. */
export function tauriChatBackend(): ChatBackend {
  const done = () => undefined;
  return {
    kind: "tauri",
    send: (command) => shell.sendCommand(command).then(done),
    currentStatus: shell.currentStatus,
    settings: shell.chatSettings,
    conversations: shell.chatConversations,
    conversation: (id, at = null) => shell.chatConversation(id, at),
    page: (id, before, after) => shell.chatPage(id, before, after),
    search: (query) => shell.chatSearch(query),
    deleteConversation: (id) => shell.chatDeleteConversation(id).then(done),
    deleteAllConversations: () => shell.chatDeleteAllConversations().then(done),
    openSettings: () => shell.openSettings().then(done),
    characterNames: shell.characterNames,
    sendToCharacters: (text) => shell.sendToCharacters(text).then(done),
    stopAll: () => shell.stopCharacters().then(done),
    characterConversation: (name) => shell.characterConversation(name),
    characterPage: (name, id, before, after) => shell.characterPage(name, id, before, after),
    characterCommand: (name, command) => shell.characterCommand(name, command).then(done),
    subscribeCast,
    subscribe: subscribeEvents,
  };
}

/** The Tauri backend inside the shell, else the demo fake (loaded on demand). */
export function pickChatBackend(): Promise<ChatBackend> {
  return connect(tauriChatBackend, async () => (await import("./fake")).fakeChatBackend());
}
