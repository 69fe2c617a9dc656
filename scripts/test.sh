#!/usr/bin/env bash
# Run every test of YUI on a fresh Debian 12 machine: installs what is missing,
# then the Rust tests (core, CLI, mock, app, TS bindings check), the UI unit
# tests and type check, and the end-to-end test of the real app under Xvfb.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
export PATH="$HOME/.cargo/bin:$PATH"

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

step "UI build (the app embeds ui/dist)"
npm run --silent ui:build

step "Rust tests (workspace, including the stale-bindings check)"
cargo test --workspace --features yui/custom-protocol

step "The key in a real Secret Service (gnome-keyring on a private session bus)"
dbus-run-session -- sh -c 'printf yui | gnome-keyring-daemon --unlock --components=secrets >/dev/null && cargo test --workspace --features yui/custom-protocol --test keychain -- --ignored'

step "UI unit tests"
npm run --silent test:ui

step "End-to-end: the real app under Xvfb, driven by tauri-driver"
./tests/e2e/run.sh
