// Generated from yui-core by crates/yui-core/tests/bindings.rs. Do not edit.
// Regenerate: UPDATE_BINDINGS=1 cargo test -p yui-core --test bindings

/**
 * Everything the UI can show. Sent into the core's event sink (`yui_core::EventSink`).
 */
export type UiEvent = { "type": "drag_by_system" } | { "type": "body", 
/**
 * The posture the `body:` line reads.
 */
posture: PostureState, 
/**
 * The bed scene, while it runs.
 */
bed?: BedView, 
/**
 * The gait of the move under way (walk, climb, hop, fall).
 */
gait?: Gait, 
/**
 * While she peeks: the side and the edge she peeks around.
 */
peek?: PeekView, 
/**
 * How much of her window's bottom hangs below the display she is
 * on, CSS px (standing on the floor, her feet are on its bottom
 * edge and the controls under them would be out of sight: the
 * page lifts them by this much). Absent when nothing hangs below.
 */
below?: number, } | { "type": "status", 
/**
 * The new state.
 */
status: Status, } | { "type": "turn_started", 
/**
 * The turn id.
 */
turn_id: string, 
/**
 * What the user typed ("" for a turn nobody typed).
 */
text: string, 
/**
 * On Regenerate: the assistant message this turn makes again (its
 * user message is already in the conversation: no new row).
 */
remakes?: string, 
/**
 * The files sent with the message, as "name · size" (empty: none).
 */
files?: Array<string>, } | { "type": "turn_queued", 
/**
 * The queued text.
 */
text: string, 
/**
 * How many messages wait now.
 */
queued: number, } | { "type": "cue", 
/**
 * The turn it belongs to.
 */
turn_id: string, 
/**
 * The cue.
 */
cue: Cue, } | { "type": "speech", 
/**
 * The turn it belongs to.
 */
turn_id: string, 
/**
 * The text to show in the bubble.
 */
text: string, } | { "type": "speech_done", 
/**
 * The turn it belongs to.
 */
turn_id: string, 
/**
 * The sentence.
 */
text: string, } | { "type": "speech_halted" } | { "type": "voice_input", 
/**
 * The new state.
 */
state: VoiceState, } | { "type": "reasoning", 
/**
 * The turn it belongs to.
 */
turn_id: string, 
/**
 * The new text.
 */
delta: string, } | { "type": "reasoning_full", 
/**
 * The turn it belongs to.
 */
turn_id: string, 
/**
 * The full text.
 */
text: string, } | { "type": "tool_status", 
/**
 * The turn it belongs to.
 */
turn_id: string, 
/**
 * Running, done or failed.
 */
state: ToolState, 
/**
 * The tool name as the backend knows it.
 */
tool_id: string, } | { "type": "delegations", 
/**
 * The items, cut to the limits.
 */
items: Array<DelegationItem>, } | { "type": "turn_ended", 
/**
 * The turn id.
 */
turn_id: string, 
/**
 * How it ended.
 */
outcome: TurnOutcome, 
/**
 * Token usage, when the backend sent it.
 */
usage?: Usage, 
/**
 * The server's failure text, one line, at most 200 characters.
 */
error?: string, } | { "type": "failure_line", 
/**
 * The failed turn.
 */
turn_id: string, 
/**
 * The line to speak and show.
 */
text: string, } | { "type": "session_reset" } | { "type": "context_sent", 
/**
 * The turn it rode on.
 */
turn_id: string, 
/**
 * Which transport sent it.
 */
transport: string, 
/**
 * The rendered block.
 */
block: string, } | { "type": "character_changed", 
/**
 * The user's character, or `None` for the bundled default.
 */
character?: CharacterInfo, 
/**
 * Motion ids of the user's `.vrma` clips.
 */
motions: Array<string>, } | { "type": "screen_watch", 
/**
 * True while each turn attaches the screen.
 */
on: boolean, } | { "type": "tool_offer", 
/**
 * The switch: `look.screen`, `browser` or `relations`.
 */
switch: string, 
/**
 * Until when the offer stands (epoch ms); null once it is over.
 */
until_ms: number | null, } | { "type": "images_sent", 
/**
 * The turn they rode on.
 */
turn_id: string, 
/**
 * The data URLs, screenshot first.
 */
images: Array<string>, } | { "type": "chat", 
/**
 * The event.
 */
event: ChatEvent, } | { "type": "conversation", 
/**
 * The conversation, whole.
 */
conversation: Conversation, } | { "type": "notice", 
/**
 * What kind of problem.
 */
code: ErrorCode, 
/**
 * One line for a person, in English (logs, the CLI, and a page
 * whose catalog lacks `phrase`).
 */
message: string, 
/**
 * The same line as a catalog message, when the core wrote it
 * itself: a page says it in the user's language (`docs/i18n.md`).
 * None when the line is someone else's words (a server's, a
 * device's).
 */
phrase?: Phrase, };

/**
 * A user action the core carries out.
 */
