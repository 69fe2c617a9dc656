# Shared by every window: the problems the core and the shell report, by
# their code. The core's own detail follows the headline.

error-with-detail = { $headline }: { $detail }
error-network = Can't reach the backend
error-auth = The backend refused the key
error-hello-timeout = The backend did not answer in time
error-frame-malformed = A message from the backend could not be read
error-frame-oversize = A message was too large
error-stall = The answer stopped coming
error-turn-failed = The backend could not answer
error-settings = These settings can't be used
error-storage = A file could not be read or saved
error-unsupported = Not supported in this build
error-closed = Not connected
error-context-reset = The server lost the conversation; a new one started
error-audio = Sound or microphone problem
error-unknown-character = No such character is open

# The core's own lines (UiEvent::Notice's phrase), by the file that says them:
# crates/yui-turn/src/engine/, crates/yui-core/src/session/, crates/yui-core/src/transport/
notice-not-connected = Not connected to the backend.
notice-reset-not-sent = Not connected; the reset was not sent.
notice-stalled = The backend did not answer in time.
notice-dropped = The connection dropped before the reply.
notice-no-switch = There is no tool switch named { $switch }.
notice-wait-regenerate = Wait for the reply to finish before regenerating.
notice-nothing-to-regenerate = Nothing to regenerate: no message of yours came before this one.
notice-message-not-here = That message is not in this conversation.
notice-stop-before-delete = Stop the reply before deleting it.
notice-stop-before-delete-conversation = Stop the reply before deleting this conversation.
notice-stop-before-delete-all = Stop the reply before deleting the conversations.
notice-key-refused-http = The server refused the key (HTTP { $status }). Check the key in settings.
notice-key-refused-push = The backend refused the key (4401). Check the key in settings.
notice-key-refused = The model server refused the API key.
notice-context-reset = The conversation context was reset: the server no longer had it.
notice-no-sound = No sound: { $detail }. Speech shows at its real pace.
notice-desktop-limited = This desktop ({ $path }) cannot give her everything. Settings → Startup → Desktop check says what is missing.
