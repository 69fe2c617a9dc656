#!/usr/bin/env bash
# Install what YUI needs on Debian 12, skipping what is already there:
# apt packages, npm packages (npm ci), and tauri-driver for the end-to-end tests.
# Idempotent; run by scripts/run.sh and scripts/test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(build-essential pkg-config curl wget file libssl-dev libwebkit2gtk-4.1-dev libgtk-3-dev
  libayatana-appindicator3-dev librsvg2-dev libsoup-3.0-dev libxdo-dev libpipewire-0.3-dev libspa-0.2-dev
  libclang-dev libgbm-dev libegl-dev libwayland-dev libdrm-dev libxcb1-dev libxcb-randr0-dev libxcb-shm0-dev
  libdbus-1-dev xvfb xauth webkit2gtk-driver xcompmgr x11-utils imagemagick xdotool openbox gnome-keyring dbus
  libasound2-dev pulseaudio pulseaudio-utils espeak-ng libasound2-plugins sway grim libgtk-layer-shell-dev
  fonts-noto-cjk)

say() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }
fail() { printf '[setup] %s\n' "$*" >&2; exit 1; }
. scripts/lib.sh

apt_ensure "${APT_PACKAGES[@]}"

command -v cargo >/dev/null || { echo "cargo not found: install Rust (https://rustup.rs) and re-run" >&2; exit 1; }
# rustfmt and clippy: the test run checks the format and the lints.
if command -v rustup >/dev/null; then
  for c in rustfmt clippy; do
    rustup component list --installed 2>/dev/null | grep -q "^$c" || { say "rustup component add $c"; rustup component add "$c"; }
  done
fi
command -v npm >/dev/null || { echo "npm not found: install Node.js 20 and re-run" >&2; exit 1; }

# npm packages: reinstall when the lockfile changed since the last install.
stamp=node_modules/.yui-lock-stamp
if [ ! -f "$stamp" ] || ! cmp -s package-lock.json "$stamp"; then
  say "npm ci"
  npm ci --no-audit --no-fund --loglevel=error
  cp package-lock.json "$stamp"
fi

if [ "${YUI_SETUP_E2E:-1}" = "1" ] && ! command -v tauri-driver >/dev/null && [ ! -x "$HOME/.cargo/bin/tauri-driver" ]; then
  say "cargo install tauri-driver"
  cargo install tauri-driver --locked --quiet
fi
say "ready"
