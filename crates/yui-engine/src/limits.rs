//! Every limit and timeout of the transports, in one place.
//!
//! The push protocol's limits carry the names of its limits table
//! (`docs/push-protocol.md`, "Limits"); the other protocol limits are named
//! in `docs/triggers.md` ("The signals ingress"), `docs/transports.md` and
//! `docs/client-tools.md`, and each of our own choices says so.
//! Nothing else in the crate writes one of these numbers down.

use std::time::Duration;

/// Reconnect delay, first attempt: 1 s.
pub const RECONNECT_DELAY_FIRST: Duration = Duration::from_secs(1);
/// Reconnect delay, growth: doubles per failed attempt.
pub const RECONNECT_DELAY_GROWTH: u32 = 2;
/// Reconnect delay, cap: 30 s.
pub const RECONNECT_DELAY_CAP: Duration = Duration::from_secs(30);
/// hello reply wait: 10 s.
pub const HELLO_REPLY_WAIT: Duration = Duration::from_secs(10);
/// Frame wait, per turn: 240 s.
pub const FRAME_WAIT_PER_TURN: Duration = Duration::from_secs(240);
/// Text frame size, either direction, every frame but turn and tool_result with images: 256 KiB.
pub const TEXT_FRAME_SIZE: usize = 256 * 1024;
/// turn frame size when the backend states no max_turn_bytes: 256 KiB.
pub const TURN_FRAME_SIZE: usize = 256 * 1024;
/// Delegation item title: 120 characters (code points).
pub const DELEGATION_ITEM_TITLE: usize = 120;
/// Delegation item summary: 2,000 characters (code points).
pub const DELEGATION_ITEM_SUMMARY: usize = 2_000;
/// Delegation list items: 50 entries.
pub const DELEGATION_LIST_ITEMS: usize = 50;
/// done item kept in the chip after ended_at: 30 min.
pub const DELEGATION_DONE_KEPT: Duration = Duration::from_secs(30 * 60);
/// Delegation history kept by the client: 200 items.
pub const DELEGATION_HISTORY_ITEMS: usize = 200;
/// done or failed state held in the status pill's tool segment before it clears: 1.5 s.
pub const TOOL_STATUS_HOLD: Duration = Duration::from_millis(1_500);
/// tool_call wait, body action: 15 s on the client.
pub const TOOL_CALL_WAIT_BODY_ACTION: Duration = Duration::from_secs(15);
/// tool_call wait, query (`look`): 2 s on the client.
pub const TOOL_CALL_WAIT_QUERY: Duration = Duration::from_secs(2);
/// tool_call wait, rate_relation: 2 s on the client.
pub const TOOL_CALL_WAIT_RATE_RELATION: Duration = Duration::from_secs(2);
/// tool_call wait, address_character: 2 s on the client.
pub const TOOL_CALL_WAIT_ADDRESS_CHARACTER: Duration = Duration::from_secs(2);
/// tool_call wait, browser: 32 s on the client.
pub const TOOL_CALL_WAIT_BROWSER: Duration = Duration::from_secs(32);
/// `browser` `open` while the user has not allowed opening pages: how long
/// the call waits for the Allow, within its own 32 s client wait (the page
/// then has at least the remaining 12 s to load). Past it the call answers
/// `yui_core::tools::NOT_ALLOWED_YET`; a later Allow applies to the next
/// `open`.
pub const BROWSER_OPEN_ASK_WAIT: Duration = Duration::from_secs(20);
/// How long the offer to switch a tool switch on stands after a call it
/// refused (the pet's notice, the chat window's card): 5 min.
pub const TOOL_OFFER_OPEN: Duration = Duration::from_secs(5 * 60);
/// A client tool's question the user did not answer in time stays
/// answerable (for the next call) this long: 5 min.
pub const TOOL_ASK_LATE_KEPT: Duration = Duration::from_secs(5 * 60);
/// Text-only tool_result frame size: 256 KiB.
pub const TEXT_ONLY_TOOL_RESULT_FRAME_SIZE: usize = 256 * 1024;
/// error.message as shown: one line cut at 200 characters.
pub const ERROR_MESSAGE_SHOWN: usize = 200;

