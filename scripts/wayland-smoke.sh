#!/usr/bin/env bash
# Wayland smoke test: the app as a native Wayland client under a headless
# sway (wlroots, pixman renderer, no input devices), against yui-mock's demo
# agent. Checks that
#   - the app connects (record ws_ready in its daily log),
#   - the pet drew (a `grim` screenshot differs from sway's solid background)
#     and is see-through (most of her 360×520 window still shows that
#     background),
#   - she took the layer-shell path (record layer_shell in the log),
#   - a body_action move_to top-left answers `ok: standing` and grim shows
#     her near the output's top-left corner,
#   - with two plain Wayland windows (yui-wl-window) floating beside her:
#     sit_on_window puts her seat on a window's top edge; moving the window
#     ends the sit and she falls to the floor; peek and stand_down answer;
#     a virtual-pointer click (yui-wl-pointer) on an empty pixel of her
#     window reaches the window behind, a click on her body does not (the
#     input region is the shape she draws);
#   - a fullscreen window frontmost covers her (she leaves the overlay
#     layer for the top one) until it leaves;
#   - a hold with the virtual pointer lifts her and she falls back when let
#     go (the dropped cue); a drag onto the scale-2 output puts her there at
#     twice her size, with her hit mask right;
#   - move_to with monitor 1 puts her on a second output at scale 2, where
#     she is twice her size in physical pixels;
#   - a second launch hands over to the running app and brings her back:
#     her whole window takes the mouse for the bring-back hold (Wayland
#     gives a client no global shortcut; this is the recovery there).
# Builds nothing: it runs $CARGO_TARGET_DIR/debug/yui (built with
# `--features custom-protocol` after `npm run ui:build`),
# $CARGO_TARGET_DIR/debug/yui-mock and the two tools of yui-wl-pointer. sway refuses to run as root, so as root
# it runs sway as uid 65534 (setpriv) with its own XDG_RUNTIME_DIR; the app
# runs as the calling user and reaches sway's socket. Everything it starts is
# stopped at exit; logs and screenshots of a failed run are kept in
# tests/e2e/artifacts/wayland-smoke. Exits non-zero with a message on any
# failure. scripts/test.sh runs it after the e2e test.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$(pwd)"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
WAIT_S="${YUI_SMOKE_WAIT_S:-60}"
BG='#2040a0'

say() { printf '\033[1m[wayland-smoke]\033[0m %s\n' "$*"; }
fail() { printf '\033[1;31m[wayland-smoke] FAIL:\033[0m %s\n' "$*" >&2; exit 1; }
. scripts/lib.sh

for bin in sway swaymsg grim convert compare identify curl setpriv; do
  command -v "$bin" >/dev/null || fail "$bin is missing; run scripts/setup.sh (apt: sway grim imagemagick)"
done
APP="$TARGET/debug/yui"
MOCK="$TARGET/debug/yui-mock"
POINTER="$TARGET/debug/yui-wl-pointer"
WINDOW="$TARGET/debug/yui-wl-window"
[ -x "$APP" ] || fail "$APP is missing: npm run ui:build && cargo build --workspace --bins --features yui/custom-protocol"
[ -x "$MOCK" ] || fail "$MOCK is missing: cargo build -p yui-mock"
[ -x "$POINTER" ] && [ -x "$WINDOW" ] || fail "$POINTER or $WINDOW is missing: cargo build --workspace --bins --features yui/custom-protocol"

pids=()
tmp=""
cleanup() {
  local rc=$?
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ -n "$tmp" ]; then
    # The screenshots are kept either way (to look at); the logs too on a failure.
    if [ -d "$tmp" ]; then
      rm -rf "$ROOT/tests/e2e/artifacts/wayland-smoke"
      mkdir -p "$ROOT/tests/e2e/artifacts"
      cp -r "$tmp/out" "$ROOT/tests/e2e/artifacts/wayland-smoke" 2>/dev/null || true
      [ "$rc" = 0 ] || cp -r "$tmp/xdg/dev.yui.pet/logs" "$ROOT/tests/e2e/artifacts/wayland-smoke/logs" 2>/dev/null || true
      say "screenshots kept in tests/e2e/artifacts/wayland-smoke"
    fi
    rm -rf "$tmp"
  fi
  exit "$rc"
}
trap cleanup EXIT

