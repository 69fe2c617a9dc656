// Generated from src-tauri/src/api.rs. Do not edit.
// Regenerate: UPDATE_BINDINGS=1 cargo test -p yui --lib api

import { Channel, invoke } from "@tauri-apps/api/core";
import type { CharacterInfo, ChatPage, ChatSettings, Conversation, ConversationSummary, DelegationItem, Display, ErrorCode, FoundServer, IngressInfo, InputRect, KeyPlace, PresetChange, Presets, ProbeReport, Provider, RelationRecord, SearchHit, SentContext, Settings, StageReport, Status, UiEvent, UserCommand, VoiceChoices, VoicePick, VoiceReport } from "./index";

/** What a rejected command carries: a code to switch on and a line for a person. */
export type CommandError = { code: ErrorCode; message: string };

/** Every command of the shell, typed. Each rejects with a `CommandError`. */
export const commands = {
  /** Hand a user action to the window's session. */
  sendCommand: (command: UserCommand): Promise<null> => invoke<null>("send_command", { command }),
  /** The connection state now. */
  currentStatus: (): Promise<Status> => invoke<Status>("current_status"),
  /** Register the channel every core event of the session comes down, in order. */
  eventChannel: (channel: Channel<UiEvent>): Promise<null> => invoke<null>("event_channel", { channel }),
  /** Register the channel every event of the other open characters comes down, each with her name (the chat window). */
  castChannel: (channel: Channel<{ character: string, event: UiEvent }>): Promise<null> => invoke<null>("cast_channel", { channel }),
  /** Register the channel the cursor position (null: outside) comes down. */
  cursorChannel: (channel: Channel<{ x: number, y: number } | null>): Promise<null> => invoke<null>("cursor_channel", { channel }),
  /** Open the chat window, or bring it to the front. */
  openChat: (): Promise<null> => invoke<null>("open_chat"),
  /** The character's conversations, newest change first. */
  chatConversations: (): Promise<Array<ConversationSummary>> => invoke<Array<ConversationSummary>>("chat_conversations"),
  /** Conversation `id` (its newest page, or the page around message `at`), or the current one for null. */
  chatConversation: (id: string | null, at: string | null): Promise<Conversation | null> => invoke<Conversation | null>("chat_conversation", { at, id }),
  /** The messages of conversation `id` right before message `before` or right after message `after`. */
  chatPage: (id: string, before: string | null, after: string | null): Promise<ChatPage | null> => invoke<ChatPage | null>("chat_page", { after, before, id }),
  /** Messages of every conversation that contain `query`. */
  chatSearch: (query: string): Promise<Array<SearchHit>> => invoke<Array<SearchHit>>("chat_search", { query }),
  /** Delete conversation `id` (the window asked first). */
  chatDeleteConversation: (id: string): Promise<null> => invoke<null>("chat_delete_conversation", { id }),
  /** Delete every conversation (the window asked first). */
  chatDeleteAllConversations: (): Promise<null> => invoke<null>("chat_delete_all_conversations"),
  /** The chat window's settings now. */
  chatSettings: (): Promise<ChatSettings> => invoke<ChatSettings>("chat_settings"),
  /** The name of the character this window shows. */
  characterName: (): Promise<string> => invoke<string>("character_name"),
  /** The user's .vrm bytes (empty: the bundled character). */
  characterFile: (): Promise<ArrayBuffer | Uint8Array | number[]> => invoke<ArrayBuffer | Uint8Array | number[]>("character_file"),
  /** The bytes of the user's .vrma clip `id`. */
  motionFile: (id: string): Promise<ArrayBuffer | Uint8Array | number[]> => invoke<ArrayBuffer | Uint8Array | number[]>("motion_file", { id }),
  /** The ids of the user's .vrma clips. */
  userMotions: (): Promise<Array<string>> => invoke<Array<string>>("user_motions"),
  /** Make the pet window ignore (true) or take the mouse. */
  setClickThrough: (ignore: boolean): Promise<null> => invoke<null>("set_click_through", { ignore }),
  /** The pet window's input region: the drawn shape (CSS px), or null for the whole window. */
  setInputShape: (rects: Array<InputRect> | null): Promise<null> => invoke<null>("set_input_shape", { rects }),
  /** The user pressed into the pet's composer (true) or is done with it (false): the layer-shell pet holds the keyboard only meanwhile. */
  setPetKeyboard: (on: boolean): Promise<null> => invoke<null>("set_pet_keyboard", { on }),
  /** Whether click-through goes by the drawn shape (set_input_shape) here: native Wayland. */
  inputByShape: (): Promise<boolean> => invoke<boolean>("input_by_shape"),
  /** The open characters' names, main first. */
  characterNames: (): Promise<Array<string>> => invoke<Array<string>>("character_names"),
  /** Open character `character`'s current conversation (the chat window's view of every character). */
  characterConversation: (character: string): Promise<Conversation | null> => invoke<Conversation | null>("character_conversation", { character }),
  /** The messages of character `character`'s conversation `id` before `before` or after `after`. */
  characterPage: (character: string, id: string, before: string | null, after: string | null): Promise<ChatPage | null> => invoke<ChatPage | null>("character_page", { after, before, character, id }),
  /** Hand a user action on character `character`'s messages to her session (the chat window). */
  characterCommand: (character: string, command: UserCommand): Promise<null> => invoke<null>("character_command", { character, command }),
  /** One line of the chat window to the open characters: @Name, @everyone (one after another), or a plain line to main. */
  sendToCharacters: (text: string): Promise<null> => invoke<null>("send_to_characters", { text }),
  /** Stop every open character (the chat window's Stop). */
  stopCharacters: (): Promise<null> => invoke<null>("stop_characters"),
  /** The registry of presets (the Characters section). */
  listCharacters: (): Promise<Presets> => invoke<Presets>("list_characters"),
  /** Make one change to the presets (the window asked before a removal); the registry after it. */
  changeCharacters: (change: PresetChange): Promise<Presets> => invoke<Presets>("change_characters", { change }),
  /** Add a character made from a Tavern card (.json or .png: the raw bytes, the name in `x-file-name`); the registry after it. */
  addCharacterFromCard: (bytes: Uint8Array, fileName: string): Promise<Presets> => invoke<Presets>("add_character_from_card", bytes, { headers: { "x-file-name": fileName } }),
  /** Edit preset `name`'s settings in this window from now on (null: main's); the name edited now. */
  editCharacter: (name: string | null): Promise<string> => invoke<string>("edit_character", { name }),
  /** Open the welcome, or bring it to the front. */
  openWelcome: (): Promise<null> => invoke<null>("open_welcome"),
  /** The providers to pick from, in the welcome's order. */
  welcomeProviders: (): Promise<Array<Provider>> => invoke<Array<Provider>>("welcome_providers"),
  /** The model servers running on this computer. */
  welcomeDiscover: (): Promise<Array<FoundServer>> => invoke<Array<FoundServer>>("welcome_discover"),
  /** The models of the server at `base_url`, asked with `key`. */
  welcomeModels: (baseUrl: string, key: string): Promise<Array<string>> => invoke<Array<string>>("welcome_models", { baseUrl, key }),
  /** Test a provider; when it answers, save it as main's connection and have her say hello. */
  welcomeConnect: (provider: string, baseUrl: string, key: string, model: string): Promise<ProbeReport> => invoke<ProbeReport>("welcome_connect", { baseUrl, key, model, provider }),
  /** What can speak here: the system voice, and the speech servers running on this computer. */
  welcomeVoices: (): Promise<VoiceChoices> => invoke<VoiceChoices>("welcome_voices"),
  /** Say the sample line with a voice; when it was made, keep it as main's voice. */
  welcomeTryVoice: (pick: VoicePick): Promise<VoiceReport> => invoke<VoiceReport>("welcome_try_voice", { pick }),
  /** The microphones by name (the default first). */
  welcomeMicrophones: (): Promise<Array<string>> => invoke<Array<string>>("welcome_microphones"),
  /** Turn main's microphone on (on `device`; empty: the default) or off, saved. */
  welcomeMicrophone: (on: boolean, device: string): Promise<null> => invoke<null>("welcome_microphone", { device, on }),
  /** The welcome's Done: it closes. */
  welcomeDone: (): Promise<null> => invoke<null>("welcome_done"),
  /** Save the UI language picked on the welcome. */
  welcomeLanguage: (language: string): Promise<null> => invoke<null>("welcome_language", { language }),
  /** The UI language now (`en`, `ja`, `ko`): each page reads it when it loads. */
  uiLanguage: (): Promise<string> => invoke<string>("ui_language"),
  /** Open the settings window. */
  openSettings: (): Promise<null> => invoke<null>("open_settings"),
  /** The saved settings, key included (settings window only). */
  loadSettings: (): Promise<Settings> => invoke<Settings>("load_settings"),
  /** Save the settings and apply them (settings window only). */
  saveSettings: (settings: Settings): Promise<null> => invoke<null>("save_settings", { settings }),
  /** Import a .vrm: the raw bytes, the name in `x-file-name`. */
  importCharacter: (bytes: Uint8Array, fileName: string): Promise<CharacterInfo> => invoke<CharacterInfo>("import_character", bytes, { headers: { "x-file-name": fileName } }),
  /** Go back to the bundled character. */
  useDefaultCharacter: (): Promise<null> => invoke<null>("use_default_character"),
  /** Import a .vrma clip: the raw bytes, the name in `x-file-name`. */
  importMotion: (bytes: Uint8Array, fileName: string): Promise<string> => invoke<string>("import_motion", bytes, { headers: { "x-file-name": fileName } }),
  /** The last client_context blocks sent, oldest first. */
  recentContexts: (): Promise<Array<SentContext>> => invoke<Array<SentContext>>("recent_contexts"),
  /** Every delegation seen, newest first. */
  delegationHistory: (): Promise<Array<DelegationItem>> => invoke<Array<DelegationItem>>("delegation_history"),
  /** Where the key is kept. */
  keyPlace: (): Promise<KeyPlace> => invoke<KeyPlace>("key_place"),
  /** Test the connection the form's settings describe. */
  testConnection: (settings: Settings): Promise<ProbeReport> => invoke<ProbeReport>("test_connection", { settings }),
  /** Import a character card: the raw bytes, the name in `x-file-name`. */
  importCard: (bytes: Uint8Array, fileName: string): Promise<string> => invoke<string>("import_card", bytes, { headers: { "x-file-name": fileName } }),
  /** The name of the card in use. */
  currentCardName: (): Promise<string> => invoke<string>("current_card_name"),
  /** Where the signals ingress listens, its token and a curl line. */
  ingressInfo: (): Promise<IngressInfo> => invoke<IngressInfo>("ingress_info"),
  /** Why the desktop reader gives no frontmost line or idle time; null when it reads both. */
  desktopLimitation: (): Promise<string | null> => invoke<string | null>("desktop_limitation"),
  /** The desktop self-test: transparency, click-through, always-on-top and placement here, each with its fallback. */
  desktopCheck: (): Promise<StageReport> => invoke<StageReport>("desktop_check"),
  /** The displays, for the screenshot source. */
  listDisplays: (): Promise<Array<Display>> => invoke<Array<Display>>("list_displays"),
  /** The character's relations. */
  listRelations: (): Promise<Array<RelationRecord>> => invoke<Array<RelationRecord>>("list_relations"),
  /** Set a relation by hand. */
  setRelation: (target: string, value: number): Promise<RelationRecord> => invoke<RelationRecord>("set_relation", { target, value }),
  /** The window's body now (posture and bed scene), as a body event. */
  bodyNow: (): Promise<UiEvent> => invoke<UiEvent>("body_now"),
  /** Whether each turn attaches the screen now. */
  screenWatched: (): Promise<boolean> => invoke<boolean>("screen_watched"),
  /** Register the channel the mouth levels come down. */
  lipChannel: (channel: Channel<number>): Promise<null> => invoke<null>("lip_channel", { channel }),
  /** Whether the mic toggle is on. */
  micEnabled: (): Promise<boolean> => invoke<boolean>("mic_enabled"),
  /** Turn the microphone on or off (saved). */
  setMic: (on: boolean): Promise<null> => invoke<null>("set_mic", { on }),
  /** The sound output devices by name. */
  listOutputDevices: (): Promise<Array<string>> => invoke<Array<string>>("list_output_devices"),
  /** The microphones by name. */
  listInputDevices: (): Promise<Array<string>> => invoke<Array<string>>("list_input_devices"),
};

/** A `Channel` for `eventChannel`, `cursorChannel` and `lipChannel`. */
export { Channel };

/** The events the shell emits itself, by name. */
export const shellEvents = {
  /** Every core event of the session, until the page registers its event channel. */
  event: "yui://event",
  /** The user picked another UI language: every page speaks it from now on. */
  language: "yui://language",
  /** The "bring YUI back" shortcut: keep click-through off for `seconds` (pet only). */
  interactive: "yui://interactive",
} as const;

/** Each shell event's payload, by event name. */
export interface ShellEventPayloads {
  "yui://event": UiEvent;
  "yui://language": { language: string };
  "yui://interactive": { seconds: number };
}