/// Stream liveness, after assistant speech (a text delta or the text-done
/// marker): 45 s of silence (`docs/transports.md`, "Stream liveness").
pub const STREAM_IDLE_AFTER_SPEECH: Duration = Duration::from_secs(45);
/// Stream liveness, after any other event: 240 s.
pub const STREAM_IDLE: Duration = Duration::from_secs(240);
/// Largest inbound WebSocket message read at all (our own choice, not a protocol limit):
/// frames between the text frame size and this are read and dropped unread
/// as the push protocol says; a larger one breaks the connection instead of filling
/// memory.
pub const INBOUND_MESSAGE_CAP: usize = 4 * 1024 * 1024;
/// How long one outbound frame may take to leave (our own choice, not a protocol limit):
/// a peer that stopped reading ends the connection instead of holding the
/// task forever.
pub const FRAME_SEND_WAIT: Duration = Duration::from_secs(10);
/// How many stopped or backend-started turn ids the engine remembers while
/// it waits for their end; past that the oldest is forgotten.
pub const RECENT_TURN_IDS: usize = 256;

/// TTS (`docs/voice.md`): speech requests running at once per queue, by
/// default (our own choice, not a protocol limit; `TtsConfig::in_flight` overrides it).
/// Playback stays in order whatever this is.
pub const TTS_REQUESTS_IN_FLIGHT: usize = 2;
/// TTS: how long one speech request may take, connect to last audio byte
/// (our own choice, not a protocol limit): past it the sentence is skipped.
pub const TTS_REQUEST_WAIT: Duration = Duration::from_secs(30);
/// Playback with the voice off: reading speed, in characters a second (a
/// CJK character counts twice). Our own choice, not a protocol limit.
pub const READING_CHARS_PER_SECOND: u64 = 15;
/// Playback with the voice off: the shortest time a sentence shows.
pub const READING_MIN: Duration = Duration::from_millis(1_200);
/// TTS: connect timeout of the speech client (our own choice, not a protocol limit).
pub const TTS_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// TTS: the raw error body kept from a failed speech request: 64 KiB.
pub const TTS_ERROR_BODY_KEPT: usize = 64 * 1024;
/// TTS: the largest audio body read for one sentence (our own choice, not a protocol
/// limit): a server that sends more fails the sentence instead of filling
/// memory.
pub const TTS_AUDIO_BYTES: usize = 32 * 1024 * 1024;

// Audio out (`docs/voice.md`)
/// Mouth levels the audio sink reports per second while sound plays (our
/// own choice, not a protocol limit): one RMS window of the played samples each.
pub const LIP_LEVELS_PER_SECOND: u32 = 30;
/// The output buffer the audio sink asks the device for (our own choice, not a protocol
/// limit): a halt is heard within about this much (plus the device's own
/// latency). The device's range clamps it.
pub const AUDIO_OUTPUT_BUFFER: Duration = Duration::from_millis(20);
/// How long opening an audio device may take before it counts as failed
/// (our own choice, not a protocol limit).
pub const AUDIO_OPEN_WAIT: Duration = Duration::from_secs(5);
/// How often a sound device that keeps failing the same way is logged again,
/// with how many times it failed meanwhile (our own choice, not a protocol
/// limit): a broken device must not fill the log.
pub const AUDIO_ERROR_REPORT_EVERY: Duration = Duration::from_secs(60);
/// How long one request of the local server discovery waits for its whole
/// answer (our own choice, not a protocol limit): a port where nothing
/// listens, or a listener that never answers, costs at most this.
pub const DISCOVER_REQUEST_WAIT: Duration = Duration::from_millis(800);
/// The longest sound one item may decode to (our own choice, not a protocol limit):
/// longer audio fails to decode instead of filling memory.
pub const AUDIO_DECODED_MAX: Duration = Duration::from_secs(10 * 60);
/// How long the system voice (espeak-ng, say, SAPI) may take for one
/// sentence (our own choice, not a protocol limit).
pub const SYSTEM_VOICE_WAIT: Duration = Duration::from_secs(20);

/// The bytes of data URLs one request of the request transports carries at
/// most (our own choice, not a protocol limit: their own budget). Pictures past it are
/// fitted down as JPEGs before the request is built.
pub const REQUEST_IMAGE_BYTES: usize = 1024 * 1024;
/// How long a turn waits for its screenshot (capture and fit) before it
/// goes without one (our own choice, not a protocol limit).
pub const TURN_SCREENSHOT_WAIT: Duration = Duration::from_secs(3);

