# The welcome window: ui/welcome.html and ui/src/welcome/.

# The first screen
welcome-window-title = Welcome to YUI
welcome-heading = Welcome to YUI
welcome-lead = She is answered by a small demo for now. Connect her to a model of your own, here or in the settings later.
welcome-language = Language
welcome-language-picker =
    .aria-label = Language
welcome-keep-demo = Keep the demo for now
welcome-done = Done

# What runs on this computer, and the providers
welcome-pick =
    .aria-label = Where her words come from
welcome-found-heading = Found on this computer
welcome-looking = Looking for model servers on this computer…
welcome-nothing-found = Nothing runs on the usual ports (Ollama, LM Studio, llama.cpp, vLLM, LiteLLM).
welcome-found-models =
    { $count ->
        [one] { $count } model
       *[other] { $count } models
    }
welcome-found-compatible = OpenAI-compatible server
welcome-providers-heading = Or pick a provider
welcome-address-yours = you give the address

# Providers the core names in words, by id (crates/yui-core/src/providers.rs)
welcome-provider-openai-compatible = Any OpenAI-compatible URL
welcome-provider-agent-chat = An agent-chat engine
welcome-provider-push = A push backend
welcome-provider-demo = Keep the demo
welcome-provider-llama-cpp = llama.cpp server

# The connection form
welcome-connect =
    .aria-label = Connect
welcome-base-url = Base URL
welcome-key = Key
welcome-key-optional = Key (if it asks for one)
welcome-model = Model
welcome-model-input =
    .placeholder = pick or type a model name
welcome-models-on-server =
    { $count ->
        [one] { $count } model on this server.
       *[other] { $count } models on this server.
    }
welcome-back = Back
welcome-go = Connect and say hello
welcome-testing = Testing…
welcome-answer-hint = Her first answer:
welcome-answer-connected = Connected. Her first answer:

# What failed in a connection test, and what to try
welcome-problem-with-detail = { $advice } ({ $detail })
welcome-problem-unreachable = Nothing answers at that address. Check that the server is running and that the base URL, with its port, is right.
welcome-problem-key-refused = The server refused the key. Copy it again from the provider's page, with nothing before or after it.
welcome-problem-model-missing = The key works, but that model does not answer there. Check its exact name in the server's list.
welcome-problem-wrong-protocol = Something answers there, but not with this protocol. Try Chat Completions (most servers speak it), or check the base URL.

# Her voice and the microphone (ui/src/welcome/voice.ts)
welcome-to-voice = Set up her voice and the microphone
welcome-skip = Skip
welcome-finish = Finish
welcome-next-mic = Next: the microphone
welcome-voice-heading = Her voice
welcome-voice-lead = Pick what she speaks with, then try it: she says one line. Nothing is kept until it works.
welcome-voice-looking = Looking for speech servers on this computer…
welcome-voice-nothing = No speech server runs on the usual ports (Kokoro-FastAPI, openedai-speech, Speaches), and this computer has no system voice.
welcome-voice-system = The system voice
welcome-voice-system-detail = built in, works offline
welcome-voice-kokoro = Kokoro-FastAPI
welcome-voice-compatible = OpenAI-compatible speech server
welcome-voice-other = A speech server at another address
welcome-voice-count =
    { $count ->
        [one] { $count } voice
       *[other] { $count } voices
    }
welcome-voice-models =
    { $count ->
        [one] { $count } speech model
       *[other] { $count } speech models
    }
welcome-voice-key = Key (if it asks for one)
welcome-voice-model = Model
welcome-voice-name = Voice
welcome-voice-try = Try this voice
welcome-voice-trying = She is trying it…
welcome-voice-kept = She spoke with it ({ $seconds } s). It is her voice now.
welcome-voice-unreachable = Nothing answers at that address. Check that the speech server is running and that the address, with its port, is right.
welcome-voice-key-refused = The speech server refused the key. Copy it again, with nothing before or after it.
welcome-voice-missing = The server answered, but not with speech for that model and voice. Check their exact names in the server's lists.
welcome-voice-no-system = This computer has no system voice. Install espeak-ng (Linux), or pick a speech server.
welcome-voice-not-playable = The speech came, but it could not be played. Check the sound output in Settings → Voice.
welcome-mic-heading = The microphone
welcome-mic-lead = Turn it on to talk to her by voice: she listens for your words, or while you hold Ctrl+Shift+Space. She hears you through the speech-to-text server set in Settings → Voice.
welcome-mic-device = Microphone
welcome-mic-default = { $name } (default)
welcome-mic-on = Turn the microphone on
welcome-mic-none = No microphone was found on this computer.
welcome-mic-listening = The microphone is on. The mic button under her turns it off.
