#!/usr/bin/env bash
# End-to-end tests of the real desktop binary under Xvfb with tauri-driver and WebKitWebDriver.
# Prints "desktop-e2e: N passed, N failed, N skipped" at the end.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
ensure_base && ensure_desktop_libs && ensure_tauri_driver && ensure_test_servers || exit 1
export PATH="$HOME/.cargo/bin:$PATH"

# The app embeds ui/dist when it is compiled: build the UI first when its sources are newer than the build.
if [ ! -f ui/dist/index.html ] || [ -n "$(find ui/src ui/index.html -newer ui/dist/index.html -print -quit)" ]; then
  bash scripts/test-ui.sh build || exit 1
fi
build_programs || exit 1
start_xvfb || { echo "desktop-e2e: 0 passed, 1 failed, 0 skipped"; exit 1; }

log=$(mktemp)
trap 'rm -f "$log"; kill "$XVFB_PID" 2>/dev/null' EXIT
# Bounded: a hung window or driver must fail this part, not the whole run.
# One D-Bus session bus for the whole run, stopped at the end with what it started (scripts/lib.sh,
# with_session_bus): without it every app started a bus of its own through X11 autolaunch, left running after
# the app was killed.
E2E_DISPLAY=$XVFB_DISPLAY with_session_bus timeout 900 node --test --test-reporter=tap src-tauri/e2e/ 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
passed=$(grep -E '^# pass [0-9]+' "$log" | awk '{print $3}' | tail -1)
failed=$(grep -E '^# fail [0-9]+' "$log" | awk '{print $3}' | tail -1)
# A test that ran out of time is counted by node:test as cancelled: a failure here.
cancelled=$(grep -E '^# cancelled [0-9]+' "$log" | awk '{print $3}' | tail -1)
# Skipped and to-do tests ({ skip }, { todo }) did not run: counted apart, not as passes.
skipped=$(grep -E '^# skipped [0-9]+' "$log" | awk '{print $3}' | tail -1)
todo=$(grep -E '^# todo [0-9]+' "$log" | awk '{print $3}' | tail -1)
echo "desktop-e2e: ${passed:-0} passed, $(( ${failed:-1} + ${cancelled:-0} )) failed, $(( ${skipped:-0} + ${todo:-0} )) skipped"
exit "$status"
