# The pet window: the status pill, the controls around her and her notices.

# Her canvas, named as the core names her; the name before the core answers
pet-stage =
    .aria-label = { $name }
pet-default-name = Yui

# The status pill: the connection, the running turn and its tools
pet-pill-connecting = connecting…
pet-pill-ready = ready
pet-pill-reconnecting = reconnecting in { $seconds }s
pet-pill-key-refused = key refused
pet-pill-offline = offline
pet-pill-thinking = thinking…
pet-pill-queued = { $status } (+{ $count })
pet-pill-tool-running = running { $tool }
pet-pill-tool-done = { $tool } done
pet-pill-tool-failed = { $tool } failed

# The status pill: voice input
pet-voice-listening = listening
pet-voice-hearing = hearing you…
pet-voice-transcribing = transcribing…
pet-voice-no-permission = No microphone permission
pet-voice-no-device = No microphone
pet-voice-device-busy = Microphone busy
pet-voice-stream = Microphone error
pet-voice-no-stt = Set a speech-to-text server in Settings → Voice.
pet-voice-stt = Could not transcribe: { $detail }

# The row under the pill: delegated tasks and the token usage
pet-tasks = tasks: { $summary }
pet-usage =
    .title = Tokens of the last reply beside the model's context window
pet-usage-of-window = { $used } / { $window } tokens
pet-usage-tokens = { $used } tokens

# The eye badge while each message carries the screen
pet-screen-watch =
    .title = Each message you send carries a picture of your screen. Turn it off in Settings.
pet-screen-watch-label = Sees your screen

# The offer notice: turn a switched-off tool on
pet-offer-accept = Turn on
    .title = Turn the switch on (saved in Settings)
pet-offer-dismiss =
    .aria-label = Dismiss

# The approval notice: what she asks to do, and the answers
pet-ask-look = May I look at your screen?
pet-ask-open = May I open { $url }?
pet-ask-run = May I run { $tool }?
pet-approval-allow = Allow
pet-approval-always = Always
    .title = Always allow
pet-approval-deny = Deny

# The composer and its buttons
pet-composer =
    .aria-label = Message
    .placeholder = Talk to { $name }…
pet-composer-queue =
    .aria-label = Message
    .placeholder = Queue a message…
pet-send = Send
    .aria-label = Send
pet-stop = Stop
    .aria-label = Stop the reply
pet-mic-off =
    .aria-label = Microphone off: click to talk by voice
    .title = Microphone (hold Ctrl+Shift+Space to talk once)
pet-mic-on =
    .aria-label = Microphone on: click to stop listening
    .title = Microphone (hold Ctrl+Shift+Space to talk once)
pet-chat =
    .aria-label = Open the chat window
    .title = Chat history (Ctrl+Alt+Y)

# The error line: what the page itself could not do
pet-character-failed = Could not load the character: { $detail }
