#!/usr/bin/env bash
# Type-check the whole app (core, demo, Tauri shell) for Windows and macOS
# from Linux: `cargo check -p yui` for x86_64-pc-windows-gnu and
# x86_64-apple-darwin. Nothing is linked or run (that needs the platforms
# themselves); this keeps the platform code (platform/win32.rs, platform/macos.rs,
# Tauri's per-platform window calls) compiling. Installs what it needs:
# the two rustup targets, mingw-w64 (the Windows resource compiler that
# tauri-build runs) and clang (objc2's one Objective-C file, which needs no
# Apple SDK). scripts/test.sh runs it in two parts: `--prepare` (the
# packages and targets, in the foreground: apt takes a lock others need) and
# `--check` (the check alone, in the background); with no argument, both.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"

say() { printf '\033[1m[cross-check]\033[0m %s\n' "$*"; }
fail() { printf '[cross-check] FAIL: %s\n' "$*" >&2; exit 1; }
. scripts/lib.sh

mode=${1:-all}
case "$mode" in all | --prepare | --check) ;; *) fail "unknown argument $mode (--prepare, --check or none)" ;; esac
if [ "$mode" != --check ]; then
  apt_ensure clang gcc-mingw-w64-x86-64 binutils-mingw-w64-x86-64
  rustup target add x86_64-pc-windows-gnu x86_64-apple-darwin >/dev/null
fi
[ "$mode" != --prepare ] || exit 0
# The bundled SQLite is C: a check links nothing, so it is not compiled for
# these targets (macOS would need the SDK's headers); the conversation
# history's Rust side is checked all the same. The platforms' own builds
# compile it with their toolchains.
export LIBSQLITE3_SYS_USE_PKG_CONFIG=1

# Both targets in one cargo run: the build scripts and proc-macros they
# share are built once, and the two crate graphs keep both cores busy.
say "cargo check -p yui --target x86_64-pc-windows-gnu --target x86_64-apple-darwin"
# Warnings are errors, as in the Linux lints (with --target, RUSTFLAGS reach
# only the checked crates, not the build scripts and proc-macros).
CC_x86_64_apple_darwin=clang RUSTFLAGS="${RUSTFLAGS:-} -D warnings" cargo check -p yui --target x86_64-pc-windows-gnu --target x86_64-apple-darwin
say "PASS: the app type-checks for Windows and macOS"
