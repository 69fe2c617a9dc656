#!/usr/bin/env bash
# XWayland fallback smoke test: on a Wayland compositor without layer-shell
# the app runs through XWayland (GDK_BACKEND=x11, chosen before GTK starts;
# `yui_core::world::gdk_backend`), where she can place herself. Two
# compositors, each headless, against yui-mock's demo agent:
#   - GNOME's mutter 43 (`--headless --virtual-monitor`), the desktop this
#     is for: the app logs display_backend choice=Xwayland, the desktop
#     self-test names the path "XWayland (this compositor has no
#     layer-shell)" with no problem, she is an X11 window of 360×520 placed
#     on the floor, and a body_action move_to top-left moves that window to
#     the corner;
#   - weston 10 with XWayland: the same choice; the self-test names the one
#     thing weston's window manager cannot do (keep her above), `look
#     perch_targets` answers from X11 (no crash in the screenshot library's
#     Wayland path, which panics on weston), and the session stays up.
# Builds nothing: it runs $CARGO_TARGET_DIR/debug/yui (built with
# `--features custom-protocol` after `npm run ui:build`) and
# $CARGO_TARGET_DIR/debug/yui-mock. Everything it starts is stopped at exit;
# the logs of a failed run are kept in tests/e2e/artifacts/xwayland-smoke.
# scripts/test.sh runs it after the sway smoke test.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$(pwd)"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
WAIT_S="${YUI_SMOKE_WAIT_S:-60}"

say() { printf '\033[1m[xwayland-smoke]\033[0m %s\n' "$*"; }
fail() { printf '\033[1;31m[xwayland-smoke] FAIL:\033[0m %s\n' "$*" >&2; exit 1; }

. scripts/lib.sh
# The two compositors are only for this test: installed here, not by setup.sh.
apt_ensure mutter weston xwayland xdotool dbus
for bin in mutter weston Xwayland xdotool curl dbus-run-session python3; do
  command -v "$bin" >/dev/null || fail "$bin is missing (apt: mutter weston xwayland xdotool dbus)"
done
APP="$TARGET/debug/yui"
MOCK="$TARGET/debug/yui-mock"
[ -x "$APP" ] || fail "$APP is missing: npm run ui:build && cargo build --workspace --bins --features yui/custom-protocol"
[ -x "$MOCK" ] || fail "$MOCK is missing: cargo build -p yui-mock"

pids=()
tmp=""
cleanup() {
  local rc=$?
  # Each compositor runs in a process group of its own (setsid): the group
  # goes whole, with its dbus-daemon and the Xwayland it started.
  for pid in "${pids[@]}"; do kill -- "-$pid" 2>/dev/null || kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ -n "$tmp" ] && [ -d "$tmp" ]; then
    if [ "$rc" != 0 ]; then
      rm -rf "$ROOT/tests/e2e/artifacts/xwayland-smoke"
      mkdir -p "$ROOT/tests/e2e/artifacts"
      cp -r "$tmp" "$ROOT/tests/e2e/artifacts/xwayland-smoke" 2>/dev/null || true
      say "logs kept in tests/e2e/artifacts/xwayland-smoke"
    fi
    rm -rf "$tmp"
  fi
  exit "$rc"
}
trap cleanup EXIT
tmp=$(mktemp -d /tmp/yui-xwayland-smoke.XXXXXX)
start_mock "$MOCK" "$tmp"

act() { # act ID ARGS-JSON TOOL: push a tool call, print its tool_result's result
  local id=$1 args=$2 tool=$3 result=""
  curl -fsS -X POST -H 'content-type: application/json' "$url/__mock/push" \
    -d "{\"type\":\"tool_call\",\"id\":\"$id\",\"turn_id\":\"x\",\"name\":\"$tool\",\"arguments\":$args}" >/dev/null \
    || fail "the mock did not take the pushed $tool $id (is the app connected?)"
  for _ in $(seq 40); do
    result=$(curl -fsS "$url/__mock/received" | python3 -c 'import json,sys; print(next((f.get("result","") for f in json.load(sys.stdin) if f.get("type")=="tool_result" and f.get("id")==sys.argv[1]), ""))' "$1")
    [ -n "$result" ] && break
    sleep 0.5
  done
  printf '%s' "$result"
}