/// The waits one session runs with. Defaults are the limits above; tests shrink them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timeouts {
    /// hello reply wait.
    pub hello_reply_wait: Duration,
    /// Frame wait, per turn.
    pub frame_wait: Duration,
    /// Reconnect delay, first attempt.
    pub reconnect_first: Duration,
    /// Reconnect delay, cap.
    pub reconnect_cap: Duration,
    /// Request transports: stream idle after any event but speech.
    pub stream_idle: Duration,
    /// Request transports: stream idle after assistant speech.
    pub stream_idle_after_speech: Duration,
}

impl Default for Timeouts {
    fn default() -> Self {
        Self {
            hello_reply_wait: HELLO_REPLY_WAIT,
            frame_wait: FRAME_WAIT_PER_TURN,
            reconnect_first: RECONNECT_DELAY_FIRST,
            reconnect_cap: RECONNECT_DELAY_CAP,
            stream_idle: STREAM_IDLE,
            stream_idle_after_speech: STREAM_IDLE_AFTER_SPEECH,
        }
    }
}

// Voice input (`docs/voice.md`)

/// STT: how long one transcription request may take, connect to last
/// answer byte: past it the utterance is dropped with `SttError::Timeout`.
pub const STT_REQUEST_WAIT: Duration = Duration::from_secs(60);
/// STT: connect timeout of the transcription client.
pub const STT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// STT: the raw error body kept from a failed transcription: 64 KiB.
pub const STT_ERROR_BODY_KEPT: usize = 64 * 1024;
/// STT: the largest answer read for one transcription; a server that sends
/// more fails the request as `BadJson` with what was read.
pub const STT_ANSWER_BYTES: usize = 1024 * 1024;
/// VAD: the sample rate the segmenter, the detector and the upload use.
pub const VAD_SAMPLE_RATE: u32 = 16_000;
/// VAD: samples in one detector frame (16 ms at 16 kHz, earshot's frame).
pub const VAD_FRAME_SAMPLES: usize = 256;
/// VAD: the RMS level (of full scale 1.0) under which a frame is silence
/// whatever the detector scores: -54 dBFS.
pub const VAD_LEVEL_FLOOR: f32 = 0.002;
/// VAD: voiced audio in a row before speech counts as started (a click or
/// one noisy frame is no speech).
pub const VAD_SPEECH_START: Duration = Duration::from_millis(64);
/// VAD: audio kept from before the speech started, put in front of the
/// utterance so its first syllable is not cut.
pub const VAD_PRE_ROLL: Duration = Duration::from_millis(300);
/// VAD: silence after speech that ends the utterance.
pub const VAD_HANGOVER: Duration = Duration::from_millis(700);
/// VAD: silence kept at the end of an utterance (the rest of the hangover
/// is cut off).
pub const VAD_POST_ROLL: Duration = Duration::from_millis(200);
/// VAD: an utterance whose speech (start to last voiced frame) is shorter
/// than this is dropped as a cough or a click.
pub const UTTERANCE_MIN: Duration = Duration::from_millis(300);
/// VAD: an utterance is cut at this length even while the speech goes on;
/// the rest becomes the next utterance.
pub const UTTERANCE_MAX: Duration = Duration::from_secs(30);
/// VAD: voiced audio within one utterance after which the speech counts as
/// sustained (barge-in: it stops her playback like the stop button).
pub const BARGE_IN_SPEECH: Duration = Duration::from_millis(600);
/// Microphone: how long the capture thread waits for audio before it looks
/// at its stop flag again.
pub const MIC_POLL: Duration = Duration::from_millis(50);
/// Microphone: how long cpal may take to open the input stream.
pub const MIC_OPEN_WAIT: Duration = Duration::from_secs(5);

// agent_chat (`docs/transports.md`, "`agent_chat`").

/// agent_chat: how long an `approval_request` blocks its run before the
/// engine gives up on it: 300 s.
pub const AGENT_CHAT_APPROVAL_TIMEOUT: Duration = Duration::from_secs(300);

/// agent_chat: after a Stop, how long the transport keeps reading the
/// stopped run's stream for the engine's `cancelled` before the chat window
/// says the engine did not confirm the stop: 10 s.
pub const AGENT_CHAT_STOP_CONFIRM_WAIT: Duration = Duration::from_secs(10);

// --- The chat window (`docs/transports.md`, `agent_chat`, names the attachment limits) ---