export type UserCommand = { "type": "send_text", 
/**
 * The message.
 */
text: string, } | { "type": "send_addressed", 
/**
 * The message as typed.
 */
text: string, 
/**
 * Whom it was for.
 */
to: Addressee, } | { "type": "send_message", 
/**
 * The message.
 */
text: string, 
/**
 * The files.
 */
attachments: Array<Attachment>, } | { "type": "send_voice", 
/**
 * The transcript.
 */
text: string, } | { "type": "ask_help", 
/**
 * Which guide answers it.
 */
guide: HelpGuide, } | { "type": "stop" } | { "type": "barge_in" } | { "type": "reset" } | { "type": "regenerate", 
/**
 * The assistant message.
 */
msg_id: string, } | { "type": "pick_version", 
/**
 * The assistant message.
 */
msg_id: string, 
/**
 * The answer to show.
 */
n: number, } | { "type": "fork", 
/**
 * The last message the fork keeps.
 */
msg_id: string, } | { "type": "delete_message", 
/**
 * The message.
 */
msg_id: string, } | { "type": "delete_conversation", 
/**
 * The conversation.
 */
conversation_id: string, } | { "type": "delete_all_conversations" } | { "type": "approve", 
/**
 * The card's approval id.
 */
approval_id: string, 
/**
 * The answer.
 */
decision: ApprovalDecision, } | { "type": "switch_on", 
/**
 * The switch's name.
 */
switch: string, } | { "type": "show_offers" } | { "type": "reconnect" } | { "type": "touch", 
/**
 * What the user did.
 */
touch: Touch, } | { "type": "go_to_bed" } | { "type": "drag", 
/**
 * Which part of the hold.
 */
phase: DragPhase, 
/**
 * The pointer in the page, CSS pixels from the pet window's
 * top-left: used where the desktop cannot tell the core where the
 * pointer is (a layer-shell pet on Wayland).
 */
at?: PagePoint, } | { "type": "body_interrupted", 
/**
 * What happened, for the log.
 */
reason: string, } | { "type": "set_vocabulary", 
/**
 * What the window can render now.
 */
vocabulary: Vocabulary, };

/**
 * Connection state of one window's transport. One flat enum on a watch channel.
 */
export type Status = { "state": "connecting", 
/**
 * 1 for the first attempt, counting up across failures.
 */
attempt: number, } | { "state": "handshaking" } | { "state": "ready", 
/**
 * The largest turn frame the backend accepts, when it stated one.
 */
max_turn_bytes?: number, } | { "state": "reconnecting", 
/**
 * Milliseconds until the next attempt.
 */
delay_ms: number, 
/**
 * Close code of the socket that closed, when there was one.
 */
close_code?: number, 
/**
 * What went wrong, one line.
 */
reason: string, } | { "state": "auth_failed" } | { "state": "stateless" } | { "state": "closed" };

/**
 * A touch on the pet window.
 */
export type Touch = { "kind": "poke", 
/**
 * The region the page hit.
 */
region: string, } | { "kind": "head_pat" } | { "kind": "bed" };

/**
 * The body states the `body:` line names.
 */
export type PostureState = "standing" | "sitting" | "peeking" | "dragging" | "walking" | "climbing" | "lying";

/**
 * The scene as the page draws it.
 */
export type BedView = { 
/**
 * How she got there.
 */
entry: BedEntry, 
/**
 * Where the scene is.
 */
phase: BedPhase, 
/**
 * How long this phase's clip runs, in ms (0: until something wakes her).
 */
phase_ms: number, };

/**
 * How she got onto the bed.
 */
export type BedEntry = "launch" | "command";

/**
 * Where the scene is.
 */
export type BedPhase = "lying_down" | "asleep" | "waking" | "leaving";

/**
 * How one leg moves; the page plays its clip.
 */
export type Gait = "walk" | "climb" | "hop" | "fall";

/**
 * A side of a window or a display.
 */
export type Side = "left" | "right";

/**
 * A peek as the page draws it.
 */
export type PeekView = { 
/**
 * The side she peeks out of.
 */
side: Side, 
/**
 * The window edge she peeks around, in CSS pixels from the pet
 * window's left edge: the page hides what is behind it. None at a
 * display's edge (the screen hides it).
 */
edge?: number, };

/**
 * A line as a catalog message (`crates/yui-i18n/locales/<language>/common.ftl`):
 * its id and its variables.
 */
export type Phrase = { 
/**
 * The message id (`notice-not-connected`).
 */
id: string, 
/**
 * Its variables by name (`{ $status }` in the catalog).
 */
args: { [key in string]: string }, };

/**
 * A part of the user's hold on her.
 */
export type DragPhase = "start" | "move" | "end";

/**
 * A point in the pet window's page, CSS pixels from its top-left.
 */
export type PagePoint = { 
/**
 * Right of the window's left edge (whole CSS pixels).
 */
x: number, 
/**
 * Below the window's top edge.
 */
y: number, };

/**
 * Whom a message of the chat of several characters was for.
 */
export type Addressee = "character" | "everyone";

/**
 * The bundled guides a help request names.
 */
export type HelpGuide = "controls" | "capabilities";

/**
 * The self-test's report, shown in settings and, when something is
 * missing, once as a notice on the first run.
 */
export type StageReport = { 
/**
 * The session the app runs in.
 */
session: StageSession, 
/**
 * The path in words (`X11`, `XWayland`, `Wayland (layer-shell)`,
 * `Wayland (no layer-shell)`…).
 */
path: string, 
/**
 * The see-through window.
 */
transparency: StageCheck, 
/**
 * Clicks on empty pixels reaching the window behind.
 */
click_through: StageCheck, 
/**
 * Staying above other windows.
 */
always_on_top: StageCheck, 
/**
 * Placing her own window (walks, sits, drags).
 */
placement: StageCheck, 
/**
 * Click-through follows the drawn shape instead of the pointer: the
 * pet page sends the shape of what it draws ([`InputRect`]s) and the
 * window's input region becomes that shape, so the compositor routes
 * clicks on empty pixels to the window behind. True on native
 * Wayland, where no client learns where the pointer is outside its
 * own surfaces; elsewhere the page follows the polled pointer and
 * switches the whole window.
 */
input_by_shape: boolean, };

/**
 * One line of the report.
 */
export type StageCheck = { 
/**
 * It works here.
 */
ok: boolean, 
/**
 * What that means for the user: the fallback when it does not.
 */
note: string, };

/**
 * One rectangle of the pet window's input region, in CSS pixels from the
 * window's top-left corner.
 */
export type InputRect = { 
/**
 * Left edge.
 */
x: number, 
/**
 * Top edge.
 */
y: number, 
/**
 * Width.
 */
width: number, 
/**
 * Height.
 */
height: number, };

/**
 * The kind of desktop session the app runs in.
 */
export type StageSession = "x11" | "xwayland" | "wayland" | "windows" | "macos" | "none";

