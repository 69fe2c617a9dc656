// The chat window's one way to reach the core and the shell. Two
// implementations: the Tauri shell (`tauriChatBackend`) and a browser fake
// that replays a demo conversation (`./fake.ts`), picked by `pickChatBackend`.

import type { ChatPage, ChatSettings, Conversation, ConversationSummary, SearchHit, Status, UiEvent, UserCommand } from "../bindings/index";
import { asCommandError, inTauri } from "../pet/backend";
import { subscribeEvents, type Unsubscribe } from "../shell/events";
import { commands } from "../bindings/commands";

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
  /** Receive core events until the returned function is called. */
  subscribe(onEvent: (event: UiEvent) => void): Promise<Unsubscribe>;
}

/** The backend of the chat window inside the Tauri shell. */
export function tauriChatBackend(): ChatBackend {
  /** A command's answer; a rejection as a `CommandError`. */
  const call = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (err) {
      throw asCommandError(err);
    }
  };
  return {
    kind: "tauri",
    send: (command) => call(() => commands.sendCommand(command)).then(() => undefined),
    currentStatus: () => call(commands.currentStatus),
    settings: () => call(commands.chatSettings),
    conversations: () => call(commands.chatConversations),
    conversation: (id, at = null) => call(() => commands.chatConversation(id, at)),
    page: (id, before, after) => call(() => commands.chatPage(id, before, after)),
    search: (query) => call(() => commands.chatSearch(query)),
    deleteConversation: (id) => call(() => commands.chatDeleteConversation(id)).then(() => undefined),
    deleteAllConversations: () => call(commands.chatDeleteAllConversations).then(() => undefined),
    openSettings: () => call(commands.openSettings).then(() => undefined),
    subscribe: subscribeEvents,
  };
}

/** The Tauri backend inside the shell, else the demo fake (loaded on demand). */
export async function pickChatBackend(): Promise<ChatBackend> {
  if (inTauri()) return tauriChatBackend();
  const { fakeChatBackend } = await import("./fake");
  return fakeChatBackend();
}
