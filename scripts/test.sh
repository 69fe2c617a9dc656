#!/usr/bin/env bash
# Run every test of YUI on a fresh Debian 12 machine: installs what is missing,
# then the Rust tests (core, CLI, mock, app, TS bindings check), a type
# check of the app for Windows and macOS (in the background, beside the
# other steps, at the idle priority), the UI unit tests and type check,
# the end-to-end test of the real app under Xvfb, the same build under a
# headless sway (Wayland, layer-shell) and under headless mutter and weston
# (no layer-shell: the XWayland fallback), and the install smoke test (the
# .deb/.rpm of that same build, installed and started).
set -euo pipefail
cd "$(dirname "$0")/.."
# Each step's seconds, printed as a table when the run ends (pass or fail).
# Beside the seconds, how many cores the machine kept busy meanwhile (from
# /proc/stat: everything but idle and iowait, the background check included).
steps=()
step_name=""
step_start=$SECONDS
busy_ticks() { awk '/^cpu /{print $2+$3+$4+$7+$8+$9, $2+$3+$4+$5+$6+$7+$8+$9; exit}' /proc/stat; }
step_cpu=$(busy_ticks)
step_done() {
  local now busy
  now=$(busy_ticks)
  busy=$(awk -v a="$step_cpu" -v b="$now" 'BEGIN{split(a,x," ");split(b,y," ");t=y[2]-x[2];printf "%.1f", (t > 0 ? (y[1]-x[1])/t*'"$(nproc)"' : 0)}')
  [ -n "$step_name" ] && steps+=("$(printf '%6d s  %4s cores  %s' $((SECONDS - step_start)) "$busy" "$step_name")")
  step_name=""
}
step() {
  step_done
  printf '\n\033[1m== %s\033[0m\n' "$*"
  step_name="$*"
  step_start=$SECONDS
  step_cpu=$(busy_ticks)
}
# A background job still running when the run ends (the Windows and macOS
# check, when a step before its wait failed) ends with it.
cross_pid=""
report() {
  local rc=$?
  # (SIGCONT after SIGTERM: a paused job only takes the signal once it runs.)
  [ -n "$cross_pid" ] && kill -0 "$cross_pid" 2>/dev/null && kill -- "-$cross_pid" 2>/dev/null && kill -CONT -- "-$cross_pid" 2>/dev/null
  step_done
  printf '\n\033[1m== Seconds per step (%s)\033[0m\n' "$([ "$rc" = 0 ] && echo passed || echo "failed: exit $rc")"
  printf '%s\n' "${steps[@]}"
  printf '%6d s  total\n' "$SECONDS"
}
trap report EXIT

step "Setup (apt packages, npm ci, cargo tools)"
./scripts/setup.sh
export PATH="$HOME/.cargo/bin:$PATH"
# One build, used once: incremental state would only cost disk and time here.
export CARGO_INCREMENTAL=0

step "UI build (the app embeds ui/dist)"
npm run --silent ui:build

step "Windows and macOS type-check: its tools (the check itself starts in the background)"
./scripts/cross-check.sh --prepare
# The check links nothing and needs nothing the steps below build, so it runs
# beside them in the idle scheduling class: it only gets a core the other
# steps leave idle (the gaps of their builds, the waits of the tests; it
# pauses while an end-to-end test times real sound), and it has a target folder of its
# own, so it never waits on the main build's lock nor holds it. Waited for
# after the last step.
cross_dir="${CARGO_TARGET_DIR:-$(pwd)/target}/cross"
mkdir -p "$cross_dir"
idle=(nice -n 19)
chrt --idle 0 true 2>/dev/null && idle=(chrt --idle 0)
cross_start=$(date +%s)
# Its own process group (job control on for the one command), so the end
# of the run can end all of it; not its own session: with the kernel's
# autogroups a new session would be a scheduling group of its own, which
# gets an equal share of the cores whatever its priority.
set -m
"${idle[@]}" env CARGO_TARGET_DIR="$cross_dir" ./scripts/cross-check.sh --check >"$cross_dir/check.log" 2>&1 &
cross_pid=$!
set +m

step "Format, lints and docs (rustfmt, clippy and rustdoc with warnings as errors)"
cargo fmt --all --check
cargo clippy --workspace --all-targets --features yui/custom-protocol -- -D warnings
# The docs: every intra-doc link resolves, no stray HTML (the same features
# as clippy, so its dependency checks are reused).
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --features yui/custom-protocol