/// Search results shown at most (Ctrl/⌘K across every conversation).
pub const CHAT_SEARCH_HITS: usize = 50;
/// Characters of a search result's snippet.
pub const CHAT_SNIPPET_CHARS: usize = 120;
/// Messages a chat window loads at a time as it scrolls (older or newer),
/// and the messages of a conversation opened from the list.
pub const CHAT_PAGE_MESSAGES: usize = 50;
/// Newest messages of the current conversation the session keeps in memory
/// and sends in a `conversation` event; past twice as many (an edit far back
/// loads the messages between it and the newest) it trims back to this at
/// the next turn's end. The rest is in the history database only.
pub const CHAT_TAIL_MESSAGES: usize = 100;
/// Regenerated turns the chat log remembers (which message each remakes,
/// for a late stop confirmation); older ones are forgotten.
pub const CHAT_REMAKES_KEPT: usize = 32;
/// Attachments per message, by default (`docs/transports.md`, "`agent_chat`": 5 files).
pub const CHAT_ATTACHMENTS: usize = 5;
/// Size of one attachment, by default (`docs/transports.md`, "`agent_chat`": 2 MB).
pub const CHAT_ATTACHMENT_BYTES: usize = 2 * 1024 * 1024;
/// Text of one text attachment folded into the prompt (`docs/transports.md`, "`agent_chat`": 100 kB).
pub const CHAT_TEXT_ATTACHMENT_BYTES: usize = 100 * 1000;

// --- The trigger inbox (`docs/triggers.md`, "The signals ingress": delivery and `POST /agent-event`) ---

/// Signals: "Each buffer holds at most 5 groups, dropping the oldest" (the
/// away buffer and the batch buffer, each).
pub const SIGNALS_BUFFER_GROUPS: usize = 5;
/// Signals: "`batched` opens a 5-minute window" at the first batched arrival.
pub const SIGNALS_BATCH_WINDOW: Duration = Duration::from_secs(5 * 60);
/// Agent events: the per-tool cap of the catch-up buffer (`docs/triggers.md`,
/// "The signals ingress"; the size, 5 like a signals buffer, is our own choice): past it the
/// tool's oldest buffered event is dropped.
pub const AGENT_CATCHUP_PER_TOOL: usize = 5;
/// Agent events: buffered events across every tool (our own choice, not a protocol value; the
/// tool name is the poster's, so the per-tool cap alone bounds nothing):
/// past it the oldest is dropped.
pub const AGENT_CATCHUP_ITEMS: usize = 20;

// --- The signals ingress (`docs/triggers.md`, "The signals ingress") ---

/// Ingress: the port it listens on by default (a setting).
pub const INGRESS_PORT_DEFAULT: u16 = 8770;
/// Ingress: "Binding retries 8 times, 500 ms apart" — the retries after the
/// first attempt.
pub const INGRESS_BIND_RETRIES: u32 = 8;
/// Ingress: the wait between two bind attempts: 500 ms.
pub const INGRESS_BIND_RETRY_INTERVAL: Duration = Duration::from_millis(500);
/// Ingress: "Bodies over 65,536 bytes answer 413 and are not read further."
pub const INGRESS_BODY_BYTES: usize = 65_536;
/// `/agent-event`: `summary` is cut to 8,192 bytes (on a UTF-8 boundary,
/// the truncation marker appended after the cut).
pub const AGENT_EVENT_SUMMARY_BYTES: usize = 8_192;
/// `/agent-event`: `detail` is cut to 16,384 bytes (as the summary).
pub const AGENT_EVENT_DETAIL_BYTES: usize = 16_384;
/// `/signals`: `occurred_at` is finite epoch milliseconds within ±8.64e15
/// (the range of a JavaScript `Date`).
pub const SIGNAL_OCCURRED_AT_MAX_ABS_MS: i64 = 8_640_000_000_000_000;
/// Relations over the ingress: a record's `note` is one line of at most 200
/// characters (code points).
pub const RELATION_NOTE_CHARS: usize = 200;
/// Ingress: how long a client may take to send its request head (our own choice,
/// not a protocol value): a connection that never finishes its headers is closed.
pub const INGRESS_HEADER_READ_WAIT: Duration = Duration::from_secs(10);
/// Ingress: how long a client may take to send a request body (our own choice, not a protocol
/// value): past it the request answers 408 and the connection closes.
pub const INGRESS_BODY_READ_WAIT: Duration = Duration::from_secs(10);
/// Ingress: arrivals that wait for a session while none is attached (a
/// restart), oldest dropped past it (our own choice, not a protocol value).
pub const RELAY_WAITING: usize = 64;

// --- The frontmost line and presence (`docs/triggers.md`, "The world") ---