/**
 * The bed scene (`docs/character.md`): the launch entry's switch and the wake
 * timeout that ends either entry's sleep.
 */
export type BedSettings = { 
/**
 * Start asleep on a bed when YUI starts (default off). Governs the
 * launch entry only; `go_to_bed` works either way.
 */
at_launch: boolean, 
/**
 * Minutes she sleeps before she wakes by herself (default 30; 1 to 480).
 */
wake_timeout_min: number, };

/**
 * One expression cue: the `generate_express` argument object. All fields optional.
 */
export type Cue = { 
/**
 * Facial expression id.
 */
emotion_id?: string, 
/**
 * Body motion id.
 */
motion_id?: string, 
/**
 * Voice tone tag.
 */
emotion_text?: string, 
/**
 * Voice direction in natural language.
 */
caption?: string, };

/**
 * Token usage of a turn's last LLM call.
 */
export type Usage = { 
/**
 * Input tokens.
 */
input_tokens: number, 
/**
 * Output tokens.
 */
output_tokens: number, 
/**
 * Total tokens; shown beside the context window size.
 */
total_tokens: number, };

/**
 * State of a backend tool call, as tool_status frames carry it.
 */
export type ToolState = "running" | "done" | "failed";

/**
 * State of one delegation item.
 */
export type DelegationState = "running" | "done";

/**
 * One entry of the backend's delegations list, cut to the push protocol's
 * limits (`docs/push-protocol.md`, "Delegations").
 */
export type DelegationItem = { 
/**
 * Stable per delegation.
 */
id: string, 
/**
 * First line of the task, at most 120 code points.
 */
title: string, 
/**
 * Epoch milliseconds.
 */
started_at: number, 
/**
 * Running or done.
 */
state: DelegationState, 
/**
 * Epoch milliseconds, on a done item.
 */
ended_at?: number, 
/**
 * "ok", "error" or "unknown", on a done item.
 */
status?: string, 
/**
 * The worker's final answer, at most 2,000 code points.
 */
summary?: string, };

/**
 * How a turn ended, as far as the UI is concerned.
 */
export type TurnOutcome = "complete" | "failed" | "stopped";

/**
 * A stable code for every problem the core reports. Front-ends switch on this.
 */
export type ErrorCode = "network" | "auth" | "hello_timeout" | "frame_malformed" | "frame_oversize" | "stall" | "turn_failed" | "settings" | "storage" | "unsupported" | "closed" | "context_reset" | "audio" | "unknown_character";

/**
 * The four chat transports.
 */
export type ChatApi = "push" | "responses" | "chat_completions" | "agent_chat";

/**
 * The settings one window runs with: the character's and the user's,
 * each flattened so `settings.json` keeps its flat shape (an old file
 * loads as it always did). Missing fields take their defaults.
 */
export type Settings = { 
/**
 * Which transport to use.
 */
chat_api: ChatApi, 
/**
 * The backend's base URL, e.g. `https://host:8646`. Empty: the built-in demo agent.
 */
chat_base_url: string, 
/**
 * The chat API key. Never logged (a [`Secret`]). Kept by the
 * [`crate::keystore::KeyStore`], never written to `settings.json`.
 */
key: Secret, 
/**
 * The model name (request transports only).
 */
model: string, 
/**
 * Her model file: a `.vrm` inside the data directory (see
 * [`crate::character::import_vrm`]). Empty: the bundled default. The
 * file's key is `character`.
 */
character: string, 
/**
 * Reasoning effort sent with each request (`low`, `medium`, `high`);
 * empty sends none. Request transports only.
 */
reasoning_effort: string, 
/**
 * The model's context window in tokens: the Chat Completions transcript
 * is trimmed to it, and the usage readout shows it.
 */
context_window: number, 
/**
 * Extra instructions sent after the card (the card's last block), or
 * alone when the card is off. Request transports only.
 */
chat_instructions: string, 
/**
 * Send the character's card (persona) with each request.
 */
card_enabled: boolean, 
/**
 * The turn screenshot and the `look.screen` switch.
 */
screenshot: ScreenshotSettings, 
/**
 * The `browser` switch: every `browser` call (default off).
 */
browser: boolean, 
/**
 * The `relations` switch: `rate_relation` and the `relation:` lines
 * (default on).
 */
relations: boolean, 
/**
 * Speech out and voice in.
 */
voice: VoiceSettings, 
/**
 * The bed scene (the Character section).
 */
bed: BedSettings, 
/**
 * The user's name for the card's `{{user}}`; empty uses a fallback word.
 */
user_name: string, 
/**
 * The UI language (`en`, `ja`, `ko`): picks the default card.
 */
language: string, 
/**
 * The chat window.
 */
chat: ChatSettings, 
/**
 * The signals ingress.
 */
ingress: IngressSettings, 
/**
 * The frontmost line and presence.
 */
reactions: ReactionsSettings, 
/**
 * Start YUI when the user logs in (default off; the app registers or
 * removes the OS's login item, see [`crate::presence::autostart_action`]).
 */
start_at_login: boolean, 
/**
 * With several characters open: how many addressed turns one exchange
 * of them speaking to each other has at most (default 6,
 * `docs/characters.md`).
 */
exchange_limit: number, 
/**
 * The welcome opened by itself once (`docs/welcome.md`): it does so
 * only before that, and only while the demo answers.
 */
welcomed: boolean, };

/**
 * One character's settings. In `settings.json` its fields sit at the top
 * level beside the user's (the file keeps the flat shape it always had).
 */