tmp=$(mktemp -d /tmp/yui-wayland-smoke.XXXXXX)
chmod 755 "$tmp"
# A fresh user: the app finds its data directory through XDG_DATA_HOME (no
# YUI_DATA_DIR: that would make it its own installation and skip the
# single-instance check that a second launch tests).
DATA="$tmp/xdg/yui"
mkdir -p "$tmp/out" "$DATA" "$tmp/home" "$tmp/run" "$tmp/xdg-config" "$tmp/xdg-cache" "$tmp/xdg-state"
chmod 700 "$tmp/run"
cat >"$tmp/sway.conf" <<EOF
xwayland disable
default_border none
for_window [app_id="^(notes|other)$"] floating enable
output HEADLESS-1 resolution 1280x800 position 0 0 background $BG solid_color
output HEADLESS-2 resolution 2560x1600 position 1280 0 scale 2 background $BG solid_color
EOF
chmod 644 "$tmp/sway.conf"

# --- sway, headless -----------------------------------------------------------
as_sway=()
if [ "$(id -u)" -eq 0 ]; then
  chown 65534:65534 "$tmp/run"
  as_sway=(setpriv --reuid=65534 --regid=65534 --clear-groups)
fi
say "starting sway headless (runtime dir $tmp/run)"
(cd "$tmp" && exec env -i PATH="$PATH" HOME="$tmp" XDG_RUNTIME_DIR="$tmp/run" \
  WLR_BACKENDS=headless WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1 \
  "${as_sway[@]}" sway -c "$tmp/sway.conf") >"$tmp/out/sway.log" 2>&1 &
pids+=($!)
socket="" ipc=""
for _ in $(seq 100); do
  socket=$(cd "$tmp/run" && ls wayland-* 2>/dev/null | grep -v '\.lock$' | head -1 || true)
  ipc=$(ls "$tmp"/run/sway-ipc.*.sock 2>/dev/null | head -1 || true)
  [ -n "$socket" ] && [ -n "$ipc" ] && break
  sleep 0.1
done
[ -n "$socket" ] && [ -n "$ipc" ] || fail "sway did not start ($(tail -3 "$tmp/out/sway.log" | tr '\n' ' '))"
export XDG_RUNTIME_DIR="$tmp/run" WAYLAND_DISPLAY="$socket" SWAYSOCK="$ipc"
swaymsg -t get_outputs >/dev/null || fail "swaymsg cannot reach sway at $ipc"
# A second output, right of the first, at scale 2 (HEADLESS-2 in the config).
swaymsg create_output >/dev/null || fail "swaymsg create_output failed"
swaymsg -t get_outputs | grep -q '"scale": 2' || fail "the second output did not get scale 2 ($(swaymsg -t get_outputs | grep -E '"(name|scale)"' | tr -d ' \n'))"

shot() { # shot NAME [OUTPUT]: a screenshot of one output (HEADLESS-1) to $tmp/out/NAME.png
  grim -o "${2:-HEADLESS-1}" "$tmp/out/$1.png" || fail "grim could not take a screenshot"
}
convert -size 1280x800 "xc:$BG" "$tmp/out/bg.png"
# How many pixels of a screenshot are not sway's background.
not_bg() { compare -metric AE -fuzz 3% "$1" "$tmp/out/bg.png" null: 2>&1 || true; }
# The box around everything that is not the background (WxH+X+Y).
box() { convert "$1" -bordercolor "$BG" -border 1 -fuzz 3% -trim -format '%wx%h%O' info: 2>/dev/null; }
# The same inside the part GEOMETRY (WxH+X+Y) of the screenshot.
box_in() { convert "$1" -crop "$2" +repage -bordercolor "$BG" -border 1 -fuzz 3% -trim -format '%wx%h%O' info: 2>/dev/null; }
# swaybg paints the background a moment after sway starts.
for _ in $(seq 50); do
  shot background
  [ "$(not_bg "$tmp/out/background.png")" = 0 ] && break
  sleep 0.2