/// frontmost: a clear lasting under this grace window (brief focus churn)
/// keeps the original `since` when the same app returns; a longer clear is
/// a real absence and stamps a fresh `since`: 5 minutes.
pub const FRONTMOST_CLEAR_GRACE: Duration = Duration::from_secs(5 * 60);
/// The transitions-only activity log keeps this many local days of files,
/// today included (`docs/triggers.md`, "The world").
pub const ACTIVITY_LOG_DAYS: u32 = 14;
/// How often the session reads the desktop (the frontmost window and the
/// idle time; each reading is an `os_idle_tick`, `docs/triggers.md`): once a second.
pub const WORLD_SAMPLE_INTERVAL: Duration = Duration::from_secs(1);
/// Pacing: the reading time of a reply is this base…
pub const PACING_READ_BASE_MS: i64 = 4_000;
/// …plus this much per character…
pub const PACING_READ_MS_PER_CHAR: i64 = 60;
/// …and at most this (a long reply is not read to the end before she may
/// speak again).
pub const PACING_READ_MAX_MS: i64 = 30_000;

// --- Screen transitions (`docs/triggers.md`, "Screen transitions") ---

/// Screen transitions: how long the app the user left must have been held
/// for leaving it to count as an `app_switched` (our own choice, not a protocol value): 10
/// minutes, so a glance at chat between two edits never fires.
pub const SCREEN_HOLD_MIN: u32 = 10;
/// Screen transitions: how long the new app must stay frontmost before the
/// switch counts as settled (our own choice, not a protocol value): 60 seconds, so a flick
/// through several apps fires nothing.
pub const SCREEN_SETTLE_S: u32 = 60;
/// Screen transitions: one app holding the foreground this long fires a
/// `long_session` (`docs/triggers.md`, "Screen transitions"): 45 minutes.
pub const SCREEN_LONG_SESSION_MIN: u32 = 45;
/// Screen transitions: after a `long_session` mark (fired or suppressed),
/// the same stretch fires again only after this much more (our own choice,
/// not a protocol value): 45 minutes.
pub const SCREEN_LONG_SESSION_REPEAT_MIN: u32 = 45;
/// Screen transitions: held `app_switched` transitions kept for the
/// `recent switches` line, oldest dropped past it (`docs/triggers.md`,
/// "Screen transitions": at most 5).
pub const SCREEN_RECENT_CAP: usize = 5;

// --- The bed scene (`docs/triggers.md`, "Wake and the bed scene"; our own choices, not protocol limits) ---

/// The lie-down clip after `go_to_bed`: 2.4 s.
pub const BED_LIE_DOWN_MS: u32 = 2_400;
/// The wake clip (she sits up, stretches and stands): 3.2 s.
pub const BED_WAKE_CLIP_MS: u32 = 3_200;
/// The bed fading out when the scene ends without a wake clip: 0.6 s.
pub const BED_FADE_MS: u32 = 600;
/// The wake timeout set in the settings, by default: 30 minutes.
pub const BED_WAKE_TIMEOUT_MIN_DEFAULT: u32 = 30;
/// … and at most: 8 hours.
pub const BED_WAKE_TIMEOUT_MIN_MAX: u32 = 8 * 60;

// --- Cues and the daily milestone (`docs/triggers.md`, "Cues" and "The first-activity milestone") ---

/// `tap_bored`: this many taps on the character ("4 taps in 3 s") …
pub const TAP_BORED_TAPS: usize = 4;
/// … within this window, the first tap to the last: 3 s.
pub const TAP_BORED_WINDOW: Duration = Duration::from_secs(3);
/// A schedule cue fires when a poll finds its time passed at most this long
/// ago (our own choice, not a protocol value): an app started, or a machine woken, later than
/// that skips the day's cue instead of firing a stale check-in: 30 minutes.
pub const SCHEDULE_LATE_MAX_MIN: u32 = 30;
/// `configs/avatar.json`: schedule cues at most (our own choice, not a protocol value).
pub const CUE_SCHEDULE_MAX: usize = 24;
/// `configs/avatar.json`: idle cues at most (our own choice, not a protocol value).
pub const CUE_IDLE_MAX: usize = 8;
/// `configs/avatar.json`: an idle cue's `after_min` at most: one day.
pub const CUE_IDLE_AFTER_MAX_MIN: u32 = 24 * 60;
/// `configs/avatar.json`: a cue label, in characters (our own choice, not a protocol value).
pub const CUE_LABEL_CHARS: usize = 80;
/// `configs/avatar.json`: a cue's context text, in characters (our own choice, not a protocol value).
pub const CUE_CONTEXT_CHARS: usize = 1_000;
/// `configs/avatar.json`: a cue id (`[a-z0-9_]`), in characters.
pub const CUE_ID_CHARS: usize = 40;

