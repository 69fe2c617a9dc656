# The settings window: ui/settings.html and ui/src/settings/main.ts (sections' code: sections.ftl).

# The window's title and whose settings it shows
settings-title = YUI Settings
settings-title-editing = YUI Settings · { $name }
settings-editing = Settings of
settings-editing-select =
    .aria-label = Whose settings this window shows
settings-editing-main = { $name } (main)
settings-editing-hint = Backend, model, voice and character are hers alone; your name, the language, the reactions and the desktop are everyone's.
settings-session-strip =
    .aria-label = Session

# Section names (docs/guide/controls.md names them as these do)
settings-legend-backend = Backend
settings-legend-model = Model
settings-legend-persona = Persona
settings-legend-screen-tools = Screen & tools
settings-legend-voice = Voice
settings-legend-chat = Chat
settings-legend-reactions = Reactions
settings-legend-session = Session
settings-legend-characters = Characters
settings-legend-character = Character
settings-legend-startup = Startup
settings-legend-help = Help

# Shared buttons and labels
settings-refresh = Refresh
settings-copy = Copy
settings-model = Model
settings-save = Save
settings-saved = Saved.

# Backend
settings-protocol = Protocol
settings-protocol-push = Push (WebSocket)
settings-protocol-responses = Responses
settings-protocol-chat-completions = Chat Completions
settings-protocol-agent-chat = Agent chat (local engine)
settings-base-url = Base URL
settings-base-url-input =
    .placeholder = empty: the built-in demo agent
settings-key = Key
settings-key-show = Show
settings-key-hide = Hide
settings-key-keychain = Stored in the system keychain.
settings-key-file = Stored in a file only you can read (no keychain available).
settings-test-connection = Test connection
settings-test-connection-hint = Tests the values above without saving them.
settings-find-model = Find a model…
settings-find-model-hint = Model servers running on this computer, providers, and a first message.

# What Test connection found ($mark: ✓, ✗ or ?)
settings-probe-testing = Testing…
settings-probe-reachable = Reachable { $mark }
settings-probe-key = Key accepted { $mark }
settings-probe-model = Model answering { $mark }

# Model
settings-model-hint = Responses and Chat Completions only; a push backend picks its own.
settings-effort = Reasoning effort
settings-effort-none = none
settings-effort-minimal = minimal
settings-effort-low = low
settings-effort-medium = medium
settings-effort-high = high
settings-context-window = Context window
settings-context-window-unit = (tokens)
settings-context-window-hint = The conversation is trimmed to fit it.

# Persona
settings-instructions = Instructions
settings-instructions-hint = Sent after the character's card, or alone when the card is off.
settings-card-enabled = Send the character's card
settings-user-name = Your name
settings-user-name-input =
    .placeholder = how the character calls you
settings-language = Language
settings-language-hint = The language of YUI's windows and tray, and of the default card.

# Screen & tools
settings-screenshot = Attach the screen to each turn
settings-screenshot-hint = Every message you send carries a picture of the source below. The pet shows an eye badge while this is on.
settings-screen-source =
    .aria-label = Screenshot source
settings-screen-monitor = A display
settings-screen-monitor-select =
    .aria-label = Display
settings-screen-window = A window
settings-screen-app =
    .placeholder = app, e.g. firefox
    .aria-label = App
settings-screen-title =
    .placeholder = part of the title (optional)
    .aria-label = Title contains
settings-allow-requests = Let her look at the screen when she asks
settings-browser = Let her use her browser
settings-relations = Relations
settings-relations-hint = She keeps how she feels toward you and other characters, and it shapes her replies.
settings-relations-heading = Relations
settings-relations-toward = Toward
settings-relations-band = Band
settings-relations-value = Value
settings-relations-change = Last change

# Voice
settings-voice-enabled = Speak replies aloud
settings-voice-enabled-hint = Off: the bubble shows the reply at reading speed and nothing plays.
settings-tts-server = TTS server
settings-tts-server-input =
    .placeholder = empty: the system voice
settings-tts-server-hint = An OpenAI-compatible speech server (/v1/audio/speech).
settings-tts-key = TTS key
settings-tts-voice = Voice
settings-tts-in-flight = Requests at once
settings-speed = Speed
settings-system-voice = With no TTS server, use the system voice
settings-system-voice-name = System voice name
settings-system-voice-name-input =
    .placeholder = empty: its default (espeak-ng -v, say -v)