export type CharacterSettings = { 
/**
 * Which transport to use.
 */
chat_api: ChatApi, 
/**
 * The backend's base URL, e.g. `https://host:8646`. Empty: the built-in demo agent.
 */
chat_base_url: string, 
/**
 * The chat API key. Never logged (a [`Secret`]). Kept by the
 * [`crate::keystore::KeyStore`], never written to `settings.json`.
 */
key: Secret, 
/**
 * The model name (request transports only).
 */
model: string, 
/**
 * Her model file: a `.vrm` inside the data directory (see
 * [`crate::character::import_vrm`]). Empty: the bundled default. The
 * file's key is `character`.
 */
character: string, 
/**
 * Reasoning effort sent with each request (`low`, `medium`, `high`);
 * empty sends none. Request transports only.
 */
reasoning_effort: string, 
/**
 * The model's context window in tokens: the Chat Completions transcript
 * is trimmed to it, and the usage readout shows it.
 */
context_window: number, 
/**
 * Extra instructions sent after the card (the card's last block), or
 * alone when the card is off. Request transports only.
 */
chat_instructions: string, 
/**
 * Send the character's card (persona) with each request.
 */
card_enabled: boolean, 
/**
 * The turn screenshot and the `look.screen` switch.
 */
screenshot: ScreenshotSettings, 
/**
 * The `browser` switch: every `browser` call (default off).
 */
browser: boolean, 
/**
 * The `relations` switch: `rate_relation` and the `relation:` lines
 * (default on).
 */
relations: boolean, 
/**
 * Speech out and voice in.
 */
voice: VoiceSettings, 
/**
 * The bed scene (the Character section).
 */
bed: BedSettings, };

/**
 * The user's and the desktop's settings. In `settings.json` its fields sit
 * at the top level beside the character's.
 */
export type UserSettings = { 
/**
 * The user's name for the card's `{{user}}`; empty uses a fallback word.
 */
user_name: string, 
/**
 * The UI language (`en`, `ja`, `ko`): picks the default card.
 */
language: string, 
/**
 * The chat window.
 */
chat: ChatSettings, 
/**
 * The signals ingress.
 */
ingress: IngressSettings, 
/**
 * The frontmost line and presence.
 */
reactions: ReactionsSettings, 
/**
 * Start YUI when the user logs in (default off; the app registers or
 * removes the OS's login item, see [`crate::presence::autostart_action`]).
 */
start_at_login: boolean, 
/**
 * With several characters open: how many addressed turns one exchange
 * of them speaking to each other has at most (default 6,
 * `docs/characters.md`).
 */
exchange_limit: number, 
/**
 * The welcome opened by itself once (`docs/welcome.md`): it does so
 * only before that, and only while the demo answers.
 */
welcomed: boolean, };

/**
 * A key or token (the chat key, the TTS and STT keys, the ingress token).
 * On disk it is a plain string, and in TypeScript `type Secret = string`; its `Debug` form is
 * `Secret(<redacted>)` or `Secret("")`, never the value, so a struct that
 * holds one can derive `Debug` and still be logged.
 */
export type Secret = string;

/**
 * What the client renders right now; sent in hello and again when it changes.
 */
export type Vocabulary = { 
/**
 * Expression ids the character has.
 */
emotion_ids: Array<string>, 
/**
 * Motion ids the character can play.
 */
motion_ids: Array<string>, 
/**
 * `"free"` or `"enum"`.
 */
emotion_text_mode: string, 
/**
 * The tag table used in enum mode.
 */
emotion_text_map: Record<string, string>, };

/**
 * What the app knows about a character file without rendering it.
 */
export type CharacterInfo = { 
/**
 * The name from the file's meta (or the file name).
 */
name: string, 
/**
 * VRM 0.x or 1.0.
 */
version: VrmVersion, 
/**
 * The file in the data directory, or `None` for the bundled default.
 */
path: string | null, };

/**
 * Which VRM generation a file is.
 */
export type VrmVersion = "v0" | "v1";

/**
 * One block as it was sent.
 */
export type SentContext = { 
/**
 * The turn it rode on.
 */
turn_id: string, 
/**
 * `push`, `responses`, `chat_completions` or `agent_chat`.
 */
transport: string, 
/**
 * When it was sent, epoch milliseconds.
 */
sent_at: number, 
/**
 * The rendered block, byte for byte.
 */
block: string, 
/**
 * The pictures that left with it (data URLs as sent), screenshot first.
 */
images: Array<string>, };

/**
 * Where the key is (or would be) stored.
 */
export type KeyPlace = "keychain" | "file";

/**
 * What the connection test found.
 */
export type ProbeReport = { 
/**
 * The backend answered at all.
 */
reachable: boolean, 
/**
 * The key was accepted (`true`), refused (`false`), or it could not be
 * told (`null`).
 */
auth_ok: boolean | null, 
/**
 * The model answered (`true`), the backend said it cannot (`false`), or
 * it could not be told or does not apply (`null`, e.g. on push).
 */
model_ok: boolean | null, 
/**
 * One line for a person; never contains the key.
 */
detail: string, 
/**
 * Which step failed, when one did and it can be told (`docs/discover.md`).
 */
problem?: ProbeProblem, };

/**
 * Which step of a connection test failed.
 */
export type ProbeProblem = "unreachable" | "key_refused" | "model_missing" | "wrong_protocol";

/**
 * One provider as the welcome offers it.
 */
export type Provider = { 
/**
 * Its id (stable; what the welcome sends back).
 */
id: string, 
/**
 * Its name as a person reads it.
 */
name: string, 
/**
 * The chat API it speaks best.
 */
chat_api: ChatApi, 
/**
 * Its base URL; empty when the user gives it (any OpenAI-compatible
 * URL, a push backend) or for the demo.
 */
base_url: string, 
/**
 * Whether it wants a key.
 */
needs_key: boolean, 
/**
 * The local server it is, when it runs on this computer.
 */
local: ServerKind | null, };

/**
 * One server that answered.
 */
export type FoundServer = { 
/**
 * Its base URL, `http://127.0.0.1:<port>` (the request transports add
 * `/v1/...` themselves).
 */
base_url: string, 
/**
 * What it is.
 */
kind: ServerKind, 
/**
 * Its models' names, as its list gives them (empty when it lists none,
 * or wants a key to list them).
 */
models: Array<string>, };

