#!/usr/bin/env bash
# Build what the end-to-end test needs and run it: the UI (embedded into the
# app by the custom-protocol feature), the app, the mock backend, and
# tauri-driver when it is missing. System packages (xvfb, xcompmgr,
# webkit2gtk-driver, imagemagick, pulseaudio, espeak-ng) come from
# scripts/setup.sh, not from here. The app plays its voice into a private
# PulseAudio null sink started here and killed at exit.
# Screenshots and child logs land in tests/e2e/artifacts/.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$HOME/.cargo/bin:$PATH"

step() { printf '\n\033[1m[e2e]\033[0m %s\n' "$*"; }

for bin in Xvfb xcompmgr WebKitWebDriver; do
  command -v "$bin" >/dev/null || { echo "e2e: $bin is missing; run scripts/setup.sh (apt: xvfb xcompmgr webkit2gtk-driver)" >&2; exit 1; }
done
if ! command -v tauri-driver >/dev/null; then
  step "cargo install tauri-driver --locked"
  cargo install tauri-driver --locked
fi
if [ ! -d node_modules ]; then
  step "npm ci"
  npm ci --no-audit --no-fund --loglevel=error
fi

# With YUI_REUSE_TEST_BUILD=1 the UI the test build embedded is used as it
# is: building it again would rewrite ui/dist and so recompile the app.
if [ "${YUI_REUSE_TEST_BUILD:-0}" = 1 ] && [ -f ui/dist/index.html ]; then
  step "UI build: reusing ui/dist (YUI_REUSE_TEST_BUILD=1)"
else
  step "UI build"
  npm run --silent ui:build
fi
# Every binary of the workspace in one build (the app, yui-mock, the Wayland
# test tools): the smoke tests after this reuse it. With
# YUI_REUSE_TEST_BUILD=1 (scripts/test.sh, after `cargo test --workspace`)
# the test targets are part of it: their dev-dependencies' features (tokio's
# test clock) then resolve as in the test build, so the binaries that build
# made are used as they are instead of compiled again with other features.
build=(cargo build --workspace --bins --features yui/custom-protocol)
[ "${YUI_REUSE_TEST_BUILD:-0}" = 1 ] && build+=(--tests)
step "${build[*]}"
"${build[@]}"

step "private sound server (PulseAudio null sink): the app's voice plays into it"
eval "$(scripts/sound-server.sh)"
trap 'pulseaudio --kill 2>/dev/null || true' EXIT

rm -rf tests/e2e/artifacts && mkdir -p tests/e2e/artifacts
# Test files to run may be named (e.g. tests/e2e/voice.test.mjs): one at a time.
if [ $# -gt 0 ]; then
  step "node --test $*"
  exec node --test --test-concurrency=1 "$@"
fi

# All of them by default. A file that spends most of its time waiting on the
# clock (the presence test waits out a minute without input) runs beside the
# others, on a display of its own and with its own artifacts folder; the
# rest run one at a time, each app having the machine to itself otherwise.
beside=(tests/e2e/ingress.test.mjs)
rest=()
for f in tests/e2e/*.test.mjs; do
  [[ " ${beside[*]} " == *" $f "* ]] || rest+=("$f")
done
step "node --test ${beside[*]} (beside the rest; its output follows theirs)"
mkdir -p tests/e2e/artifacts/beside
YUI_E2E_ARTIFACTS=tests/e2e/artifacts/beside node --test --test-concurrency=1 "${beside[@]}" >tests/e2e/artifacts/beside/tap.txt 2>&1 &
beside_pid=$!
trap 'kill "$beside_pid" 2>/dev/null || true; pulseaudio --kill 2>/dev/null || true' EXIT
# YUI_E2E_QUIET_PGID (scripts/test.sh: its background Windows and macOS
# check) is a process group paused while a file that times real sound runs
# (the lip levels of the voice test come about 30 a second): even in the
# idle scheduling class, a compile beside it shares the caches and the
# memory. The other files run with it going on in the idle time they leave.
quiet=(tests/e2e/voice.test.mjs)
quiet_pgid="${YUI_E2E_QUIET_PGID:-}"
signal_quiet() { [ -n "$quiet_pgid" ] && kill "-$1" -- "-$quiet_pgid" 2>/dev/null || true; }
trap 'signal_quiet CONT; kill "$beside_pid" 2>/dev/null || true; pulseaudio --kill 2>/dev/null || true' EXIT
step "node --test (the other ${#rest[@]} files, one at a time)"
rest_rc=0
failed=()
for f in "${rest[@]}"; do
  is_quiet=0
  [[ " ${quiet[*]} " == *" $f "* ]] && is_quiet=1
  [ "$is_quiet" = 1 ] && signal_quiet STOP
  node --test --test-concurrency=1 "$f" || { rest_rc=1; failed+=("$f"); }
  [ "$is_quiet" = 1 ] && signal_quiet CONT
done
[ "$rest_rc" -eq 0 ] || step "failed: ${failed[*]}"
beside_rc=0
wait "$beside_pid" || beside_rc=$?
step "${beside[*]}: exit $beside_rc"
cat tests/e2e/artifacts/beside/tap.txt
[ "$rest_rc" -eq 0 ] && [ "$beside_rc" -eq 0 ]