done
[ "$(not_bg "$tmp/out/background.png")" = 0 ] || fail "sway's output is not the solid background $BG 10 s after it started"

# --- the mock agent and the app ----------------------------------------------
start_mock "$MOCK" "$tmp/out"
printf '{"chat_base_url": "%s", "key": "k"}\n' "$url" >"$DATA/settings.json"
# A private session bus: the single-instance check runs over D-Bus.
bus=$(env -u XDG_RUNTIME_DIR dbus-daemon --session --fork --nopidfile --print-address=1 --print-pid=1) || fail "dbus-daemon did not start"
pids+=("$(printf '%s\n' "$bus" | sed -n 2p)")
app_env=(env -u DISPLAY -u YUI_DATA_DIR HOME="$tmp/home" XDG_DATA_HOME="$tmp/xdg" XDG_CONFIG_HOME="$tmp/xdg-config"
  XDG_CACHE_HOME="$tmp/xdg-cache" XDG_STATE_HOME="$tmp/xdg-state" DBUS_SESSION_BUS_ADDRESS="$(printf '%s\n' "$bus" | sed -n 1p)"
  GDK_BACKEND=wayland YUI_AUDIO=none XDG_SESSION_TYPE=wayland)

say "starting $APP as a native Wayland client (mock at $url)"
"${app_env[@]}" "$APP" >"$tmp/out/app.stdout" 2>"$tmp/out/app.stderr" &
app=$!
pids+=("$app")

log_has() { # log_has REGEX: the app's daily log has a matching line
  local f
  for f in $(find "$tmp/xdg" -name 'yui.log*' -type f 2>/dev/null); do
    grep -Eq "$1" "$f" && return 0
  done
  return 1
}
deadline=$(( $(date +%s) + WAIT_S ))
until log_has 'ws_ready'; do
  kill -0 "$app" 2>/dev/null || fail "the app exited early ($(tail -5 "$tmp/out/app.stderr" | tr '\n' ' '))"
  [ "$(date +%s)" -lt "$deadline" ] || fail "the app never connected to the mock (record ws_ready) within ${WAIT_S} s"
  sleep 0.5
done
say "the app connected to the mock"

# --- she drew, see-through ----------------------------------------------------
drawn=0
while :; do
  shot pet
  drawn=$(not_bg "$tmp/out/pet.png")
  [ "$drawn" -gt 3000 ] && break
  [ "$(date +%s)" -lt "$deadline" ] || break
  sleep 1
done
window=$((360 * 520))
[ "$drawn" -gt 3000 ] || fail "only $drawn pixels differ from the background: the pet did not draw"
[ "$drawn" -lt $((window * 60 / 100)) ] || fail "$drawn pixels differ from the background, more than 60% of her window: it is not see-through"
say "the pet drew: $drawn pixels over the background, inside $(box "$tmp/out/pet.png"); the rest of her window shows through"

# --- the layer-shell path -------------------------------------------------------
log_has 'layer_shell.*active=true' || fail "the app did not take the layer-shell path under sway (no 'layer_shell active=true' in its log)"
say "the pet is a layer-shell surface (record layer_shell active=true)"