/**
 * What kind of server answered, as what it answers shows.
 */
export type ServerKind = "ollama" | "lm_studio" | "llama_cpp" | "vllm" | "litellm" | "openai_compatible";

/**
 * What the welcome's voice step offers: the system voice when this
 * computer has one, and the speech servers found running.
 */
export type VoiceChoices = { 
/**
 * Whether a system voice can speak here (espeak-ng, speech-dispatcher,
 * `say`, SAPI).
 */
system_voice: boolean, 
/**
 * The speech servers that answered on the usual ports.
 */
servers: Array<FoundVoiceServer>, };

/**
 * One speech server that answered.
 */
export type FoundVoiceServer = { 
/**
 * `http://127.0.0.1:<port>` (the client adds `/v1/audio/speech`).
 */
base_url: string, 
/**
 * What it is.
 */
kind: VoiceServerKind, 
/**
 * Its speech models, as its list names them (may be empty).
 */
models: Array<string>, 
/**
 * Its voices, when it lists them (Kokoro-FastAPI).
 */
voices: Array<string>, };

/**
 * What kind of speech server answered.
 */
export type VoiceServerKind = "kokoro_fastapi" | "openai_compatible";

/**
 * The voice picked on the welcome: a speech server (its address, key,
 * model and voice), or the system voice when `base_url` is empty. Its
 * `Debug` hides the key.
 */
export type VoicePick = { 
/**
 * The speech server's base URL; empty: the system voice.
 */
base_url: string, 
/**
 * Its key (empty: none).
 */
key: string, 
/**
 * Its `model` field (empty: the default).
 */
model: string, 
/**
 * Its `voice` field (empty: the default).
 */
voice: string, };

/**
 * What trying a voice showed.
 */
export type VoiceReport = { 
/**
 * `None` when the sentence was made; else why not.
 */
problem: VoiceProblem | null, 
/**
 * What went wrong, in the server's or the program's words (empty when
 * nothing did). Never the key.
 */
detail: string, 
/**
 * How long the sentence plays, in milliseconds (0 when it was not made).
 */
sound_ms: number, };

/**
 * Why a voice could not be tried, as the welcome says it.
 */
export type VoiceProblem = "unreachable" | "key_refused" | "voice_missing" | "no_system_voice" | "not_playable";

/**
 * The turn screenshot settings (`docs/capture.md`): two independent switches
 * and the source attached to each turn.
 */
export type ScreenshotSettings = { 
/**
 * Attach the selected source at the start of each turn (default off).
 */
enabled: boolean, 
/**
 * The `look.screen` switch: the backend may ask for the screen with
 * `look { at: "screen" }` (default off).
 */
allowRequests: boolean, 
/**
 * What the turn screenshot shows.
 */
source: ScreenChoice, };

/**
 * The source of the turn screenshot.
 */
export type ScreenChoice = { "kind": "monitor", 
/**
 * The display index (as `look` and `body_action` number them).
 */
index: number, } | { "kind": "window", 
/**
 * The app (window class), matched without case.
 */
app: string, 
/**
 * A part of the title; empty matches any.
 */
title: string, };

/**
 * How she speaks and listens (`docs/voice.md`).
 */
export type VoiceSettings = { 
/**
 * Speak replies aloud (default on). Off: the bubble paces at reading
 * speed and nothing plays.
 */
enabled: boolean, 
/**
 * An OpenAI-compatible TTS server (`<base>/v1/audio/speech`); empty
 * uses the system voice.
 */
tts_base_url: string, 
/**
 * The TTS server's key; empty sends none. Never logged.
 */
tts_key: Secret, 
/**
 * The TTS `model` field.
 */
tts_model: string, 
/**
 * The TTS `voice` field.
 */
tts_voice: string, 
/**
 * Speech requests running at once (1 to 8, default 2); playback stays
 * in order whatever the number.
 */
tts_in_flight: number, 
/**
 * Speaking speed in percent (100 is normal; 25 to 400).
 */
speed_percent: number, 
/**
 * With no TTS server, speak with the system voice (espeak-ng or
 * speech-dispatcher on Linux, `say` on macOS, SAPI on Windows);
 * off: reading speed, no sound.
 */
system_voice: boolean, 
/**
 * The system voice's name (espeak-ng `-v`); empty: its default.
 */
system_voice_name: string, 
/**
 * The sound output device by name; empty: the default.
 */
output_device: string, 
/**
 * Listen to the microphone (the mic toggle).
 */
mic_enabled: boolean, 
/**
 * The microphone by name; empty: the default.
 */
mic_device: string, 
/**
 * How readily speech is detected, 0 to 100 (default 50).
 */
vad_sensitivity: number, 
/**
 * An OpenAI-compatible speech-to-text server
 * (`<base>/v1/audio/transcriptions`); empty: voice input is off.
 */
stt_base_url: string, 
/**
 * The STT server's key; empty sends none. Never logged.
 */
stt_key: Secret, 
/**
 * The STT `model` field.
 */
stt_model: string, 
/**
 * The spoken language hint (`en`, `ja`); empty lets the server detect.
 */
stt_language: string, 
/**
 * Say thinking fillers while a reply is slow (default on).
 */
filler: boolean, };

/**
 * The chat window's settings (`docs/history.md`).
 */
export type ChatSettings = { 
/**
 * Show Reasoning: the live "Thinking… Ns" panel (default on).
 */
show_reasoning: boolean, 
/**
 * Collapse reasoning by default: the panel starts folded (default off).
 */
collapse_reasoning: boolean, 
/**
 * Ask in an in-app dialog before deleting a message or a conversation
 * (default on).
 */
confirm_delete: boolean, 
/**
 * Attachments per message (default 5).
 */
max_attachments: number, 
/**
 * Bytes per attachment (default 2 MB).
 */
max_attachment_bytes: number, };