// --- Desktop facts: the sway IPC reader (`docs/triggers.md`, "The world") ---

/// sway / i3 IPC: the longest a connect, the request write or the reply
/// read may block before the frontmost sample gives up (our own choice, not a protocol value):
/// 500 ms, well under the sampler's poll.
pub const SWAY_IPC_TIMEOUT: Duration = Duration::from_millis(500);
/// sway / i3 IPC: the largest `GET_TREE` reply read, in bytes (our own choice,
/// not a protocol value); a longer one is dropped as malformed: 16 MiB.
pub const SWAY_IPC_REPLY_MAX: usize = 16 * 1024 * 1024;
/// A hold on a native Wayland pet (no global pointer): after each move of
/// her window, the page's pointer events of this long are let go by, since
/// they may be measured against the place before it (our own choice, not a protocol value):
/// 40 ms, a little over two frames, so the compositor has applied the move.
pub const PAGE_POINTER_SETTLE_MS: i64 = 40;
/// Wayland idle protocols: the timeout of the one idle notification the
/// idle watch asks for (our own choice, not a protocol value). Idle time reads 0 until the user
/// has been still this long, then counts up from it: 2 s, far finer than
/// the minutes presence works in.
pub const WAYLAND_IDLE_PROBE: Duration = Duration::from_secs(2);

// --- The conversation history (`docs/history.md`) ---

/// History writer: the most queued writes carried out in one transaction
/// (one commit for a burst of writes; a flush commits at once): 256.
pub const HISTORY_WRITE_BATCH: usize = 256;
/// History writer: how long it gathers writes after the first one before
/// it commits them (a turn's writes, and the turns of a quick exchange, go
/// in one transaction; a flush, an import or a read commits at once; a
/// kill -9 loses at most this much unflushed history): 100 ms.
pub const HISTORY_WRITE_LINGER: Duration = Duration::from_millis(100);
/// The nice value of the writer threads (the history's, the ordered
/// writer's, the log's) on Linux where the `SCHED_IDLE` class is refused:
/// background work that the session loop, woken by a frame, preempts
/// (`persist::background_thread`): 10.
pub const WRITER_NICE: i32 = 10;
/// The ordered writer (`persist::Writer`): how long it gathers jobs after
/// the first before it runs them (a turn's records, and the turns of a
/// quick exchange, in one go; a whole file written once for all of them; a
/// flush runs them at once; a kill -9 loses at most this much unflushed
/// work): 100 ms.
pub const PERSIST_WRITE_LINGER: Duration = Duration::from_millis(100);
/// History: how long a statement waits for a lock another connection holds
/// (the writer behind a checkpoint, a reader behind a migration): 5 s.
pub const HISTORY_BUSY_TIMEOUT: Duration = Duration::from_secs(5);
/// History: SQLite's page cache per connection, in KiB (the writer and the
/// reader each keep one; memory stays flat whatever the history's length): 2 MiB.
pub const HISTORY_CACHE_KIB: u32 = 2 * 1024;
/// History search: queries shorter than this many characters cannot use the
/// trigram index (a trigram is three characters) and go to the index of
/// character pairs instead.
pub const HISTORY_TRIGRAM_CHARS: usize = 3;

/// Lines one `overheard:` block carries at most: the newest 8 of another
/// character's unheard exchange with the user (`docs/characters.md`).
pub const OVERHEARD_LINES: usize = 8;
/// Addressed turns one exchange of characters speaking to each other has at
/// most, by default (a setting; our own choice, `docs/characters.md`).
pub const ADDRESSED_TURNS_PER_EXCHANGE: u32 = 6;
/// Characters open at once at most (our own choice, `docs/characters.md`):
/// each is a pet window with its own renderer and session.
pub const OPEN_CHARACTERS_MAX: usize = 6;
/// How long `@everyone` waits for one character's reply to end (and be
/// said) before the next character's turn goes anyway (our own choice,
/// `docs/characters.md`): a long reply with tools, said aloud.
pub const EVERYONE_TURN_WAIT: std::time::Duration = std::time::Duration::from_secs(180);
