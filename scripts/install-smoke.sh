#!/usr/bin/env bash
# Install smoke test: build the .deb and .rpm (`npx tauri build --bundles
# deb,rpm`; YUI_SMOKE_PROFILE=debug bundles the workspace's debug build
# instead of making a release one, see below), install the .deb with apt (so its
# dependencies resolve), start the installed binary on a fresh Xvfb +
# xcompmgr display with an empty HOME and XDG directories (nothing
# configured, so the app starts its demo agent), and check that
#   - the pet window comes up (xdotool search --name YUI),
#   - the daily log says the demo agent started and the session is ready,
#   - the welcome window opens by itself (a first start, the demo answering),
#   - the pet's area of the screen is not one colour (the character drew),
#   - a drag on her moves the window (she takes the mouse, never the focus),
#   - a second launch exits and the running app logs `second_launch`,
#   - the tray menu, clicked over D-Bus as a tray host would: Show/Hide
#     hides her, Bring back shows her again.
# Then it removes the package. Exits non-zero with a message on any failure.
# Runnable on its own (as root or with sudo); scripts/test.sh runs it last.
# SKIP_BUILD=1 reuses the bundles already in $CARGO_TARGET_DIR/<profile>/bundle.
#
# YUI_SMOKE_PROFILE=debug (what scripts/test.sh sets): the packages are made
# from the debug build of the whole workspace with the custom-protocol
# feature, the very build the end-to-end and Wayland tests ran (with
# YUI_REUSE_TEST_BUILD=1 its binary is only bundled, `tauri bundle`; else
# `tauri build --debug -- --workspace` finds it built), so CI does not
# compile the app a second time, optimized, for seven minutes. The package,
# its files, its dependencies, the installed binary with its embedded UI and
# its first start are the same as a release one's; only the compiler's
# optimization differs (and, with YUI_REUSE_TEST_BUILD=1 as in CI, tokio's
# test clock is compiled in, unused, as in every binary the tests ran).
# Without it (the default) the release packages are built and tested, as a
# release is.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
ROOT="$(pwd)"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
WAIT_S="${YUI_SMOKE_WAIT_S:-60}"

say() { printf '\033[1m[install-smoke]\033[0m %s\n' "$*"; }
fail() { printf '\033[1;31m[install-smoke] FAIL:\033[0m %s\n' "$*" >&2; exit 1; }

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
for bin in Xvfb xcompmgr xdotool import convert identify dbus-daemon gdbus npx dpkg-deb; do
  command -v "$bin" >/dev/null || fail "$bin is missing; run scripts/setup.sh"
done

# --- build -----------------------------------------------------------------
profile="${YUI_SMOKE_PROFILE:-release}"
case "$profile" in
  release) build_args=(--bundles deb,rpm) ;;
  debug) build_args=(--debug --bundles deb,rpm -- --workspace)
    # As tests/e2e/run.sh builds it (with the test targets' features).
    [ "${YUI_REUSE_TEST_BUILD:-0}" = 1 ] && build_args+=(--tests) ;;
  *) fail "YUI_SMOKE_PROFILE is release or debug, not $profile" ;;
esac
bundle="$TARGET/$profile/bundle"
if [ "${SKIP_BUILD:-0}" != "1" ]; then
  say "npx tauri build ${build_args[*]} ($profile; CARGO_TARGET_DIR=$TARGET)"
  start=$(date +%s)
  rm -rf "$bundle/deb" "$bundle/rpm"
  if [ "$profile" = debug ] && [ "${YUI_REUSE_TEST_BUILD:-0}" = 1 ] && [ -x "$TARGET/debug/yui" ]; then
    # The binary the end-to-end tests ran (tests/e2e/run.sh built it with
    # the UI embedded): only bundled. `tauri build` would build it again,
    # its environment rerunning the app's build script.
    say "reusing $TARGET/debug/yui: npx tauri bundle --debug --bundles deb,rpm"
    CARGO_TARGET_DIR="$TARGET" npx tauri bundle --debug --bundles deb,rpm
  else
    # The CLI builds the UI first (beforeBuildCommand) and embeds it.
    CARGO_TARGET_DIR="$TARGET" npx tauri build "${build_args[@]}"
  fi
  say "$profile build and bundles took $(( $(date +%s) - start )) s"
