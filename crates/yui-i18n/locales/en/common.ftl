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
