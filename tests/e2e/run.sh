#!/usr/bin/env bash
# Build what the end-to-end test needs and run it: the UI (embedded into the
# app by the custom-protocol feature), the app, the mock backend, and
# tauri-driver when it is missing. System packages (xvfb, xcompmgr,
# webkit2gtk-driver, imagemagick) come from scripts/setup.sh, not from here.
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

step "UI build"
npm run --silent ui:build
step "cargo build -p yui --features custom-protocol"
cargo build -p yui --features custom-protocol
step "cargo build -p yui-mock"
cargo build -p yui-mock

step "node --test tests/e2e/"
rm -rf tests/e2e/artifacts && mkdir -p tests/e2e/artifacts
node --test --test-concurrency=1 tests/e2e/