/**
 * The signals ingress (`docs/triggers.md`): a loopback HTTP
 * server other local programs post signals to. Off by default.
 */
export type IngressSettings = { 
/**
 * Listen on `127.0.0.1:port` (default off).
 */
enabled: boolean, 
/**
 * The port (default 8770); a change applies after a restart.
 */
port: number, 
/**
 * Answer 401 to a request without `Authorization: Bearer <token>`
 * (default off).
 */
require_token: boolean, 
/**
 * A token for this run only (the CLI's `--set ingress.token=T`); empty
 * uses the per-installation token kept in the data dir.
 */
token: Secret, };

/**
 * What the settings window shows of the signals ingress: where it
 * listens, the token, and a line to try it with.
 */
export type IngressInfo = { 
/**
 * The saved switch.
 */
enabled: boolean, 
/**
 * True while the server listens.
 */
listening: boolean, 
/**
 * `http://127.0.0.1:<port>`.
 */
address: string, 
/**
 * The per-installation token (or this run's override), shown to the
 * user on purpose so they can copy it.
 */
token: string, 
/**
 * Whether requests must carry the token.
 */
require_token: boolean, 
/**
 * Why it does not listen though switched on (the port is taken…), or
 * null.
 */
problem: string | null, 
/**
 * A `curl` line that posts one signal, copyable.
 */
example: string, };

/**
 * What the world tells her (`docs/triggers.md`):
 * the frontmost app and when the user counts as away.
 */
export type ReactionsSettings = { 
/**
 * Sample the frontmost app and window title for the `frontmost:` line
 * (default on; off: no line, nothing sampled).
 */
frontmost: boolean, 
/**
 * The user counts as away after this many minutes without input
 * (default 5; 1 to 120).
 */
away_after_min: number, 
/**
 * When a turn nobody typed may start.
 */
pacing: PacingSettings, 
/**
 * Screen transitions (`app_switched`, `long_session`; default on: the
 * thresholds and the pacer keep them rare).
 */
screen_transitions: boolean, 
/**
 * The schedule: the day's first-activity milestone and the time-of-day
 * cues of `avatar.json` (default on; none are shipped).
 */
schedule: boolean, 
/**
 * Idle cues of `avatar.json` (default on; the shipped one after an hour
 * with no turn).
 */
idle_cues: boolean, };

/**
 * The pacer's settings (minutes unless named otherwise).
 */
export type PacingSettings = { 
/**
 * Minutes between two self-started turns (default 10).
 */
quiet_gap_min: number, 
/**
 * Self-started turns in any hour at most (default 3).
 */
hourly_cap: number, 
/**
 * Minutes after the user's own turn before she starts one (default 2).
 */
after_user_min: number, 
/**
 * Hold self-started turns while a fullscreen app is frontmost (default on).
 */
do_not_disturb_fullscreen: boolean, 
/**
 * Screen transitions in any hour at most (default 2).
 */
screen_hourly_cap: number, 
/**
 * Schedule and idle cues in any hour at most (default 2).
 */
cue_hourly_cap: number, 
/**
 * Seconds between two touch turns (default 10).
 */
touch_gap_s: number, };

/**
 * What voice input is doing, as the status pill shows it.
 */
export type VoiceState = { "state": "off" } | { "state": "listening" } | { "state": "hearing" } | { "state": "transcribing" } | { "state": "failed", 
/**
 * `no_permission`, `no_device`, `device_busy`, `stream`, `no_stt`
 * or `stt`.
 */
kind: string, 
/**
 * One short line for the pill.
 */
message: string, };

/**
 * One target's current record, as the settings window lists it.
 */
export type RelationRecord = { 
/**
 * `user`, or another character's name.
 */
target: string, 
/**
 * -10..=10.
 */
value: number, 
/**
 * The band of `value`.
 */
band: string, 
/**
 * The last accepted change, signed (for a value set by hand: new minus old).
 */
delta: number, 
/**
 * Why, one line; `set by the user` for a value set by hand.
 */
why: string, 
/**
 * When, epoch milliseconds.
 */
at: number, 
/**
 * An external engine's one-line summary.
 */
note?: string, };

/**
 * The registry. See the module doc.
 */
export type Presets = { 
/**
 * Every preset, in registry order.
 */
presets: Array<PresetEntry>, 
/**
 * Main's name.
 */
main: string, 
/**
 * The preset whose files are the data directory itself (the character
 * of a one-character installation).
 */
root: string, };

/**
 * One preset as the registry keeps it.
 */
export type PresetEntry = { 
/**
 * Her name (unique without case).
 */
name: string, 
/**
 * Whether she is on the desktop.
 */
open: boolean, };

/**
 * One change the user makes in the Characters section of the settings
 * (the tray's items make the same changes).
 */
export type PresetChange = { "action": "add", 
/**
 * Her name.
 */
name: string, 
/**
 * The preset whose character settings she starts with; none: the defaults.
 */
copy_of: string | null, } | { "action": "open", 
/**
 * Her name.
 */
name: string, } | { "action": "close", 
/**
 * Her name.
 */
name: string, } | { "action": "set_main", 
/**
 * Her name.
 */
name: string, } | { "action": "remove", 
/**
 * Her name.
 */
name: string, };

/**
 * One display (monitor), in logical pixels.
 */
export type Display = { 
/**
 * Position in `picture::capture::displays`' list: what
 * `picture::capture::capture_display` takes.
 */
index: number, 
/**
 * The display's friendly name, else its system name (e.g. `HDMI-1`).
 */
label: string, 
/**
 * Left edge on the virtual desktop.
 */
x: number, 
/**
 * Top edge on the virtual desktop.
 */
y: number, 
/**
 * Width.
 */
width: number, 
/**
 * Height.
 */
height: number, 
/**
 * Physical pixels per logical pixel.
 */
scale: number, 
/**
 * The system's primary display.
 */
primary: boolean, };

