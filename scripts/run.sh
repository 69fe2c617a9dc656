#!/usr/bin/env bash
# Run YUI: install what is missing, build, and start the app.
# With no backend configured in settings, the built-in demo agent answers.
set -euo pipefail
cd "$(dirname "$0")/.."
YUI_SETUP_E2E=0 ./scripts/setup.sh
exec npm run tauri -- dev "$@"