settings-output-device = Output device
settings-filler = Say a short filler while a reply is slow
settings-listening = Listening
settings-listening-hint = The microphone button on the pet turns listening on and off; hold Ctrl+Shift+Space to talk once.
settings-mic = Microphone
settings-vad = Sensitivity
settings-stt-server = STT server
settings-stt-server-input =
    .placeholder = empty: voice input is off
settings-stt-server-hint = An OpenAI-compatible transcription server (/v1/audio/transcriptions).
settings-stt-key = STT key
settings-stt-language = Language
settings-stt-language-input =
    .placeholder = auto
settings-show-keys = Show keys

# Chat
settings-show-reasoning = Show reasoning
settings-collapse-reasoning = Collapse reasoning by default
settings-reasoning-hint = The chat window's "Thinking…" panel, while the model reasons.
settings-confirm-delete = Ask before deleting
settings-max-attachments = Files per message
settings-max-attachment-mb = Largest file (MB)
settings-attachments-hint = A message over either limit is not sent.

# Reactions
settings-notices = What she notices
settings-frontmost = Tell her which app is in front
settings-screen-transitions = Let her react when you settle into another app or stay in one for long
settings-schedule = Say hello at the day's first activity, and the time-of-day cues
settings-idle-cues = Idle cues (after an hour with no conversation)
settings-away-after = Away after (min)
settings-quiet-gap = Minutes between her own turns
settings-reactions-hint = She never speaks over a reply you are reading or right after you talked, starts at most a few turns an hour, and stays quiet while a fullscreen app is in front.
settings-signals = Signals from other programs
settings-ingress-enabled = Let programs on this computer send her signals
settings-ingress-hint = A calendar sync, a CI watcher or an agent's hook can POST to her; she reacts when you are around and she is free.
settings-ingress-port = Port
settings-ingress-require-token = Require the token
settings-ingress-token = Token
settings-ingress-try = Try it
settings-ingress-port-hint = A port change applies after YUI restarts.

# Session
settings-background-work = Background work
settings-background-work-hint = What the character handed off, newest first. Open a finished one to read its answer.

# Characters
settings-characters-hint = Each character is the face of her own agent, with her own window on the desktop. Main comes first and has the microphone; up to 6 can be out at once. Pick whose settings the sections show at the top of this window.
settings-character-new-name =
    .placeholder = Name
    .aria-label = New character's name
settings-character-new-copy = from
settings-character-new-copy-select =
    .aria-label = What she starts with
settings-character-add = Add
settings-character-from-card = Add from a character card (.json or .png)…
settings-character-added = Added { $name }. Her settings show now: give her a backend, or she talks to the demo agent.

# Character
settings-character-builtin = Yui (built in)
settings-character-file = Your character: { $file }
settings-choose-vrm = Choose a .vrm…
settings-default-character = Use the default
settings-vrm-hint = VRM 0.x and 1.0 both work. The file is copied into YUI's data folder.
settings-vrm-loaded = Loaded { $name } (VRM { $version }).
settings-back-to-default = Back to Yui.
settings-add-vrma = Add a .vrma motion…
settings-vrma-hint = A clip plays when the agent names its file name as a motion.
settings-motion-added = Added the motion "{ $id }".
settings-card-name = Card: { $name }
settings-unnamed = (unnamed)
settings-card-loaded = Loaded the card of { $name }.
settings-import-card = Import a character card (.json or .png)…
settings-card-hint = A Tavern Card V2. It replaces this character's card and restarts the conversation.
settings-bed-at-launch = Start asleep on a bed when YUI starts
settings-bed-wake = She wakes by herself after (min)
settings-bed-hint = A click on her or the bed, or a message, wakes her sooner. "Go to bed" in the tray menu puts her to bed any time.

# Startup
settings-start-at-login = Start YUI when I log in
settings-start-at-login-hint = Off by default. Starting YUI again while it runs brings her back on screen instead of opening a second one.

# Help (the same words as the tray's Help items, shell.ftl)
settings-help-hint = Ask her: she answers in her bubble from the guide that comes with YUI, in your language.
settings-help-controls = How do I use you?
settings-help-capabilities = What can you do?
settings-help-asked = Asked. She answers in her bubble.

# What YUI sent
settings-inspector = What YUI sent
settings-inspector-hint = The context block of each of the last 20 turns and the pictures that left with it, exactly as they left this machine.
settings-context-summary = { $time } · { $transport } · turn { $turn }
settings-context-pictures =
    { $count ->
        [one] { $count } picture
       *[other] { $count } pictures
    }
settings-contexts-empty = Nothing sent yet.
settings-picture-view =
    .alt = A picture that was sent