/**
 * One event of the `POST /chat` stream. Every event carries `msg_id`, the
 * assistant message it belongs to.
 *
 * The same eleven events are the chat window's whole vocabulary on every
 * transport (`yui_core::turn::chat_map` maps the others onto them), so the type is also
 * exported to the UI. There `msg_id` is the client's turn id.
 */
export type ChatEvent = { "type": "start", 
/**
 * The assistant message.
 */
msg_id: string, 
/**
 * The run; later approvals and cancels address it.
 */
run_id: string, } | { "type": "reasoning", 
/**
 * The assistant message.
 */
msg_id: string, 
/**
 * The new reasoning text.
 */
text: string, } | { "type": "delta", 
/**
 * The assistant message.
 */
msg_id: string, 
/**
 * The new text.
 */
text: string, } | { "type": "tool_drafting", 
/**
 * The assistant message.
 */
msg_id: string, 
/**
 * The tool name.
 */
name: string, } | { "type": "tool_call", 
/**
 * The assistant message.
 */
msg_id: string, 
/**
 * The call id, echoed by its result.
 */
call_id: string, 
/**
 * The tool name.
 */
name: string, 
/**
 * The arguments as sent (an object, usually).
 */
args: unknown, } | { "type": "tool_result", 
/**
 * The assistant message.
 */
msg_id: string, 
/**
 * The call this answers.
 */
call_id: string, 
/**
 * The tool name.
 */
name: string, 
/**
 * Whether the call succeeded.
 */
ok: boolean, 
/**
 * What the tool answered (the client tail-truncates it for show).
 * A JSON-quoted string (`"\"text\""`) is read as its text.
 */
output: string, 
/**
 * How long the call took, in seconds; `None` when the engine did
 * not time it (`null` or absent).
 */
seconds: number | null, } | { "type": "approval_request", 
/**
 * The assistant message.
 */
msg_id: string, 
/**
 * The approval's id, the `{aid}` of `POST /approve/{aid}`.
 */
approval_id: string, 
/**
 * The call waiting for it.
 */
call_id: string, 
/**
 * The tool name.
 */
name: string, 
/**
 * The call's arguments.
 */
args: unknown, } | { "type": "usage", 
/**
 * The assistant message.
 */
msg_id: string, 
/**
 * Characters of the reply.
 */
chars: number, 
/**
 * Seconds the turn took.
 */
seconds: number, 
/**
 * Time to first token, in seconds; `None` when no token came (the
 * engine may send `null` or nothing).
 */
ttft?: number, 
/**
 * Ours, not the engine's: the transport's token usage of the turn's last
 * call, where it has one (the readout shows `total_tokens`).
 */
tokens?: Usage, 
/**
 * Ours, not the engine's: the model's context window in tokens, shown
 * beside `tokens` (from the settings).
 */
context_window?: number, 
/**
 * Ours, not the engine's: when each step of the turn happened, for the
 * usage line's hover.
 */
latency?: Latency, } | { "type": "cancelled", 
/**
 * The assistant message.
 */
msg_id: string, 
/**
 * The run that stopped.
 */
run_id: string, } | { "type": "error", 
/**
 * The assistant message.
 */
msg_id: string, 
/**
 * What to show.
 */
message: string, 
/**
 * What kind of failure.
 */
kind: string, } | { "type": "end", 
/**
 * The assistant message.
 */
msg_id: string, 
/**
 * The user message's index in the engine's stored conversation;
 * `None` when the engine could not save the exchange (then the
 * client never addresses it on the engine).
 */
user_index: number | null, 
/**
 * The assistant message's index (`user_index + 1`); `None` as above.
 */
assistant_index: number | null, 
/**
 * How many versions the assistant message has (1 when never
 * regenerated); `None` when not sent.
 */
versions: number | null, 
/**
 * The version shown, 0-based; `None` when not sent.
 */
active: number | null, };

/**
 * The per-turn latency breakdown (ours, not the engine's): milliseconds from the
 * moment the turn started (the user pressed Enter) to each step. A step
 * that never happened is absent. Kept in the turn log too
 * (`record = "latency"`).
 */
export type Latency = { 
/**
 * The request left (after the screenshot, when a turn takes one).
 */
request_sent_ms?: number, 
/**
 * The first token of anything (reasoning, text, a tool) arrived.
 */
first_token_ms?: number, 
/**
 * The first whole sentence of the reply arrived.
 */
first_sentence_ms?: number, 
/**
 * The first sentence showed in the bubble: its turn to play came (a
 * voice that must be made sounds once it is made).
 */
first_audio_ms?: number, };

/**
 * The user's answer on an approval card: Allow / Always allow / Deny.
 */
export type ApprovalDecision = "allow" | "always" | "deny";

/**
 * One conversation of a character.
 */
export type Conversation = { 
/**
 * Its id (also its file name).
 */
id: string, 
/**
 * Its title: the first user message, cut short ("New chat" before one).
 */
title: string, 
/**
 * When it was created, epoch milliseconds.
 */
created_ms: number, 
/**
 * When it last changed, epoch milliseconds.
 */
updated_ms: number, 
/**
 * Its messages, oldest first: the newest ones only (a window, see
 * `more_before` and `more_after`); a chat window loads the rest page by
 * page ([`ChatPage`]).
 */
messages: Array<ChatMessage>, 
/**
 * Messages older than the first of `messages` exist.
 */
more_before: boolean, 
/**
 * Messages newer than the last of `messages` exist (a window opened
 * at an older message, a search hit).
 */
more_after: boolean, 
/**
 * Its id on an `agent_chat` server when that differs from `id` (a
 * fork the server named).
 */
server_id?: string, };

/**
 * One line of the conversation list.
 */
export type ConversationSummary = { 
/**
 * The conversation id.
 */
id: string, 
/**
 * Its title.
 */
title: string, 
/**
 * When it last changed, epoch milliseconds.
 */
updated_ms: number, 
/**
 * How many messages it holds.
 */
messages: number, 
/**
 * True for the conversation new turns go to.
 */
current: boolean, };