received() { curl -fsS "$url/__mock/received" 2>/dev/null || echo '[]'; }
act() { # act ID ARGS-JSON [TOOL]: push a body_action (or TOOL) call, print its tool_result's result
  local id=$1 args=$2 tool=${3:-body_action} result=""
  curl -fsS -X POST -H 'content-type: application/json' "$url/__mock/push" \
    -d "{\"type\":\"tool_call\",\"id\":\"$id\",\"turn_id\":\"x\",\"name\":\"$tool\",\"arguments\":$args}" >/dev/null \
    || fail "the mock did not take the pushed $tool $id"
  for _ in $(seq 60); do
    result=$(received | python3 -c 'import json,sys; print(next((f.get("result","") for f in json.load(sys.stdin) if f.get("type")=="tool_result" and f.get("id")==sys.argv[1]), ""))' "$id")
    [ -n "$result" ] && break
    sleep 0.5
  done
  printf '%s' "$result"
}
result=$(act w1 '{"action":"move_to","spot":"top-left"}')
[ "$result" = "ok: standing" ] || fail "body_action move_to top-left answered '${result:-nothing within 30 s}', not 'ok: standing'"
say "body_action move_to top-left: $result"
near=0
for _ in $(seq 20); do
  shot top-left
  geom=$(box "$tmp/out/top-left.png" || true)   # WxH+X+Y
  bx=${geom#*+}; by=${bx#*+}; bx=${bx%%+*}
  if [ "${bx:-9999}" -lt 300 ] 2>/dev/null && [ "${by:-9999}" -lt 300 ] 2>/dev/null; then near=1; break; fi
  sleep 0.5
done
[ "$near" = 1 ] || fail "after move_to top-left she is drawn at $(box "$tmp/out/top-left.png"), not near the top-left corner"
say "grim shows her at $(box "$tmp/out/top-left.png"): near the top-left corner"
# Her size on the scale-1 output, the yardstick of the scale-2 checks: the
# largest of a few frames, so a motion that bends her (the demo greets with
# one) does not shrink it.
size1=$(box "$tmp/out/top-left.png"); size1=${size1%%+*}
for i in 1 2 3 4 5 6; do
  sleep 0.4
  shot "top-left-$i"
  s=$(box "$tmp/out/top-left-$i.png" || true); s=${s%%+*}
  [ -n "$s" ] && [ $(( ${s%x*} * ${s#*x} )) -gt $(( ${size1%x*} * ${size1#*x} )) ] && size1=$s
done

# --- other windows: sit on one, fall when it moves, peek, click through -------
# Two plain Wayland windows (yui-wl-window), floating where swaymsg puts them.
"$WINDOW" Notes 500 300 d0d0c8 notes >"$tmp/out/notes.log" 2>&1 &
pids+=($!)
"$WINDOW" Other 300 200 a0d0a0 other >"$tmp/out/other.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do
  [ "$(swaymsg -t get_tree | grep -c '"app_id": "\(notes\|other\)"')" = 2 ] && break
  sleep 0.1
done
swaymsg '[app_id="notes"] move absolute position 600 450' >/dev/null || fail "swaymsg could not place Notes"
swaymsg '[app_id="other"] move absolute position 900 100' >/dev/null || fail "swaymsg could not place Other"
swaymsg '[app_id="notes"] focus' >/dev/null
sleep 0.5
shot windows
focused() { # the app_id of the window with the focus; "type:NAME" for a focused workspace or output
  swaymsg -t get_tree | python3 -c '
import json, sys
def walk(n):
    if n.get("focused"):
        return n.get("app_id") or "%s:%s" % (n.get("type"), n.get("name"))
    for k in ("nodes", "floating_nodes"):
        for c in n.get(k) or []:
            r = walk(c)
            if r is not None:
                return r
    return None
print(walk(json.load(sys.stdin)) or "none")'
}
# The last body_posture record: "POSTURE X Y".
posture_seen() {
  local f line
  line=$(for f in $(find "$tmp/xdg" -name 'yui.log*' -type f); do grep -h 'body_posture' "$f"; done | tail -1)
  printf '%s %s %s' "$(sed -n 's/.*posture="\{0,1\}\([a-z]*\).*/\1/p' <<<"$line")" \
    "$(sed -n 's/.* x=\(-\{0,1\}[0-9]*\).*/\1/p' <<<"$line")" "$(sed -n 's/.* y=\(-\{0,1\}[0-9]*\).*/\1/p' <<<"$line")"
}
wait_posture() { # wait_posture POSTURE: until the last body_posture record says it
  local seen=""
  for _ in $(seq 40); do
    seen=$(posture_seen)
    [ "${seen%% *}" = "$1" ] && { printf '%s' "$seen"; return 0; }
    sleep 0.25
  done
  fail "she never came to '$1' (last body_posture: '${seen:-none}')"
}

say "perch targets: $(act l1 '{"at":"perch_targets"}' look)"
# on_floor WHAT: wait until she stands on the first output's floor (her feet
# at 800); prints where her feet are, fails saying WHAT otherwise.
on_floor() {
  local posture="" fy feet=""
  for _ in $(seq 40); do
    read -r posture _ fy <<<"$(posture_seen)"
    feet=$(( ${fy:-0} + 520 - 35 ))
    [ "$posture" = standing ] && [ "$feet" -ge 790 ] && [ "$feet" -le 810 ] && { printf '%s' "$feet"; return 0; }
    sleep 0.25
  done
  fail "$1: she is $posture with her feet at $feet, not standing on the floor (800)"
}
# click_test X Y WHERE: her window's corner at layout (X, Y): with Other under
# its empty top-left corner and Notes focused, a click there focuses Other;
# with Notes under her body and Other focused, a click on her body does not
# reach Notes.
click_test() {
  local x=$1 y=$2
  swaymsg "[app_id=\"other\"] move absolute position $(( x - 40 )) $(( y + 40 ))" >/dev/null
  swaymsg '[app_id="notes"] focus' >/dev/null
  sleep 1.5
  [ "$(focused)" = notes ] || fail "$3: Notes did not take the focus before the click (focused: $(focused)); does she hold the keyboard?"
  "$POINTER" --extent 2560x800 move $(( x + 8 )) $(( y + 60 )) wait 200 down up || fail "the virtual pointer failed"
  sleep 0.5
  [ "$(focused)" = other ] || fail "$3: a click on an empty pixel of her window did not reach Other behind it (focused: $(focused))"
  swaymsg "[app_id=\"notes\"] move absolute position $(( x + 30 )) $(( y + 150 ))" >/dev/null
  swaymsg '[app_id="other"] focus' >/dev/null
  sleep 1.5
  "$POINTER" --extent 2560x800 move $(( x + 180 )) $(( y + 300 )) wait 200 down up || fail "the virtual pointer failed"
  sleep 0.5
  [ "$(focused)" != notes ] || fail "$3: a click on her body went through to Notes behind her"
}

result=$(act s1 '{"action":"sit_on_window","app":"notes"}')
[ "$result" = "ok: sitting on notes" ] || fail "body_action sit_on_window notes answered '${result:-nothing within 30 s}'"
read -r _ sx sy <<<"$(wait_posture sitting)"
shot sitting
# Her hips on the window's top edge (y 450): the window's bottom edge minus
# the seat (105 px, configs/avatar.json) is the edge.
seat_edge=$(( sy + 520 - 105 ))
[ "$seat_edge" -ge 430 ] && [ "$seat_edge" -le 470 ] || fail "sitting at y=$sy: her seat is at $seat_edge, not on Notes' top edge at 450"
[ $(( sx + 180 )) -ge 600 ] && [ $(( sx + 180 )) -le 1100 ] || fail "sitting at x=$sx: her middle is not over Notes (600..1100)"
say "body_action sit_on_window: $result, her seat at y=$seat_edge on Notes' top edge (450)"

swaymsg '[app_id="notes"] move absolute position 0 500' >/dev/null
# The sit ends (standing, in mid-air), then she falls and lands (standing again).
feet=$(on_floor "after Notes moved")
shot fell
say "Notes moved under her: the sit ended and she fell to the floor (feet at $feet)"

result=$(act p1 '{"action":"peek","side":"left"}')
[[ "$result" == "ok: peeking"* ]] || fail "body_action peek answered '${result:-nothing within 30 s}'"
wait_posture peeking >/dev/null
shot peeking
result=$(act d1 '{"action":"stand_down"}')
[ "$result" = "ok: standing" ] || fail "body_action stand_down answered '${result:-nothing}'"
read -r _ px py <<<"$(wait_posture standing)"
say "peek and stand_down answered; she stands at ($px, $py)"

# Click-through by shape: Other under her window's empty top-left corner
# takes a click there; Notes under her body does not get one there.
click_test "$px" "$py" "on the scale-1 output"
shot clicked
say "a click on an empty pixel of her window reached the window behind; a click on her body stayed with her (focus: '$(focused)')"
# Above the window: her body is drawn over Notes, which lies under it.
over=$(convert "$tmp/out/clicked.png" -format "%[hex:u.p{$(( px + 180 )),$(( py + 300 ))}]" info: 2>/dev/null | cut -c1-6 | tr 'A-F' 'a-f')
[ -n "$over" ] && [ "$over" != d0d0c8 ] || fail "at her body over Notes the screen shows '${over:-nothing}', Notes' own colour: she is not above it"
say "she is drawn above the window under her (#$over at her body, Notes is #d0d0c8)"

# --- a fullscreen app covers her: she leaves the overlay layer meanwhile -------
pixel_at() { convert "$1" -format "%[hex:u.p{$2,$3}]" info: 2>/dev/null | cut -c1-6 | tr 'A-F' 'a-f'; }
swaymsg '[app_id="notes"] fullscreen enable' >/dev/null
swaymsg '[app_id="notes"] focus' >/dev/null
for _ in $(seq 40); do log_has 'record="pet_above" above=false' && break; sleep 0.25; done
log_has 'record="pet_above" above=false' || fail "with a fullscreen window frontmost she did not step back (no record pet_above above=false)"
sleep 0.5
shot fullscreen
covered=$(pixel_at "$tmp/out/fullscreen.png" $(( px + 180 )) $(( py + 300 )))
[ "$covered" = 000000 ] || [ "$covered" = d0d0c8 ] || fail "with Notes fullscreen the screen at her body shows #$covered, not the fullscreen window: she stayed above it"
swaymsg '[app_id="notes"] fullscreen disable' >/dev/null
for _ in $(seq 40); do log_has 'record="pet_above" above=true' && break; sleep 0.25; done
log_has 'record="pet_above" above=true' || fail "the fullscreen window left and she did not come back above (no record pet_above above=true)"
sleep 0.5
shot unfullscreen
back=$(pixel_at "$tmp/out/unfullscreen.png" $(( px + 180 )) $(( py + 300 )))
[ -n "$back" ] && [ "$back" != 000000 ] && [ "$back" != d0d0c8 ] || fail "after the fullscreen window left the screen at her body still shows #$back (her body was #$over)"
say "a fullscreen window frontmost covers her (#$covered at her body); when it leaves she is above again (#$back)"

# --- brought back by a second launch ------------------------------------------
# A Wayland client gets no global shortcut (Ctrl+Shift+Y is X11's): running
# `yui` again (a compositor key binding, the app menu) hands over to the
# running one, which does what the shortcut does: shown, back on a display,
# and her whole window takes the mouse for a few seconds.
swaymsg '[app_id="notes"] focus' >/dev/null
sleep 0.5
timeout 30 "${app_env[@]}" "$APP" >"$tmp/out/second.stdout" 2>"$tmp/out/second.stderr" \
  || fail "the second launch did not exit within 30 s ($(tail -3 "$tmp/out/second.stderr" | tr '\n' ' '))"
for _ in $(seq 20); do log_has 'pet_brought_back' && break; sleep 0.25; done
log_has 'second_launch' || fail "the running app never logged second_launch: the second launch did not hand over"
log_has 'pet_brought_back' || fail "the second launch did not bring her back (no record pet_brought_back)"
kill -0 "$app" 2>/dev/null || fail "the running app died on the second launch"
sleep 0.5
"$POINTER" --extent 2560x800 move $(( px + 8 )) $(( py + 60 )) wait 200 down up || fail "the virtual pointer failed"
sleep 0.3
shot brought-back
[ "$(focused)" != other ] || fail "brought back, a click on an empty pixel of her window still went through to Other: she does not take the mouse"
[ "$(not_bg "$tmp/out/brought-back.png")" -gt 3000 ] || fail "brought back, she is not drawn"
# The hold ends (5 s): the empty pixel passes clicks on again.
sleep 5.5
"$POINTER" --extent 2560x800 move $(( px + 8 )) $(( py + 60 )) wait 200 down up || fail "the virtual pointer failed"
sleep 0.5
[ "$(focused)" = other ] || fail "after the bring-back hold an empty pixel of her window still keeps clicks (focused: $(focused))"
say "a second launch handed over and brought her back: her whole window took a click on an empty pixel, and 5 s later it passed clicks through again"

# --- held and dropped with the (virtual) pointer: no global pointer here -------
turns_with() { received | python3 -c 'import json,sys; print(sum(1 for f in json.load(sys.stdin) if f.get("type")=="turn" and sys.argv[1] in (f.get("client_context") or "")))' "$1"; }
dropped_before=$(turns_with 'proactive cue "dropped"')
hx=$(( px + 180 )) hy=$(( py + 300 ))
# One hand (one virtual pointer) presses, lifts, holds 3 s and lets go; the
# checks of the hold run meanwhile.
"$POINTER" --extent 2560x800 move "$hx" "$hy" wait 300 down --steps 12 move "$hx" $(( hy - 240 )) wait 3000 up &
hand=$!
sleep 2
read -r held _ _ <<<"$(posture_seen)"
[ "$held" = dragging ] || fail "pressed and moved 240 px up, she is '$held', not held (dragging)"
shot held
# Lifted: her body now shows above y=$py, where only the background was.
convert "$tmp/out/held.png" -crop "600x$(( py - 10 ))+0+0" +repage "$tmp/out/held-top.png"
convert -size "600x$(( py - 10 ))" "xc:$BG" "$tmp/out/held-bg.png"
above=$(compare -metric AE -fuzz 3% "$tmp/out/held-top.png" "$tmp/out/held-bg.png" null: 2>&1 || true)
[ "${above:-0}" -gt 5000 ] || fail "held and moved 240 px up, only ${above:-0} pixels of her show above y=$py: she was not lifted"
wait "$hand" || fail "the virtual pointer failed"
on_floor "let go in mid-air" >/dev/null
# The cue fires; its turn is paced (the click on her body just now was a
# touch too, inside pacing.touch_gap_s), so either it or its skip is logged.
for _ in $(seq 40); do log_has 'record="body_cue" cue=dropped' && break; sleep 0.25; done
log_has 'record="body_cue" cue=dropped' || fail "the drop fired no 'dropped' cue (no record body_cue cue=dropped)"
[ "$(turns_with 'proactive cue "dropped"')" -gt "$dropped_before" ] || log_has 'trigger_skipped.*event_name=proactive.dropped' \
  || fail "the dropped cue neither made a turn nor logged why not"
say "held with the pointer and lifted ($above pixels of her above y=$py), let go: she fell back to the floor and the drop fired its cue"

# --- dragged onto the scale-2 output: twice her size there, clicks still by her shape
read -r _ px py <<<"$(posture_seen)"
hx=$(( px + 180 )) hy=$(( py + 300 ))
"$POINTER" --extent 2560x800 move "$hx" "$hy" wait 300 down --steps 40 move 1900 300 wait 300 up || fail "the virtual pointer failed"
# On the scale-2 output her window is 720x1040 desk pixels and her feet
# 70 above its bottom: on that output's floor (1600) her corner is at y=630.
for _ in $(seq 40); do
  read -r posture qx qy <<<"$(posture_seen)"
  [ "$posture" = standing ] && [ "${qx:-0}" -ge 2560 ] && [ "${qy:-0}" -ge 620 ] && [ "${qy:-0}" -le 640 ] && break
  sleep 0.25
done
[ "$posture" = standing ] && [ "${qx:-0}" -ge 2560 ] && [ "${qy:-0}" -ge 620 ] && [ "${qy:-0}" -le 640 ] \
  || fail "dragged to layout x=1900 (the scale-2 output) she is $posture at desk ($qx, $qy), not standing on its floor (y=630)"
dragged2=""
# sway 1.7 leaves trails of a layer surface that moved on a scaled headless
# output (its damage misses the old places): measure inside her window only.
for _ in $(seq 20); do
  shot dragged2 HEADLESS-2
  geom=$(box_in "$tmp/out/dragged2.png" "720x1040+$(( qx - 2560 ))+$qy" || true); dragged2=${geom%%+*}
  w2=${dragged2%x*} h2=${dragged2#*x} w1=${size1%x*} h1=${size1#*x}
  [ "$(( h2 * 10 / h1 ))" -ge 18 ] 2>/dev/null && [ "$(( h2 * 10 / h1 ))" -le 22 ] && break
  sleep 0.5
done
[ "$(( h2 * 10 / h1 ))" -ge 18 ] && [ "$(( h2 * 10 / h1 ))" -le 22 ] || fail "dragged onto the scale-2 output she is drawn $dragged2 ($geom) against $size1 on the scale-1 output: not twice her size"
say "dragged onto the scale-2 output: she stands at desk ($qx, $qy), drawn $dragged2 physical pixels, twice her $size1"
# Her hit mask there: Other under her empty corner takes a click; her body does not pass it on.
lx=$(( 1280 + (qx - 2560) / 2 )) ly=$(( qy / 2 ))
click_test "$lx" "$ly" "on the scale-2 output"
shot clicked2 HEADLESS-2
say "on the scale-2 output her hit mask is right: an empty pixel passes the click to Other, her body keeps it"
# The test windows back onto the first output, out of the next screenshots.
swaymsg '[app_id="notes"] move absolute position 700 500' >/dev/null
swaymsg '[app_id="other"] move absolute position 900 100' >/dev/null

# --- onto the scale-2 output: twice her size in physical pixels ---------------
result=$(act w2 '{"action":"move_to","spot":"top-left","monitor":1}')
[ "$result" = "ok: standing" ] || fail "body_action move_to top-left on monitor 1 answered '${result:-nothing within 30 s}', not 'ok: standing'"
say "body_action move_to top-left, monitor 1: $result"
twice=0 size2=""
for _ in $(seq 20); do
  read -r _ mx my <<<"$(posture_seen)"
  shot scale2 HEADLESS-2
  geom=$(box_in "$tmp/out/scale2.png" "720x1040+$(( ${mx:-2560} - 2560 ))+${my:-0}" || true); size2=${geom%%+*}
  w1=${size1%x*} h1=${size1#*x} w2=${size2%x*} h2=${size2#*x}
  if [ "$(( w2 * 10 / w1 ))" -ge 18 ] 2>/dev/null && [ "$(( w2 * 10 / w1 ))" -le 22 ] && [ "$(( h2 * 10 / h1 ))" -ge 18 ] && [ "$(( h2 * 10 / h1 ))" -le 22 ]; then twice=1; break; fi
  sleep 0.5
done
[ "$twice" = 1 ] || fail "on the scale-2 output she is drawn ${size2:-nowhere} ($geom) against $size1 on the scale-1 output: not twice her size"
say "on the scale-2 output she is $size2 physical pixels at ${geom#"$size2"}, twice her $size1 on the scale-1 output"

say "PASS"
