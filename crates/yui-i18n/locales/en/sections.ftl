# The settings window's sections, written by their code: ui/src/settings/
# (bed, characters, chat, desktop, reactions, screen, session, strip, tools, voice).

# Characters (characters.ts)
section-characters-remove-question = Remove { $name }? Her settings, conversations, relations and key are deleted from this computer.
section-characters-name-first = Give her a name first.
section-characters-default-card = the default card
section-characters-copy-of = a copy of { $name }
section-characters-on-desktop =
    .aria-label = { $name } on the desktop
section-characters-main = main
section-characters-make-main = Make main
section-characters-remove = Remove…

# The desktop check in Startup (desktop.ts): the checks and the heading
section-desktop-transparency = Transparency
section-desktop-click-through = Click-through
section-desktop-always-on-top = Always on top
section-desktop-placement = Moving her window
section-desktop-head = Desktop check: { $path }.
section-desktop-failed = Desktop check: could not run.
section-desktop-works = ✓ { $name }: { $note }
section-desktop-lacks = ✗ { $name }: { $note }
section-desktop-path-none = no display
section-desktop-path-xwayland-fallback = XWayland (this compositor has no layer-shell)

# The desktop check's notes, as the core words them (crates/yui-core/src/world/stage.rs)
section-desktop-x11-compositor = a compositing manager runs
section-desktop-x11-no-compositor = no compositing manager runs, so her window shows a dark box; start one (picom, xcompmgr) or turn compositing on in your window manager
section-desktop-x11-shape = the X server shapes input
section-desktop-x11-no-shape = the X server has no SHAPE extension, so her whole window takes the mouse
section-desktop-x11-above = the window manager keeps her above
section-desktop-x11-no-above = the window manager cannot keep windows above, so others may cover her; the tray's Bring back and Ctrl+Shift+Y show her
section-desktop-places-herself = she places her own window
section-desktop-compositor-blends = the compositor blends her window
section-desktop-wayland-click-through = the compositor takes her input region: the shape she draws; Wayland gives apps no global shortcut, so to bring her back start YUI again (bind `yui` to a key in your compositor) or use the tray's Bring back
section-desktop-wayland-overlay = she is on the compositor's overlay layer, above windows
section-desktop-wayland-no-above = a Wayland client cannot keep itself above; run YUI with GDK_BACKEND=x11 to use XWayland, where it can
section-desktop-wayland-margins = she places her own window (layer-shell margins)
section-desktop-wayland-no-placement = a Wayland client cannot place itself, so she does not walk, sit or fall and body_action answers unsupported; GDK_BACKEND=x11 gives her the desktop
section-desktop-system-blends = the system blends her window
section-desktop-system-clicks = the system passes clicks through
section-desktop-system-above = the system keeps her above
section-desktop-no-display-to-show = no display to show her on
section-desktop-no-display = no display

# Reactions: the signals ingress (reactions.ts)
section-reactions-off = Off: other programs cannot reach her.
section-reactions-listening = Listening on { $address } (this computer only).
section-reactions-not-listening = Not listening on { $address }: save, then restart YUI.
section-reactions-copied = Copied
section-reactions-copy-failed = Copy failed

# Screen & tools: the displays and the relations (screen.ts)
section-screen-display = Display { $index }
section-screen-display-named = Display { $index }: { $name }
section-screen-display-primary = primary
section-screen-display-missing = Display { $index } (not found now)
section-screen-band-hostile = hostile
section-screen-band-cold = cold
section-screen-band-neutral = neutral
section-screen-band-warm = warm
section-screen-band-close = close
section-screen-no-change = no change yet
section-screen-no-reason = (no reason)

# Screen & tools: the controls (tools.ts)
section-tools-displays-error = Cannot list the displays: { $problem }
section-tools-relation-value =
    .aria-label = Value toward { $target }
section-tools-relation-set = Set
section-tools-relation-you = you
section-tools-relation-range = A value is a whole number from { $min } to { $max }.
section-tools-relation-done = { $target }: set to { $value } ({ $band }).
section-tools-thumb =
    .alt = { $label }
    .title = { $label } — click to enlarge

# Session: the background work (session.ts)
section-session-empty = No background work yet.
section-session-running = running
section-session-done = done · { $status }
section-session-status-ok = ok
section-session-status-failed = failed
section-session-status-unknown = unknown
section-session-started = started { $time }
section-session-started-ended = { $started } · ended { $time }

# The session strip under the title (strip.ts)
section-strip-replying = Replying…
section-strip-thinking = Thinking…
section-strip-replying-queued = Replying… (+{ $count } queued)
section-strip-thinking-queued = Thinking… (+{ $count } queued)
section-strip-running = { $count } running

# Voice: the device lists and the keys (voice.ts)
section-voice-system-default = System default
section-voice-device-missing = { $device } (not found)
section-voice-show-keys = Show keys
section-voice-hide-keys = Hide keys
section-voice-devices-error = Cannot list the devices: { $problem }

# What the desktop reader cannot read (crates/yui-desktop/src/platform/): each word for word as the core says it
section-limitation-wayland = Wayland offers no general way to see which window has the focus or how long the user has been idle; the frontmost line is left out and the user counts as present.
section-limitation-sway = This compositor tells YUI which window has the focus but not how long the user has been idle; the user counts as present.
section-limitation-idle-only = This compositor tells YUI how long the user has been idle but not which window has the focus; the frontmost line is left out.
section-limitation-unsupported = The frontmost window and idle time are not read on this system yet; the frontmost line is left out and the user counts as present.
section-limitation-no-display = No display to read: neither DISPLAY nor WAYLAND_DISPLAY is set; the frontmost line is left out and the user counts as present.