/**
 * A page of a conversation's messages, loaded as the chat window
 * scrolls.
 */
export type ChatPage = { 
/**
 * The conversation.
 */
conversation_id: string, 
/**
 * The messages, oldest first.
 */
messages: Array<ChatMessage>, 
/**
 * Messages older than the first of `messages` exist.
 */
more_before: boolean, 
/**
 * Messages newer than the last of `messages` exist.
 */
more_after: boolean, };

/**
 * One search result.
 */
export type SearchHit = { 
/**
 * The conversation.
 */
conversation_id: string, 
/**
 * Its title.
 */
title: string, 
/**
 * The message that matched.
 */
message_id: string, 
/**
 * The text around the match, one line.
 */
snippet: string, 
/**
 * When the message was written, epoch milliseconds.
 */
at_ms: number, };

/**
 * One row of a conversation.
 */
export type ChatMessage = { 
/**
 * The message id: an assistant message's `msg_id` (the turn id that
 * started it), or `u<turn id>` for the user's message of that turn.
 */
id: string, 
/**
 * Who wrote it.
 */
role: Role, 
/**
 * When it was written, epoch milliseconds.
 */
at_ms: number, 
/**
 * A user message's text (empty on an assistant message: its text is in
 * its answers).
 */
text: string, 
/**
 * A user message's files, as "name · size" (the bytes are not kept).
 */
files?: Array<string>, 
/**
 * An assistant message's answers, oldest first: Regenerate adds one.
 */
answers: Array<Answer>, 
/**
 * The answer shown (an index into `answers`).
 */
active: number, 
/**
 * The message's index in the server's conversation, when the
 * `agent_chat` engine said (`end`'s `user_index`/`assistant_index`);
 * fork, version and delete address it.
 */
server_index?: number, };

/**
 * Who wrote a message.
 */
export type Role = "user" | "assistant";

/**
 * One answer of an assistant message.
 */
export type Answer = { 
/**
 * The run that wrote it (`start`'s `run_id`).
 */
run_id: string, 
/**
 * How it stands.
 */
state: AnswerState, 
/**
 * When it started, epoch milliseconds.
 */
started_ms: number, 
/**
 * The reply text.
 */
text: string, 
/**
 * The reasoning text.
 */
reasoning: string, 
/**
 * How long the reasoning ran, once it stopped ("Thought for Ns");
 * `None` while it runs or when there was none.
 */
reasoning_ms?: number, 
/**
 * Tool cards, in call order.
 */
tools: Array<ToolCard>, 
/**
 * Approval cards, in request order.
 */
approvals: Array<ApprovalCard>, 
/**
 * The usage line, once `usage` came.
 */
usage?: UsageLine, 
/**
 * The error card, once `error` came.
 */
error?: ErrorCard, 
/**
 * A stopped answer on an engine that confirms stops (`agent_chat`):
 * `true` once the engine said `cancelled`, `false` when it did not
 * confirm the stop (the chat window says so); `None` while waiting or
 * where the wire has no confirmation.
 */
stop_confirmed?: boolean, };

/**
 * How an answer stands.
 */
export type AnswerState = "streaming" | "done" | "stopped" | "failed";

/**
 * One tool card.
 */
export type ToolCard = { 
/**
 * The call id (empty while drafting).
 */
call_id: string, 
/**
 * The tool name.
 */
name: string, 
/**
 * The arguments (null while drafting).
 */
args: unknown, 
/**
 * How it stands.
 */
state: ToolCardState, 
/**
 * What the tool answered (whole; the card tail-truncates it).
 */
output: string, 
/**
 * How long the call took, in seconds, once it finished (when timed).
 */
seconds?: number, 
/**
 * The approval card that gated this call (paired by order, name and
 * arguments, `fold.rs`): the card shows its answer, and the approval
 * card is not shown again on its own.
 */
approval_id?: string, };

/**
 * How a tool card stands.
 */
export type ToolCardState = "drafting" | "running" | "done" | "failed" | "unresolved";

/**
 * One approval card.
 */
export type ApprovalCard = { 
/**
 * The approval id (`POST /approve/{aid}`).
 */
approval_id: string, 
/**
 * The call waiting for it.
 */
call_id: string, 
/**
 * The tool name.
 */
name: string, 
/**
 * The call's arguments.
 */
args: unknown, 
/**
 * How it stands.
 */
state: ApprovalState, 
/**
 * When it was asked, epoch milliseconds (the card counts down from it).
 */
asked_ms: number, };

/**
 * How an approval card stands.
 */
export type ApprovalState = "pending" | "allowed" | "always" | "denied" | "timed_out" | "ended" | "gone";

/**
 * The usage line under an answer.
 */
export type UsageLine = { 
/**
 * Characters of the reply.
 */
chars: number, 
/**
 * Seconds the turn took.
 */
seconds: number, 
/**
 * Time to first token, seconds.
 */
ttft?: number, 
/**
 * Tokens of the turn's last call, where the transport has them.
 */
tokens?: Usage, 
/**
 * The model's context window in tokens.
 */
context_window?: number, 
/**
 * The latency breakdown (the line's hover).
 */
latency?: Latency, };

/**
 * The typed error card of a failed answer.
 */
export type ErrorCard = { 
/**
 * `auth`, `rate_limit`, `no_answer`, `empty`, `internal`, or another
 * kind as the server sent it.
 */
kind: string, 
/**
 * What to show.
 */
message: string, 
/**
 * For `no_answer`: how many tool calls succeeded.
 */
tools_ok: number, };

/**
 * A file sent with a message (paste, drag and drop, the + button).
 */
export type Attachment = { 
/**
 * The file name.
 */
name: string, 
/**
 * Its MIME type as the page read it (`image/png`, `application/pdf`,
 * `text/plain`; empty when unknown).
 */
mime: string, 
/**
 * Its bytes, base64.
 */
data_base64: string, };
