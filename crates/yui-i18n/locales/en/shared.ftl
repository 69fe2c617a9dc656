# Shared by the windows of a character (the slices in ui/src/slices/).

# The connection, as the chat header and the settings strip show it
shared-connection-connecting = Connecting…
shared-connection-connected = Connected
shared-connection-ready = Ready
shared-connection-reconnecting = Reconnecting in { $seconds }s
shared-connection-reconnecting-reason = Reconnecting in { $seconds }s — { $reason }
shared-connection-key-refused = Key refused
shared-connection-offline = Offline

# The offers to turn a switched-off tool on
shared-offer-look-screen = She asked to see your screen.
shared-offer-browser = She wanted to use her browser, which is off.
shared-offer-relations = She wanted to note how she feels about someone; relations are off.
shared-offer-other = She wanted to use { $switch }, which is off.

# The delegated tasks, counted
shared-delegations-running = { $count } running
shared-delegations-done = { $count } done