step "Rust tests (workspace, including the stale-bindings check)"
# That the pure engine, the protocol types and the turn engine need Rust
# alone (no C compiler, no pkg-config, no system library) is one of these
# tests (`rust_alone`, from their dependency closure); building them apart
# with the tools hidden compiles 44 dependencies a second time for their
# own features, so it is left to a machine with only Rust:
# CC=/bin/false CXX=/bin/false PKG_CONFIG=/bin/false cargo test -p yui-engine -p yui-protocol -p yui-turn
cargo test --workspace --features yui/custom-protocol

step "The key in a real Secret Service (gnome-keyring on a private session bus)"
dbus-run-session -- sh -c 'printf yui | gnome-keyring-daemon --unlock --components=secrets >/dev/null && cargo test --workspace --features yui/custom-protocol --test keychain -- --ignored'

step "Screen capture against a real X server (Xvfb, no window manager)"
n=77
while [ -e "/tmp/.X11-unix/X$n" ] || [ -e "/tmp/.X$n-lock" ]; do n=$((n + 1)); done
Xvfb ":$n" -screen 0 1280x800x24 -noreset -nolisten tcp >/dev/null 2>&1 &
xvfb_pid=$!
trap 'kill "$xvfb_pid" 2>/dev/null || true; report' EXIT
for _ in $(seq 50); do [ -e "/tmp/.X11-unix/X$n" ] && break; sleep 0.1; done
env -u WAYLAND_DISPLAY XDG_SESSION_TYPE=x11 DISPLAY=":$n" \
  cargo test --workspace --features yui/custom-protocol --test capture -- --ignored
kill "$xvfb_pid" 2>/dev/null || true
wait "$xvfb_pid" 2>/dev/null || true
trap report EXIT

step "Sound through a real sound server (PulseAudio null sink)"
# A subshell: the sound server's XDG_RUNTIME_DIR and PULSE_SERVER stay here.
(
  eval "$(scripts/sound-server.sh)"
  trap 'pulseaudio --kill 2>/dev/null || true' EXIT
  # One at a time: the speaker and the virtual microphone are one sound server.
  cargo test --workspace --features yui/custom-protocol --test it -- --ignored --test-threads=1 audio:: listen:: voice_turn:: cli_voice::
)

step "Wayland idle time against a real headless sway (its idle protocol, a virtual pointer as the hand)"
cargo test --workspace --features yui/custom-protocol --test wayland_idle -- --ignored

step "UI unit tests"
npm run --silent test:ui

# The e2e, Wayland and install builds are the test build's binaries (see
# tests/e2e/run.sh): no second compile for the features of a build without tests.
export YUI_REUSE_TEST_BUILD=1

step "End-to-end: the real app under Xvfb, driven by tauri-driver"
# The background check goes on in the idle time the app leaves, but pauses
# while a test times real sound (see tests/e2e/run.sh).
YUI_E2E_QUIET_PGID="$cross_pid" ./tests/e2e/run.sh

step "Wayland smoke: the e2e build as a native Wayland client under a headless sway (layer-shell)"
CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$(pwd)/target}" ./scripts/wayland-smoke.sh

step "XWayland fallback: the same build under GNOME's mutter and weston, headless (no layer-shell)"
CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$(pwd)/target}" ./scripts/xwayland-smoke.sh

step "Install smoke: the .deb and .rpm of the build tested above, the .deb installed and started fresh"
YUI_SMOKE_PROFILE=debug ./scripts/install-smoke.sh

step "Windows and macOS: the whole app type-checks for both (cargo check, nothing linked; waiting for the background check)"
cross_rc=0
wait "$cross_pid" || cross_rc=$?
# Its log's last write is when it ended.
cross_secs=$(($(stat -c %Y "$cross_dir/check.log") - cross_start))
cross_pid=""
cat "$cross_dir/check.log"
printf '[cross-check] ran %d s beside the other steps, exit %d\n' "$cross_secs" "$cross_rc"
steps+=("$(printf '%6s           (the check itself: %d s beside the steps above)' '' "$cross_secs")")
[ "$cross_rc" -eq 0 ]