fi
deb=$(ls -t "$bundle"/deb/*.deb 2>/dev/null | head -1 || true)
rpm=$(ls -t "$bundle"/rpm/*.rpm 2>/dev/null | head -1 || true)
[ -n "$deb" ] && [ -f "$deb" ] || fail "no .deb under $bundle/deb"
[ -n "$rpm" ] && [ -s "$rpm" ] || fail "no .rpm under $bundle/rpm"
say "deb: $deb ($(du -h "$deb" | cut -f1)); rpm: $rpm ($(du -h "$rpm" | cut -f1))"

package=$(dpkg-deb -f "$deb" Package)
binary=$(dpkg-deb -c "$deb" | awk '{print $NF}' | sed 's|^\./|/|; s|^usr/|/usr/|' | grep -E '^/usr/bin/[^/]+$' | head -1)
[ -n "$binary" ] || fail "the .deb installs nothing under /usr/bin"

# --- everything below is undone by cleanup -----------------------------------
pids=()
tmp=""
installed=0
cleanup() {
  local rc=$?
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ "$installed" = 1 ]; then
    say "apt-get remove -y $package"
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get remove -y -qq "$package" >/dev/null || rc=1
  fi
  if [ -n "$tmp" ]; then
    if [ "$rc" != 0 ] && [ -d "$tmp" ]; then
      mkdir -p "$ROOT/tests/e2e/artifacts"
      cp -r "$tmp/out" "$ROOT/tests/e2e/artifacts/install-smoke" 2>/dev/null || true
      say "logs and screenshots kept in tests/e2e/artifacts/install-smoke"
    fi
    rm -rf "$tmp"
  fi
  exit "$rc"
}
trap cleanup EXIT

say "apt-get install -y $deb"
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$deb" >/dev/null || fail "apt-get install of $deb failed"
installed=1
[ -x "$binary" ] || fail "$binary is not installed"
dpkg -L "$package" | grep -q '\.desktop$' || fail "the package installs no .desktop file"
dpkg -L "$package" | grep -q '/icons/hicolor/.*\.png$' || fail "the package installs no icon"

# A fresh user: empty HOME and XDG directories, no settings anywhere.
tmp=$(mktemp -d /tmp/yui-install-smoke.XXXXXX)
mkdir -p "$tmp/home" "$tmp/config" "$tmp/data" "$tmp/cache" "$tmp/state" "$tmp/run" "$tmp/out"
chmod 700 "$tmp/run"
export HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/config" XDG_DATA_HOME="$tmp/data" \
  XDG_CACHE_HOME="$tmp/cache" XDG_STATE_HOME="$tmp/state" XDG_RUNTIME_DIR="$tmp/run" XDG_SESSION_TYPE=x11
unset WAYLAND_DISPLAY YUI_DATA_DIR DBUS_SESSION_BUS_ADDRESS

n=91
while [ -e "/tmp/.X11-unix/X$n" ] || [ -e "/tmp/.X$n-lock" ]; do n=$((n + 1)); done
Xvfb ":$n" -screen 0 1280x800x24 -noreset -nolisten tcp >"$tmp/out/xvfb.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [ -e "/tmp/.X11-unix/X$n" ] && break; sleep 0.1; done
[ -e "/tmp/.X11-unix/X$n" ] || fail "Xvfb :$n did not start"
export DISPLAY=":$n"
xcompmgr >"$tmp/out/xcompmgr.log" 2>&1 &
pids+=($!)
# A private session bus: the single-instance check runs over D-Bus.
bus=$(dbus-daemon --session --fork --nopidfile --print-address=1 --print-pid=1) || fail "dbus-daemon did not start"
DBUS_SESSION_BUS_ADDRESS=$(printf '%s\n' "$bus" | sed -n 1p)
pids+=("$(printf '%s\n' "$bus" | sed -n 2p)")
export DBUS_SESSION_BUS_ADDRESS

say "starting $binary on :$n with an empty HOME"
"$binary" >"$tmp/out/app.stdout" 2>"$tmp/out/app.stderr" &
app=$!
pids+=("$app")

# --- checks ----------------------------------------------------------------
log_has() { # log_has REGEX: a daily log under the temp dirs has a matching line
  local f
  for f in $(find "$tmp" -name 'yui.log*' -type f 2>/dev/null); do
    grep -Eq "$1" "$f" && return 0
  done
  return 1
}
deadline=$(( $(date +%s) + WAIT_S ))
window="" demo=0 ready=0
while [ "$(date +%s)" -lt "$deadline" ]; do
  kill -0 "$app" 2>/dev/null || fail "the app exited early ($(tail -5 "$tmp/out/app.stderr" | tr '\n' ' '))"
  [ -n "$window" ] || window=$(xdotool search --onlyvisible --name '^YUI$' 2>/dev/null | head -1 || true)
  log_has 'demo_agent' && demo=1
  log_has 'ws_ready' && ready=1
  [ -n "$window" ] && [ "$demo" = 1 ] && [ "$ready" = 1 ] && break
  sleep 1
done
logfile=$(find "$tmp" -name 'yui.log*' -type f | head -1)
[ -n "$logfile" ] || fail "no daily log file (yui.log.<date>) under the temp HOME/XDG dirs"
say "log file: ${logfile#"$tmp"/}"
[ -n "$window" ] || fail "no window named YUI within ${WAIT_S} s"
[ "$demo" = 1 ] || fail "the log never said the demo agent started (record demo_agent) within ${WAIT_S} s"
[ "$ready" = 1 ] || fail "the session never became ready on the demo agent (record ws_ready) within ${WAIT_S} s"
say "pet window $window is up; demo agent started and connected"

# A first start with the demo answering: the welcome opens by itself.
welcome=""
for _ in $(seq 1 15); do
  welcome=$(xdotool search --onlyvisible --name '^Welcome to YUI$' 2>/dev/null | head -1 || true)
  [ -n "$welcome" ] && break
  sleep 1
done
[ -n "$welcome" ] || fail "a fresh install's first start opened no welcome window (record welcome_opened: $(grep -c welcome_opened "$logfile" || true))"
say "the welcome window $welcome opened by itself on the first start"

# The character drew: the pet's area of the root window is not one colour.
eval "$(xdotool getwindowgeometry --shell "$window")"
geometry="${WIDTH}x${HEIGHT}+${X}+${Y}"
colours=0
while [ "$(date +%s)" -lt "$deadline" ] || [ "$colours" = 0 ]; do
  import -window root "$tmp/out/root.png"
  convert "$tmp/out/root.png" -crop "$geometry" +repage "$tmp/out/pet.png"
  colours=$(identify -format '%k' "$tmp/out/pet.png")
  [ "$colours" -gt 50 ] && break
  [ "$(date +%s)" -lt "$deadline" ] || break
  sleep 2
done
[ "$colours" -gt 50 ] || fail "the pet's area ($geometry) shows $colours colours: the character did not draw"
say "the pet's area ($geometry) shows $colours colours: the character drew"

# She takes the mouse though she never took the focus ("focus": false): a
# press on her body that moves drags the window.
# On a loaded machine the page may still be loading her model when the
# first drag comes (a press on an empty pixel passes through): up to five
# drags, a few seconds apart, and one must move her.
cx=$(( X + WIDTH / 2 )) cy=$(( Y + HEIGHT * 45 / 100 ))
moved=0
for attempt in 1 2 3 4 5; do
  xdotool mousemove "$cx" "$cy"; sleep 1
  xdotool mousedown 1
  for i in $(seq 12); do xdotool mousemove $(( cx + i * 10 )) $(( cy + i * 4 )); sleep 0.05; done
  xdotool mouseup 1
  for _ in $(seq 25); do
    eval "$(xdotool getwindowgeometry --shell "$window" | sed 's/^/NEW_/')"
    [ "$NEW_X" != "$X" ] && { moved=1; break; }
    sleep 0.2
  done
  [ "$moved" = 1 ] && break
  say "drag $attempt did not move her yet (her model may still be loading); again in 3 s"
  sleep 3
done
[ "$moved" = 1 ] || fail "five drags on the pet at $cx,$cy did not move the window: she does not take the mouse"
say "a drag on her moved the window from $X,$Y to $NEW_X,$NEW_Y: she takes the mouse without the focus"

# A second launch hands over to the running one and exits.
say "second launch"
if ! timeout 30 "$binary" >"$tmp/out/second.stdout" 2>"$tmp/out/second.stderr"; then
  fail "the second launch did not exit cleanly within 30 s"
fi
for _ in $(seq 20); do log_has 'second_launch' && break; sleep 0.5; done
log_has 'second_launch' || fail "the running app never logged second_launch"
kill -0 "$app" 2>/dev/null || fail "the running app died on the second launch"
[ "$(xdotool search --onlyvisible --name '^YUI$' 2>/dev/null | wc -l)" = 1 ] || fail "more than one pet window after the second launch"
say "the second launch exited and the running pet was brought back"

# The tray menu, as a tray host would click it: libayatana-appindicator
# exports it on the session bus (com.canonical.dbusmenu); the items are
# found by their labels. Show/Hide hides her; Bring back shows her again.
menu_owner="" menu_path=""
for name in $(gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
    --method org.freedesktop.DBus.ListNames | grep -o "':[0-9.]*'" | tr -d "'"); do
  menu_path=$(gdbus introspect --session --dest "$name" --object-path / --recurse 2>/dev/null \
    | sed -n 's|^ *node \(/org/ayatana/NotificationItem/[^ ]*/Menu\) {|\1|p' | head -1 || true)
  [ -n "$menu_path" ] && { menu_owner=$name; break; }
done
[ -n "$menu_owner" ] || fail "no tray menu (com.canonical.dbusmenu under /org/ayatana/NotificationItem) on the session bus"
layout=$(gdbus call --session --dest "$menu_owner" --object-path "$menu_path" --method com.canonical.dbusmenu.GetLayout -- 0 -1 '@as []')
item() { # item LABEL: the menu item id with that label
  printf '%s' "$layout" | python3 -c 'import re,sys; m=re.search(r"\((\d+), \{.label.: <.%s.>\}" % re.escape(sys.argv[1]), sys.stdin.read()); print(m.group(1) if m else "")' "$1"
}
click() { gdbus call --session --dest "$menu_owner" --object-path "$menu_path" --method com.canonical.dbusmenu.Event -- "$1" clicked '<int32 0>' 0 >/dev/null; }
toggle=$(item "Show/Hide") back=$(item "Bring back")
[ -n "$toggle" ] && [ -n "$back" ] || fail "the tray menu has no Show/Hide or no Bring back item: $layout"
visible() { xdotool search --onlyvisible --name '^YUI$' 2>/dev/null | wc -l; }
click "$toggle"
for _ in $(seq 20); do [ "$(visible)" = 0 ] && break; sleep 0.25; done
[ "$(visible)" = 0 ] || fail "the tray's Show/Hide did not hide her"
brought_back() { find "$tmp" -name 'yui.log*' -type f -exec cat {} + | grep -c 'pet_brought_back' || true; }
backs=$(brought_back)
click "$back"
for _ in $(seq 20); do [ "$(visible)" = 1 ] && break; sleep 0.25; done
[ "$(visible)" = 1 ] || fail "the tray's Bring back did not show her again"
for _ in $(seq 20); do [ "$(brought_back)" -gt "$backs" ] && break; sleep 0.25; done
[ "$(brought_back)" -gt "$backs" ] \
  || fail "the tray's Bring back did not log pet_brought_back"
say "the tray menu (over D-Bus, as a tray host clicks it): Show/Hide hid her, Bring back brought her back"

say "PASS"
