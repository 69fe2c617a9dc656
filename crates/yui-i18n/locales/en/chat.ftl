# The chat window (ui/chat.html, ui/src/chat/).

# The sidebar: new chat, search, the conversation list and its deletes.
chat-sidebar =
    .aria-label = Conversations
chat-new-chat = ＋ New chat
    .title = New chat (Ctrl/⌘N)
chat-search-button =
    .title = Search (Ctrl/⌘K)
    .aria-label = Search
chat-settings = Settings
    .title = Settings (Ctrl/⌘,)
chat-untitled = New chat
chat-conversation-current = current · { $when }
chat-conversation-delete =
    .title = Delete conversation
    .aria-label = Delete { $title }
chat-delete-all-conversations = Delete all conversations

# The header: the conversation's title and the connection.
chat-heading = Chat
chat-connecting = Connecting…
chat-replying = { $status } · replying…

# The transcript: the empty chat, the banner over an older one, queued messages.
chat-transcript =
    .aria-label = Transcript
chat-empty-title = Say hello
chat-empty-hint = Type a message below. Enter sends, Shift+Enter makes a new line.
chat-banner-earlier = Earlier in this chat — new messages go below the latest
chat-banner-older = Older conversation — new messages go to the current chat
chat-back-to-latest = Back to the latest
chat-back-to-current = Back to the current chat
chat-queued = queued
chat-queue-cleared = Queue cleared ({ $count })

# The composer: the box, Send/Stop, attachments and their limits.
chat-mentions =
    .aria-label = Characters
chat-attach =
    .title = Attach files
    .aria-label = Attach files
chat-input =
    .placeholder = Message…
    .aria-label = Message
chat-placeholder = Message…
chat-placeholder-to = Message { $name }…
chat-placeholder-to-or-pick = Message { $name }, or @ to pick who…
chat-placeholder-queue = Type to queue a message…
chat-placeholder-read-only = Older conversation — read only
chat-send = Send
    .aria-label = Send
chat-stop = Stop
    .aria-label = Stop the reply
chat-attachment-remove =
    .aria-label = Remove { $name }
chat-attachment-unknown-kind =
    .title = file
chat-attachment-too-many =
    { $max ->
        [one] { $name }: at most { $max } file per message
       *[other] { $name }: at most { $max } files per message
    }
chat-attachment-too-big = { $name } ({ $size }) is over the { $limit } limit per file
chat-read-failed = Could not read a file: { $detail }

# A message's actions.
chat-action-copy = Copy
    .title = Copy the text
    .aria-label = Copy the text
chat-action-regenerate = Regenerate
    .title = Write another answer
    .aria-label = Write another answer
chat-action-regenerate-wait = Regenerate
    .title = Wait for the reply to finish
    .aria-label = Wait for the reply to finish
chat-action-fork = Fork
    .title = A new chat up to here
    .aria-label = A new chat up to here
chat-action-delete = Delete
    .title = Delete this message
    .aria-label = Delete this message
chat-versions =
    .aria-label = Versions
chat-version-previous =
    .aria-label = Previous version
chat-version-next =
    .aria-label = Next version
chat-to-everyone = to everyone
chat-to-character = to { $name }

# An answer: the reasoning panel, tool cards, approvals, the outcome and the usage line.
chat-seconds = { $value }s
chat-thinking = Thinking… { $time }
chat-thought-for = Thought for { $time }
chat-tool-preparing = preparing
chat-tool-preparing-note = Preparing tool…
chat-tool-running = running
chat-tool-done = done
chat-tool-done-in = done · { $time }
chat-tool-failed = failed
chat-tool-failed-in = failed · { $time }
chat-tool-no-result = no result
chat-output-show-all = Show all
chat-output-show-less = Show less
chat-output-copy = Copy output
chat-output-none = No output reported.
chat-approval-ask = Allow { $tool }?
chat-approve-allow = Allow
chat-approve-always = Always allow
chat-approve-deny = Deny
chat-approval-left = { $time } left
chat-approval-pending = Waiting for you
chat-approval-allowed = Allowed
chat-approval-always = Always allowed
chat-approval-denied = Denied
chat-approval-timed-out = Timed out — denied
chat-approval-ended = The run ended
chat-approval-gone = No longer pending
chat-stopped = Stopped
chat-stopped-unconfirmed = Stopped — the engine did not confirm the stop
chat-error-auth = Key refused
chat-error-rate-limit = Rate limited
chat-error-empty = No output
chat-error-no-answer = The tools ran, but no answer came back
chat-error-internal = Something went wrong
chat-error-tools-succeeded =
    { $count ->
        [one] ({ $count } tool call succeeded)
       *[other] ({ $count } tool calls succeeded)
    }
chat-usage-chars =
    { $count ->
        [one] { $count } char
       *[other] { $count } chars
    }
chat-usage-seconds = { $value } s
chat-usage-ttft = TTFT { $value } s
chat-usage-tokens = { $tokens } tokens / { $window }
chat-latency-request-sent = request sent +{ $ms } ms
chat-latency-first-token = first token +{ $ms } ms
chat-latency-first-sentence = first sentence +{ $ms } ms
chat-latency-first-audio = first audio +{ $ms } ms

# The offer to turn a tool switch on.
chat-offer-off = { $switch } is off.
chat-offer-accept = Turn on
    .title = Turn the switch on (saved in Settings); her next call uses it
chat-offer-dismiss =
    .aria-label = Dismiss

# Search.
chat-search-panel =
    .aria-label = Search messages
chat-search-input =
    .placeholder = Search messages…
chat-search-none = No messages match.

# Confirmations and one-off lines.
chat-cancel = Cancel
chat-delete-confirm = Delete
chat-delete-message-question = Delete this message?
chat-delete-conversation-question = Delete “{ $title }”? This cannot be undone.
chat-delete-all-question = Delete all conversations? This cannot be undone.
chat-delete-all-confirm = Delete all
chat-copied = Copied
chat-copy-failed = Could not copy
chat-conversation-gone = That conversation is gone.
chat-from-character = { $name }: { $text }
chat-start-failed = The chat window could not start: { $problem }