# start_app NAME WAYLAND_DISPLAY DISPLAY XAUTHORITY: the app on that
# compositor, its data in $tmp/NAME/data; sets $app and $data.
start_app() {
  data="$tmp/$1/data"
  mkdir -p "$data"
  printf '{"chat_base_url": "%s", "key": "k"}\n' "$url" >"$data/settings.json"
  env -u GDK_BACKEND WAYLAND_DISPLAY="$2" DISPLAY="$3" XAUTHORITY="$4" XDG_RUNTIME_DIR="$tmp/$1/run" \
    YUI_DATA_DIR="$data" YUI_AUDIO=none XDG_SESSION_TYPE=wayland "$APP" >"$tmp/$1/app.stdout" 2>"$tmp/$1/app.stderr" &
  app=$!
  pids+=("$app")
}
log_has() { grep -Eqh "$1" "$data"/logs/yui.log* 2>/dev/null; }
log_line() { grep -Eh "$1" "$data"/logs/yui.log* 2>/dev/null | tail -1; }
wait_log() { # wait_log REGEX WHAT
  local deadline=$(( $(date +%s) + WAIT_S ))
  until log_has "$1"; do
    kill -0 "$app" 2>/dev/null || fail "the app exited before $2 ($(tail -3 "$(dirname "$data")/app.stderr" | tr '\n' ' '))"
    [ "$(date +%s)" -lt "$deadline" ] || fail "no $2 within ${WAIT_S} s (no '$1' in the app's log)"
    sleep 0.5
  done
}
# pet_geometry DISPLAY XAUTHORITY: "X Y W H" of the X11 window named YUI that is 360 wide.
pet_geometry() {
  local w
  for w in $(DISPLAY="$1" XAUTHORITY="$2" xdotool search --name '^YUI$' 2>/dev/null); do
    eval "$(DISPLAY="$1" XAUTHORITY="$2" xdotool getwindowgeometry --shell "$w")"
    [ "$WIDTH" = 360 ] && { printf '%s %s %s %s' "$X" "$Y" "$WIDTH" "$HEIGHT"; return 0; }
  done
  return 1
}

# --- GNOME's mutter, headless ---------------------------------------------------
mkdir -p "$tmp/mutter/run" && chmod 700 "$tmp/mutter/run"
say "starting mutter --headless (GNOME's compositor: no layer-shell)"
(cd "$tmp/mutter" && exec setsid env -i PATH="$PATH" HOME="$tmp/mutter" XDG_RUNTIME_DIR="$tmp/mutter/run" \
  dbus-run-session -- mutter --wayland --headless --virtual-monitor 1280x800 --wayland-display=yui-mutter) >"$tmp/mutter/mutter.log" 2>&1 &
pids+=($!)
xdisplay=$(wait_for_line "$tmp/mutter/mutter.log" 's/.*Using public X11 display \(:[0-9]*\).*/\1/p' "$tmp/mutter/run/yui-mutter")
[ -n "$xdisplay" ] || fail "mutter did not start with XWayland ($(tail -3 "$tmp/mutter/mutter.log" | tr '\n' ' '))"
xauth=$(ls "$tmp"/mutter/run/.mutter-Xwaylandauth.* 2>/dev/null | head -1 || true)
start_app mutter yui-mutter "$xdisplay" "$xauth"
wait_log 'record="display_backend"' "the display backend record"
log_has 'display_backend" choice=Xwayland' || fail "under mutter the app did not choose XWayland: $(log_line display_backend)"
wait_log 'ws_ready' "a connection to the mock"
check=$(log_line 'record="desktop_check"')
[[ "$check" == *'path=XWayland (this compositor has no layer-shell) problems=[]'* ]] || fail "the self-test under mutter: $check"
say "mutter: XWayland chosen; the self-test says: ${check#*record=\"desktop_check\" }"
geom=""
for _ in $(seq 40); do geom=$(pet_geometry "$xdisplay" "$xauth" || true); [ -n "$geom" ] && break; sleep 0.25; done
[ -n "$geom" ] || fail "no 360-wide X11 window named YUI on mutter's XWayland ($xdisplay)"
read -r gx gy _ _ <<<"$geom"
# Home: the floor of the display, towards the right (mutter keeps a window
# inside the screen, so her feet may stand a little above its bottom).
[ "$gx" -gt 640 ] && [ "$gy" -gt 150 ] || fail "her X11 window is at ($gx, $gy), not on the floor towards the right"
say "mutter: she is an X11 window of 360x520 at ($gx, $gy)"
result=$(act m1 '{"action":"move_to","spot":"top-left"}' body_action)
[ "$result" = "ok: standing" ] || fail "body_action move_to top-left under mutter answered '${result:-nothing within 20 s}'"
moved=""
for _ in $(seq 40); do
  read -r gx gy _ _ <<<"$(pet_geometry "$xdisplay" "$xauth" || echo '- -')"
  [ "$gx" != - ] && [ "$gx" -lt 60 ] && [ "$gy" -lt 60 ] && { moved=1; break; }
  sleep 0.25
done
[ -n "$moved" ] || fail "after move_to top-left her X11 window is at ($gx, $gy), not near the corner: mutter did not let her place herself"
say "mutter: move_to top-left moved her window to ($gx, $gy)"
kill "$app" 2>/dev/null || true

# --- weston, headless, with XWayland ---------------------------------------------
mkdir -p "$tmp/weston/run" && chmod 700 "$tmp/weston/run"
say "starting weston --backend=headless-backend.so --xwayland (no layer-shell)"
(cd "$tmp/weston" && exec setsid env -i PATH="$PATH" HOME="$tmp/weston" XDG_RUNTIME_DIR="$tmp/weston/run" \
  weston --backend=headless-backend.so --xwayland --socket=yui-weston --width=1280 --height=800) >"$tmp/weston/weston.log" 2>&1 &
pids+=($!)
xdisplay=$(wait_for_line "$tmp/weston/weston.log" 's/.*xserver listening on display \(:[0-9]*\).*/\1/p' "$tmp/weston/run/yui-weston")
[ -n "$xdisplay" ] || fail "weston did not start with XWayland ($(tail -3 "$tmp/weston/weston.log" | tr '\n' ' '))"
start_app weston yui-weston "$xdisplay" ""
wait_log 'record="display_backend"' "the display backend record"
log_has 'display_backend" choice=Xwayland' || fail "under weston the app did not choose XWayland: $(log_line display_backend)"
wait_log 'ws_ready' "a connection to the mock"
check=$(log_line 'record="desktop_check"')
[[ "$check" == *'path=XWayland (this compositor has no layer-shell)'*'always on top: the window manager cannot keep windows above'* ]] \
  || fail "the self-test under weston should name XWayland and the missing keep-above: $check"
say "weston: XWayland chosen; the self-test names what weston cannot do: ${check#*problems=}"
targets=$(act w1 '{"at":"perch_targets"}' look)
[[ "$targets" == \[* ]] || fail "look perch_targets under weston answered '${targets:-nothing}', not a JSON array"
kill -0 "$app" 2>/dev/null || fail "the app died under weston"
! grep -q "panicked" "$tmp/weston/app.stderr" || fail "the app panicked under weston: $(grep -m1 -A1 panicked "$tmp/weston/app.stderr" | tr '\n' ' ')"
say "weston: look perch_targets answered $targets; the session is up and nothing panicked"

say "PASS"
